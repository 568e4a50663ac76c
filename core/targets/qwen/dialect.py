"""How Qwen Code's hooks talk to agentdeck's handler (the `dialect` part,
core/targets/parts/dialect.py). Standard library only: the handler imports it on every call.

Qwen Code 0.24.4 sends Claude Code's hook schema with fields of its own (observed,
tests/fixtures/payloads/qwen/, docs/facts/qwen.md section 2): session_id, hook_event_name, an
ISO `timestamp` string, `permission_mode`, and at turn events `prompt_id`
("<session>########<n>"); a pre-tool call adds `tool_call_id` (the model's call id) beside
`tool_use_id`. Tools are snake_case (run_shell_command, read_file, write_file, edit, glob,
grep_search, list_directory, web_fetch, mcp__<server>__<tool>).

What denies (docs/facts/qwen.md section 2, "What a PreToolUse answer does"): exit 2 with the
reason on stderr, or exit 0 with a hookSpecificOutput deny on stdout. Exit 2 with an EMPTY
stderr lets the call run, and so does a crash, a timeout or any other exit: agentdeck's answer
always carries a reason (core/policy/answer.py).

agentdeck denies with exit 0 and the hookSpecificOutput deny on stdout (the reason on stderr
too), not with exit 2: Qwen merges the answers of every PreToolUse hook that ran (project, then
user, system, extensions), a later hook's hookSpecificOutput fields overwriting an earlier one's,
and a hookSpecificOutput `permissionDecision` outranks a plain deny -- so an exit 2's plain
stderr reason lost to another hook answering `permissionDecision: "allow"` (the call ran), while
a hookSpecificOutput deny from a later hook held (docs/facts/qwen.md section 8).
"""
from __future__ import annotations

from ..dialects import Dialect, McpNaming, Speaker, camel, iso_time, snake

VERIFIED = "0.24.4"

QWEN = Dialect(
    "qwen", "qwen", VERIFIED,
    pre_tool={"deny_exit": 0, "shape": "specific", "crash_denies": False, "ask": "ask",
              "ask_note": "Qwen Code asks the user; in -p mode under --yolo the call is not run "
                          "(observed)",
              "source": "observed"},
    prompt={"exit": 2, "shape": "block", "source": "observed",
            # observed (tests/clients/test_policy_real.py): `qwen -p` ends the turn and prints
            # nothing of the reason, on stdout or stderr
            "shown": ""},
    #: list_directory is a listing (names only): a path rule does not act on it
    path_tools={"read": "read_file, grep_search, glob",
                "write": "write_file, edit, notebook_edit",
                "shell": "run_shell_command and monitor, in their `directory`"})

DIALECTS = (QWEN,)

#: the tools Qwen Code names beyond the shared ones (core/policy/vocabulary.py SHARED), folded;
#: the argument keys as PreToolUse shows them (docs/facts/qwen.md section 2, "Tool names")
TOOLS = {
    "runshellcommand": ("shell", ""),            # {command, is_background, directory, ...}
    #: a deferred tool (through tool_call) that runs a long-lived command and streams its
    #: output: Qwen counts it a shell tool too (its SHELL_TOOL_NAMES)
    "monitor": ("shell", ""),                    # {command, description, directory, ...}
    "readfile": ("read", ""),                    # {file_path, offset, limit, pages}
    "listdirectory": ("read", "list"),           # {path}, opt-in (tools.listDirectory.enabled)
    "grepsearch": ("read", "search"),            # {pattern, glob, path, limit}
    "notebookedit": ("write", ""),               # {notebook_path, ...}
    # Every other tool Qwen Code TOOLS_VERIFIED offers the model, its role read from the schema
    # the request carries (tests/clients/test_tool_vocabulary_real.py reads them from a real
    # turn); an "other" tool's path arguments still count as read and written
    # (core/policy/vocabulary.py). `agent` starts a sub-agent from `prompt` (no command:
    # delegate, the text a prompt, docs/policy.md)
    "agent": ("other", "delegate"),     # {description, prompt, subagent_type, fork_*, ...}
    "listagents": ("other", ""),                 # {}
    "skill": ("other", ""),             # {skill, args}: a skill run in the main conversation
    "getgoal": ("other", ""),                    # {}
    "updategoal": ("other", ""),                 # {status, reason, blockerKind}: a proposal
    "toolsearch": ("other", ""),                 # {query, max_results}: deferred tools' schemas
    #: {name, arguments}: calls a deferred tool; PreToolUse names that tool itself (docs/facts/
    #: qwen.md section 2), and a payload naming tool_call is judged as the tool in its `name`
    "toolcall": ("other", "dispatch"),
    # the deferred tools (listed by name in a system reminder, reached through tool_call, their
    # schemas read through tool_search; web_fetch is SHARED's, monitor above)
    "croncreate": ("other", "delegate"),  # {cron, prompt, recurring, durable, ...}: later prompts
    "loopwakeup": ("other", "delegate"),  # {delaySeconds, prompt, reason}: a later prompt
    "sendmessage": ("other", "delegate"),  # {to | task_id, message, summary}: an agent's turn
    "crondelete": ("other", ""),                 # {id}
    "cronlist": ("other", ""),                   # {}
    "taskstop": ("other", ""),                   # {task_id}: stops a background agent or shell
    # {name}: a git worktree under <project>/.qwen/worktrees/<slug>; exit_worktree's action
    # "remove" deletes it
    "enterworktree": ("other", ""),              # {name}
    "exitworktree": ("other", ""),               # {name, action, discard_changes}
    "readmcpresource": ("other", ""),            # {server_name, uri}: an MCP server's resource
    "recordartifact": ("other", ""),  # {title, kind, storage, workspacePath, ...}: a path arg
    "reportfindings": ("other", ""),             # {level, findings: [{file, ...}]}: for the UI
    "zoomimage": ("read", ""),                   # {file_path, x1, y1, x2, y2}: an image file
}
#: the Qwen Code version whose offered tools (all of them) TOOLS was checked against
TOOLS_VERIFIED = "0.24.4"

#: `mcp__<server>__<tool>`, every character but [A-Za-z0-9_-] made `_`; a name that had such a
#: character (or is longer than 63) also gets `_<7-char hash>` appended (docs/facts/qwen.md
#: section 3: server Srv.Dot, tool leave.marker-v2 -> mcp__Srv_Dot__leave_marker-v2_1vmvmv7)
MCP_NAMES = McpNaming("mcp__", "__", "A-Za-z0-9_-", "_", "sure", verified=VERIFIED,
                      note="a name with another character gets a hash suffix: "
                           "mcp__Srv_Dot__leave_marker-v2_1vmvmv7", hashed=63)


def _qwen(p: dict) -> bool:
    """Fields only Qwen's payloads carry: a pre-tool call's tool_call_id beside tool_use_id,
    a turn's prompt_id, with an ISO timestamp and snake_case fields."""
    return snake(p) and iso_time(p) and ("prompt_id" in p or "tool_call_id" in p)


def _home(p: dict) -> Dialect | None:
    if camel(p) or "hookEventName" in p or "turn_id" in p:
        return None
    return QWEN if snake(p) else None


SPEAKERS = {"qwen": Speaker((QWEN,), _home)}


def recognise(p: dict) -> tuple[int, Dialect] | None:
    if _qwen(p):
        return 85, QWEN
    return None


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.dialect import DialectModule
    from . import dialect as _this
    _conforms: DialectModule = _this
