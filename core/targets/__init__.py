"""Target adapters, loaded lazily by name so a command pays only for the targets it uses."""
from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING

from .base import Target

if TYPE_CHECKING:
    from pathlib import Path

ADAPTERS = {
    "copilot": ("agentdeck.core.targets.copilot", "CopilotTarget"),
    "codex": ("agentdeck.core.targets.codex", "CodexTarget"),
    "claude": ("agentdeck.core.targets.claude", "ClaudeTarget"),
}
ORDER = ("copilot", "codex", "claude")

#: where each built-in adapter keeps its manifest: <Host attribute>/.agentdeck-managed.json.
#: Every plan loads every target's manifest; with this, a Copilot-only run need not import the
#: Codex and Claude adapters to learn where theirs are (tests/unit/test_targets_lazy.py checks
#: it against each adapter's manifest_path).
_MANIFEST_HOME = {"copilot": "copilot_home", "codex": "codex_home", "claude": "claude_home"}
_BUILTIN = dict(ADAPTERS)
MANIFEST_NAME = ".agentdeck-managed.json"


def available() -> list[str]:
    out = []
    for name in ORDER:
        mod, _ = ADAPTERS[name]
        if importlib.util.find_spec(mod) is not None:
            out.append(name)
    return out


def get(name: str) -> Target:
    if name not in ADAPTERS:
        raise KeyError(name)
    mod, cls = ADAPTERS[name]
    return getattr(importlib.import_module(mod), cls)()


def manifest_path(name: str, host) -> Path:
    """get(name).manifest_path(host), without importing a built-in adapter."""
    attr = _MANIFEST_HOME.get(name)
    if attr is not None and ADAPTERS.get(name) == _BUILTIN.get(name):
        return getattr(host, attr) / MANIFEST_NAME
    return get(name).manifest_path(host)
