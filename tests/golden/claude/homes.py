"""Claude Code's golden homes: a fresh home and a messy home (the demo home plus the operator's
own hooks in settings.json, a .claude.json Claude has filled with its own state and an MCP
server, and an existing CLAUDE.md). The listing shows Claude's files (the demo's others are not
Claude's)."""
from __future__ import annotations

import json
import os

from agentdeck.core.demo import make_demo_home
from agentdeck.core.targets.claude import SPEC, paths
from tests.golden.golden_kit import GoldenHome, TargetGoldens


def messy(host, monkeypatch):
    make_demo_home(host.home)
    home = SPEC.home(host)
    (home / "settings.json").write_text(json.dumps({
        "model": "sonnet",
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "~/bin/bash-guard.sh", "timeout": 5}]}]},
    }, indent=2) + "\n")
    claude_json = paths.claude_json(host)
    claude_json.write_text(json.dumps({
        "numStartups": 12, "firstStartTime": "2026-01-02T03:04:05.000Z",
        "mcpServers": {"notes": {"type": "stdio", "command": "node", "args": ["/home/me/notes.js"]}},
    }, indent=2) + "\n")
    os.chmod(claude_json, 0o600)
    (home / "CLAUDE.md").write_text("# Mine\n\nUse British English.\n")


GOLDENS = TargetGoldens(
    homes=(GoldenHome("fresh_home"), GoldenHome("messy_home", messy)),
    own=(".claude", ".claude.json"),
)
