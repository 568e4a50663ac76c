"""The decisions the hook handler recorded: a reader and a follower over audit.jsonl.

    for rec in read(host, Filter(decision="deny", since=parse_duration("1h"))): ...
    f = Follower(host, Filter(target="codex"))      # the app's Activity screen, in a worker
    while running:
        for rec in f.wait(timeout=1.0): ...         # blocks until lines are appended (inotify
                                                    # on Linux; elsewhere a 0.5 s stat poll)

A decision record is an audit line with a `decision` (pre-tool and prompt events; see
core.hookhandler.decide): ts, target, dialect, event, session_id, tool_class, tool_name,
summary (redacted), rule, decision, reason, latency_ms, drill_id. Lines that are not JSON
objects are skipped. All reading goes through the Host (read_range: never blocks on a FIFO).

A record with a `drill_id` was made by `agentdeck drill` (its canary deny, its harmless
command), not by a real session: `is_drill` tells them apart, a Filter hides them unless
`drills=True` (`activity --drills`; the app's Activity screen has a switch), counting what it
hid (`Filter.hidden_drills`), and `row` marks them ("[drill]" before the summary).
"""
from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Literal

from .errors import UserError
from .host import Host
from .names import TARGETS

CHUNK = 1 << 20
DECISIONS = ("allow", "ask", "deny")


def audit_path(host: Host) -> Path:
    return Path(host.state_dir) / "audit.jsonl"


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|d|w)?\s*$")
_UNIT = {None: 1, "s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_duration(text: str) -> float:
    """Seconds in "90s", "15m", "2h", "1d", "1w" (a bare number is seconds)."""
    m = _DURATION.match(text or "")
    if not m:
        raise UserError(f"--since {text!r}: expected a duration such as 30s, 15m, 2h, 1d")
    return float(m.group(1)) * _UNIT[m.group(2)]


def _epoch(ts: object) -> float | None:
    """The handler's "2026-12-01T09:00:00.123Z" as seconds since the epoch."""
    if not isinstance(ts, str) or len(ts) < 19:
        return None
    try:
        base = time.strptime(ts[:19], "%Y-%m-%dT%H:%M:%S")
    except ValueError:
        return None
    import calendar   # local: only a --since filter reads a time back
    frac = 0.0
    if len(ts) > 20 and ts[19] == ".":
        try:
            frac = float("0" + ts[19:].rstrip("Z"))
        except ValueError:
            frac = 0.0
    return calendar.timegm(base) + frac


def is_drill(rec: dict) -> bool:
    """The record of a drill's turn (core.hookhandler tags them with the drill's id)."""
    return bool(rec.get("drill_id"))


@dataclass
class Filter:
    target: str | None = None
    decision: str | None = None
    session: str | None = None
    since: float | None = None          # seconds back from now
    decisions_only: bool = True         # only pre-tool / prompt decisions (not every event)
    drills: bool = False                # also the drill's records (hidden otherwise)

    def __post_init__(self):
        if self.decision is not None and self.decision not in DECISIONS:
            raise UserError(f"--decision {self.decision!r}: expected one of {', '.join(DECISIONS)}")
        if self.target is not None:
            known = (*TARGETS, "repo")        # "repo": hooks a repository carries
            if self.target not in known:
                raise UserError(f"--target {self.target!r}: expected one of {', '.join(known)}")
        self._cutoff = time.time() - self.since if self.since is not None else None
        self.hidden_drills = 0          # the drill records this filter left out (so far)

    def accepts(self, rec: dict) -> bool:
        if self.decisions_only and "decision" not in rec:
            return False
        if not self.drills and is_drill(rec):
            if self._others(rec):
                self.hidden_drills += 1
            return False
        return self._others(rec)

    def _others(self, rec: dict) -> bool:
        if self.target and rec.get("target") != self.target:
            return False
        if self.decision and rec.get("decision") != self.decision:
            return False
        if self.session and rec.get("session_id") != self.session:
            return False
        if self._cutoff is not None:
            t = _epoch(rec.get("ts"))
            if t is None or t < self._cutoff:
                return False
        return True


def _records(lines: list[bytes], flt: Filter) -> list[dict]:
    out = []
    for raw in lines:
        try:
            rec = json.loads(raw)
        except ValueError:
            continue
        if isinstance(rec, dict) and flt.accepts(rec):
            out.append(rec)
    return out


class Reader:
    """Reads whole lines from audit.jsonl from where it stopped last (a truncated or replaced
    log starts again from its beginning)."""

    def __init__(self, host: Host, flt: Filter | None = None, path: Path | None = None):
        self.host, self.filter = host, flt or Filter()
        self.path = path or audit_path(host)
        self.offset = 0
        self._partial = b""
        self._ino: int | None = None

    def _identity(self) -> int | None:
        st = self.host.lstat(self.path)
        return st.st_ino if st is not None else None

    def read_new(self) -> list[dict]:
        ino = self._identity()
        if ino != self._ino:
            self._ino, self.offset, self._partial = ino, 0, b""
        out: list[dict] = []
        while True:
            got = self.host.read_range(self.path, self.offset, CHUNK)
            if got is None:
                return out
            data, size = got
            if size < self.offset:                     # truncated: start again
                self.offset, self._partial = 0, b""
                continue
            if not data:
                return out
            self.offset += len(data)
            data = self._partial + data
            lines = data.split(b"\n")
            self._partial = lines.pop()
            out += _records([ln for ln in lines if ln.strip()], self.filter)
            if self.offset >= size:
                return out


def read(host: Host, flt: Filter | None = None, path: Path | None = None) -> list[dict]:
    """Every record in the log that passes the filter, oldest first."""
    return Reader(host, flt, path).read_new()


class _Inotify:
    """Linux inotify through ctypes (the standard library has no file watcher): wait() returns
    when the folder's files change or the timeout passes; no polling loop."""
    IN_MODIFY, IN_CREATE, IN_MOVED_TO, IN_CLOSE_WRITE = 0x2, 0x100, 0x80, 0x8

    def __init__(self, folder: Path):
        import ctypes        # local: only `activity --follow` watches the log
        import ctypes.util

        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        self.fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        mask = self.IN_MODIFY | self.IN_CREATE | self.IN_MOVED_TO | self.IN_CLOSE_WRITE
        if libc.inotify_add_watch(self.fd, os.fsencode(str(folder)), mask) < 0:
            err = ctypes.get_errno()
            os.close(self.fd)
            raise OSError(err, "inotify_add_watch")

    def wait(self, timeout: float) -> None:
        import select        # local: as ctypes above
        r, _, _ = select.select([self.fd], [], [], timeout)
        if r:
            try:
                while os.read(self.fd, 65536):
                    pass
            except BlockingIOError:
                pass

    def close(self) -> None:
        try:
            os.close(self.fd)
        except OSError:
            pass


class Follower(Reader):
    """A Reader that can wait for new lines. `wait(timeout)` returns the records appended since
    the last call, blocking up to `timeout` seconds for some to arrive."""

    POLL = 0.5

    def __init__(self, host: Host, flt: Filter | None = None, path: Path | None = None,
                 from_start: bool = True):
        super().__init__(host, flt, path)
        self._watch: _Inotify | Literal[False] | None = None   # False: no inotify here
        if not from_start:
            got = host.read_range(self.path, 0, 0)
            self.offset = got[1] if got else 0
            self._ino = self._identity()

    def _watcher(self):
        if self._watch is None and self.host.is_dir(self.path.parent):
            try:
                self._watch = _Inotify(self.path.parent)
            except (OSError, AttributeError):
                self._watch = False             # no inotify here: poll instead
        return self._watch

    def wait(self, timeout: float = 1.0) -> list[dict]:
        got = self.read_new()
        if got:
            return got
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return []
            w = self._watcher()
            if w:
                w.wait(left)
            else:
                time.sleep(min(self.POLL, left))
            got = self.read_new()
            if got:
                return got

    def close(self) -> None:
        if self._watch:
            self._watch.close()
        self._watch = None


def follow(host: Host, flt: Filter | None = None, *, from_start: bool = True,
           stop=None, timeout: float = 1.0) -> Iterator[dict]:
    """Every record that passes the filter, then each new one as it is appended, until
    `stop()` returns True (checked at least every `timeout` seconds)."""
    f = Follower(host, flt, from_start=from_start)
    try:
        while not (stop and stop()):
            yield from f.wait(timeout)
    finally:
        f.close()


# ---- rendering ---------------------------------------------------------------------------------
COLUMNS = ("time", "target", "event", "decision", "rule", "tool", "summary")


def row(rec: dict) -> dict[str, str]:
    summary = rec.get("summary")
    if isinstance(summary, list):
        summary = " | ".join(str(s) for s in summary)
    tool = "/".join(str(x) for x in (rec.get("tool_class"), rec.get("tool_name")) if x)
    text = " ".join(str(summary or rec.get("reason") or "").split())
    return {"time": str(rec.get("ts") or "")[:19].replace("T", " "),
            "target": str(rec.get("target") or "-"), "event": str(rec.get("event") or "-"),
            "decision": str(rec.get("decision") or "-"), "rule": str(rec.get("rule") or "-"),
            "tool": tool or "-", "summary": f"{DRILL_MARK} {text}" if is_drill(rec) else text}


#: how a drill's record is marked in the table (text and app)
DRILL_MARK = "[drill]"


def format_rows(recs: list[dict], width: int = 120, header: bool = True) -> list[str]:
    rows = [row(r) for r in recs]
    widths = {c: max([len(c)] + [len(r[c]) for r in rows]) for c in COLUMNS if c != "summary"}
    fixed = sum(widths.values()) + 2 * (len(COLUMNS) - 1)
    room = max(20, width - fixed)
    lines = []
    if header:
        lines.append("  ".join([*(c.upper().ljust(widths[c]) for c in COLUMNS[:-1]), "SUMMARY"]))
    for r in rows:
        s = r["summary"] if len(r["summary"]) <= room else r["summary"][:room - 1] + "…"
        lines.append("  ".join([*(r[c].ljust(widths[c]) for c in COLUMNS[:-1]), s]).rstrip())
    return lines
