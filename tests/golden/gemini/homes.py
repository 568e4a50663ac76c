"""Gemini CLI's golden homes: a fresh home and a messy one (the demo home plus a settings.json
with comments, the operator's sign-in choice, their own BeforeTool hook, an MCP server of theirs
that sets "disabled": true (which Gemini does not read) and a name of theirs in mcp.excluded, and
an existing GEMINI.md). The listing shows Gemini's files and the shared ~/.agents/skills."""
from __future__ import annotations

from agentdeck.core.demo import make_demo_home
from agentdeck.core.targets.gemini import SPEC
from tests.golden.golden_kit import GoldenHome, TargetGoldens

MESSY_SETTINGS = """{
  // written by hand
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "general": {"vimMode": true},
  "hooks": {
    "BeforeTool": [
      {"matcher": "run_shell_command",
       "hooks": [{"name": "shell-guard", "type": "command", "command": "~/bin/shell-guard.sh",
                  "timeout": 5000}]}
    ]
  },
  "mcpServers": {
    "notes": {"command": "node", "args": ["/home/me/notes.js"], "disabled": true},
    "old": {"command": "old-server"}
  },
  "mcp": {"excluded": ["old"]}
}
"""


def messy(host, monkeypatch):
    make_demo_home(host.home)
    home = SPEC.home(host)
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text(MESSY_SETTINGS)
    (home / "GEMINI.md").write_text("# Mine\n\nAnswer in British English.\n")


GOLDENS = TargetGoldens(
    homes=(GoldenHome("fresh_home"), GoldenHome("messy_home", messy)),
    own=(".gemini", ".agents"),
)
