"""Targets: one package per CLI under core/targets/<name>/, listed by core/targets/registry.py.

Adapters are loaded lazily by name so a command pays only for the targets it uses: `ADAPTERS`
maps each registered name to its adapter (module, class) (tests register a fake one here),
`ORDER` is the registry's order. Importing this package costs the registry's plain data only,
no target package (the hook handler imports one target's dialect on every tool call):
RunOptions, Target, ORDER and the tables load on first use.
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

MANIFEST_NAME = registry.MANIFEST_NAME

if TYPE_CHECKING:  # pragma: no cover
    ORDER: tuple[str, ...]
    ADAPTERS: dict[str, tuple[str, str]]


def __getattr__(name: str):
    if name in ("RunOptions", "DEFAULT_OPTIONS", "Target"):
        from . import base   # local: the hook handler imports target packages; base is not its
        value = getattr(base, name)
    elif name == "ORDER":
        value = registry.NAMES
    elif name in ("ADAPTERS", "_BUILTIN"):
        builtin = {s.name: s.adapter for s in registry.TARGETS}
        globals()["_BUILTIN"] = builtin
        globals()["ADAPTERS"] = dict(builtin)
        return globals()[name]
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def _adapters() -> dict[str, tuple[str, str]]:
    return globals().get("ADAPTERS") or __getattr__("ADAPTERS")


def available() -> list[str]:
    import importlib.util   # local: the hook handler imports this package on every call and never asks

    out = []
    adapters = _adapters()
    order = globals().get("ORDER") or __getattr__("ORDER")
    for name in order:
        mod, _ = adapters[name]
        if importlib.util.find_spec(mod) is not None:
            out.append(name)
    return out


def get(name: str) -> "Target":
    adapters = _adapters()
    if name not in adapters:
        raise KeyError(name)
    mod, cls = adapters[name]
    return getattr(importlib.import_module(mod), cls)()


def manifest_path(name: str, host) -> "Path":
    """get(name).manifest_path(host), without importing a built-in adapter (the registry knows)."""
    adapters = _adapters()
    if name in registry.BY_NAME and adapters.get(name) == globals()["_BUILTIN"].get(name):
        return registry.BY_NAME[name].manifest_path(host)
    return get(name).manifest_path(host)


def title(name: str) -> str:
    return registry.title(name)
