"""The `takeover` part: what another tool's install (agentihooks 2.x, core/facts/known_tools.py)
writes into one CLI's home, and where that CLI keeps its MCP servers -- the facts
core/targets/takeover.py detects the install by and takes it over with (docs/migrating.md).

A target another tool installs into has `core/targets/<name>/takeover.py` providing
(`TakeoverPart`):

    INSTALLS        {known tool's name: TargetInstall}: what that tool's `init --target <cli>`
                    writes, relative to the CLI's home, observed in a scratch home
    mcp_file(host)  (file, format, table): where the CLI configures its MCP servers

A target without the module has no known tool's install to find: nothing is taken over there.
Nothing here imports a feature.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover
    from ...host import Host


@dataclass(frozen=True)
class TargetInstall:
    """What the tool's `init --target <cli>` install writes, relative to that CLI's home."""
    hooks_file: str
    #: how its hooks relate to agentdeck's: "own-file" (a hooks file of its own that the CLI loads
    #: beside agentdeck's: set aside), "same-file" (the file agentdeck writes: taking the
    #: profile's replaces it, uninstall puts it back), "inline" (hooks inside the CLI's settings
    #: file, beside agentdeck's: not taken over, both run)
    hooks_mode: str
    hook_wrapper: str                   # the script its hooks run
    persona_file: str
    #: the whole lines that open and close its managed region in persona_file (None: it owns
    #: the whole file, without markers)
    persona_markers: tuple[str, str] | None
    sidecar: str | None = None          # its record of the settings keys it manages
    mcp_servers: tuple[str, ...] = ()   # the servers it adds to the CLI's MCP configuration
    #: what the plan says of those servers besides "kept as the tool set them up"
    mcp_note: str = ""
    #: (file relative to the CLI's home, format) where the tool may keep a table named for
    #: itself, and what the CLI makes of it (kept, listed so the operator sees it)
    tool_table: tuple[str, str] | None = None
    tool_table_note: str = ""


@runtime_checkable
class TakeoverPart(Protocol):
    @property
    def INSTALLS(self) -> Mapping[str, TargetInstall]: ...

    def mcp_file(self, host: "Host") -> tuple[Path, str, str]: ...
