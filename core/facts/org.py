"""The organisation layer's shared facts: where agentdeck keeps the layer's own files and state,
and the interpreter its hooks run. Each CLI's own system layer (its path, keys, what holds, with
the version each fact was observed with) is its package's `org` part
(core/targets/<name>/org.py, `FACTS`; interface core/targets/parts/org.py); docs/org.md has the
observations in prose.

`ORG` (target -> OrgFacts, every registered target with an org layer, in the registry's order)
is loaded on first use.
"""
from __future__ import annotations

from ..targets.parts.org import OrgFacts

__all__ = ["LIB_DIR", "OBSERVED_ON", "ORG", "OrgFacts", "PYTHON", "ENV", "LOADER_VARS", "STATE_DIR", "names"]

OBSERVED_ON = "2026-12-01"

#: where agentdeck keeps the org layer's own files (handler copy, compiled policies) and its state
LIB_DIR = "/usr/local/lib/agentdeck"
STATE_DIR = "/var/lib/agentdeck"
#: the interpreter the org hooks run: the system's, never a user venv (checked root-owned)
PYTHON = "/usr/bin/python3"
#: what the org hook runs the interpreter through: the dynamic loader's variables a CLI's
#: environment may carry (its .env files) removed, so no library of the user's is loaded into
#: the handler (the interpreter's -I -S already ignores every PYTHON* variable)
ENV = "/usr/bin/env"
LOADER_VARS = ("LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "GCONV_PATH", "OPENSSL_CONF",
               "OPENSSL_MODULES", "OPENSSL_ENGINES")


def names() -> tuple[str, ...]:
    """The registered targets that have an org layer (an `org` part), in the registry's order."""
    from ..targets import registry
    return tuple(n for n in registry.NAMES if registry.has_part(n, "org"))


def __getattr__(name: str):
    if name == "ORG":
        from ..targets import registry
        from .versions import frozen_map
        value = frozen_map({n: registry.part(n, "org").FACTS for n in names()})
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
