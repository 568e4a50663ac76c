"""Qwen Code: everything agentdeck knows about it is a module of this package
(docs/facts/qwen.md, Qwen Code 0.24.4; the interface is docs/adding-a-target.md)."""
from ..spec import DISABLE_ALL, HOOKS, MCP_SWITCHES, SKILLS, TargetSpec

SPEC = TargetSpec(  # the registry entry is core/targets/registry.py BUILTIN
    name="qwen", title="Qwen Code", short="Qwen",
    binary="qwen", npm_package="@qwen-code/qwen-code",
    home_env="QWEN_HOME", home_dirname=".qwen",
    package=__name__, adapter_class="QwenTarget",
    profile_files=("settings.json",),
    enforcement=HOOKS,
    parts=frozenset({'probes', 'drill', 'org', 'repo', 'views'}),
    capabilities=frozenset({MCP_SWITCHES, DISABLE_ALL, SKILLS}),
)
