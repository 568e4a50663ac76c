"""Claude Code: facts as data, verified against @anthropic-ai/claude-code 2.1.332.

Sources: docs/facts/claude.md; the event list is the one `claude doctor` prints
("Valid events: ...") when settings.json names an unknown event.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Mapping

from ...facts.versions import CliFacts, frozen_map
from ..path_spelling import NativeFact
from . import SPEC as _SPEC


#: Observed: the 34 events `claude doctor` 2.1.332 lists as valid, in its order.
HOOK_EVENTS = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
    "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "SessionEnd", "Stop", "StopFailure",
    "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "PreModelSwitch",
    "PostModelSwitch", "PermissionRequest", "PermissionDenied", "Setup", "TeammateIdle",
    "TaskCreated", "TaskCompleted", "Elicitation", "ElicitationResult", "ConfigChange",
    "WorktreeCreate", "WorktreeRemove", "InstructionsLoaded", "CwdChanged", "FileChanged",
    "DirectoryAdded", "MessageDisplay", "PreSkillShellCommand",
)


@dataclass(frozen=True, kw_only=True)
class ClaudeFacts(CliFacts):
    settings_file: ClassVar[str] = "settings.json"        # hooks live inline here, nested in groups
    local_settings_file: ClassVar[str] = "settings.local.json"
    #: top-level mcpServers; inside CLAUDE_CONFIG_DIR when set
    user_mcp_file: ClassVar[str] = ".claude.json"
    project_mcp_file: ClassVar[str] = ".mcp.json"
    handler_types: ClassVar[tuple[str, ...]] = ("command", "http", "mcp_tool", "prompt", "agent")
    #: `claude doctor` names each problem in its "Invalid settings" section as
    #: "- <file> › <key path>: <message>"; it does not flag unknown keys
    doctor_section: ClassVar[str] = "Invalid settings"
    doctor_problem: ClassVar[str] = (
        r"^- (?P<file>.+?)(?: \u203a (?P<path>[^:]+))?: (?P<message>.+)$")
    #: `claude mcp list` STARTS stdio servers to health-check them: never run it as a probe
    unsafe_commands: ClassVar[tuple[tuple[str, ...], ...]] = (("mcp", "list"),)
    #: observed: `claude doctor` also lists problems of the environment it runs in (not of the
    #: files), e.g. "Missing environment variables: GITHUB_TOKEN" for an MCP server's ${VAR}
    doctor_env_problem: ClassVar[str] = "Missing environment variables"
    #: observed: settings.json is plain JSON (a comment: "Invalid or malformed JSON")
    settings_jsonc: ClassVar[bool] = False
    persona_file: ClassVar[str] = "CLAUDE.md"
    skills_dir: ClassVar[str] = "skills"                   # <CLAUDE_CONFIG_DIR>/skills
    #: observed (`claude doctor`: "Valid types are: stdio, sse, http (or streamable-http), ws");
    #: an entry of another type, or missing its url/command, or with non-array args is skipped
    mcp_types: ClassVar[tuple[str, ...]] = ("stdio", "sse", "http", "streamable-http", "ws")
    mcp_url_types: ClassVar[tuple[str, ...]] = ("sse", "http", "streamable-http", "ws")
    #: How a configured MCP server is kept from starting, observed on 2.1.332 with a stdio
    #: server whose command writes a marker when started (tests/clients/test_claude_mcp_real.py):
    #: there is NO user-level off switch for a server in ~/.claude.json.
    #: - `projects[<project root>].disabledMcpServers` in .claude.json is what `/mcp` "Disable in
    #:   this project" writes: per project only (the root Claude picks, not always the cwd), so
    #:   every other project starts the server;
    mcp_project_disable_key: ClassVar[str] = "disabledMcpServers"
    #: - settings.json `enabledMcpjsonServers` / `disabledMcpjsonServers` approve a project's
    #:   .mcp.json servers only: a user server listed there still starts;
    mcp_json_approval_keys: ClassVar[tuple[str, ...]] = ("enabledMcpjsonServers",
                                                          "disabledMcpjsonServers")
    #: - `"disabled": true` on the entry is ignored: the server starts;
    mcp_entry_disabled_ignored: ClassVar[bool] = True
    #: - settings.json `deniedMcpServers` ([{"serverName": n}]) keeps it from loading anywhere
    #:   (`claude -p`, `claude mcp list`, absent from `/mcp`), but `claude mcp list` still warns
    #:   about the denied entry's unset ${VAR}s;
    mcp_denied_key: ClassVar[str] = "deniedMcpServers"
    #: - a server that is not in .claude.json is not started and warns about nothing.
    #: So agentdeck keeps a default-disabled (or profile-disabled) server out of .claude.json
    #: until it is enabled (the app's MCP switch, mcpAlwaysEnabled), then writes it:
    mcp_off_means: ClassVar[str] = "not-registered"
    #: observed: a `${VAR}` that is unset makes `claude mcp list` and `claude doctor` warn
    #: ("Missing environment variables: VAR"); `${VAR:-default}` expands to the default silently
    mcp_env_default_syntax: ClassVar[str] = "${VAR:-default}"
    #: where Claude Code keeps its login on Linux (documented; only its mode is ever read)
    credential_files: ClassVar[tuple[str, ...]] = (".credentials.json",)
    #: top-level settings.json keys (see SETTINGS_KEYS); unknown ones are ignored silently
    #: observed (tests/clients/test_skill_shell_real.py): a skill's own `!command` lines run
    #: under PreSkillShellCommand, not PreToolUse (which sees `Skill {skill}` only), with
    #: PreToolUse's payload (tool_name "Bash", tool_input {command}); an exit 2, or a JSON
    #: permissionDecision deny or ask (a skill cannot wait for approval), keeps the command from
    #: running, and the reason reaches the model as "[not run: blocked by hook: <reason>]"; a
    #: crash (exit 1) lets it run. So agentdeck registers it beside PreToolUse and judges it as
    #: a shell call.
    also_events: ClassVar[Mapping[str, tuple[str, ...]]] = frozen_map(
        {"pre_tool_use": ("PreSkillShellCommand",)})
    settings_keys: frozenset[str]
    #: observed in `claude doctor`'s "Invalid settings" (e.g. "Expected boolean, but received
    #: string"); kinds: str, bool, number, table
    settings_key_types: Mapping[str, str]


#: Top-level settings.json keys of Claude Code 2.1.332. Source: the settings schema compiled into
#: the 2.1.332 binary (the object of `key: () => zod...describe(...)` members starting at
#: `$schema`), plus the two keys it adds conditionally (disableDirectMcpSkills, xaaIdp). One
#: spread of plugin-contributed keys is dynamic and not listed.
SETTINGS_KEYS: frozenset[str] = frozenset((
    "$schema", "additionalDirectoryConfigRoots", "additionalMarketplaces", "advisorModel",
    "agent", "agentPushNotifEnabled", "allowAllClaudeAiMcps",
    "allowClaudeInChromeWithManagedMcp", "allowManagedHooksOnly", "allowManagedMcpServersOnly",
    "allowManagedPermissionRulesOnly", "allowNestedModelAccessUnderForceLogin",
    "allowedChannelPlugins", "allowedHttpHookUrls", "allowedMarketplaces", "allowedMcpServers",
    "allowedProviders", "alwaysThinkingEnabled", "apiKeyHelper", "appendPlugins",
    "askUserQuestionTimeout", "attribution", "attributionProject", "attributionProjectPolicy",
    "autoCompactEnabled", "autoCompactOfferAnswer", "autoCompactRaisedForLoad",
    "autoCompactWindow", "autoContinueAtUsageLimit", "autoDreamEnabled", "autoMemoryDirectory",
    "autoMemoryEnabled", "autoScrollEnabled", "autoUpdatesChannel", "autoUploadSessions",
    "availableModels", "availableModelsMatch", "awaySummaryEnabled", "awsAuthRefresh",
    "awsCredentialExport", "bashEditDiffEnabled", "bashOutputMaxChars", "blockedMarketplaces",
    "breakReminder", "channelsEnabled", "claudeMd", "claudeMdExcludes",
    "clawdFileProgressEnabled", "cleanupPeriodDays", "companyAnnouncements",
    "crossSessionInbound", "daemonColdStart", "defaultShell", "deniedMcpServers",
    "deniedModels", "desktopMcpServersListScope", "desktopSessionCleanupPeriodDays",
    "dialogExpiry", "disableAgentView", "disableAllHooks", "disableArtifact",
    "disableAutoMode", "disableBundledSkills", "disableClaudeAiConnectors",
    "disableCommandPluginSources", "disableDirectMcpSkills", "disableRemoteControl",
    "disableReplyCheck", "disableSideloadFlags", "disableSkillShellExecution",
    "disableWindowsBashCommandSplit", "disableWorkflows", "disabledMcpjsonServers",
    "doneMeansMerged", "downloadsMirrorUrl", "editorMode", "effortLevel",
    "emojiCompletionEnabled", "enableAllProjectMcpServers", "enableArtifact",
    "enableWorkflows", "enabledMcpjsonServers", "enabledPlugins", "enforceAvailableModels",
    "env", "extraKnownMarketplaces", "fallbackModel", "fastMode", "fastModePerSessionOptIn",
    "feedbackDrafts", "feedbackSurveyRate", "fileCheckpointingEnabled", "fileSuggestion",
    "footerLinksRegexes", "forceLoginGatewayUrl", "forceLoginMethod", "forceLoginOrgUUID",
    "forceRemoteSettingsRefresh", "gatewayInternalNetworks", "gcpAuthRefresh", "hooks",
    "httpHookAllowedEnvVars", "idleCompaction", "includeCoAuthoredBy",
    "includeGitInstructions", "inputNeededNotifEnabled", "isolatePeerMachines",
    "keybindingFlavor", "language", "managedMcpServers", "managedSourcesBehavior",
    "maxEffortLevel", "maxProseWidth", "minimumVersion", "model", "modelCatalogPublicKey",
    "modelCatalogUrl", "modelOverrides", "modelPicker", "modelPricing", "modelProposedGoals",
    "modelSettings", "otelHeadersHelper", "outputStyle", "parentSettingsBehavior",
    "permissions", "plansDirectory", "pluginConfigs", "pluginSuggestionMarketplaces",
    "pluginTrustMessage", "policyHelper", "policyHelpers", "prUrlTemplate",
    "precomputeArmTokens", "precomputeCompactionEnabled", "preferredNotifChannel",
    "prefersReducedMotion", "prependPlugins", "processWrapper", "promptCacheTtl",
    "promptSuggestionEnabled", "proxyAuthHelper", "quietHours", "remote", "remoteControl",
    "remoteControlAtStartup", "remoteMessageReceipts", "remoteTools", "requiredMaximumVersion",
    "requiredMinimumVersion", "respectGitignore", "respondToBashCommands",
    "responseComparisonEnabled", "sandbox", "showClearContextOnPlanAccept",
    "showMessageTimestamps", "showThinkingSummaries", "showTurnDuration",
    "skillListingBudgetFraction", "skillListingMaxDescChars", "skillOverrides",
    "skipDangerousModePermissionPrompt", "skipWebFetchPreflight", "skipWorkflowUsageWarning",
    "spellcheck", "spinnerTipsEnabled", "spinnerTipsOverride", "spinnerVerbs", "sshConfigs",
    "sshHostCommands", "statusLine", "strictKnownMarketplaces",
    "strictPluginOnlyCustomization", "subagentPromptCacheTtl", "subagentStatusLine",
    "switchModelsOnFlag", "syncClaudeAiPlugins", "syncClaudeAiSkills",
    "syntaxHighlightingDisabled", "taskOutputMaxChars", "teammateMode",
    "terminalProgressBarEnabled", "terminalTitleFromRename", "theme", "timeFormat", "timeZone",
    "todoFeatureEnabled", "totalTokensReminder", "totalTokensReminderAfterUserTurn",
    "totalTokensReminderBudget", "tui", "ultracode", "verbose", "viewMode",
    "vimInsertModeRemaps", "voice", "wheelScrollAccelerationEnabled",
    "workflowKeywordTriggerEnabled", "workflowSizeGuideline", "worktree",
    "wslInheritsWindowsSettings", "xaaIdp"
))

SETTINGS_KEY_TYPES: Mapping[str, str] = frozen_map({
    "model": "str", "apiKeyHelper": "str", "disableAllHooks": "bool",
    "includeCoAuthoredBy": "bool", "cleanupPeriodDays": "number", "env": "table",
    "permissions": "table", "statusLine": "table", "enabledPlugins": "table",
})


CLAUDE = ClaudeFacts(
    settings_keys=SETTINGS_KEYS,
    settings_key_types=SETTINGS_KEY_TYPES,
    target="claude",
    binary=_SPEC.binary,
    npm_package=_SPEC.npm_package,
    verified_versions=("2.1.332", "2.1.332"),
    version_regex=r"^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?) \(Claude Code\)",
    home_env=_SPEC.home_env,
    home_dirname=_SPEC.home_dirname,
    hook_events=HOOK_EVENTS,
    matcher_events=(),                           # not observable offline: no claim made
    timeout_key="timeout",
    timeout_aliases=(),
    wrong_timeout_keys=("timeoutSec",),
    default_timeout_sec=600,                     # docs/facts/claude.md; not observable offline
    event_default_timeouts=frozen_map({}),
    canonical_events=frozen_map({
        "session_start": "SessionStart", "session_end": "SessionEnd",
        "user_prompt_submit": "UserPromptSubmit", "pre_tool_use": "PreToolUse",
        "post_tool_use": "PostToolUse", "post_tool_use_failure": "PostToolUseFailure",
        "permission_request": "PermissionRequest", "stop": "Stop",
        "subagent_start": "SubagentStart", "subagent_stop": "SubagentStop",
        "pre_compact": "PreCompact", "notification": "Notification",
        "error": "StopFailure",                  # closest meaning
    }),
)

#: this target's facts, under the name every target's facts module gives them
FACTS = CLAUDE


# ---- its own deny for file paths: permissions.deny ---------------------------------------------
# Observed 2026-12-01 in real offline turns (a scripted model calling the named tool, scratch
# home, no credentials; tests/clients/test_native_deny_real.py re-runs them). agentdeck writes each
# [[policy.paths]] deny rule there (permissions.py); the policy part's NATIVE_DENY names it.

PERMISSIONS_VERIFIED = "2.1.332"

#: how a rule path is written in a Read(...)/Edit(...) entry (observed)
PERMISSION_ROOTS = {
    "home": "~/",          # `Read(~/.ssh/id_*)` is the home directory ($HOME)
    "absolute": "//",      # `Read(//abs/path)`: a double slash is the filesystem root
}

#: the entry kinds, per access (observed): a Read deny stops the Read tool and also Edit/Write of
#: the file ("covered by a Read deny rule ... cannot be edited"); an Edit deny stops Edit and
#: Write but not Read; a `Write(...)` entry is accepted and enforces nothing
PERMISSION_ENTRY = {"read": "Read", "write": "Edit"}

#: the characters a rule path may hold for its Claude entry: `*`, `**`, `?` and positive classes
#: `[abc]` / `[a-z]` behave as in the rule; `[!x]` and `[^x]` are NOT negations there (a class
#: holding `!`/`^`), `{a,b}` is literal, and `(`/`)` would end the entry
PERMISSION_UNSUPPORTED = ("[!", "[^", "{", "}", "(", ")", "\\")

#: the alphabet agentdeck spells a "any character but c" class with (Claude has no negated class;
#: its matching is case-insensitive, so lower case covers upper case too). A name ending in a
#: character outside it is left to the hook.
PERMISSION_CLASS_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789._+@-"

#: the words of a tool result when permissions.deny refuses the call (observed with
#: PERMISSIONS_VERIFIED, below)
PERMISSION_REFUSAL = "denied by your permission settings"

#: what permissions.deny does, as observed
PERMISSIONS: tuple[NativeFact, ...] = tuple(
    NativeFact(c, "observed", PERMISSIONS_VERIFIED) for c in (
    "permissions.deny in ~/.claude/settings.json holds in -p mode under bypassPermissions, "
    "--allowedTools and the default mode alike: the Read tool answers \"File is in a directory "
    "that is denied by your permission settings\" and returns nothing",
    "the deny does not depend on hooks: it holds with no hook registered",
    "`~/` is the home directory and `//` the filesystem root; a single leading `/` and a bare "
    "name are not the home or the root (`Read(/abs/...)`, `Read(id_rsa)`, `Read(**/id_rsa)` "
    "did not stop a read of ~/.ssh/id_rsa from another working directory)",
    "`*`, `**`, `?`, `[a-z]` and `[abc]` are globs; `[!b]` and `[^b]` are not negations; "
    "`{a,b}` is not an alternative",
    "gitignore-style: a pattern that matches a directory covers everything below it "
    "(`Read(~/.ss*)` denied ~/.ssh/id_rsa)",
    "matching is case-insensitive: `Read(~/.SSH/ID_*)` denied ~/.ssh/id_rsa",
    "paths are normalized and symlinks resolved before matching: ~/.ssh/./id_rsa, "
    "~/.ssh//id_rsa, ~/.ssh/../.ssh/id_rsa and a symlink to the key were denied",
    "an allow entry does not carve an exception out of a deny (deny wins), and there is no "
    "negation: `Read(!~/.ssh/*.pub)` did not re-allow id_rsa.pub",
    "a Read deny also stops Edit and Write of the file; an Edit deny stops Edit and Write but "
    "not Read; `Write(...)` entries are accepted and enforce nothing",
    "Read denies are also applied to simple Bash reads: cat, head, sed, awk, nl, base64, `cat "
    "< file`, `cd ~/.ssh && cat id_rsa`, `cat $HOME/...`, quoted paths, cp of the file, and "
    "`ls -l` of the file were denied",
    "Read denies are NOT applied to Bash globs (`cat ~/.ssh/id_r*`), recursive readers (`grep "
    "-r`, `tar`), interpreters (`python3 -c open(...)`) or unknown readers (`xxd`)",
    "Edit denies are applied to Bash writes: `>` redirection, rm, tee, cp onto the file; a "
    "Read deny alone is not (`>`, rm and tee of a Read-denied file ran; `sed -i` was denied)",
    "this version offers no Grep or Glob tool in -p mode (its tools: Agent, Bash, Edit, Read, "
    "Write, Skill, ToolSearch, ...): searches go through Bash",
))


# ---- its command sandbox: the floor under code that builds its own paths -------------------------
# Observed 2026-12-04 in real offline turns (a scripted model calling Bash, scratch home, no
# credentials, bubblewrap 0.8.0 and socat installed, agentdeck's hook absent or inert;
# tests/clients/test_claude_sandbox_real.py re-runs them). agentdeck writes each [[policy.paths]]
# deny rule there only when the operator's settings.json turns the sandbox on (sandbox.py).

SANDBOX_VERIFIED = "2.1.332"

#: where the entries go in settings.json, per access (observed)
SANDBOX_KEYS = {"read": ("sandbox", "filesystem", "denyRead"),
                "write": ("sandbox", "filesystem", "denyWrite")}

#: how a rule path is written in a sandbox entry (observed): `~/` is the home, a single `/` the
#: filesystem root (`//x` also worked)
SANDBOX_ROOTS = {"home": "~/", "absolute": "/"}

#: what a rule path may not hold in a sandbox entry: `[!x]` and `[^x]` are not negations there (a
#: class holding `!`/`^`: `~/.ssh/id_*[^b]` denied id_rsa.pub and let id_rsa through); braces and
#: backslashes were not tried
SANDBOX_UNSUPPORTED = ("[!", "[^", "{", "}", "\\")

#: what the sandbox does, as observed
SANDBOX: tuple[NativeFact, ...] = tuple(
    NativeFact(c, "observed", SANDBOX_VERIFIED) for c in (
    "with `sandbox.enabled: true` and `sandbox.filesystem.denyRead: [\"~/.ssh/id_rsa\"]` in "
    "~/.claude/settings.json, a Bash `python3 -c` that builds the path from pieces at run time "
    "got `PermissionError: [Errno 13] Permission denied` (bubblewrap); without the entry it "
    "printed the key; this holds in -p mode under bypassPermissions with no hook",
    "`sandbox.enabled` changes how every Bash command runs: writes outside the working folder "
    "fail (`Read-only file system`), network goes through the sandbox's proxy",
    "globs are expanded: `~/.ssh/id_*` denied id_rsa and id_rsa.pub; `*` and positive classes "
    "(`[acd...]`) match as in the rule; `[!b]` and `[^b]` are not negations; matching is "
    "case-sensitive (`ID_RSA` stayed readable under `~/.ssh/id_*[...]`)",
    "`sandbox.filesystem.allowRead` re-opens a path inside a denyRead (`~/.ssh/*.pub` under "
    "`~/.ssh/id_*`); agentdeck does not use it (it would re-open the path for every rule)",
    "`sandbox.filesystem.denyWrite: [\"~/.ssh/authorized_keys\"]` (with `allowWrite: "
    "[\"~/.ssh\"]`) stopped a `python3 -c` append to the file (`Permission denied`) while a "
    "neighbour was written; a denyRead/denyWrite entry naming a file or folder that does not "
    "exist did not stop the session",
    "with the sandbox on, permissions.deny entries are enforced by it too: `Read(~/.ssh/id_rsa)` "
    "with no filesystem list stopped the `python3 -c` read (`Permission denied`), and "
    "`Edit(~/.ssh/authorized_keys)` the `python3 -c` append; the sandbox on with neither "
    "printed the key",
    "escape hatch: a Bash call with `dangerouslyDisableSandbox: true` ran outside the sandbox "
    "and read the key under bypassPermissions, unless settings.json sets "
    "`sandbox.allowUnsandboxedCommands: false` (then the same call was refused by the sandbox)",
    "a working folder's .claude/settings.json switches the floor off there: with "
    "`\"sandbox\": {\"enabled\": false}` the `python3 -c` printed the key although the user's "
    "settings had the sandbox on with denyRead, allowUnsandboxedCommands false and "
    "failIfUnavailable true; its `sandbox.filesystem.allowRead: [\"~/.ssh/id_rsa\"]` re-opened "
    "the key too (a project file with neither left the deny in place)",
    "without bubblewrap and socat on PATH, `claude -p` ran the `python3 -c` unsandboxed and "
    "printed the key, with no message; with `sandbox.failIfUnavailable: true` it refused to "
    "start (exit 1, \"sandbox required but unavailable: ... bubblewrap (bwrap) not installed, "
    "socat not installed\")",
))
