"""How each CLI names an MCP tool at its pre-tool hook: data, the standard library only (the hook
handler's vocabulary, core/policy/vocabulary.py, reads it when a call's name looks like an MCP
tool).

Observed 2026-12-01 in real offline turns (tests/clients/test_mcp_names_real.py; payloads in
tests/fixtures/payloads/<cli>/mcp-*.json): a stdio MCP server installed through an agentdeck
profile, the scripted model calling its tool. With a server `Srv.Dot` and a tool
`leave.marker-v2` (and a server `my-srv_x`, tool `leave_marker`), the pre-tool hook saw:

| CLI | hook tool name | what the model was offered |
|---|---|---|
| Copilot 1.0.102 | `Srv-Dot-leave-marker-v2`, `my-srv_x-leave_marker` | the same names |
| Codex 0.171.0   | `mcp__Srv_Dot__leave_marker_v2`, `mcp__my_srv_x__leave_marker` | a Responses `namespace` `mcp__Srv_Dot` holding a function `leave_marker_v2` (a flat `mcp__...` name is "unsupported call") |
| Claude 2.1.332  | `mcp__Srv_Dot__leave_marker-v2` (and `mcp_server: {"name": "Srv.Dot", "source": "user"}`) | `mcp__Srv_Dot__leave_marker-v2` |

So each CLI replaces, in the server name and in the tool name alike, every character outside a
set with one character: the hook sees a spelling, not the names. The server can be mapped back
(the profile knows its servers' names; Claude also sends it); the tool's own name cannot, so a
rule's regex on the tool part should accept the CLI's spelling (`leave.marker.v2` matches all
three).
"""
from __future__ import annotations

#: cli -> how its pre-tool hook names an MCP tool
#:   form      the tool name's shape, with the spelled server and tool
#:   keep      the characters kept as they are (a regex class); every other one becomes `sub`
#:   sub       the replacement character
#:   server_field  a payload field carrying the server's real name, if any
#:   version   the CLI version this was observed for; source: observed | documented
MCP_TOOL_NAMES: dict[str, dict] = {
    "copilot": {"form": "{server}-{tool}", "keep": "A-Za-z0-9_-", "sub": "-",
                "server_field": None, "version": "1.0.102", "source": "observed",
                "note": "preMcpToolCall (it cannot deny) carries the real serverName and "
                        "toolName; permissionRequest names the tool '<server>/<spelled tool>'"},
    "codex": {"form": "mcp__{server}__{tool}", "keep": "A-Za-z0-9_", "sub": "_",
              "server_field": None, "version": "0.171.0", "source": "observed",
              "note": "the model is offered a namespace mcp__<server> holding <tool>"},
    "claude": {"form": "mcp__{server}__{tool}", "keep": "A-Za-z0-9_-", "sub": "_",
               "server_field": "mcp_server", "version": "2.1.332", "source": "observed",
               "note": "PreToolUse carries mcp_server {name, source}: the server's real name"},
}


def spell(cli: str, name: str) -> str:
    """`name` (a server's or a tool's) as `cli` spells it in an MCP tool name."""
    import re
    row = MCP_TOOL_NAMES[cli]
    return re.sub(f"[^{row['keep']}]", row["sub"], name)


def tool_name(cli: str, server: str, tool: str) -> str:
    """The name `cli`'s pre-tool hook sees for `tool` of `server`."""
    return MCP_TOOL_NAMES[cli]["form"].format(server=spell(cli, server), tool=spell(cli, tool))
