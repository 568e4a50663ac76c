"""What the app says about GitHub Copilot CLI alone (part `views`, core/targets/parts/views.py)."""
from __future__ import annotations

from types import MappingProxyType

from ..parts.views import BrowserText, TargetViews

VIEWS = TargetViews(
    mcp_reasons=MappingProxyType({
        "operator-enabled": "on: you enabled it in Copilot (/mcp enable); agentdeck never "
                            "disables it",
        "operator-disabled": "off: you disabled it in Copilot (/mcp disable); run /mcp enable "
                             "to connect",
    }),
    mcp_by_hand="in Copilot: `/mcp {how} {server}`",
    mcp_enable="`/mcp enable <name>` in Copilot, or switch it on in agentdeck's MCP tab",
    browser=BrowserText(
        writes_nothing="nothing (Copilot opens its own default browser)",
        own_browser="Copilot's own browser (write nothing)",
        not_wsl="not WSL: Copilot opens your default browser itself"),
)


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.views import ViewsPart
    from . import views as _this
    _conforms: ViewsPart = _this
