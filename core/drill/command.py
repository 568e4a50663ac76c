"""`agentdeck drill [--home DIR] [--target T] [--profile NAME] [--json]`: exit 0 when every chosen
CLI is ok, 1 otherwise (a CLI that is not installed, or where agentdeck's hooks are not, is
reported as skipped at once, without a turn, and skipped is not ok)."""
from __future__ import annotations

import json
import sys

from ..host import Host


def main(args, host: Host) -> int:
    from .. import engine, profiles
    from .report import dumps, render
    from .run import drill

    prof = args.profile or engine.DEFAULT_PROFILE
    if getattr(args, "matrix", False):
        return _matrix(args, host)
    chosen = engine.select_targets(args.target, profiles.resolve(host, prof).targets, host)
    running: set[str] = set()

    def progress(target: str, what: str) -> None:
        # progress only for the turns (seconds each); a target without a turn is the report's
        # one line
        if args.json:
            return
        if what == "running":
            running.add(target)
            print(f"  {target}: running…", file=sys.stderr, flush=True)
        elif target in running:
            print(f"  {target}: {what}", file=sys.stderr, flush=True)

    rep = drill(host, prof, chosen, progress=progress)
    print(dumps(rep) if args.json else render(rep, host))
    return 0 if rep.ok else 1


def _matrix(args, host: Host) -> int:
    """`agentdeck drill --matrix`: exit 0 when every class held in every CLI that had a turn."""
    from .. import engine   # local: as main's
    from ..targets import registry   # local: as main's
    from . import matrix   # local: the matrix loads only for --matrix

    names = engine.select_targets(args.target, None, host)
    found = [t for t in names if host.which(registry.spec(t).binary)]
    if not found:
        print("drill --matrix: no CLI of " + ", ".join(names) + " is installed here")
        return 1

    def progress(target: str, what: str) -> None:
        if not args.json:
            print(f"  {target}: {what}…" if what == "running" else f"  {target}: {what}",
                  file=sys.stderr, flush=True)

    results = matrix.run(host, found, progress=progress)
    if args.json:
        print(json.dumps([{"target": m.target, "version": m.version, "status": m.status,
                           "problem": m.problem,
                           "classes": {k: {"status": c.status, "cases": c.cases}
                                       for k, c in m.classes.items()}} for m in results],
                         indent=2))
    else:
        print(matrix.render(results), end="")
    ok = all(m.status == "ok" and all(c.status == "held" for c in m.classes.values())
             for m in results)
    return 0 if ok else 1
