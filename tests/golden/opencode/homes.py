"""OpenCode's golden homes: a fresh home and a messy one (the demo home plus an opencode.json
with comments and no "$schema", a plugin of the operator's own, an MCP server of theirs that is
off ("enabled": false) and one that is on, and an existing AGENTS.md). The listing shows
OpenCode's home (~/.config/opencode)."""
from __future__ import annotations

from agentdeck.core.demo import make_demo_home
from agentdeck.core.targets.opencode import SPEC
from tests.golden.golden_kit import GoldenHome, TargetGoldens

MESSY_CONFIG = """{
  // written by hand
  "theme": "opencode",
  "permission": {"bash": {"git push *": "ask", "*": "allow"}},
  "mcp": {
    "notes": {"type": "local", "command": ["node", "/home/me/notes.js"], "enabled": false},
    "docs": {"type": "remote", "url": "https://docs.example.com/mcp"}
  }
}
"""


def messy(host, monkeypatch):
    make_demo_home(host.home)
    home = SPEC.home(host)
    (home / "plugins").mkdir(parents=True, exist_ok=True)
    (home / "opencode.json").write_text(MESSY_CONFIG)
    (home / "plugins" / "notify.js").write_text("export const Notify = async () => ({});\n")
    (home / "AGENTS.md").write_text("# Mine\n\nAnswer in British English.\n")


GOLDENS = TargetGoldens(
    homes=(GoldenHome("fresh_home"), GoldenHome("messy_home", messy)),
    own=(SPEC.home_dirname,),
)
