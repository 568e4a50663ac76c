"""GitHub Copilot CLI: facts as data, verified against @github/copilot 1.0.102.

Sources: docs/facts/copilot.md, whose "Observed by agentdeck" section holds the corrections
where the real CLI disagreed (the comments marked "observed" here); observations come from
`hooks.discover` over `copilot --headless --stdio` in a scratch home
(tests/clients/test_probes_real.py re-checks them).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping

from ...digest import sha256
from ...facts.versions import CliFacts, frozen_map
from ..path_spelling import NativeFact
from . import SPEC as _SPEC


#: The 105 canonical top-level keys of settings.json. Source: the settings catalogue compiled
#: into Copilot 1.0.102 (`{"canonicalKeys": [...]}` in pkg/<platform>/1.0.102/prebuilds/
#: linux-x64/runtime.node, the native settings loader), cross-checked by writing every key to a
#: scratch settings.json and reading the loader's "Ignoring unknown top-level key(s)" warning
#: (none of these is named). `copilot help config` documents only a subset of them.
SETTINGS_KEYS: frozenset[str] = frozenset((
    "mouse", "askUser", "autoUpdate", "bashEnv", "powershellFlags", "autoUpdatesChannel", "banner",
    "bannerStyle", "showTipsOnStartup", "beep", "beepOnSchedule", "notifications",
    "terminalNotifications", "taskbarPresence", "keepAlive", "includeCoAuthoredBy", "compactPaste",
    "copyOnSelect", "commandHistoryMaxSize", "worktreeBaseRef", "worktreePathTemplate",
    "respectGitignore", "proxyKerberosServicePrincipal", "proxyUrl", "builtInAgents", "memory",
    "toolSearch", "contextManagementTools", "connectors", "imageGeneration",
    "imageGenerationWatermark", "model", "modelProviderId", "autoTier", "effortLevel",
    "contextTier", "planModel", "planModelProviderId", "planEffortLevel", "planContextTier",
    "subagents", "workflows", "continueOnAutoMode", "stayInAutopilot", "defaultMode",
    "defaultPermissionMode", "assistedApprovalInstructions", "shellShortcut", "renderMarkdown",
    "renderHexColors", "inlineImages", "inlineImageLiveWindow", "scrollbar", "pinnedPrompts",
    "sidebar", "remoteExport", "statusLine", "screenReader", "theme", "allowedUrls", "deniedUrls",
    "storeTokenPlaintext", "stream", "streamerMode", "footer", "tabs", "updateTerminalTitle",
    "terminalProgress", "mergeStrategy", "editorMode", "customAgents", "ide",
    "companyAnnouncements", "enabledFeatureFlags", "feature_flags", "skillDirectories",
    "ignoredSkillsLocations", "disabledSkills", "disabledMcpServers", "enabledMcpServers",
    "githubMcpToolsets", "githubMcpTools", "enableAllGithubMcpTools", "githubMcpInsiders",
    "dynamicRetrieval", "sandbox", "extensions", "enabledPlugins", "extraKnownMarketplaces",
    "strictKnownMarketplaces", "telemetry", "voice", "ahpEnvironment", "permissions", "copilotUrl",
    "transcriptView", "showReasoning", "showTimestamps", "showToolDurations", "disableAllHooks",
    "hooks", "disabledHooks", "remoteSessions", "experimental", "logLevel",
))

#: Older spellings the loader still accepts (no unknown-key warning) and maps to a current key.
#: Source: `legacyAliases` next to the catalogue above; `colorMode` from `copilot help config`.
SETTINGS_LEGACY_ALIASES: Mapping[str, str] = frozen_map({
    "include_coauthor": "includeCoAuthoredBy", "reasoning_effort": "effortLevel",
    "sub_agents": "subagents", "update_channel": "autoUpdatesChannel", "color_mode": "theme",
    "colorMode": "theme",
})

#: The 15 event keys accepted in hook files (camelCase is canonical).
HOOK_EVENTS = (
    "preToolUse", "preMcpToolCall", "postToolUse", "postToolUseFailure", "userPromptSubmitted",
    "userPromptTransformed", "sessionStart", "sessionEnd", "errorOccurred", "agentStop",
    "subagentStart", "subagentStop", "preCompact", "permissionRequest", "notification",
)

#: PascalCase (VS Code / Claude-compatible) keys and the event they mean. Such a key switches the
#: payload to snake_case fields and Claude tool names, and (observed) adds
#: `"_vsCodeCompat": "<the key as written>"` to the normalized action, so its disable key differs
#: from the same action under the camelCase event.
PASCAL_ALIASES: Mapping[str, str] = frozen_map({
    "SessionStart": "sessionStart", "SessionEnd": "sessionEnd", "PreToolUse": "preToolUse",
    "PreMcpToolCall": "preMcpToolCall", "PostToolUse": "postToolUse",
    "PostToolUseFailure": "postToolUseFailure", "ErrorOccurred": "errorOccurred",
    "SubagentStart": "subagentStart", "SubagentStop": "subagentStop",
    "PermissionRequest": "permissionRequest", "Notification": "notification",
    "PreCompact": "preCompact", "UserPromptSubmit": "userPromptSubmitted", "Stop": "agentStop",
})


@dataclass(frozen=True, kw_only=True)
class CopilotFacts(CliFacts):
    """Copilot CLI's facts (docs/facts/copilot.md), for its verified_versions."""
    settings_file: ClassVar[str] = "settings.json"         # JSONC
    #: tool-managed: never write; read trustedFolders only
    config_file: ClassVar[str] = "config.json"
    hooks_dir: ClassVar[str] = "hooks"                     # hooks/*.json
    mcp_file: ClassVar[str] = "mcp-config.json"
    persona_file: ClassVar[str] = "copilot-instructions.md"
    agents_dir: ClassVar[str] = "agents"
    logs_dir: ClassVar[str] = "logs"           # process-<ms>-<pid>.log, settings warnings land here
    skills_dirs: ClassVar[tuple[str, ...]] = ("~/.agents/skills", "<COPILOT_HOME>/skills")
    repo_hook_dir: ClassVar[str] = ".github/hooks"
    repo_settings_file: ClassVar[str] = ".github/copilot/settings.json"
    repo_mcp_files: ClassVar[tuple[str, ...]] = (".mcp.json", ".github/mcp.json")
    policy_hooks_dir: ClassVar[str] = "/etc/github-copilot/policy.d"
    hook_file_version: ClassVar[int] = 1                # optional; any other value rejects the file
    #: the 12 events agentdeck registers (docs/facts/copilot.md section 10, COPILOT-COMPAT §2.1)
    register_events: tuple[str, ...]
    #: in the schema enum but callback-only: dropped from files without an error (observed)
    callback_only_events: ClassVar[tuple[str, ...]] = ("postResult", "prePRDescription")
    pascal_aliases: Mapping[str, str]
    #: spellings that look right but are silently dropped
    dropped_event_names: ClassVar[tuple[str, ...]] = ("AgentStop", "UserPromptSubmitted",
                                                      "sessionstart", "session_start")
    action_types: ClassVar[tuple[str, ...]] = ("command", "http", "prompt")
    #: observed: `"type": "prompt"` is "Invalid hook type" on every event but sessionStart, and a
    #: prompt action has no disable key
    prompt_events: ClassVar[tuple[str, ...]] = ("sessionStart",)
    https_only_http_events: ClassVar[tuple[str, ...]] = ("preToolUse", "preMcpToolCall",
                                                         "permissionRequest")
    #: field order of the normalized action hashed into a disable key (observed, per action type)
    disable_key_fields: Mapping[str, tuple[str, ...]]
    #: observed: hooks.discover honours `disabledHooks` (enabled: false) but NOT
    #: `disableAllHooks` (rows stay enabled, with keys, although its schema says otherwise):
    #: read disableAllHooks from settings.json itself
    discover_applies_disable_all: ClassVar[bool] = False
    #: observed 2026-12-01 (1.0.102): with `disableAllHooks: true` in settings.json a real `-p`
    #: turn still runs every user hook (tests/clients/test_drill_real.py::
    #: test_copilot_runs_user_hooks_despite_disable_all_hooks), although the settings schema says
    #: it disables them (docs/facts/copilot.md section 3). Claude Code does honour its own
    #: disableAllHooks.
    disable_all_stops_user_hooks: ClassVar[bool] = False
    settings_keys: frozenset[str]
    settings_legacy_aliases: Mapping[str, str]
    #: keys that belong elsewhere and draw the unknown-key warning in settings.json
    settings_misplaced_keys: Mapping[str, str]
    unknown_settings_warning: ClassVar[str] = (
        r'Ignoring unknown top-level key\(s\) in (?:user|repo\w*) '
        r'settings file "(?P<path>[^"]+)": (?P<keys>.*?)\. They are not')
    mcp_transports: ClassVar[tuple[str, ...]] = ("local", "stdio", "http", "sse")
    mcp_command_transports: ClassVar[tuple[str, ...]] = ("local", "stdio")
    mcp_url_transports: ClassVar[tuple[str, ...]] = ("http", "sse")
    mcp_server_keys: ClassVar[tuple[str, ...]] = ("type", "command", "args", "env", "cwd", "url",
                                                  "headers", "tools", "timeout", "auth", "oidc")
    mcp_timeout_unit: ClassVar[str] = "ms"
    #: observed: `mcp list --json` fills tools ["*"]
    mcp_default_tools: ClassVar[tuple[str, ...]] = ("*",)
    #: observed: hook files are plain JSON -- a comment rejects the whole file ("Invalid JSON");
    #: mcp-config.json accepts comments (JSONC), like settings.json
    hook_files_jsonc: ClassVar[bool] = False
    mcp_file_jsonc: ClassVar[bool] = True
    #: observed: Copilot adds a built-in MCP server of this name (cli-main.js), so
    #: disabledMcpServers may name it although no config file defines it
    builtin_mcp_servers: ClassVar[tuple[str, ...]] = ("github-mcp-server",)


COPILOT = CopilotFacts(
    target="copilot",
    binary=_SPEC.binary,
    npm_package=_SPEC.npm_package,
    verified_versions=("1.0.102", "1.0.102"),
    # "GitHub Copilot CLI 1.0.102." then (observed, also in 1.0.102 from npm) a second line
    # "Run 'copilot update' to check for updates."; `copilot version` prints no period.
    version_regex=r"GitHub Copilot CLI v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)",
    home_env=_SPEC.home_env,
    home_dirname=_SPEC.home_dirname,
    hook_events=HOOK_EVENTS,
    # observed: the matcher is kept (and hashed) only on these events; elsewhere it is dropped,
    # including postToolUseFailure
    matcher_events=("preToolUse", "preMcpToolCall", "postToolUse", "subagentStart", "preCompact",
                    "permissionRequest", "notification"),
    timeout_key="timeoutSec",
    timeout_aliases=("timeout",),                # observed: timeoutSec wins when both are set
    wrong_timeout_keys=("timeoutSeconds",),
    default_timeout_sec=None,                    # docs/facts/copilot.md: no timeoutSec, no timeout
    event_default_timeouts=frozen_map({}),
    canonical_events=frozen_map({
        "session_start": "sessionStart", "session_end": "sessionEnd",
        "user_prompt_submit": "userPromptSubmitted", "pre_tool_use": "preToolUse",
        "post_tool_use": "postToolUse", "post_tool_use_failure": "postToolUseFailure",
        "permission_request": "permissionRequest", "stop": "agentStop",
        "subagent_start": "subagentStart", "subagent_stop": "subagentStop",
        "pre_compact": "preCompact", "notification": "notification", "error": "errorOccurred",
    }),
    register_events=("sessionStart", "sessionEnd", "userPromptSubmitted", "preToolUse",
                     "postToolUse", "postToolUseFailure", "agentStop", "subagentStart",
                     "subagentStop", "preCompact", "permissionRequest", "notification"),
    pascal_aliases=PASCAL_ALIASES,
    disable_key_fields=frozen_map({
        "command": ("type", "bash", "powershell", "exec", "args", "cwd", "env", "timeoutSec",
                    "matcher", "_vsCodeCompat"),
        "http": ("type", "url", "headers", "allowedEnvVars", "timeoutSec", "matcher",
                 "_vsCodeCompat"),
    }),
    settings_keys=SETTINGS_KEYS,
    settings_legacy_aliases=SETTINGS_LEGACY_ALIASES,
    settings_misplaced_keys=frozen_map({"trustedFolders": "config.json"}),
)


def resolve_event(name: str) -> tuple[str, str | None] | None:
    """(camelCase event, PascalCase key as written or None) for a hook-file event key, or None
    when Copilot drops the key (unknown, callback-only, or a near miss like "AgentStop")."""
    if name in COPILOT.hook_events:
        return name, None
    if name in COPILOT.pascal_aliases:
        return COPILOT.pascal_aliases[name], name
    return None


def normalize_action(event: str, action: Mapping[str, Any]) -> dict[str, Any]:
    """The action as Copilot normalizes it before hashing (observed on 1.0.102):

    - `type` defaults to "command"; `command` fills `bash` and `powershell` where those are
      missing (an explicit `bash`/`powershell` wins);
    - `timeout` is an alias of `timeoutSec` (timeoutSec wins); numbers keep their JSON form
      (5 stays 5, 5.0 stays 5.0); `timeoutSeconds` and other unknown keys are dropped;
    - `matcher` is kept only on `COPILOT.matcher_events`;
    - `env`/`headers` keep the author's key order;
    - under a PascalCase key, `"_vsCodeCompat": "<key>"` is appended;
    - keys are emitted in the order of `COPILOT.disable_key_fields[type]`.

    Raises ValueError for an event Copilot drops and for an action Copilot skips or never gives a
    disable key (prompt actions, empty matcher, missing command/url)."""
    resolved = resolve_event(event)
    if resolved is None:
        raise ValueError(f"Copilot drops hook event {event!r}")
    canonical, vscode_key = resolved
    kind = action.get("type", "command")
    if kind not in COPILOT.disable_key_fields:
        raise ValueError(f"{kind!r} actions have no disable key")
    src: dict[str, Any] = dict(action)
    src["type"] = kind
    if kind == "command":
        cmd = src.get("command")
        if cmd is not None:
            src.setdefault("bash", cmd)
            src.setdefault("powershell", cmd)
        if not any(k in src for k in ("bash", "powershell", "exec")):
            raise ValueError("a command action needs bash, powershell, command or exec")
    elif not src.get("url"):
        raise ValueError("an http action needs a url")
    if "timeoutSec" not in src:
        for alias in COPILOT.timeout_aliases:
            if alias in src:
                src["timeoutSec"] = src[alias]
                break
    if canonical not in COPILOT.matcher_events:
        src.pop("matcher", None)
    elif src.get("matcher") == "":
        raise ValueError("matcher cannot be empty (Copilot skips the action)")
    src.pop("_vsCodeCompat", None)
    if vscode_key is not None:
        src["_vsCodeCompat"] = vscode_key
    return {k: src[k] for k in COPILOT.disable_key_fields[kind] if k in src}


def copilot_disable_key(event: str, action: Mapping[str, Any]) -> str:
    """The content hash Copilot lists in settings.json `disabledHooks` for this action:
    sha256 hex of `<camelCase event> + "\\0" + compact JSON of the normalized action` (UTF-8,
    non-ASCII kept raw). `event` may be the camelCase name or a PascalCase alias. The file path
    is not part of it."""
    canonical, _ = resolve_event(event) or (event, None)
    body = json.dumps(normalize_action(event, action), separators=(",", ":"), ensure_ascii=False)
    return sha256(f"{canonical}\0{body}")

#: this target's facts, under the name every target's facts module gives them
FACTS = COPILOT


# ---- its own deny for file paths -----------------------------------------------------------------
# Observed 2026-12-01 in real offline turns (a scripted model calling the view tool, scratch home,
# no credentials): Copilot has such a layer only as command-line flags or in enterprise-managed
# settings, so agentdeck never writes it (the policy part's NATIVE_DENY says why).

PERMISSIONS_VERIFIED = "1.0.102"

#: what Copilot's own path denies do, as observed
PERMISSIONS: tuple[NativeFact, ...] = tuple(
    NativeFact(c, "observed", PERMISSIONS_VERIFIED) for c in (
    "`--deny-tool 'read(PATH)'` (absolute, `~/`, a glob like `id_*`, or a bare name) stops the "
    "view tool (\"Permission to run this tool was denied due to the following rules\"); "
    "`write(PATH)` is its documented counterpart for file writes; neither applies to shell "
    "commands (`cat` of the file ran)",
    "those rules exist only as command-line flags: no environment variable or user setting "
    "carries them, so a home-level install cannot set them for every session",
    "settings.json `permissions.deny` is enterprise-managed only (its setting schema marks it "
    "managedOnly): in ~/.copilot/settings.json it is ignored (the view ran)",
    "`sandbox.userPolicy.filesystem.deniedPaths` applies to sandboxed shell commands only, "
    "needs `sandbox.enabled` and bubblewrap 0.5+ on Linux, and without bwrap the command ran "
    "unsandboxed and read the file",
))


# ---- its command sandbox (settings.json `sandbox`) ------------------------------------------------
# Observed 2026-12-04 in real offline turns (a scripted model calling bash, scratch home, no hook,
# --allow-all, bubblewrap 0.8.0 installed, no slirp4netns); the keys are its
# schemas/api.schema.json SandboxConfig. agentdeck does not write into it (a rule's glob would be
# taken literally, and a missing path is made on the host), so the policy part has no
# RUNTIME_FLOOR and `policy show` says "nothing".

SANDBOX_VERIFIED = "1.0.102"

SANDBOX: tuple[NativeFact, ...] = tuple(
    NativeFact(c, "observed", SANDBOX_VERIFIED) for c in (
    "`\"sandbox\": {\"enabled\": true, \"userPolicy\": {\"network\": {\"allowOutbound\": false, "
    "\"allowLocalNetwork\": false}, \"filesystem\": {\"deniedPaths\": [\"~/.ssh/id_rsa\"]}}}` in "
    "~/.copilot/settings.json: a bash `python3 -c` that builds the path at run time got "
    "`PermissionError: [Errno 13] Permission denied`, `cat ~/.ssh/id_rsa.pub` ran; the tool "
    "result adds \"this failure may be caused by the active sandbox policy\"",
    "with the sandbox's network left on and no slirp4netns installed, no shell command starts "
    "(\"Cannot start sandboxed command: Bubblewrap ... requires 'slirp4netns' on PATH\")",
    "deniedPaths are literal paths, not globs: `~/.ssh/id_*` denied nothing but a new "
    "folder named `id_*`, and id_rsa stayed readable",
    "a deniedPaths entry that does not exist is CREATED on the host as an empty folder "
    "(`~/.aws/credentials` and `~/nothere/x` were folders after the turn): writing a rule's "
    "paths there would break the programs that later create those files",
)) + (
    NativeFact("`sandbox.allowBypass` (may the agent ask to run a command outside the sandbox) "
               "defaults to false (its schema text)", "documented", SANDBOX_VERIFIED),
)
