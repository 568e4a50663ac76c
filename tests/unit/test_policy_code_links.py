"""A link made by an interpreter's inline code (python `os.symlink`, node `fs.symlinkSync`, perl
and ruby `symlink`, pathlib's `symlink_to`; programs.code_links) is judged as `ln -s` is: a link
to a folder above a key is access to the key, the line's later commands follow it, and a link
whose names are not literals is unresolved. A link already on the disk is resolved at decision
time (a later call's read through it)."""
from __future__ import annotations

import json

import pytest

from agentdeck.core.policy import programs as P
from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

H = "/home/alice"
W = f"{H}/work/repo"


def _decide(command: str, extra: dict | None = None):
    doc = json.loads(compile_policy({"unresolved": "ask", "paths": [
        {"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
         "access": ["read", "write"], "decision": "deny"}]}, "claude", home=H))
    fs = MemoryFS({f"{H}/.ssh/id_rsa": "K", f"{H}/.ssh/id_rsa.pub": "P", f"{W}/src/a.py": "x",
                   **(extra or {})})
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(doc, calls, Context(H, W, {"HOME": H}, fs))


MAKERS = [
    "python3 -c 'import os; os.symlink(\"{t}\", \"{l}\")'",
    "python3 -c 'from pathlib import Path; Path(\"{l}\").symlink_to(\"{t}\")'",
    "node -e 'require(\"fs\").symlinkSync(\"{t}\", \"{l}\")'",
    "perl -e 'symlink \"{t}\", \"{l}\"'", "ruby -e 'File.symlink(\"{t}\", \"{l}\")'",
]


@pytest.mark.parametrize("maker", MAKERS)
def test_a_link_made_by_code_to_a_folder_above_a_key_is_denied(maker):
    make = maker.format(t="../../.ssh", l="lnk")
    for command in (make, f"{make}; cat lnk/id_rsa", f"(sleep 20; {make}) &"):
        v = _decide(command)
        assert v.decision == "deny", (command, v.reason)


@pytest.mark.parametrize("maker", MAKERS)
def test_a_link_made_by_code_elsewhere_runs(maker):
    command = maker.format(t="src", l="lnk") + "; cat lnk/a.py"
    assert _decide(command).decision == "allow", command


def test_a_link_whose_names_are_not_literals_is_asked():
    v = _decide("python3 -c 'import os,sys; os.symlink(sys.argv[1], \"lnk\")' ../../.ssh")
    assert v.decision == "ask", v.reason
    assert P.code_links("os.symlink(a, 'lnk')") is None
    assert P.code_links("print('link'); os.unlink('x'); os.path.islink('y')") == []


def test_a_link_on_the_disk_is_followed_by_a_later_call():
    # the link a background job made before this call: resolved at decision time
    v = _decide("cat lnk/id_rsa", {f"{W}/lnk": f"->{H}/.ssh"})
    assert v.decision == "deny", v.reason
