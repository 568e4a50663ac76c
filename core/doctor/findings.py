"""A doctor finding: one row of RESULT / CHECK / MESSAGE, grouped by target."""
from __future__ import annotations

from dataclasses import asdict, dataclass

RESULTS = ("ok", "info", "warning", "error", "skipped")
SEVERITY = {r: i for i, r in enumerate(("ok", "skipped", "info", "warning", "error"))}


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

    def to_json(self) -> dict:
        return asdict(self)


def worst(findings: list[Finding]) -> str:
    if not findings:
        return "ok"
    return max((f.result for f in findings), key=lambda r: SEVERITY[r])
