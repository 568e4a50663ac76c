"""A CLI that runs its commands in zsh (its SHELL is zsh): the forms zsh reads in its own way
(core/policy/zshforms.py) are unresolved, the everyday forms run, and under bash nothing
changes. Observed: Claude Code 2.1.332 runs commands in zsh when that is the shell it finds,
and red team round 6 reached the key and the hook settings with `=rm`, extendedglob and zmv."""
from __future__ import annotations

import pytest

from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

HOME = "/home/me"
DOC = {"unresolved": "ask",
       "rules": [{"id": "rm", "tool": "shell", "command": "rm", "args": ["-r|-R", "-f"],
                  "decision": "deny", "reason": "no rm -rf"}],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                  "access": ["read", "write"], "decision": "deny", "reason": "keys"}]}
FS = MemoryFS({f"{HOME}/.ssh/id_rsa": "k", f"{HOME}/.ssh/id_rsa.pub": "p", f"{HOME}/proj/a.txt": "a"})
ZSH_FORMS = ["=rm -r -f /tmp/x", "setopt extendedglob; cat ~/.ssh/^*.pub",
             "cat ~/.ssh/id_rsa~*.pub", "cd ~/.claude && autoload -U zmv && zmv '(*).json' '$1.bak'",
             "ls *(e:'rm -rf /tmp/x':)", "cat =(cat ~/.ssh/id_rsa)"]
EVERYDAY = ["git diff HEAD~1", "git show HEAD^:a.txt", "cat *.txt", "ls -la ~/proj",
            "echo a=b", "git log --format=%h", "find . -name '*.py'", "cat ~/.ssh/id_rsa.pub"]


def _decide(command: str, shell: str):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(DOC, calls, Context(HOME, f"{HOME}/proj", {"HOME": HOME, "SHELL": shell}, FS))


@pytest.mark.parametrize("command", ZSH_FORMS)
def test_a_zsh_form_is_asked_when_the_cli_runs_zsh(command):
    v = _decide(command, "/bin/zsh")
    assert v.decision in ("ask", "deny") and v.rule in ("unresolved", "keys", "rm"), v.reason
    assert v.rule != "unresolved" or "zsh" in v.reason


@pytest.mark.parametrize("command", EVERYDAY)
def test_everyday_forms_run_under_zsh(command):
    assert _decide(command, "/usr/bin/zsh").decision == "allow"


def test_the_equals_form_reaches_rm_only_in_zsh():
    assert _decide("=rm -r -f /tmp/x", "/bin/zsh").decision == "ask"
    assert _decide("=rm -r -f /tmp/x", "/bin/bash").decision == "allow"    # bash: no such program
