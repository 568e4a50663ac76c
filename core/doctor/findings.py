"""A doctor finding: one row of RESULT / CHECK / MESSAGE, grouped by target. The type is the
doctor part's interface (core/targets/parts/doctor.py): target packages report with it too."""
from __future__ import annotations

from ..targets.parts.doctor import RESULTS, SEVERITY, Finding, Result, worst

__all__ = ["RESULTS", "SEVERITY", "Finding", "Result", "worst"]
