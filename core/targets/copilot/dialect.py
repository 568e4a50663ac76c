"""How GitHub Copilot CLI's hooks talk to agentdeck's handler (the `dialect` part,
core/targets/parts/dialect.py). Standard library only: the handler imports it on every call.

Copilot CLI 1.0.102 sends two dialects (observed, docs/facts/; tests/fixtures/payloads/copilot/):
  copilot-camel   under a camelCase event key (what agentdeck registers in the home):
                  sessionId, a numeric timestamp, toolName + toolArgs (an object; a JSON string
                  in builds before 1.0.102; a toolCalls[] batch in 1.0.80)
  copilot-pascal  under a PascalCase key (the repository's hook file): snake_case fields
                  (session_id, tool_name, tool_input), Claude's tool names, an ISO timestamp

It also speaks for the repository scope (core/targets/repo.py): a repository's .github/hooks
file is Copilot's repository-hooks format, read by Copilot CLI, the Copilot cloud agent (both
copilot-pascal under the PascalCase keys agentdeck writes there) and VS Code agent mode
(core/targets/dialects.py VSCODE); its hooks read the policy committed beside them.
"""
from __future__ import annotations

from ..dialects import VSCODE, Dialect, McpNaming, Speaker, best, camel, iso_time, snake
from ..dialects import recognise_vscode as _vscode

VERIFIED = "1.0.102"

CAMEL = Dialect(
    "copilot-camel", "copilot", VERIFIED,
    pre_tool={"deny_exit": 2, "shape": "flat", "crash_denies": True, "ask": "ask",
              "ask_note": "asks in an interactive session; in a non-interactive run "
                          "(-p) Copilot's answer is undocumented, so it may deny",
              "source": "observed"},
    # Copilot's prompt event ignores exit codes: the JSON is the channel (observed: the blocked
    # prompt never reaches the model; the -p run then exits 1)
    prompt={"exit": 0, "shape": "block", "source": "observed", "shown": "reason"},
    path_tools={"read": "view, str_replace_editor view, rg, grep, glob",
                "write": "create, edit, str_replace_editor, apply_patch (every path)",
                "shell": "bash"},
    events=("preToolUse", "userPromptSubmitted"))

#: `<server>-<tool>`, no prefix: only a known server's spelling says a name is an MCP tool
#: (preMcpToolCall, which cannot deny, carries the real serverName and toolName;
#: permissionRequest names the tool '<server>/<spelled tool>')
MCP_NAMES = McpNaming("", "-", "A-Za-z0-9_-", "-", "servers", verified=VERIFIED,
                      note="preMcpToolCall (it cannot deny) carries the real serverName and "
                           "toolName; permissionRequest names the tool '<server>/<spelled tool>'")

#: the tools Copilot's camelCase payloads name beyond the shared ones (core/policy/vocabulary.py
#: SHARED: bash, powershell, glob, grep, edit, apply_patch, fetch, web_fetch, ...), folded.
#: Every tool Copilot CLI TOOLS_VERIFIED offers the model is here or in SHARED, its role read
#: from the schema the request carries (tests/clients/test_tool_vocabulary_real.py reads them
#: from a real turn); an "other" tool's path arguments still count as read and written, and a
#: `command` it is given makes it a shell call (core/policy/vocabulary.py classify)
TOOLS = {
    "writebash": ("shell", ""),                         # {shellId, input}: typed into a session
    "view": ("read", ""), "rg": ("read", "search"),     # rg names its directories in `paths`
    "create": ("write", ""),
    "strreplaceeditor": ("write", "editor"),            # its nested `command` decides
    # the sessions `bash` started (mode async): these carry a shellId and no command or path
    # (the command was judged when bash ran it); stop_bash ends its process tree
    "readbash": ("other", ""),                          # {shellId, delay}
    "stopbash": ("other", ""),                          # {shellId}
    "listbash": ("other", ""),                          # {}
    # sub-agents: `task` starts one (agent types task and general-purpose run commands, each of
    # them a call of its own) from `prompt`; write_agent's `message` becomes a running or idle
    # agent's next turn. Neither carries a command: delegate, the text a prompt (docs/policy.md)
    "task": ("other", "delegate"),      # {description, prompt, agent_type, name, model, mode, ...}
    "writeagent": ("other", "delegate"),                # {agent_id | agent_ids | scope, message}
    "readagent": ("other", ""),                         # {agent_id, wait, timeout, since_turn}
    "listagents": ("other", ""),                        # {include_completed, scope}
    "skill": ("other", ""),             # {skill}: loads a skill's instructions into the turn
    # SQL on the session's own SQLite database (todos); a path written in the query (ATTACH)
    # counts as read and written, as any other tool's
    "sql": ("other", ""),                               # {description, query}
    "sessionstoresql": ("other", ""),   # {description, query, source}: read-only history
    "fetchcopilotclidocumentation": ("other", ""),      # {}: Copilot's own README/help
}
#: the Copilot CLI version whose offered tools (all of them) TOOLS was checked against
TOOLS_VERIFIED = "1.0.102"

#: a PascalCase key switches the payload to Claude Code's tool names (docs/facts/copilot.md)
PASCAL_TOOLS = {
    "multiedit": ("write", ""), "notebookedit": ("write", ""), "notebookread": ("read", ""),
    "ls": ("read", "list"),
}

PASCAL = Dialect(
    "copilot-pascal", "copilot", VERIFIED,
    pre_tool={"deny_exit": 2, "shape": "specific", "crash_denies": None, "ask": "ask",
              "ask_note": "the Copilot cloud agent treats ask as deny (documented)",
              "source": "observed"},
    prompt={"exit": 0, "shape": "block", "source": "documented"},
    path_tools={"read": "Read, Grep, Glob", "write": "Write, Edit, MultiEdit", "shell": "Bash"},
    tools=PASCAL_TOOLS,
    # Claude's form; how the PascalCase payloads spell the names was not observed
    mcp_names=McpNaming("mcp__", "__", "A-Za-z0-9_-", "_", "sure", source="documented"))

DIALECTS = (CAMEL, PASCAL, VSCODE)


def _pascal_or_vscode(p: dict) -> Dialect:
    # Copilot's PascalCase events and VS Code both send snake_case fields plus an ISO timestamp;
    # VS Code's carry its camelCase sessionId
    return VSCODE if "sessionId" in p else PASCAL


def _home(p: dict) -> Dialect | None:
    if camel(p):
        return CAMEL
    if "hookEventName" in p or "turn_id" in p:
        return None                 # another reader's payload: every dialect says
    if iso_time(p) or snake(p):
        return _pascal_or_vscode(p)
    return CAMEL                    # what Copilot sends under the camelCase keys agentdeck writes


def _repository(p: dict) -> Dialect | None:
    """A repository's hook file is read by Copilot CLI, the cloud agent and VS Code, never by
    Claude Code: its snake_case payloads are Copilot's."""
    if camel(p):
        return CAMEL
    if "hookEventName" in p or "turn_id" in p:
        return None
    if iso_time(p) or snake(p):
        return _pascal_or_vscode(p)
    return None


#: where a repository's hooks read the compiled policy (relative to the repository root, the
#: hooks' cwd): committed, and NOT in .github/hooks/, where Copilot loads every *.json as a
#: hook file and rejects this one
REPO_POLICY = ".github/agentdeck/policy.json"

SPEAKERS = {
    "copilot": Speaker((CAMEL,), _home),
    "repo": Speaker((PASCAL, VSCODE), _repository, policy_file=REPO_POLICY),
}


def recognise(p: dict) -> tuple[int, Dialect] | None:
    if camel(p):
        own = 100, CAMEL
    elif iso_time(p) and "sessionId" not in p:
        own = 50, PASCAL
    elif "sessionId" in p or isinstance(p.get("timestamp"), (int, float)):
        own = 10, CAMEL
    else:
        own = None
    return best(own, _vscode(p))


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.dialect import DialectModule
    from . import dialect as _this
    _conforms: DialectModule = _this
