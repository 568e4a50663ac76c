"""The drill's inner process: `python -m agentdeck.core.drill.inside` reads one JSON spec on
stdin, starts the scripted model server on 127.0.0.1 (an ephemeral port), runs the CLI against it
under a time limit and prints one JSON result on stdout.

The drill starts it inside `unshare -n` where the kernel allows it: a network namespace whose only
interface is loopback (brought up here), so the CLI can reach nothing but the server. The server
has to run in here too, since the namespace's 127.0.0.1 is its own.

spec:   {"argv": [...], "env": {...}, "cwd": str, "timeout": s, "commands": [...], "netns": bool,
         "shell_tools": [[name, argument], ...]}   (the CLI's own shell tool, tried first)
        "{port}" in argv and env values is replaced by the server's port
result: {"returncode", "timed_out", "seconds", "stdout", "stderr", "requests": [...], "port",
         "loopback": "up" | "shared" | "<error>", "offered": [tool names the requests offered]}
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from ..host import Host
from .server import Script, ScriptedServer

TAIL = 4000


def run(spec: dict) -> dict:
    env = {k: str(v) for k, v in (spec.get("env") or {}).items()}
    host = Host(home=Path(env.get("HOME") or "/"), env=env)
    loopback = "shared"
    if spec.get("netns"):
        r = host.run(["ip", "link", "set", "lo", "up"], timeout=10)
        loopback = "up" if r.returncode == 0 else (r.stderr.strip() or f"exit {r.returncode}")
    script = Script(list(spec.get("commands") or []),
                    shell_tools=tuple((str(n), str(a)) for n, a in spec.get("shell_tools") or ()))
    with ScriptedServer(script) as srv:
        port = str(srv.port)
        argv = [a.replace("{port}", port) for a in spec["argv"]]
        run_env = {k: v.replace("{port}", port) for k, v in env.items()}
        if spec.get("cwd"):
            # the turn's folder in PWD too: OpenCode takes its session folder from PWD before
            # the process's own working folder (the operator's PWD would be inherited)
            run_env["PWD"] = str(spec["cwd"])
        t0 = time.monotonic()
        res = host.run(argv, timeout=float(spec.get("timeout") or 60), env=run_env,
                       cwd=spec.get("cwd"))
        secs = time.monotonic() - t0
        with script.lock:
            seen = list(script.seen)
            offered = sorted(script.offered)
    return {"returncode": res.returncode, "timed_out": res.timed_out, "seconds": round(secs, 3),
            "stdout": res.stdout[-TAIL:], "stderr": res.stderr[-TAIL:], "requests": seen,
            "port": int(port), "loopback": loopback, "offered": offered}


def main() -> int:
    try:
        spec = json.loads(sys.stdin.read() or "{}")
        out = run(spec)
    except Exception as e:  # noqa: BLE001 - the outer drill reports it as one line
        out = {"error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
