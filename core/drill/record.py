"""The drill's record on this machine: per CLI and per CLI version, what the last drill of that
version showed (when, whether it held, which of the profile's rules held, which evasion classes
held when the matrix ran). Kept in agentdeck's state dir (`drills.json`), written by the drill
itself (`agentdeck drill`, `doctor --drill`), read by the doctor's verdicts and the upgrade notice
(core/upgrade.py): "copilot 1.0.105 installed; last drilled on 1.0.102".

The file is agentdeck's own state, not configuration: it is not in any plan. A record that cannot
be read (missing, not a regular file, not JSON, not the shape below) is "no record": the words
then say "not drilled here", never a traceback, and the next drill writes a good one.

    {"format": 1,
     "targets": {"copilot": {"last": "1.0.102",
                             "versions": {"1.0.102": {"when": 1796000000, "ok": true,
                                                      "status": "ok", "problems": [],
                                                      "rules": {"ssh-private-keys": "held"},
                                                      "classes": {}}}}}}
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..host import Host, HostError

if TYPE_CHECKING:  # pragma: no cover
    from .report import DrillReport

FILE = "drills.json"
LIMIT = 1024 * 1024
#: the statuses a rule or an evasion class can have in a record (the matrix's words)
STATUSES = ("held", "held by the CLI", "asked", "not held", "not tried", "over-blocked",
            "not seen")


@dataclass
class Entry:
    """One CLI version's last drill here."""
    target: str
    version: str
    when: float                   # seconds since the epoch
    ok: bool
    status: str                   # ok | failed
    problems: list[str] = field(default_factory=list)
    rules: dict[str, str] = field(default_factory=dict)      # rule id -> one of STATUSES
    classes: dict[str, str] = field(default_factory=dict)    # evasion class -> one of STATUSES

    def to_json(self) -> dict[str, Any]:
        return {"when": int(self.when), "ok": self.ok, "status": self.status,
                "problems": self.problems[:8], "rules": self.rules, "classes": self.classes}


def path(host: Host) -> Path:
    return host.state_dir / FILE


def load(host: Host) -> dict[str, dict[str, Entry]]:
    """target -> version -> Entry; {} when there is no readable record."""
    try:
        raw = host.read_bytes(path(host), limit=LIMIT)
    except HostError:
        return {}
    if raw is None:
        return {}
    try:
        doc = json.loads(raw)
    except ValueError:
        return {}
    out: dict[str, dict[str, Entry]] = {}
    targets = doc.get("targets") if isinstance(doc, dict) else None
    if not isinstance(targets, dict):
        return {}
    for t, rec in targets.items():
        versions = rec.get("versions") if isinstance(rec, dict) else None
        if not isinstance(t, str) or not isinstance(versions, dict):
            continue
        for v, e in versions.items():
            entry = _entry(t, v, e)
            if entry is not None:
                out.setdefault(t, {})[v] = entry
    return out


def _entry(target: str, version: object, e: object) -> Entry | None:
    if not isinstance(version, str) or not isinstance(e, dict):
        return None
    when, ok, status = e.get("when"), e.get("ok"), e.get("status")
    if not isinstance(when, (int, float)) or isinstance(when, bool) or not isinstance(ok, bool) \
            or not isinstance(status, str):
        return None

    def statuses(key: str) -> dict[str, str]:
        d = e.get(key)
        if not isinstance(d, dict):
            return {}
        return {str(k): v for k, v in d.items() if isinstance(v, str) and v in STATUSES}

    problems = [p for p in e.get("problems") or [] if isinstance(p, str)] \
        if isinstance(e.get("problems"), list) else []
    return Entry(target, version, float(when), ok, status, problems, statuses("rules"),
                 statuses("classes"))


def latest(host: Host, target: str, *, ok_only: bool = False,
           records: dict[str, dict[str, Entry]] | None = None) -> Entry | None:
    """The most recent drill of `target` on this machine (of any version), or the most recent
    one that held (`ok_only`)."""
    recs = load(host) if records is None else records
    rows = [e for e in recs.get(target, {}).values() if e.ok or not ok_only]
    return max(rows, key=lambda e: e.when, default=None)


def entries_of(rep: "DrillReport", now: float | None = None) -> list[Entry]:
    """The entries a drill's report gives: one per CLI that had a turn and whose version is
    known (a CLI skipped before its turn proves nothing about its version)."""
    when = time.time() if now is None else now
    out = []
    for t in rep.targets.values():
        if t.seconds is None or not t.version or t.status == "skipped":
            continue
        rules = {str(r.get("id")): str(r.get("status")) for r in t.rules
                 if r.get("status") in STATUSES}
        out.append(Entry(t.target, t.version, when, t.ok, t.status, list(t.problems), rules))
    return out


def save(host: Host, entries: list[Entry]) -> None:
    """Add `entries` to the record (each replaces the one of its CLI version). A record that
    cannot be written leaves the drill's own result as it was: the caller's report is the
    result; this file only remembers it."""
    if not entries:
        return
    recs = load(host)
    for e in entries:
        old = recs.get(e.target, {}).get(e.version)
        if old is not None and not e.classes:
            e.classes = old.classes        # a plain drill keeps the matrix's last classes
        elif old is not None and e.classes and not e.rules:
            # a matrix run adds its classes to the plain drill's entry of that version, whose
            # verdict (when, ok, rules) stays the drill's
            old.classes = e.classes
            e = old
        recs.setdefault(e.target, {})[e.version] = e
    doc: dict[str, Any] = {"format": 1, "targets": {}}
    for t, versions in sorted(recs.items()):
        last = max(versions.values(), key=lambda x: x.when)
        doc["targets"][t] = {"last": last.version,
                             "versions": {v: x.to_json() for v, x in sorted(versions.items())}}
    try:
        host.mkdir(host.state_dir, 0o700)
        host.write_atomic(path(host), (json.dumps(doc, indent=1) + "\n").encode(), mode=0o600)
    except HostError:
        pass


def age(seconds: float) -> str:
    """ "3 min", "5 h", "2 days" ago, for a record's `when` measured against now."""
    s = max(0, int(seconds))
    if s < 3600:
        return f"{max(1, s // 60)} min"
    if s < 2 * 86400:
        return f"{s // 3600} h"
    return f"{s // 86400} days"
