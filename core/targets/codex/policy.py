"""What `agentdeck policy show` / `policy test` say and try for OpenAI Codex CLI
(core/targets/parts/policy.py).

The templates carry the fields Codex 0.171.0 sent in real offline turns (docs/facts/codex.md;
tests/fixtures/payloads/codex/): Claude Code's hook schema plus turn_id, tool_use_id, model,
permission_mode; its shell tools Bash, exec_command {cmd} and shell {command: [argv]}, its one
file tool apply_patch. Codex has no read or web tool: reads go through its shell.
"""
from __future__ import annotations

from typing import Any

from ...policy.templates import PreToolTemplate, PromptTemplate, patch, patch_moved, snake, snake_prompt, spelled
from ..layers import AGENTDECK_PREFIX, LOADER_VARS, Layer, guarded
from ..path_spelling import NativeDeny
from .dialect import MCP_NAMES

CAVEATS = {
    "codex": ["Codex runs only trusted hooks, silently skipping untrusted ones: without "
              "`apply --trust-hooks` (or the operator's approval) no rule is enforced",
              "exit 1 lets the tool run: agentdeck denies with exit 2 only"],
}

#: what the built-in rule agentdeck-self keeps an agent from writing: hooks.json (agentdeck's
#: hooks), config.toml (its trusted hashes, and the permission profile agentdeck adds to), and
#: agentdeck's wrapper
#: -- and the .env in its home (Codex loads it into its environment at start: a variable set
#: there reaches every hook) and a project's .codex/config.toml, which Codex layers over the
#: home's in a trusted folder (its [features] and hook settings can switch hooks off)
#: Codex 0.171.0 runs shell commands in its sandbox (bubblewrap on Linux), where the permission
#: profile's `"<glob>" = "none"` entries deny the open itself, whatever built the path
RUNTIME_FLOOR = ("Codex's sandbox, with the [[policy.paths]] deny entries agentdeck writes into "
                 "your permission profile (only when config.toml's default_permissions names "
                 "one of yours; not under --dangerously-bypass-approvals-and-sandbox; observed "
                 "for a shell read of the file and for python3 -c building the path at run "
                 "time)")

#: each such file as a fact with its version (core/targets/layers.py)
LAYERS = (
    Layer(".env", "Codex loads $CODEX_HOME/.env into its environment at start: an AGENTDECK_* "
          "variable there reaches agentdeck's wrapper and handler", "0.171.0", "observed",
          kind="env", vars=(AGENTDECK_PREFIX, *LOADER_VARS)),
    Layer("**/.codex/config.toml", "a working folder's project config layer (read for a trusted "
          "project): it can override hook settings; the doctor does not parse it", "0.171.0",
          "documented", kind="toml", parents=True, report=False),
    Layer("**/.codex/hooks.json", "a working folder's project hooks file beside its config "
          "layer", "0.171.0", "documented", parents=True, report=False),
)
#: files naming programs Codex 0.171.0 starts by itself beyond config.toml's [mcp_servers]
#: (guarded above): the managed folder (requirements.toml, managed config)
STARTS = ("/etc/codex/**",)
GUARDED = guarded(("hooks.json", "config.toml", "agentdeck-hook.sh", ".env",
                   "**/.codex/config.toml", *STARTS), LAYERS)

#: Codex's own path deny (facts.py PERMISSIONS): written into the operator's own permission
#: profile only (permissions.py)
def _native_deny() -> NativeDeny:
    from . import facts
    from .permissions import translate

    return NativeDeny(
        verified=facts.PERMISSIONS_VERIFIED, facts=facts.PERMISSIONS, translate=translate,
        layer="Codex permission profile (config.toml [permissions.<yours>.filesystem])",
        written="conditional",
        why="only when config.toml's default_permissions names a profile you defined "
            "(agentdeck never chooses one: it changes how every command runs), and only for "
            "sandboxed shell commands (not under --dangerously-bypass-approvals-and-sandbox); "
            "otherwise the hook is the only layer (`agentdeck plan` says which)")


def __getattr__(name: str) -> Any:
    # NATIVE_DENY is made when first asked for: every apply reads each target's GUARDED
    # (the compiled policy's agentdeck-self rule), and this target's facts and
    # translation need not load for that (~30 M instructions off a one-target apply)
    if name == "NATIVE_DENY":
        value = globals()[name] = _native_deny()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _codex(tool: str, args: dict) -> dict:
    return snake("PreToolUse", tool, args, turn_id="turn-1", tool_use_id="call_1",
                 model="gpt-5.4", permission_mode="bypassPermissions",
                 transcript_path="/tmp/rollout.jsonl")


PRE_TOOL = {
    "codex": PreToolTemplate("codex", "codex", "PreToolUse", _codex, {
        "shell": [("Bash", lambda s: {"command": s}), ("exec_command", lambda s: {"cmd": s}),
                  ("shell", lambda s: {"command": ["bash", "-lc", s]})],
        "write": [("apply_patch", lambda s: {"command": patch(s)}),
                  # its shell running apply_patch with a heredoc: judged as the patch it applies
                  ("Bash", lambda s: {"command": f"apply_patch <<'EOF'\n{patch_moved(s)}EOF"})],
        "mcp-path": [("mcp__github__get_file", lambda s: {"path": s})],
        # characters typed into a running exec_command session: a command line (if a hook is
        # ever shown it: Codex 0.171.0 shows none)
        "session-write": [("write_stdin", lambda s: {"session_id": 1, "chars": s})],
        # a command of exec_command, as PreToolUse names it (Bash {command}) and as sent
        "session": [("Bash", lambda s: {"command": s}), ("exec_command", lambda s: {"cmd": s})],
        "unknown-path": [("future_file_tool", lambda s: {"path": s})],
    }, [spelled(MCP_NAMES)]),
}

PROMPTS = {
    "codex": PromptTemplate("codex", "codex", "UserPromptSubmit",
                            lambda p: snake_prompt("UserPromptSubmit", p, turn_id="turn-1")),
}


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.policy import PolicyModule
    from . import policy as _this
    _conforms: PolicyModule = _this
