"""Paths whose meaning depends on the process that opens them (a process's working folder, root
or open files under /proc, a descriptor above the standard three under /dev/fd), reached by
their text or through a link made before, are not known to the handler: the call is
unresolved, for a shell command and for a file tool alike (core/policy/paths.py
_PROCESS_PATH, PathRules._process_path)."""
from __future__ import annotations

import os

import pytest

from agentdeck.core.policy.fs import DiskFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

DOC = {"unresolved": "ask", "rules": [],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                  "access": ["read", "write"], "decision": "deny", "reason": "keys"}]}


@pytest.fixture
def home(tmp_path):
    h = tmp_path / "home"
    (h / ".ssh").mkdir(parents=True)
    (h / ".ssh" / "id_rsa").write_text("k")
    os.symlink("/proc/self/cwd", tmp_path / "pc")         # made before the call
    return str(h), str(tmp_path / "pc")


def _decide(home: str, tool: str, args: dict):
    calls = tool_calls({"tool_name": tool, "tool_input": args})
    return evaluate_doc(DOC, calls, Context(home, home, {"HOME": home}, DiskFS()))


@pytest.mark.parametrize("tool,args", [
    ("Bash", {"command": "exec 3< ~/.ssh; cd /proc/self/fd/3 && cat id_rsa"}),
    ("Bash", {"command": "exec 7< ~/.ssh; cat /dev/fd/7/id_rsa"}),
    ("Bash", {"command": "cd ~/.ssh && cat PC/id_rsa"}),
    ("Bash", {"command": "cat /proc/self/fd/../cwd/.ssh/id_rsa"}),
    ("Read", {"file_path": "PC/.ssh/id_rsa"}),
    ("Read", {"file_path": "PC/../../.ssh/id_rsa"}),
    ("Read", {"file_path": "/proc/self/fdinfo/../cwd/.ssh/id_rsa"}),
    ("Write", {"file_path": "PC/.claude/settings.json", "content": "x"}),
])
def test_a_process_path_is_asked(home, tool, args):
    h, pc = home
    args = {k: v.replace("PC", pc) for k, v in args.items()}
    v = _decide(h, tool, args)
    assert v.decision in ("ask", "deny") and v.rule in ("unresolved", "keys"), v.reason
    assert v.decision == "ask" or "id_rsa" in v.reason


@pytest.mark.parametrize("tool,args", [
    ("Bash", {"command": "cat /proc/cpuinfo"}), ("Bash", {"command": "echo x > /dev/stderr"}),
    ("Bash", {"command": "ls /proc/self/fd"}), ("Read", {"file_path": "/proc/meminfo"}),
])
def test_the_usual_proc_and_dev_paths_run(home, tool, args):
    assert _decide(home[0], tool, args).decision == "allow"
