"""Part `views`: what the app says about one target that only that target knows.

The app's panes are the same for every target and read typed views (core/views/); the words
that belong to one CLI -- how its operator switches an MCP server by hand, what its browser
default is, why it gates hooks on trust -- are this part's data. A target package provides
`core/targets/<name>/views.py` with `VIEWS = TargetViews(...)`; a target without the part
gets `TargetViews()` (nothing said beyond the shared words).

Templates are plain `str.format` strings: {server}, {how} ("enable" or "disable"),
{config} (a path as shown), {short} (the target's short name).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping, Protocol


@dataclass(frozen=True)
class BrowserText:
    """The browser-for-sign-in setting of a CLI that has one (the Browser tab, onboarding)."""
    #: the pane's "will write" line when nothing is written
    writes_nothing: str
    #: onboarding's choice that writes nothing
    own_browser: str
    #: onboarding's browser summary when not under WSL
    not_wsl: str


@dataclass(frozen=True)
class TrustText:
    """The words of a CLI that gates hooks on trust (capability TRUST_HOOKS)."""
    #: what trusting means there, one sentence (onboarding's option)
    why: str
    #: how the operator trusts hooks themselves, in that CLI
    by_hand: str
    #: the file agentdeck writes the trust to, relative to the CLI's home
    file: str
    #: the Hooks tab's bar when the plan does not trust them
    left_untrusted: str


@dataclass(frozen=True)
class TargetViews:
    #: MCP reason id -> the MCP pane's line, where this CLI's words differ from the shared ones
    mcp_reasons: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    #: how the operator switches a server in the CLI itself ("in Copilot: `/mcp {how} {server}`")
    mcp_by_hand: str = ""
    #: onboarding's MCP option: how a default-disabled server is connected in this CLI, a phrase
    #: that follows "<CLI title>: " on a line of its own
    mcp_enable: str = ""
    browser: BrowserText | None = None
    trust: TrustText | None = None


class ViewsPart(Protocol):
    @property
    def VIEWS(self) -> TargetViews: ...
