"""Red team round 8's classes (a blind team, docs/policy.md only), each stopped by its effect:
a brace sequence that makes one word (`~/.{s..s}sh`, `{r..r..1}`: bash expands it to `s`), and
`find -execdir`, which runs its command in the folder of each file found."""
from __future__ import annotations

import pytest

from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.shellparse import expand_braces
from agentdeck.core.policy.vocabulary import tool_calls

HOME = "/home/me"
DOC = {"unresolved": "ask", "rules": [],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                  "access": ["read", "write"], "decision": "deny", "reason": "keys"}]}
FS = MemoryFS({f"{HOME}/.ssh/id_rsa": "k", f"{HOME}/.ssh/id_rsa.pub": "p",
               f"{HOME}/proj/a.py": "a", f"{HOME}/proj/sub/b.py": "b"})


def _decide(command: str):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(DOC, calls, Context(HOME, f"{HOME}/proj", {"HOME": HOME}, FS))


@pytest.mark.parametrize("command,decision", [
    ("cat ~/.{s..s}sh/id_rsa", "deny"), ("cat ~/.ssh/id_{r..r..1}sa", "deny"),
    ("cat ~/.ssh/id_{r..r..0}sa", "deny"),
    ("find ~/.ssh/id_rsa.pub -execdir cat id_rsa \\;", "deny"),
    ("find ~/.ssh -name '*.pub' -okdir cp id_rsa /tmp/k \\;", "deny"),
    ("find . -name '*.py' -execdir cat notes.txt \\;", "ask"),      # every folder below: unknown
    ("echo {1..5..2}", "allow"), ("find . -name '*.py' -execdir wc -l {} +", "allow"),
])
def test_round8_forms(command, decision):
    assert _decide(command).decision == decision


def test_brace_sequences_are_bash_s():
    """The same words bash gives (bash 5.2: `echo {1..3..0} {z..a..10} {05..10..3}`)."""
    assert expand_braces("{1..3..0}") == ["1", "2", "3"]
    assert expand_braces("{z..a..10}") == ["z", "p", "f"]
    assert expand_braces("{05..10..3}") == ["05", "08"]
    assert expand_braces("{a..b..x}") == ["{a..b..x}"]
