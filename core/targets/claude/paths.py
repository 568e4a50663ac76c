"""Where Claude Code keeps its files, for a host (Host.cli_home through the spec)."""
from __future__ import annotations

from pathlib import Path

from . import SPEC

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ...host import Host


def home(host: "Host") -> Path:
    return SPEC.home(host)


def claude_json(host: "Host") -> Path:
    """Claude's user MCP file: ~/.claude.json, or inside CLAUDE_CONFIG_DIR when that is set."""
    if host.env.get(SPEC.home_env):
        return SPEC.home(host) / ".claude.json"
    return host.home / ".claude.json"
