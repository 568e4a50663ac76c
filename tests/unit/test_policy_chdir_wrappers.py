"""A program that runs in another folder (programs.RUN_FOLDER, one table and one reader,
run_folders): a wrapper's command (`env -C DIR`, `sudo -D DIR`, `unshare --wd=DIR`, `nsenter -w
DIR`, `chroot DIR`), a program's own commands (`tmux -c`, `gdb --cd`, `bwrap --chdir`) and make's
makefile and recipes (`make -C`) have their relative paths judged from DIR, through other
wrappers too; a DIR that is not static is unresolved, and so is an abbreviation of a folder
option whose program's long options are not known as data (`sudo --chd=DIR`)."""
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
    fs = MemoryFS({f"{H}/.ssh/id_rsa": "K", f"{H}/.ssh/id_rsa.pub": "P", f"{W}/README.md": "x",
                   f"{H}/.ssh/Makefile": "all:\n\tcat id_rsa\n"})
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(doc, calls, Context(H, W, {"HOME": H}, fs))


def _forms(name: str) -> list[str]:
    opts = P.RUN_FOLDER[name]
    if opts == ("",):
        return [f"{name} ../../.ssh cat id_rsa"]
    out = []
    for o in opts:
        out.append(f"{name} {o}=../../.ssh cat id_rsa" if o.startswith("--")
                   else f"{name} {o}../../.ssh cat id_rsa")
        out.append(f"{name} {o} ../../.ssh cat id_rsa")
    return out


WRAPPED = sorted(n for n in P.RUN_FOLDER if n in P.WRAPPERS)
#: how each program in RUN_FOLDER that is not a wrapper runs `cat id_rsa` in its folder ({o}
#: the option and its value): a program added to the table needs its line here
RUNS = {"tmux": "tmux new -d {o} 'cat id_rsa'", "gdb": "gdb -batch {o} -ex 'shell cat id_rsa'",
        "bwrap": "bwrap --bind / / {o} cat id_rsa", "make": "make {o}", "gmake": "gmake {o}"}
OWN = sorted(n for n in P.RUN_FOLDER if n not in P.WRAPPERS)


def _spellings(opt: str, value: str) -> list[str]:
    if opt.startswith("--"):
        return [f"{opt}={value}", f"{opt} {value}"]
    return [f"{opt}{value}", f"{opt} {value}"] if len(opt) == 2 else [f"{opt} {value}"]


@pytest.mark.parametrize("name", WRAPPED)
def test_each_wrapper_s_folder_is_where_its_command_reads(name):
    for command in _forms(name):
        for outer in ("{}", "timeout 5 {}", "nice -n 5 nohup {}"):
            v = _decide(outer.format(command))
            assert v.decision == "deny", (outer.format(command), v.reason)
            assert "id_rsa" in v.reason


@pytest.mark.parametrize("name", WRAPPED)
def test_a_wrapper_s_folder_that_is_not_static_is_asked(name):
    opts = P.RUN_FOLDER[name]
    command = f"{name} \"$D\" cat id_rsa" if opts == ("",) else f"{name} {opts[0]} \"$D\" cat id_rsa"
    assert _decide(command).decision == "ask", command


def test_the_folder_is_the_wrapped_command_s_only():
    assert _decide("env -C ../../.ssh cat id_rsa.pub").decision == "allow"
    assert _decide("env -C ../../.ssh true; cat README.md").decision == "allow"
    assert _decide("env -C ../../.ssh true; cat id_rsa").decision == "allow"   # (repo's id_rsa)


@pytest.mark.parametrize("name", OWN)
def test_each_program_s_folder_is_where_its_commands_read(name):
    assert name in RUNS, f"{name} is in programs.RUN_FOLDER: say here how it runs a command"
    for opt in P.RUN_FOLDER[name]:
        for spelled in _spellings(opt, "../../.ssh"):
            command = RUNS[name].format(o=spelled)
            v = _decide(command)
            assert v.decision == "deny" and "id_rsa" in v.reason, (command, v.reason)
        command = RUNS[name].format(o=_spellings(opt, '"$D"')[-1])
        assert _decide(command).decision == "ask", command


def test_make_s_folders_add_up_and_the_others_take_the_last():
    assert _decide("make -C ../.. -C .ssh").decision == "deny"
    assert _decide("make -C ../.. -C .ssh -C /tmp").decision == "allow"
    assert _decide("tmux new -d -c /tmp -c ../../.ssh 'cat id_rsa'").decision == "deny"
    assert _decide("tmux new -d -c ../../.ssh -c /tmp 'cat id_rsa'").decision == "allow"


@pytest.mark.parametrize("name", sorted(P.RUN_FOLDER))
def test_an_abbreviated_folder_option_is_the_option_or_asked(name):
    """GNU getopt_long takes any unambiguous prefix (`sudo --chd=DIR`, `unshare --w=DIR`):
    never allowed as if it named no folder (red team round 9's probes)."""
    for opt in (o for o in P.RUN_FOLDER[name] if o.startswith("--")):
        short = opt[:-1]
        template = RUNS.get(name, name + " {o} cat id_rsa")
        command = template.format(o=f"{short}=../../.ssh")
        assert _decide(command).decision in ("deny", "ask"), command
