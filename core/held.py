"""Files a plan would remove that something staying on disk still names.

The case: after the operator hand-edits one of agentdeck's Claude hooks (its timeout), uninstall
rightly keeps that hook -- it is theirs now -- and would delete `~/.claude/agentdeck-hook.sh`,
the wrapper it runs: every tool call would then fail. The rule, for every target and scope:

  a program the plan removes (a file agentdeck wrote executable: a hook wrapper) is *held*
  (kept, action none) while an item that stays on disk after this apply (a hand-edit kept, a
  removal skipped, an unchanged item) names it in its value; and such a caller, which apply
  would stop recording, keeps its record, so the next plan still sees what holds the file.

Both follow the decisions: taking the calling hook (`--take ID`: remove it too) releases the
file, and the plan then removes both. `Plan.action` and `Plan.reason_of` ask `holds(plan)`;
the item's JSON form carries `held_by` (docs/plan-format.md).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping

from .disk import MISSING
from .digest import canonical

if TYPE_CHECKING:
    from .plan import Plan, PlanItem


@dataclass
class Holds:
    """The files a plan keeps because something staying on disk names them, and the reverse."""
    held: dict[str, list[str]] = field(default_factory=dict)      # file id -> caller ids
    callers: dict[str, list[str]] = field(default_factory=dict)   # caller id -> file ids


def names_for(plan: "Plan", path: str) -> list[str]:
    """The spellings a registered command may use for `path`: absolute, `~/…`, `$HOME/…`, and
    relative to a repository's root (the committed wrapper is `.github/hooks/…`)."""
    out = [path]
    home = plan.home.rstrip(os.sep)
    if path.startswith(home + os.sep):
        rel = path[len(home) + 1:]
        out += [f"~/{rel}", f"$HOME/{rel}", f"${{HOME}}/{rel}"]
    root = (plan.scope or {}).get("root") if (plan.scope or {}).get("kind") == "repo" else None
    if root and path.startswith(str(root).rstrip(os.sep) + os.sep):
        out.append(path[len(str(root).rstrip(os.sep)) + 1:])
    return out


def _text(item: "PlanItem") -> str:
    v = item.actual
    if v is MISSING or v is None:
        return ""
    return v if isinstance(v, str) else canonical(v)


def _program(item: "PlanItem") -> bool:
    """A file agentdeck wrote executable (a hook wrapper): what a registered hook runs. Only
    these are held (a kept Codex trust entry names hooks.json, which no hook runs)."""
    return item.type.is_program(item.entry)


def compute(plan: "Plan", base: Mapping[str, str]) -> Holds:
    """Which files the plan would remove are still named by what stays (with the decisions
    in force now). `base`: item id -> its action before holding (plan.action_of; the values
    are the plan format's action names, docs/plan-format.md)."""
    out = Holds()
    removed = [it for it in plan.items if base[it.id] == "remove"
               and not it.release and _program(it)]
    if not removed:
        return out
    staying = [it for it in plan.items if base[it.id] in ("none", "record")
               and it.type.may_call and it.actual is not MISSING]
    texts = {it.id: _text(it) for it in staying}
    for f in removed:
        spellings = names_for(plan, f.path)
        for it in staying:
            if it.id != f.id and any(s in texts[it.id] for s in spellings):
                out.held.setdefault(f.id, []).append(it.id)
                out.callers.setdefault(it.id, []).append(f.id)
    _hold_what_held_programs_name(plan, base, out)
    return out


def _hold_what_held_programs_name(plan: "Plan", base: Mapping[str, str], out: Holds) -> None:
    """A held program's own text names files it needs -- a sealed wrapper names its compiled
    policy and that policy's digest (core/seal.py): removed, the kept hook would fail closed
    at every call. Those files are held with it (held by the program); a held file that is a
    program itself is looked into in turn, data files are not (a compiled policy names every
    guarded file, which it only protects)."""
    by_id = {it.id: it for it in plan.items}
    removed = [it for it in plan.items if base[it.id] == "remove" and not it.release]
    queue = list(out.held)
    while queue:
        pid = queue.pop()
        text = _text(by_id[pid])
        if not text:
            continue
        for r in removed:
            if r.id == pid or r.id in out.held:
                continue
            if any(s in text for s in names_for(plan, r.path)):
                out.held.setdefault(r.id, []).append(pid)
                out.callers.setdefault(pid, []).append(r.id)
                if _program(r):
                    queue.append(r.id)


def held_reason(plan: "Plan", item: "PlanItem", callers: list[str]) -> str:
    """Why a held file stays, and how the operator removes it too."""
    by_id = {i.id: i for i in plan.items}
    names = []
    for cid in callers[:3]:
        c = by_id[cid]
        whose = "yours, kept" if c.cls in ("hand-edited", "foreign", "conflict") else (
            "skipped" if plan.decision(c) == "skip" else "staying")
        names.append(f"{c.label or c.id} ({whose})")
    more = f" and {len(callers) - 3} more" if len(callers) > 3 else ""
    one = len(callers) == 1
    takeable = [by_id[c].label or by_id[c].id for c in callers if "take" in by_id[c].choices]
    how = ""
    if takeable:
        how = (f"; to remove {'it' if one else 'them'} too: --take '{takeable[0]}'"
               + ("" if len(takeable) == 1 else " (and each other one)")
               + " removes that hook, and then this file")
    return (f"kept: {', '.join(names)}{more} still call{'s' if one else ''} it and would fail "
            f"without it{how}")


def caller_note(plan: "Plan", files: list[str]) -> str:
    """What is added to a caller's reason: its record stays while it holds a file."""
    shown = ", ".join(_display(plan, f) for f in files)
    return f"it calls {shown}, which agentdeck keeps for it (its record stays)"


def _display(plan: "Plan", path: str) -> str:
    home = plan.home.rstrip(os.sep)
    return "~" + path[len(home):] if path.startswith(home + os.sep) else path
