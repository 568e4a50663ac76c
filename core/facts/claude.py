"""Claude Code: facts as data, verified against @anthropic-ai/claude-code 2.1.332.

Sources: /work/shared/reference/FACTS.md; the event list is the one `claude doctor` prints
("Valid events: ...") when settings.json names an unknown event.
"""
from __future__ import annotations

from dataclasses import dataclass

from .versions import CliFacts, frozen_map

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
    settings_file: str = "settings.json"         # hooks live inline here, nested in groups
    local_settings_file: str = "settings.local.json"
    user_mcp_file: str = ".claude.json"          # top-level mcpServers; inside CLAUDE_CONFIG_DIR when set
    project_mcp_file: str = ".mcp.json"
    handler_types: tuple[str, ...] = ("command", "http", "mcp_tool", "prompt", "agent")
    #: `claude doctor` names each problem in its "Invalid settings" section as
    #: "- <file> › <key path>: <message>"; it does not flag unknown keys
    doctor_section: str = "Invalid settings"
    doctor_problem: str = r"^- (?P<file>.+?)(?: \u203a (?P<path>[^:]+))?: (?P<message>.+)$"
    #: `claude mcp list` STARTS stdio servers to health-check them: never run it as a probe
    unsafe_commands: tuple[tuple[str, ...], ...] = (("mcp", "list"),)


CLAUDE = ClaudeFacts(
    target="claude",
    binary="claude",
    npm_package="@anthropic-ai/claude-code",
    verified_versions=("2.1.332", "2.1.332"),
    version_regex=r"^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?) \(Claude Code\)",
    home_env="CLAUDE_CONFIG_DIR",
    home_dirname=".claude",
    hook_events=HOOK_EVENTS,
    matcher_events=(),                           # not observable offline: no claim made
    timeout_key="timeout",
    timeout_aliases=(),
    wrong_timeout_keys=("timeoutSec",),
    default_timeout_sec=600,                     # FACTS.md; not observable offline
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
