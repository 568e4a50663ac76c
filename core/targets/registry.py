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
    from types import ModuleType

from .spec import MANIFEST_NAME, MCP_SWITCHES, TRUST_HOOKS, TargetSpec

__all__ = ["BUILTIN", "BY_NAME", "DIRECTIVES_FILE", "MANIFEST_NAME", "MCP_SWITCHES", "NAMES",
           "PROFILE_FILES", "TARGETS",
           "TRUST_HOOKS", "TargetSpec", "part", "spec", "title"]

#: the registry: one entry per target package under core/targets/, in display order
BUILTIN: tuple[str, ...] = ("copilot", "codex", "claude")


def _load(name: str) -> TargetSpec:
    s = importlib.import_module(f"{__package__}.{name}").SPEC
    if not isinstance(s, TargetSpec) or s.name != name:
        raise RuntimeError(f"core/targets/{name}: its SPEC must be a TargetSpec named {name!r}")
    return s


TARGETS: tuple[TargetSpec, ...] = tuple(_load(n) for n in BUILTIN)

#: the target names in display order
NAMES: tuple[str, ...] = tuple(s.name for s in TARGETS)
BY_NAME: dict[str, TargetSpec] = {s.name: s for s in TARGETS}


#: every target's profile files, as the profile folder names them ("<target>/<file>")
PROFILE_FILES: tuple[str, ...] = tuple(f"{s.name}/{f}" for s in TARGETS for f in s.profile_files)
#: the profile file that holds the `_agentdeck` directives and the MCP switches' disabled list
DIRECTIVES_FILE: str = next((f"{s.name}/{s.directives_file}" for s in TARGETS
                             if s.directives_file), "")


def spec(name: str) -> TargetSpec:
    try:
        return BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown target {name!r}; known: {', '.join(NAMES)}") from None


def title(name: str) -> str:
    s = BY_NAME.get(name)
    return s.title if s is not None else name


def part(name: str, module: str) -> "ModuleType":
    """The module `module` of target `name`'s package (its "facts", "dialect", "doctor", ...)."""
    return importlib.import_module(f"{spec(name).package}.{module}")


def has_part(name: str, module: str) -> bool:
    """Whether target `name`'s package has a module `module` (without importing it)."""
    import importlib.util
    return importlib.util.find_spec(f"{spec(name).package}.{module}") is not None
