"""Live checks (`agentdeck doctor --live`): ask each installed CLI what it actually loaded and turn
every difference from what the files say (the static model) and from what the plan intends into a
finding.

Each target's probes part (core/targets/<name>/probes.py; the interface is
core/targets/parts/probes.py) names its probes and says what their answers mean; this module
runs them concurrently (core/doctor/probes.py run_all), each under its own timeout; none of them
runs an operator hook or MCP server. Each CLI runs on a scratch copy of what it reads
(core/doctor/isolated.py), so the home is left as it was. A CLI that is not installed gives
`skipped` with the reason; a target without a probes part one skipped `<target>.live` row.
"""
from __future__ import annotations

from functools import partial
from types import ModuleType
from typing import Any

from ..targets import registry
from ..targets.parts.doctor import live_out
from ..targets.parts.probes import NOT_SUPPORTED
from .context import Ctx
from .findings import Finding
from .registry import Out


def _part(target: str) -> ModuleType | None:
    return registry.part(target, "probes") if registry.has_part(target, "probes") else None


def live_checks(target: str) -> tuple[str, ...]:
    """The live check ids of `target`, in table order (its probes part's)."""
    p = _part(target)
    return tuple(p.LIVE_CHECKS) if p is not None else ()


def __getattr__(name: str) -> Any:
    if name == "LIVE_CHECKS":      # the live check ids per target of the registry, in table order
        return {t: live_checks(t) for t in registry.NAMES}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _out(ctx: Ctx, check_id: str) -> Out:
    return live_out(ctx, check_id)


def _wanted(ctx: Ctx, targets: list[str], isos: dict) -> list[tuple[str, Any]]:
    """(result key, probe) pairs; a probe of a target in `isos` runs on its scratch copy
    (core/doctor/isolated.py) and its answer comes back with the home's paths; the copy is
    removed as soon as the target's last probe is answered (while the others still run)."""
    import threading

    wanted: list[tuple[str, Any]] = []
    for t in targets:
        p = _part(t)
        if p is None:
            continue
        iso = isos.get(t)
        home = iso.host.home if iso is not None else ctx.host.home
        args = list(iso.args) if iso is not None else []
        probes = p.probes(home, args)
        if iso is None:
            wanted += probes
            continue
        left = {"n": len(probes), "lock": threading.Lock()}
        wanted += [(key, partial(_isolated, ctx.host, iso, left, fn)) for key, fn in probes]
    return wanted


def _isolated(host, iso, left: dict, fn, _host):
    """Run a probe on the scratch copy; its answer with the home's paths. The last of the
    target's probes removes the copy."""
    from . import isolated

    try:
        res = fn(iso.host)
        res.data, res.error = iso.back(res.data), iso.back(res.error)
        return res
    finally:
        with left["lock"]:
            left["n"] -= 1
            last = left["n"] == 0
        if last:
            isolated.remove_copy(host, iso)


def _installed(ctx: Ctx, targets: list[str]) -> list[str]:
    """The targets with a probes part whose CLI is on the PATH (each gets a scratch copy)."""
    return [t for t in targets if _part(t) is not None
            and ctx.host.which(registry.spec(t).binary)]


def start(ctx: Ctx, targets: list[str]):
    """Start the probes in the background and return a function that waits for them and
    compares their answers with the files and the plan (in the caller's thread). The runner
    calls this before the static checks, so the CLIs start up while agentdeck reads files.
    Each CLI runs on a scratch copy of what it reads (core/doctor/isolated.py): the home is
    left as it was. A target's probes start as soon as its own copy is made, while the next
    target's is being made."""
    import threading
    from concurrent.futures import Future, ThreadPoolExecutor

    from . import isolated
    from . import probes as P

    installed = _installed(ctx, targets)
    root = isolated.run_root(ctx.host) if installed else None
    # a thread per probe (each mostly waits for its CLI); threads start as probes are submitted
    pool = ThreadPoolExecutor(max_workers=64, thread_name_prefix="agentdeck-live-probe")
    keys: list[str] = []
    futures: list[Future] = []
    try:
        for t in targets:
            isos = {t: isolated.make(ctx.host, root, t)} if t in installed and root else {}
            for key, fn in _wanted(ctx, [t], isos):
                keys.append(key)
                futures.append(pool.submit(P.run_one, ctx.host, fn))
    except BaseException:
        pool.shutdown(wait=True)           # the probes already started use the copies
        if root is not None:
            isolated.remove(ctx.host, root)
        raise
    ctx.say(f"asking {', '.join(t for t in targets)} what they loaded "
            f"({len(futures)} probes at once)")
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["results"] = [f.result() for f in futures]
        except BaseException as e:   # re-raised in the caller's thread
            box["error"] = e
        finally:
            pool.shutdown(wait=False)
            if root is not None:
                isolated.remove(ctx.host, root)

    th = threading.Thread(target=work, name="agentdeck-live-probes", daemon=True)
    th.start()

    def finish() -> list[Finding]:
        th.join()
        if "error" in box:
            raise box["error"]
        return compare(ctx, targets, dict(zip(keys, box["results"])))
    return finish


def run(ctx: Ctx, targets: list[str]) -> list[Finding]:
    """Probe and compare, in one go."""
    return start(ctx, targets)()


def compare(ctx: Ctx, targets: list[str], results: dict) -> list[Finding]:
    ctx.memo["live_results"] = results        # the org layer's live rows read them too
    out: list[Finding] = []
    for t in targets:
        ctx.say(f"{t}: comparing with the files and the plan")
        p = _part(t)
        if p is None:
            o = _out(ctx, f"{t}.live")
            o.skipped(NOT_SUPPORTED)
            out.extend(o.findings)
            continue
        outs = {cid: _out(ctx, cid) for cid in p.LIVE_CHECKS}
        try:
            p.compare(ctx, results, outs)
        except Exception as e:  # a comparison bug must not hide the others
            o = next(iter(outs.values()))
            o.error(f"the live comparison failed: {e.__class__.__name__}: {e}",
                    fix="this is a bug in agentdeck; please report it with this line")
        for cid in p.LIVE_CHECKS:
            out.extend(outs[cid].findings)
    return out
