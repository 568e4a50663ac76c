"""How Claude Code's hooks talk to agentdeck's handler (the `dialect` part,
core/targets/parts/dialect.py). Standard library only: the handler imports it on every call.

Claude Code 2.1.332 sends its hook schema (observed, tests/fixtures/payloads/claude/):
session_id, hook_event_name, tool_name + tool_input, transcript_path, permission_mode, and for
an MCP tool `mcp_server: {name, source}`. VS Code agent mode reads Claude's settings files too
and sends its own payload there (core/targets/dialects.py VSCODE).
"""
from __future__ import annotations

from ..dialects import VSCODE, Dialect, McpNaming, Speaker, best, camel, iso_time, snake
from ..dialects import recognise_vscode as _vscode

VERIFIED = "2.1.332"

CLAUDE = Dialect(
    "claude", "claude", VERIFIED,
    pre_tool={"deny_exit": 2, "shape": "specific", "crash_denies": False, "ask": "ask",
              "ask_note": "Claude Code asks the user; in -p mode with no user it is denied",
              # observed: an ask at a skill's own `!command` keeps it from running ("the hook
              # asked for approval, which a skill can't wait for"), as a deny does
              "ask_at": {"PreSkillShellCommand": "deny"},
              "source": "observed"},
    prompt={"exit": 2, "shape": "block", "source": "observed", "shown": "reason"},
    path_tools={"read": "Read, NotebookRead, Grep, Glob",
                "write": "Write, Edit, MultiEdit, NotebookEdit", "shell": "Bash"})

DIALECTS = (CLAUDE, VSCODE)

#: the tools Claude Code names beyond the shared ones (core/policy/vocabulary.py SHARED: Bash,
#: Read, Write, Edit, Glob, Grep, WebFetch, WebSearch, ...), folded
TOOLS = {
    "multiedit": ("write", ""), "notebookedit": ("write", ""), "notebookread": ("read", ""),
    "ls": ("read", "list"),
    # Claude Code 2.1.332's Monitor runs a shell command and streams its output (an
    # `rm -rf` through it ran while agentdeck filed it as "other")
    "monitor": ("shell", ""),
    # Every other tool Claude Code TOOLS_VERIFIED offers the model, its role read from the
    # schema the request carries (tests/clients/test_tool_vocabulary_real.py reads them from a
    # real turn); an "other" tool's path arguments still count as read and written
    # (core/policy/vocabulary.py). Agent starts a sub-agent from `prompt`, Workflow runs a
    # script (`script`, or the file `scriptPath`: read and written as a path) that starts
    # sub-agents, ScheduleWakeup fires `prompt` at the model later, and some skills run in a
    # sub-agent with `args`: none carries a command, each is delegate, its text a prompt
    # (docs/policy.md)
    "agent": ("other", "delegate"),     # {description, prompt, subagent_type, model, ...}
    "workflow": ("other", "delegate"),  # {script | name | scriptPath, args, resumeFromRunId}
    "schedulewakeup": ("other", "delegate"),    # {delaySeconds, reason, prompt, stop, noop}
    # a skill's own `!command` lines run under the event PreSkillShellCommand, not PreToolUse
    # (docs/facts/claude.md section 6): the Skill call itself carries only the name and args
    "skill": ("other", "delegate"),             # {skill, args}
    "listagents": ("other", ""),                # {channel, q, cursor}: the sessions to message
    "reportfindings": ("other", ""),    # {level, findings: [{file, line, summary, ...}]}: UI
    "toolsearch": ("other", ""),        # {query, max_results}: the deferred tools' schemas
    "deferredtoolplaceholder": ("other", ""),   # {}: "never call this tool"
    # the deferred tools (listed by name, their schemas loaded through ToolSearch; all offered
    # directly with ENABLE_TOOL_SEARCH=false, as the drill runs it)
    "croncreate": ("other", "delegate"),    # {cron, prompt, recurring, durable}: a later prompt
    "crondelete": ("other", ""),            # {id}
    "cronlist": ("other", ""),              # {}
    "sendmessage": ("other", "delegate"),   # {to, summary, message}: another agent's next turn
    "taskstop": ("other", ""),              # {task_id, shell_id}: stops a background task
    # a git worktree made and the session moved into it (`path`: an existing worktree, a path
    # argument); ExitWorktree's action "remove" deletes the one EnterWorktree made
    "enterworktree": ("other", ""),         # {name | path}
    "exitworktree": ("other", ""),          # {action, discard_changes}
    # claude.ai design projects: `path`/`paths` name files of the remote project (read and
    # written here as any other tool's paths), write_files uploads local files (files[].
    # localPath under finalize_plan's localDir, default the cwd): an absolute or ~ path written
    # in its arguments counts as read and written, a relative localPath is not resolved
    "designsync": ("other", ""),            # {method, projectId, path, paths, files, localDir}
}
#: the Claude Code version whose offered tools (all of them) TOOLS was checked against
TOOLS_VERIFIED = "2.1.332"

#: `mcp__<server>__<tool>` with every character but [A-Za-z0-9_-] made `_`; the payload's
#: mcp_server {name, source} carries the server's real name
MCP_NAMES = McpNaming("mcp__", "__", "A-Za-z0-9_-", "_", "sure", server_field="mcp_server",
                      verified=VERIFIED,
                      note="PreToolUse carries mcp_server {name, source}: the server's real name")


def _home(p: dict) -> Dialect | None:
    if camel(p) or "hookEventName" in p or "turn_id" in p:
        return None
    if iso_time(p):
        return VSCODE               # VS Code agent mode reading Claude's settings
    return CLAUDE if snake(p) else None


SPEAKERS = {"claude": Speaker((CLAUDE,), _home)}


def recognise(p: dict) -> tuple[int, Dialect] | None:
    return best((30, CLAUDE) if snake(p) else None, _vscode(p))


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.dialect import DialectModule
    from . import dialect as _this
    _conforms: DialectModule = _this
