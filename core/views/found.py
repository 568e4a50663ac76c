"""Another tool's install found for a target (core/targets/takeover.py) and what the plan does
with each of its parts: the plan tree's take-over node, onboarding's detect step."""
from __future__ import annotations

from typing import Any

from ..targets.output import FoundInstall, FoundPart
from .info import output

__all__ = ["FoundInstall", "FoundPart", "of"]


def of(plan: Any, target: str) -> tuple[FoundInstall, ...]:
    return output(plan, target).found
