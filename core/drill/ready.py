"""Whether a drilled turn of a target can prove anything, decided before any turn starts.

A real turn costs seconds per CLI; it is started only for a target whose CLI is found and where
agentdeck's hooks are registered on disk as the profile has them (at least one event
`registered_now` in the target's plan). Every other target is reported at once, in one line,
as skipped (not ok), with why:

    cli-missing           the CLI's binary is not on PATH
    no-hooks              the profile registers no hook for this target: nothing to prove
    not-installed         agentdeck has not installed this target (no manifest of ours)
    hooks-not-registered  a manifest of ours exists, but none of our hooks is on disk as planned
    not-supported         the target's package has no drill part (core/targets/parts/drill.py)

A plan that cannot be computed (a broken file) is `failed`, with its one-line message. Hooks that
are registered but inert (handler missing, Codex trust, disableAllHooks) still get their turn:
the receipts then show what did not run and whether the deny held (core.drill.report).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..errors import UserError
from ..host import Host
from ..targets.output import hooks_of
from . import report, runners

CLI_MISSING = "cli-missing"
NO_HOOKS = "no-hooks"
NOT_INSTALLED = "not-installed"
HOOKS_NOT_REGISTERED = "hooks-not-registered"
NOT_SUPPORTED = "not-supported"


@dataclass
class Ready:
    """A target worth a turn: its CLI, its version and the plan that says what is registered."""
    target: str
    exe: str
    version: str | None
    plan: object


def _apply_hint(target: str) -> str:
    return f"`agentdeck apply --target {target}`"     # it trusts agentdeck's own Codex hooks


def check(host: Host, profile: str, target: str) -> Ready | report.TargetReport:
    """Ready, or the report of a target no turn is started for (reads only, starts no process)."""
    from .. import engine

    r = runners.runner(target)
    if r is None:
        return report.skipped(target, runners.why_not_supported(target), NOT_SUPPORTED)
    installed, version = engine.cli_version(host, target)
    exe = host.which(r.binary)
    if not installed or exe is None:
        return report.skipped(target, f"{r.binary} is not installed (not found on PATH)",
                              CLI_MISSING, version=version)
    try:
        plan = engine.build_plan(host, profile, [target])
    except UserError as e:
        return report.failed(target, f"cannot plan {target}: {e}")
    hooks = hooks_of(plan.output, target)
    events = hooks.events if hooks is not None else ()
    if any(e.registered_now for e in events):
        return Ready(target, exe, version, plan)
    if not events:
        return report.skipped(target, f"the profile {profile!r} registers no hook for {target}: "
                                      "nothing to drill", NO_HOOKS, version=version)
    manifest = (getattr(plan, "manifests", None) or {}).get(target)
    if manifest is None or manifest.raw_sha is None:
        where = f" (no {host.display(manifest.path)})" if manifest is not None else ""
        return report.skipped(target, f"agentdeck is not installed for {target}{where}: run "
                                      f"{_apply_hint(target)} first", NOT_INSTALLED,
                              version=version)
    from ..hooks_health import inert
    kept = [i for i in inert(plan, target, now=True) if i.code == "not-registered"]
    if kept:         # another tool's hooks file kept in agentdeck's place (a take-over)
        return report.skipped(target, f"{kept[0].reason}: {target} runs none of agentdeck's "
                                      f"hooks; fix: {kept[0].fix}", HOOKS_NOT_REGISTERED,
                              version=version)
    return report.skipped(target, f"agentdeck's hooks are not installed for {target} (none of "
                                  "them is on disk as the profile has it): see `agentdeck plan "
                                  f"--target {target}`, then {_apply_hint(target)}",
                          HOOKS_NOT_REGISTERED, version=version)
