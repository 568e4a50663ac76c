"""Live probe of OpenCode (`agentdeck doctor --live`), asked on a scratch copy of its home
(core/doctor/isolated.py): whether OpenCode loads its config, and what it makes of it.

`opencode debug config` prints the merged config (every layer OpenCode would read in a session
started there) as JSON, and starts no MCP server and runs no tool (observed on 1.18.33: a local
server whose command touches a file; the file was not created). It writes "$schema" into a
config file that lacks it: on the scratch copy, not the home. `opencode mcp list` connects to
every enabled server: never run (docs/facts/opencode.md section 6).
"""
from __future__ import annotations

import json
from pathlib import Path

from ...host import Host
from ..checks.live import seconds, tilde, unavailable
from ..checks.probing import run_load
from ..parts.doctor import Context, Out
from ..parts.probes import Prepared, Probe, ProbeResult
from . import SPEC
from .drill import npm_stub
from .facts import OPENCODE

T = SPEC.name
CONFIG = f"{T}.live.config"
#: the live check ids, in table order
LIVE_CHECKS = (CONFIG,)
#: what the probe reads of the home (the scratch copy holds it)
SCRATCH_COPY = (*OPENCODE.config_files, OPENCODE.plugins_dir)
#: the command that loads the config and nothing more
LOAD_ARGS = ("debug", "config")
#: what keeps the probe from waiting on an npm install or a models download offline
VERSION_ENV = {"OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1"}


def scratch_setup(host: Host, real: Path, copy: Path) -> Prepared:
    return [], npm_stub()


def probes(home: Path, args: list[str]) -> list[tuple[str, Probe]]:
    return [(f"{T}.config", load_config)]


def load_config(host: Host, timeout: float = 60) -> ProbeResult:
    """`opencode debug config`: ok when OpenCode loaded its config (exit 0 and JSON); `data` is
    {"config": the merged config or None, "output": its text when it is not JSON}."""
    return run_load(host, T, "config", OPENCODE.binary, LOAD_ARGS, timeout, _config,
                    ok=lambda data: data["config"] is not None, env=VERSION_ENV)


def _config(stdout: str, stderr: str) -> dict:
    try:
        merged = json.loads(stdout)
    except ValueError:
        merged = None
    return {"config": merged if isinstance(merged, dict) else None,
            "output": f"{stdout}\n{stderr}".strip()[:2000]}


def compare(ctx: Context, results: dict[str, ProbeResult | None], outs: dict[str, Out]) -> None:
    out = outs[CONFIG]
    res = results.get(f"{T}.config")
    if res is None:
        out.skipped("opencode debug config: not run")
        return
    if unavailable(res, out, "opencode debug config"):
        return
    data = res.data if isinstance(res.data, dict) else {}
    if not res.ok:
        out.error(f"OpenCode did not load its config ({res.error}): "
                  f"{tilde(ctx, str(data.get('output') or ''))}",
                  fix="run `opencode debug config` by hand to see why")
        return
    merged = data.get("config") or {}
    plan, _ = ctx.plan(T)
    report = plan.output[T].mcp if plan is not None and T in plan.output else None
    found = merged.get(OPENCODE.mcp_key)
    mcp: dict = found if isinstance(found, dict) else {}
    for s in report.servers if report is not None else ():
        if s.origin != "profile" or s.enabled:
            continue
        entry = mcp.get(s.name)
        if isinstance(entry, dict) and entry.get(OPENCODE.mcp_enabled_key) is not False:
            out.error(f"MCP server {s.name!r} is meant to be off, but OpenCode's merged "
                      "config enables it (a later layer sets \"enabled\")",
                      fix="find the layer with `opencode debug config` and remove the switch")
    out.ok(f"OpenCode loads its config ({seconds(res)})")


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.probes import ProbesPart
    from . import probes as _this
    _conforms: ProbesPart = _this
