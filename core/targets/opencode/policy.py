"""What `agentdeck policy show` / `policy test` say and try for OpenCode
(core/targets/parts/policy.py; docs/facts/opencode.md section 2).

OpenCode's enforcement channel is agentdeck's plugin, not a shell hook: `tool.execute.before`
runs the wrapper with the payload the plugin builds (the dialect part) and throws to deny. The
templates carry that payload: Claude Code's snake_case field names with OpenCode's own
`call_id` and `worktree`, its tool ids (bash with `workdir`, read/glob/grep, edit, write,
apply_patch, webfetch, task) and `<server>_<tool>` for an MCP tool.
"""
from __future__ import annotations

from typing import Any

from ...policy.templates import CWD, S, PreToolTemplate, spelled
from ..layers import Layer, guarded
from ..path_spelling import NativeDeny
from .dialect import EVENT, MCP_NAMES, VERIFIED
from .plugin import WRAPPER_EVENT

# the facts module is not imported here: every target's apply reads this part (GUARDED), and
# another target's plan need not load OpenCode's facts (tests/unit/test_targets_lazy.py); the
# names below are docs/facts/opencode.md's (sections 1, 2, 4)

CAVEATS = {
    "opencode": [
        "the guard is agentdeck's plugin (~/.config/opencode/plugins/agentdeck.js), which "
        "OpenCode runs in its own process: `opencode --pure` and "
        "OPENCODE_PURE=1 load no plugin, so every call runs unchecked (observed); "
        "`agentdeck doctor` reports the variable when it is set where agentdeck runs, not a "
        "flag given to one run",
        "a plugin file OpenCode cannot load is skipped without a word (the calls run)",
        "the plugin sees tool calls only: [[policy.rules]] for prompts are not enforced in "
        "OpenCode",
        "OPENCODE_PERMISSION (JSON in the environment) is merged over every config "
        "file's permission rules, a managed file's too: it can allow what a file denies; the "
        "plugin's deny still holds",
        "a working folder's opencode.json or .opencode/ folder (plugins, agents, config) is "
        "loaded in a session started there; a plugin there runs in the same process as "
        "agentdeck's: `agentdeck doctor` reports the one of the folder it is started in",
    ],
}

#: the files an agent could use to switch the guard off, as OpenCode 1.18.33 reads them
LAYERS = (
    Layer("**/opencode.json", "a working folder's (or a parent's, to the worktree root) project "
          "config, loaded over the user's in a session started there", VERIFIED,
          "documented", keys=("plugin",), parents=True, report=False),
    Layer("**/.opencode/**", "a working folder's .opencode/ folder: its plugins/ run in "
          "OpenCode's process beside agentdeck's, its opencode.json is loaded over the user's",
          VERIFIED, "documented", report=False),
)
#: agentdeck's plugin and every other plugin in the user's folder (a plugin there runs in the
#: same process, before or after agentdeck's), the wrapper, the user's config files
#: files naming programs OpenCode 1.18.33 starts by itself: plugins auto-discovered from BOTH
#: plugin/ and plugins/ (docs/facts/opencode.md section 2; a plugin planted in plugin/ ran in a
#: real turn), a project's opencode.jsonc (beside its opencode.json, a LAYER: either lists
#: plugins), and the managed folder /etc/opencode
STARTS = ("plugins/**", "plugins", "plugin/**", "plugin", "**/opencode.jsonc", "/etc/opencode/**",
          # custom tools: OpenCode imports every tool/*.js|ts and tools/*.js|ts of its config
          # folders at start (code run in its process, outside the plugin: a tool file written
          # by a shell call ran at the next session's start, red team round 3)
          "tool/**", "tool", "tools/**", "tools")
GUARDED = guarded(("agentdeck-hook.sh", "config.json", "opencode.json", "opencode.jsonc",
                   *STARTS), LAYERS)

#: No RUNTIME_FLOOR: `policy show` says "nothing".


def _native_deny() -> NativeDeny:
    """OpenCode's `permission` rules, as observed: not written (facts.PERMISSIONS)."""
    from . import facts                    # local: see __getattr__

    return NativeDeny(
        verified=VERIFIED, facts=facts.PERMISSIONS, written=False,
        why="OpenCode's permission rules match a read's path relative to the session's "
            "worktree, not an absolute or ~/ path (docs/facts/opencode.md section 4), so a "
            "home path has no spelling that holds wherever OpenCode starts; agentdeck's plugin "
            "is the guard")


def __getattr__(name: str) -> Any:
    # NATIVE_DENY is made when first asked for: every apply reads each target's GUARDED, and
    # another target's plan need not load OpenCode's facts
    if name == "NATIVE_DENY":
        value = globals()[name] = _native_deny()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _opencode(tool: str, args: dict) -> dict:
    return {"hook_event_name": EVENT, "session_id": S, "call_id": "call_1", "tool_name": tool,
            "tool_input": args, "cwd": CWD, "worktree": CWD}


def _split(path: str) -> tuple[str, str]:
    """(folder, name) of a path: bash's `workdir` and the rest."""
    head, _, tail = path.rpartition("/")
    return head or "/", tail


def _patch(path: str) -> dict:
    return {"patchText": f"*** Begin Patch\n*** Add File: {path}\n+x\n*** End Patch"}


PRE_TOOL = {
    "opencode": PreToolTemplate("opencode", "opencode", WRAPPER_EVENT, _opencode, {
        "shell": [("bash", lambda s: {"command": s})],
        "read": [("read", lambda s: {"filePath": s}),
                 ("grep", lambda s: {"pattern": ".", "path": s})],
        "write": [("write", lambda s: {"filePath": s, "content": "x"}),
                  ("edit", lambda s: {"filePath": s, "oldString": "a", "newString": "b"}),
                  ("apply_patch", _patch)],
        "web": [("webfetch", lambda s: {"url": s, "format": "text"})],
        "search": [("grep", lambda s: {"pattern": "KEY", "path": s}),
                   ("grep", lambda s: {"pattern": "KEY", "include": "*", "path": s})],
        "glob": [("glob", lambda s: {"pattern": s}),
                 ("glob", lambda s: {"pattern": _split(s)[1], "path": _split(s)[0]})],
        "mcp-path": [("github_get_file", lambda s: {"path": s})],
        # the command names the file alone, `workdir` is its folder (an absolute path)
        "dir-read": [("bash", lambda s: {"command": f"cat {_split(s)[1]}",
                                         "workdir": _split(s)[0]})],
        "dir-write": [("bash", lambda s: {"command": f"echo x > {_split(s)[1]}",
                                          "workdir": _split(s)[0]})],
        "delegate": [("task", lambda s: {"description": "look", "prompt": s,
                                         "subagent_type": "general"})],
        "unknown-path": [("future_file_tool", lambda s: {"filePath": s})],
    }, [spelled(MCP_NAMES)]),
}

#: no prompt template: the plugin does not see prompts
PROMPTS: dict = {}


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.policy import PolicyModule
    from . import policy as _this
    _conforms: PolicyModule = _this
