"""GitHub Copilot CLI target (first, small adapter: persona, pinned settings, MCP servers).

The complete install (hooks, trust, directives, skills, agents) is built on this in issue 3."""
from __future__ import annotations

from pathlib import Path

from ..desired import Desired, DesiredState
from ..host import Host
from ..model import Profile
from .persona import PERSONA_MARKERS, build_persona


class CopilotTarget:
    name = "copilot"
    title = "GitHub Copilot CLI"
    binary = "copilot"

    def manifest_path(self, host: Host) -> Path:
        return host.copilot_home / ".agentdeck-managed.json"

    def desired(self, profile: Profile, host: Host) -> DesiredState:
        st = DesiredState(self.name)
        home = host.copilot_home
        settings = home / "settings.json"
        st.add(Desired(self.name, settings, "key", False, key=("disableAllHooks",), fmt="jsonc",
                       pinned=True, label="disableAllHooks", group="settings",
                       reason="pinned false: true silently disables every hook"))
        for k, v in profile.native.get("copilot/settings.json", {}).items():
            st.add(Desired(self.name, settings, "key", v, key=(k,), fmt="jsonc", label=k,
                           group="settings", reason="set by the profile's copilot/settings.json"))
        for name, srv in profile.mcp_servers.items():
            st.add(Desired(self.name, home / "mcp-config.json", "key",
                           srv.model_dump(exclude_none=True, exclude_defaults=True),
                           key=("mcpServers", name), fmt="json", label=f"MCP server {name}",
                           group="mcp", reason="from the profile's mcp.json"))
        st.add(Desired(self.name, home / "copilot-instructions.md", "block",
                       build_persona(profile, "Copilot CLI"), markers=PERSONA_MARKERS,
                       label="persona", group="persona", reason="the profile's AGENTS.md and rules"))
        return st
