"""Every decision has a time budget far inside the shortest hook timeout (issue 30.1): a glob
that walks the whole disk kept the handler busy past the CLI's 30 s, which every CLI treats as
allow. Past hookhandler.DECIDE_BUDGET the call is unresolved (`[policy] unresolved`), with an
audit line, never allowed."""
from __future__ import annotations

import json
import time

from agentdeck.core import hookhandler
from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.payloads import shapes

KEYS = {"id": "keys", "paths": ["~/.ssh/id_*"], "access": ["read"], "decision": "deny"}


class SlowFS(MemoryFS):
    """A disk whose glob never ends in time (a `/**/...` over millions of files)."""

    def glob(self, pattern: str) -> list[str]:
        time.sleep(30)
        return []


def _decide(monkeypatch, command: str, unresolved: str):
    monkeypatch.setattr(hookhandler, "DECIDE_BUDGET", 0.3)
    doc = json.loads(compile_policy({"rules": [], "paths": [KEYS], "unresolved": unresolved},
                                    "claude", home="/h"))
    label, caller, event, payload = next(s for s in shapes("shell", command) if s[1] == "claude")
    record = hookhandler.build_record(payload, event, {"AGENTDECK_TARGET": caller}, None)
    t0 = time.perf_counter()
    code, out, err = hookhandler.decide(payload, record, {"AGENTDECK_TARGET": caller, "HOME": "/h"},
                                        None, t0, policy=(doc, None), fs=SlowFS({"/h": None}))
    return time.perf_counter() - t0, record, code, out


def test_a_glob_past_the_budget_is_unresolved_not_allowed(monkeypatch):
    took, record, code, out = _decide(monkeypatch, "cat /**/id_rsa", "deny")
    assert took < 5
    assert (record["decision"], record["rule"]) == ("deny", "unresolved")
    assert "could not decide within" in record["reason"]
    assert code == 2


def test_out_of_budget_asks_where_unresolved_asks(monkeypatch):
    took, record, code, out = _decide(monkeypatch, "cat /**/id_rsa", "ask")
    assert took < 5 and (record["decision"], record["rule"]) == ("ask", "unresolved")
    assert '"ask"' in out
