"""Time `agentdeck plan --json` and `agentdeck apply --yes` as whole processes on fresh temp homes.

    python benchmarks/cli_timing.py [--runs 7] [--target copilot]

Prints the median (and min/max) wall time of each over several runs. No test asserts on these
numbers: timings belong here, not in the test suite.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def agentdeck_argv() -> list[str]:
    exe = shutil.which("agentdeck")
    return [exe] if exe else [sys.executable, "-m", "agentdeck.core.cli"]


def clean_env(home: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("COPILOT_HOME", "CODEX_HOME", "CLAUDE_CONFIG_DIR", "AGENTDECK_STATE_DIR")}
    env["HOME"] = home
    return env


def time_once(args: list[str], home: str) -> float:
    t0 = time.perf_counter()
    r = subprocess.run(agentdeck_argv() + args + ["--home", home], capture_output=True,
                       env=clean_env(home))
    dt = time.perf_counter() - t0
    if r.returncode not in (0, 2):
        sys.exit(f"agentdeck {' '.join(args)} failed ({r.returncode}): {r.stderr.decode()[-400:]}")
    return dt


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--target", action="append", default=None)
    a = ap.parse_args()
    targets = sum((["--target", t] for t in (a.target or [])), [])
    rows = {"plan --json (fresh home)": [], "apply --yes (fresh home)": []}
    for _ in range(a.runs):
        with tempfile.TemporaryDirectory() as h:
            rows["plan --json (fresh home)"].append(time_once(["plan", "--json", *targets], h))
        with tempfile.TemporaryDirectory() as h:
            rows["apply --yes (fresh home)"].append(time_once(["apply", "--yes", *targets], h))
    print(f"{'command':<28} {'median':>8} {'min':>8} {'max':>8}   ({a.runs} runs, {os.cpu_count()} cpus)")
    for name, xs in rows.items():
        print(f"{name:<28} {statistics.median(xs)*1000:7.0f}ms {min(xs)*1000:7.0f}ms {max(xs)*1000:7.0f}ms")


if __name__ == "__main__":
    main()
