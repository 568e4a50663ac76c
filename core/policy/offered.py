"""What each CLI offered its model in agentdeck's own real turns, per CLI version: the tool
names of the drill's requests (core/drill/server.py reads them), recorded in the state dir so
`agentdeck doctor` can list the ones the CLI's vocabulary does not know (core/policy/
vocabulary.py unknown): a new CLI version's new tool is seen the day a drill meets it.

    <state dir>/offered-tools.json
    {"format": 1, "targets": {"<target>": {"<version>": {"tools": [...], "recorded": ISO time,
                                                          "drill": "<drill id>"}}}}

A record is agentdeck's own bookkeeping (like the audit log), written by the drill only.
"""
from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from ..host import Host, HostError

FILE = "offered-tools.json"
FORMAT = 1
#: the most a record may hold (a CLI offers dozens of tools; this leaves room for thousands)
MAX_BYTES = 1024 * 1024
#: the version key of a CLI whose version the drill could not read
UNKNOWN_VERSION = "unknown"
#: the drill records several targets at once (one thread each)
_LOCK = threading.Lock()


def path(host: Host) -> Path:
    return host.state_dir / FILE


def load(host: Host) -> tuple[dict, str | None]:
    """(the record's targets, None), or ({}, why it cannot be read); no file: ({}, None)."""
    p = path(host)
    try:
        raw = host.read_bytes(p, limit=MAX_BYTES)
    except HostError as e:
        return {}, str(e)
    if raw is None:
        return {}, None
    try:
        doc = json.loads(raw)
    except ValueError as e:
        return {}, f"{host.display(p)} is not JSON ({e})"
    targets = doc.get("targets") if isinstance(doc, dict) else None
    if not isinstance(targets, dict) or doc.get("format") != FORMAT:
        return {}, f"{host.display(p)} is not a record of format {FORMAT}"
    return targets, None


def entry(host: Host, target: str, version: str | None) -> tuple[str, dict] | None:
    """(version, {"tools", "recorded", "drill"}) of `target`: the record of `version` when there
    is one, else the most recently recorded one; None when nothing usable is recorded."""
    targets, _ = load(host)
    versions = targets.get(target)
    if not isinstance(versions, dict):
        return None
    good = {v: e for v, e in versions.items() if isinstance(e, dict)
            and isinstance(e.get("tools"), list)
            and all(isinstance(t, str) for t in e["tools"])}
    if not good:
        return None
    if version is not None and version in good:
        return version, good[version]
    v = max(good, key=lambda k: str(good[k].get("recorded") or ""))
    return v, good[v]


def record(host: Host, target: str, version: str | None, tools, drill_id: str) -> None:
    """Record the tool names `target` at `version` offered in drill `drill_id` (replacing that
    version's earlier record; other versions' are kept)."""
    names = sorted({t for t in tools if isinstance(t, str) and t})
    if not names:
        return
    with _LOCK:
        targets, why = load(host)
        if why:
            targets = {}            # an unreadable record is replaced by a good one
        versions = targets.get(target)
        versions = dict(versions) if isinstance(versions, dict) else {}
        versions[version or UNKNOWN_VERSION] = {
            "tools": names, "recorded": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "drill": drill_id}
        targets[target] = versions
        host.mkdir(host.state_dir, mode=0o700)
        host.write_atomic(path(host), (json.dumps({"format": FORMAT, "targets": targets},
                                                  indent=1, sort_keys=True) + "\n").encode(),
                          mode=0o600)
