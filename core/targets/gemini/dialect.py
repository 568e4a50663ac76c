"""How Gemini CLI's hooks talk to agentdeck's handler (the `dialect` part,
core/targets/parts/dialect.py). Standard library only: the handler imports it on every call.

Gemini CLI 0.61.0 sends (observed, tests/fixtures/payloads/gemini/, docs/facts/gemini.md
section 2): session_id, transcript_path, cwd, hook_event_name (its own names: BeforeTool,
AfterTool, BeforeAgent, AfterAgent, SessionStart, ...), an ISO `timestamp`; a tool event adds
tool_name and tool_input (snake_case tools: run_shell_command, read_file, write_file, replace,
glob, grep_search, list_directory, web_fetch, google_web_search, invoke_agent, ...), and
`mcp_context` for an MCP tool.

What denies (section 2, "What a BeforeTool answer does"): JSON on stdout (else on stderr) is
read whatever the exit code: `{"decision": "deny" | "block", "reason": R}` denies, and R is the
tool result the model sees; with no JSON, exit 0 allows, exit 1 allows with a warning and any
other exit denies with the text as the reason (a missing hook script's exit 127 denies too). A
timeout or a hook that cannot be spawned lets the call run. agentdeck answers a deny with exit 2
AND the block JSON on stdout (the reason on stderr too): both channels say deny.
"""
from __future__ import annotations

from ..dialects import Dialect, McpNaming, Speaker, camel, iso_time, snake

VERIFIED = "0.61.0"

GEMINI = Dialect(
    "gemini", "gemini", VERIFIED,
    pre_tool={"deny_exit": 2, "shape": "block", "crash_denies": False, "ask": "deny",
              "ask_note": "Gemini CLI's hook answers have no ask: agentdeck denies (its own "
                          "ask_user policy rules are a deny in -p mode)",
              "source": "observed"},
    prompt={"exit": 2, "shape": "block", "source": "observed"},
    path_tools={"read": "read_file, grep_search, glob, list_directory (dir_path)",
                "write": "write_file, replace",
                "shell": "run_shell_command, in its `dir_path`"},
    events=("BeforeTool", "BeforeAgent"))

DIALECTS = (GEMINI,)

#: the tools Gemini CLI offers beyond the shared ones (core/policy/vocabulary.py SHARED), folded,
#: with their argument keys as a real turn's request declares them (TOOLS_VERIFIED; re-read by
#: tests/clients/test_tool_vocabulary_real.py)
TOOLS = {
    "runshellcommand": ("shell", ""),   # {command, description, dir_path, is_background, ...}
    "readfile": ("read", ""),                    # {file_path, start_line, end_line}
    "listdirectory": ("read", "list"),           # {dir_path, ignore, ...}
    "grepsearch": ("read", "search"),            # {pattern, dir_path, include_pattern, ...}
    # grep_search's name in earlier Gemini CLI releases (not offered by 0.61.0): a hook shown
    # it judges it as the search it is
    "searchfilecontent": ("read", "search"),
    # glob and write_file are SHARED's; replace edits a file
    "replace": ("write", ""),           # {file_path, instruction, old_string, new_string, ...}
    "googlewebsearch": ("web", ""),              # {query}
    # web_fetch is SHARED's (web): 0.61.0's takes {prompt} with the URLs inside it
    #: {agent_name, prompt}: a sub-agent (generalist, codebase_investigator, ...) acts on the
    #: prompt; its own tool calls fire BeforeTool too (section 2)
    "invokeagent": ("other", "delegate"),
    "activateskill": ("other", ""),              # {name}: loads a skill's instructions
    "enterplanmode": ("other", ""),              # {reason}
    "updatetopic": ("other", ""),       # {title, summary, strategic_intent}: for the UI
    "listbackgroundprocesses": ("other", ""),    # {}
    "readbackgroundoutput": ("other", ""),       # {pid, lines}: a background shell's output
}
#: the Gemini CLI version whose offered tools TOOLS was checked against
TOOLS_VERIFIED = "0.61.0"

#: `mcp_<server>_<tool>` with both names as they are (observed: server `Srv.Dot`, tool
#: `leave.marker-v2` -> mcp_Srv.Dot_leave.marker-v2); BeforeTool's `mcp_context` carries the
#: server's real name ({server_name, tool_name, command, args}), which splits the name
MCP_NAMES = McpNaming("mcp_", "_", None, "_", "sure", server_field="mcp_context",
                      verified=VERIFIED,
                      note="names kept as they are: mcp_Srv.Dot_leave.marker-v2; mcp_context "
                           "names the server")

_EVENTS = ("BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel",
           "BeforeToolSelection", "PreCompress")


def _gemini(p: dict) -> bool:
    """Gemini's own event names in hook_event_name, with an ISO timestamp."""
    return snake(p) and iso_time(p) and p.get("hook_event_name") in _EVENTS


def _home(p: dict) -> Dialect | None:
    if camel(p) or "hookEventName" in p or "turn_id" in p:
        return None
    return GEMINI if snake(p) else None


SPEAKERS = {"gemini": Speaker((GEMINI,), _home)}


def recognise(p: dict) -> tuple[int, Dialect] | None:
    if _gemini(p):
        return 90, GEMINI
    return None


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.dialect import DialectModule
    from . import dialect as _this
    _conforms: DialectModule = _this
