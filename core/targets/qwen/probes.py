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
from pathlib import Path

from ...host import Host
from ..checks.live import settings_loaded
from ..checks.probing import cannot_read, run_load
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
    return run_load(host, T, "settings", QWEN.binary, LOAD_ARGS, timeout,
                    lambda so, se: cannot_read(_CANNOT_READ, f"{so}\n{se}".strip()))


def compare(ctx: Context, results: dict[str, ProbeResult | None], outs: dict[str, Out]) -> None:
    settings_loaded(ctx, outs[SETTINGS], results.get(f"{T}.settings"), "qwen extensions list",
                    SPEC.title, fix="fix the file (Qwen saved a copy next to it as .corrupted)",
                    by_hand="run `qwen` by hand to see why")


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.probes import ProbesPart
    from . import probes as _this
    _conforms: ProbesPart = _this
