"""The guardrail on argv and protected paths: rewrites a model would try are decided as the
literal form is, and commands that only mention the words are allowed (core/policy/rules.py
evaluate_doc with core/policy/shellparse.py, argv.py and paths.py, against a virtual home)."""
from __future__ import annotations

import pytest

from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

H = "/home/me"
FS = MemoryFS({f"{H}/.ssh/id_rsa": "k", f"{H}/.ssh/id_rsa.pub": "p", f"{H}/.ssh/known_hosts": "h",
               f"{H}/work/a.txt": "x", f"{H}/work/s.sh": "rm -rf /tmp/x\n"})
DOC = {"unresolved": "ask",
       "rules": [{"id": "rmrf", "tool": "shell", "command": ["rm"],
                  "args": ["-r|-R|--recursive", "-f|--force"], "decision": "deny", "reason": "no"}],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                  "access": ["read", "write"], "decision": "deny", "reason": "keys"}]}


def decide(command: str, cwd: str = f"{H}/work"):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(DOC, calls, Context(H, cwd, {"HOME": H}, FS))


@pytest.mark.parametrize("command", [
    "rm -r -f x", "rm -fr x", "rm -Rf x", "rm --recursive --force x", '"rm" -rf x',
    "rm \\\n -rf x", "R=rm; $R -rf x", "/bin/rm -rf x", "\\rm -rf x", "bash -c 'rm -rf x'",
    "sudo rm -rf x", "env -i FOO=1 rm -rf x", "timeout 5 rm -rf x", "rm --rec --for x",
    "find . -exec rm -rf {} \\;", "xargs rm -rf < list", "eval 'rm -rf x'", "sh <<< 'rm -rf x'",
    "bash s.sh",
])
def test_rewritten_recursive_force_rm_is_denied_by_the_argv_rule(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("deny", "rmrf")


@pytest.mark.parametrize("command,cwd", [
    ("cat ~/.ssh/id_r*", f"{H}/work"), ("cd ~/.ssh && cat id_rsa", f"{H}/work"),
    ("grep -r foo ~/.ssh", f"{H}/work"), ("tar cf - .ssh | tar xOf -", H),
    ("cat ~/.ssh/./id_rsa", f"{H}/work"), ("cat ~/.ssh//id_rsa", f"{H}/work"),
    ("cat $HOME/.ssh/id_rsa", f"{H}/work"), ("cat ~/.ssh/id_{rsa,x}", f"{H}/work"),
    ("python3 -c 'print(open(\"/home/me/.ssh/id_rsa\").read())'", f"{H}/work"),
    ("find ~/.ssh -name 'id_*' | xargs cat", f"{H}/work"), ("cp ~/.ssh/id_rsa /tmp/k", f"{H}/work"),
    ("echo x > ~/.ssh/id_rsa", f"{H}/work"), ("cat < ../.ssh/id_rsa", f"{H}/work"),
])
def test_reads_and_writes_of_a_protected_file_are_denied(command, cwd):
    v = decide(command, cwd)
    assert (v.decision, v.rule) == ("deny", "keys"), v.reason


@pytest.mark.parametrize("command", [
    "$(echo rm) -rf x", "echo cm0gLXJmIHg= | base64 -d | sh", "eval $X", "sh -c \"$CMD\"",
    "source $F",
])
def test_what_cannot_be_resolved_gets_the_unresolved_decision(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("ask", "unresolved")


@pytest.mark.parametrize("command", [
    'echo "rm -rf x"', "printf 'rm -rf %s' old", 'git commit -m "rm -rf old"', "grep -- -rf f",
    "cat ~/.ssh/known_hosts", "cat ~/.ssh/*.pub", "ls ~/.ssh", "ls -la ~/.ssh/id_rsa",
    "rm -r build", "stat ~/.ssh/id_rsa",
])
def test_mentions_and_unprotected_neighbours_are_allowed(command):
    assert decide(command).decision == "allow"
