"""`agentdeck demo`: a throwaway home seeded with a realistic operator setup, so the plan shows
every class of item: hand-set keys in a commented settings.json, an MCP server the operator
added, a Codex config.toml with comments, an existing instructions file, a ~/.bashrc."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .host import Host

FILES: dict[str, str] = {
    ".copilot/settings.json": """{
  // My Copilot settings. agentdeck must keep these comments.
  "model": "gpt-5",
  "theme": "dark",
  /* I turned this server off by hand */
  "disabledMcpServers": ["my-notes"],
  "enabledMcpServers": ["github"],
}
""",
    ".copilot/mcp-config.json": """{
  "mcpServers": {
    "my-notes": {
      "type": "local",
      "command": "node",
      "args": ["/home/me/notes-mcp/index.js"],
      "tools": ["*"]
    }
  }
}
""",
    ".copilot/copilot-instructions.md": """# My own notes for Copilot

Always answer in British English.
""",
    ".copilot/config.json": """{
  "trustedFolders": ["/home/me/src"],
  "lastLoggedInUser": "demo-user"
}
""",
    ".codex/config.toml": """# Codex settings, hand-written.
model = "gpt-5-codex"   # the one I like

[mcp_servers.local-db]
# my own database tool
command = "db-mcp"
args = ["--readonly"]
""",
    ".bashrc": """# ~/.bashrc of the demo operator
export EDITOR=vim
alias ll='ls -la'
""",
    ".claude/settings.json": """{
  "model": "sonnet"
}
""",
}


def make_demo_home(root: Path | None = None) -> Path:
    home = Path(root) if root else Path(tempfile.mkdtemp(prefix="agentdeck-demo-"))
    host = Host(home=home.absolute(), env={})     # the one door, pointed at the demo home
    host.mkdir(host.home)
    for rel, text in FILES.items():
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
    env = {k: v for k, v in os.environ.items()
           if k not in ("COPILOT_HOME", "CODEX_HOME", "CLAUDE_CONFIG_DIR", "AGENTDECK_STATE_DIR",
                        "AGENTDECK_CONFIG_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME")}
    env["HOME"] = str(home)
    return env
