"""The `doctor` part: a target's static checks, `core/targets/<name>/doctor.py`.

Importing a target's doctor part registers its checks (`@check("<target>.<area>.<what>",
ok=...)`); the doctor (core/doctor/runner.py) imports the part of every selected target, runs
each check `fn(ctx, out)` and orders the rows by area. A check reports through `out`
(`out.error(...)`, `out.warning(...)`, `out.info(...)`, `out.ok(...)`, `out.skipped(...)`); one
that reports nothing gets one `ok` row with its `ok` text, so every check shows in the table.
Checks with `needs_home` are left out when the target's home does not exist (one
`<target>.home` row says so instead).

What a check is handed, `ctx`, is the doctor's run (core/doctor/context.py): `Context` below
is what a check may use of it. The types a check reports with (Finding, Out, Problem) live here,
below the targets, so a target package never imports the doctor.

A target's doctor part may also declare:
  SHARES_AGENTS_SKILLS   True when the CLI loads the shared ~/.agents/skills (reported once,
                         under the first selected target that loads it:
                         core/targets/checks/files.py)
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

if TYPE_CHECKING:  # pragma: no cover
    from ...disk import DiskView, Loaded
    from ...host import Host


# ---- a finding: one row of RESULT / CHECK / MESSAGE ------------------------------------------

class Result(StrEnum):
    """A finding's result. str-valued: the JSON form and comparisons with strings are unchanged."""
    OK = "ok"
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"
    SKIPPED = "skipped"


RESULTS = tuple(Result)
#: keyed by the str values too (a Result is a str): findings read from JSON compare the same
SEVERITY: dict[str, int] = {r: i for i, r in enumerate((Result.OK, Result.SKIPPED, Result.INFO, Result.WARNING,
                                        Result.ERROR))}


@dataclass
class Finding:
    target: str            # a target's name, "repo" or "agentdeck"
    result: str            # one of RESULTS
    check: str             # stable check id, e.g. "<target>.hooks.timeout-spelling"
    message: str           # one line; paths shown with the home as ~
    fix: str = ""          # what to do about it
    path: str | None = None
    line: int | None = None
    live: bool = False     # came from asking the installed CLI

    def __post_init__(self) -> None:
        self.result = Result(self.result)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def worst(findings: list[Finding]) -> Result:
    if not findings:
        return Result.OK
    return max((Result(f.result) for f in findings), key=SEVERITY.__getitem__)


# ---- what a check is handed --------------------------------------------------------------------

class Context(Protocol):
    """What a check may use of the doctor's run (core/doctor/context.py Ctx)."""
    host: "Host"
    profile: str
    targets: list[str]           # the selected targets, in table order
    live: bool
    view: "DiskView"
    memo: dict[str, Any]         # checks leave data for later checks and the live comparison

    def show(self, path: Any) -> str | None: ...
    def read(self, path: Path) -> "Loaded": ...
    def json(self, path: Path, *, jsonc: bool = True) -> "Loaded": ...
    def toml(self, path: Path) -> "Loaded": ...
    def plan(self, target: str) -> tuple[Any, Exception | None]: ...
    def target_home(self, target: str) -> Path: ...
    def canonical_event(self, name: str) -> str: ...
    def say(self, msg: str) -> None: ...


CheckFn = Callable[[Any, "Out"], None]


@dataclass(frozen=True)
class Check:
    id: str
    target: str
    fn: CheckFn
    ok: str                      # the message when the check finds nothing
    needs_home: bool = True


#: every registered check, in registration order (the doctor keeps that order within an area)
CHECKS: list[Check] = []


def register(check_id: str, target: str, fn: CheckFn, ok: str, *, needs_home: bool = True) -> Check:
    if any(c.id == check_id for c in CHECKS):
        raise ValueError(f"duplicate doctor check id {check_id}")
    c = Check(check_id, target, fn, ok, needs_home)
    CHECKS.append(c)
    return c


def check(check_id: str, ok: str, *, needs_home: bool = True) -> Callable[[CheckFn], CheckFn]:
    """Decorator: `@check("<target>.settings.parse", ok="settings.json parses")`; the target is
    the id's first part."""
    def deco(fn: CheckFn) -> CheckFn:
        register(check_id, check_id.split(".", 1)[0], fn, ok, needs_home=needs_home)
        return fn
    return deco


@dataclass
class Out:
    """Collects one check's findings; paths are shown with the home as `~`."""
    ctx: Any
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

    def error(self, message: str, fix: str = "", path: Path | str | None = None,
              line: int | None = None) -> Finding:
        return self.add("error", message, fix, path, line)

    def warning(self, message: str, fix: str = "", path: Path | str | None = None,
                line: int | None = None) -> Finding:
        return self.add("warning", message, fix, path, line)

    def info(self, message: str, fix: str = "", path: Path | str | None = None,
             line: int | None = None) -> Finding:
        return self.add("info", message, fix, path, line)

    def ok(self, message: str, path: Path | str | None = None, line: int | None = None) -> Finding:
        return self.add("ok", message, "", path, line)

    def skipped(self, message: str, fix: str = "", path: Path | str | None = None) -> Finding:
        return self.add("skipped", message, fix, path)


def live_out(ctx: Any, check_id: str) -> Out:
    """An Out for a live check (one that is not registered: the probes part names its ids)."""
    return Out(ctx, Check(check_id, check_id.split(".", 1)[0], lambda c, o: None, ""), live=True)


@dataclass
class Problem:
    """One problem a target's file model found, before it becomes a finding of a check."""
    check: str                    # check id suffix, e.g. "hooks.events"
    result: str
    message: str
    fix: str
    path: Path
    line: int | None = None


def emit(out: Out, problems: list[Problem]) -> None:
    for p in problems:
        out.add(p.result, p.message, p.fix, p.path, p.line)
