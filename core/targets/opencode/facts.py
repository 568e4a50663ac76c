"""OpenCode: facts as data, verified against opencode-ai 1.18.33.

Source: docs/facts/opencode.md (real offline turns against the scripted model server, and the
code the release ships; the section of each fact is named beside it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...facts.versions import CANONICAL_EVENTS, CliFacts, frozen_map
from ..path_spelling import NativeFact
from . import SPEC as _SPEC

VERIFIED = "1.18.33"

#: section 2: the plugin hook agentdeck's plugin implements (a plugin may implement others:
#: event, chat.message, tool.execute.after, permission.ask, ...; agentdeck uses this one)
PLUGIN_HOOKS = ("tool.execute.before",)


@dataclass(frozen=True, kw_only=True)
class OpenCodeFacts(CliFacts):
    #: section 1: the user config file, JSON with comments (every config file is read as JSONC)
    config_file: ClassVar[str] = "opencode.json"
    config_jsonc: ClassVar[bool] = True
    #: section 1: the other global config files OpenCode merges, in its order (config.json,
    #: then opencode.json, then opencode.jsonc: a later one wins per key)
    config_files: ClassVar[tuple[str, ...]] = ("config.json", "opencode.json", "opencode.jsonc")
    #: section 1: OpenCode writes `"$schema": SCHEMA` into a config file that lacks it (at its
    #: next start: the file changes under the operator); with it the file is left as it is
    schema_key: ClassVar[str] = "$schema"
    schema_url: ClassVar[str] = "https://opencode.ai/config.json"
    #: section 2: plugins auto-loaded from this folder of the home (every *.js / *.ts in it)
    plugins_dir: ClassVar[str] = "plugins"
    #: section 2: the environment and flags that switch every external plugin off (agentdeck's
    #: among them), and the variables that load more config over the user's
    pure_env: ClassVar[str] = "OPENCODE_PURE"
    pure_flag: ClassVar[str] = "--pure"
    #: section 4: merged over `permission` after every file, the managed one included
    permission_env: ClassVar[str] = "OPENCODE_PERMISSION"
    #: section 1: extra config layers from the environment
    config_content_env: ClassVar[str] = "OPENCODE_CONFIG_CONTENT"
    config_env: ClassVar[str] = "OPENCODE_CONFIG"
    config_dir_env: ClassVar[str] = "OPENCODE_CONFIG_DIR"
    disable_project_env: ClassVar[str] = "OPENCODE_DISABLE_PROJECT_CONFIG"
    #: section 1: a project's files, found walking up from the working folder to its worktree
    project_files: ClassVar[tuple[str, ...]] = ("opencode.json", "opencode.jsonc")
    project_dir: ClassVar[str] = ".opencode"
    #: section 3: MCP servers under `mcp.<name>`; `enabled: false` keeps one from starting
    mcp_key: ClassVar[str] = "mcp"
    mcp_enabled_key: ClassVar[str] = "enabled"
    #: section 1: at start OpenCode runs `npm install @opencode-ai/plugin` in its home unless
    #: node_modules/ exists and package-lock.json lists the dependency (offline: ~71 s of retries)
    npm_stub: ClassVar[dict] = {"lockfileVersion": 3,
                                "packages": {"": {"dependencies": {"@opencode-ai/plugin": "*"}}}}
    #: section 7: the managed (system) folder, merged after every other config layer; only its
    #: opencode.json and opencode.jsonc are read (no plugins/ folder is discovered there), and a
    #: variable of the user's own moves it (named OPENCODE_TEST_..., read by the release)
    managed_dir: ClassVar[str] = "/etc/opencode"
    managed_files: ClassVar[tuple[str, ...]] = ("opencode.json", "opencode.jsonc")
    managed_dir_env: ClassVar[str] = "OPENCODE_TEST_MANAGED_CONFIG_DIR"
    #: section 2: a `plugin` entry may be [spec, options]; the plugin function gets the options
    #: as its second argument
    plugin_key: ClassVar[str] = "plugin"
    #: section 5: the global instructions file OpenCode reads from its home
    persona_file: ClassVar[str] = "AGENTS.md"


OPENCODE = OpenCodeFacts(
    target="opencode",
    binary=_SPEC.binary,
    npm_package=_SPEC.npm_package,
    verified_versions=(VERIFIED, VERIFIED),
    #: section 6: `opencode --version` prints the bare version on one line
    version_regex=r"^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)\s*$",
    home_env=_SPEC.home_env,
    home_dirname=_SPEC.home_dirname,
    hook_events=PLUGIN_HOOKS,
    matcher_events=(),                       # a plugin hook sees every tool: no matcher
    timeout_key="",                          # a plugin hook has no timeout (section 2)
    timeout_aliases=(),
    wrong_timeout_keys=(),
    default_timeout_sec=None,                # awaited with no timeout (section 2)
    event_default_timeouts=frozen_map({}),
    #: the plugin sees tool calls only (tool.execute.before); agentdeck's other events have no
    #: plugin hook it implements
    canonical_events=frozen_map({**dict.fromkeys(CANONICAL_EVENTS),
                                 "pre_tool_use": "tool.execute.before"}),
)

#: this target's facts, under the name every target's facts module gives them
FACTS = OPENCODE


# ---- its own permission rules, as observed (section 4): not written by agentdeck -------------
PERMISSIONS: tuple[NativeFact, ...] = tuple(
    NativeFact(c, "observed", VERIFIED) for c in (
    "permission rules are globs per tool; the last matching rule wins: `bash: {\"*\": "
    "\"allow\", \"touch *DENY1*\": \"deny\"}` denied the touch",
    "a read rule is matched against the path relative to the session's worktree: `*sec-a.txt` "
    "and `**/sec-b.txt` denied a read outside the project, an absolute pattern and a `~/` "
    "pattern did not",
    "read rules do not act on bash: `cat` of a file a read rule denies ran",
))


# ---- what switches agentdeck's plugin off, as observed (section 2) -----------------------------
PLUGIN_OFF: tuple[NativeFact, ...] = tuple(
    NativeFact(c, "observed", VERIFIED) for c in (
    "`opencode run --pure` and OPENCODE_PURE=1 load no external plugin: a command the plugin "
    "denies runs",
    "a plugin file that does not load (a syntax error) is skipped without a word: the tool runs",
    "OPENCODE_PERMISSION (JSON) is merged over every config file's `permission`, the managed "
    "one's too",
))
