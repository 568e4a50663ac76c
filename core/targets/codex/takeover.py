"""What other tools' installs write into the OpenAI Codex CLI's home, as data
(core/targets/parts/takeover.py): agentihooks' `init --target codex`, observed in a scratch
home (core/facts/known_tools.py says how).
"""
from __future__ import annotations

from pathlib import Path

from ...facts.known_tools import AGENTIHOOKS
from ..parts.takeover import TargetInstall
from . import SPEC

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ...host import Host

INSTALLS = {
    AGENTIHOOKS.name: TargetInstall(
        hooks_file="hooks.json", hooks_mode="same-file", hook_wrapper="agentihooks-hook.sh",
        persona_file="AGENTS.md", persona_markers=AGENTIHOOKS.persona_markers(SPEC.name),
        mcp_servers=("agentihooks",),
        tool_table=("config.toml", "toml"),
        tool_table_note="Codex does not know it (`agentdeck doctor --live` reports it under "
                        "--strict-config)"),
}


def mcp_file(host: "Host") -> tuple[Path, str, str]:
    return SPEC.home(host) / "config.toml", "toml", "mcp_servers"


if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.takeover import TakeoverPart
    from . import takeover as _this
    _conforms: TakeoverPart = _this
