"""Gemini CLI: facts as data, verified against @google/gemini-cli 0.61.0.

Source: docs/facts/gemini.md (real offline turns against the scripted model server, and the
bundle the npm package ships; the section of each fact is named beside it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...facts.versions import CliFacts, frozen_map
from ..path_spelling import NativeFact
from . import SPEC as _SPEC

VERIFIED = "0.61.0"

#: section 2: the hook events 0.61.0 knows (any other name is reported invalid at start)
HOOK_EVENTS = (
    "SessionStart", "SessionEnd", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel",
    "BeforeToolSelection", "BeforeTool", "AfterTool", "PreCompress", "Notification",
)


@dataclass(frozen=True, kw_only=True)
class GeminiFacts(CliFacts):
    settings_file: ClassVar[str] = "settings.json"    # hooks inline, nested matcher/hooks schema
    #: section 1: JSON with comments (strip-json-comments), `$VAR` expanded
    settings_jsonc: ClassVar[bool] = True
    handler_types: ClassVar[tuple[str, ...]] = ("command",)
    #: section 2: a hook's `timeout` is in MILLISECONDS (default 60000)
    timeout_unit_ms: ClassVar[bool] = True
    #: section 2: `name` identifies a hook; `hooksConfig.disabled` lists names (UNION of layers)
    hook_name: ClassVar[str] = "agentdeck"
    hooks_enabled_key: ClassVar[tuple[str, ...]] = ("hooksConfig", "enabled")
    hooks_disabled_key: ClassVar[tuple[str, ...]] = ("hooksConfig", "disabled")
    #: section 1: the variable that moves the system settings file (the top layer) anywhere
    system_settings_env: ClassVar[str] = "GEMINI_CLI_SYSTEM_SETTINGS_PATH"
    system_defaults_env: ClassVar[str] = "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"
    system_settings_file: ClassVar[str] = "/etc/gemini-cli/settings.json"
    admin_policies_dir: ClassVar[str] = "/etc/gemini-cli/policies"
    #: section 4: MCP servers; the off switch is the name in `mcp.excluded` (no per-entry key);
    #: the interactive `/mcp disable NAME` writes <gemini home>/mcp-server-enablement.json as
    #: `{"name": {"enabled": false}}` (the name lower-cased and trimmed); a server whose entry's
    #: `enabled` is falsy does not start; `mcp.excluded` and `mcp.allowed` are judged before it
    #: (canLoadServer). The command-line `gemini mcp disable NAME` answers "Server not found"
    #: for every configured server in 0.61.0 (it looks the name up in an object that holds
    #: `mcpServers` and `blockedServerNames`), so it writes nothing [obs, code]
    mcp_off_key: ClassVar[tuple[str, ...]] = ("mcp", "excluded")
    mcp_allow_key: ClassVar[tuple[str, ...]] = ("mcp", "allowed")
    mcp_enablement_file: ClassVar[str] = "mcp-server-enablement.json"
    mcp_ignored_entry_keys: ClassVar[tuple[str, ...]] = ("disabled", "enabled")
    #: section 5: the persona file read by default (home and project); `context.fileName`
    #: replaces the default name
    persona_file: ClassVar[str] = "GEMINI.md"
    persona_name_key: ClassVar[tuple[str, ...]] = ("context", "fileName")
    #: section 1: trust: project settings and hooks need a trusted folder
    trusted_folders_file: ClassVar[str] = "trustedFolders.json"
    #: section 6: skills under <home>/skills/<name>/SKILL.md and ~/.agents/skills
    skills_dir: ClassVar[str] = "skills"
    #: section 3: `gemini mcp list` connects to every configured server: never a probe
    unsafe_commands: ClassVar[tuple[tuple[str, ...], ...]] = (("mcp", "list"),)


GEMINI = GeminiFacts(
    target="gemini",
    binary=_SPEC.binary,
    npm_package=_SPEC.npm_package,
    verified_versions=(VERIFIED, VERIFIED),
    #: section 7: `gemini --version` prints the bare version on one line
    version_regex=r"^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)\s*$",
    home_env=_SPEC.home_env,
    home_dirname=_SPEC.home_dirname,
    hook_events=HOOK_EVENTS,
    matcher_events=("BeforeTool", "AfterTool"),   # a regex on the tool name (section 2)
    timeout_key="timeout",                         # milliseconds (section 2)
    timeout_aliases=(),
    wrong_timeout_keys=("timeoutSec", "timeout_ms", "timeoutMs"),
    default_timeout_sec=60,                        # 60000 ms (section 2)
    event_default_timeouts=frozen_map({}),
    canonical_events=frozen_map({
        "session_start": "SessionStart",
        "session_end": "SessionEnd",
        #: BeforeAgent fires after a prompt is submitted, before the model is asked; a deny
        #: blocks the turn (section 2)
        "user_prompt_submit": "BeforeAgent",
        "pre_tool_use": "BeforeTool",
        "post_tool_use": "AfterTool",
        #: AfterAgent fires once per turn after the final answer (exit 2 there asks a retry:
        #: agentdeck's handler answers it with exit 0)
        "stop": "AfterAgent",
        #: PreCompress fires before every model request (section 7), not only before a
        #: compression
        "pre_compact": "PreCompress",
        "notification": "Notification",
        #: no such event (section 2): a failed tool fires AfterTool; no permission prompt
        #: event; sub-agent tool calls fire BeforeTool with the same session_id
        "post_tool_use_failure": None, "permission_request": None,
        "subagent_start": None, "subagent_stop": None, "error": None,
    }),
)

#: this target's facts, under the name every target's facts module gives them
FACTS = GEMINI


# ---- its own deny: the policy engine's TOML rules (section 8) ---------------------------------

POLICY_VERIFIED = VERIFIED

POLICY: tuple[NativeFact, ...] = tuple(
    NativeFact(c, how, POLICY_VERIFIED) for c, how in (
    ("the policy engine reads TOML `[[rule]]` tables (toolName, commandPrefix | commandRegex | "
     "argsPattern, decision = allow | deny | ask_user, priority) from ~/.gemini/policies/*.toml "
     "(user tier) and /etc/gemini-cli/policies (admin tier, root-owned)", "documented"),
    ("with agentdeck's hook switched off (hooksConfig.disabled), a user-tier rule `toolName = "
     "\"read_file\"`, `argsPattern = \"id_rsa\"`, `decision = \"deny\"` stopped read_file of "
     "keys/id_rsa (`Tool execution denied by policy.`), and `commandRegex = \".*id_rsa.*\"` "
     "stopped `cat keys/id_rsa`", "observed"),
    ("the rules match the text of the call, not the file it reaches: `cat keys/id_r*` printed "
     "the key under the same rules", "observed"),
    ("read_file of a path outside the workspace folders is refused by Gemini itself (`Path not "
     "in workspace`) before any rule", "observed"),
))
