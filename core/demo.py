"""`agentdeck demo`: a throwaway home seeded with a realistic operator setup, so the plan shows
every class of item: hand-set keys in commented settings files, MCP servers the operator
added, an existing instructions file (each target's `demo` part), a ~/.bashrc."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .host import Host
from .targets import registry

#: the files of the demo home outside any CLI's home (each target's are its `demo` part)
FILES: dict[str, str] = {
    ".bashrc": """# ~/.bashrc of the demo operator
export EDITOR=vim
alias ll='ls -la'
""",
}


def files() -> dict[str, str]:
    """Every file of the demo home, by its path relative to the home: each target's `demo` part
    (core/targets/parts/demo.py) under the CLI's default home, in registry order, then FILES."""
    out: dict[str, str] = {}
    for s in registry.TARGETS:
        if registry.has_part(s.name, "demo"):
            for rel, text in registry.part(s.name, "demo").FILES.items():
                out[f"{s.home_dirname}/{rel}"] = text
    out.update(FILES)
    return out


def make_demo_home(root: Path | None = None) -> Path:
    home = Path(root) if root else Path(tempfile.mkdtemp(prefix="agentdeck-demo-"))
    host = Host(home=home.absolute(), env={})     # the one door, pointed at the demo home
    host.mkdir(host.home)
    for rel, text in files().items():
        p = host.home / rel
        if host.exists(p, follow=True):
            continue
        host.create_file(p, text.encode("utf-8"), mode=0o600 if rel.endswith("config.json") else 0o644)
    # a skill the operator linked by hand: agentdeck must leave it alone
    own = host.home / "src" / "my-skills" / "changelog"
    if not host.exists(own / "SKILL.md"):
        host.create_file(own / "SKILL.md",
                         b"---\nname: changelog\ndescription: My own changelog skill.\n---\nMine.\n")
    link = host.home / ".agents" / "skills" / "changelog"
    if not host.exists(link):
        host.symlink(str(own), link)
    return home


def demo_env(home: Path) -> dict[str, str]:
    """The process environment for the demo: target homes default inside the demo home, and
    agentdeck's own state stays there too."""
    moved = {s.home_env for s in registry.TARGETS} | {
        "AGENTDECK_STATE_DIR", "AGENTDECK_CONFIG_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME"}
    env = {k: v for k, v in os.environ.items() if k not in moved}
    env["HOME"] = str(home)
    return env
