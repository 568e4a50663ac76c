"""What the app says about OpenCode alone (part `views`, core/targets/parts/views.py)."""
from __future__ import annotations

from types import MappingProxyType

from ..parts.views import TargetViews

VIEWS = TargetViews(
    mcp_reasons=MappingProxyType({
        "operator-disabled": "off: you set \"enabled\": false on it in opencode.json; agentdeck "
                             "never changes your entries",
    }),
    mcp_by_hand="in OpenCode: {how} {server} by setting \"enabled\" on its mcp entry in "
                "opencode.json",
    mcp_enable="switch it on in agentdeck's MCP tab (OpenCode starts every server whose entry "
               "does not say \"enabled\": false; agentdeck writes that until then)",
)


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.views import ViewsPart
    from . import views as _this
    _conforms: ViewsPart = _this
