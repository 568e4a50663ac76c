"""Part `demo`: what `agentdeck demo` seeds in a target's home, so the plan on the demo home
shows every class of item (hand-set keys in a commented settings file, an operator's MCP
server, an existing instructions file).

A target package provides `core/targets/<name>/demo.py` with `FILES`: path relative to the
CLI's home -> text. core/demo.py writes each under `$HOME/<home_dirname>/`; a file whose name
ends in config.json is written 0600 (it holds auth in the CLIs that have one), the others 0644.
"""
from __future__ import annotations

from typing import Mapping, Protocol


class DemoPart(Protocol):
    @property
    def FILES(self) -> Mapping[str, str]: ...
