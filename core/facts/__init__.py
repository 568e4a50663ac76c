"""Versioned facts shared by every target (versions.py: the shape of a CLI's facts and the
canonical events); each target's own facts are its package's `facts` module
(core/targets/<name>/facts.py, `FACTS`).

FACTS_BY_TARGET (every registered target's facts) and CANONICAL_EVENTS / CliFacts are loaded on
first use (module __getattr__): the hook handler imports plain data modules of this package
(hook_channels) and must not pay for dataclasses and typing.
"""
from __future__ import annotations


def __getattr__(name: str):
    if name in ("CANONICAL_EVENTS", "CliFacts"):
        from . import versions
        value = getattr(versions, name)
    elif name == "FACTS_BY_TARGET":      # dict[str, CliFacts]: one object, made once
        from .versions import facts_by_target
        value = facts_by_target()
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def event_table() -> dict[str, dict[str, str | None]]:
    """Canonical event -> {target: that CLI's spelling or None}."""
    from .versions import CANONICAL_EVENTS
    by_target = globals().get("FACTS_BY_TARGET") or __getattr__("FACTS_BY_TARGET")
    return {ev: {t: f.event_name(ev) for t, f in by_target.items()} for ev in CANONICAL_EVENTS}
