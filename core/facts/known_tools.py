"""Other tools that install hooks into the same CLIs: what their installs leave on disk, as data.

agentdeck recognises such an install by its artifacts and offers to take it over (docs/migrating.md,
core/targets/takeover.py). Here is what a tool's install shares across CLIs (its state file, env
files, ~/.bashrc block, persona markers); what it writes into one CLI's home is that target's
`takeover` part (core/targets/<name>/takeover.py, INSTALLS; interface
core/targets/parts/takeover.py). Every path and marker was observed in a scratch home:

  python3 -m venv v && v/bin/pip install agentihooks==2.17.0
  HOME=<scratch> v/bin/agentihooks init --target <cli>

Paths are relative to the home unless the field says otherwise.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..targets.parts.takeover import TargetInstall

__all__ = ["AGENTIHOOKS", "KNOWN_TOOLS", "KnownTool", "TargetInstall"]


@dataclass(frozen=True)
class KnownTool:
    """Another installer of the CLIs' configuration, as the take-over knows it."""
    name: str
    verified: str                       # the version these facts were observed for
    major: str                          # the major version the take-over is offered for
    state_file: str                     # relative to the home: JSON with "version" and
                                        # "targets": {"global": {<cli>: {...}}}
    env_dir: str                        # relative to the home: its env files (*.env)
    bashrc_markers: tuple[str, str]     # its block in ~/.bashrc (it sources the env files)
    #: the lines that open and close its managed persona region; {cli} is the --target name
    persona_marker_lines: tuple[str, str] = ("", "")

    def persona_markers(self, cli: str) -> tuple[str, str]:
        return (self.persona_marker_lines[0].format(cli=cli),
                self.persona_marker_lines[1].format(cli=cli))

    def install(self, target: str) -> TargetInstall | None:
        """What this tool's install writes for `target` (its takeover part), or None."""
        from ..targets import registry
        if not registry.has_part(target, "takeover"):
            return None
        return registry.part(target, "takeover").INSTALLS.get(self.name)

    @property
    def installs(self) -> Mapping[str, TargetInstall]:
        """cli -> TargetInstall, for every registered target this tool installs into."""
        from ..targets import registry
        return {n: i for n in registry.NAMES if (i := self.install(n)) is not None}


AGENTIHOOKS = KnownTool(
    name="agentihooks",
    verified="2.17.0",
    major="2",
    state_file=".agentihooks/state.json",
    env_dir=".agentihooks",
    bashrc_markers=("# === agentihooks ===", "# === end-agentihooks ==="),
    persona_marker_lines=("<!-- managed-by: agentihooks — regenerate with: agentihooks init "
                          "--target {cli} -->", "<!-- agentihooks:managed-end -->"),
)

KNOWN_TOOLS: tuple[KnownTool, ...] = (AGENTIHOOKS,)
