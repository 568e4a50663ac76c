"""How OpenCode's agentdeck plugin talks to agentdeck's handler (the `dialect` part,
core/targets/parts/dialect.py). Standard library only: the handler imports it on every call.

OpenCode 1.18.33 has no shell hooks. agentdeck's plugin (<home>/plugins/agentdeck.js, written by
the adapter) implements `tool.execute.before(input, output)`, which OpenCode awaits before every
tool call -- built-in tools, MCP tools and the sub-agent `task` tool, in sub-agent sessions too --
and before its own permission check (docs/facts/opencode.md section 2). The plugin runs agentdeck's
wrapper (`<wrapper> tool.execute.before`, the payload on stdin) and throws when it does not exit
0: OpenCode then fails the tool call with the thrown message as its result (the model sees the
reason) and the turn goes on.

The payload is the plugin's, in Claude Code's snake_case field names so the handler reads it like
the others: {hook_event_name: "tool.execute.before", session_id: input.sessionID, call_id:
input.callID, tool_name: input.tool, tool_input: output.args, cwd: the session's folder,
worktree}. `call_id` is sent by no other dialect. Tools are OpenCode's ids (bash, read, glob,
grep, edit, write, apply_patch, task, webfetch, todowrite, skill, ...) and MCP tools are
`<server>_<tool>`.

What denies: any exit but 0 (the wrapper exits 2 with the reason on stderr, the plugin throws it);
a wrapper that cannot be started denies too. There is no ask: a plugin can only let the call go
on or fail it.
"""
from __future__ import annotations

from ..dialects import Dialect, McpNaming, Speaker

VERIFIED = "1.18.33"

#: the event the plugin runs the wrapper for (the plugin hook's own name)
EVENT = "tool.execute.before"

OPENCODE = Dialect(
    "opencode", "opencode", VERIFIED,
    pre_tool={"deny_exit": 2, "shape": None, "crash_denies": True, "ask": "deny",
              "ask_note": "a plugin cannot ask: agentdeck's plugin fails the call",
              "source": "observed",
              "how": "agentdeck's plugin throws the reason in tool.execute.before (the handler "
                     "exits 2 with it on stderr); OpenCode fails the call and the model gets "
                     "the reason"},
    #: no prompt channel: the plugin implements tool.execute.before only
    prompt={"exit": 2, "shape": None, "source": "observed",
            "none": "not enforced: agentdeck's OpenCode plugin sees tool calls, not prompts"},
    events=(EVENT, ""),
    path_tools={"read": "read, grep, glob", "write": "write, edit, apply_patch",
                "shell": "bash, in its `workdir`"})

DIALECTS = (OPENCODE,)

#: the tools OpenCode names beyond the shared ones (core/policy/vocabulary.py SHARED: bash,
#: read, glob, grep, edit, write, apply_patch, webfetch, websearch), folded; the argument keys
#: as the model is offered them (docs/facts/opencode.md section 2, "Tools")
TOOLS = {
    #: {description, prompt, subagent_type, task_id, command}: a sub-agent's turn from `prompt`
    "task": ("other", "delegate"),
    "todowrite": ("other", ""),                  # {todos}
    "skill": ("other", ""),                      # {name}: loads a skill's text
    "list": ("read", "list"),                    # {path, ignore}
    "question": ("other", ""),                   # {questions}: asks the user
    "lsp": ("other", ""),                        # {operation, filePath, ...}: a path argument
}
#: the OpenCode version whose offered tools TOOLS was checked against
TOOLS_VERIFIED = VERIFIED

#: `<server>_<tool>`, every character but [A-Za-z0-9_-] made `_` in each part (its
#: sanitizer in the 1.18.33 binary, docs/facts/opencode.md section 3): no prefix, so only a
#: known server's spelling says a tool is an MCP one
MCP_NAMES = McpNaming("", "_", "A-Za-z0-9_-", "_", "servers", verified=VERIFIED,
                      source="observed",
                      note="read in the 1.18.33 binary (server and tool each sanitized, joined "
                           "by _) and seen in a real turn: Srv.Dot's leave.marker-v2 arrived "
                           "as Srv_Dot_leave_marker-v2 (tests/fixtures/payloads/opencode)")


def _ours(p: dict) -> bool:
    return p.get("hook_event_name") == EVENT and "call_id" in p


def _home(p: dict) -> Dialect | None:
    return OPENCODE


SPEAKERS = {"opencode": Speaker((OPENCODE,), _home)}


def recognise(p: dict) -> tuple[int, Dialect] | None:
    if _ours(p):
        return 100, OPENCODE
    return None


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.dialect import DialectModule
    from . import dialect as _this
    _conforms: DialectModule = _this
