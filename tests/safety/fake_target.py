"""A minimal second target for the cross-target safety tests (registered only by the
`with_fake_target` fixture). It writes into its own home ~/.fake (keys in a JSONC settings file,
a whole file, a managed block) and links the profile's skills into the shared ~/.agents/skills,
exactly as Copilot does, so the engine must plan that link once and record both owners."""
from __future__ import annotations

from pathlib import Path

from agentdeck.core.desired import Desired, DesiredState
from agentdeck.core.host import Host
from agentdeck.core.model import Profile

T = "fake"
MARKERS = ("<!-- fake:begin -->", "<!-- fake:end -->")


class FakeTarget:
    name = T
    title = "Fake CLI (tests only)"
    binary = "fake-cli"

    def manifest_path(self, host: Host) -> Path:
        return host.home / ".fake" / ".agentdeck-managed.json"

    def profile_for(self, profile: Profile, options) -> Profile:
        return profile

    def migrate_manifest(self, manifest, view) -> None:
        pass

    def desired(self, profile: Profile, view, options=None) -> DesiredState:
        host = view.host
        st = DesiredState(T)
        home = host.home / ".fake"
        st.add(Desired(T, home / "settings.json", "key", True, key=("agentdeck", "enabled"),
                       fmt="jsonc", label="agentdeck.enabled"))
        st.add(Desired(T, home / "settings.json", "key", profile.name, key=("profile",),
                       fmt="jsonc", label="profile"))
        st.add(Desired(T, home / "hook.sh", "file", "#!/bin/sh\nexit 0\n", mode=0o755,
                       label="hook"))
        st.add(Desired(T, home / "NOTES.md", "block", f"profile {profile.name}\n",
                       markers=MARKERS, placement="bottom", label="persona"))
        for name in sorted(profile.skills):
            st.add(Desired(T, host.agents_skills_dir / name, "link", profile.skills[name],
                           label=f"skill {name}"))
        return st
