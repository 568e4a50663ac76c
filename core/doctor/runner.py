"""Run the registered checks (and, with live, the probes; with drill, the drill too) and return the findings in table order:
by target, then by area (version, plan, manifest, settings, hooks, tools, MCP, env, persona,
skills, secrets, live)."""
from __future__ import annotations

import traceback
from typing import Callable

from ..host import Host
from ..targets import registry
from .context import TARGETS, Ctx
from .findings import Finding
from .registry import Check, Out, for_target

AREAS = ("home", "version", "plan", "manifest", "settings", "config", "hooks", "tools", "mcp",
         "env", "persona", "skills", "secrets", "live")


def _load_checks() -> None:
    """Register every check: those every target has, then each target's own (its doctor part,
    core/targets/<name>/doctor.py), in the registry's order."""
    from . import common_checks  # noqa: F401
    for t in TARGETS:
        if registry.has_part(t, "doctor"):
            registry.part(t, "doctor")


def _area(check: Check) -> int:
    parts = check.id.split(".")
    area = parts[1] if len(parts) > 1 else ""
    return AREAS.index(area) if area in AREAS else len(AREAS)


def ordered_checks(target: str) -> list[Check]:
    _load_checks()
    checks = for_target(target)
    return sorted(checks, key=_area)           # stable: registration order within an area


def run_check(ctx: Ctx, chk: Check) -> list[Finding]:
    out = Out(ctx, chk)
    try:
        chk.fn(ctx, out)
    except Exception as e:  # a bug in one check must not hide the others
        tb = traceback.extract_tb(e.__traceback__)[-1]
        out.findings = []
        out.error(f"the check itself failed: {e.__class__.__name__}: {e} "
                  f"({tb.filename.rsplit('/', 1)[-1]}:{tb.lineno})",
                  fix="this is a bug in agentdeck; please report it with this line")
    if not out.findings:
        out.ok(chk.ok or "ok")
    return out.findings


def normalize_targets(targets: list[str] | None) -> list[str]:
    if not targets:
        return list(TARGETS)
    out: list[str] = []
    for t in targets:
        for part in str(t).split(","):
            part = part.strip()
            if not part:
                continue
            if part not in TARGETS:
                from ..errors import UserError
                raise UserError(f"unknown target {part!r} (known: {', '.join(TARGETS)})")
            if part not in out:
                out.append(part)
    return out


def run(host: Host, profile: str = "default", targets: list[str] | None = None,
        live: bool = False, progress: Callable[[str], None] | None = None,
        drill: bool = False) -> list[Finding]:
    """The findings for `targets` in table order. `live`: also ask each installed CLI what it
    loaded (core/doctor/live.py). `drill` (implies `live`): also the drill, one real offline
    turn of each CLI (`agentdeck drill`; `<target>.live.drill` rows), run beside the probes."""
    return run_with_context(host, profile, targets, live, progress, drill)[0]


def run_with_context(host: Host, profile: str = "default", targets: list[str] | None = None,
                     live: bool = False, progress: Callable[[str], None] | None = None,
                     drill: bool = False) -> tuple[list[Finding], Ctx]:
    """run()'s findings and the run's context (its plans and CLI versions, which the verdicts
    read: core/doctor/verdict.py)."""
    live = live or drill
    chosen = normalize_targets(targets)
    ctx = Ctx(host=host, profile=profile or "default", targets=chosen, live=live,
              progress=progress)
    findings: list[Finding] = []
    live_done = None
    drill_done = None
    if live:   # the CLIs start up while the static checks read files
        from . import live as live_mod
        live_done = live_mod.start(ctx, chosen)
    if drill:  # the drill (a real offline turn of each CLI: do the hooks run?) runs alongside
        from concurrent.futures import ThreadPoolExecutor

        from ..drill.findings import run_findings
        pool = ThreadPoolExecutor(max_workers=1)
        drill_done = pool.submit(run_findings, host, ctx.profile,
                                 [t for t in chosen if t != "agentdeck"])
        pool.shutdown(wait=False)
    for t in chosen:
        ctx.say(f"{t}: reading its files")
        home = ctx.target_home(t)
        home_exists = host.is_dir(home)
        if not home_exists:
            findings.append(Finding(t, "info", f"{t}.home",
                                    f"{host.display(home)} does not exist: {t} has no user "
                                    "configuration here yet (nothing to check in it)",
                                    path=host.display(home)))
        for chk in ordered_checks(t):
            if chk.needs_home and not home_exists:
                continue
            findings.extend(run_check(ctx, chk))
    from .org_checks import findings as org_findings     # rows only where an org layer is
    findings.extend(org_findings(ctx))
    if live_done is not None:
        findings.extend(live_done())
        from .org_checks import live_findings       # does each CLI see the org layer?
        findings.extend(live_findings(ctx))
    if drill_done is not None:
        ctx.say("drill: one real offline turn of each CLI")
        findings.extend(drill_done.result())
    order = {t: i for i, t in enumerate(chosen)}
    findings.sort(key=lambda f: order.get(f.target, len(order)))   # stable within a target
    return findings, ctx
