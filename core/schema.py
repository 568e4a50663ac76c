"""The profile schema, declared once, with pydantic: what an operator may write in profile.toml,
mcp.json and the `_agentdeck` block, and the shape of a resolved profile.

Importing pydantic and building these schemas costs ~200 ms, more than the rest of `agentdeck
plan`. So this module is imported only when a profile has to be validated: core.profiles keeps
the validated, resolved profile in a cache keyed by the hashes of every file it was built from
(core/profilecache.py), and an unchanged profile is loaded from there as plain data
(core/model.py) without importing pydantic. Every coercion and error message is pydantic's own;
core.profiles turns its error positions into file:line messages.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, field_validator, model_validator

from .names import TARGETS, check_name

if TYPE_CHECKING:
    TargetName = str                # the registry's names: known when the registry is loaded
else:
    TargetName = Literal[TARGETS]   # Literal["copilot", "codex", "claude"]


class ProfileMeta(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = None
    description: str = ""
    extends: list[str] = Field(default_factory=list)
    targets: list[TargetName] | None = None

    @field_validator("extends")
    @classmethod
    def _names(cls, v: list[str]) -> list[str]:
        return [check_name(x, "profile name") for x in v]


class HookSpec(BaseModel):
    """The profile's hook handler: one command, run for each registered event."""
    model_config = ConfigDict(extra="forbid")
    command: str | None = None
    events: list[str] | None = None   # canonical names (session_start, pre_tool_use, ...); None = all
    timeout: int = Field(default=30, ge=1, le=3600)


# ---- [policy]: guardrail rules (enforced by core/policy/, docs/policy.md) ----------------------
PolicyTool = Literal["shell", "read", "write", "mcp", "web", "prompt", "any"]
PolicyDecision = Literal["deny", "ask", "allow"]
PolicyOnError = Literal["deny", "allow"]


class PolicyExamples(BaseModel):
    """Inputs the rule must give each decision (`agentdeck policy test` checks them)."""
    model_config = ConfigDict(extra="forbid")
    deny: list[str] = Field(default_factory=list)
    ask: list[str] = Field(default_factory=list)
    allow: list[str] = Field(default_factory=list)


class PolicyRule(BaseModel):
    """One rule. Either `match`, a Python regular expression searched in the raw subject (the
    command line, the path, "server/tool", the URL or the prompt text; a regex on a raw command
    line is evadable), or, for tool = "shell", `command` + `args`: matched on the argv of every
    simple command the line would run (core/policy/argv.py)."""
    model_config = ConfigDict(extra="forbid")
    id: str
    tool: PolicyTool
    match: str | None = None
    command: str | list[str] | None = None      # program name(s), path reduced to its name
    args: list[str] = Field(default_factory=list)   # groups of "a|b|c": every group present
    decision: PolicyDecision
    reason: str = ""
    examples: PolicyExamples = Field(default_factory=PolicyExamples)

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        return check_name(v, "policy rule id")

    @field_validator("match")
    @classmethod
    def _regex(cls, v: str | None) -> str | None:
        if v is None:
            return v
        try:
            re.compile(v)
        except re.error as e:
            raise ValueError(f"not a valid regular expression ({e})") from None
        return v

    @field_validator("command")
    @classmethod
    def _command(cls, v: str | list[str] | None) -> str | list[str] | None:
        names = [v] if isinstance(v, str) else v
        if names is not None and (not names or any(not n or "/" in n or n.strip() != n
                                                   for n in names)):
            raise ValueError("command is a program name (or a list of names), without a path")
        return v

    @model_validator(mode="after")
    def _one_form(self) -> "PolicyRule":
        if self.match is None and self.command is None:
            raise ValueError("a rule needs match (a regex on the raw subject) or command "
                             "(+ args, matched on argv)")
        if self.match is not None and self.command is not None:
            raise ValueError("a rule has match or command, not both")
        if self.command is not None and self.tool != "shell":
            raise ValueError('command/args rules are for tool = "shell"')
        if self.args and self.command is None:
            raise ValueError("args needs command")
        return self


PathAccess = Literal["read", "write"]


def _read_and_write() -> list[PathAccess]:
    return ["read", "write"]


class PolicyPath(BaseModel):
    """[[policy.paths]]: protected files, enforced on every tool that touches a file and on the
    file operands and redirections of shell commands (core/policy/paths.py)."""
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    id: str
    paths: list[str] = Field(min_length=1)         # globs; ~ and ** understood
    except_: list[str] = Field(default_factory=list, alias="except")
    access: list[PathAccess] = Field(default_factory=_read_and_write, min_length=1)
    decision: PolicyDecision = "deny"
    reason: str = ""
    examples: PolicyExamples = Field(default_factory=PolicyExamples)

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        return check_name(v, "policy path id")

    @field_validator("paths", "except_")
    @classmethod
    def _globs(cls, v: list[str]) -> list[str]:
        for g in v:
            if not g or not (g.startswith(("/", "~/", "$HOME/")) or g in ("~", "$HOME")
                             or g.startswith("**")):
                raise ValueError(f"{g!r}: a protected path is absolute, starts with ~/ or $HOME/,"
                                 " or with ** (any directory)")
        return v


class PolicyFile(BaseModel):
    """[policy] in one profile.toml. None: not set here (inherited, or the default)."""
    model_config = ConfigDict(extra="forbid")
    on_error: PolicyOnError | None = None
    unresolved: PolicyDecision | None = None       # a command the policy cannot resolve
    inline_code: Literal["allow", "ask"] | None = None   # every interpreter's inline program
    protect_agentdeck: bool | None = None           # the built-in write protection of the guard
    rules: list[PolicyRule] = Field(default_factory=list)
    paths: list[PolicyPath] = Field(default_factory=list)


class Policy(BaseModel):
    """The resolved policy: the chain's [policy] sections merged (rules and paths by id, later
    wins)."""
    on_error: PolicyOnError = "deny"   # what the handler answers when it cannot decide
    unresolved: PolicyDecision = "ask"
    #: "ask": every inline program (python -c, perl -e, node -e, awk '...', ...) is asked, not
    #: only one that names a protected path or a denied program
    inline_code: Literal["allow", "ask"] = "allow"
    protect_agentdeck: bool = True
    rules: list[PolicyRule] = Field(default_factory=list)
    paths: list[PolicyPath] = Field(default_factory=list)
    sources: dict[str, str] = Field(default_factory=dict)   # rule id -> the profile.toml it is from


# ---- [org]: what `agentdeck org` writes into each CLI's system layer (docs/org.md) -------------
class OrgKeys(BaseModel):
    """[org] in a profile.toml: the keys the org layer sets in each CLI's system layer, beside its
    hook. None: not set here (inherited, or off). `agentdeck org --managed-hooks-only`,
    `--no-bypass`, `--mcp-allow NAME` and `--mcp-deny NAME` turn on / extend them for one run."""
    model_config = ConfigDict(extra="forbid")
    managed_hooks_only: StrictBool | None = None    # only the org layer's hooks run
    no_bypass: StrictBool | None = None             # the CLI's bypass-permissions mode refused
    mcp_allowed: list[str] | None = None   # only these MCP servers may start ([] = none)
    mcp_denied: list[str] | None = None    # these MCP servers never start

    @field_validator("mcp_allowed", "mcp_denied")
    @classmethod
    def _servers(cls, v: list[str] | None) -> list[str] | None:
        if v is None:
            return v
        for x in v:
            check_name(x, "MCP server name")
        return list(dict.fromkeys(v))


class ProfileFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    profile: ProfileMeta = Field(default_factory=ProfileMeta)
    hooks: HookSpec | None = None
    policy: PolicyFile | None = None
    org: OrgKeys | None = None


class McpServer(BaseModel):
    """One target-neutral MCP server (the Claude / .mcp.json shape). Unknown native fields are
    kept and passed through to targets that understand them."""
    model_config = ConfigDict(extra="allow")
    type: Literal["stdio", "local", "http", "sse", "streamable-http"] | None = None
    command: str | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] = Field(default_factory=dict)
    url: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    tools: list[str] | None = None
    timeout: int | None = None
    auth: bool | None = None
    oidc: bool | None = None
    # transport and check(): on core.model.McpServer, the runtime form every caller holds


class McpFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mcpServers: dict[str, McpServer] = Field(default_factory=dict)


class Directives(BaseModel):
    """The reserved `_agentdeck` block (alias `_agentihooks`): directives with no settings key in
    the CLI. Never written to disk. Loosely typed on purpose: a bad value degrades with a warning
    in the plan (docs/facts/copilot.md section 10) rather than aborting the install."""
    model_config = ConfigDict(extra="forbid")
    mcpDefaultDisabled: bool = False
    mcpAlwaysEnabled: list[str] = Field(default_factory=list)
    browserCommand: Any = None
    suppressBrowserLaunch: bool = False
    allowAll: Any = None
    channels: Any = None


class Profile(BaseModel):
    """A resolved profile: the extends chain merged, base first."""
    model_config = ConfigDict(arbitrary_types_allowed=True)
    name: str
    description: str = ""
    chain: list[str]                      # base first, this profile last
    origins: dict[str, str] = Field(default_factory=dict)   # profile name -> "bundled"/"operator" dir
    targets: list[str] | None = None      # None: the profile names none (core.scopes.COVERAGE)
    hooks: HookSpec = Field(default_factory=HookSpec)
    personas: list[tuple[str, str]] = Field(default_factory=list)   # (profile name, AGENTS.md text)
    rules: dict[str, str] = Field(default_factory=dict)             # rule name -> text (later wins)
    agents: dict[str, str] = Field(default_factory=dict)            # agent name -> markdown text
    commands: dict[str, str] = Field(default_factory=dict)          # command name -> markdown text
    skills: dict[str, str] = Field(default_factory=dict)            # skill name -> absolute dir path
    mcp_servers: dict[str, McpServer] = Field(default_factory=dict)
    native: dict[str, dict[str, Any]] = Field(default_factory=dict)  # "copilot/settings.json" -> data
    directives: Directives = Field(default_factory=Directives)
    directive_warnings: list[str] = Field(default_factory=list)
    policy: Policy = Field(default_factory=Policy)
    org: OrgKeys = Field(default_factory=OrgKeys)
