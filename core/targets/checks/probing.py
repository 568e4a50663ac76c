"""How a probe asks a CLI (the targets' probes parts, core/targets/<name>/probes.py): every
process through the Host and under a timeout; nothing here starts a session, so no operator hook
or MCP server is executed; a CLI that is not installed gives a result that says so.

`run_json` runs `<binary> args` and reads JSON from stdout; `rpc` holds a JSON-RPC conversation
with a server the CLI starts (jsonrpc.py: LSP framing or JSON lines).
"""
from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from ...host import Host
from ..parts.probes import ProbeResult
from .jsonrpc import RpcChild, RpcError

CLIENT_INFO = {"name": "agentdeck", "title": "agentdeck doctor", "version": "0.1.0"}


def not_installed(target: str, probe: str, binary: str) -> ProbeResult:
    return ProbeResult(target, probe, False, None, None, 0.0,
                       skipped_reason=f"{binary} is not installed (not found on PATH)")


def cwd(host: Host) -> Path | None:
    return host.home if host.is_dir(host.home) else None


_NOISE = re.compile(r"^(WARNING: proceeding, even though we could not create PATH aliases"
                    r"|Stack backtrace:|\s+\d+: )")


def clean_error(text: str) -> str:
    """A CLI's stderr without Codex's PATH-alias warning and Rust backtraces."""
    lines = []
    for line in text.splitlines():
        if line.startswith("Stack backtrace:"):
            break
        if not _NOISE.match(line):
            lines.append(line.rstrip())
    return "\n".join(lines).strip()


def run_load(host: Host, target: str, probe: str, binary: str, args: Sequence[str],
             timeout: float, read: Callable[[str, str], dict[str, Any]],
             ok: Callable[[dict[str, Any]], bool] = lambda data: True,
             env: dict[str, str] | None = None) -> ProbeResult:
    """Run `<binary> args`, a command that loads the CLI's settings and nothing more; `data` is
    what `read(stdout, stderr)` makes of its output; ok when it exits 0 and `ok(data)`."""
    exe = host.which(binary)
    if exe is None:
        return not_installed(target, probe, binary)
    t0 = time.monotonic()
    res = (host.run([exe, *args], timeout=timeout, cwd=cwd(host)) if env is None else
           host.run([exe, *args], timeout=timeout, cwd=cwd(host), env=env))
    secs = time.monotonic() - t0
    if res.timed_out:
        return ProbeResult(target, probe, False, None, f"timed out after {timeout:g}s", secs)
    data = read(res.stdout, res.stderr)
    if res.returncode != 0 or not ok(data):
        return ProbeResult(target, probe, False, data, f"exit {res.returncode}", secs)
    return ProbeResult(target, probe, True, data, None, secs)


def cannot_read(pattern: re.Pattern[str], text: str) -> dict[str, Any]:
    """A settings probe's data: its output, and the file it said it could not read and why
    (`pattern`'s groups file and why; None when it said nothing of the kind)."""
    m = pattern.search(text)
    return {"output": text[:2000],
            "problem": {"file": m.group("file"), "why": m.group("why")} if m else None}


def run_json(host: Host, target: str, probe: str, binary: str, args: Sequence[str],
              timeout: float) -> ProbeResult:
    """Run `<binary> args`; ok when it exits 0 with JSON on stdout."""
    exe = host.which(binary)
    if exe is None:
        return not_installed(target, probe, binary)
    t0 = time.monotonic()
    res = host.run([exe, *args], timeout=timeout, cwd=cwd(host))
    secs = time.monotonic() - t0
    if res.timed_out:
        return ProbeResult(target, probe, False, None, f"timed out after {timeout:g}s", secs)
    try:
        data = json.loads(res.stdout) if res.stdout.strip() else None
    except json.JSONDecodeError:
        data = None
    if res.returncode != 0:
        err = clean_error(res.stderr) or clean_error(res.stdout) or f"exit {res.returncode}"
        return ProbeResult(target, probe, False, data, err, secs)
    if data is None:
        return ProbeResult(target, probe, False, res.stdout, "output is not JSON", secs)
    return ProbeResult(target, probe, True, data, None, secs)


def rpc(host: Host, target: str, probe: str, argv: list[str], framing: str, responder,
         conversation: Callable[[RpcChild, float], Any], timeout: float,
         env: dict[str, str] | None = None, jsonrpc_field: bool = True) -> ProbeResult:
    t0 = time.monotonic()
    deadline = t0 + timeout
    try:
        proc = host.popen(argv, env=env, cwd=cwd(host))
    except OSError as e:
        return ProbeResult(target, probe, False, None, f"cannot start {argv[0]}: {e}", 0.0)
    child = RpcChild(host, proc, framing, responder, jsonrpc_field=jsonrpc_field)
    try:
        data = conversation(child, deadline)
        error = None
    except RpcError as e:
        data, error = None, str(e)
        tail = clean_error(child.stderr_text)
        if tail:
            error += f"; stderr: {tail[-500:]}"
    finally:
        child.close()
    return ProbeResult(target, probe, error is None, data, error, time.monotonic() - t0)


def rpc_result(msg: dict, method: str) -> Any:
    if "error" in msg:
        err = msg["error"] or {}
        raise RpcError(f"{method} failed: {err.get('message', err)}")
    return msg.get("result")
