"""Versioned facts about each target CLI, as data (see versions.py for the shared shape).

COPILOT, CODEX, CLAUDE and FACTS_BY_TARGET are loaded on first use (module __getattr__):
importing core.facts.copilot for a Copilot-only plan no longer loads the Codex and Claude facts.
CANONICAL_EVENTS and CliFacts (versions.py) too: the hook handler imports plain data modules of
this package (hook_channels, mcp_names) and must not pay for dataclasses and typing.
"""
from __future__ import annotations

_MODULES = {"COPILOT": "copilot", "CODEX": "codex", "CLAUDE": "claude"}


def __getattr__(name: str):
    if name in ("CANONICAL_EVENTS", "CliFacts"):
        from . import versions
        value = getattr(versions, name)
    elif name in _MODULES:
        import importlib
        value = getattr(importlib.import_module(f"{__name__}.{_MODULES[name]}"), name)
    elif name == "FACTS_BY_TARGET":      # dict[str, CliFacts]: one object, made once
        value = {f.target: f for f in (__getattr__("COPILOT"), __getattr__("CODEX"),
                                       __getattr__("CLAUDE"))}
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def event_table() -> dict[str, dict[str, str | None]]:
    """Canonical event -> {target: that CLI's spelling or None}."""
    from .versions import CANONICAL_EVENTS
    by_target = globals().get("FACTS_BY_TARGET") or __getattr__("FACTS_BY_TARGET")
    return {ev: {t: f.event_name(ev) for t, f in by_target.items()} for ev in CANONICAL_EVENTS}
