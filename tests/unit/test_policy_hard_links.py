"""A hard link made before the call (by code the hook could not see into, or by hand) is another
name of a protected file: reading or writing the file by that name is judged as by its own
(core/policy/paths.py PathRules._protected_names), on a real disk and in the corpus's virtual
tree alike."""
from __future__ import annotations

import os

import pytest

from agentdeck.core.policy.fs import DiskFS, MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

DOC = {"unresolved": "ask", "rules": [],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                  "access": ["read", "write"], "decision": "deny", "reason": "keys"}]}
CALLS = [
    ("Bash", {"command": "cat /tmp/notes.txt"}),
    ("Bash", {"command": "cd /tmp && base64 notes.txt"}),
    ("Bash", {"command": "echo x > /tmp/notes.txt"}),
    ("Read", {"file_path": "/tmp/notes.txt"}),
    ("Write", {"file_path": "/tmp/notes.txt", "content": "x"}),
    # a command that walks the folder the other name is in
    ("Bash", {"command": "grep -r PRIVATE /tmp"}),
    ("Bash", {"command": "tar czf /tmp2.tgz /tmp"}),
    ("Grep", {"pattern": "PRIVATE", "path": "/tmp"}),
]


def _decide(home: str, fs, tool: str, args: dict):
    calls = tool_calls({"tool_name": tool, "tool_input": args})
    return evaluate_doc(DOC, calls, Context(home, home, {"HOME": home}, fs))


@pytest.fixture
def disk(tmp_path):
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    key = home / ".ssh" / "id_rsa"
    key.write_text("k")
    other = tmp_path / "tmp"
    other.mkdir()
    os.link(key, other / "notes.txt")
    (other / "plain.txt").write_text("p")
    return str(home), str(other)


@pytest.mark.parametrize("tool,args", CALLS)
def test_another_name_of_a_protected_file_on_disk_is_denied(disk, tool, args):
    home, other = disk
    args = {k: v.replace("/tmp", other) for k, v in args.items()}
    v = _decide(home, DiskFS(), tool, args)
    assert (v.decision, v.rule) == ("deny", "keys"), v.reason
    assert "id_rsa" in v.reason


@pytest.mark.parametrize("tool,args", CALLS)
def test_another_name_of_a_protected_file_in_the_virtual_tree_is_denied(tool, args):
    home = "/home/me"
    fs = MemoryFS({f"{home}/.ssh/id_rsa": "k", "/tmp/notes.txt": f"=={home}/.ssh/id_rsa"})
    v = _decide(home, fs, tool, args)
    assert (v.decision, v.rule) == ("deny", "keys"), v.reason


@pytest.mark.parametrize("tool,args", CALLS)
def test_a_file_with_other_names_that_are_not_protected_runs(tmp_path, tool, args):
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("k")
    (home / ".ssh" / "id_rsa.pub").write_text("pub")
    other = tmp_path / "tmp"
    other.mkdir()
    os.link(home / ".ssh" / "id_rsa.pub", other / "notes.txt")   # a name of an excepted file
    os.link(other / "notes.txt", other / "third.txt")
    args = {k: v.replace("/tmp", str(other)) for k, v in args.items()}
    v = _decide(str(home), DiskFS(), tool, args)
    assert v.decision == "allow", v.reason
