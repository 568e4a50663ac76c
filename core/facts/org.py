"""The organisation layer of each CLI: the system files an administrator (root) owns, that the
CLI reads above the user's home, and what they really enforce -- as data, with the version each
fact was observed with (docs/org.md has the observations in prose).

Observed 2026-12-01 with the pinned CLIs, each in a real offline turn (scripted model server)
run as an unprivileged user (uid 65534, setpriv) inside a private mount namespace whose /etc was
an overlay of the test's own (tests/clients/private_etc.py): the machine's /etc was never
touched. "holds" below means the tool call was refused (the marker file the call would create
stayed absent) while the org hook's receipt was written.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .versions import frozen_map

OBSERVED_ON = "2026-12-01"


@dataclass(frozen=True)
class OrgFacts:
    target: str
    verified: str                           # the CLI version these were observed with
    #: the file agentdeck writes (an absolute system path; a root prefix is put in front of it)
    path: str
    #: "file": a whole file of agentdeck's own (a drop-in); "block": a managed block in a file
    #: the administrator may share with other tools
    kind: str
    #: the hook event agentdeck registers there (the pre-tool event, in the spelling this
    #: layer's file takes)
    pre_tool_event: str
    #: what the CLI does NOT check: agentdeck's own ownership check must (owner/mode/parents)
    cli_checks_ownership: bool
    #: with agentdeck installed in the user's home too: does the user's own pre-tool hook still
    #: run for a call the org hook denies? (observed: the user layer's audit then has, or has
    #: not, a line of its own for that call; its other events were recorded either way)
    user_pre_hook_runs_after_org_deny: bool = True
    #: the ways a user could try to switch the layer off, each with what was observed
    attempts: Mapping[str, str] = field(default_factory=dict)
    #: the keys an administrator can set there that agentdeck writes (org option -> key path)
    keys: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: what this layer cannot do, in one line each
    limits: tuple[str, ...] = ()


CLAUDE = OrgFacts(
    target="claude", verified="2.1.332",
    path="/etc/claude-code/managed-settings.d/agentdeck.json", kind="file",
    pre_tool_event="PreToolUse", cli_checks_ownership=False,
    user_pre_hook_runs_after_org_deny=False,
    attempts=frozen_map({
        "disableAllHooks": "user settings.json \"disableAllHooks\": true: holds",
        "settings_flag": "--settings '{\"disableAllHooks\": true, \"hooks\": {}}': holds",
        "setting_sources": "--setting-sources user: holds (managed settings still read)",
        "bare": "--bare: holds",
        "bypass": "--permission-mode bypassPermissions: holds (the hook runs first)",
        "skip_permissions": "--dangerously-skip-permissions with "
                            "CLAUDE_CODE_EVEN_MORE_DANGEROUSLY_SKIP_PERMISSIONS=1: holds",
        "managed_path_env": "CLAUDE_CODE_MANAGED_SETTINGS_PATH pointing at a user file: holds",
        "user_allow_hook": "a user PreToolUse hook answering permissionDecision allow: holds",
    }),
    keys=frozen_map({
        "managed_hooks_only": ("allowManagedHooksOnly",),
        "no_bypass": ("permissions", "disableBypassPermissionsMode"),
    }),
    limits=(
        "managed-settings.d/*.json and managed-settings.json are both read and merged (both "
        "files' hooks ran); agentdeck writes only its own drop-in",
        "Claude Code reads a drop-in whatever its owner and mode (a 0666 file owned by the "
        "user was honoured): only the file system's permissions keep the user out",
        "allowManagedHooksOnly: true stops the user's own hooks (agentdeck's user-layer audit "
        "hooks too)",
    ),
)

CODEX = OrgFacts(
    target="codex", verified="0.171.0",
    path="/etc/codex/requirements.toml", kind="block",
    pre_tool_event="PreToolUse", cli_checks_ownership=False,
    attempts=frozen_map({
        "features_hooks_off": "user config.toml [features] hooks = false, -c features.hooks="
                              "false or --disable hooks: holds ONLY with [features] hooks = true "
                              "in requirements.toml (without it the managed hook did not run "
                              "and the call went through)",
        "hook_state_disabled": "user [hooks.state.\"/etc/codex/requirements.toml:pre_tool_use:"
                               "0:0\"] enabled = false: holds",
        "untrusted": "no trusted_hash anywhere: holds (hooks/list: trustStatus managed, "
                     "isManaged true, source system)",
        "bypass": "--dangerously-bypass-approvals-and-sandbox, --dangerously-bypass-hook-trust, "
                  "-c hooks={}: holds",
        "user_allow_hook": "a trusted user PreToolUse hook answering permissionDecision allow: "
                           "holds (both ran; the deny won)",
    }),
    keys=frozen_map({
        "hooks_on": ("features", "hooks"),
        "managed_hooks_only": ("allow_managed_hooks_only",),
    }),
    limits=(
        "requirements.toml is one file for every tool an administrator uses: agentdeck keeps "
        "its part in a managed block of dotted root-level keys (no table headers, so text "
        "after the block stays at the root)",
        "a key agentdeck's block sets may not be set elsewhere in the file (TOML forbids it): "
        "the plan refuses such a file, naming it",
        "Codex reads requirements.toml whatever its owner and mode",
    ),
)

COPILOT = OrgFacts(
    target="copilot", verified="1.0.102",
    path="/etc/github-copilot/policy.d/agentdeck.json", kind="file",
    pre_tool_event="preToolUse", cli_checks_ownership=False,
    user_pre_hook_runs_after_org_deny=False,
    attempts=frozen_map({
        "disableAllHooks": "user settings.json \"disableAllHooks\": true: holds",
        "disabledHooks": "user settings.json disabledHooks with the hook's content keys: holds "
                         "(hooks.discover: origin policy, no disableKey)",
        "yolo": "--yolo / --allow-all with COPILOT_ALLOW_ALL=true: holds",
        "managed_path_env": "COPILOT_TEST_MANAGED_SETTINGS_FILE_PATH at a user file: holds",
        "user_allow_hook": "a user preToolUse hook answering permissionDecision allow: holds",
    }),
    keys=frozen_map({}),
    limits=(
        "policy.d holds hook files only (the hook-file schema, version 1); Copilot's "
        "/etc/github-copilot/managed-settings.json exists in 1.0.102 but was not exercised: "
        "agentdeck writes no key there",
        "no managed-hooks-only switch was found: the user's own hooks still run beside the "
        "policy hooks (a deny from either wins)",
    ),
)

ORG: Mapping[str, OrgFacts] = frozen_map({f.target: f for f in (COPILOT, CODEX, CLAUDE)})

#: where agentdeck keeps the org layer's own files (handler copy, compiled policies) and its state
LIB_DIR = "/usr/local/lib/agentdeck"
STATE_DIR = "/var/lib/agentdeck"
#: the interpreter the org hooks run: the system's, never a user venv (checked root-owned)
PYTHON = "/usr/bin/python3"
