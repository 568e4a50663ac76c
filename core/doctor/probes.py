"""Live probes, all at once: `run_all` runs the probes the targets' probes parts name
(core/targets/<name>/probes.py) concurrently, each under its own timeout.

Rules every probe keeps (core/targets/checks/probing.py): every process goes through the Host and
runs under a timeout; nothing starts a session, so no operator hook or MCP server is executed; a
CLI that is not installed gives a result that says so. `ok` means the probe got an answer from
the CLI; problems the CLI reports about its files are in `data`.
"""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Callable, Sequence

from ..host import Host
from ..targets.parts.probes import Probe, ProbeResult

__all__ = ["Probe", "ProbeResult", "run_all", "run_one"]


def _probe_name(probe: Callable) -> str:
    while isinstance(probe, partial):
        probe = probe.func
    return getattr(probe, "__name__", repr(probe))


def run_all(host: Host, probes: Sequence[Probe], max_workers: int | None = None) -> list[ProbeResult]:
    """Run probes concurrently (threads); each keeps its own timeout (bind arguments with
    functools.partial). Results come back in the order given; a probe that raises becomes a
    failed result instead of taking the others down."""
    if not probes:
        return []
    with ThreadPoolExecutor(max_workers=max_workers or len(probes)) as pool:
        return list(pool.map(partial(run_one, host), probes))


def run_one(host: Host, probe: Probe) -> ProbeResult:
    """One probe's result; a probe that raises becomes a failed result."""
    t0 = time.monotonic()
    try:
        return probe(host)
    except Exception as e:  # a bug in a probe must not hide the others' answers
        return ProbeResult("?", _probe_name(probe), False, None,
                           f"{e.__class__.__name__}: {e}", time.monotonic() - t0)
