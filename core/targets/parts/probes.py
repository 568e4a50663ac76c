"""The `probes` part: how `agentdeck doctor --live` asks one installed CLI what it loaded, and
what it makes of the answers (core/doctor/live.py runs them; the target says how).

A target the live doctor can ask has `core/targets/<name>/probes.py` providing (`ProbesPart`):

    LIVE_CHECKS                 the live check ids, in table order (`<target>.live.<what>`)
    SCRATCH_COPY                the files and folders of the CLI home its probes read: the
                                scratch copy the CLI is asked on holds those (never credentials
                                nor the CLI's own state; core/doctor/isolated.py)
    scratch_setup(host, real, copy)
                                what depends on the operator's files: (extra arguments for the
                                probes, files to write into the copy); `real` is the CLI's home,
                                `copy` the scratch copy of it
    probes(home, args)          the probes to run, [(result key, probe)]: `probe(host)` returns
                                a ProbeResult and never runs an operator hook or MCP server;
                                `home` is the home the CLI is asked in, `args` scratch_setup's;
                                a key is `<target>.<what>` (the org layer's live rows read
                                `<target>.hooks`)
    compare(ctx, results, outs) every answer (`results[key]`, None when it did not run)
                                against the files and the plan, as findings in
                                `outs[<live check id>]` (doctor Out objects)
    VERSION_ENV                 optional: the environment `<binary> --version` needs

A target without the module gets one skipped `<target>.live` row ("not supported").
Nothing here imports the doctor (which imports this).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover
    from ...host import Host
    from .doctor import Context, Out


@dataclass
class ProbeResult:
    """`ok`: the probe got an answer from the CLI (for a config probe: the config is valid).
    Problems the CLI reports about its files are in `data`."""
    target: str
    probe: str
    ok: bool
    data: Any
    error: str | None
    seconds: float
    skipped_reason: str | None = None


Probe = Callable[["Host"], ProbeResult]
Prepared = tuple[list[str], dict[str, bytes]]


@runtime_checkable
class ProbesPart(Protocol):
    @property
    def LIVE_CHECKS(self) -> tuple[str, ...]: ...
    @property
    def SCRATCH_COPY(self) -> tuple[str, ...]: ...

    def scratch_setup(self, host: "Host", real: Path, copy: Path) -> Prepared: ...
    def probes(self, home: Path, args: list[str]) -> list[tuple[str, Probe]]: ...
    def compare(self, ctx: "Context", results: dict[str, ProbeResult | None],
                outs: dict[str, "Out"]) -> None: ...


NOT_SUPPORTED = "`doctor --live` does not support this CLI (its package has no probes part)"
