"""The Browser pane's view: which browser opens when an MCP server asks the operator to sign in
(core/targets/copilot/browser.py's resolution, for a target that has the setting)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .info import rows, section, strs
from . import targets


@dataclass(frozen=True)
class BrowserCandidate:
    name: str
    path: str
    found: bool


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
    """The target's browser resolution, or None when it has no such setting in this plan."""
    b = section(plan, target, "browser")
    if not b:
        return None
    text = targets.of(target).browser
    argv = b.get("argv")
    env = b.get("env") if isinstance(b.get("env"), dict) else {}
    return BrowserView(
        wsl=bool(b.get("wsl")), browser_command=b.get("browserCommand"),
        suppress_launch=bool(b.get("suppressBrowserLaunch")),
        candidates=tuple(BrowserCandidate(str(c.get("name", "")), str(c.get("path", "")),
                                          bool(c.get("found")))
                         for c in rows(b.get("candidates"))),
        argv=strs(argv) if isinstance(argv, list) and argv else None,
        env_var=str(next(iter(env), "")), source=str(b.get("source") or ""),
        suppress_sink=str(b.get("suppress_sink") or ""),
        notes=strs(b.get("notes")), warnings=strs(b.get("warnings")),
        writes_nothing=text.writes_nothing if text is not None else "nothing",
        not_wsl=text.not_wsl if text is not None else "not WSL")


def first(plan: Any) -> BrowserView | None:
    """The first planned target's browser resolution (onboarding's detect step)."""
    for t in getattr(plan, "targets", ()):
        v = of(plan, t)
        if v is not None:
            return v
    return None
