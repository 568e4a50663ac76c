"""Whether a plan may say "in sync": the inert reasons a plan carries, read.

`core.hooks_health.annotate` finds, once per plan, why agentdeck's registered hooks cannot run
in a target and stores them in the target's output, `plan.output[target].hooks_inert` (a tuple
of `Inert`, declared in core/targets/output.py). This module only reads them: the plan's
summary, `status`, apply's last word and the app's badges ask `inert(plan, target)`. It sits with the engine (plan.py and apply.py use it)
and imports nothing above it.
"""
from __future__ import annotations

from .targets.output import Inert

__all__ = ["Inert", "inert", "state_text", "summary_text"]


def inert(plan, target: str, now: bool = False) -> list[Inert]:
    """The reasons annotate() found for `target` (empty: every registered hook can run, or
    nothing is registered): as the home is after this plan (a reason the plan fixes is left
    out), or `now`, as it is before it (what `status` says)."""
    got = getattr(plan, "output", {}).get(target)
    out = list(got.hooks_inert or ()) if got is not None else []
    if now:
        return out
    return [i for i in out if not (i.unless and all(_written(plan, u) for u in i.unless))]


def _written(plan, item_id: str) -> bool:
    for it in getattr(plan, "items", ()):
        if it.id == item_id:
            return plan.action(it) == "write"
    return False


def state_text(plan, target: str, now: bool = False) -> str:
    """"installed, hooks inert: <reason>; <reason>" (empty when the hooks can run)."""
    why = inert(plan, target, now)
    if not why:
        return ""
    return "installed, hooks inert: " + "; ".join(i.line() for i in why)


def summary_text(plan) -> str:
    """One sentence for a plan summary naming every inert target (empty when none)."""
    parts = [f"{t}: " + "; ".join(i.reason for i in inert(plan, t)) for t in plan.targets
             if inert(plan, t)]
    return ("Installed, hooks inert: " + " | ".join(parts) + ".") if parts else ""
