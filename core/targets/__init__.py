"""Target adapters, loaded lazily by name so a command pays only for the targets it uses."""
from __future__ import annotations

import importlib
import importlib.util

from .base import Target

ADAPTERS = {
    "copilot": ("core.targets.copilot", "CopilotTarget"),
    "codex": ("core.targets.codex", "CodexTarget"),
    "claude": ("core.targets.claude", "ClaudeTarget"),
}
ORDER = ("copilot", "codex", "claude")


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
