"""The MCP pane's view of one target: each server with its transport, origin, whether this plan
connects it and why, and whether the pane's switch may change it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..disk import MISSING
from .info import output
from . import targets

#: the reason ids the adapters give (McpServerInfo.reason, core/targets/output.py), in the shared words;
#: a target's views part may say its own (TargetViews.mcp_reasons)
REASONS = {
    "default-disabled": "off: mcpDefaultDisabled (switch on to connect it)",
    "always-enabled": "on: listed in mcpAlwaysEnabled",
    "operator-enabled": "on: you enabled it yourself; agentdeck never disables it",
    "operator-disabled": "off: you disabled it yourself; agentdeck never enables it",
    "operator-switched-off": "off: you switched it off in the CLI; agentdeck never switches it "
                             "back on",
    "enabled": "on",
    "profile-disabled": "off: the profile disables it (switch on to connect it)",
    "not-written": "not written: the profile's definition is invalid",
}
#: states the switch can change: the others are the operator's own (set in the CLI) or invalid
SWITCHABLE = ("default-disabled", "profile-disabled", "always-enabled", "enabled")


@dataclass(frozen=True)
class McpServer:
    name: str
    transport: str = "?"
    origin: str = "?"               # "profile" | "operator"
    enabled: bool = False           # as this plan wants it
    enabled_now: bool | None = None  # as the CLI's config says now (None: not said)
    reason: str = ""                # why (REASONS' ids)
    reason_text: str = ""           # the reason in the target's words
    tools: tuple[str, ...] | None = None
    secret: bool = False            # holds literal credentials
    warnings: tuple[str, ...] = ()
    dropped: bool = False           # the profile's server is not written (invalid)
    #: the server is in the CLI's config on disk now (None: the plan does not say)
    configured: bool | None = None

    @property
    def switchable(self) -> bool:
        return self.reason in SWITCHABLE and not self.dropped

    @property
    def yours(self) -> bool:
        return self.origin == "operator"


@dataclass(frozen=True)
class McpView:
    present: bool = False
    file: str = ""
    settings: str = ""              # where the CLI keeps its off list, when that is another file
    default_disabled: bool = False
    always_enabled: tuple[str, ...] = ()
    servers: tuple[McpServer, ...] = ()
    #: how the operator switches a server in the CLI itself (the target's words; "" if none)
    by_hand: str = ""

    def server(self, name: str) -> McpServer | None:
        return next((s for s in self.servers if s.name == name), None)

    def by_hand_hint(self, server: str, enable: bool) -> str:
        return self.by_hand.format(server=server, how="enable" if enable else "disable") \
            if self.by_hand else ""


def _configured(plan: Any, target: str, name: str) -> bool | None:
    """Whether the server's plan item finds it in the CLI's config on disk now."""
    for it in plan.for_target(target):
        if it.group == "mcp" and it.kind == "key" and len(it.key) == 2 and it.key[1] == name:
            return it.actual is not MISSING
    return None


def of(plan: Any, target: str) -> McpView:
    m = output(plan, target).mcp
    if m is None:
        return McpView()
    words = {**REASONS, **targets.of(target).mcp_reasons}
    servers = tuple(McpServer(
        name=s.name, transport=s.transport, origin=s.origin, enabled=s.enabled,
        enabled_now=s.enabled_now, reason=s.reason, reason_text=words.get(s.reason, s.reason),
        tools=s.tools, secret=s.secret, warnings=s.warnings, dropped=s.dropped,
        configured=_configured(plan, target, s.name)) for s in m.servers)
    return McpView(present=True, file=m.file, settings=m.settings,
                   default_disabled=m.default_disabled, always_enabled=m.always_enabled,
                   servers=servers, by_hand=targets.of(target).mcp_by_hand)
