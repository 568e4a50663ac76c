"""Has enforcement weakened since an earlier doctor run? `agentdeck doctor --since FILE` compares
this run with FILE (an earlier `agentdeck doctor --json`), and the fleet's guard play
(integrations/ansible: agentdeck.fleet.guard) fails a host on what this finds.

Weakened, per CLI (each a one-line reason):
- its hooks were live and are not now (inert, gone);
- a layer that guarded it is gone (the hook, the CLI's own deny list, the org layer);
- a layer that undoes agentdeck's hooks appeared (the layer view's `undoes`);
- a rule or a matrix class that held in the last drill does not hold in the newer one (a
  drill of the same or a later CLI version: a rule no longer tried is not a weakening).
Pure: two JSON documents in, reasons out.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..host import Host, HostError
from .findings import Finding

CHECK = "enforcement.weakened"


def load(host: Host, path: Path) -> dict[str, Any]:
    """An earlier `doctor --json` document; a one-line UserError naming the file otherwise."""
    try:
        raw = host.read_bytes(path, limit=16 * 1024 * 1024)
    except HostError as e:
        raise UserError(f"--since {path}: {e}") from None
    if raw is None:
        raise UserError(f"--since {path}: no such file (give an earlier `agentdeck doctor --json`)")
    try:
        doc = json.loads(raw)
    except ValueError as e:
        raise UserError(f"--since {path}:{getattr(e, 'lineno', 1)}:{getattr(e, 'colno', 1)}: "
                        f"not JSON ({getattr(e, 'msg', e)})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("verdicts"), list):
        raise UserError(f"--since {path}: not an `agentdeck doctor --json` document with "
                        "verdicts (made by an older agentdeck?)")
    return doc


def _by_target(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {v["target"]: v for v in doc.get("verdicts") or []
            if isinstance(v, dict) and isinstance(v.get("target"), str)}


def _undoing(doc: dict[str, Any], target: str) -> set[str]:
    rows = (doc.get("layers") or {}).get(target) or []
    return {str(r.get("path")) for r in rows if isinstance(r, dict) and r.get("undoes")}


def weakened(old: dict[str, Any], new: dict[str, Any]) -> dict[str, list[str]]:
    """target -> the reasons its enforcement is weaker in `new` than in `old`."""
    out: dict[str, list[str]] = {}
    before, after = _by_target(old), _by_target(new)
    for t, was in before.items():
        now = after.get(t)
        if now is None:
            continue
        why: list[str] = []
        if was.get("hooks") == "live" and now.get("hooks") != "live":
            why.append(f"its hooks were live, now {now.get('hooks') or 'gone'}")
        for g in was.get("guard") or []:
            if g not in (now.get("guard") or []):
                why.append(f"no longer guarded by {g}")
        for path in sorted(_undoing(new, t) - _undoing(old, t)):
            why.append(f"a layer now undoes agentdeck's hooks: {path}")
        d0, d1 = was.get("drill") or {}, now.get("drill") or {}
        if d0 and d1:
            for kind in ("rules", "classes"):
                for name, status in (d0.get(kind) or {}).items():
                    later = (d1.get(kind) or {}).get(name)
                    if status == "held" and later not in (None, "held", "not tried"):
                        what = "rule" if kind == "rules" else "evasion class"
                        why.append(f"{what} {name} held on {d0.get('version')}, now {later} "
                                   f"on {d1.get('version')}")
        if why:
            out[t] = why
    return out


def findings(old: dict[str, Any], new: dict[str, Any], since: str) -> list[Finding]:
    """One error row per CLI whose enforcement weakened since `since` (the file's name)."""
    return [Finding(t, "error", f"{t}.{CHECK}",
                    f"enforcement weakened since {since}: " + "; ".join(why),
                    fix="run `agentdeck doctor` and `agentdeck drill` on this host and fix what "
                        "they show; the org layer keeps hooks on whatever a user does")
            for t, why in weakened(old, new).items()]
