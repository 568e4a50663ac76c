"""What other tools' installs write into GitHub Copilot CLI's home, as data
(core/targets/parts/takeover.py): agentihooks' `init --target copilot`, observed in a scratch
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
        hooks_file="hooks/agentihooks.json", hooks_mode="own-file",
        hook_wrapper="agentihooks-hook.sh", persona_file="copilot-instructions.md",
        persona_markers=AGENTIHOOKS.persona_markers(SPEC.name),
        sidecar=".agentihooks-managed.json", mcp_servers=("agentihooks",),
        mcp_note="mcpDefaultDisabled does not switch off the server of an install agentdeck "
                 "takes over; switch it off in the app's MCP tab"),
}


def mcp_file(host: "Host") -> tuple[Path, str, str]:
    return SPEC.home(host) / "mcp-config.json", "jsonc", "mcpServers"


if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.takeover import TakeoverPart
    from . import takeover as _this
    _conforms: TakeoverPart = _this
