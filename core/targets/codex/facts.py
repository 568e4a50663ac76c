"""OpenAI Codex CLI: facts as data, verified against @openai/codex 0.171.0.

Sources: docs/facts/codex.md, corrected where the real CLI disagrees (comments marked
"observed", listed there too, come from `hooks/list` over `codex app-server` in a scratch home;
tests/clients/test_probes_real.py re-checks them).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from ...digest import sha256
from ...facts.versions import CliFacts, frozen_map
from ..path_spelling import NativeFact
from . import SPEC as _SPEC


HOOK_EVENTS = (
    "PreModelRequest", "PostModelRequest", "PreToolUse", "PermissionRequest", "PostToolUse",
    "PreCompact", "PostCompact", "SessionStart", "SessionEnd", "UserPromptSubmit",
    "SubagentStart", "SubagentStop", "Stop", "Interrupt",
)


@dataclass(frozen=True, kw_only=True)
class CodexFacts(CliFacts):
    config_file: ClassVar[str] = "config.toml"         # TOML: edit with tomlkit so comments survive
    #: $CODEX_HOME/.env, loaded into its environment at start (0.171.0, observed: policy.py LAYERS)
    env_files: ClassVar[tuple[str, ...]] = (".env",)
    hooks_file: ClassVar[str] = "hooks.json"
    persona_file: ClassVar[str] = "AGENTS.md"
    skills_dir: ClassVar[str] = "~/.agents/skills"        # ~/.codex/prompts was removed in 0.117
    #: hooks.json top level: anything else (e.g. "version") rejects the whole file
    hooks_json_top_keys: ClassVar[tuple[str, ...]] = ("description", "hooks")
    handler_types: ClassVar[tuple[str, ...]] = ("command",)
    #: observed: a prompt handler is skipped with the warning "prompt hooks are not supported
    #: yet"; the following handlers keep their indexes
    skipped_handler_types: ClassVar[tuple[str, ...]] = ("prompt",)
    #: observed: timeout must be a non-negative integer (u64); 2.5 rejects the whole file;
    #: 0 is raised to 1
    timeout_min_sec: ClassVar[int] = 1
    trust_statuses: ClassVar[tuple[str, ...]] = ("managed", "untrusted", "trusted", "modified")
    #: `[hooks.state."<key>"]` in config.toml carries trusted_hash and enabled
    hook_state_table: ClassVar[str] = "hooks.state"
    mcp_table: ClassVar[str] = "mcp_servers"
    mcp_stdio_keys: ClassVar[tuple[str, ...]] = ("command", "args", "env", "env_vars", "cwd")
    mcp_http_keys: ClassVar[tuple[str, ...]] = ("url", "bearer_token_env_var", "http_headers",
                                                "env_http_headers")
    mcp_common_keys: ClassVar[tuple[str, ...]] = ("enabled", "enabled_tools", "disabled_tools",
                                                  "startup_timeout_sec", "tool_timeout_sec")
    #: no type key; no inline token
    mcp_rejected_keys: ClassVar[tuple[str, ...]] = ("bearer_token", "type")
    mcp_transports: ClassVar[tuple[str, ...]] = ("stdio", "streamable_http")  # no SSE
    #: observed (`codex mcp list` / `--print-startup-config`): an inline bearer_token, or a
    #: server with neither command nor url ("invalid transport"), makes Codex refuse the whole
    #: config; a `type` key is only ignored (a warning; `--strict-config` refuses it)
    mcp_fatal_keys: ClassVar[tuple[str, ...]] = ("bearer_token",)
    mcp_ignored_keys: ClassVar[tuple[str, ...]] = ("type",)
    #: observed: hooks.json is plain JSON (a comment: "failed to parse hooks config")
    hooks_json_jsonc: ClassVar[bool] = False
    #: top-level config.toml keys Codex accepts (see CONFIG_KEYS)
    config_keys: frozenset[str]
    #: observed: a value of the wrong type makes Codex refuse the whole config ("failed to load
    #: bootstrap configuration"); kinds: str, bool, int, table, str_list
    config_key_types: Mapping[str, str]
    #: where `codex login` keeps its tokens (documented; only its mode is ever read)
    credential_files: ClassVar[tuple[str, ...]] = ("auth.json",)
    #: observed: the configWarning Codex sends when it cannot load config.toml and runs on its
    #: defaults (every other configWarning leaves the config in effect)
    config_invalid_warning: ClassVar[str] = "Invalid configuration; using defaults."
    #: observed (0.171.0 on Linux without bwrap): the configWarning about this machine's sandbox
    #: prerequisite, not about any config ("Codex could not find bubblewrap on PATH. Install
    #: bubblewrap with your OS package manager. ... Codex will use the bundled bubblewrap in the
    #: meantime.")
    sandbox_missing_warning: ClassVar[str] = "could not find bubblewrap"


#: Top-level config.toml keys Codex 0.171.0 accepts. Source: the ConfigToml field names compiled
#: into the codex binary, its embedded default config, and every standalone snake_case name in
#: the binary (9,846), each tried alone with `codex app-server --strict-config
#: --print-startup-config`, which names an unknown field; these are the names it accepted. A key
#: stored only inside another string could still be missing: `doctor --live` asks Codex itself.
CONFIG_KEYS: frozenset[str] = frozenset((
    "agents", "allow_login_shell", "allow_symlinked_codex_home", "analytics", "approval_policy",
    "approvals_reviewer", "apps", "apps_mcp_product_sku", "audio", "auto_review",
    "background_terminal_max_timeout", "browser_use", "chatgpt_base_url",
    "check_for_update_on_startup", "cli_auth_credentials_store",
    "cloud", "code_mode", "compact_prompt", "computer_use", "default_permissions", "desktop",
    "developer_instructions", "disable_paste_burst", "experimental_realtime_start_instructions",
    "experimental_realtime_webrtc_call_base_url", "experimental_realtime_ws_backend_prompt",
    "experimental_realtime_ws_base_url", "experimental_realtime_ws_model",
    "experimental_realtime_ws_startup_context", "experimental_thread_store",
    "experimental_thread_store_endpoint", "experimental_use_unified_exec_tool", "features",
    "file_opener", "forced_chatgpt_workspace_id", "forced_login_method", "ghost_snapshot",
    "goals", "hide_agent_reasoning", "history", "hooks", "include_apps_instructions",
    "include_collaboration_mode_instructions", "include_environment_context",
    "include_environment_context_time", "include_permissions_instructions", "instructions",
    "js_repl_node_module_dirs", "js_repl_node_path", "log_dir", "mcp_enterprise_managed_auth",
    "mcp_oauth_callback_port", "mcp_oauth_callback_url", "mcp_oauth_credentials_store",
    "mcp_optional_startup_grace_ms", "mcp_servers", "memories", "model",
    "model_auto_compact_token_limit", "model_auto_compact_token_limit_scope",
    "model_catalog_json", "model_context_window", "model_instructions_file",
    "model_post_turn_compact_threshold_percent", "model_provider", "model_providers",
    "model_reasoning_effort", "model_reasoning_summary", "model_verbosity", "notice", "notify",
    "openai_base_url", "orchestrator", "oss_provider", "otel", "permissions", "personality",
    "plan_mode_reasoning_effort", "plugins", "profile", "profiles",
    "project_doc_fallback_filenames", "project_doc_max_bytes", "project_root_markers",
    "projects", "responses", "responses_api_metadata", "review_model", "rollout_trace",
    "sandbox_mode", "sandbox_workspace_write", "service_tier", "shell_environment_policy",
    "show_raw_agent_reasoning", "skills", "sqlite_home", "suppress_unstable_features_warning",
    "thread_unload_delay_secs", "tool_output_token_limit", "tool_suggest", "tools", "tui",
    "web_search", "windows",
))

#: Observed: each of these of the wrong kind fails the whole config.
CONFIG_KEY_TYPES: Mapping[str, str] = frozen_map({
    "model": "str", "review_model": "str", "model_provider": "str", "approval_policy": "str",
    "sandbox_mode": "str", "model_reasoning_effort": "str", "notify": "str_list",
    "project_doc_max_bytes": "int", "project_doc_fallback_filenames": "str_list",
    "mcp_servers": "table", "hooks": "table", "features": "table", "tui": "table",
    "profiles": "table", "history": "table", "model_providers": "table", "projects": "table",
    "shell_environment_policy": "table",
})


CODEX = CodexFacts(
    config_keys=CONFIG_KEYS,
    config_key_types=CONFIG_KEY_TYPES,
    target="codex",
    binary=_SPEC.binary,
    npm_package=_SPEC.npm_package,
    verified_versions=("0.171.0", "0.171.0"),
    version_regex=r"codex-cli v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)",
    home_env=_SPEC.home_env,
    home_dirname=_SPEC.home_dirname,
    hook_events=HOOK_EVENTS,
    # observed: hooks/list reports (and hashes) the matcher only on these events; on
    # PreModelRequest, PostModelRequest, UserPromptSubmit, Stop and Interrupt it is dropped
    matcher_events=("PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
                    "SessionStart", "SessionEnd", "SubagentStart", "SubagentStop"),
    timeout_key="timeout",
    timeout_aliases=(),
    wrong_timeout_keys=("timeoutSec",),
    default_timeout_sec=600,
    event_default_timeouts=frozen_map({"SessionEnd": 1, "Interrupt": 1}),
    canonical_events=frozen_map({
        "session_start": "SessionStart", "session_end": "SessionEnd",
        "user_prompt_submit": "UserPromptSubmit", "pre_tool_use": "PreToolUse",
        "post_tool_use": "PostToolUse", "post_tool_use_failure": None,
        "permission_request": "PermissionRequest", "stop": "Stop",
        "subagent_start": "SubagentStart", "subagent_stop": "SubagentStop",
        "pre_compact": "PreCompact", "notification": None, "error": None,
    }),
)


def snake_event(event: str) -> str:
    """"PreToolUse" -> "pre_tool_use" (snake_case passes through unchanged)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def _pascal_event(event: str) -> str:
    if event in CODEX.hook_events:
        return event
    for name in CODEX.hook_events:
        if snake_event(name) == event:
            return name
    raise ValueError(f"Codex drops hook event {event!r}")


def codex_hook_state_key(source_path: str, event: str, group_index: int, handler_index: int) -> str:
    """The key of `[hooks.state."<key>"]`: `<source file path>:<snake_case event>:<group>:<handler>`.
    The path is the absolute path of hooks.json or config.toml as Codex sees it, so moving
    CODEX_HOME or reordering groups/handlers changes keys."""
    return f"{source_path}:{snake_event(_pascal_event(event))}:{group_index}:{handler_index}"


def normalize_handler(event: str, handler: Mapping[str, Any]) -> dict[str, Any]:
    """A command handler as Codex hashes it (observed on 0.171.0): `async` (default false),
    `command`, the effective `timeout` (the event's default when absent, at least 1),
    `type`, plus `statusMessage` and `additionalContextLimit` when set. `timeoutSec` and unknown
    fields are ignored."""
    if handler.get("type", "command") != "command":
        raise ValueError(f"Codex does not run {handler.get('type')!r} handlers")
    timeout = handler.get(CODEX.timeout_key)
    if timeout is None:
        timeout = CODEX.default_timeout(_pascal_event(event))
    out: dict[str, Any] = {
        "async": bool(handler.get("async", False)),
        "command": handler["command"],
        "timeout": max(int(timeout or 0), CODEX.timeout_min_sec),
        "type": "command",
    }
    for optional in ("statusMessage", "additionalContextLimit"):
        if handler.get(optional) is not None:
            out[optional] = handler[optional]
    return out


def codex_trusted_hash(event: str, matcher: str | None, handlers: list[Mapping[str, Any]]) -> str:
    """`"sha256:<hex>"` of the sorted-key compact JSON `{"event_name", "hooks", "matcher"}`.

    Codex computes one hash PER HANDLER (observed): pass `[handler]` to get the `currentHash`
    that `hooks/list` reports for it, and the value to write as `trusted_hash`. The matcher is
    omitted when None and on events that ignore matchers; "" is kept where matchers count."""
    pascal = _pascal_event(event)
    doc: dict[str, Any] = {
        "event_name": snake_event(pascal),
        "hooks": [normalize_handler(pascal, h) for h in handlers],
    }
    if matcher is not None and pascal in CODEX.matcher_events:
        doc["matcher"] = matcher
    body = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + sha256(body)

#: this target's facts, under the name every target's facts module gives them
FACTS = CODEX


# ---- its own deny for file paths: a sandbox permission profile -----------------------------------
# Observed 2026-12-01 in real sandboxed `codex exec` turns (a scripted model, scratch home, no
# credentials; tests/clients/test_native_deny_real.py): agentdeck adds the rules to the
# operator's own profile when config.toml selects one (permissions.py; the policy part's
# NATIVE_DENY says when).

PERMISSIONS_VERIFIED = "0.171.0"

#: what a permission profile's filesystem entries do, as observed
PERMISSIONS: tuple[NativeFact, ...] = tuple(
    NativeFact(c, "observed", PERMISSIONS_VERIFIED) for c in (
    "a permission profile (`default_permissions = \"NAME\"`, `[permissions.NAME]` with "
    "`extends = \":workspace\"`, `[permissions.NAME.filesystem]` `\"PATH\" = \"none\"`) denies "
    "sandboxed shell commands the file (`cat: ...: Permission denied`, bundled bubblewrap), in "
    "`codex exec` too; `~/` and globs (`id_*`, `**`) are accepted",
    "it is a sandbox: `--dangerously-bypass-approvals-and-sandbox` (how agentdeck's own turns "
    "and many operators run codex exec) switches it off and the file was read",
    "a glob entry may only deny (`only supports deny access; use an exact path or trailing /** "
    "for read`): an exception such as `*.pub` = read is refused, the whole config with it",
    "a profile cannot extend `:danger-full-access`: choosing one for the operator changes how "
    "every command runs, not only the protected paths",
    "`\"PATH\" = \"none\"` denies reading and writing; an exact `\"PATH\" = \"read\"` denies "
    "writing (`Read-only file system`) and lets reading through; `[!c]` negates a class, "
    "`{a,b}` is literal, matching is case-sensitive",
    "an entry for a path that does not exist is accepted and blocks creating it; inside the "
    "sandbox its missing parent directory then exists and cannot be made (`mkdir ~/.aws`: File "
    "exists)",
    "an exact-path entry for a file that does not exist made `codex exec` fail to start the "
    "session in about half the runs (\"bwrap: Can't get type of source .../.ssh/config: No "
    "such file or directory\"); glob entries that match nothing, even under a missing folder, "
    "never did (12 runs, 6 with such globs): agentdeck writes every entry as a glob",
    "two entries under one folder that does not exist (`~/.azure/a.json`, `~/.azure/b.json` "
    "with no ~/.azure) make every session fail to start: \"fs sandbox helper failed ... bwrap: "
    "Can't bind mount ... on .../.azure: No such file or directory\" (one such entry alone, or "
    "both once the folder exists, work)",
    "`sandbox_mode = \"danger-full-access\"` in the same config.toml did not switch a selected "
    "default_permissions profile off (the read was still denied)",
    "a sandboxed `python3 -c` that builds ~/.ssh/id_rsa from pieces at run time got "
    "`Permission denied` under the default profile's `~/.ssh/...` entries and printed the key "
    "without them (2026-12-04, system bubblewrap 0.8.0)",
))
