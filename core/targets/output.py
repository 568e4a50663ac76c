"""What an adapter tells the features about its target, typed: `TargetOutput`, one per plan
target (`DesiredState.output`, `Plan.output[target]`).

An adapter describes what it found and decided beside its plan items: another tool's install
in the CLI's home (`found`), the browser the CLI opens to sign in (`browser`). Each kind of fact
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


@dataclass
class TargetOutput:
    """What the adapter says about its target beside the plan items (filled while planning)."""
    found: tuple[FoundInstall, ...] = ()
    browser: BrowserInfo | None = None
