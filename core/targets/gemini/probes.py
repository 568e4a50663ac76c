"""Live probe of Gemini CLI (`agentdeck doctor --live`), asked on a scratch copy of its home
(core/doctor/isolated.py): whether Gemini CLI loads settings.json at all.

Gemini CLI 0.61.0 has no command that lists its settings sources or loaded hooks (`gemini hooks`
only migrates Claude Code's), and `gemini mcp list` connects to every configured server (never
run). `gemini -l` (list the extensions) loads the settings the way a session does -- a file that
does not parse stops it with exit 52 and `Error in <file>: <why>` -- and starts no MCP server and
runs no hook (observed on 0.61.0: a marker server and a SessionStart hook in the file; neither
ran). It needs a sign-in method to get that far: a dummy GEMINI_API_KEY, offline.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

from ...host import Host
from ..checks.live import seconds, tilde, unavailable
from ..checks.probing import cwd, not_installed
from ..parts.doctor import Context, Out
from ..parts.probes import Prepared, Probe, ProbeResult
from . import SPEC
from .facts import GEMINI

T = SPEC.name
SETTINGS = f"{T}.live.settings"
#: the live check ids, in table order
LIVE_CHECKS = (SETTINGS,)
#: what the probe reads of the home (the scratch copy holds it)
SCRATCH_COPY = (GEMINI.settings_file,)
#: the command that loads the settings and nothing more
LOAD_ARGS = ("-l",)
#: a sign-in method, so Gemini gets as far as loading everything (no request is made)
LOAD_ENV = {"GEMINI_API_KEY": "agentdeck-probe"}
#: Gemini's message for a settings file it cannot read (0.61.0)
_CANNOT_READ = re.compile(r"Error in (?P<file>\S+?): (?P<why>[^\n]*)")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def scratch_setup(host: Host, real: Path, copy: Path) -> Prepared:
    return [], {}


def probes(home: Path, args: list[str]) -> list[tuple[str, Probe]]:
    return [(f"{T}.settings", load_settings)]


def load_settings(host: Host, timeout: float = 60) -> ProbeResult:
    """`gemini -l`: ok when Gemini loaded the settings (exit 0); `data.problem` is what it said
    about a file it could not read ({file, why}), `data.output` its text."""
    exe = host.which(GEMINI.binary)
    if exe is None:
        return not_installed(T, "settings", GEMINI.binary)
    env = {k: v for k, v in host.env.items() if k != "GOOGLE_GEMINI_BASE_URL"}
    env.update(LOAD_ENV)
    t0 = time.monotonic()
    res = host.run([exe, *LOAD_ARGS], timeout=timeout, cwd=cwd(host), env=env)
    secs = time.monotonic() - t0
    if res.timed_out:
        return ProbeResult(T, "settings", False, None, f"timed out after {timeout:g}s", secs)
    text = _ANSI.sub("", f"{res.stdout}\n{res.stderr}").strip()
    m = _CANNOT_READ.search(text)
    data = {"output": text[:2000],
            "problem": {"file": m.group("file"), "why": m.group("why")} if m else None}
    if res.returncode != 0:
        return ProbeResult(T, "settings", False, data, f"exit {res.returncode}", secs)
    return ProbeResult(T, "settings", True, data, None, secs)


def compare(ctx: Context, results: dict[str, ProbeResult | None], outs: dict[str, Out]) -> None:
    out = outs[SETTINGS]
    res = results.get(f"{T}.settings")
    if res is None:
        out.skipped("gemini -l: not run")
        return
    if unavailable(res, out, "gemini -l"):
        return
    data = res.data if isinstance(res.data, dict) else {}
    problem = data.get("problem")
    if isinstance(problem, dict):
        f = str(problem.get("file") or "").rstrip(":")
        out.error(f"Gemini CLI cannot read {tilde(ctx, f)}: {tilde(ctx, str(problem.get('why')))}; "
                  "it stops every run until the file is fixed", fix="fix the file",
                  path=f or None)
    elif not res.ok:
        out.error(f"Gemini CLI did not load its settings ({res.error}): "
                  f"{tilde(ctx, str(data.get('output') or ''))}", fix="run `gemini` by hand to see why")
    else:
        out.ok(f"Gemini CLI loads its settings ({seconds(res)})")


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.probes import ProbesPart
    from . import probes as _this
    _conforms: ProbesPart = _this
