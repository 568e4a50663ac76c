"""Targets: one package per CLI under core/targets/<name>/, listed by core/targets/registry.py.

Adapters are loaded lazily by name so a command pays only for the targets it uses: `ADAPTERS`
maps each registered name to its adapter (module, class) (tests register a fake one here),
`ORDER` is the registry's order. Importing this package costs nothing beyond the registry's
plain data (the hook handler imports target packages' dialects on every tool call):
RunOptions, Target and the tables load on first use.
"""
from __future__ import annotations

import importlib

from . import registry

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path

    from .base import DEFAULT_OPTIONS, RunOptions, Target

__all__ = ["ADAPTERS", "ORDER", "MANIFEST_NAME", "RunOptions", "DEFAULT_OPTIONS", "Target",
           "available", "get", "manifest_path", "title"]

ORDER: tuple[str, ...] = registry.NAMES
MANIFEST_NAME = registry.MANIFEST_NAME
_BUILTIN: dict[str, tuple[str, str]] = {s.name: s.adapter for s in registry.TARGETS}
ADAPTERS: dict[str, tuple[str, str]] = dict(_BUILTIN)


def __getattr__(name: str):
    if name in ("RunOptions", "DEFAULT_OPTIONS", "Target"):
        from . import base
        value = getattr(base, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def available() -> list[str]:
    import importlib.util
    out = []
    for name in ORDER:
        mod, _ = ADAPTERS[name]
        if importlib.util.find_spec(mod) is not None:
            out.append(name)
    return out


def get(name: str) -> "Target":
    if name not in ADAPTERS:
        raise KeyError(name)
    mod, cls = ADAPTERS[name]
    return getattr(importlib.import_module(mod), cls)()


def manifest_path(name: str, host) -> "Path":
    """get(name).manifest_path(host), without importing a built-in adapter (the registry knows)."""
    if name in registry.BY_NAME and ADAPTERS.get(name) == _BUILTIN.get(name):
        return registry.BY_NAME[name].manifest_path(host)
    return get(name).manifest_path(host)


def title(name: str) -> str:
    return registry.title(name)
