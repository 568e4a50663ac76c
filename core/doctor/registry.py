"""The table of doctor checks.

A check is a small function `fn(ctx, out)` registered under a stable id (`<target>.<area>.<what>`,
e.g. `copilot.hooks.timeout-spelling`). It reports through `out` (`out.error(...)`,
`out.warning(...)`, `out.info(...)`, `out.ok(...)`, `out.skipped(...)`); a check that reports
nothing gets one `ok` row with its `ok` text, so every check shows in the table (chezmoi's doctor
does the same). Checks with `needs_home` are left out when the target's home does not exist (one
`<target>.home` row says so instead).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .findings import Finding

CheckFn = Callable[["object", "Out"], None]


@dataclass(frozen=True)
class Check:
    id: str
    target: str
    fn: CheckFn
    ok: str                      # the message when the check finds nothing
    needs_home: bool = True


CHECKS: list[Check] = []


def register(check_id: str, target: str, fn: CheckFn, ok: str, *, needs_home: bool = True) -> Check:
    if any(c.id == check_id for c in CHECKS):
        raise ValueError(f"duplicate doctor check id {check_id}")
    c = Check(check_id, target, fn, ok, needs_home)
    CHECKS.append(c)
    return c


def check(check_id: str, ok: str, *, needs_home: bool = True):
    """Decorator: `@check("copilot.settings.parse", ok="settings.json parses")`; the target is
    the id's first part."""
    def deco(fn: CheckFn) -> CheckFn:
        register(check_id, check_id.split(".", 1)[0], fn, ok, needs_home=needs_home)
        return fn
    return deco


def for_target(target: str) -> list[Check]:
    return [c for c in CHECKS if c.target == target]


@dataclass
class Out:
    """Collects one check's findings; paths are shown with the home as `~`."""
    ctx: object
    check: Check
    live: bool = False
    findings: list[Finding] = field(default_factory=list)

    def add(self, result: str, message: str, fix: str = "", path: Path | str | None = None,
            line: int | None = None) -> Finding:
        f = Finding(target=self.check.target, result=result, check=self.check.id,
                    message=" ".join(str(message).split()), fix=" ".join(str(fix).split()),
                    path=self.ctx.show(path) if path is not None else None,
                    line=line, live=self.live)
        self.findings.append(f)
        return f

    def error(self, message: str, fix: str = "", path=None, line=None) -> Finding:
        return self.add("error", message, fix, path, line)

    def warning(self, message: str, fix: str = "", path=None, line=None) -> Finding:
        return self.add("warning", message, fix, path, line)

    def info(self, message: str, fix: str = "", path=None, line=None) -> Finding:
        return self.add("info", message, fix, path, line)

    def ok(self, message: str, path=None, line=None) -> Finding:
        return self.add("ok", message, "", path, line)

    def skipped(self, message: str, fix: str = "", path=None) -> Finding:
        return self.add("skipped", message, fix, path)


@dataclass
class Problem:
    """One problem a target's file model found, before it becomes a finding of a check."""
    check: str                    # check id suffix, e.g. "hooks.events"
    result: str
    message: str
    fix: str
    path: Path
    line: int | None = None


def emit(out: "Out", problems: list[Problem]) -> None:
    for p in problems:
        out.add(p.result, p.message, p.fix, p.path, p.line)
