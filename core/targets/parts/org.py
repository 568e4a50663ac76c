"""The `org` part: a CLI's organisation layer -- the system file an administrator (root) owns,
that the CLI reads above the user's home -- and what agentdeck writes there (core/org plans,
applies and drills it; the target says what its layer is).

A target with an org layer has `core/targets/<name>/org.py` providing (`OrgPart`):

    FACTS                     an `OrgFacts`: the layer's path, kind, keys, what holds and what
                              does not, with the CLI version each fact was observed with
    layer_item(req, view)     the layer's plan item (a core.desired.Desired) for a `LayerRequest`
    drill_attempts()          an `OrgAttempts`: how `agentdeck org drill`'s user tries to switch
                              the layer off (files in the scratch home and in the turn's
                              folder, flags, environment)
    layer_notes(req)          optional: what the layer cannot enforce of what `req` asks (one
                              line each; the plan shows them as notes, never pretends)
    extra_items(req, view)    optional: more plan items of the layer (keys in another system
                              file of the CLI's, e.g. Copilot's managed-settings.json)
    layer_problems(text)      optional: what is wrong with the layer file's text as found
                              (each an `OrgProblem`), for the doctor's `<target>.org.layer` row
    undone(host, root)        optional: what, for the user running the doctor, switches the
                              layer's hook off now, and the standing facts (OrgRows, for the
                              doctor's `<target>.org.layer` row)
    LIVE_PROBE, live_check(data)
                              optional: the live probe (`<target>.<LIVE_PROBE>` of the doctor's
                              live results) whose answer says whether the CLI loads the layer's
                              hook, and the row it gives (an `OrgRow`, or None)

A target without the module has no org layer: `agentdeck org` does not list it, the doctor shows
no org row for it. Nothing here imports a feature.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, NamedTuple, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover
    from ...desired import Desired
    from ...disk import DiskView


@dataclass(frozen=True)
class OrgFacts:
    target: str
    verified: str                           # the CLI version these were observed with
    #: the file agentdeck writes (an absolute system path; a root prefix is put in front of it)
    path: str
    #: "file": a whole file of agentdeck's own (a drop-in); "block": a managed block in a file
    #: the administrator may share with other tools
    kind: str
    #: the hook event agentdeck registers there (the pre-tool event, in the spelling this
    #: layer's file takes)
    pre_tool_event: str
    #: what the CLI does NOT check: agentdeck's own ownership check must (owner/mode/parents)
    cli_checks_ownership: bool
    #: with agentdeck installed in the user's home too: does the user's own pre-tool hook still
    #: run for a call the org hook denies? (observed: the user layer's audit then has, or has
    #: not, a line of its own for that call; its other events were recorded either way)
    user_pre_hook_runs_after_org_deny: bool = True
    #: the ways a user could try to switch the layer off, each with what was observed
    attempts: Mapping[str, str] = field(default_factory=dict)
    #: the keys an administrator can set there that agentdeck writes (org option -> key path;
    #: a part "<name>" stands for each name of the table at that level)
    keys: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: the system file the keys are in when it is not `path` (an absolute system path)
    keys_path: str = ""
    #: what this layer cannot do, in one line each
    limits: tuple[str, ...] = ()
    #: the layer file's name is the CLI's own system file, not a drop-in name of agentdeck's:
    #: an administrator may have a file of their own there
    shared_name: bool = False
    #: text that makes a file at `path` agentdeck's org file (a block's begin marker), besides
    #: the org hook's command line
    marks: tuple[str, ...] = ()
    #: what a user can still do that switches the layer's hook off, observed with `verified`:
    #: short name -> the fact (`org status` names them; the part's `undone` checks the user's
    #: side for the doctor)
    undone_by: Mapping[str, str] = field(default_factory=dict)
    #: other system files the CLI loads for the layer and runs (OpenCode's org plugin, which the
    #: layer file names): the ownership rule checks them as it checks the layer file
    runs: tuple[str, ...] = ()

    @property
    def shared(self) -> bool:
        """A file found at `path` may be the administrator's alone (a block's file, or a whole
        file at the CLI's own name): it is agentdeck's org file only with one of `marks` or
        the org hook in it."""
        return self.kind == "block" or self.shared_name


@dataclass(frozen=True)
class LayerRequest:
    """What the org scope asks of a target's layer item."""
    path: Path                  # the layer file, the root prefix in front
    command: str                # the org hook's command line (core.org.handler.hook_command)
    timeout: int                # the profile's hook timeout, in seconds
    managed_hooks_only: bool    # [org] / `--managed-hooks-only`: only the org layer's hooks run
    no_bypass: bool             # [org] / `--no-bypass`: the CLI's bypass-permissions mode refused
    mode: int = 0o644           # read by every user's CLI and hook; written by root only
    #: the profile's policy (core.policy.compiled.policy_of), for a layer that also spells its
    #: rules in the CLI's own terms
    policy: dict[str, Any] | None = None
    #: [org] mcp_allowed / `--mcp-allow`: only these MCP servers may start (None: no allowlist;
    #: () : none may). A name also in mcp_denied is left out (deny wins)
    mcp_allowed: tuple[str, ...] | None = None
    #: [org] mcp_denied / `--mcp-deny`: these MCP servers never start
    mcp_denied: tuple[str, ...] = ()
    #: the profile's MCP servers (name -> {"command": ..., "url": ...}), for a layer that names
    #: an allowed server by what it runs (Codex's identity)
    mcp_servers: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def mcp_allowed_kept(self) -> tuple[str, ...] | None:
        """The allowlist without the denied names (None: no allowlist)."""
        if self.mcp_allowed is None:
            return None
        return tuple(n for n in self.mcp_allowed if n not in self.mcp_denied)


@dataclass(frozen=True)
class OrgAttempts:
    """How the org drill's user tries to switch the layer off."""
    files: Mapping[str, str]            # written into the scratch CLI home (relative path: text)
    flags: tuple[str, ...]              # added to the drill's command line
    env: Mapping[str, str]              # added to the turn's environment
    words: tuple[str, ...]              # each attempt in words, for the report
    #: arguments the turn needs in the scratch home that are no attempt (after the flags)
    args: tuple[str, ...] = ()
    #: written into the turn's folder (relative path: text): a project's own settings
    work_files: Mapping[str, str] = field(default_factory=dict)


class OrgProblem(NamedTuple):
    message: str
    fix: str = ""


class OrgRow(NamedTuple):
    level: str                  # ok | error | warning
    message: str
    fix: str = ""


@runtime_checkable
class OrgPart(Protocol):
    @property
    def FACTS(self) -> OrgFacts: ...

    def layer_item(self, req: LayerRequest, view: "DiskView") -> "Desired": ...

    def drill_attempts(self) -> OrgAttempts: ...


def layer_notes(part: object, req: LayerRequest) -> list[str]:
    fn = getattr(part, "layer_notes", None)
    return list(fn(req)) if fn is not None else []


def extra_items(part: object, req: LayerRequest, view: "DiskView") -> list["Desired"]:
    fn = getattr(part, "extra_items", None)
    return list(fn(req, view)) if fn is not None else []


def layer_problems(part: object, text: str) -> list[OrgProblem]:
    fn = getattr(part, "layer_problems", None)
    return list(fn(text)) if fn is not None else []


def undone(part: object, host: Any, root: Path) -> list[OrgRow]:
    fn = getattr(part, "undone", None)
    return list(fn(host, root)) if fn is not None else []


def live_check(part: object, results: Mapping[str, object], target: str) -> OrgRow | None:
    """The part's live row from the doctor's probe results, or None (no such probe, it did not
    answer, or the CLI has no offline report of its managed sources)."""
    probe, fn = getattr(part, "LIVE_PROBE", None), getattr(part, "live_check", None)
    if probe is None or fn is None:
        return None
    res = results.get(f"{target}.{probe}")
    if res is None or not getattr(res, "ok", False):
        return None
    row = fn(getattr(res, "data", None) or {})
    return row if isinstance(row, OrgRow) else None
