"""What the app says about OpenAI Codex CLI alone (part `views`, core/targets/parts/views.py)."""
from __future__ import annotations

from types import MappingProxyType

from ..parts.views import TargetViews, TrustText

VIEWS = TargetViews(
    mcp_reasons=MappingProxyType({
        "operator-enabled": "on: you set enabled = true in config.toml; agentdeck never "
                            "disables it",
        "operator-disabled": "off: you set enabled = false in config.toml; agentdeck never "
                             "enables it",
    }),
    trust=TrustText(
        why="Codex runs a hook only once its exact content is trusted.",
        by_hand="`/hooks` in Codex",
        file="config.toml",
        left_untrusted="Codex runs only hooks you trust; you chose to leave agentdeck's own "
                       "untrusted."),
)


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.views import ViewsPart
    from . import views as _this
    _conforms: ViewsPart = _this
