"""Each target's `views` part (core/targets/parts/views.py), and the registry as the app sees it."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..targets import registry
from ..targets.parts.views import TargetViews
from ..targets.spec import BROWSER, TRUST_HOOKS

__all__ = ["TargetViews", "browser_targets", "of", "short", "title", "trust_file",
           "trust_targets"]


@lru_cache(maxsize=None)
def of(name: str) -> TargetViews:
    """Target `name`'s views part, or the shared words (`TargetViews()`) when it has none."""
    if name not in registry.BY_NAME or not registry.has_part(name, "views"):
        return TargetViews()
    views = getattr(registry.part(name, "views"), "VIEWS", None)
    return views if isinstance(views, TargetViews) else TargetViews()


def title(name: str) -> str:
    return registry.title(name)


def short(name: str) -> str:
    s = registry.BY_NAME.get(name)
    return s.short if s is not None else name


def browser_targets() -> tuple[str, ...]:
    """The targets with a browser-for-sign-in setting (the Browser tab), in registry order."""
    return tuple(s.name for s in registry.TARGETS if s.can(BROWSER))


def trust_targets() -> tuple[str, ...]:
    """The targets whose CLI gates hooks on trust, in registry order."""
    return tuple(s.name for s in registry.TARGETS if s.can(TRUST_HOOKS))


def trust_file(name: str, host) -> Path:
    """Where agentdeck writes the trust of its hooks for target `name` (in the CLI's home)."""
    t = of(name).trust
    home = registry.spec(name).home(host)
    return home / t.file if t is not None and t.file else home
