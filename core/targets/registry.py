"""The one list of targets: every list of targets in core/ and app/ comes from here.

Each target is one package, `core/targets/<name>/`, whose `__init__` declares its `SPEC`
(core/targets/spec.py) and nothing heavier; everything else the package knows (adapter, facts,
hook dialect, doctor checks, probes, drill, take-over, org layer) is a module of it, loaded by
`part()` when a feature asks. `BUILTIN` is the registry entry of each target, in display order;
the packages are imported by name (importlib), so nothing here depends on any one target.
tests/unit/test_registry.py checks that every package, the profile model's target names and
the features' tables agree with it.
"""
from __future__ import annotations   # standard library only: the hook handler loads it

import importlib

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Callable
    from types import ModuleType
    from typing import Any

from .spec import MANIFEST_NAME, MCP_SWITCHES, TRUST_HOOKS, TargetSpec

__all__ = ["BUILTIN", "BY_NAME", "DIRECTIVES_FILE", "MANIFEST_NAME", "MCP_SWITCHES", "NAMES",
           "NEVER_WRITE_NAMES", "PROFILE_FILES", "TARGETS", "TRUST_HOOKS", "TargetSpec", "has_part",
           "package", "part", "spec", "title"]

#: the registry: one entry per target package under core/targets/, in display order
BUILTIN: tuple[str, ...] = ("copilot", "codex", "claude", "qwen", "opencode", "gemini")


def _load(name: str) -> TargetSpec:
    s = importlib.import_module(f"{__package__}.{name}").SPEC
    if not isinstance(s, TargetSpec) or s.name != name:
        raise RuntimeError(f"core/targets/{name}: its SPEC must be a TargetSpec named {name!r}")
    return s


if TYPE_CHECKING:  # pragma: no cover
    TARGETS: tuple[TargetSpec, ...]
    NAMES: tuple[str, ...]          # the target names in display order
    BY_NAME: dict[str, TargetSpec]
    #: every target's profile files, as the profile folder names them ("<target>/<file>")
    PROFILE_FILES: tuple[str, ...]
    #: the profile file that holds the `_agentdeck` directives and the MCP switches' disabled list
    DIRECTIVES_FILE: str
    #: the file names any target declares never written (TargetSpec.never_write): the Host's
    #: quick test before it resolves a path
    NEVER_WRITE_NAMES: frozenset[str]

_LAZY = ("TARGETS", "NAMES", "BY_NAME", "PROFILE_FILES", "DIRECTIVES_FILE", "NEVER_WRITE_NAMES")


def __getattr__(attr: str) -> Any:
    """The tables made from the specs (_LAZY), on first use: importing the registry loads no
    target package (the hook handler imports one target's dialect by name,
    core/targets/dialects.py)."""
    if attr not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
    g = globals()
    if "TARGETS" not in g:
        specs = tuple(_load(n) for n in BUILTIN)
        problems = [p for s in specs for p in s.problems(_exists_in(s))]
        if problems:
            raise RuntimeError("the target registry is broken: " + "; ".join(problems))
        g["NAMES"] = tuple(s.name for s in specs)
        g["BY_NAME"] = {s.name: s for s in specs}
        g["PROFILE_FILES"] = tuple(f"{s.name}/{f}" for s in specs for f in s.profile_files)
        g["DIRECTIVES_FILE"] = next((f"{s.name}/{s.directives_file}" for s in specs
                                     if s.directives_file), "")
        g["NEVER_WRITE_NAMES"] = frozenset(f for s in specs for f in s.never_write)
        g["TARGETS"] = specs
    return g[attr]


def _by_name() -> dict[str, TargetSpec]:
    by_name: dict[str, TargetSpec] = globals().get("BY_NAME") or __getattr__("BY_NAME")
    return by_name


def spec(name: str) -> TargetSpec:
    try:
        return _by_name()[name]
    except KeyError:
        raise KeyError(f"unknown target {name!r}; known: {', '.join(BUILTIN)}") from None


def title(name: str) -> str:
    s = _by_name().get(name)
    return s.title if s is not None else name


def package(name: str) -> str:
    """The package of target `name`; a built-in one is core/targets/<name>/, found without
    loading the other targets."""
    return f"{__package__}.{name}" if name in BUILTIN else spec(name).package


def part(name: str, module: str) -> "ModuleType":
    """The module `module` of target `name`'s package (its "facts", "dialect", "doctor", ...)."""
    return importlib.import_module(f"{package(name)}.{module}")


def has_part(name: str, module: str) -> bool:
    """Whether target `name`'s package has the part `module`, as its SPEC declares it (the
    registry checked the declaration against the package when it loaded: `_exists`)."""
    return spec(name).has(module)


def _exists_in(s: TargetSpec) -> "Callable[[str], bool]":
    def exists(part: str) -> bool:
        return _exists(s, part)
    return exists


def _exists(s: TargetSpec, part: str) -> bool:
    """Whether the package of `s` has a module `part` (without importing it)."""
    import importlib.util   # local: the hook handler loads this module on every call and never asks

    if part == "adapter":
        return importlib.util.find_spec(s.adapter_module) is not None
    return importlib.util.find_spec(f"{s.package}.{part}") is not None
