"""How OpenAI Codex CLI's hooks talk to agentdeck's handler (the `dialect` part,
core/targets/parts/dialect.py). Standard library only: the handler imports it on every call.

Codex 0.171.0 sends Claude Code's hook schema plus its own fields (observed,
tests/fixtures/payloads/codex/): session_id, turn_id, hook_event_name, tool_name + tool_input
(Bash, exec_command {cmd}, shell {command: [argv]}, apply_patch), transcript_path, model.
"""
from __future__ import annotations

from ..dialects import Dialect, McpNaming, Speaker, camel

VERIFIED = "0.171.0"

CODEX = Dialect(
    "codex", "codex", VERIFIED,
    # one object carrying both stdout shapes lets the tool run (observed): specific alone
    pre_tool={"deny_exit": 2, "shape": "specific", "crash_denies": False, "ask": "deny",
              "ask_note": "Codex has no ask at a hook (codex exec never asks): ask is denied",
              "source": "observed"},
    # exit 2 with the reason on stderr blocks; `codex exec` prints "UserPromptSubmit Blocked"
    prompt={"exit": 2, "shape": "block", "source": "observed"},
    path_tools={"read": "none: Codex has no read tool, read rules act on its shell commands' "
                        "operands",
                "write": "apply_patch (every path)", "shell": "exec_command, shell, Bash"})

DIALECTS = (CODEX,)

#: the tools Codex names beyond the shared ones (core/policy/vocabulary.py SHARED: Bash, shell,
#: apply_patch, ...), folded; Codex has no read tool
TOOLS = {"execcommand": ("shell", ""), "localshell": ("shell", ""), "unifiedexec": ("shell", "")}

#: the model is offered a Responses namespace `mcp__<server>` holding `<tool>`; the hook sees
#: `mcp__<server>__<tool>` with every character but [A-Za-z0-9_] made `_`
MCP_NAMES = McpNaming("mcp__", "__", "A-Za-z0-9_", "_", "sure", verified=VERIFIED,
                      note="the model is offered a namespace mcp__<server> holding <tool>")


def _home(p: dict) -> Dialect | None:
    if camel(p) or "hookEventName" in p:
        return None
    return CODEX


SPEAKERS = {"codex": Speaker((CODEX,), _home)}


def recognise(p: dict) -> tuple[int, Dialect] | None:
    return (80, CODEX) if "turn_id" in p else None
