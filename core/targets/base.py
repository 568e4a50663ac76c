"""The target-adapter protocol: one adapter per CLI, each in its own module."""
from __future__ import annotations

from pathlib import Path
from typing import Protocol

from ..desired import DesiredState
from ..host import Host
from ..model import Profile


class Target(Protocol):
    name: str          # "copilot"
    title: str         # "GitHub Copilot CLI"
    binary: str        # executable name on PATH

    def manifest_path(self, host: Host) -> Path:
        """The sidecar manifest recording what agentdeck wrote for this target."""
        ...

    def desired(self, profile: Profile, host: Host) -> DesiredState:
        """Everything this target should contain for `profile`, plus notices and pane info.
        Pure with respect to disk writes: it may read (through host) but never write."""
        ...
