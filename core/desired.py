"""DesiredState: what one target should contain, as computed from a profile.

A target adapter returns a DesiredState; the planner compares each Desired item with what the
target's manifest recorded and what is on disk. Item kinds:

- file:  a whole file we generate (value: text), with a mode
- key:   one key path inside a structured settings file (value: any JSON value), fmt json/jsonc/toml;
         with `member` set, one element of the list at that key path (lists shared with the
         operator, such as Claude's hooks.<Event> matcher groups)
- block: the body of a managed block between marker lines in a text file (value: text)
- link:  a symlink (value: the link's target)
- aside: another tool's file agentdeck takes out of the way (value: None; it must be absent):
         its bytes are kept in the state dir and put back by uninstall (core/targets/takeover.py)

`Desired.kind` is the kind's name (as the manifest and the plan's JSON write it); each kind is a
type in core/kinds (kinds.kind_of(item)) with its fingerprint, its reading of the disk and the
ops that write it and undo it.

Adapters also return `output`: typed facts about the target the features read (another tool's
install found, the browser, MCP servers, hooks, permissions, sandbox, skills, env file, the
repository scope's report: core/targets/output.py; nothing untyped), and `notices`:
target-level warnings and info lines for the plan.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .targets.output import TargetOutput

Kind = Literal["file", "key", "block", "link", "aside"]


@dataclass
class Notice:
    """A line for the operator about a target's plan (info, warning or error), and its file."""
    level: Literal["info", "warning", "error"]
    message: str
    path: str | None = None


@dataclass
class Desired:
    """One thing a profile wants in a target's files (a key, file, block or link: core/kinds)."""
    target: str
    path: Path
    kind: Kind
    value: Any
    key: tuple[str, ...] = ()
    fmt: str = ""                       # key: "json" | "jsonc" | "toml"
    mode: int | None = None             # file: the mode it must have
    secret: bool = False                # the file holds secrets: written 0600
    pinned: bool = False                # an operator value that differs is a conflict, not a hand-edit
    markers: tuple[str, str] = ("", "")  # block: begin and end marker lines
    placement: str = "top"              # block: where a new block goes
    label: str = ""                     # short human name ("statusLine", "MCP server github")
    reason: str = ""                    # why the profile wants it
    warnings: list[str] = field(default_factory=list)
    group: str = ""                     # pane grouping: hooks, settings, mcp, persona, skills, env...
    #: a key item whose file must be written 0600 (secret-bearing settings such as MCP headers)
    file_mode: int | None = None
    #: key items only: the value at `key` is a list shared with the operator, and this item is
    #: ONE element of it -- the first element whose JSON text contains this marker (e.g. the
    #: path of agentdeck's hook wrapper). The three-state rule then applies to that element
    #: alone: the operator's elements are never compared, rewritten or removed (kinds.key.find_member).
    member: str = ""
    #: adapter bookkeeping recorded with the item in the manifest (JSON data; not part of the
    #: fingerprint), read back next run as Entry.meta -- e.g. which names of a shared list
    #: agentdeck itself contributed
    meta: Any = None
    #: block items only: the begin and end marker lines of another tool's managed region this
    #: block takes the place of (its persona): while our block is not there and theirs is, the
    #: item is a decision (keep theirs / take: ours replaces it where it stands, and uninstall
    #: puts their region back byte for byte)
    replaces: tuple[str, str] | None = None
    #: file items only: the text is agentdeck's own source code (the org layer's handler copy),
    #: not profile data, so core.output_guard never rewrites it (its secret-format regexes
    #: would otherwise be "redacted" out of the copy)
    own_source: bool = False
    #: the id of another item this one goes with: while that item is not written by the plan
    #: (kept: another tool's file there), this one is left out too (Plan.decision) -- Codex's
    #: trust of a hook that only agentdeck's hooks file would register
    follows: str = ""
    #: agentdeck's own file that nobody edits by hand (the compiled policy, the hook wrapper:
    #: core/seal.py marks them): a change or removal on disk is damage, not the operator's
    #: edit, so the plan puts it back instead of keeping it
    own: bool = False


@dataclass
class DesiredState:
    """A target's desired items, its notices and its adapter's facts for the plan (output)."""
    target: str
    items: list[Desired] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    output: TargetOutput = field(default_factory=TargetOutput)

    def add(self, item: Desired) -> Desired:
        self.items.append(item)
        return item

    def warn(self, message: str, path: str | None = None) -> None:
        self.notices.append(Notice("warning", message, path))

    def note(self, message: str, path: str | None = None) -> None:
        self.notices.append(Notice("info", message, path))
