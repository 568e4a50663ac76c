"""The table of doctor checks.

A check is a small function `fn(ctx, out)` registered under a stable id (`<target>.<area>.<what>`,
e.g. `<target>.hooks.timeout-spelling`). The types and the `@check` decorator are the doctor
part's interface (core/targets/parts/doctor.py), so a target package registers its checks
without importing the doctor; this module is the doctor's view of that table.
"""
from __future__ import annotations

from ..targets.parts.doctor import CHECKS, Check, CheckFn, Out, Problem, check, emit, register

__all__ = ["CHECKS", "Check", "CheckFn", "Out", "Problem", "check", "emit", "for_target",
           "register"]


def for_target(target: str) -> list[Check]:
    return [c for c in CHECKS if c.target == target]
