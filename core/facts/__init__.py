"""Versioned facts about each target CLI, as data (see versions.py for the shared shape)."""
from __future__ import annotations

from .claude import CLAUDE
from .codex import CODEX
from .copilot import COPILOT
from .versions import CANONICAL_EVENTS, CliFacts

FACTS_BY_TARGET: dict[str, CliFacts] = {f.target: f for f in (COPILOT, CODEX, CLAUDE)}


def event_table() -> dict[str, dict[str, str | None]]:
    """Canonical event -> {target: that CLI's spelling or None}."""
    return {ev: {t: f.event_name(ev) for t, f in FACTS_BY_TARGET.items()} for ev in CANONICAL_EVENTS}
