"""GitHub Copilot CLI: everything agentdeck knows about it is a module of this package."""
from ..spec import BROWSER, DISABLE_ALL, ENV_FILE, HOOKS, MCP_SWITCHES, SKILLS, TargetSpec

SPEC = TargetSpec(  # the registry entry is core/targets/registry.py BUILTIN
    name="copilot", title="GitHub Copilot CLI", short="Copilot",
    binary="copilot", npm_package="@github/copilot",
    home_env="COPILOT_HOME", home_dirname=".copilot",
    package=__name__, adapter_class="CopilotTarget",
    profile_files=("settings.json", "mcp-config.json"),
    directives_file="settings.json",
    never_write=("config.json",),   # tool-managed (auth, trusted folders): facts.config_file
    enforcement=HOOKS,
    parts=frozenset({'probes', 'drill', 'org', 'repo', 'takeover', 'demo', 'views'}),
    capabilities=frozenset({MCP_SWITCHES, DISABLE_ALL, BROWSER, SKILLS, ENV_FILE}),
)
