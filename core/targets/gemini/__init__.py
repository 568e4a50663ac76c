"""Gemini CLI: everything agentdeck knows about it is a module of this package
(docs/facts/gemini.md, Gemini CLI 0.61.0; the interface is docs/adding-a-target.md).

Gemini CLI is retired for consumer (Google account) sign-in in favour of Antigravity CLI; it
remains for Gemini API keys, Vertex AI and Code Assist Standard/Enterprise (docs/facts/gemini.md
section 0)."""
from ..spec import HOOKS, MCP_SWITCHES, SKILLS, TargetSpec

SPEC = TargetSpec(  # the registry entry is core/targets/registry.py BUILTIN
    name="gemini", title="Gemini CLI", short="Gemini",
    binary="gemini", npm_package="@google/gemini-cli",
    #: GEMINI_CLI_HOME replaces the home folder Gemini puts `.gemini` in (section 1)
    home_env="GEMINI_CLI_HOME", home_dirname=".gemini", home_subdir=".gemini",
    package=__name__, adapter_class="GeminiTarget",
    profile_files=("settings.json",),
    enforcement=HOOKS,
    parts=frozenset({"probes", "drill", "views", "org"}),
    #: no DISABLE_ALL: hooksConfig.enabled / hooksConfig.disabled are its switches (health.py)
    capabilities=frozenset({MCP_SWITCHES, SKILLS}),
)
