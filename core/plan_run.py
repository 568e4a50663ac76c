"""Running a plan from the command line, for every scope's commands (`plan`, `apply`,
`uninstall` in core/cli.py; `org plan|apply|uninstall` in core/org/command.py): rolling back an
interrupted apply first, the operator's --take/--keep/--skip decisions, printing the plan (text
or --json), asking before an apply, applying, and the words and exit code after it.

Exit codes: 0 = nothing to do / applied, 2 = changes pending / applied with conflicts left
undecided or hooks inert, 1 = error or cancelled.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from . import engine, profilecache, targets
from .apply import inert_after, journal_path
from .errors import UserError
from .host import Host
from .interrupt import STATE
from .plan import dumps
from .wording import count_of

EXIT_OK, EXIT_ERROR, EXIT_PENDING = 0, 1, 2


def recover(host: Host) -> None:
    if host.exists(journal_path(host)):
        msg = engine.recover(host)
        if msg:
            print(f"agentdeck: {msg}", file=sys.stderr)


def _match(plan, token: str):
    items = plan.items
    home = plan.home.rstrip("/")
    if token.startswith("~/"):   # ids as the plan prints them, with the home as ~
        token = home + token[1:]
    token = token.replace("]@~/", f"]@{home}/")    # a key's member path (render.shown_id)
    for it in items:
        if it.id == token:
            return it
    low = token.lower()
    cands = [i for i in items if (i.label or "").lower() == low]
    if len(cands) == 1:
        return cands[0]
    cands = [i for i in items if low in i.id.lower() or low in (i.label or "").lower()]
    if len(cands) == 1:
        return cands[0]
    if not cands:
        raise UserError(f"no plan item matches {token!r} (see ids with --verbose)")
    raise UserError(f"{token!r} matches {len(cands)} plan items; use the full id (see --verbose)")


#: a flag on an item whose choices are the other pair means the same thing there: --take on a
#: planned change (a set-aside file too) is applying it, --keep is leaving what is on disk
#: (skip), --skip on a kept item is keeping it
_SAME = {("take", "apply"): "apply", ("keep", "skip"): "skip", ("skip", "keep"): "keep"}


def apply_decisions(plan, args) -> None:
    for flag in ("keep", "take", "skip"):
        for token in getattr(args, flag, []) or []:
            it = _match(plan, token)
            decision = flag
            if flag not in it.choices:
                decision = next((_SAME[(flag, c)] for c in it.choices if (flag, c) in _SAME),
                                flag)
            try:
                plan.decide(it.id, decision)
            except ValueError:
                raise UserError(f"--{flag} does not apply to {it.label or it.id} ({it.cls}): "
                                f"its only choice is {' or '.join(it.choices)}") from None


def titles(names: list[str] | None = None) -> dict[str, str]:
    """Each target's title; `names`: only those (no adapter imported just for a title)."""
    out = {n: targets.get(n).title for n in targets.available() if names is None or n in names}
    if names is None or "repo" in names:
        from .targets.repo import RepoTarget   # local: the repo target loads only when its title is asked for
        out["repo"] = RepoTarget.title
    return out


def print_plan(plan, host, args) -> None:
    from .render import render_plan, use_color   # local: the plan's text loads only when a plan is printed (not for --help or status)

    if args.json and getattr(args, "diff", False):
        from .preview import file_changes   # local: only plan --json --diff needs the files' previews
        doc = json.loads(dumps(plan))
        doc["files"] = file_changes(host, plan)
        print(json.dumps(doc, indent=2, ensure_ascii=False))
    elif args.json:
        print(dumps(plan))
    else:
        if engine.repo_of(plan):
            print(f"repository {engine.repo_of(plan)}")
        print(render_plan(plan, host, verbose=args.verbose, color=use_color(),
                          titles=titles(plan.targets)))


def say_inert(inert: dict[str, list[str]], what: str) -> None:
    """The last word when hooks cannot run: which CLI, why, and the command that fixes it."""
    for t, lines in inert.items():
        print(f"agentdeck: {what} {t}'s hooks are inert: " + "; ".join(lines), file=sys.stderr)


def _confirm(plan, args) -> bool:
    if args.yes:
        return True
    if not sys.stdin.isatty():
        raise UserError("refusing to apply without a terminal to ask on; review with "
                        "`agentdeck plan` and re-run with --yes")
    try:
        answer = input("\nApply these changes? Only 'yes' will be accepted: ")
    except EOFError:
        answer = ""
    return answer.strip() == "yes"


def run_apply(host, plan, args) -> int:
    apply_decisions(plan, args)
    if getattr(args, "plan_file", None):
        from .planfile import check_same   # local: only apply --plan-file needs it
        check_same(host, plan, args.plan_file)
    if not args.json:
        print_plan(plan, host, args)
    if plan.errors:     # apply nothing while a selected target has an error
        raise UserError(engine.plan_errors_message(plan))
    if not plan.has_work:
        if args.json:   # one JSON document: the plan, and no result
            print(json.dumps({"plan": plan.to_json(), "result": None}, indent=2, default=str))
        rc = _conflicts_left(host, plan)
        inert = inert_after(plan)
        say_inert(inert, "nothing to apply, but")
        return EXIT_PENDING if inert and rc == EXIT_OK else rc
    conflicts = plan.undecided_conflicts()
    if conflicts and sys.stdin.isatty() and not args.yes and not args.json:
        for it in conflicts:
            ans = input(f"\nConflict: {it.label} ({host.display(it.path)}): {it.reason}.\n"
                        "  keep yours or take the profile's? [keep/take]: ").strip().lower()
            if ans in ("keep", "take"):
                plan.decide(it.id, ans)
    if not _confirm(plan, args):
        print("Apply cancelled; nothing was written.")
        return EXIT_ERROR
    plan_json = plan.to_json() if args.json else None
    undecided = plan.undecided_conflicts()
    # the validated profile this apply installs, so the next run loads it without pydantic;
    # written first and outside the apply (a cache, in agentdeck's own state dir: a crash while
    # writing it leaves the home as it was, and a damaged entry is only a cache miss)
    profilecache.save(host)
    STATE["host"] = host
    result = engine.apply_plan(host, plan, leave_conflicts=True)
    STATE["applied"] = True        # a Ctrl-C from here on meets a finished apply
    backup_dir = Path(result.backup_dir) if result.backup_dir else None
    backups = backup_dir is not None and any(
        f != "index.json" for f in host.listdir(backup_dir))
    if args.json:
        print(json.dumps({"plan": plan_json, "result": {
            "written": result.written, "removed": result.removed, "kept": result.kept,
            "backup_dir": result.backup_dir if backups else None, "leftover": result.leftover,
            "conflicts_left": [i.id for i in undecided], "hooks_inert": result.inert}},
            indent=2, default=str))
    else:
        print(f"\nApplied: {count_of(len(result.written), 'file')} written, {len(result.removed)} removed.")
        for line in result.kept:
            print(f"Kept: {line}")
        if backups:
            print(f"Backups of what was replaced: {host.display(result.backup_dir)} "
                  "(index.json there maps each backup to its file)")
    if result.leftover:
        print("agentdeck: error: after applying, the plan still has changes: "
              + "; ".join(result.leftover), file=sys.stderr)
        return EXIT_ERROR
    if not args.json and not undecided:
        print(plan.after_apply_words())
    rc = _conflicts_left(host, plan)
    say_inert(result.inert, "applied, but")    # the effect is the last word
    return EXIT_PENDING if result.inert and rc == EXIT_OK else rc


def _conflicts_left(host: Host, plan) -> int:
    """Exit 2 and name them when conflicts are still undecided (everything else was applied);
    0 otherwise. A script can tell, as it can from `plan`."""
    undecided = plan.undecided_conflicts()
    if not undecided:
        return EXIT_OK
    print(f"agentdeck: {count_of(len(undecided), 'conflict')} left undecided, yours kept for now: "
          + "; ".join(f"{i.label or i.id} in {host.display(i.path)}" for i in undecided)
          + " (decide with --keep ID or --take ID)", file=sys.stderr)
    return EXIT_PENDING
