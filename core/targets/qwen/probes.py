"""Live probe of Qwen Code (`agentdeck doctor --live`), asked on a scratch copy of its home
(core/doctor/isolated.py): whether Qwen Code loads settings.json at all.

Qwen 0.24.4 has no command that lists its settings sources or loaded hooks (`qwen hooks` prints
nothing), and `qwen mcp list` STARTS every configured server, excluded ones too (docs/facts/
qwen.md sections 3 and 6): never run. `qwen extensions list` loads the settings the way a
session does -- a file that does not parse stops it with exit 1 and Qwen's own message, as it
stops every run -- and starts no MCP server and runs no hook (observed on 0.24.4: a marker
server and a SessionStart hook in the file; neither ran). On the scratch copy, the
`.corrupted` copy Qwen writes next to a broken file lands in the copy, not the home.
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
from .facts import QWEN

T = SPEC.name
SETTINGS = f"{T}.live.settings"
#: the live check ids, in table order
LIVE_CHECKS = (SETTINGS,)
#: what the probe reads of the home (the scratch copy holds it)
SCRATCH_COPY = (QWEN.settings_file,)
#: the command that loads the settings and nothing more
LOAD_ARGS = ("extensions", "list")
#: Qwen's message for a settings file it cannot read (0.24.4)
_CANNOT_READ = re.compile(r"Cannot read [^\n]*? from (?P<file>\S+?): (?P<why>[^\n]*)")


def scratch_setup(host: Host, real: Path, copy: Path) -> Prepared:
    return [], {}


def probes(home: Path, args: list[str]) -> list[tuple[str, Probe]]:
    return [(f"{T}.settings", load_settings)]


def load_settings(host: Host, timeout: float = 60) -> ProbeResult:
    """`qwen extensions list`: ok when Qwen loaded the settings (exit 0); `data.problem` is what
    it said about a file it could not read ({file, why}), `data.output` its text."""
    exe = host.which(QWEN.binary)
    if exe is None:
        return not_installed(T, "settings", QWEN.binary)
    t0 = time.monotonic()
    res = host.run([exe, *LOAD_ARGS], timeout=timeout, cwd=cwd(host))
    secs = time.monotonic() - t0
    if res.timed_out:
        return ProbeResult(T, "settings", False, None, f"timed out after {timeout:g}s", secs)
    text = f"{res.stdout}\n{res.stderr}".strip()
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
        out.skipped("qwen extensions list: not run")
        return
    if unavailable(res, out, "qwen extensions list"):
        return
    data = res.data if isinstance(res.data, dict) else {}
    problem = data.get("problem")
    if isinstance(problem, dict):
        f = str(problem.get("file") or "").rstrip(":")
        out.error(f"Qwen Code cannot read {tilde(ctx, f)}: {tilde(ctx, str(problem.get('why')))}; "
                  "it stops every run until the file is fixed",
                  fix="fix the file (Qwen saved a copy next to it as .corrupted)", path=f or None)
    elif not res.ok:
        out.error(f"Qwen Code did not load its settings ({res.error}): "
                  f"{tilde(ctx, str(data.get('output') or ''))}", fix="run `qwen` by hand to see why")
    else:
        out.ok(f"Qwen Code loads its settings ({seconds(res)})")


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.probes import ProbesPart
    from . import probes as _this
    _conforms: ProbesPart = _this
