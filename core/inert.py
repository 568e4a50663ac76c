"""Whether a plan may say "in sync": the inert reasons a plan carries, read.

`core.hooks_health.annotate` finds, once per plan, why agentdeck's registered hooks cannot run
in a target and stores them as plain data in plan.info[target]["hooks_inert"] (so the JSON plan
carries them). This module only reads them: the plan's summary, `status`, apply's last word and
the app's badges ask `inert(plan, target)`. It sits with the engine (plan.py and apply.py use it)
and imports nothing above it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["INFO_KEY", "Inert", "inert", "state_text", "summary_text"]

INFO_KEY = "hooks_inert"


@dataclass
class Inert:
    """One reason the installed hooks of a target cannot run."""
    code: str          # handler-missing | wrapper-missing | disable-all | not-registered | the
                       # target's own (its health part: disabled-hooks, <cli>-untrusted, ...)
    reason: str        # what is wrong, for people ("the handler ... is not found")
    fix: str           # what to do about it
    events: list[str]  # the registered events it concerns (all of ours: every one)
    #: the plan items that fix it when the plan writes them all (the wrapper, agentdeck's hooks
    #: file, the trust items): after this plan (inert(plan, t)) the reason holds only while the
    #: plan's decisions do not write them; now (inert(plan, t, now=True), `status`) it holds
    unless: list[str] = field(default_factory=list)

    def line(self) -> str:
        return f"{self.reason} (fix: {self.fix})"


def inert(plan, target: str, now: bool = False) -> list[Inert]:
    """The reasons annotate() found for `target` (empty: every registered hook can run, or
    nothing is registered): as the home is after this plan (a reason the plan fixes is left
    out), or `now`, as it is before it (what `status` says)."""
    info = plan.info.get(target) if isinstance(getattr(plan, "info", None), dict) else None
    rows = info.get(INFO_KEY) if isinstance(info, dict) else None
    out = [Inert(**r) for r in rows] if isinstance(rows, list) else []
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
