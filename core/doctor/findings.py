"""A doctor finding: one row of RESULT / CHECK / MESSAGE, grouped by target."""
from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum


class Result(StrEnum):
    """A finding's result. str-valued: the JSON form and comparisons with strings are unchanged."""
    OK = "ok"
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"
    SKIPPED = "skipped"


RESULTS = tuple(Result)
SEVERITY = {r: i for i, r in enumerate((Result.OK, Result.SKIPPED, Result.INFO, Result.WARNING,
                                        Result.ERROR))}


@dataclass
class Finding:
    target: str            # "copilot" | "codex" | "claude" | "repo" | "agentdeck"
    result: str            # one of RESULTS
    check: str             # stable check id, e.g. "copilot.hooks.timeout-spelling"
    message: str           # one line; paths shown with the home as ~
    fix: str = ""          # what to do about it
    path: str | None = None
    line: int | None = None
    live: bool = False     # came from asking the installed CLI

    def __post_init__(self) -> None:
        self.result = Result(self.result)

    def to_json(self) -> dict:
        return asdict(self)


def worst(findings: list[Finding]) -> Result:
    if not findings:
        return Result.OK
    return max((f.result for f in findings), key=lambda r: SEVERITY[r])
