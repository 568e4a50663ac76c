"""Other tools that install hooks into the same CLIs: what their installs leave on disk, as data.

agentdeck recognises such an install by its artifacts and offers to take it over (docs/migrating.md,
core/targets/copilot_takeover.py). Every path and marker here was observed in a scratch home:

  python3 -m venv v && v/bin/pip install agentihooks==2.17.0
  HOME=<scratch> v/bin/agentihooks init --target copilot

(and `--target claude`, `--target codex` for the `elsewhere` notes). Paths are relative to the
CLI's home (COPILOT_HOME) unless the field says the home.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TargetInstall:
    """What the tool's `init --target <cli>` install writes, relative to that CLI's home."""
    hooks_file: str
    #: how its hooks relate to agentdeck's: "own-file" (a hooks file of its own that the CLI loads
    #: beside agentdeck's: set aside), "same-file" (the file agentdeck writes: taking the
    #: profile's replaces it, uninstall puts it back), "inline" (hooks inside the CLI's settings
    #: file, beside agentdeck's: not taken over, both run)
    hooks_mode: str
    hook_wrapper: str                   # the script its hooks run
    persona_file: str
    #: the whole lines that open and close its managed region in persona_file (None: it owns
    #: the whole file, without markers)
    persona_markers: tuple[str, str] | None
    sidecar: str | None = None          # its record of the settings keys it manages
    mcp_servers: tuple[str, ...] = ()   # the servers it adds to the CLI's MCP configuration


@dataclass(frozen=True)
class KnownTool:
    name: str
    verified: str                       # the version these facts were observed for
    major: str                          # the major version the take-over is offered for
    state_file: str                     # relative to the home: JSON with "version" and
                                        # "targets": {"global": {<cli>: {...}}}
    env_dir: str                        # relative to the home: its env files (*.env)
    bashrc_markers: tuple[str, str]     # its block in ~/.bashrc (it sources the env files)
    installs: dict                      # cli -> TargetInstall


def _persona(cli: str) -> tuple[str, str]:
    return (f"<!-- managed-by: agentihooks — regenerate with: agentihooks init --target {cli} -->",
            "<!-- agentihooks:managed-end -->")


AGENTIHOOKS = KnownTool(
    name="agentihooks",
    verified="2.17.0",
    major="2",
    state_file=".agentihooks/state.json",
    env_dir=".agentihooks",
    bashrc_markers=("# === agentihooks ===", "# === end-agentihooks ==="),
    installs={
        "copilot": TargetInstall(
            hooks_file="hooks/agentihooks.json", hooks_mode="own-file",
            hook_wrapper="agentihooks-hook.sh", persona_file="copilot-instructions.md",
            persona_markers=_persona("copilot"), sidecar=".agentihooks-managed.json",
            mcp_servers=("agentihooks",)),
        "codex": TargetInstall(
            hooks_file="hooks.json", hooks_mode="same-file", hook_wrapper="agentihooks-hook.sh",
            persona_file="AGENTS.md", persona_markers=_persona("codex"),
            mcp_servers=("agentihooks",)),
        "claude": TargetInstall(
            hooks_file="settings.json", hooks_mode="inline", hook_wrapper="",
            persona_file="CLAUDE.md", persona_markers=None, mcp_servers=("agentihooks",)),
    },
)

KNOWN_TOOLS: tuple[KnownTool, ...] = (AGENTIHOOKS,)
