"""OpenAI Codex CLI: everything agentdeck knows about it is a module of this package."""
from ..spec import HOOKS, MCP_SWITCHES, SKILLS, TRUST_HOOKS, TargetSpec

SPEC = TargetSpec(  # the registry entry is core/targets/registry.py BUILTIN
    name="codex", title="OpenAI Codex CLI", short="Codex",
    binary="codex", npm_package="@openai/codex",
    home_env="CODEX_HOME", home_dirname=".codex",
    package=__name__, adapter_class="CodexTarget",
    profile_files=("config.toml",),
    enforcement=HOOKS,
    parts=frozenset({'probes', 'drill', 'org', 'takeover', 'demo', 'views'}),
    capabilities=frozenset({TRUST_HOOKS, MCP_SWITCHES, SKILLS}),
)
