"""The core's public entry points: the CLI and the app both call these and nothing deeper.

    plan = engine.build_plan(host, "default", ["copilot"])
    result = engine.apply_plan(host, plan)          # executes exactly `plan` (with its decisions)

Repository scope (agentdeck.core.targets.repo): the same plan, apply and manifest engine, planned into a
repository instead of the home; its manifest lives in the state dir, keyed by the repository's
path:

    plan = engine.build_repo_plan(host, "/path/to/repo", "default", cloud_setup=False)
    result = engine.apply_plan(host, plan)
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from . import apply as applier
from . import overlay
from . import plan as planner
from . import hooks_health, profiles, targets
from .desired import DesiredState
from .disk import DiskView
from .errors import UserError
from .host import Host
from .manifest import Manifest
from .output_guard import guard_state
from .plan import Plan

DEFAULT_PROFILE = "default"


def select_targets(names: list[str] | None, profile_targets: list[str] | None = None) -> list[str]:
    known = targets.available()
    if not names:
        chosen = [t for t in (profile_targets or known) if t in known]
        return chosen or known
    out: list[str] = []
    for n in names:
        for part in n.split(","):
            part = part.strip()
            if not part:
                continue
            if part not in targets.ADAPTERS:
                raise UserError(f"unknown target {part!r} (known: {', '.join(targets.ORDER)})")
            if part not in known:
                raise UserError(f"target {part!r} is not available in this build")
            if part not in out:
                out.append(part)
    if not out:
        raise UserError(f"no target named (known: {', '.join(targets.ORDER)})")
    return out


def load_manifests(host: Host) -> dict[str, Manifest]:
    out = {}
    for name in targets.available():
        out[name] = Manifest.load(host, name, targets.manifest_path(name, host))
    return out


def desired_states(host: Host, profile_name: str, names: list[str]) -> list[DesiredState]:
    prof = profiles.resolve(host, profile_name)
    return [guard_state(targets.get(n).desired(prof, host)) for n in names]


def build_plan(host: Host, profile_name: str = DEFAULT_PROFILE, names: list[str] | None = None,
               decisions: dict[str, str] | None = None,
               overrides: dict | None = None, trust_hooks: bool = False,
               repo: str | Path | None = None, cloud_setup: bool | str = False,
               choices: dict | None = None) -> Plan:
    """Resolve the profile, compute each target's desired state, and diff it against the
    manifests and the disk. Reads only. `overrides` are per-run choices (see `with_overrides`).
    The operator's layer (core.overlay: the app's saved choices for this profile) is applied
    first and its files are plan items; `choices`: the layer as this plan should write it
    (the app's new choices), instead of the saved one.
    `trust_hooks`: the operator asks to trust agentdeck's own hooks where the CLI gates hooks on
    trust (Codex: `[hooks.state]` trusted_hash items join the plan).
    `repo`: plan the repository at that path instead of the home (`build_repo_plan`)."""
    if repo is not None:
        return build_repo_plan(host, repo, profile_name, cloud_setup=cloud_setup,
                               decisions=decisions)
    prof = profiles.resolve(host, profile_name)
    chosen = select_targets(names, prof.targets)
    layer = overlay.load(host, profile_name) if choices is None else overlay.validate(choices)
    run = overlay.merge(layer, overrides)
    states = [_desired(targets.get(n), with_overrides(prof, run, n), host, trust_hooks)
              for n in chosen]
    overlay.add_items(host, profile_name, layer, states)
    plan = planner.compute(host, profile_name, states, load_manifests(host), disk=DiskView(host),
                           selected=chosen)
    hooks_health.annotate(host, plan)      # can the registered hooks run? (plan.info, notices)
    for k, v in (decisions or {}).items():
        plan.decide(k, v)
    return plan


def _desired(target, prof, host: Host, trust_hooks: bool) -> DesiredState:
    if trust_hooks and getattr(target, "supports_trust_hooks", False):
        return guard_state(target.desired(prof, host, trust_hooks=True))
    return guard_state(target.desired(prof, host))


def with_overrides(prof, overrides: dict | None, target: str):
    """The profile as one target sees it after the operator's per-run choices (a copy; the
    profile on disk is untouched). `overrides`:

      {"directives": {"mcpDefaultDisabled": False, "browserCommand": "auto", ...},
       "mcp_enabled": {"copilot": {"github": True, "memory": False}}}

    A server switched on joins mcpAlwaysEnabled (and leaves the profile's disabledMcpServers);
    switched off, it leaves mcpAlwaysEnabled and, unless mcpDefaultDisabled already disables it,
    joins the profile's copilot/settings.json disabledMcpServers. The adapters then plan it like
    any profile value, so names the operator disabled in the CLI itself stay theirs."""
    if not overrides:
        return prof
    mcp = (overrides.get("mcp_enabled") or {}).get(target) or {}
    directives = overrides.get("directives") or {}
    if not mcp and not directives:
        return prof
    from .model import Directives

    p = prof.model_copy(deep=True)
    if directives:
        p.directives = Directives.model_validate({**p.directives.model_dump(), **directives})
    if not mcp:
        return p
    always = list(p.directives.mcpAlwaysEnabled)
    settings = dict(p.native.get("copilot/settings.json", {}))
    disabled = settings.get("disabledMcpServers")
    disabled = [n for n in disabled if isinstance(n, str)] if isinstance(disabled, list) else []
    for name, on in mcp.items():
        if on:
            always += [name] if name not in always else []
            disabled = [n for n in disabled if n != name]
        else:
            always = [n for n in always if n != name]
            if not p.directives.mcpDefaultDisabled and name not in disabled:
                disabled.append(name)
    p.directives.mcpAlwaysEnabled = always
    if disabled or "disabledMcpServers" in settings:
        settings["disabledMcpServers"] = disabled
        p.native = {**p.native, "copilot/settings.json": settings}
    return p


def build_uninstall_plan(host: Host, names: list[str] | None = None) -> Plan:
    """Everything agentdeck recorded for the targets, planned for removal (restoring what was
    there before us). Keys the operator changed since are kept and reported."""
    chosen = select_targets(names, None)
    states = [DesiredState(n) for n in chosen]
    plan = planner.compute(host, "(uninstall)", states, load_manifests(host), disk=DiskView(host),
                           selected=chosen)
    plan.mode = "uninstall"
    return plan


# ---- repository scope ----------------------------------------------------------------------------

def _repo_target(host: Host, repo_dir: str | Path, cloud_setup: bool | str = False):
    """(target, host allowed to change the repository) for a repository plan."""
    from .targets.repo import RepoTarget, with_repo
    t = RepoTarget(repo_dir, cloud_setup)
    return t, with_repo(host, t.root)


def build_repo_plan(host: Host, repo_dir: str | Path, profile_name: str = DEFAULT_PROFILE,
                    cloud_setup: bool | str = False,
                    decisions: dict[str, str] | None = None) -> Plan:
    """The plan for a repository's hooks (agentdeck.core.targets.repo): `.github/hooks/agentdeck.json`
    and its committed wrapper, read by Copilot CLI (trusted folders), VS Code agent mode and the
    Copilot cloud agent. One target, "repo"; plan.info["repo"] is the repository pane's data
    (root, per-event readers and dialects, folder trust, other hook sources, cloud setup).
    `cloud_setup`: False keeps agentdeck's copilot-setup-steps.yml step only if it was applied
    before; True (or a pip requirement such as "agentdeck==0.1.0" or a git URL) plans it;
    "remove" plans its removal. Reads only."""
    t, host = _repo_target(host, repo_dir, cloud_setup)
    prof = profiles.resolve(host, profile_name)
    state = guard_state(t.desired(prof, host))
    man = Manifest.load(host, t.name, t.manifest_path(host))
    plan = planner.compute(host, profile_name, [state], {t.name: man}, disk=DiskView(host),
                           selected=[t.name])
    for k, v in (decisions or {}).items():
        plan.decide(k, v)
    return plan


def build_repo_uninstall_plan(host: Host, repo_dir: str | Path) -> Plan:
    """Everything agentdeck recorded for this repository, planned for removal."""
    t, host = _repo_target(host, repo_dir)
    t.check_root(host)
    state = DesiredState(t.name, info={"root": str(t.root)})
    man = Manifest.load(host, t.name, t.manifest_path(host))
    plan = planner.compute(host, "(uninstall)", [state], {t.name: man}, disk=DiskView(host),
                           selected=[t.name])
    plan.mode = "uninstall"
    return plan


def repo_of(plan: Plan) -> str | None:
    """The repository a plan was built for (None: a home plan)."""
    info = plan.info.get("repo") if plan.targets == ["repo"] else None
    return info.get("root") if isinstance(info, dict) else None


@dataclass
class Recompute:
    host: Host
    profile: str
    names: list[str]
    uninstall: bool = False
    repo: str | None = None
    cloud_setup: bool | str = False

    def __call__(self) -> Plan:
        if self.repo is not None:
            if self.uninstall:
                return build_repo_uninstall_plan(self.host, self.repo)
            return build_repo_plan(self.host, self.repo, self.profile, cloud_setup=self.cloud_setup)
        if self.uninstall:
            return build_uninstall_plan(self.host, self.names)
        return build_plan(self.host, self.profile, self.names)


def apply_plan(host: Host, plan: Plan, progress: Callable[[str], None] | None = None,
               leave_conflicts: bool = False) -> applier.ApplyResult:
    """Apply exactly `plan` (a home plan or a repository plan); afterwards the plan is computed
    again and anything left is reported in result.leftover."""
    repo = repo_of(plan)
    cloud = ((plan.info.get("repo") or {}).get("cloud_setup") or {}).get("arg", False)
    if repo is not None:
        _, host = _repo_target(host, repo)
    again = Recompute(host, plan.profile, plan.targets, uninstall=plan.mode == "uninstall",
                      repo=repo, cloud_setup=cloud)
    return applier.run(host, plan, recompute=again, progress=progress,
                       leave_conflicts=leave_conflicts)


def cli_version(host: Host, target: str) -> tuple[bool, str | None]:
    """(installed, version) of a target's CLI without running it: the version comes from the
    CLI's npm package.json or its versioned install path, as the doctor reads it; None when it
    cannot be read that way. Starts no process (running a CLI can unpack files into the home)."""
    from .doctor.context import _cli_info

    info = _cli_info(host, target, live=False)
    return info.exe is not None, info.version


def recover(host: Host) -> str | None:
    """Roll back an apply that was interrupted (crash, kill). Safe to call any time. A journal
    that cannot be acted on safely is reported before the home's lock is even taken."""
    from .targets.repo import journal_repo_root, with_repo

    root = journal_repo_root(host)          # an interrupted repository apply may touch that repo
    if root is not None:
        host = with_repo(host, root)
    if applier.read_journal(host) is None:
        return None
    with applier.home_lock(host):
        return applier.recover(host)
