"""Where a plan is planned into: the home (the registry's targets) or one repository.

Both scopes answer the same questions, so the engine's build_plan, apply_plan and recover have
no repository special case:

    host(host)            the Host the plan may change (a repository widens its roots)
    select(names, ...)    the target names this plan covers
    adapter(name)         the adapter that plans one of them
    options(name, ...)    the RunOptions that adapter gets
    manifest_paths(host)  every manifest the plan must know (owners of shared items)
    to_json()             the scope as data, carried by the plan (`plan.scope`)

`from_json(plan.scope)` gives the home or repository scope back (apply re-plans with it;
core.engine.scope_of adds the org scope, a feature above this module); `of_journal(host)` is
the scope an interrupted apply was changing (recover rolls it back with that scope's host).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import hooks_health, overlay, targets
from .errors import UserError
from .targets.base import RunOptions

if TYPE_CHECKING:  # pragma: no cover
    from .host import Host
    from .targets.base import Target
    from .targets.repo import RepoTarget


class Scope(ABC):
    kind: str

    def host(self, host: "Host") -> "Host":
        return host

    @abstractmethod
    def select(self, names: list[str] | None, profile_targets: list[str] | None,
               host: "Host | None" = None) -> list[str]: ...

    @abstractmethod
    def adapter(self, name: str) -> "Target": ...

    @abstractmethod
    def manifest_paths(self, host: "Host") -> dict[str, Path]: ...

    def options(self, name: str, overrides: dict | None,
                trust_hooks: bool | None) -> "RunOptions":
        return RunOptions.for_target(name, overrides, trust_hooks)

    def check_uninstall(self, host: "Host") -> None:
        """Refuse (UserError) an uninstall this scope cannot plan; the home can always be."""

    # the operator's layer (core.overlay) and the hooks' health: the home's; none for a repo
    def layer(self, host: "Host", profile: str, choices: dict | None) -> dict:
        return {}

    def with_layer(self, layer: dict, overrides: dict | None) -> dict | None:
        return overrides

    def add_layer_items(self, host: "Host", profile: str, layer: dict, states: list) -> None:
        pass

    def annotate(self, host: "Host", plan, view) -> None:
        pass

    @abstractmethod
    def to_json(self) -> dict[str, Any]: ...


#: which targets a command covers without --target, in the words status, the docs and the app use
COVERAGE = ("every CLI installed (on PATH) or with a home folder, unless the profile names its "
            "targets; every CLI when none is found; --target chooses")


def found_targets(host: "Host") -> list[str]:
    """The registered targets whose CLI is on the host's PATH or whose home folder exists (a
    home agentdeck installed into has one: its manifest lives there)."""
    from .targets import registry   # local: the specs only (no adapter is imported)

    out = []
    for name in targets.available():
        spec = registry.spec(name)
        if host.which(spec.binary) or host.is_dir(spec.home(host)):
            out.append(name)
    return out


class HomeScope(Scope):
    """The home: the registry's targets, each with its manifest in its CLI's home."""
    kind = "home"

    def select(self, names: list[str] | None, profile_targets: list[str] | None,
               host: "Host | None" = None) -> list[str]:
        """The targets a command covers (COVERAGE says it in words): `names` (--target) when
        given; else the profile's `targets` when it names them; else every target found on
        `host` (found_targets); else, when none is found (or no host is given), every target."""
        known = targets.available()
        if not names:
            chosen = [t for t in (profile_targets or []) if t in known]
            if chosen:
                return chosen
            return (found_targets(host) if host is not None else []) or known
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

    def adapter(self, name: str) -> "Target":
        return targets.get(name)

    def manifest_paths(self, host: "Host") -> dict[str, Path]:
        return {n: targets.manifest_path(n, host) for n in targets.available()}

    def layer(self, host: "Host", profile: str, choices: dict | None) -> dict:
        return overlay.load(host, profile) if choices is None else overlay.validate(choices)

    def with_layer(self, layer: dict, overrides: dict | None) -> dict | None:
        return overlay.merge(layer, overrides)

    def add_layer_items(self, host: "Host", profile: str, layer: dict, states: list) -> None:
        overlay.add_items(host, profile, layer, states)

    def annotate(self, host: "Host", plan, view) -> None:
        hooks_health.annotate(host, plan, read=view.text)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass
class RepoScope(Scope):
    """One repository (core.targets.repo): one target, "repo"; its manifest in the state dir."""
    repo_dir: str | Path
    cloud_setup: bool | str = False
    kind = "repo"

    def __post_init__(self) -> None:
        from .targets.repo import repo_root   # local: for a repository only
        self.root = repo_root(self.repo_dir)

    def host(self, host: "Host") -> "Host":
        from .targets.repo import RepoHost, with_repo   # local: for a repository only
        if isinstance(host, RepoHost) and host.repo_root == self.root:
            return host
        return with_repo(host, self.root)

    def select(self, names: list[str] | None, profile_targets: list[str] | None,
               host: "Host | None" = None) -> list[str]:
        return ["repo"]

    def adapter(self, name: str) -> "RepoTarget":
        from .targets.repo import RepoTarget   # local: for a repository only
        return RepoTarget(self.root, self.cloud_setup)

    def options(self, name: str, overrides: dict | None,
                trust_hooks: bool | None) -> "RunOptions":
        return RunOptions.for_target(name, overrides, trust_hooks, cloud_setup=self.cloud_setup)

    def manifest_paths(self, host: "Host") -> dict[str, Path]:
        from .targets.repo import manifest_path_for   # local: for a repository only
        return {"repo": manifest_path_for(host, self.root)}

    def check_uninstall(self, host: "Host") -> None:
        self.adapter("repo").check_root(host)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "root": str(self.root), "cloud_setup": self.cloud_setup}


HOME = HomeScope()


def from_json(data: dict[str, Any] | None) -> Scope:
    if not data or data.get("kind", "home") == "home":
        return HOME
    if data.get("kind") == "repo":
        return RepoScope(data["root"], data.get("cloud_setup", False))
    raise ValueError(f"unknown plan scope {data!r}")


def of_journal(host: "Host") -> Scope:
    """The scope an interrupted apply was changing (its journal names a repository's files and
    that repository's own manifest), else the home."""
    from .targets.repo import journal_repo_root   # local: (as in RepoScope)
    root = journal_repo_root(host)
    return RepoScope(root) if root is not None else HOME
