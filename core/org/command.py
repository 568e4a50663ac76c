"""`agentdeck org plan|apply|uninstall|status|drill` (wired into core/cli.py by `add_parsers`).

Root only: the org layer lives in root-owned system folders, and a plan computed as another user
would read them with the wrong eyes. Exit codes as the home's commands: plan 0 = nothing to do,
2 = changes pending, 1 = error; apply/uninstall 0 = applied, 2 = conflicts left, 1 = error;
status as plan, and 2 too when a CLI's layer file is the operator's own, kept (no org hook runs).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from .. import engine, plan_run
from ..errors import UserError
from ..names import check_name
from ..plan import KEPT_CLASSES, Decision
from ..targets import registry
from ..wording import count_of


def not_root() -> str:
    """Why `agentdeck org` refuses to run as another user, naming the system folders."""
    from ..facts import org as F   # local: not loaded by plan/apply/--help (core.cli imports this module)
    from .scope import system_dirs   # local: not loaded by plan/apply/--help (core.cli imports this module)

    dirs = [d for d in system_dirs() if d != F.STATE_DIR]
    return ("agentdeck org must run as root: the org layer is written to root-owned system "
            f"folders ({', '.join(dirs)})")


def add_parsers(sub, common) -> None:
    p = sub.add_parser("org", help="the organisation layer: a policy installed by root into each "
                                   "CLI's system layer, which the user cannot switch off")
    osub = p.add_subparsers(dest="org_cmd", metavar="ACTION")
    for name, helptext in (("plan", "show what org apply would change (exit 2 when pending)"),
                           ("apply", "show the plan, ask, then install the org layer"),
                           ("uninstall", "remove the org layer, giving each file back as it was"),
                           ("status", "one line per CLI: in sync, changes pending, not installed"),
                           ("drill", "prove it holds: a real offline turn of each CLI as an "
                                     "unprivileged user who first tries to switch it off")):
        q = osub.add_parser(name, help=helptext)
        common(q, profile=name not in ("uninstall",), decisions=name in ("plan", "apply", "uninstall"),
               yes=name != "plan", output=True)
        q.add_argument("--root", metavar="DIR", default=None,
                       help="put the org layer under DIR instead of / (an image being built, "
                            "tests); every system path gets DIR in front (default: "
                            "$AGENTDECK_ORG_ROOT when set, as the doctor and the app read it, "
                            "else /)")
        if name in ("plan", "apply", "status"):
            q.add_argument("--managed-hooks-only", action="store_true",
                           help="only the org layer's hooks run (Claude Code "
                                "allowManagedHooksOnly, Codex allow_managed_hooks_only): the "
                                "user's own hooks, agentdeck's audit hooks too, stop "
                                "(the profile's [org] managed_hooks_only, turned on)")
            q.add_argument("--no-bypass", action="store_true",
                           help="Claude Code: permissions.disableBypassPermissionsMode = "
                                "\"disable\" (--permission-mode bypassPermissions is refused; "
                                "the profile's [org] no_bypass, turned on)")
            q.add_argument("--mcp-allow", metavar="NAME", action="append", default=[],
                           help="only the MCP servers allowed may start: adds NAME to the "
                                "profile's [org] mcp_allowed (repeatable)")
            q.add_argument("--mcp-deny", metavar="NAME", action="append", default=[],
                           help="the MCP server NAME never starts: adds it to the profile's "
                                "[org] mcp_denied (repeatable)")
        if name == "plan":
            q.add_argument("--uninstall", action="store_true", help="plan the uninstall instead")
            q.add_argument("--diff", action="store_true",
                           help="with --json: also each file's text before and after")
        if name == "drill":
            q.add_argument("--user", metavar="UID:GID", default="65534:65534",
                           help="the unprivileged user the turns run as (default 65534:65534, "
                                "nobody)")
        if name in ("apply", "uninstall"):
            q.add_argument("--plan", metavar="FILE", dest="plan_file",
                           help="apply only the plan in FILE (an `org plan --json` document)")


def _scope(args, env=None):
    from .found import ROOT_ENV   # local: not loaded by plan/apply/--help (core.cli imports this module)
    from .scope import OrgScope   # local: not loaded by plan/apply/--help (core.cli imports this module)

    root = Path(args.root or (env or {}).get(ROOT_ENV) or "/")
    if not root.is_absolute():
        root = Path(os.path.abspath(root))
    names: dict[str, tuple[str, ...]] = {}
    for flag in ("mcp_allow", "mcp_deny"):
        got: list[str] = []
        for v in getattr(args, flag, None) or []:
            for n in v.split(","):
                n = n.strip()
                try:
                    check_name(n, "MCP server name")
                except ValueError as e:
                    raise UserError(f"--{flag.replace('_', '-')}: {e}") from None
                if n not in got:
                    got.append(n)
        names[flag] = tuple(got)
    return OrgScope(root, bool(getattr(args, "managed_hooks_only", False)),
                    bool(getattr(args, "no_bypass", False)), names["mcp_allow"],
                    names["mcp_deny"])


def cmd_org(args, make_host) -> int:
    action = getattr(args, "org_cmd", None)
    if not action:
        raise UserError("agentdeck org needs an action: plan, apply, uninstall, status or drill")
    if os.geteuid() != 0:
        raise UserError(not_root())
    host = make_host(args)
    scope = _scope(args, host.env)
    if not host.is_dir(scope.prefix):
        raise UserError(f"--root {scope.prefix} is not a directory")
    ohost = scope.host(host)
    plan_run.recover(ohost)
    profile = getattr(args, "profile", None) or engine.DEFAULT_PROFILE
    if action == "drill":
        from .drill import main as drill_main   # local: the org drill's modules load only for agentdeck org drill
        return drill_main(args, host, scope, profile)
    if action == "status":
        return _status(args, host, scope, profile)
    if action == "uninstall" or (action == "plan" and args.uninstall):
        plan = engine.build_uninstall_plan(host, args.target, scope=scope)
    else:
        plan = engine.build_plan(host, profile, args.target, scope=scope)
    if action == "plan":
        if args.diff and not args.json:
            raise UserError("--diff needs --json (the text plan shows each change already)")
        plan_run.apply_decisions(plan, args)
        if not args.json:
            print(f"org layer under {scope.prefix}")
        plan_run.print_plan(plan, ohost, args)
        if plan.errors:
            for t, e in plan.errors.items():
                print(f"agentdeck: error: {t}: {e}", file=sys.stderr)
            return plan_run.EXIT_ERROR
        return (plan_run.EXIT_PENDING if plan.has_changes or plan.undecided_conflicts()
                else plan_run.EXIT_OK)
    return plan_run.run_apply(ohost, plan, args)


def _layer_kept(plan, scope, target: str) -> str:
    """The layer file of `target` when the plan keeps the operator's own there (foreign,
    hand-edited or a conflict, not taken): the CLI then runs no org hook ("" otherwise)."""
    layer = str(scope.at(registry.part(target, "org").FACTS.path))
    for it in plan.for_target(target):
        if it.path == layer and it.cls in KEPT_CLASSES and plan.decision(it) == Decision.KEEP:
            return layer
    return ""


def _status(args, host, scope, profile) -> int:
    plan = engine.build_plan(host, profile, args.target, scope=scope)
    rows = []
    for t in plan.targets:
        if t in plan.errors:
            rows.append({"target": t, "state": f"error: {plan.errors[t]}", "installed": False,
                         "changes": None})
            continue
        c = plan.counts(t)
        m = plan.manifests.get(t)
        installed = bool(m is not None and m.entries)
        kept = _layer_kept(plan, scope, t)
        state = ", ".join(s for s in (
            f"not in effect: {kept} is kept as yours (the org hook is not in it; --take {kept} "
            "installs the layer)" if kept else "",
            f"{count_of(c['changes'], 'change')} pending" if c["changes"] and installed else "",
            "not installed" if not installed else "",
            f"{count_of(c['kept'], 'hand-edit')}" if c["kept"] else "",
            f"{count_of(c['conflict'], 'conflict')}" if c["conflict"] else "") if s) or "in sync"
        facts = registry.part(t, "org").FACTS
        rows.append({"target": t, "state": state, "installed": installed,
                     # what a user can still do that switches its hook off (observed)
                     "undone_by": dict(facts.undone_by), "verified": facts.verified,
                     "in_effect": installed and not kept,
                     "changes": c["changes"], "hand_edits": c["kept"],
                     "conflicts": c["conflict"]})
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        if scope.prefix != Path("/"):       # on stderr: stdout is one line per CLI
            print(f"org layer under {scope.prefix}", file=sys.stderr)
        for r in rows:
            undo = ""
            if r.get("undone_by") and r["installed"]:
                facts = registry.part(str(r["target"]), "org").FACTS
                undo = (f"; a user can still undo its hook ({registry.title(facts.target)} "
                        f"{facts.verified}): {', '.join(facts.undone_by)}")
            print(f"{r['target']:<8} {r['state']}{undo}")
    if plan.errors:
        return plan_run.EXIT_ERROR
    not_in_effect = any(r["installed"] and not r["in_effect"] for r in rows if "in_effect" in r)
    return (plan_run.EXIT_PENDING if plan.has_changes or plan.undecided_conflicts() or not_in_effect
            else plan_run.EXIT_OK)
