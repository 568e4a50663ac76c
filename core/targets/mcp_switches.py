"""The MCP-switch rules: what an MCP server's on/off switch in the app means for the profile
(the `_agentdeck` mcpAlwaysEnabled directive and the disabledMcpServers list of the profile's
directives file, registry.DIRECTIVES_FILE). The Codex adapter plans that same list
(its servers' `enabled`) and the Claude adapter too (a server that is off is not written), so
all three declare the MCP_SWITCHES capability and
`Target.profile_for` applies these rules for them; the app keeps a switch in the operator's
layer (core/overlay.py).
"""
from __future__ import annotations

from typing import Mapping

from ..desired import DesiredState
from . import registry
from .output import McpInfo, McpServerInfo


def switch_mcp(profile, switches: Mapping[str, bool]):
    """The profile after the switches (a copy when anything changes). A server switched on
    joins mcpAlwaysEnabled (and leaves the profile's disabledMcpServers); switched off, it
    leaves mcpAlwaysEnabled and, unless mcpDefaultDisabled already disables it, joins the
    profile's copilot/settings.json disabledMcpServers. The adapters then plan it like any
    profile value, so names the operator disabled in the CLI itself stay theirs."""
    if not switches:
        return profile
    p = profile.model_copy(deep=True)
    always = list(p.directives.mcpAlwaysEnabled)
    settings = dict(p.native.get(registry.DIRECTIVES_FILE, {}))
    disabled = settings.get("disabledMcpServers")
    disabled = [n for n in disabled if isinstance(n, str)] if isinstance(disabled, list) else []
    for name, on in switches.items():
        if on:
            always += [name] if name not in always else []
            disabled = [n for n in disabled if n != name]
        else:
            always = [n for n in always if n != name]
            if not p.directives.mcpDefaultDisabled and name not in disabled:
                disabled.append(name)
    p.directives.mcpAlwaysEnabled = always
    if disabled or "disabledMcpServers" in settings:
        settings["disabledMcpServers"] = disabled
        p.native = {**p.native, registry.DIRECTIVES_FILE: settings}
    return p


def profile_disabled(profile) -> set[str]:
    """The servers the profile's switches keep off (its disabledMcpServers list, where
    `switch_mcp` keeps the app's switches too)."""
    settings = profile.native.get(registry.DIRECTIVES_FILE, {})
    names = settings.get("disabledMcpServers") if isinstance(settings, dict) else None
    return {n for n in names if isinstance(n, str)} if isinstance(names, list) else set()


def switch_reason(profile, name: str, disabled: set[str] | None = None) -> str:
    """Why server `name` is on or off for a target that plans the switches itself:
    "always-enabled" | "default-disabled" | "profile-disabled" | "enabled"."""
    d = profile.directives
    if name in set(d.mcpAlwaysEnabled):
        return "always-enabled"
    if d.mcpDefaultDisabled:
        return "default-disabled"
    if name in (profile_disabled(profile) if disabled is None else disabled):
        return "profile-disabled"
    return "enabled"


#: the reasons `switch_reason` gives for a server that is on
ON_REASONS = ("always-enabled", "enabled")


def not_written(st: DesiredState, name: str, transport: str,
                warnings: list[str]) -> McpServerInfo:
    """A profile server the adapter cannot write (its translation failed): its warnings go to
    the plan, and its row of the adapter's MCP report says so."""
    for w in warnings:
        st.warn(w)
    return McpServerInfo(name=name, transport=transport, origin="profile", enabled=False,
                         enabled_now=False, reason="not-written", warnings=tuple(warnings),
                         dropped=True)


def report(st: DesiredState, mcp: McpInfo) -> None:
    """The adapter's report of its MCP servers (TargetOutput.mcp)."""
    st.output.mcp = mcp
