"""The core's public entry points: the CLI and the app both call these and nothing deeper.

    plan = engine.build_plan(host, "default", ["copilot"])
    result = engine.apply_plan(host, plan)          # executes exactly `plan` (with its decisions)

Home and repository are two scopes (core/scopes.py) behind one interface: the same plan, apply
and manifest engine; the plan carries its scope as data (`plan.scope`) and apply re-plans with it:

    plan = engine.build_repo_plan(host, "/path/to/repo", "default", cloud_setup=False)
    result = engine.apply_plan(host, plan)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import apply as applier
from . import plan as planner
from . import profiles, scopes
from .desired import DesiredState
from .desired import Notice
from .disk import DiskView
from .errors import UserError
from .host import Host, write_through_hint
from .kinds import kind_of
from .manifest import Manifest
from .output_guard import guard_state
from .plan import Plan
from .scopes import HOME, RepoScope, Scope
from .seal import seal
from .targets.base import RunOptions

DEFAULT_PROFILE = "default"


def select_targets(names: list[str] | None, profile_targets: list[str] | None = None,
                   host: Host | None = None) -> list[str]:
    """The home's targets a command covers (core.scopes.COVERAGE)."""
    return HOME.select(names, profile_targets, host)


def load_manifests(host: Host, view: DiskView | None = None,
                   scope: Scope = HOME) -> dict[str, Manifest]:
    """Every manifest of the scope, read through the one reader."""
    view = view or DiskView(host)
    return {n: view.manifest(n, p) for n, p in scope.manifest_paths(host).items()}


def installed_profile(host: Host, names: list[str] | None = None, *, scope: Scope | None = None,
                      view: DiskView | None = None) -> str:
    """The profile the home's last apply installed, as its manifests record it: the chosen
    targets' (`names`, default every target of the scope), else any target's (one not installed
    yet joins the home's profile); DEFAULT_PROFILE when none records one. When targets recorded
    different profiles, the one most of them record (the first in target order on a tie). A
    manifest that cannot be read is left to the plan to report."""
    scope = scope or HOME
    host = scope.host(host)
    view = view if view is not None else DiskView(host)
    try:
        chosen = scope.select(names, None)
    except UserError:
        return DEFAULT_PROFILE
    paths = scope.manifest_paths(host)

    def recorded(among) -> list[str]:
        out = []
        for n in among:
            try:
                m = view.manifest(n, paths[n]) if n in paths else None
            except UserError:
                continue
            if m is not None and m.profile and m.entries:
                out.append(m.profile)
        return out

    # the chosen targets' own record first; a target not installed yet takes the home's
    seen = recorded(chosen) or recorded(paths)
    if not seen:
        return DEFAULT_PROFILE
    return max(dict.fromkeys(seen), key=seen.count)


def build_plan(host: Host, profile_name: str | None = DEFAULT_PROFILE, names: list[str] | None = None,
               decisions: dict[str, str] | None = None,
               overrides: dict | None = None, trust_hooks: bool | None = None,
               repo: str | Path | None = None, cloud_setup: bool | str = False,
               choices: dict | None = None, *,
               scope: Scope | None = None, view: DiskView | None = None,
               keep_going: bool = False) -> Plan:
    """Resolve the profile, compute each target's desired state, and diff it against the
    manifests and the disk. Reads only, through one DiskView (`view`, built here unless the
    caller shares one, as the doctor does): every file is read once and becomes a plan input.

    Per-run choices reach each adapter as one `RunOptions` (targets/base.py): `overrides`
    ({"directives": {...}, "mcp_enabled": {"copilot": {"github": True}}}), `trust_hooks` (trust
    agentdeck's own hooks where the CLI gates hooks on trust, Codex's `[hooks.state]`: None, the
    default, trusts them unless the operator's layer says no; True/False: this run's choice).
    The operator's layer (core.overlay: the app's saved choices for this profile) is applied
    first and its files are plan items; `choices`: the layer as this plan should write it (the
    app's new choices), instead of the saved one (the scope decides: a repository has none).
    `scope`: the home (default) or a repository (`repo=DIR`, `cloud_setup` are its shorthand).
    Each target is planned on its own: a file that stops one target is that target's error
    (plan.errors, an error notice); the others are planned (all failing: the first raises,
    unless `keep_going`: then the plan holds only errors, as `status` reports them).
    `profile_name` None: the profile installed (installed_profile); a plan for another profile
    than a target's installed one says "profile: a -> b" (plan.installed_profiles)."""
    if scope is None:
        scope = RepoScope(repo, cloud_setup) if repo is not None else HOME
    host = scope.host(host)
    view = view if view is not None else DiskView(host)
    if profile_name is None:
        profile_name = installed_profile(host, names, scope=scope, view=view)
    prof = profiles.resolve(host, profile_name)
    chosen = scope.select(names, prof.targets, host)
    layer = scope.layer(host, profile_name, choices)
    run = scope.with_layer(layer, overrides)
    states, errors = [], {}
    for n in chosen:        # each target on its own: a broken file is that target's error only
        try:
            adapter = scope.adapter(n)
            opts = scope.options(n, run, trust_hooks)
            states.append(seal(guard_state(adapter.desired(adapter.profile_for(prof, opts), view, opts))))
        except UserError as e:
            errors[n] = e
    if errors and not states and not keep_going:
        raise next(iter(errors.values()))
    scope.add_layer_items(host, profile_name, layer, states)
    manifests = load_manifests(host, view, scope)
    for st in list(states):
        try:
            _read_actuals(view, st, manifests.get(st.target))
        except UserError as e:
            errors[st.target] = e
            states.remove(st)
    if errors and not states and not keep_going:
        raise next(iter(errors.values()))
    plan = planner.compute(host, profile_name, states, manifests, disk=view, selected=chosen)
    plan.scope = scope.to_json()
    plan.trust_choice = trust_hooks     # the plan computed again after apply asks the same
    scope.annotate(host, plan, view)        # can the registered hooks run? (hooks_inert, notices)
    for n, err in errors.items():
        plan.errors[n] = str(err)
        plan.notices[n] = [Notice("error", f"plan failed: {err}", err.path)]
    for k, v in (decisions or {}).items():
        plan.decide(k, v)
    return plan


def _read_actuals(view: DiskView, state: DesiredState, manifest: Manifest | None) -> None:
    """Read (through the view, so the plan reads nothing twice) what the planner will compare
    for one target: a file that does not parse is then that target's error, before the plan of
    every target is computed together (shared items are planned once)."""
    outside: set[str] = set()
    for d in state.items:
        kind = kind_of(d)
        kind.read_actual(view, d)
        if kind.edits_in_place and str(d.path) not in outside:
            _refuse_edit_outside(view.host, Path(d.path))
            outside.add(str(d.path))
    for e in (manifest.entries.values() if manifest is not None else ()):
        kind_of(e).read_actual(view, e)


def _refuse_edit_outside(host: Host, path: Path) -> None:
    """A file agentdeck edits (keys, a block) that is a symlink leading out of the home (a
    dotfiles checkout elsewhere) is written through only where the operator allows it
    (AGENTDECK_WRITE_THROUGH): otherwise apply would write there and uninstall could not undo it."""
    real = host.resolve_write_path(path)
    if real != path and not host.real_confined(real):
        raise UserError(f"{host.display(path)} is a symlink to {real}, outside the home: "
                        f"agentdeck does not edit it there unless you allow it; "
                        + write_through_hint(real))


def desired_states(host: Host, profile_name: str, names: list[str]) -> list[DesiredState]:
    prof = profiles.resolve(host, profile_name)
    view = DiskView(host)
    return [seal(guard_state(HOME.adapter(n).desired(prof, view))) for n in names]


def with_overrides(prof, overrides: dict | None, target: str):
    """The profile as one target sees it after the operator's per-run choices (a copy; the
    profile on disk is untouched): the adapter's own `profile_for` (Copilot's MCP-switch rules
    live in the Copilot adapter)."""
    if not overrides:
        return prof
    return HOME.adapter(target).profile_for(prof, RunOptions.for_target(target, overrides))


def build_uninstall_plan(host: Host, names: list[str] | None = None, *,
                         scope: Scope | None = None) -> Plan:
    """Everything agentdeck recorded for the targets, planned for removal (restoring what was
    there before us). Keys the operator changed since are kept and reported."""
    scope = scope or HOME
    host = scope.host(host)
    view = DiskView(host)
    chosen = scope.select(names, None)
    scope.check_uninstall(host)
    manifests = load_manifests(host, view, scope)
    for n in chosen:
        scope.adapter(n).migrate_manifest(manifests[n], view)
    states = [DesiredState(n) for n in chosen]
    plan = planner.compute(host, "(uninstall)", states, manifests, disk=view, selected=chosen)
    plan.mode = "uninstall"
    for it in plan.items:       # say what uninstall does, not that a profile stopped wanting it
        if it.cls == "remove" and it.entry is not None and it.reason == planner.NO_LONGER_WANTED:
            it.reason = _uninstall_reason(it.entry)
    plan.scope = scope.to_json()
    return plan


def _uninstall_reason(e) -> str:
    """What uninstall does with one thing agentdeck recorded (a remove item's reason)."""
    return kind_of(e).uninstall_reason(e)


# ---- repository scope: shorthands ----------------------------------------------------------------

def build_repo_plan(host: Host, repo_dir: str | Path, profile_name: str = DEFAULT_PROFILE,
                    cloud_setup: bool | str = False,
                    decisions: dict[str, str] | None = None) -> Plan:
    """The plan for a repository's hooks (agentdeck.core.targets.repo): `.github/hooks/agentdeck.json`
    and its committed wrapper, read by Copilot CLI (trusted folders), VS Code agent mode and the
    Copilot cloud agent. One target, "repo"; plan.output["repo"].repo (a RepoReport) is the
    repository pane's data (root, per-event readers and dialects, folder trust, other hook
    sources, cloud setup).
    `cloud_setup`: False keeps agentdeck's copilot-setup-steps.yml step only if it was applied
    before; True (or a pip requirement such as "agentdeck==0.1.0" or a git URL) plans it;
    "remove" plans its removal. Reads only."""
    return build_plan(host, profile_name, decisions=decisions,
                      scope=RepoScope(repo_dir, cloud_setup))


def build_repo_uninstall_plan(host: Host, repo_dir: str | Path) -> Plan:
    """Everything agentdeck recorded for this repository, planned for removal."""
    return build_uninstall_plan(host, scope=RepoScope(repo_dir))


def repo_of(plan: Plan) -> str | None:
    """The repository a plan was built for (None: a home plan)."""
    scope = getattr(plan, "scope", None) or {}
    return scope.get("root") if scope.get("kind") == "repo" else None


@dataclass
class Recompute:
    """The plan computed again after an apply: same scope, profile and targets."""
    host: Host
    profile: str
    names: list[str]
    uninstall: bool = False
    scope: Scope = field(default_factory=lambda: HOME)
    trust_hooks: bool | None = None

    def __call__(self) -> Plan:
        if self.uninstall:
            return build_uninstall_plan(self.host, self.names, scope=self.scope)
        return build_plan(self.host, self.profile, self.names, scope=self.scope,
                          trust_hooks=self.trust_hooks)


def apply_plan(host: Host, plan: Plan, progress: Callable[[str], None] | None = None,
               leave_conflicts: bool = False) -> applier.ApplyResult:
    """Apply exactly `plan` (of whichever scope it carries); afterwards the plan is computed
    again and anything left is reported in result.leftover."""
    if getattr(plan, "errors", None):
        raise UserError(plan_errors_message(plan))
    scope = scope_of(getattr(plan, "scope", None))
    host = scope.host(host)
    again = Recompute(host, plan.profile, plan.targets, uninstall=plan.mode == "uninstall",
                      scope=scope, trust_hooks=getattr(plan, "trust_choice", None))
    return applier.run(host, plan, recompute=again, progress=progress,
                       leave_conflicts=leave_conflicts)


def scope_of(data: dict | None) -> Scope:
    """The scope a plan's JSON names: the home and a repository (core.scopes), or the org layer
    (core.org.scope, a feature above the scopes)."""
    if isinstance(data, dict) and data.get("kind") == "org":
        from .org.scope import OrgScope   # local: only an org plan needs the org layer's code
        return OrgScope.from_json(data)
    return scopes.from_json(data)


def plan_errors_message(plan: Plan) -> str:
    """Why a plan with a target in error is not applied, and how to go on."""
    ok = [t for t in plan.targets if t not in plan.errors]
    hint = (f"; fix it, or apply the others alone with --target {','.join(ok)}" if ok else "")
    return ("nothing applied: " + "; ".join(f"{t}: {e}" for t, e in plan.errors.items()) + hint)


def cli_version(host: Host, target: str) -> tuple[bool, str | None]:
    """(installed, version) of a target's CLI without running it: the version comes from the
    CLI's npm package.json or its versioned install path, as the doctor reads it; None when it
    cannot be read that way. Starts no process (running a CLI can unpack files into the home)."""
    from .installed import cli_info   # local: status reads the CLIs' versions, a plan does not

    info = cli_info(host, target, live=False)
    return info.exe is not None, info.version


def recover(host: Host) -> str | None:
    """Roll back an apply that was interrupted (crash, kill). Safe to call any time. A journal
    that cannot be acted on safely is reported before the home's lock is even taken."""
    host = scopes.of_journal(host).host(host)   # an interrupted repository apply: that repo too
    if applier.read_journal(host) is None:
        return None
    with applier.home_lock(host):
        return applier.recover(host)
