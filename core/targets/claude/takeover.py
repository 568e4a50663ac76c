"""What other tools' installs write into Claude Code's home, as data
(core/targets/parts/takeover.py): agentihooks' `init --target claude`, observed in a scratch
home (core/facts/known_tools.py says how).
"""
from __future__ import annotations

from pathlib import Path

from ...facts.known_tools import AGENTIHOOKS
from ..parts.takeover import TargetInstall
from .paths import claude_json

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ...host import Host

INSTALLS = {
    AGENTIHOOKS.name: TargetInstall(
        hooks_file="settings.json", hooks_mode="inline", hook_wrapper="",
        persona_file="CLAUDE.md", persona_markers=None, mcp_servers=("agentihooks",)),
}


def mcp_file(host: "Host") -> tuple[Path, str, str]:
    return claude_json(host), "json", "mcpServers"


if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.takeover import TakeoverPart
    from . import takeover as _this
    _conforms: TakeoverPart = _this
