"""Where a target's files are for a test's Host. The Host names no target: each target's home
is its spec's (TargetSpec.home: its variable, else its folder under the home), and Claude's user
MCP file is the Claude package's (core/targets/claude/paths.py)."""
from __future__ import annotations

from pathlib import Path

from agentdeck.core.host import Host
from agentdeck.core.targets import registry


def target_home(host: Host, name: str) -> Path:
    """Target `name`'s home on `host` (wherever its home variable puts it)."""
    return registry.spec(name).home(host)


def claude_json(host: Host) -> Path:
    """Claude Code's ~/.claude.json, or inside CLAUDE_CONFIG_DIR when that is set."""
    from agentdeck.core.targets.claude.paths import claude_json as of
    return of(host)
