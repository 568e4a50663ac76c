"""What a target is, as plain data: `TargetSpec`, declared by each target package's `__init__`.

A spec is read without importing the target's adapter or facts (a Copilot-only plan stays
Copilot-only): the name, the title shown to the operator, the binary on PATH and its npm
package, the variable that moves the CLI's home and its default under $HOME, where the manifest
lives, the package that holds everything else about the CLI, and its capabilities.
Standard library only: the hook handler reads specs too.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from agentdeck.core.host import Host

MANIFEST_NAME = ".agentdeck-managed.json"

#: what an adapter may declare it can do (RunOptions fields it honours)
TRUST_HOOKS = "trust_hooks"        # the CLI gates hooks on trust: `--trust-hooks` adds trust items
MCP_SWITCHES = "mcp_switches"      # per-server on/off switches (the app's MCP pane), planned
                                   # through the profile's disabled-server list


@dataclass(frozen=True)
class TargetSpec:
    name: str                   # the --target name, manifest target, plan target
    title: str                  # the CLI's full name, shown to the operator
    short: str                  # its short name (badges, notes)
    binary: str                 # executable looked up on the host's PATH
    npm_package: str
    home_env: str               # the environment variable that moves the CLI's home
    home_dirname: str           # its default under $HOME
    package: str                # the target's package (its adapter, facts, dialect, ...)
    adapter_class: str          # the adapter's class in `<package>.adapter`
    capabilities: frozenset[str] = frozenset()

    @property
    def adapter(self) -> tuple[str, str]:
        """(module, class) of the adapter."""
        return (f"{self.package}.adapter", self.adapter_class)

    def home(self, host: "Host") -> Path:
        return host.cli_home(self.home_env, self.home_dirname)

    def manifest_path(self, host: "Host") -> Path:
        return self.home(host) / MANIFEST_NAME

    def can(self, capability: str) -> bool:
        return capability in self.capabilities
