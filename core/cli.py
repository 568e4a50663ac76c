"""agentdeck's command line: plan, apply, uninstall, status, profiles, doctor, demo, tui, drill,
activity, policy, org.

Exit codes: plan 0 = nothing to do, 2 = changes pending, 1 = error;
apply/uninstall 0 = applied, 2 = applied but conflicts are left undecided or hooks are inert
(named on stderr, with the fix), 1 = error or cancelled. Every
operator mistake is one line on stderr and exit 1, never a traceback. Textual is imported only
when the app opens. The options every command shares (--home, --profile, --target, --json,
--verbose) are accepted before the command too: `agentdeck --home DIR plan`.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, cast

from . import __version__, engine, hooks_health, profiles, targets
from .apply import inert_after, journal_path
from .errors import UserError
from .formats.errors import FormatError
from .host import Host, HostError, os_error_line
from .interrupt import EXIT_INTERRUPTED, INTERRUPTED, STATE, hand_back
from .org.command import cmd_org
from .plan import shared_words
from .plan_run import (EXIT_ERROR, EXIT_OK, EXIT_PENDING, apply_decisions, print_plan, recover,
                       run_apply, say_inert, titles)
from .policy import commands
from .targets.registry import BUILTIN as _TARGET_NAMES
from .wording import count_of

#: the --target help: the registered targets' names, in display order
_TARGETS = ", ".join(_TARGET_NAMES)


def _common(p: argparse.ArgumentParser, *, profile: bool = True, decisions: bool = False,
            target: bool = True, output: bool = True, yes: bool = True) -> None:
    p.add_argument("--home", metavar="DIR", help="use DIR as the home (default: $HOME)")
    if target:
        p.add_argument("--target", "-t", action="append", metavar="T",
                       help=f"{_TARGETS} (repeat or comma-separate; default: the profile's)")
    if profile:
        p.add_argument("--profile", "-p", default=None, metavar="NAME",
                       help="profile to install (default: the one installed, else "
                            f"{engine.DEFAULT_PROFILE})")
    if output:
        p.add_argument("--json", action="store_true", help="machine-readable output")
        p.add_argument("--verbose", "-v", action="store_true", help="show unchanged items and ids")
    if decisions:
        if yes:
            p.add_argument("--yes", "-y", action="store_true", help="apply without asking")
        p.add_argument("--keep", action="append", default=[], metavar="ID",
                       help="keep your value for this item (hand-edits and conflicts)")
        p.add_argument("--take", action="append", default=[], metavar="ID",
                       help="take the profile's value for this item")
        p.add_argument("--skip", action="append", default=[], metavar="ID",
                       help="leave this change out of the apply")


def _trust_flag(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--trust-hooks", action="store_const", const=True, default=None,
                   help="trust agentdeck's own hooks where the CLI runs only trusted hooks (Codex: "
                        "their trusted_hash in config.toml); the default unless your layer says no, "
                        "and a trusted_hash you changed is then a conflict to decide")
    g.add_argument("--no-trust-hooks", dest="trust_hooks", action="store_const", const=False,
                   help="do not trust agentdeck's hooks this run (Codex then skips them: the "
                        "apply ends with exit 2 saying so); the app's Hooks tab keeps that choice")


def _fleet_flags(p: argparse.ArgumentParser, *, planning: bool) -> None:
    """Flags for programs that review a plan first and apply it later (docs/fleet.md)."""
    if planning:
        p.add_argument("--uninstall", action="store_true",
                       help="plan the uninstall instead (what `agentdeck uninstall` would do)")
        p.add_argument("--diff", action="store_true",
                       help="with --json: also each file's text before and after (`files`, "
                            "credentials redacted)")
    else:
        p.add_argument("--plan", metavar="FILE", dest="plan_file",
                       help="apply only the plan in FILE (a `plan --json` document; - reads "
                            "stdin): refused, nothing written, if the plan computed now differs")


def _repo_flags(p: argparse.ArgumentParser, *, cloud: bool = True) -> None:
    p.add_argument("--repo", metavar="DIR",
                   help="work on the repository at DIR instead of the home: the hooks it carries "
                        "for Copilot CLI, VS Code agent mode and the Copilot cloud agent "
                        "(.github/hooks/)")
    if cloud:
        g = p.add_mutually_exclusive_group()
        g.add_argument("--cloud-setup", nargs="?", const=True, default=False, metavar="SPEC",
                       help="with --repo: also add a step to .github/workflows/"
                            "copilot-setup-steps.yml that installs the hook handler for the "
                            "cloud agent (SPEC: what pipx installs; default agentdeck==<this "
                            "version> from PyPI)")
        g.add_argument("--no-cloud-setup", dest="cloud_setup", action="store_const",
                       const="remove", help="with --repo: take agentdeck's setup step out again")


def _repo_args(args) -> tuple[str | None, bool | str]:
    """(repository, cloud_setup) from the flags; a repo-only flag without --repo is an error."""
    repo = getattr(args, "repo", None)
    cloud = getattr(args, "cloud_setup", False)
    if repo is None:
        if cloud not in (False, None):
            raise UserError("--cloud-setup and --no-cloud-setup need --repo DIR")
        return None, False
    if getattr(args, "target", None):
        raise UserError("--target does not apply with --repo (a repository's hooks serve Copilot "
                        "CLI, VS Code and the cloud agent at once)")
    if getattr(args, "trust_hooks", None) is not None:
        raise UserError("--trust-hooks does not apply with --repo (Copilot CLI trusts a "
                        "repository by folder, in its config.json, which agentdeck never writes)")
    return repo, cloud


#: options a command may also be given before its name: (flags, argparse keywords)
GLOBAL_OPTIONS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "home": (("--home",), {"metavar": "DIR", "help": "use DIR as the home (default: $HOME)"}),
    "profile": (("--profile", "-p"), {"metavar": "NAME", "help": "profile to install"}),
    "target": (("--target", "-t"), {"action": "append", "metavar": "T",
                                    "help": f"{_TARGETS} (repeat or comma-separate)"}),
    "json": (("--json",), {"action": "store_true", "help": "machine-readable output"}),
    "verbose": (("--verbose", "-v"), {"action": "store_true",
                                      "help": "show unchanged items and ids"}),
}


class _Rebuild(Exception):
    """The command line names a command `parser(only=...)` did not build: build them all."""


class _Unbuilt:
    """A command's parser that was not built: whatever is added to it is dropped, and being
    asked to parse (the guess of `_named_command` was wrong) raises _Rebuild."""

    def __getattr__(self, name: str) -> Any:
        return lambda *a, **k: self

    def parse_known_args(self, *a: Any, **k: Any) -> Any:
        raise _Rebuild


class _SomeCommands(argparse._SubParsersAction):
    """The subcommands action building the parser of one command only (`only`; None: all): the
    others keep their name and help line (the top-level help and an invalid choice read the
    same), their options are not added. Building every command's options is ~5% of a short
    command's start-up (~25 M instructions of ~530 M for `apply --target copilot --yes`)."""
    only: str | None = None

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if self.only is None or name == self.only:
            return super().add_parser(name, **kwargs)
        if "help" in kwargs:
            self._choices_actions.append(self._ChoicesPseudoAction(name, (), kwargs["help"]))
        self._name_parser_map[name] = unbuilt = _Unbuilt()
        return unbuilt


def _named_command(argv: list[str]) -> str | None:
    """The first word of the command line that is a command's name: the command, unless an
    option's value spells one (`--profile plan apply`), which _Rebuild then corrects."""
    return next((a for a in argv if a in COMMANDS), None)


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; `only`: build that command's options only (the others are
    listed by name and help; see _SomeCommands)."""
    ap = argparse.ArgumentParser(prog="agentdeck", description=(
        "Install, review and audit the configuration of AI coding-agent CLIs. "
        "Nothing is written until you apply a plan you have seen."))
    ap.add_argument("--version", action="version", version=f"agentdeck {__version__}")
    g = ap.add_argument_group("options of the commands, accepted before the command too")
    for name, (flags, kw) in GLOBAL_OPTIONS.items():
        g.add_argument(*flags, dest=f"_global_{name}", **kw)
    ap.register("action", "parsers", _SomeCommands)
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND")
    cast(_SomeCommands, sub).only = only
    p = sub.add_parser("plan", help="show what apply would change (exit 2 when changes are pending)")
    _common(p, decisions=True, yes=False)
    _trust_flag(p)
    _repo_flags(p)
    _fleet_flags(p, planning=True)
    p = sub.add_parser("apply", help="show the plan, ask, then apply it")
    _common(p, decisions=True)
    _trust_flag(p)
    _repo_flags(p)
    _fleet_flags(p, planning=False)
    p = sub.add_parser("uninstall", help="plan and apply the removal of everything agentdeck wrote")
    _common(p, profile=False, decisions=True)
    _repo_flags(p, cloud=False)
    _fleet_flags(p, planning=False)
    p = sub.add_parser("status", help="one line per target: in sync, changes pending, hand-edits")
    _common(p)
    _repo_flags(p, cloud=False)
    p = sub.add_parser("profiles", help="list the profiles and where they come from")
    _common(p, profile=False, target=False)
    p = sub.add_parser("doctor", help="audit what each CLI will really load")
    _common(p)
    p.add_argument("--live", action="store_true", help="also ask each installed CLI what it loaded")
    p.add_argument("--drill", action="store_true",
                   help="also the drill (as `agentdeck drill`): a real offline turn of each CLI "
                        "beside the live checks (implies --live)")
    p.add_argument("--layers", action="store_true",
                   help="also each CLI's layers (org, environment, project, home), strongest "
                        "first: which one decides its hooks now, and which can undo agentdeck's")
    p.add_argument("--since", metavar="FILE",
                   help="also compare with FILE, an earlier `agentdeck doctor --json`: a CLI whose "
                        "enforcement weakened since (hooks no longer live, a guard gone, a layer "
                        "that undoes the hooks appeared, a rule or evasion class the drill held "
                        "no longer held) is an error (exit 1)")
    p.add_argument("--export", metavar="FILE",
                   help="also write the report as one self-contained HTML page (no script, no "
                        "network) to FILE, to attach to a ticket")
    _repo_flags(p, cloud=False)
    p = sub.add_parser("drill", help="prove the hooks run: one real offline turn of each CLI "
                                     "against a local scripted model (exit 1 unless all ok)")
    p.add_argument("--home", metavar="DIR", help="use DIR as the home (default: $HOME)")
    p.add_argument("--target", "-t", action="append", metavar="T",
                   help=f"{_TARGETS} (repeat or comma-separate; default: the profile's)")
    p.add_argument("--profile", "-p", default=None, metavar="NAME",
                   help=f"the profile installed (default: the one the last apply recorded, else "
                        f"{engine.DEFAULT_PROFILE})")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--matrix", action="store_true",
                   help="the enforcement matrix: a few cases of each class of the shipped evasion "
                        "corpus, in a real offline turn of each installed CLI with the corpus's "
                        "policy installed in a scratch home (your home is not touched); prints "
                        "per class and CLI version: held, asked, not held, over-blocked, not seen")
    p = sub.add_parser("demo", help="make a throwaway home with a realistic setup and open the app on it")
    p.add_argument("--dir", metavar="DIR", help="where to make the demo home (default: a new temp dir)")
    p.add_argument("--no-tui", action="store_true", help="print the plan instead of opening the app")
    p = sub.add_parser("tui", help="open the app")
    _common(p, output=False)
    p.add_argument("--onboard", action="store_true", help="start with the onboarding walkthrough")
    p.add_argument("--repo", metavar="DIR",
                   help="open the repository screen on DIR: the hooks it carries for Copilot CLI, "
                        "VS Code agent mode and the Copilot cloud agent (.github/hooks/)")
    from .policy.commands import add_parsers as policy_parsers   # activity, policy test|show
    policy_parsers(sub, _common)
    from .org.command import add_parsers as org_parsers       # org plan|apply|uninstall|...
    org_parsers(sub, _common)
    return ap


def interrupted_words() -> str:
    """What a Ctrl-C in a command met, said as it is: in the middle of an apply, the files it had
    written are put back now (its journal), not at the next command; after an apply had finished,
    everything was applied; otherwise nothing more was written."""
    host = STATE.get("host")
    if isinstance(host, Host) and host.exists(journal_path(host)):
        try:
            msg = engine.recover(host)
        except (UserError, HostError) as e:
            return (f"agentdeck: interrupted during the apply; putting back what it wrote failed: "
                    f"{e}")
        return (f"agentdeck: interrupted during the apply; {msg or 'rolled back'}: the files are "
                "as they were before it")
    if STATE.get("applied"):
        return ("agentdeck: interrupted after the apply had finished: everything in the plan "
                "was applied (`agentdeck status` shows the home)")
    return INTERRUPTED


def make_host(args) -> Host:
    home = getattr(args, "home", None)
    host = Host.from_environment(home)
    STATE["host"] = host         # what a Ctrl-C meets (interrupted_words)
    if home is not None and not host.is_dir(host.home):
        if host.exists(host.home, follow=True):
            raise UserError(f"--home {home} is not a folder (a file or another kind of entry is "
                            "there): give the home folder")
        raise UserError(f"--home {home} does not exist; create it first (agentdeck never creates "
                        "a home)")
    return host


def cmd_plan(args) -> int:
    repo, cloud = _repo_args(args)
    if args.diff and not args.json:
        raise UserError("--diff needs --json (the text plan shows each change already)")
    host = make_host(args)
    recover(host)
    if args.uninstall:
        plan = (engine.build_repo_uninstall_plan(host, repo) if repo is not None
                else engine.build_uninstall_plan(host, args.target))
    else:
        plan = engine.build_plan(host, args.profile, args.target,
                                 trust_hooks=args.trust_hooks, repo=repo, cloud_setup=cloud)
    apply_decisions(plan, args)
    print_plan(plan, host, args)
    if plan.errors:     # the other targets are planned and shown; this one is not
        for t, e in plan.errors.items():
            print(f"agentdeck: error: {t}: {e}", file=sys.stderr)
        return EXIT_ERROR
    if not args.uninstall:   # said before apply; the exit stays about what apply would change
        say_inert(inert_after(plan), "after this plan,")
    return EXIT_PENDING if plan.has_changes or plan.undecided_conflicts() else EXIT_OK


def cmd_apply(args) -> int:
    repo, cloud = _repo_args(args)
    host = make_host(args)
    recover(host)
    plan = engine.build_plan(host, args.profile, args.target,
                             trust_hooks=args.trust_hooks, repo=repo, cloud_setup=cloud)
    return run_apply(host, plan, args)


def cmd_uninstall(args) -> int:
    repo, _ = _repo_args(args)
    host = make_host(args)
    recover(host)
    if repo is not None:
        plan = engine.build_repo_uninstall_plan(host, repo)
        return run_apply(host, plan, args)
    plan = engine.build_uninstall_plan(host, args.target)
    return run_apply(host, plan, args)


def cmd_status(args) -> int:
    """One row per target. A target whose plan failed shows its one-line error (exit 1), never
    "in sync"; it is judged against the profile installed unless --profile names another."""
    repo, _ = _repo_args(args)
    host = make_host(args)
    recover(host)      # a half-applied home is rolled back before it is reported on
    plan = engine.build_plan(host, args.profile, args.target, repo=repo, keep_going=True)
    rows: list[dict[str, Any]] = []
    any_inert = False
    for t in plan.targets:
        if t in plan.errors:
            rows.append({"target": t, "state": f"error: {plan.errors[t]}", "error": plan.errors[t],
                         "profile": plan.profile, "changes": None, "shared": None,
                         "hand_edits": None,
                         "conflicts": None, "warnings": 0, "hooks_inert": []})
            continue
        c = plan.counts(t)      # the plan's one counter (status has no decisions: the defaults)
        changes, kept, conflicts = c["changes"], c["kept"], c["conflict"]
        shared = plan.shared_changes(t)     # counted in another target's row: named, not lost
        inert = hooks_health.inert(plan, t, now=True)     # as the home is now
        state = ", ".join(
            s for s in (shared_words(changes, shared),
                        f"{count_of(kept, 'hand-edit')}" if kept else "",
                        f"{count_of(conflicts, 'conflict')}" if conflicts else "",
                        hooks_health.state_text(plan, t, now=True)) if s) or "in sync"
        warnings = [n.message for n in plan.notices.get(t, []) if n.level in ("warning", "error")]
        rows.append({"target": t, "state": state, "error": None, "profile": plan.profile,
                     "changes": changes, "shared": shared, "hand_edits": kept,
                     "conflicts": conflicts, "warnings": len(warnings),
                     "hooks_inert": [{"code": i.code, "reason": i.reason, "fix": i.fix}
                                     for i in inert]})
        any_inert = any_inert or bool(inert)
    _add_upgrades(host, rows)
    if not args.target and repo is None:
        rows += _installed_elsewhere(host, plan)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            extra = (f"; {count_of(r['warnings'], 'warning')}, see agentdeck plan or doctor"
                     if r["warnings"] else "")
            print(f"{r['target']:<8} {r['state']}{extra}")
            if r.get("upgrade"):
                print(f"{'':<8} {r['upgrade']}")
        if not args.target and repo is None:
            print(f"covered: {coverage_line(host, plan.profile)}")
    if plan.errors:
        return EXIT_ERROR
    return EXIT_PENDING if plan.has_changes or plan.undecided_conflicts() or any_inert else EXIT_OK


def _add_upgrades(host: Host, rows: list[dict[str, Any]]) -> None:
    """Each target row's upgrade notice (core/upgrade.py): its CLI's version differs from the
    one agentdeck's facts were verified on, or from the last drill that held here."""
    from . import upgrade   # local: status and the doctor ask it, no other command
    from .drill import record   # local: the drill's record on this machine, for status only

    records = record.load(host)
    for r in rows:
        if r.get("target") in _TARGET_NAMES:
            r["upgrade"] = upgrade.notice(host, r["target"], records=records)


def coverage_line(host: Host, profile_name: str) -> str:
    """Which targets a command covers without --target, and why (core.scopes.COVERAGE)."""
    from .scopes import found_targets   # local: status and the app ask it, no other command

    named = [t for t in profiles.resolve(host, profile_name).targets or []]
    if named:
        return f"{', '.join(named)}: the profile {profile_name} names them (--target chooses others)"
    found = found_targets(host)
    if found:
        return (f"{', '.join(found)}: every CLI installed (on PATH) or with a home folder here "
                "(--target chooses)")
    return "every CLI: none is installed or has a home folder here (--target chooses)"


def _installed_elsewhere(host: Host, plan) -> list[dict[str, Any]]:
    """A row for each target agentdeck installed (its manifest is there) that the profile does
    not list, so status never leaves out what is on disk: it is not planned here."""
    rows: list[dict[str, Any]] = []
    for t in targets.available():
        if t in plan.targets or not host.is_file(targets.manifest_path(t, host)):
            continue
        rows.append({"target": t, "error": None, "profile": plan.profile, "changes": None,
                     "shared": None, "hand_edits": None, "conflicts": None, "warnings": 0, "hooks_inert": [],
                     "state": f"installed, not in profile {plan.profile}'s targets: "
                              f"`agentdeck status --target {t}`"})
    return rows


def cmd_profiles(args) -> int:
    host = make_host(args)
    refs = profiles.available(host)
    if args.json:
        print(json.dumps([{"name": r.name, "origin": r.origin, "path": str(r.path),
                           "description": r.description, "overrides_bundled": r.shadows_bundled,
                           "valid": r.error is None, "error": r.error}
                          for r in refs.values()], indent=2))
        return EXIT_OK
    for r in sorted(refs.values(), key=lambda r: r.name):
        note = " (overrides the bundled one)" if r.shadows_bundled else ""
        mark = "  INVALID" if r.error else ""
        print(f"{r.name:<16} {r.origin:<9} {host.display(r.path)}{note}{mark}")
        if r.description:
            print(f"{'':<16} {r.description}")
        if r.error:
            print(f"{'':<16} error: {r.error}")
    return EXIT_OK


def cmd_doctor(args) -> int:
    if getattr(args, "repo", None):
        if getattr(args, "export", None):
            raise UserError("doctor --repo has no --export yet: export the home's report "
                            "(`agentdeck doctor --export FILE`)")
        if getattr(args, "drill", False):
            raise UserError("doctor --repo has no --drill: the drill runs each CLI in your home "
                            "(`agentdeck drill`)")
        _repo_args(args)
        from .doctor import repo_checks   # local: the repo checks load only for doctor --repo
        return repo_checks.main(args, make_host(args))
    try:
        from .doctor import report   # local: the doctor's modules load only for agentdeck doctor
    except ImportError:
        raise UserError("the doctor is not available in this build") from None
    host = make_host(args)
    args.profile = args.profile or engine.installed_profile(host, args.target)
    return report.main(args, host)


def _open_app(host: Host, args, onboard: bool = False) -> int:
    try:
        from agentdeck.app.app import run_app   # local: Textual loads only when the app opens
    except ImportError as e:
        if "textual" in str(e) or "app" in str(e):
            print(f"agentdeck: the app is not available ({e}); printing the plan instead.",
                  file=sys.stderr)
            plan = engine.build_plan(host, getattr(args, "profile", None) or engine.DEFAULT_PROFILE,
                                     getattr(args, "target", None))
            from .render import render_plan   # local: the plan's text only when one is printed
            print(render_plan(plan, host, titles=titles()))
            return EXIT_OK
        raise
    return run_app(host, profile=getattr(args, "profile", None) or engine.DEFAULT_PROFILE,
                   targets=getattr(args, "target", None), onboard=onboard,
                   repo=getattr(args, "repo", None))


def cmd_demo(args) -> int:
    from . import demo   # local: the demo home's builder only for agentdeck demo

    root = Path(args.dir) if args.dir else None
    home = demo.make_demo_home(root)
    host = Host.from_environment(home, env=demo.demo_env(home))
    print(f"agentdeck demo: a throwaway home with a realistic setup is at {home}")
    print(f"  (try: agentdeck plan --home {home})")
    if args.no_tui or not sys.stdout.isatty():
        from .render import render_plan   # local: the plan's text only when one is printed
        plan = engine.build_plan(host)
        print()
        print(render_plan(plan, host, titles=titles()))
        return EXIT_OK
    return _open_app(host, args)


def cmd_tui(args) -> int:
    host = make_host(args)
    recover(host)
    # the same one-line errors as every other command, before the app opens
    args.profile = args.profile or engine.installed_profile(host, args.target)
    prof = profiles.resolve(host, args.profile)
    if args.target:
        engine.select_targets(args.target, prof.targets)
    return _open_app(host, args, onboard=args.onboard)


COMMANDS = {"plan": cmd_plan, "apply": cmd_apply, "uninstall": cmd_uninstall, "status": cmd_status,
            "profiles": cmd_profiles, "doctor": cmd_doctor, "demo": cmd_demo, "tui": cmd_tui,
            "drill": lambda args: _drill(args)}


def _drill(args) -> int:
    from .drill import command   # local: the drill's modules load only for agentdeck drill
    host = make_host(args)
    args.profile = args.profile or engine.installed_profile(host, args.target)
    return command.main(args, host)


def _merge_global_options(ap: argparse.ArgumentParser, args) -> None:
    """Options given before the command join the command's own (given after it, they win);
    one the command does not have is refused as argparse refuses any unknown option."""
    for name in GLOBAL_OPTIONS:
        val = getattr(args, f"_global_{name}")
        delattr(args, f"_global_{name}")
        if val in (None, False, []):
            continue
        if not args.cmd:
            continue
        if not hasattr(args, name):
            ap.error(f"{GLOBAL_OPTIONS[name][0][0]} does not apply to {args.cmd}")
        cur = getattr(args, name)
        if name == "target":
            setattr(args, name, list(val) + list(cur or []))
        elif cur in (None, False):
            setattr(args, name, val)


def _policy_command(name: str):
    def run(args) -> int:
        return getattr(commands, f"cmd_{name}")(args, make_host)
    return run


COMMANDS.update(activity=_policy_command("activity"), policy=_policy_command("policy"))


def _org(args) -> int:
    return cmd_org(args, make_host)


COMMANDS["org"] = _org


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        ap = parser(_named_command(argv))
        args = ap.parse_args(argv)
    except _Rebuild:
        ap = parser()
        args = ap.parse_args(argv)
    _merge_global_options(ap, args)
    if not args.cmd:
        ap.print_help()
        return EXIT_OK
    try:
        hand_back()       # start-up is over: Ctrl-C now stops the command cleanly (below)
        return COMMANDS[args.cmd](args)
    except (UserError, FormatError, HostError) as e:
        print(f"agentdeck: error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except OSError as e:      # any the Host did not word itself: still one line, no traceback
        if isinstance(e, BrokenPipeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return EXIT_ERROR
        print(f"agentdeck: error: {os_error_line(e.filename or '?', 'access', e)}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(interrupted_words(), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
