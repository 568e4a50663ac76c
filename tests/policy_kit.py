"""The red team rounds' unit tests' shared set-up: a home with a private key, the rules every
round's attacks aim at (an argv rule on `rm -r -f`, the protected keys and the guard's own
files with the system files later programs load), and one Bash call decided under them."""
from __future__ import annotations

from agentdeck.core.policy.compiled import SHELL_STARTUP, SYSTEM_RUNTIME
from agentdeck.core.policy.rules import Context, Verdict, evaluate_doc
from agentdeck.core.policy.vocabulary import SELF_RULE, tool_calls

HOME = "/home/me"
HOOK = f"{HOME}/.claude/agentdeck-hook.sh"
DOC = {"unresolved": "ask",
       "rules": [{"id": "rm", "tool": "shell", "command": "rm", "args": ["-r|-R", "-f|--force"],
                  "decision": "deny", "reason": "no rm -rf"}],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                  "access": ["read", "write"], "decision": "deny", "reason": "keys"},
                 {"id": SELF_RULE, "paths": ["~/.claude/agentdeck-hook.sh",
                                             "~/.claude/settings.json", *SHELL_STARTUP,
                                             *SYSTEM_RUNTIME],
                  "access": ["write"], "decision": "deny", "reason": "the guard"}]}


def decide(fs, command: str, cwd: str = f"{HOME}/proj", env: dict | None = None) -> Verdict:
    """The decision for a Bash call of `command` run in `cwd` on the tree `fs`."""
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(DOC, calls, Context(HOME, cwd, {"HOME": HOME, **(env or {})}, fs))
