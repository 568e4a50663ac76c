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
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .names import TARGETS, check_name

TargetName = Literal[TARGETS]      # Literal["copilot", "codex", "claude"]


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


# ---- [policy]: guardrail rules (issue 14; enforced by core/policy/, docs/policy.md) ------------
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
    """One rule: `match` (a Python regular expression) is searched in the command (shell), the
    path (read, write), "server/tool" (mcp), the URL (web) or the prompt text (prompt)."""
    model_config = ConfigDict(extra="forbid")
    id: str
    tool: PolicyTool
    match: str
    decision: PolicyDecision
    reason: str = ""
    examples: PolicyExamples = Field(default_factory=PolicyExamples)

    @field_validator("id")
    @classmethod
    def _id(cls, v: str) -> str:
        return check_name(v, "policy rule id")

    @field_validator("match")
    @classmethod
    def _regex(cls, v: str) -> str:
        try:
            re.compile(v)
        except re.error as e:
            raise ValueError(f"not a valid regular expression ({e})") from None
        return v


class PolicyFile(BaseModel):
    """[policy] in one profile.toml. on_error None: not set here (inherited, default deny)."""
    model_config = ConfigDict(extra="forbid")
    on_error: PolicyOnError | None = None
    rules: list[PolicyRule] = Field(default_factory=list)


class Policy(BaseModel):
    """The resolved policy: the chain's [policy] sections merged (rules by id, later wins)."""
    on_error: PolicyOnError = "deny"   # what the handler answers when it cannot decide
    rules: list[PolicyRule] = Field(default_factory=list)
    sources: dict[str, str] = Field(default_factory=dict)   # rule id -> the profile.toml it is from


class ProfileFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    profile: ProfileMeta = Field(default_factory=ProfileMeta)
    hooks: HookSpec | None = None
    policy: PolicyFile | None = None


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
    in the plan (reference §11.5) rather than aborting the install."""
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
    targets: list[str] = Field(default_factory=lambda: list(TARGETS))
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
