"""What every doctor check shares: the host, the files it reads (each read and parsed once), the
plan per target, the manifests, and the installed CLIs' versions.

Nothing here writes, and nothing here starts a process except `cli()` in live mode (a CLI whose
version cannot be read from its npm package.json is asked with `--version` only under --live).
Every path goes through the Host, so fixture homes are all a test needs.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .. import engine
from .. import targets as targets_mod
from ..disk import DiskView, Loaded
from ..errors import UserError
from ..formats.errors import FormatError
from ..host import Host, HostError
from ..installed import CliInfo, cli_info
from ..targets import registry

__all__ = ["Ctx", "Loaded", "CliInfo", "TARGETS"]

TARGETS = registry.NAMES         # the doctor's table of targets is the registry's


@dataclass
class Ctx:
    host: Host
    profile: str = "default"
    targets: list[str] = field(default_factory=lambda: list(TARGETS))
    live: bool = False
    progress: Callable[[str], None] | None = None
    #: the one reader (core.disk): the same view the doctor's plans read through, so the doctor
    #: and the plan read each file once and say the same thing about a broken one
    view: DiskView | None = None
    _plans: dict[str, tuple[Any, Exception | None]] = field(default_factory=dict)
    _manifests: dict[str, tuple[Any, Exception | None]] = field(default_factory=dict)
    _clis: dict[str, CliInfo] = field(default_factory=dict)
    #: checks leave data for later checks and the live comparison here (e.g. parsed hook models)
    memo: dict[str, Any] = field(default_factory=dict)

    # ---- display -------------------------------------------------------------------------------
    def __post_init__(self) -> None:
        self.disk()

    def disk(self) -> DiskView:
        """The reader (made on first use when none was given)."""
        if self.view is None:
            self.view = DiskView(self.host)
        return self.view

    def show(self, path: os.PathLike | str | None) -> str | None:
        return None if path is None else self.host.display(path)

    def say(self, msg: str) -> None:
        if self.progress is not None:
            try:
                self.progress(msg)
            except Exception:
                pass

    # ---- files ---------------------------------------------------------------------------------
    def read(self, path: Path) -> Loaded:
        """The text of a file (no parsing)."""
        return self._load(path, "text")

    def json(self, path: Path, *, jsonc: bool = True) -> Loaded:
        return self._load(path, "jsonc" if jsonc else "json")

    def toml(self, path: Path) -> Loaded:
        return self._load(path, "toml")

    def _load(self, path: Path, fmt: str) -> Loaded:
        return self.disk().load(path, fmt)

    # ---- agentdeck's own view ------------------------------------------------------------------
    def adapter(self, target: str):
        """The target adapter, or None when this build has none for it."""
        if target not in targets_mod.available():
            return None
        return targets_mod.get(target)

    def plan(self, target: str) -> tuple[Any, Exception | None]:
        """(Plan for this one target, None) or (None, the error that stopped planning)."""
        if target not in self._plans:
            try:
                self._plans[target] = (engine.build_plan(self.host, self.profile, [target], view=self.view), None)
            except (UserError, FormatError, HostError) as e:
                self._plans[target] = (None, e)
        return self._plans[target]

    def manifest(self, target: str) -> tuple[Any, Exception | None]:
        if target not in self._manifests:
            ad = self.adapter(target)
            if ad is None:
                self._manifests[target] = (None, None)
            else:
                try:
                    self._manifests[target] = (self.disk().manifest(target,
                                                                  ad.manifest_path(self.host)), None)
                except UserError as e:
                    self._manifests[target] = (None, e)
        return self._manifests[target]

    def cli(self, target: str) -> CliInfo:
        if target not in self._clis:
            self._clis[target] = cli_info(self.host, target, self.live)
        return self._clis[target]

    def target_home(self, target: str) -> Path:
        return registry.spec(target).home(self.host)

    def canonical_event(self, name: str) -> str:
        """An event's canonical name (the hook handler's), whatever the CLI calls it."""
        from ..hookhandler import canonical_event   # local: the hook handler's module is not on the doctor's path otherwise
        return canonical_event(name)


