"""Claude Code: everything agentdeck knows about it is a module of this package."""
from ..spec import DISABLE_ALL, HOOKS, MCP_SWITCHES, SKILLS, TargetSpec

SPEC = TargetSpec(  # the registry entry is core/targets/registry.py BUILTIN
    name="claude", title="Claude Code", short="Claude",
    binary="claude", npm_package="@anthropic-ai/claude-code",
    home_env="CLAUDE_CONFIG_DIR", home_dirname=".claude",
    package=__name__, adapter_class="ClaudeTarget",
    profile_files=("settings.json",),
    enforcement=HOOKS,
    parts=frozenset({'probes', 'drill', 'org', 'takeover', 'demo'}),
    capabilities=frozenset({MCP_SWITCHES, DISABLE_ALL, SKILLS}),
)
