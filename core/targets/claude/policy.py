"""What `agentdeck policy show` / `policy test` say and try for Claude Code
(core/targets/parts/policy.py).

The templates carry the fields Claude Code 2.1.332 sent in real offline turns (docs/facts/
claude.md; tests/fixtures/payloads/claude/): its hook schema with tool_use_id, transcript_path,
permission_mode, and for an MCP tool the server's real name in `mcp_server`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ...policy.templates import PreToolTemplate, PromptTemplate, snake, snake_prompt
from ..layers import AGENTDECK_PREFIX, LOADER_VARS, Layer, guarded
from ..path_spelling import NativeDeny
from .dialect import MCP_NAMES

CAVEATS = {
    "claude": ["exit 1 lets the tool run: agentdeck denies with exit 2 only"],
}

#: what the built-in rule agentdeck-self keeps an agent from writing: settings.json (agentdeck's
#: hooks, the permissions.deny entries it adds, disableAllHooks) and settings.local.json (its
#: hooks run beside settings.json's: doctor.py), and agentdeck's wrapper
#: -- and, in any working folder or its parents, the project's .claude/settings.json and
#: .claude/settings.local.json: Claude Code 2.1.332 reads them after the home's, and their
#: disableAllHooks turns every hook off for the sessions started there (a real turn wrote
#: settings.local.json through Claude's own Write tool and the next turn ran with no hook)
#: each such file as a fact with its version (core/targets/layers.py); the project files are
#: reported by claude.hooks.project-disable-all, the home's local file by claude.hooks.layers
LAYERS = (
    Layer("settings.local.json", "the user's local settings, read beside settings.json: its "
          "disableAllHooks switches every hook off, its env reaches the handler", "2.1.332",
          "documented", keys=("disableAllHooks",), vars=(AGENTDECK_PREFIX, *LOADER_VARS)),
    Layer("**/.claude/settings.json", "a working folder's project settings: disableAllHooks "
          "switches every hook off there", "2.1.332", "observed", keys=("disableAllHooks",),
          parents=True, report=False),
    Layer("**/.claude/settings.local.json", "a working folder's local settings, as the project "
          "file", "2.1.332", "observed", keys=("disableAllHooks",), parents=True, report=False),
)
#: files naming programs Claude Code 2.1.332 starts by itself: a project's .mcp.json servers
#: (once approved: enabledMcpjsonServers), plugins (their hooks and MCP servers), the managed
#: settings folder; and ~/.claude.json's mcpServers (guarded_paths: a server written there ran
#: at the next start, with no tool call, in a real turn); agent definitions and skills (their
#: frontmatter's mcpServers and hooks: an agent's MCP server written by a Bash call ran when the
#: next session called the agent, red team round 3); and the session's shell snapshot and
#: session-env scripts, which Claude sources before every Bash call (a function appended there
#: ran in place of `git status` in the same session); and custom slash commands (the home's and
#: any folder's): a command file's `!` lines run as shell commands when the command is expanded,
#: and the model expands one through its own tool (documented for 2.1.332; red team round 4
#: planted one with a Bash call)
STARTS = ("**/.mcp.json", "plugins/**", "plugins", "/etc/claude-code/**",
          "commands/**", "commands", "**/.claude/commands/**",
          "agents/**", "agents", "**/.claude/agents/**", "skills/**", "skills",
          "**/.claude/skills/**", "shell-snapshots/**", "session-env/**")
GUARDED = guarded(("settings.json", "settings.local.json", "agentdeck-hook.sh",
                   "**/.claude/settings.json", "**/.claude/settings.local.json", *STARTS), LAYERS)


def guarded_paths(host: "Host") -> list[Path]:
    """~/.claude.json (inside CLAUDE_CONFIG_DIR when that is set): its mcpServers start."""
    from .paths import claude_json          # local: at install time only

    return [claude_json(host)]

#: what stops code that builds its own paths (facts.py SANDBOX): Claude Code 2.1.332's command
#: sandbox (bubblewrap on Linux) denies the open itself; agentdeck writes the deny rules there
#: only when the operator turned the sandbox on (sandbox.py)
RUNTIME_FLOOR = ("Claude's command sandbox, when your settings.json sets sandbox.enabled to true "
                 "(agentdeck does not switch it on: it changes how every Bash command runs): the "
                 "[[policy.paths]] deny entries agentdeck writes into sandbox.filesystem."
                 "denyRead/denyWrite, and its permissions.deny entries, which the sandbox "
                 "enforces too; a command the model marks dangerouslyDisableSandbox escapes it "
                 "unless sandbox.allowUnsandboxedCommands is false, and without bubblewrap every "
                 "command does unless sandbox.failIfUnavailable is true, and a working folder's "
                 ".claude/settings.json can switch it off there (observed for python3 -c "
                 "building the path at run time); otherwise nothing")

#: Claude's own path deny (facts.py PERMISSIONS): every [[policy.paths]] deny rule it can spell
#: is written there (permissions.py)
def _native_deny() -> NativeDeny:
    from . import facts
    from .permissions import translate

    return NativeDeny(
        verified=facts.PERMISSIONS_VERIFIED, facts=facts.PERMISSIONS, translate=translate,
        layer="Claude Code permissions.deny (~/.claude/settings.json)", written=True)


#: Claude's command sandbox as a layer of its own (facts.py SANDBOX): the rules written there only
#: while the operator's settings turn it on (sandbox.py)
def _floor() -> NativeDeny:
    from . import facts                    # local: see __getattr__
    from .sandbox import translate         # local: see __getattr__

    return NativeDeny(
        verified=facts.SANDBOX_VERIFIED, facts=facts.SANDBOX, translate=translate,
        layer="Claude Code sandbox.filesystem.denyRead/denyWrite (~/.claude/settings.json)",
        written="conditional",
        why="only while your settings.json sets sandbox.enabled to true (agentdeck does not "
            "switch it on: it changes how every Bash command runs); for Bash commands only")


def __getattr__(name: str) -> Any:
    # NATIVE_DENY and FLOOR are made when first asked for: every apply reads each target's
    # GUARDED (the compiled policy's agentdeck-self rule), and this target's facts and
    # translation need not load for that (~30 M instructions off a one-target apply)
    if name in ("NATIVE_DENY", "FLOOR"):
        value = globals()[name] = (_native_deny if name == "NATIVE_DENY" else _floor)()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _claude(tool: str, args: dict) -> dict:
    return snake("PreToolUse", tool, args, tool_use_id="toolu_01",
                 transcript_path="/tmp/t.jsonl", permission_mode="bypassPermissions")


def _mcp(server: str, tool: str) -> tuple[str, dict]:
    """Claude's spelling, and the server's real name in the payload (observed)."""
    return MCP_NAMES.tool_name(server, tool), {"mcp_server": {"name": server, "source": "user"}}


PRE_TOOL = {
    "claude": PreToolTemplate("claude", "claude", "PreToolUse", _claude, {
        "shell": [("Bash", lambda s: {"command": s}),
                  ("Monitor", lambda s: {"command": s, "description": "watch"}),
                  # a tool no vocabulary knows, given a command: the strictest role (shell)
                  ("FutureCommandTool", lambda s: {"command": s}),
                  ("FutureCommandTool", lambda s: {"script": s, "mode": "run"})],
        "read": [("Read", lambda s: {"file_path": s}),
                 ("NotebookRead", lambda s: {"notebook_path": s}),
                 ("Grep", lambda s: {"pattern": ".", "path": s, "output_mode": "content"})],
        "write": [("Write", lambda s: {"file_path": s, "content": "x"}),
                  ("Edit", lambda s: {"file_path": s, "old_string": "a", "new_string": "b"}),
                  ("MultiEdit", lambda s: {"file_path": s, "edits": [{"old_string": "a",
                                                                      "new_string": "b"}]}),
                  ("NotebookEdit", lambda s: {"notebook_path": s, "new_source": "x"})],
        "web": [("WebFetch", lambda s: {"url": s, "prompt": "summarize"})],
        "search": [("Grep", lambda s: {"pattern": "KEY", "path": s, "output_mode": "content"})],
        "glob": [("Glob", lambda s: {"pattern": s})],
        "mcp-path": [("mcp__github__get_file", lambda s: {"path": s})],
        # a sub-agent's prompt (Agent, and Workflow's script)
        "delegate": [("Agent", lambda s: {"description": "look", "prompt": s}),
                     ("Workflow", lambda s: {"script": f"agent({s!r})"})],
        # a tool no vocabulary knows, given a path: read and written
        "unknown-path": [("FutureFileTool", lambda s: {"file_path": s}),
                         ("FutureFileTool", lambda s: {"path": s, "mode": "a"}),
                         # a path under a key no table names
                         ("FutureFileTool", lambda s: {"target": s, "mode": "a"})],
    }, [_mcp]),
}

PROMPTS = {
    "claude": PromptTemplate("claude", "claude", "UserPromptSubmit",
                             lambda p: snake_prompt("UserPromptSubmit", p,
                                                    permission_mode="default")),
}


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ...host import Host
    from ..parts.policy import PolicyModule
    from . import policy as _this
    _conforms: PolicyModule = _this
