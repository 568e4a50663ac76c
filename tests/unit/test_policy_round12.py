"""Red team round 12's classes, judged by their effect: a declaration bash refuses (a readonly
name, `local` outside a function, an option it does not know) assigns nothing; an assignment
before a special builtin may stay (POSIX mode, dash), and POSIX mode itself is unresolved; a
function whose definition may not have run is judged as its body and as the program both;
`set -a` and a name the shell got from its environment export what is assigned; an argument
list in inline code with an element that is no literal holds a word not known; the wrappers,
PATH folders and JVM option variables the round found."""
from __future__ import annotations

import pytest

from agentdeck.core.policy import programs as P
from agentdeck.core.policy.compiled import SHELL_STARTUP
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.vocabulary import SELF_RULE

from tests.policy_kit import HOME, decide

FS = MemoryFS({f"{HOME}/.ssh/id_rsa": "k", f"{HOME}/.ssh/id_rsa.pub": "p",
               f"{HOME}/.claude/settings.json": "{}", f"{HOME}/proj/a.py": "a"})


def _decide(command: str, **env):
    return decide(FS, command, env=env)


@pytest.mark.parametrize("command", [
    "readonly x=.ssh; declare x=foo; cat ~/$x/id_rsa",
    "declare -r x=.ssh; x=foo; cat ~/$x/id_rsa",
    "x=.ssh; local x=foo; cat ~/$x/id_rsa",
    "x=.ssh; declare -Z x=foo; cat ~/$x/id_rsa",
    "x=.ssh :; cat ~/$x/id_rsa",
])
def test_an_assignment_bash_does_not_make_leaves_the_old_value(command):
    assert _decide(command).decision == "deny", command


@pytest.mark.parametrize("command", ["set -o posix; echo hi", "POSIXLY_CORRECT=1 bash -c 'echo hi'",
                                     "bash --posix -c 'echo hi'"])
def test_posix_mode_is_unresolved(command):
    assert _decide(command).decision == "ask", command


@pytest.mark.parametrize("command", [
    "false && rm() { :; }; rm -rf /tmp/v", "if false; then rm() { :; }; fi; rm -rf /tmp/v",
    "(cat() { :; }); cat ~/.ssh/id_rsa", "cat() { :; } & cat ~/.ssh/id_rsa",
    "x=$(cp() { :; }); cp /tmp/x ~/.claude/settings.json",
])
def test_a_function_that_may_not_be_defined_is_also_the_program(command):
    assert _decide(command).decision == "deny", command


def test_a_function_surely_defined_is_its_body_only():
    assert _decide("rm() { echo no; }; rm -rf /tmp/v").decision == "allow"


@pytest.mark.parametrize("command,env", [
    ("set -a; o=-rf; python3 -c 'import os,subprocess;subprocess.run([\"rm\",os.environ[\"o\"],\"x\"])'", {}),
    ("PATH=~/.ssh/id_rsa; python3 -c 'import os;print(open(os.environ[\"PATH\"]).read())'",
     {"PATH": "/usr/bin"}),
    ("TERM=~/.claude/settings.json; perl -e 'open F,\">\",$ENV{TERM}; print F \"{}\"'",
     {"TERM": "xterm"}),
])
def test_an_exported_name_reaches_the_program(command, env):
    assert _decide(command, **env).decision in ("ask", "deny"), command
    if env:
        assert _decide(command).decision == "allow"     # not exported: the program's is not it


@pytest.mark.parametrize("command", [
    "python3 -c 'import subprocess,sys;subprocess.run([\"rm\",sys.argv[1],\"x\"])' -rf",
    "perl -e 'system(\"rm\",$ARGV[0],\"x\")' -- -rf",
    "python3 -c 'import subprocess,sys;subprocess.run([\"rm\",\"x\",sys.argv[1]])' -rf",
])
def test_an_argument_list_with_a_computed_element_is_not_known(command):
    v = _decide(command)
    assert v.decision == "ask" and "not known" in v.reason, (command, v.reason)


@pytest.mark.parametrize("wrapper", ["choom -n 100 --", "uclampset -m 0 -M 512"])
def test_the_wrappers_run_their_command(wrapper):
    assert _decide(f"{wrapper} rm -rf /tmp/v").decision == "deny"


def test_perf_running_a_command_is_unresolved():
    assert _decide("perf stat -- sh -c 'rm -rf /tmp/v'").decision == "ask"
    assert _decide("perf list").decision == "allow"


@pytest.mark.parametrize("glob", [g for g in SHELL_STARTUP if g.endswith("/**") and "bin" in g
                                  or "shims" in g])
def test_the_home_s_path_folders_are_the_guard_s(glob):
    v = _decide(f"cp /tmp/x {glob[:-2]}git")
    assert v.decision == "deny" and v.rule == SELF_RULE, (glob, v.reason)


@pytest.mark.parametrize("var", ["MAVEN_OPTS", "GRADLE_OPTS", "JAVA_OPTS"])
def test_jvm_option_variables_are_unresolved(var):
    assert _decide(f"{var}=-agentpath:/tmp/x.so mvn -v").decision == "ask"
    assert var in P.CODE_VARS
