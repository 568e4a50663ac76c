"""Receipts: the audit lines agentdeck's hook handler wrote during a drill, told apart from real
sessions by the drill's id (the handler copies $AGENTDECK_DRILL_ID into `drill_id`, with its wall
time in `handler_ms` and `decision: "deny"` for the canary; core/hookhandler.py drill_tag).

`parse(lines, drill_id)` keeps the drill's records; `tally(records)` counts each canonical event,
finds the ones that fired more than once for the same occurrence (the same event for the same
tool command), the slowest handler call per event, and the deny.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

CANARY = "agentdeck-drill-canary"


def parse(data: bytes, drill_id: str) -> list[dict]:
    """The records of this drill, in order; lines that are not JSON objects are skipped."""
    out = []
    for line in data.splitlines():
        line = line.strip()
        if not line or drill_id.encode() not in line:
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and rec.get("drill_id") == drill_id:
            out.append(rec)
    return out


def command_of(rec: dict) -> str | None:
    """The shell command a record's tool call carried (Copilot `command`, Codex `cmd`)."""
    for tool in rec.get("tools") or []:
        args = tool.get("args") if isinstance(tool, dict) else None
        if isinstance(args, dict):
            for k in ("command", "cmd"):
                if isinstance(args.get(k), str):
                    return args[k]
                if isinstance(args.get(k), list):      # an argv
                    return " ".join(str(a) for a in args[k])
    return None


@dataclass
class EventTally:
    event: str                     # canonical (core.hookhandler.EVENTS)
    fired: int = 0
    raw: set[str] = field(default_factory=set)        # the spellings it arrived as
    latency_ms: int | None = None                     # the slowest call
    #: occurrences (tool command, or None) seen more than once
    repeats: dict[str | None, int] = field(default_factory=dict)


@dataclass
class Tally:
    events: dict[str, EventTally] = field(default_factory=dict)
    denied: list[dict] = field(default_factory=list)  # records with decision deny
    records: int = 0

    def fired(self, canonical: str) -> int:
        t = self.events.get(canonical)
        return t.fired if t else 0


def tally(records: list[dict], per_request: tuple[str, ...] = ()) -> Tally:
    out = Tally(records=len(records))
    seen: dict[tuple[str, str | None], int] = {}
    for rec in records:
        ev = str(rec.get("event") or "unknown")
        t = out.events.setdefault(ev, EventTally(ev))
        t.fired += 1
        if isinstance(rec.get("raw_event"), str):
            t.raw.add(rec["raw_event"])
        ms = rec.get("handler_ms")
        if isinstance(ms, (int, float)):
            t.latency_ms = int(ms) if t.latency_ms is None else max(t.latency_ms, int(ms))
        if rec.get("decision") == "deny":
            out.denied.append(rec)
        key = (ev, command_of(rec))
        seen[key] = seen.get(key, 0) + 1
    for (ev, cmd), n in seen.items():
        if n > 1 and ev not in per_request:
            out.events[ev].repeats[cmd] = n
    return out
