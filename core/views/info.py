"""Reading a target's adapter output for the views built from it: the typed facts
(`plan.output[target]`, core/targets/output.py), and helpers for a feature's plain data (the
policy's describe())."""
from __future__ import annotations

from typing import Any

from ..targets.output import TargetOutput


def output(plan: Any, target: str) -> TargetOutput:
    """The target's adapter output in `plan` (an empty one when the plan has none for it: the
    target could not be planned)."""
    got = getattr(plan, "output", {}).get(target)
    return got if isinstance(got, TargetOutput) else TargetOutput()


def rows(value: Any) -> list[dict]:
    """A list of dicts (anything else is left out)."""
    return [r for r in value if isinstance(r, dict)] if isinstance(value, list) else []


def mapping(value: Any) -> dict:
    """`value` when it is a dict, else {}."""
    return value if isinstance(value, dict) else {}


def strs(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, (list, tuple)) else ()
