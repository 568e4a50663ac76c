"""A target's badge in the target list and the review's plan tree: its counts as the plan's
summary line counts them, and whether its hooks can run."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TargetStatus:
    target: str
    changes: int = 0
    hand_edits: int = 0
    conflicts: int = 0
    selected: bool = True
    #: why the installed hooks cannot run (core.hooks_health), "" when they can
    inert: str = ""
    failed: bool = False        # this target could not be planned (plan.errors), the others were
    #: changes this target wants that another target's badge counts (Plan.shared_changes)
    shared: tuple[tuple[str, int], ...] = ()

    @property
    def in_sync(self) -> bool:
        return not (self.changes or self.shared or self.hand_edits or self.conflicts
                    or self.inert)

    def badge(self) -> str:
        if not self.selected:
            return "not selected"
        if self.failed:
            return "plan failed"
        if self.in_sync:
            return "in sync"
        parts = []
        shared = sum(k for _, k in self.shared)     # short: status names whose row counts them
        if self.changes:
            parts.append(f"{self.changes} change{'s' if self.changes != 1 else ''}"
                         + (f" + {shared} shared" if shared else ""))
        elif shared:
            parts.append(f"{shared} shared change{'s' if shared != 1 else ''}")
        if self.hand_edits:
            parts.append(f"{self.hand_edits} hand-edit{'s' if self.hand_edits != 1 else ''}")
        if self.conflicts:
            parts.append(f"{self.conflicts} conflict{'s' if self.conflicts != 1 else ''}")
        if self.inert:
            parts.append("hooks inert")
        return ", ".join(parts)


def of(plan: Any, target: str) -> TargetStatus:
    """Counted the way the plan's summary line counts them: a hand-edit is one the decision
    keeps; one whose profile value the operator takes is a change."""
    from ..hooks_health import state_text

    c = plan.counts(target)     # the plan's one counter (core.plan.tally)
    return TargetStatus(target, selected=target in plan.targets, inert=state_text(plan, target),
                        failed=target in getattr(plan, "errors", {}),
                        changes=c["changes"], hand_edits=c["kept"], conflicts=c["conflict"],
                        shared=tuple(plan.shared_changes(target).items()))
