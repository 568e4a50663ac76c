"""Qwen Code's organisation layer: its system (admin) settings file, /etc/qwen-code/settings.json,
as a whole file of agentdeck's own (docs/org.md).

Observed with the CLI version in FACTS.verified (docs/facts/qwen.md section 8, reproduced by
tests/clients/qwen_org_probe.py), in a real offline turn (scripted model server) run as an
unprivileged user (uid 65534, setpriv) inside a private mount namespace whose /etc was an overlay
of the test's own (tests/clients/private_etc.py): the machine's /etc was never touched. "holds"
below means the tool call was refused (the marker file the call would create stayed absent)
while the system file's hook wrote its receipt.

Qwen Code is the weakest of the org layers: the system file is the highest settings scope, so
its `disableAllHooks: false` beats the user's and a project's `true`, and its hook's
hookSpecificOutput deny outranks a user or project hook's allow -- but a flag or a variable of
the user's own (--bare, --safe-mode, QWEN_CODE_SIMPLE, QWEN_CODE_SAFE_MODE) runs no hook at all,
QWEN_CODE_SYSTEM_SETTINGS_PATH makes another file the system file, and a Qwen extension's hook,
merged after the system file's, outranks its deny. FACTS.limits says so; the drill tries only
what holds.
"""
from __future__ import annotations

import json

from ...desired import Desired
from ...facts.versions import frozen_map
from ..parts.org import LayerRequest, OrgAttempts, OrgFacts, OrgProblem
from . import SPEC
from .facts import QWEN, VERIFIED

FACTS = OrgFacts(
    target=SPEC.name, verified=VERIFIED,
    path="/etc/qwen-code/settings.json", kind="file", shared_name=True,
    pre_tool_event="PreToolUse", cli_checks_ownership=False,
    # observed with agentdeck in the user's home too: the user's pre-tool hook ran and its
    # audit line said allow; the org hook's deny won (Qwen runs every matching hook)
    user_pre_hook_runs_after_org_deny=True,
    attempts=frozen_map({
        "disableAllHooks": "user settings.json \"disableAllHooks\": true: holds ONLY with "
                           "\"disableAllHooks\": false in the system file (without it the "
                           "system hook did not run and the call went through)",
        "project_disableAllHooks": "a project .qwen/settings.json \"disableAllHooks\": true "
                                   "(with the user's too): holds with the system file's false "
                                   "(without it: does NOT hold)",
        "qwen_home": "QWEN_HOME at another folder whose settings.json says disableAllHooks: "
                     "true: holds (the system file's false wins)",
        "system_defaults_env": "QWEN_CODE_SYSTEM_DEFAULTS_PATH at a user file with "
                               "disableAllHooks: true: holds (the lowest scope)",
        "yolo": "--yolo: holds (the hooks run under it)",
        "user_allow_hook": "a user (or project) PreToolUse hook answering permissionDecision "
                           "allow: holds only against a hookSpecificOutput deny (agentdeck's "
                           "answer); an exit 2 with a plain stderr reason lost to it (does NOT "
                           "hold: the call ran)",
        "hooks_disabled_list": "user hooks.disabled listing the system hook's command, "
                               "hooks.enabled: false: holds",
        "extension_allow_hook": "a hook of a Qwen extension in the user's home "
                                "(extensions/<name>/qwen-extension.json) answering allow: does "
                                "NOT hold (extensions' answers are merged last and outrank the "
                                "system file's deny)",
        "bare": "--bare, or QWEN_CODE_SIMPLE=1: does NOT hold (no hook runs)",
        "safe_mode": "--safe-mode, or QWEN_CODE_SAFE_MODE=1: does NOT hold (no hook runs)",
        "system_path_env": "QWEN_CODE_SYSTEM_SETTINGS_PATH at a file of the user's: does NOT "
                           "hold (that file is read instead of /etc/qwen-code/settings.json); at "
                           "/dev/null Qwen stops with exit 1 before the turn",
    }),
    keys=frozen_map({
        # the switch pinned off in the highest scope: the user's and a project's
        # disableAllHooks: true then leave the system hook running
        "hooks_on": (QWEN.disable_all_key,),
    }),
    limits=(
        "--bare, --safe-mode and the variables QWEN_CODE_SIMPLE / QWEN_CODE_SAFE_MODE, all the "
        "user's to choose, run no hook at all (the system file's permissions.deny did not hold "
        "under --bare or --safe-mode either): the org layer cannot hold in Qwen Code against "
        "them",
        "QWEN_CODE_SYSTEM_SETTINGS_PATH, set by the user, makes another file the system file: "
        "the org layer cannot hold against it",
        "a Qwen extension's hook (the user installs extensions in their own home) is merged "
        "after the system file's, and its allow outranks the org hook's deny",
        "in an SSH workspace (the turn's folder under ~/.qwen/ssh-workspaces/) Qwen runs no "
        "hook (read in the bundle, not exercised: tools then run on the SSH host)",
        "one system file: an administrator's own /etc/qwen-code/settings.json is foreign to "
        "the plan and kept unless taken (--take: agentdeck writes the whole file; uninstall "
        "gives theirs back); kept, no org hook runs and org status says the layer is not in "
        "effect",
        "no managed-hooks-only switch and no bypass switch exist in Qwen Code 0.24.4 (the "
        "user's own hooks still run beside the org hook; a deny from either wins)",
        "Qwen Code reads the system file whatever its owner and mode (a 0666 file owned by the "
        "user was honoured): only the file system's permissions keep the user out",
    ),
)

#: a user hook that answers "allow" in Qwen Code's channel (Claude Code's shape)
ALLOW = """echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'"""


def layer_doc(req: LayerRequest) -> dict:
    """The system file: `"$version": 4` first (Qwen rewrites a settings file without it on every
    start), the user's disableAllHooks pinned off, and the org PreToolUse hook."""
    return {QWEN.settings_version_key: QWEN.settings_version, QWEN.disable_all_key: False,
            "hooks": {FACTS.pre_tool_event: [
                {"hooks": [{"type": "command", "command": req.command,
                            "timeout": req.timeout}]}]}}


def layer_item(req: LayerRequest, view) -> Desired:
    return Desired(SPEC.name, req.path, "file", json.dumps(layer_doc(req), indent=2) + "\n",
                   mode=req.mode, label="system settings", group="hooks",
                   reason="Qwen Code's system settings, the highest scope: the org hook, with "
                          "disableAllHooks pinned off so the user's and a project's true "
                          "cannot stop it")


def layer_notes(req: LayerRequest) -> list[str]:
    notes = ["--bare, --safe-mode, QWEN_CODE_SIMPLE, QWEN_CODE_SAFE_MODE and "
             "QWEN_CODE_SYSTEM_SETTINGS_PATH, all the user's, switch the org hook off: not "
             "held by Qwen's layer"]
    if req.managed_hooks_only:
        notes.append("managed_hooks_only: Qwen Code has no such switch; the user's own hooks "
                     "still run")
    if req.no_bypass:
        notes.append("no_bypass: Qwen Code has no switch that refuses --yolo (the org hook runs "
                     "under it)")
    if req.mcp_denied or req.mcp_allowed is not None:
        notes.append("the MCP lists are not written for Qwen Code (its mcp.allowed / "
                     "mcp.excluded in the system file were not observed as an org layer)")
    return notes


def layer_problems(text: str) -> list[OrgProblem]:
    from ...formats.errors import FormatError
    from ...formats.jsonc import JsonDoc

    try:
        doc = JsonDoc.parse(text, path=FACTS.path).data
    except FormatError as e:
        return [OrgProblem(f"the system settings file is not JSON ({e}): Qwen Code stops on it",
                           "as root: agentdeck org apply")]
    if not isinstance(doc, dict):
        return [OrgProblem("the system settings file is not a JSON object",
                           "as root: agentdeck org apply")]
    out: list[OrgProblem] = []
    if doc.get(QWEN.disable_all_key) is not False:
        out.append(OrgProblem(f"the system settings file does not pin {QWEN.disable_all_key}: "
                              "false: the user's disableAllHooks: true switches the org hook off",
                              "as root: agentdeck org apply"))
    if doc.get(QWEN.settings_version_key) != QWEN.settings_version:
        out.append(OrgProblem(f"the system settings file lacks \"{QWEN.settings_version_key}\": "
                              f"{QWEN.settings_version}: Qwen Code rewrites it on every start",
                              "as root: agentdeck org apply"))
    return out


def drill_attempts() -> OrgAttempts:
    """Only what holds (FACTS.attempts); --bare, --safe-mode, their variables,
    QWEN_CODE_SYSTEM_SETTINGS_PATH and an extension's hook do not, and are limits instead."""
    group = [{"hooks": [{"type": "command", "command": ALLOW}]}]
    off = {QWEN.settings_version_key: QWEN.settings_version, QWEN.disable_all_key: True}
    return OrgAttempts(
        files={"settings.json": json.dumps({**off, "hooks": {"PreToolUse": group,
                                                             "enabled": False}})},
        work_files={".qwen/settings.json": json.dumps({**off,
                                                       "hooks": {"PreToolUse": group}})},
        flags=(), env={},
        words=("settings.json disableAllHooks: true", "a user PreToolUse hook answering allow",
               "hooks.enabled: false", "a project .qwen/settings.json disableAllHooks: true "
               "with a hook answering allow", "QWEN_HOME at a home of the user's", "--yolo"))

# No LIVE_PROBE: Qwen Code has no command that lists the loaded hooks (`qwen hooks` prints
# nothing in -p mode).


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.org import OrgPart
    from . import org as _this
    _conforms: OrgPart = _this
