"""A wrapper that runs its command in another folder (`env -C DIR`, `sudo -D DIR`, `unshare
--wd=DIR`, `nsenter -w DIR`, `chroot DIR`; programs.WRAPPER_CHDIR): the command's relative
paths are judged from DIR, through other wrappers too; a DIR that is not static is unresolved."""
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


def _decide(command: str):
    doc = json.loads(compile_policy({"unresolved": "ask", "paths": [
        {"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
         "access": ["read", "write"], "decision": "deny"}]}, "claude", home=H))
    fs = MemoryFS({f"{H}/.ssh/id_rsa": "K", f"{H}/.ssh/id_rsa.pub": "P", f"{W}/README.md": "x"})
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(doc, calls, Context(H, W, {"HOME": H}, fs))


def _forms(name: str) -> list[str]:
    opts = P.WRAPPER_CHDIR[name]
    if opts == ("",):
        return [f"{name} ../../.ssh cat id_rsa"]
    out = []
    for o in opts:
        out.append(f"{name} {o}=../../.ssh cat id_rsa" if o.startswith("--")
                   else f"{name} {o}../../.ssh cat id_rsa")
        out.append(f"{name} {o} ../../.ssh cat id_rsa")
    return out


@pytest.mark.parametrize("name", sorted(P.WRAPPER_CHDIR))
def test_each_wrapper_s_folder_is_where_its_command_reads(name):
    for command in _forms(name):
        for outer in ("{}", "timeout 5 {}", "nice -n 5 nohup {}"):
            v = _decide(outer.format(command))
            assert v.decision == "deny", (outer.format(command), v.reason)
            assert "id_rsa" in v.reason


@pytest.mark.parametrize("name", sorted(P.WRAPPER_CHDIR))
def test_a_wrapper_s_folder_that_is_not_static_is_asked(name):
    opts = P.WRAPPER_CHDIR[name]
    command = f"{name} \"$D\" cat id_rsa" if opts == ("",) else f"{name} {opts[0]} \"$D\" cat id_rsa"
    assert _decide(command).decision == "ask", command


def test_the_folder_is_the_wrapped_command_s_only():
    assert _decide("env -C ../../.ssh cat id_rsa.pub").decision == "allow"
    assert _decide("env -C ../../.ssh true; cat README.md").decision == "allow"
    assert _decide("env -C ../../.ssh true; cat id_rsa").decision == "allow"   # (repo's id_rsa)
