"""`agentdeck drill [--home DIR] [--target T] [--profile NAME] [--json]`: exit 0 when every chosen
CLI is ok, 1 otherwise (a CLI that is not installed, or where agentdeck's hooks are not, is
reported as skipped at once, without a turn, and skipped is not ok)."""
from __future__ import annotations

import sys

from ..host import Host


def main(args, host: Host) -> int:
    from .. import engine, profiles
    from .report import dumps, render
    from .run import drill

    prof = args.profile or engine.DEFAULT_PROFILE
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
