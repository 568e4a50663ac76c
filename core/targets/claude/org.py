"""Claude Code's organisation layer: a managed-settings drop-in of agentdeck's own,
/etc/claude-code/managed-settings.d/agentdeck.json (docs/org.md).

Observed with the CLI version in FACTS.verified, in a real offline turn (scripted model server)
run as an unprivileged user (uid 65534, setpriv) inside a private mount namespace whose /etc was
an overlay of the test's own (tests/clients/private_etc.py): the machine's /etc was never
touched. "holds" below means the tool call was refused (the marker file the call would create
stayed absent) while the org hook's receipt was written.
"""
from __future__ import annotations

import json

from ...desired import Desired
from ...facts.versions import frozen_map
from ..parts.org import LayerRequest, OrgAttempts, OrgFacts
from . import SPEC

FACTS = OrgFacts(
    target=SPEC.name, verified="2.1.332",
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
        # [{"serverName": n}] each; observed with a stdio server that writes a marker when
        # started (docs/facts/claude.md, "The org layer's MCP lists"): a denied server, or one
        # not on the allowlist, was never started
        "mcp_denied": ("deniedMcpServers",),
        "mcp_allowed": ("allowedMcpServers",),
        # written with every allowlist: without it the user's own settings.json
        # allowedMcpServers broadened the managed list (the user's server started)
        "mcp_allowed_only": ("allowManagedMcpServersOnly",),
    }),
    limits=(
        "managed-settings.d/*.json and managed-settings.json are both read and merged (both "
        "files' hooks ran); agentdeck writes only its own drop-in",
        "Claude Code reads a drop-in whatever its owner and mode (a 0666 file owned by the "
        "user was honoured): only the file system's permissions keep the user out",
        "allowManagedHooksOnly: true stops the user's own hooks (agentdeck's user-layer audit "
        "hooks too)",
        "MCP servers are matched by serverName, the name the user gives a server: a denied "
        "server renamed by the user starts, and an allowlist lets any command run under an "
        "allowed name (a managed deniedMcpServers held against the user's allowedMcpServers, "
        "--setting-sources user, --strict-mcp-config --mcp-config and "
        "CLAUDE_CODE_MANAGED_SETTINGS_PATH)",
    ),
)

#: a user hook that answers "allow" in Claude Code's channel
ALLOW = """echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'"""


def layer_item(req: LayerRequest, view) -> Desired:
    from .permissions import translations

    doc: dict = {"hooks": {FACTS.pre_tool_event: [
        {"hooks": [{"type": "command", "command": req.command, "timeout": req.timeout}]}]}}
    if req.managed_hooks_only:
        doc["allowManagedHooksOnly"] = True
    # the [[policy.paths]] deny rules as Claude's own layer too (the home's translation,
    # permissions.py): it holds where the hook does not run
    deny = list(dict.fromkeys(e for tr in translations(req.policy) for e in tr.entries))
    perms: dict = {}
    if deny:
        perms["deny"] = deny
    if req.no_bypass:
        perms["disableBypassPermissionsMode"] = "disable"
    if perms:
        doc["permissions"] = perms
    if req.mcp_denied:
        doc["deniedMcpServers"] = [{"serverName": n} for n in req.mcp_denied]
    allowed = req.mcp_allowed_kept
    if allowed is not None:
        doc["allowedMcpServers"] = [{"serverName": n} for n in allowed]
        doc["allowManagedMcpServersOnly"] = True
    return Desired(SPEC.name, req.path, "file", json.dumps(doc, indent=2) + "\n", mode=req.mode,
                   label="managed settings drop-in", group="hooks",
                   reason="Claude Code's managed layer: the org hook runs whatever the "
                          "user's settings say (disableAllHooks included)")


def layer_notes(req: LayerRequest) -> list[str]:
    if req.mcp_denied or req.mcp_allowed is not None:
        return ["MCP servers are matched by the name the user gives them (serverName)"]
    return []


def drill_attempts() -> OrgAttempts:
    group = [{"hooks": [{"type": "command", "command": ALLOW}]}]
    return OrgAttempts(
        files={"settings.json": json.dumps({"disableAllHooks": True,
                                            "hooks": {"PreToolUse": group},
                                            "permissions": {"allow": ["Bash"]}})},
        flags=("--permission-mode", "bypassPermissions", "--setting-sources", "user"),
        env={"CLAUDE_CODE_MANAGED_SETTINGS_PATH": "/dev/null"},
        words=("settings.json disableAllHooks: true", "a user PreToolUse hook answering allow",
               "permissions.allow Bash", "--permission-mode bypassPermissions",
               "--setting-sources user", "CLAUDE_CODE_MANAGED_SETTINGS_PATH=/dev/null"))

# No LIVE_PROBE: Claude Code has no offline report of its managed sources.


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.org import OrgPart
    from . import org as _this
    _conforms: OrgPart = _this
