"""What an adapter tells the features about its target, typed: `TargetOutput`, one per plan
target (`DesiredState.output`, `Plan.output[target]`).

An adapter describes what it found and decided beside its plan items: another tool's install
in the CLI's home (`found`), the browser the CLI opens to sign in (`browser`), its MCP servers
and why each is on or off (`mcp`), the hooks (or plugin) it registers with the other hook
sources it found (`hooks`), and the entries it writes into the CLI's own permission layer for
the [[policy.paths]] rules (`permissions`) and its OS sandbox (`sandbox`), the profile's
skills, commands and agents (`skills`) and the env file of its directives (`env`); the
repository scope's adapter reports its whole report (`repo`), and hooks_health adds why the
registered hooks cannot run (`hooks_inert`). Each kind of fact is a dataclass here (frozen,
but for the reports filled while planning); the doctor, the plan's JSON form and the app's
views (core/views/) read their attributes. Whether a target can have a fact at all is a property of
the target, declared in its SPEC (core/targets/spec.py: capabilities BROWSER, DISABLE_ALL,
TRUST_HOOKS, SKILLS, ENV_FILE), never inferred from whether a fact is there.

Standard library only (dataclasses): the engine's plan carries these, and this module sits in
the registry's layer.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
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
               "operator-enabled", "operator-disabled", "operator-switched-off", "not-written")


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


@dataclass(frozen=True)
class HookEventInfo:
    """One event agentdeck registers in the CLI, as this plan wants it."""
    event: str                      # the CLI's own name of the event
    command: str                    # the registered command (the wrapper and the event)
    timeout: int | float | None     # seconds
    canonical: str = ""             # agentdeck's name of the event
    #: agentdeck's entry for the event as the CLI's file holds it (a matcher group, an action,
    #: a handler: the CLI's own JSON)
    entry: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: registered exactly so on disk now
    registered_now: bool = False
    operator_groups: int = 0        # the operator's own groups in this event
    also: bool = False              # one of the facts' also_events: decided as `canonical`
    #: a CLI whose plugin runs the wrapper: the plugin hook that does (`event` is the name the
    #: wrapper is run with)
    plugin_hook: str = ""
    # a CLI with a disable key per hook (Copilot's disabledHooks)
    disable_key: str = ""
    state: str | None = None        # "active" | "disabled-by-operator" (None: not said)
    changes_key: bool = False       # this apply changes the action, and so its key
    reenables_disabled: bool = False  # ... and the old key was disabled: the hook comes back
    previous_disable_keys: tuple[str, ...] = ()
    # a CLI that gates hooks on trust (capability TRUST_HOOKS: Codex's [hooks.state])
    key: str = ""                   # where its state is kept
    hash: str = ""                  # the trusted_hash that trusts it
    trusted_hash_on_disk: str | None = None
    trust: str | None = None        # what the CLI reports after this plan
    trust_now: str | None = None    # ... and today (None: not registered)
    enabled: bool = True            # the CLI's own per-hook switch
    will_trust: bool = False        # this plan writes its trust
    trusted_by_agentdeck: bool = False   # the trust on disk is recorded as agentdeck's
    #: trusted only once the operator takes the hooks file another tool holds
    trust_with_hooks_file: bool = False


@dataclass(frozen=True)
class SkippedHookEvent:
    canonical: str                  # agentdeck's name of an event the CLI does not have
    reason: str


@dataclass
class HookSourceInfo:
    """Another place the CLI loads hooks from (the operator's, another tool's)."""
    kind: str                       # "operator-settings" | "inline-settings" | "policy" | ...
    path: str
    events: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class HooksConfigInfo:
    """A CLI whose settings switch hooks off by a flag and a list of names (Gemini CLI's
    hooksConfig), as found in the user's settings."""
    enabled: Any = None             # as found (None: not set)
    disabled: tuple[str, ...] = ()


@dataclass
class HooksInfo:
    """The hooks (or the plugin) agentdeck registers in the CLI after this plan, and the other
    hook sources found. Filled while planning; the readers treat it as read-only."""
    file: str                       # where the hooks (or the plugin) are registered
    wrapper: str                    # the wrapper every hook runs
    handler: str | None             # the profile's [hooks] command (None: none)
    handler_path: str | None = None  # its program as resolved now (None: not found)
    timeout: int | None = None      # seconds, of every hook (None: the CLI has none)
    byte_stable: str = ""           # why a handler change leaves the registered hooks as they are
    channel: str = "hooks"          # "hooks" | "plugin"
    #: what switches agentdeck's hooks off in this CLI, in words, where that is not
    #: disableAllHooks ("": none said)
    off_switch: str = ""
    #: disableAllHooks as found on disk (a CLI with capability DISABLE_ALL; None: not set)
    disable_all_on_disk: Any = None
    disable_all_stops: bool = False  # true there stops the user's hooks (the CLI's facts)
    disable_all_effect: str = ""    # what true does, in words
    hooks_config: HooksConfigInfo | None = None
    #: a CLI that gates hooks on trust: its config file, the hooks file as its trust keys name
    #: it, and whether this plan trusts agentdeck's hooks
    config: str = ""
    trust_source: str = ""
    trust_requested: bool = False
    events: tuple[HookEventInfo, ...] = ()
    skipped: tuple[SkippedHookEvent, ...] = ()
    other_sources: tuple[HookSourceInfo, ...] = ()

    def registered(self) -> tuple[HookEventInfo, ...]:
        """agentdeck's events registered exactly so on disk now."""
        return tuple(e for e in self.events if e.registered_now)


@dataclass(frozen=True)
class PathRuleEntries:
    """One [[policy.paths]] rule as the CLI's own layer spells it (path_spelling.Translation)."""
    id: str
    #: the layer's entries, in order: a deny-list entry ("Read(~/.ssh/id_*)") or a pair
    #: ((pattern, value) in Codex's profile, (kind, pattern) in Claude's sandbox)
    entries: tuple[Any, ...] = ()
    written: tuple[tuple[str, str], ...] = ()   # (rule path, how it is expressed)
    skipped: tuple[tuple[str, str], ...] = ()   # (rule path, why it is left to the hook)
    notes: tuple[str, ...] = ()

    @classmethod
    def of(cls, t: Any) -> PathRuleEntries:
        """From a path_spelling.Translation."""
        return cls(id=t.rule, entries=tuple(tuple(e) if isinstance(e, (list, tuple)) else e
                                            for e in t.entries),
                   written=tuple((str(a), str(b)) for a, b in t.written),
                   skipped=tuple((str(a), str(b)) for a, b in t.skipped),
                   notes=tuple(t.notes))


@dataclass(frozen=True)
class DenyEntry:
    """One entry agentdeck contributes to a CLI's deny list (permissions.deny, the sandbox's
    denyRead/denyWrite)."""
    entry: str
    rule: str                       # the [[policy.paths]] rule's id
    state: str                      # "new" | "ours" (on disk, recorded) | "yours" (the operator's)


@dataclass(frozen=True)
class ProfileEntry:
    """One path agentdeck writes into the operator's own permission profile (Codex)."""
    path: str
    value: str                      # "none": denied to sandboxed commands
    rule: str


@dataclass(frozen=True)
class PermissionsInfo:
    """The CLI's own permission layer where agentdeck writes the [[policy.paths]] rules (the
    target's policy part's NATIVE_DENY): its file, the entries this plan contributes, and each
    rule's translation. Entries are DenyEntry (a deny list) or ProfileEntry (a profile)."""
    file: str
    entries: tuple[DenyEntry | ProfileEntry, ...] = ()
    rules: tuple[PathRuleEntries, ...] = ()


@dataclass(frozen=True)
class PermissionProfileInfo(PermissionsInfo):
    """A layer written only into a permission profile the operator selected (Codex's
    default_permissions): which one, or None and why not."""
    profile: str | None = None
    why: str = ""


@dataclass(frozen=True)
class SandboxEntry:
    """One path agentdeck adds to an OS sandbox's deny list (Claude's sandbox.filesystem)."""
    kind: str                       # "denyRead" | "denyWrite"
    entry: str
    rule: str
    state: str                      # "new" | "ours" | "yours"


@dataclass(frozen=True)
class SandboxInfo:
    """The CLI's OS sandbox as a layer under the [[policy.paths]] rules: whether the operator
    switched it on (agentdeck never does), its ways out, and the entries this plan adds."""
    file: str
    enabled: bool = False
    why: str = ""                   # why no entry is written ("" when they are)
    escape: bool | None = None      # the model can ask to run a command outside it (None: not on)
    fail_open: bool | None = None   # commands run unsandboxed when it cannot start (None: not on)
    entries: tuple[SandboxEntry, ...] = ()
    rules: tuple[PathRuleEntries, ...] = ()


@dataclass(frozen=True)
class SkillLink:
    """A profile skill linked into the CLI's skills folder."""
    name: str
    target: str                     # agentdeck's copy the link points to
    state: str                      # "new" | "ours" | "yours (kept)"


@dataclass(frozen=True)
class SkillCommand:
    """A profile command as the CLI gets it (a slash command, or a skill where it has none)."""
    name: str
    path: str
    state: str                      # "planned" | "skipped: ..."
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class SkillAgent:
    """A profile agent written for the CLI."""
    name: str
    path: str
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class SkillsInfo:
    """The profile's skills, commands and agents as this plan installs them (a target with
    capability SKILLS)."""
    dir: str                        # the skills folder
    links: tuple[SkillLink, ...] = ()
    commands: tuple[SkillCommand, ...] = ()
    agents: tuple[SkillAgent, ...] = ()


@dataclass(frozen=True)
class EnvVariable:
    value: str
    directive: str                  # the profile's directive that sets it


@dataclass(frozen=True)
class EnvInfo:
    """The profile's directives as environment variables in an env file that ~/.bashrc sources
    (a target with capability ENV_FILE)."""
    file: str                       # the env file
    bashrc: str
    lines: tuple[str, ...] = ()     # the file's variable lines
    variables: Mapping[str, EnvVariable] = field(default_factory=lambda: MappingProxyType({}))
    caveat: str = ""                # which processes never see them


@dataclass(frozen=True)
class Inert:
    """One reason the installed hooks of a target cannot run (core/hooks_health.py finds them
    once per plan; a target's health part adds its own)."""
    code: str          # handler-missing | wrapper-missing | disable-all | not-registered | the
                       # target's own (its health part: disabled-hooks, <cli>-untrusted, ...)
    reason: str        # what is wrong, for people ("the handler ... is not found")
    fix: str           # what to do about it
    events: Sequence[str]  # the registered events it concerns (all of ours: every one)
    #: the plan items that fix it when the plan writes them all (the wrapper, agentdeck's hooks
    #: file, the trust items): after this plan (inert(plan, t)) the reason holds only while the
    #: plan's decisions do not write them; now (inert(plan, t, now=True), `status`) it holds
    unless: Sequence[str] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "events", tuple(self.events))
        object.__setattr__(self, "unless", tuple(self.unless))

    def line(self) -> str:
        return f"{self.reason} (fix: {self.fix})"


@dataclass(frozen=True)
class RepoReaderCell:
    """What one reader of the repository's hook file does with one event."""
    fires: bool
    dialect: str | None = None      # the payload it sends (a hook dialect's id; None: no fire)
    note: str = ""


@dataclass(frozen=True)
class RepoEventInfo:
    """One event in the repository's hook file, and what each reader does with it."""
    event: str                      # the carrier CLI's name of the event
    key: str                        # the key registered in the file
    command: str
    #: the action as the file holds it (the carrier CLI's own JSON)
    action: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    disable_key: str = ""
    readers: Mapping[str, RepoReaderCell] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class RepoReaderInfo:
    """A reader of the repository's hook file (a CLI, an editor, a cloud agent)."""
    title: str
    loads: str                      # when and what it loads


@dataclass(frozen=True)
class RepoTrust:
    """Whether the carrier CLI loads the repository's hooks here (its trusted folders)."""
    trusted: bool
    via: str | None = None          # the trusted folder that covers this one (None: none)
    subfolders: tuple[str, ...] = ()  # trusted folders below it (which do not cover it)
    allow_all: bool = False         # every folder is trusted
    config: str = ""                # the file that lists the trusted folders


@dataclass(frozen=True)
class RepoHookSource:
    """Another hook file in the repository that a reader loads."""
    kind: str
    path: str
    events: tuple[str, ...] = ()
    readers: tuple[str, ...] = ()
    note: str = ""
    runs_agentdeck: bool = False    # it runs agentdeck's handler too


@dataclass
class RepoHooks:
    """agentdeck's hook file in the repository and the committed wrapper. Filled while
    planning; the readers treat it as read-only."""
    file: str
    wrapper: str
    handler: str | None             # the profile's [hooks] command
    handler_path: str | None = None  # its program as resolved here (None: not found)
    on_path: bool | None = None     # the handler (a bare name) is on this machine's PATH
    timeout: int | None = None
    events: tuple[RepoEventInfo, ...] = ()
    byte_stable: str = ""           # why a handler change leaves the registered actions as they are


@dataclass
class RepoCloudSetup:
    """The cloud agent's setup step (only on request)."""
    file: str                       # the workflow
    wanted: bool = False
    mode: str | None = None         # "file" | "block" (None: not planned)
    spec: str | None = None         # what the step installs
    arg: Any = False                # the cloud_setup argument as given
    note: str = ""                  # why it is not planned


@dataclass
class RepoReport:
    """The repository scope's report (core/targets/repo.py): what the repository pane and the
    doctor's repository checks read."""
    root: str
    manifest: str
    readers: Mapping[str, RepoReaderInfo]
    hooks: RepoHooks
    trust: RepoTrust
    other_sources: tuple[RepoHookSource, ...] = ()
    cloud_setup: RepoCloudSetup | None = None


@dataclass
class TargetOutput:
    """What the adapter says about its target beside the plan items (filled while planning)."""
    found: tuple[FoundInstall, ...] = ()
    browser: BrowserInfo | None = None
    #: its MCP servers (None: the adapter does not plan MCP servers for this target)
    mcp: McpInfo | None = None
    #: the hooks or plugin it registers (None: the adapter registers none for this target)
    hooks: HooksInfo | None = None
    #: the CLI's own permission layer with agentdeck's [[policy.paths]] entries (None: the
    #: profile has no path rule, or agentdeck writes no such layer in this CLI)
    permissions: PermissionsInfo | None = None
    #: why agentdeck's registered hooks cannot run (core/hooks_health.annotate, after planning;
    #: None: they can, or none are registered; core/inert.py reads it)
    hooks_inert: tuple[Inert, ...] | None = None
    #: the CLI's OS sandbox with agentdeck's [[policy.paths]] entries (None: the profile has no
    #: path rule, or the CLI has no sandbox agentdeck writes into)
    sandbox: SandboxInfo | None = None
    #: the profile's skills, commands and agents (a target with capability SKILLS; else None)
    skills: SkillsInfo | None = None
    #: the env file of the profile's directives (a target with capability ENV_FILE; else None)
    env: EnvInfo | None = None
    #: the repository scope's report (its one target "repo"; None for every home target)
    repo: RepoReport | None = None




def hooks_of(outputs: Mapping[str, TargetOutput], target: str) -> HooksInfo | None:
    """The hooks report of `target` in a plan's outputs (`Plan.output`; None: the adapter
    registers no hooks there, or the target could not be planned)."""
    got = outputs.get(target)
    return got.hooks if got is not None else None
