"""The Activity screen's lines: one per decision the hook handler recorded (core/activity.py),
with the columns shown and what the filters compare; `record` is the whole record, shown as JSON
under the table."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ActivityLine:
    time: str
    target: str                     # the CLI's name ("-" when the record has none)
    event: str
    decision: str
    rule: str
    tool: str
    summary: str
    session: str = ""               # the CLI's session id
    drill: bool = False             # a drill's turn wrote it (core.activity.is_drill)
    record: Any = field(default=None, compare=False)


def line(rec: dict) -> ActivityLine:
    from ..activity import is_drill, row

    r = row(rec)
    return ActivityLine(time=r["time"], target=r["target"], event=r["event"],
                        decision=r["decision"], rule=r["rule"], tool=r["tool"],
                        summary=r["summary"], session=str(rec.get("session_id") or ""),
                        drill=is_drill(rec), record=rec)
