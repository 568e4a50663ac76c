"""The Copilot adapter's MCP-switch rules: what an MCP server's on/off switch in the app means
for the profile, in Copilot's vocabulary (the `_agentdeck` mcpAlwaysEnabled directive and the
profile's copilot/settings.json disabledMcpServers). The Codex adapter plans that same list
(its servers' `enabled`) and the Claude adapter too (a server that is off is not written), so
all three declare the MCP_SWITCHES capability and
`Target.profile_for` applies these rules for them; the app keeps a switch in the operator's
layer (core/overlay.py).
"""
from __future__ import annotations

from typing import Mapping


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
    settings = dict(p.native.get("copilot/settings.json", {}))
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
        p.native = {**p.native, "copilot/settings.json": settings}
    return p
