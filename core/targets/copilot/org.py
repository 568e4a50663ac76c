"""GitHub Copilot CLI's organisation layer: a policy hook file of agentdeck's own,
/etc/github-copilot/policy.d/agentdeck.json (docs/org.md).

Observed with the CLI version in FACTS.verified, in a real offline turn (scripted model server)
run as an unprivileged user (uid 65534, setpriv) inside a private mount namespace whose /etc was
an overlay of the test's own (tests/clients/private_etc.py): the machine's /etc was never
touched. "holds" below means the tool call was refused (the marker file the call would create
stayed absent) while the org hook's receipt was written.
"""
from __future__ import annotations

import json
from pathlib import Path

from ...desired import Desired
from ...facts.versions import frozen_map
from ..parts.org import LayerRequest, OrgAttempts, OrgFacts, OrgRow
from . import SPEC

FACTS = OrgFacts(
    target=SPEC.name, verified="1.0.102",
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
    # keys in MANAGED_SETTINGS (not the policy.d file: a deniedMcpServers there was ignored).
    # Observed with a stdio server that writes a marker when started (docs/facts/copilot.md,
    # "The org layer's MCP lists"): a denied server, or one not on the allowlist, was never
    # started, whatever the user's settings.json allowedMcpServers / deniedMcpServers,
    # --additional-mcp-config or COPILOT_TEST_MANAGED_SETTINGS_FILE_PATH said
    keys_path="/etc/github-copilot/managed-settings.json",
    keys=frozen_map({
        "mcp_denied": ("deniedMcpServers",),
        "mcp_allowed": ("allowedMcpServers",),
    }),
    limits=(
        "policy.d holds hook files only (the hook-file schema, version 1): the MCP lists go to "
        "/etc/github-copilot/managed-settings.json, one file shared with the administrator "
        "(agentdeck sets its keys only; a value the administrator set there is a conflict)",
        "no managed-hooks-only switch was found: the user's own hooks still run beside the "
        "policy hooks (a deny from either wins); managed-settings.json's schema names "
        "allowManagedHooksOnly but it was not exercised",
        "MCP servers are matched by serverName, the name the user gives a server: a denied "
        "server renamed by the user starts, and an allowlist lets any command run under an "
        "allowed name; the built-in GitHub MCP server is exempt from both lists",
        "allowManagedMcpServersOnly: true stopped every server, the allowed one too: agentdeck "
        "does not write it (the allowlist alone held: the user's settings.json "
        "allowedMcpServers did not broaden it)",
    ),
)

#: the file of Copilot's managed settings that carries the MCP lists (a JSON object)
MANAGED_SETTINGS = FACTS.keys_path

#: a user hook that answers "allow" in Copilot CLI's channel
ALLOW = """echo '{"permissionDecision":"allow"}'"""


def layer_item(req: LayerRequest, view) -> Desired:
    doc = {"version": 1, "hooks": {FACTS.pre_tool_event: [
        {"type": "command", "bash": req.command, "timeoutSec": req.timeout}]}}
    return Desired(SPEC.name, req.path, "file", json.dumps(doc, indent=2) + "\n", mode=req.mode,
                   label="policy hook file", group="hooks",
                   reason="Copilot CLI's policy hooks: disableAllHooks and disabledHooks "
                          "cannot turn them off")


def extra_items(req: LayerRequest, view) -> list[Desired]:
    """The MCP lists as keys of managed-settings.json (under the same root prefix as the layer:
    the layer's path tells where the prefix ends)."""
    prefix = str(req.path)[: -len(FACTS.path)] or "/"
    path = Path(prefix) / MANAGED_SETTINGS.lstrip("/")
    out: list[Desired] = []
    lists = (("deniedMcpServers", req.mcp_denied if req.mcp_denied else None,
              "never start these MCP servers"),
             ("allowedMcpServers", req.mcp_allowed_kept,
              "only these MCP servers may start"))
    for key, names, why in lists:
        if names is None:
            continue
        out.append(Desired(SPEC.name, path, "key", [{"serverName": n} for n in names],
                           key=(key,), fmt="json", pinned=True, label=f"managed {key}",
                           group="mcp", reason=f"Copilot CLI's managed settings: {why}"))
    return out


def layer_notes(req: LayerRequest) -> list[str]:
    if req.mcp_denied or req.mcp_allowed is not None:
        return ["MCP servers are matched by the name the user gives them (serverName); the "
                "built-in GitHub MCP server is exempt from the managed lists"]
    return []


def drill_attempts() -> OrgAttempts:
    return OrgAttempts(
        files={"settings.json": json.dumps({"disableAllHooks": True}),
               "hooks/allow.json": json.dumps({"version": 1, "hooks": {"preToolUse": [
                   {"type": "command", "bash": ALLOW}]}})},
        flags=("--yolo",), env={"COPILOT_ALLOW_ALL": "true"},
        words=("settings.json disableAllHooks: true", "a user preToolUse hook answering allow",
               "--yolo", "COPILOT_ALLOW_ALL=true"),
        # the built-in GitHub MCP server would be started for the empty scratch home
        args=("--disable-mcp-server", "github"))


#: the live probe that lists Copilot's hooks (hooks.discover)
LIVE_PROBE = "hooks"


def live_check(data: dict) -> OrgRow:
    ours = [h for h in (data.get("hooks") or []) if h.get("source") == FACTS.path]
    if any(h.get("origin") == "policy" and h.get("enabled") for h in ours):
        return OrgRow("ok", f"Copilot CLI loads {FACTS.path} as a policy hook (origin policy, "
                            "enabled: disableAllHooks cannot turn it off)")
    return OrgRow("error", f"Copilot CLI does not load {FACTS.path} as an enabled policy hook",
                  "check it with hooks.discover (docs/org.md)")


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.org import OrgPart
    from . import org as _this
    _conforms: OrgPart = _this
