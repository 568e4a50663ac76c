"""The one definition of a target: every list of targets in core/ and app/ comes from here.

A `TargetSpec` is plain data (no adapter or facts module is imported to read it, so a
Copilot-only plan stays Copilot-only): the name, the title shown to the operator, the binary on
PATH and its npm package, the home variable and its default under $HOME, where the manifest
lives, the adapter that plans it, and its capabilities. The per-CLI facts modules
(core/facts/copilot.py, ...) take their binary, package and home from here, and
tests/unit/test_registry.py checks that every adapter, the profile model's target names and the
doctor's tables agree with it.
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
                                   # through the profile's disabledMcpServers (Copilot, Codex)


@dataclass(frozen=True)
class TargetSpec:
    name: str                   # "copilot": the --target name, manifest target, plan target
    title: str                  # "GitHub Copilot CLI"
    short: str                  # "Copilot" (badges, notes)
    binary: str                 # executable looked up on the host's PATH
    npm_package: str
    home_env: str               # the environment variable that moves the CLI's home
    home_dirname: str           # its default under $HOME
    host_attr: str              # the Host property that resolves the home (env var or default)
    adapter: tuple[str, str]    # (module, class) of the adapter
    capabilities: frozenset[str] = frozenset()

    def home(self, host: "Host") -> Path:
        return getattr(host, self.host_attr)

    def manifest_path(self, host: "Host") -> Path:
        return self.home(host) / MANIFEST_NAME

    def can(self, capability: str) -> bool:
        return capability in self.capabilities


TARGETS: tuple[TargetSpec, ...] = (
    TargetSpec("copilot", "GitHub Copilot CLI", "Copilot", "copilot", "@github/copilot",
               "COPILOT_HOME", ".copilot", "copilot_home",
               ("agentdeck.core.targets.copilot", "CopilotTarget"), frozenset({MCP_SWITCHES})),
    TargetSpec("codex", "OpenAI Codex CLI", "Codex", "codex", "@openai/codex",
               "CODEX_HOME", ".codex", "codex_home",
               ("agentdeck.core.targets.codex", "CodexTarget"),
               frozenset({TRUST_HOOKS, MCP_SWITCHES})),
    TargetSpec("claude", "Claude Code", "Claude", "claude", "@anthropic-ai/claude-code",
               "CLAUDE_CONFIG_DIR", ".claude", "claude_home",
               ("agentdeck.core.targets.claude", "ClaudeTarget"), frozenset({MCP_SWITCHES})),
)

#: the target names in display order
NAMES: tuple[str, ...] = tuple(s.name for s in TARGETS)
BY_NAME: dict[str, TargetSpec] = {s.name: s for s in TARGETS}


def spec(name: str) -> TargetSpec:
    try:
        return BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown target {name!r}; known: {', '.join(NAMES)}") from None


def title(name: str) -> str:
    s = BY_NAME.get(name)
    return s.title if s is not None else name
