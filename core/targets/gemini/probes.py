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
from pathlib import Path

from ...host import Host
from ..checks.live import settings_loaded
from ..checks.probing import cannot_read, run_load
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
    env = {k: v for k, v in host.env.items() if k != "GOOGLE_GEMINI_BASE_URL"}
    env.update(LOAD_ENV)
    return run_load(host, T, "settings", GEMINI.binary, LOAD_ARGS, timeout,
                    lambda so, se: cannot_read(_CANNOT_READ, _ANSI.sub("", f"{so}\n{se}").strip()),
                    env=env)


def compare(ctx: Context, results: dict[str, ProbeResult | None], outs: dict[str, Out]) -> None:
    settings_loaded(ctx, outs[SETTINGS], results.get(f"{T}.settings"), "gemini -l", SPEC.title,
                    fix="fix the file", by_hand="run `gemini` by hand to see why")


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.probes import ProbesPart
    from . import probes as _this
    _conforms: ProbesPart = _this
