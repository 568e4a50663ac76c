"""OpenCode: everything agentdeck knows about it is a module of this package
(docs/facts/opencode.md, OpenCode 1.18.33; the interface is docs/adding-a-target.md).

Its home is an XDG folder: $XDG_CONFIG_HOME/opencode, ~/.config/opencode by default
(home_env XDG_CONFIG_HOME with home_subdir "opencode"). It has no shell hooks: agentdeck's
guard is a plugin file in that home (the adapter's plugins/agentdeck.js)."""
from ..spec import MCP_SWITCHES, PLUGIN, TargetSpec

SPEC = TargetSpec(  # the registry entry is core/targets/registry.py BUILTIN
    name="opencode", title="OpenCode", short="OpenCode",
    binary="opencode", npm_package="opencode-ai",
    home_env="XDG_CONFIG_HOME", home_dirname=".config/opencode", home_subdir="opencode",
    package=__name__, adapter_class="OpenCodeTarget",
    profile_files=("opencode.json",),
    capabilities=frozenset({MCP_SWITCHES}),
    #: agentdeck's guard is a plugin OpenCode loads (the adapter's plugins/agentdeck.js)
    enforcement=PLUGIN,
    parts=frozenset({"probes", "drill", "views", "org"}),
)
