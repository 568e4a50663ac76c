"""The Browser pane's view: which browser opens when an MCP server asks the operator to sign in
(core/targets/copilot/browser.py's resolution, for a target that has the setting)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..targets import registry
from ..targets.output import BrowserCandidate
from ..targets.spec import BROWSER
from .info import output
from . import targets


@dataclass(frozen=True)
class BrowserView:
    wsl: bool = False
    #: the browserCommand directive as written (None: not set)
    browser_command: Any = None
    suppress_launch: bool = False
    candidates: tuple[BrowserCandidate, ...] = ()
    #: what the environment variable will hold (None: nothing is written)
    argv: tuple[str, ...] | None = None
    env_var: str = ""
    source: str = ""                # which directive decided it ("none": neither)
    suppress_sink: str = ""         # where OAuth URLs are parked instead
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    #: the pane's "will write" line when nothing is written (the target's words)
    writes_nothing: str = ""
    not_wsl: str = ""


def of(plan: Any, target: str) -> BrowserView | None:
    """The target's browser resolution, or None when the target has no such setting
    (capability BROWSER) or the plan has none for it (the target could not be planned)."""
    spec = registry.BY_NAME.get(target)
    if spec is None or not spec.can(BROWSER):
        return None
    b = output(plan, target).browser
    if b is None:
        return None
    text = targets.of(target).browser
    return BrowserView(
        wsl=b.wsl, browser_command=b.browser_command, suppress_launch=b.suppress_launch,
        candidates=b.candidates,
        argv=b.argv or None, env_var=next(iter(b.env), ""), source=b.source,
        suppress_sink=b.suppress_sink or "", notes=b.notes, warnings=b.warnings,
        writes_nothing=text.writes_nothing if text is not None else "nothing",
        not_wsl=text.not_wsl if text is not None else "not WSL")


def first(plan: Any) -> BrowserView | None:
    """The first planned target's browser resolution (onboarding's detect step)."""
    for t in getattr(plan, "targets", ()):
        v = of(plan, t)
        if v is not None:
            return v
    return None
