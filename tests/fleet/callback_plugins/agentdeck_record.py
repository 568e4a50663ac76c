"""Test-only Ansible callback: every task result as one JSON line in $AGENTDECK_RECORD, so the
fleet tests read each host's result as data (the default stdout callback still prints the play
output, which the tests check for tracebacks)."""
from __future__ import annotations

import json
import os

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = """
    name: agentdeck_record
    type: aggregate
    short_description: records task results for agentdeck's fleet tests
    description: [Appends one JSON line per task result to the file named by AGENTDECK_RECORD.]
"""


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "agentdeck_record"
    CALLBACK_NEEDS_ENABLED = True

    def _record(self, status, result):
        host = getattr(result, "host", None) or result._host
        task = getattr(result, "task", None) or result._task
        data = getattr(result, "result", None)
        if data is None:
            data = result._result
        line = {"host": host.get_name(), "task": task.get_name(), "status": status,
                "result": data}
        with open(os.environ["AGENTDECK_RECORD"], "a", encoding="utf-8") as f:
            f.write(json.dumps(line, default=str) + "\n")

    def v2_runner_on_ok(self, result):
        data = getattr(result, "result", None) or result._result
        self._record("changed" if data.get("changed") else "ok", result)

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._record("failed", result)

    def v2_runner_on_unreachable(self, result):
        self._record("unreachable", result)

    def v2_runner_on_skipped(self, result):
        self._record("skipped", result)
