"""Time the app's start-up: time to the first screen, and time until the plan is shown.

    python benchmarks/app_startup.py [--runs 7] [--size 120x40]

Each run is a fresh Python process (imports count) that opens the app headless on a fresh demo
home (and on a fresh empty home) and reports two moments, measured from just before the process
was started:

  first screen   the main screen is mounted and interactive (the plan is still being computed)
  plan shown     the plan has arrived and the panes and the summary line show it

Prints the median (and min/max) of each. No test asserts on these numbers.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import asyncio, json, sys, time
from pathlib import Path
kind, home, width, height = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
from agentdeck.core import demo
from agentdeck.core.host import Host
if kind == "demo":
    demo.make_demo_home(home)
    env = demo.demo_env(home)
else:
    home.mkdir(parents=True, exist_ok=True)
    env = None
host = Host.from_environment(home, env=env)
(host.state_dir).mkdir(parents=True, exist_ok=True)   # not a first run: open the main screen
from agentdeck.app.app import AgentDeckApp

async def main():
    app = AgentDeckApp(host)
    async with app.run_test(size=(width, height)) as pilot:
        first = time.time()
        screen = app.screen
        while screen.plan is None and screen.error is None:
            await asyncio.sleep(0.002)
        await pilot.pause()
        shown = time.time()
        status = str(screen.query_one("#status").content)
    print(json.dumps({"first_screen": first, "plan_shown": shown, "status": status}))

asyncio.run(main())
"""


def one_run(kind: str, size: tuple[int, int]) -> tuple[float, float, str]:
    with tempfile.TemporaryDirectory(prefix="agentdeck-bench-") as tmp:
        home = Path(tmp) / "home"
        env = dict(os.environ)
        env.pop("NO_COLOR", None)
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        t0 = time.time()
        r = subprocess.run([sys.executable, "-c", CHILD, kind, str(home), str(size[0]),
                            str(size[1])], capture_output=True, text=True, env=env, cwd=ROOT)
        if r.returncode != 0:
            sys.exit(f"app run failed ({r.returncode}):\n{r.stderr[-2000:]}")
        out = json.loads(r.stdout.strip().splitlines()[-1])
        return out["first_screen"] - t0, out["plan_shown"] - t0, out["status"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--size", default="120x40", help="terminal size, WIDTHxHEIGHT")
    a = ap.parse_args()
    size = tuple(int(x) for x in a.size.lower().split("x"))
    print(f"{'home':<7} {'moment':<14} {'median':>8} {'min':>8} {'max':>8}   "
          f"({a.runs} runs, {size[0]}x{size[1]}, {os.cpu_count()} cpus, "
          f"python {sys.version.split()[0]})")
    for kind in ("demo", "empty"):
        firsts, shown, status = [], [], ""
        for _ in range(a.runs):
            f, s, status = one_run(kind, size)
            firsts.append(f)
            shown.append(s)
        for name, xs in (("first screen", firsts), ("plan shown", shown)):
            print(f"{kind:<7} {name:<14} {statistics.median(xs) * 1000:7.0f}ms "
                  f"{min(xs) * 1000:7.0f}ms {max(xs) * 1000:7.0f}ms")
        print(f"{'':<7} last status: {status}")


if __name__ == "__main__":
    main()
