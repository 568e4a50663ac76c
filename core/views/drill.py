"""The doctor screen's drill table: the receipts of `agentdeck drill` (core/drill/report.py) as
rows -- one per registered event, one for the canary's deny, one per rule of the profile, one
per other problem."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable
from ..wording import count_of

_RULE_PROBLEM = ("the deny of rule ",)      # core.drill.report's problems about a rule


@dataclass(frozen=True)
class DrillRow:
    target: str
    mark: str                       # ✓ ✗ or -
    event: str
    fired: str
    latency: str
    note: str

    def cells(self) -> tuple[str, str, str, str, str, str]:
        return (self.target, self.mark, self.event, self.fired, self.latency, self.note)


def rows(rep: Any, show: Callable[[str], str] = str) -> list[DrillRow]:
    """`show`: how a path-bearing text is displayed (the home as ~)."""
    out = []
    for t in rep.targets.values():
        if t.status == "skipped":             # no turn was started (core.drill.ready)
            out.append(DrillRow(t.target, "-", "(skipped)", "", "", t.problems[0]))
            continue
        if t.seconds is None and t.problems and not t.events:     # failed before a turn
            out.append(DrillRow(t.target, "✗", "(no turn)", "", "", show(t.problems[0])))
            continue
        for e in t.events:
            lat = "" if e.latency_ms is None else (
                f"{e.latency_ms} ms / {e.timeout_s:g} s" if isinstance(e.timeout_s, (int, float))
                else f"{e.latency_ms} ms")
            out.append(DrillRow(t.target, "✓" if e.ok else "✗", e.event, str(e.fired), lat,
                                show(e.note)))
        d = t.deny or {}
        canary = [p for p in t.problems if "deny" in p and not p.startswith(_RULE_PROBLEM)]
        out.append(DrillRow(t.target, "✓" if d.get("held") else "✗", "deny (canary)",
                            "denied" if d.get("denied_by_handler") else "-", "",
                            "held: the canary's file is absent" if d.get("held") else
                            "; ".join(canary) or "not held"))
        for r in t.rules:                     # the profile's rules tried in the turn
            mark = {"held": "✓", "not held": "✗"}.get(r.get("status"), "-")
            forms = r.get("forms") or []
            note = ("held: " + ", ".join(f["label"] for f in forms) + " denied by it"
                    if r.get("status") == "held" else f"{r.get('status')}: {r.get('why')}")
            out.append(DrillRow(t.target, mark, f"rule {r.get('id')}",
                                f"{count_of(len(forms), 'form')}" if forms else "", "", note))
        for p in t.problems:
            if not any(p.startswith(f"{e.event}: ") for e in t.events) and "deny" not in p:
                out.append(DrillRow(t.target, "✗", "", "", "", show(p)))
    return out
