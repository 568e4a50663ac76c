"""Live probes: ask an installed CLI what it actually loaded.

Rules: every process goes through the Host and runs under a timeout; nothing here starts a
session, so no operator hook or MCP server is executed (`claude mcp list` is never used: it
starts stdio servers); a CLI that is not installed gives a result that says so.

`ok` means the probe got an answer from the CLI (for `codex_startup_config`: the config is valid,
exit 0). Problems the CLI reports about the config are in `data`.
"""
from __future__ import annotations

import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, Sequence

from ..targets.claude.facts import CLAUDE
from ..targets.copilot.facts import COPILOT
from agentdeck.core.host import Host

from .jsonrpc import RpcChild, RpcError, decline, null_result

CLIENT_INFO = {"name": "agentdeck", "title": "agentdeck doctor", "version": "0.1.0"}


@dataclass
class ProbeResult:
    target: str
    probe: str
    ok: bool
    data: Any
    error: str | None
    seconds: float
    skipped_reason: str | None = None


Probe = Callable[[Host], ProbeResult]


# ---- helpers ---------------------------------------------------------------------------------
def _not_installed(target: str, probe: str, binary: str) -> ProbeResult:
    return ProbeResult(target, probe, False, None, None, 0.0,
                       skipped_reason=f"{binary} is not installed (not found on PATH)")


def _cwd(host: Host) -> Path | None:
    return host.home if host.is_dir(host.home) else None


_NOISE = re.compile(r"^(WARNING: proceeding, even though we could not create PATH aliases"
                    r"|Stack backtrace:|\s+\d+: )")


def _clean_error(text: str) -> str:
    """A CLI's stderr without Codex's PATH-alias warning and Rust backtraces."""
    lines = []
    for line in text.splitlines():
        if line.startswith("Stack backtrace:"):
            break
        if not _NOISE.match(line):
            lines.append(line.rstrip())
    return "\n".join(lines).strip()


def _run_json(host: Host, target: str, probe: str, binary: str, args: Sequence[str],
              timeout: float) -> ProbeResult:
    """Run `<binary> args`; ok when it exits 0 with JSON on stdout."""
    exe = host.which(binary)
    if exe is None:
        return _not_installed(target, probe, binary)
    t0 = time.monotonic()
    res = host.run([exe, *args], timeout=timeout, cwd=_cwd(host))
    secs = time.monotonic() - t0
    if res.timed_out:
        return ProbeResult(target, probe, False, None, f"timed out after {timeout:g}s", secs)
    try:
        data = json.loads(res.stdout) if res.stdout.strip() else None
    except json.JSONDecodeError:
        data = None
    if res.returncode != 0:
        err = _clean_error(res.stderr) or _clean_error(res.stdout) or f"exit {res.returncode}"
        return ProbeResult(target, probe, False, data, err, secs)
    if data is None:
        return ProbeResult(target, probe, False, res.stdout, "output is not JSON", secs)
    return ProbeResult(target, probe, True, data, None, secs)


def _rpc(host: Host, target: str, probe: str, argv: list[str], framing: str, responder,
         conversation: Callable[[RpcChild, float], Any], timeout: float,
         env: dict[str, str] | None = None, jsonrpc_field: bool = True) -> ProbeResult:
    t0 = time.monotonic()
    deadline = t0 + timeout
    try:
        proc = host.popen(argv, env=env, cwd=_cwd(host))
    except OSError as e:
        return ProbeResult(target, probe, False, None, f"cannot start {argv[0]}: {e}", 0.0)
    child = RpcChild(host, proc, framing, responder, jsonrpc_field=jsonrpc_field)
    try:
        data = conversation(child, deadline)
        error = None
    except RpcError as e:
        data, error = None, str(e)
        tail = _clean_error(child.stderr_text)
        if tail:
            error += f"; stderr: {tail[-500:]}"
    finally:
        child.close()
    return ProbeResult(target, probe, error is None, data, error, time.monotonic() - t0)


def _rpc_result(msg: dict, method: str) -> Any:
    if "error" in msg:
        err = msg["error"] or {}
        raise RpcError(f"{method} failed: {err.get('message', err)}")
    return msg.get("result")


# ---- Copilot ---------------------------------------------------------------------------------
_SETTINGS_LOG_LINE = re.compile(r"\[(?:WARNING|ERROR)\] \[\w*[Ss]ettings\] (?P<text>.*)$")


def _copilot_settings_warnings(host: Host, before: set[str]) -> list[str]:
    """Settings warnings (unknown keys, values that could not be loaded) that this probe's
    Copilot process wrote to $COPILOT_HOME/logs: the server does not return them."""
    logs = host.copilot_home / COPILOT.logs_dir
    out: list[str] = []
    for name in host.listdir(logs):
        if name in before or not name.endswith(".log"):
            continue
        try:
            text = host.read_text(logs / name) or ""
        except Exception:
            continue
        for line in text.splitlines():
            m = _SETTINGS_LOG_LINE.search(line)
            if m and m.group("text") not in out:
                out.append(m.group("text"))
    return out


def copilot_hooks_discover(host: Host, project_paths: list[str] | None = None,
                           timeout: float = 20) -> ProbeResult:
    """`hooks.discover` over `copilot --headless --stdio`: every loaded hook with hookType,
    origin, source, enabled and disableKey, plus the server's `errors`/`warnings` and the
    settings warnings the process logged (`settings_warnings`)."""
    probe = "hooks.discover"
    exe = host.which(COPILOT.binary)
    if exe is None:
        return _not_installed("copilot", probe, COPILOT.binary)
    logs_before = set(host.listdir(host.copilot_home / COPILOT.logs_dir))
    params: dict[str, Any] = {}
    if project_paths:
        params["projectPaths"] = [str(p) for p in project_paths]

    def talk(child: RpcChild, deadline: float) -> Any:
        return _rpc_result(child.request("hooks.discover", params, deadline), "hooks.discover")

    res = _rpc(host, "copilot", probe,
               [exe, "--headless", "--no-auto-update", "--stdio", "--no-auto-login"],
               "lsp", null_result, talk, timeout, env={"COPILOT_AUTO_UPDATE": "false"})
    if res.ok and isinstance(res.data, dict):
        res.data["settings_warnings"] = _copilot_settings_warnings(host, logs_before)
    return res


def copilot_mcp_list(host: Host, timeout: float = 20) -> ProbeResult:
    """`copilot mcp list --json`: the servers Copilot would start, with `enabled` and `source`
    (entries it cannot use are silently omitted)."""
    return _run_json(host, "copilot", "mcp list", COPILOT.binary, ["mcp", "list", "--json"],
                     timeout)


# ---- Codex -----------------------------------------------------------------------------------
def codex_startup_config(host: Host, timeout: float = 20, args: Sequence[str] = ()) -> ProbeResult:
    """`codex app-server --strict-config --print-startup-config`: ok when config.toml is valid.
    On failure `error` is Codex's message with file:line:col and `data` its JSON error
    (`data.error.data` has filePath, line, column)."""
    res = _run_json(host, "codex", "startup config", "codex",
                    ["app-server", "--strict-config", "--print-startup-config", *args], timeout)
    if not res.ok and isinstance(res.data, dict) and isinstance(res.data.get("error"), dict):
        res.error = res.data["error"].get("message") or res.error
    return res


def codex_hooks_list(host: Host, cwds: list[str], timeout: float = 20,
                     args: Sequence[str] = ()) -> ProbeResult:
    """`hooks/list` over `codex app-server` (JSON lines): per cwd, every hook with key,
    eventName, command, matcher, timeoutSec, source, enabled, currentHash and trustStatus.
    `data` is the result ({"data": [...]}) plus `configWarnings` the server announced. With no
    cwds Codex answers for its own working directory (the host's home). `args`: config
    overrides (`-c hooks.state=...`: core/doctor/isolated.py)."""
    exe = host.which("codex")
    if exe is None:
        return _not_installed("codex", "hooks/list", "codex")

    def talk(child: RpcChild, deadline: float) -> Any:
        _rpc_result(child.request("initialize", {"clientInfo": CLIENT_INFO,
                                                 "capabilities": {"experimentalApi": True}},
                                  deadline), "initialize")
        child.notify("initialized")
        result = _rpc_result(child.request("hooks/list", {"cwds": [str(c) for c in cwds]},
                                           deadline), "hooks/list")
        out = dict(result or {})
        out["configWarnings"] = [n.get("params", {}).get("summary") for n in child.notifications
                                 if n.get("method") == "configWarning"]
        return out

    return _rpc(host, "codex", "hooks/list", [exe, "app-server", *args], "jsonl", decline, talk,
                timeout, jsonrpc_field=False)


def codex_mcp_list(host: Host, timeout: float = 20) -> ProbeResult:
    """`codex mcp list --json` (accepts unknown fields; reports bad TOML and wrong types)."""
    return _run_json(host, "codex", "mcp list", "codex", ["mcp", "list", "--json"], timeout)


# ---- Claude ----------------------------------------------------------------------------------
def parse_claude_doctor(text: str) -> list[dict[str, str | None]]:
    """The problems listed under "Invalid settings" in `claude doctor` output."""
    problems: list[dict[str, str | None]] = []
    in_section = False
    line_re = re.compile(CLAUDE.doctor_problem)
    for line in text.splitlines():
        if line.strip() == CLAUDE.doctor_section:
            in_section = True
            continue
        if not in_section:
            continue
        if not line.strip():
            in_section = False
            continue
        m = line_re.match(line)
        if m:
            problems.append({"file": m.group("file"), "path": m.group("path"),
                             "message": m.group("message"), "fix": None})
        elif problems and line.strip().startswith("Suggested fix:"):
            problems[-1]["fix"] = line.strip()[len("Suggested fix:"):].strip()
    return problems


def claude_doctor(host: Host, timeout: float = 30) -> ProbeResult:
    """`claude doctor`: `data.problems` lists each invalid setting or hook it names
    ({file, path, message, fix}); `data.output` is the full text. Note: it also checks API
    connectivity (fails fast offline)."""
    exe = host.which(CLAUDE.binary)
    if exe is None:
        return _not_installed("claude", "doctor", CLAUDE.binary)
    t0 = time.monotonic()
    res = host.run([exe, "doctor"], timeout=timeout, cwd=_cwd(host))
    secs = time.monotonic() - t0
    if res.timed_out:
        return ProbeResult("claude", "doctor", False, None, f"timed out after {timeout:g}s", secs)
    data = {"problems": parse_claude_doctor(res.stdout), "output": res.stdout}
    if res.returncode != 0:
        return ProbeResult("claude", "doctor", False, data,
                           _clean_error(res.stderr) or f"exit {res.returncode}", secs)
    return ProbeResult("claude", "doctor", True, data, None, secs)


# ---- all at once -----------------------------------------------------------------------------
def _probe_name(probe: Callable) -> str:
    while isinstance(probe, partial):
        probe = probe.func
    return getattr(probe, "__name__", repr(probe))


def run_all(host: Host, probes: Sequence[Probe], max_workers: int | None = None) -> list[ProbeResult]:
    """Run probes concurrently (threads); each keeps its own timeout (bind arguments with
    functools.partial). Results come back in the order given; a probe that raises becomes a
    failed result instead of taking the others down."""
    def one(probe: Probe) -> ProbeResult:
        t0 = time.monotonic()
        try:
            return probe(host)
        except Exception as e:  # a bug in a probe must not hide the others' answers
            return ProbeResult("?", _probe_name(probe), False, None,
                               f"{e.__class__.__name__}: {e}", time.monotonic() - t0)

    if not probes:
        return []
    with ThreadPoolExecutor(max_workers=max_workers or len(probes)) as pool:
        return list(pool.map(one, probes))


def default_probes(cwds: Sequence[str] = ()) -> list[Probe]:
    """The standard set, for `run_all(host, default_probes([repo]))`."""
    return [partial(copilot_hooks_discover, project_paths=list(cwds) or None), copilot_mcp_list,
            codex_startup_config, partial(codex_hooks_list, cwds=list(cwds) or []),
            codex_mcp_list, claude_doctor]
