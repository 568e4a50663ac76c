"""Live probe of Claude Code (`agentdeck doctor --live`): `claude doctor` (the settings and hooks
it calls invalid), asked on a scratch copy of its home (core/doctor/isolated.py), each problem
as a finding at the file and line. `claude mcp list` is never used: it starts stdio servers.
"""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

from ...host import Host, HostError
from ..checks.live import seconds, tilde, unavailable
from ..checks.probing import clean_error, cwd, not_installed
from ..parts.doctor import Context, Out
from ..parts.probes import Prepared, Probe, ProbeResult
from . import SPEC
from .facts import CLAUDE
from .paths import claude_json

T = SPEC.name
DOCTOR = f"{T}.live.doctor"
#: the live check ids, in table order
LIVE_CHECKS = (DOCTOR,)
#: what the probe reads of the home (the scratch copy holds these; .claude.json: scratch_setup)
SCRATCH_COPY = ("settings.json", "settings.local.json")


def scratch_setup(host: Host, real: Path, copy: Path) -> Prepared:
    """A .claude.json holding only `mcpServers` (the rest is Claude's own state and the
    account); one that does not parse is copied as it is, for Claude to report."""
    try:
        raw = host.read_bytes(claude_json(host))
    except HostError:
        return [], {".claude.json": b"{}\n"}
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        return [], {".claude.json": raw or b""}       # broken: Claude is to see it as it is
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    kept = {"mcpServers": servers} if isinstance(servers, dict) else {}
    return [], {".claude.json": (json.dumps(kept) + "\n").encode()}


def probes(home: Path, args: list[str]) -> list[tuple[str, Probe]]:
    return [(f"{T}.doctor", claude_doctor)]


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
        return not_installed(T, "doctor", CLAUDE.binary)
    t0 = time.monotonic()
    res = host.run([exe, "doctor"], timeout=timeout, cwd=cwd(host))
    secs = time.monotonic() - t0
    if res.timed_out:
        return ProbeResult(T, "doctor", False, None, f"timed out after {timeout:g}s", secs)
    data = {"problems": parse_claude_doctor(res.stdout), "output": res.stdout}
    if res.returncode != 0:
        return ProbeResult(T, "doctor", False, data,
                           clean_error(res.stderr) or f"exit {res.returncode}", secs)
    return ProbeResult(T, "doctor", True, data, None, secs)


# ==== what the answers say ========================================================================

def compare(ctx: Context, results: dict[str, ProbeResult | None], outs: dict[str, Out]) -> None:
    out = outs[DOCTOR]
    res = results.get(f"{T}.doctor")
    if unavailable(res, out, "claude doctor") or res is None:
        return
    data = res.data if isinstance(res.data, dict) else {}
    for p in data.get("problems") or []:
        f = p.get("file")
        line = None
        if f and p.get("path"):
            keys = []
            for part in str(p["path"]).split("."):
                if part.isdigit():
                    break
                keys.append(part)
            ld = ctx.json(Path(f), jsonc=False)
            line = ld.line_of(*keys) if keys and ld.ok else None
        what = f"{p.get('path')}: " if p.get("path") else ""
        message = str(p.get("message"))
        if message.startswith(CLAUDE.doctor_env_problem):
            # about the doctor's own environment, which need not be the one Claude starts in
            out.info(f"claude doctor: {what}{tilde(ctx, message)} (in the doctor's environment; "
                     "Claude may be started with a different one)",
                     fix=tilde(ctx, p.get("fix") or "set it where Claude Code is started"),
                     path=f, line=line)
            continue
        out.error(f"claude doctor: {what}{tilde(ctx, message)}",
                  fix=tilde(ctx, p.get("fix") or "fix the setting named"),
                  path=f, line=line)
    if not res.ok:
        out.warning(f"claude doctor failed: {tilde(ctx, str(res.error))}")
    if not out.findings:
        out.ok(f"claude doctor reports no invalid settings ({seconds(res)})")


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.probes import ProbesPart
    from . import probes as _this
    _conforms: ProbesPart = _this
