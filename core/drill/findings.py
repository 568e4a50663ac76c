"""The drill as doctor findings (`agentdeck doctor --live`, the app's doctor screen): one
`<target>.live.drill` row per CLI."""
from __future__ import annotations

from ..doctor.findings import Finding
from ..host import Host
from .ready import HOOKS_NOT_REGISTERED, NO_HOOKS, NOT_INSTALLED
from .report import DrillReport, TargetReport
from ..wording import noun_for


def target_finding(r: TargetReport) -> Finding:
    check = f"{r.target}.live.drill"
    if r.status == "skipped" and r.skip in (NOT_INSTALLED, HOOKS_NOT_REGISTERED, NO_HOOKS):
        # the CLI is here, agentdeck's hooks are not: nothing to prove yet (no turn was run)
        return Finding(r.target, "info", check, f"drill: {r.problems[0]}; nothing to prove yet",
                       live=True)
    if r.status == "skipped":
        return Finding(r.target, "skipped", check, f"drill: {r.problems[0]}", live=True)
    if r.ok:
        fired = sum(1 for e in r.events if e.fired)
        slow = max((e.latency_ms for e in r.events if e.latency_ms is not None), default=None)
        held = [x["id"] for x in r.rules if x.get("status") == "held"]
        rules = (f"; the profile's {noun_for(len(held), 'rule')} {', '.join(held)} held against their example and a "
                 "rewritten form" if held else "")
        return Finding(r.target, "ok", check,
                       f"drill: a real offline turn fired {fired} of agentdeck's "
                       f"{len(r.events)} registered events (the rest are not reachable from a "
                       f"one-tool turn), the handler answered within {slow} ms, and the canary's "
                       f"deny held{rules}", live=True)
    inert = [p for p in r.problems if p.startswith("hooks inert: ")]
    # what the inert reasons already explain: the events that did not fire, the deny that
    # could not hold because no hook ran
    other = [p for p in r.problems if not p.startswith("hooks inert: ")
             and not any(p.startswith(f"{e.event}: hooks inert") for e in r.events)
             and not (inert and p.startswith("the deny"))]
    # hooks that do not run for a reason the static checks already name: a warning; anything
    # else the turn showed (an event that did not fire, a double, a deny that failed): an error
    if inert and not other:
        return Finding(r.target, "warning", check,
                       "drill: a real offline turn ran none of the hooks this stops: "
                       + "; ".join(p[len("hooks inert: "):] for p in inert), live=True)
    msg = "; ".join(other[:4]) + (f" (+{len(other) - 4} more)" if len(other) > 4 else "")
    return Finding(r.target, "error", check, f"drill: {msg}",
                   fix=f"`agentdeck drill --target {r.target}` shows each event", live=True)


def findings(rep: DrillReport) -> list[Finding]:
    return [target_finding(r) for r in rep.targets.values()]


def run_findings(host: Host, profile: str, targets: list[str]) -> list[Finding]:
    from .run import drill
    return findings(drill(host, profile, targets))
