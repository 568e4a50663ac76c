"""What the app says about Gemini CLI alone (part `views`, core/targets/parts/views.py)."""
from __future__ import annotations

from types import MappingProxyType

from ..parts.views import TargetViews

VIEWS = TargetViews(
    mcp_reasons=MappingProxyType({
        "operator-disabled": "off: you named it in mcp.excluded in settings.json; agentdeck "
                             "never removes your entries",
        "operator-switched-off": "off: you switched it off with /mcp disable "
                                 "(mcp-server-enablement.json); /mcp enable in Gemini CLI "
                                 "switches it back on",
    }),
    mcp_by_hand="in Gemini CLI: {how} {server} by editing mcp.excluded in settings.json",
    mcp_enable="switch it on in agentdeck's MCP tab (Gemini CLI starts every server not named "
               "in mcp.excluded; agentdeck names a default-disabled one there until then)",
)


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.views import ViewsPart
    from . import views as _this
    _conforms: ViewsPart = _this
