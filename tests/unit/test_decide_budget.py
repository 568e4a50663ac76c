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

    def glob(self, pattern: str, hidden: bool = False) -> list[str]:
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


class SwallowingFS(MemoryFS):
    """A reader that catches every Exception around slow work, as an archive listing does
    (fs.DiskFS.archive_members: any archive the modules cannot read has no known members)."""

    def archive_members(self, p: str):
        try:
            t = time.perf_counter()
            while time.perf_counter() - t < 2:      # a bzip2 bomb being listed, in Python
                sum(range(1000))
        except Exception:
            return None
        return None


def test_a_reader_that_catches_exceptions_does_not_swallow_the_budget(monkeypatch):
    """Three archives of a bomb on one line: the first listing's `except Exception` must not
    eat the budget's end (then each further listing ran untimed: 30-78 s in real turns, past
    every CLI's hook timeout, and Copilot and Gemini ran the call)."""
    monkeypatch.setattr(hookhandler, "DECIDE_BUDGET", 0.3)
    doc = json.loads(compile_policy({"rules": [], "paths": [KEYS], "unresolved": "deny"},
                                    "claude", home="/h"))
    command = "; ".join(["false && tar -xjf /h/b.tar.bz2 -C /h/x"] * 3 + ["cat /h/.ssh/id_rsa"])
    label, caller, event, payload = next(s for s in shapes("shell", command) if s[1] == "claude")
    record = hookhandler.build_record(payload, event, {"AGENTDECK_TARGET": caller}, None)
    t0 = time.perf_counter()
    code, out, err = hookhandler.decide(payload, record, {"AGENTDECK_TARGET": caller, "HOME": "/h"},
                                        None, t0, policy=(doc, None),
                                        fs=SwallowingFS({"/h/b.tar.bz2": "x", "/h/x": None}))
    took = time.perf_counter() - t0
    assert took < 1.5, took
    assert record["decision"] == "deny" and code == 2, record
