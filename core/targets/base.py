"""The target-adapter protocol: one adapter per CLI, each in its own module, all declared alike.

An adapter is described by its `TargetSpec` (core/targets/registry.py: name, title, binary, home,
manifest path, capabilities) and computes its desired state from the profile and the one read
view of the disk (core/disk.py); per-run choices reach it in one declared way, `RunOptions`.

    class CopilotTarget(Target):
        spec = registry.spec("copilot")
        def desired(self, profile, view, options): ...

Capabilities are data on the spec (`spec.can(TRUST_HOOKS)`), never probed with getattr.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping

from ..model import Directives
from .mcp_switches import switch_mcp
from .spec import MCP_SWITCHES, TargetSpec

if TYPE_CHECKING:  # pragma: no cover
    from ..desired import DesiredState
    from ..disk import DiskView
    from ..host import Host
    from ..manifest import Manifest
    from ..model import Profile

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class RunOptions:
    """What the operator chose for this run, the one way it reaches an adapter.

    trust_hooks   trust agentdeck's own hooks where the CLI gates hooks on trust (TRUST_HOOKS):
                  the default, unless the operator said no (`--no-trust-hooks`, or the layer's
                  `"trust_hooks": {"codex": false}`)
    trust_pinned  the operator asked for it this run (`--trust-hooks`): a trusted_hash they
                  changed is then a conflict to decide, not a hand-edit kept
    directives    per-run directive overrides ({"mcpDefaultDisabled": False, ...}), every target
    mcp_enabled   this target's MCP switches ({"github": True}) (MCP_SWITCHES)
    cloud_setup   repository scope: the copilot-setup-steps step (see targets/repo.py)
    """
    trust_hooks: bool = False
    trust_pinned: bool = False
    directives: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    mcp_enabled: Mapping[str, bool] = field(default_factory=lambda: _EMPTY)
    cloud_setup: bool | str = False

    @classmethod
    def for_target(cls, target: str, overrides: dict[str, Any] | None = None,
                   trust_hooks: bool | None = None,
                   cloud_setup: bool | str = False) -> "RunOptions":
        """The options of one target from the engine's `overrides` dict:
        {"directives": {...}, "mcp_enabled": {"copilot": {"github": True}},
         "trust_hooks": {"codex": False}} (the last: the operator's layer, core.overlay: false
        is a lasting no). `trust_hooks`: True (`--trust-hooks`) or False (`--no-trust-hooks`)
        for this run, None: the layer's choice, else trusted (the default)."""
        ov = overrides or {}
        layer = (ov.get("trust_hooks") or {}).get(target)
        pinned = trust_hooks is True
        if trust_hooks is None:
            trust_hooks = layer is not False
        return cls(trust_hooks=bool(trust_hooks), trust_pinned=pinned,
                   directives=MappingProxyType(dict(ov.get("directives") or {})),
                   mcp_enabled=MappingProxyType(dict((ov.get("mcp_enabled") or {}).get(target) or {})),
                   cloud_setup=cloud_setup)


DEFAULT_OPTIONS = RunOptions()


class Target(ABC):
    """One CLI's adapter. Subclasses set `spec` and implement `desired`."""
    spec: TargetSpec

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def title(self) -> str:
        return self.spec.title

    @property
    def binary(self) -> str:
        return self.spec.binary

    def manifest_path(self, host: "Host") -> Path:
        """The sidecar manifest recording what agentdeck wrote for this target."""
        return self.spec.manifest_path(host)

    def profile_for(self, profile: "Profile", options: RunOptions) -> "Profile":
        """The profile as this target sees it after the run's choices (a copy; the profile on
        disk is untouched): directive overrides, then, for a target with the MCP_SWITCHES
        capability, the MCP switches (the Copilot adapter's rules, targets/mcp_switches.py)."""
        p = profile
        if options.directives:
            p = profile.model_copy(deep=True)
            p.directives = Directives.model_validate({**p.directives.model_dump(),
                                                      **dict(options.directives)})
        if options.mcp_enabled and self.spec.can(MCP_SWITCHES):
            p = switch_mcp(p, options.mcp_enabled)
        return p

    def migrate_manifest(self, manifest: "Manifest", view: "DiskView") -> None:
        """Read an older form of this target's records as today's (in memory; the manifest is
        written in today's form at the next apply). Called for each selected target before it
        is planned or uninstalled."""

    @abstractmethod
    def desired(self, profile: "Profile", view: "DiskView",
                options: RunOptions = DEFAULT_OPTIONS) -> "DesiredState":
        """Everything this target should contain for `profile` (already `profile_for`-ed), plus
        notices and pane info. Reads only through `view` (the one reader); never writes."""
