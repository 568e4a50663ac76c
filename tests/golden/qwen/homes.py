"""Qwen Code's golden homes: a fresh home and a messy one (the demo home plus a settings.json
with comments and no "$version" -- as `qwen mcp add` leaves it --, the operator's own PreToolUse
hook, an MCP server of theirs that sets "disabled": true (which Qwen ignores) and a name of
theirs in mcp.excluded, and an existing QWEN.md). The listing shows Qwen's files and the shared
~/.agents/skills."""
from __future__ import annotations

from agentdeck.core.demo import make_demo_home
from agentdeck.core.targets.qwen import SPEC
from tests.golden.golden_kit import GoldenHome, TargetGoldens

MESSY_SETTINGS = """{
  // written by hand
  "general": {"vimMode": true},
  "hooks": {
    "PreToolUse": [
      {"matcher": "run_shell_command",
       "hooks": [{"type": "command", "command": "~/bin/shell-guard.sh", "timeout": 5}]}
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
    (home / "QWEN.md").write_text("# Mine\n\nAnswer in British English.\n")


GOLDENS = TargetGoldens(
    homes=(GoldenHome("fresh_home"), GoldenHome("messy_home", messy)),
    own=(".qwen", ".agents"),
)
