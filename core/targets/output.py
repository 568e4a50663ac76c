"""What an adapter tells the features about its target, typed: `TargetOutput`, one per plan
target (`DesiredState.output`, `Plan.output[target]`).

An adapter describes what it found and decided beside its plan items: another tool's install
in the CLI's home (`found`), the browser the CLI opens to sign in (`browser`), its MCP servers
and why each is on or off (`mcp`). Each kind of fact
is one frozen dataclass here; the doctor, the plan's JSON form and the app's views
(core/views/) read their attributes. Whether a target can have a fact at all is a property of
the target, declared in its SPEC (core/targets/spec.py: capability BROWSER), never inferred from
whether a fact is there.

Standard library only (dataclasses): the engine's plan carries these, and this module sits in
the registry's layer.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class FoundPart:
    """One part of another tool's install and what this plan does with it."""
    what: str                       # "hooks file", "MCP server", "persona", ...
    path: str
    fate: str                       # "set aside" | "decide" | "kept" | ...
    note: str
    item: str | None = None         # the id of the plan item that carries it out
    name: str = ""

    @property
    def title(self) -> str:
        return f"{self.what} {self.name}" if self.name else self.what

    def as_json(self) -> dict[str, Any]:
        return {"what": self.what, "path": self.path, "fate": self.fate, "note": self.note,
                "item": self.item, "name": self.name}


@dataclass(frozen=True)
class FoundInstall:
    """Another tool's install found in the CLI's home (core/targets/takeover.py)."""
    tool: str                       # the tool's name
    version: str | None             # as found (None: unknown)
    verified: str                   # the version agentdeck's facts about it were verified with
    title: str
    #: a version agentdeck does not know (None: none)
    warning: str | None = None
    parts: tuple[FoundPart, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """The plan's JSON form ("found"; docs/plan-format.md)."""
        return {"tool": self.tool, "version": self.version, "verified": self.verified,
                "title": self.title, "warning": self.warning,
                "parts": [p.as_json() for p in self.parts]}


@dataclass(frozen=True)
class BrowserCandidate:
    """One browser probed, in order."""
    name: str
    path: str
    found: bool


@dataclass(frozen=True)
class BrowserInfo:
    """Which browser the CLI opens when an MCP server asks the operator to sign in, as the
    profile's directives resolve on this host (a target with capability BROWSER)."""
    wsl: bool
    #: the browserCommand directive as written in the profile (None: not set)
    browser_command: Any = None
    suppress_launch: bool = False
    candidates: tuple[BrowserCandidate, ...] = ()
    #: the argv the CLI will spawn (None: agentdeck writes nothing)
    argv: tuple[str, ...] | None = None
    #: the environment variables agentdeck writes for it, with their values
    env: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    source: str = "none"            # which directive decided it: "browserCommand" | ... | "none"
    suppress_sink: str | None = None  # where OAuth URLs are parked instead
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


#: why an MCP server is on or off after this plan (McpServerInfo.reason; core/views/mcp.py has
#: the words)
MCP_REASONS = ("enabled", "always-enabled", "default-disabled", "profile-disabled",
               "operator-enabled", "operator-disabled", "not-written")


def tool_names(value: object) -> tuple[str, ...] | None:
    """A server's tool allow-list as the profile or the CLI's config gives it (None: all)."""
    return tuple(str(v) for v in value) if isinstance(value, (list, tuple)) else None


@dataclass(frozen=True)
class McpServerInfo:
    """One MCP server in the CLI's config after this plan: the profile's or the operator's."""
    name: str
    transport: str                  # "stdio" | "http" | "sse" | ...
    origin: str                     # "profile" | "operator"
    enabled: bool                   # as this plan wants it
    reason: str                     # one of MCP_REASONS
    #: as the CLI's config says now (None: not said)
    enabled_now: bool | None = None
    tools: tuple[str, ...] | None = None
    secret: bool = False            # holds literal credentials
    warnings: tuple[str, ...] = ()
    dropped: bool = False           # the profile's server is not written (invalid)


@dataclass(frozen=True)
class McpInfo:
    """The CLI's MCP servers after this plan, and the profile's switches that decided them."""
    file: str                       # where the servers are configured
    default_disabled: bool          # the profile's mcpDefaultDisabled
    always_enabled: tuple[str, ...] = ()  # the profile's mcpAlwaysEnabled, sorted
    servers: tuple[McpServerInfo, ...] = ()
    #: where the CLI keeps its off list, when that is another file ("" for the same file)
    settings: str = ""
    #: a CLI whose off list in its settings holds the names of its servers that are off, and
    #: the operator's too (Copilot's disabledMcpServers): the list as this plan leaves it
    #: (None: none kept so, or not reported)
    off_list_planned: tuple[str, ...] | None = None

    def server(self, name: str) -> McpServerInfo | None:
        return next((s for s in self.servers if s.name == name), None)


@dataclass
class TargetOutput:
    """What the adapter says about its target beside the plan items (filled while planning)."""
    found: tuple[FoundInstall, ...] = ()
    browser: BrowserInfo | None = None
    #: its MCP servers (None: the adapter does not plan MCP servers for this target)
    mcp: McpInfo | None = None
