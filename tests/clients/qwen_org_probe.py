"""Observe Qwen Code's system (admin) settings file as an organisation layer: which ways a user
has to switch off a PreToolUse hook in /etc/qwen-code/settings.json (docs/facts/qwen.md,
"The system file as an org layer").

Each scenario is one real offline turn of the pinned Qwen Code (the clients cache) as nobody
(uid 65534, setpriv) inside a private mount namespace whose /etc is the probe's own overlay
(private_etc.py, org_kit.py: the machine's /etc is never written). The system file's hook writes
a receipt and exits 2 with a reason; the scripted model asks for `touch <work>/marker`.
"holds": the marker stayed absent and the receipt was written.

    python tests/clients/qwen_org_probe.py [SCENARIO ...]    # --list names them

Prints one JSON object per scenario: marker, receipt, holds, returncode, stderr's tail.
"""
from __future__ import annotations

import json
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import org_kit  # noqa: E402
from clientkit import install_all  # noqa: E402

SYSTEM = "/etc/qwen-code/settings.json"
HOOK = "echo held >> {base}/tmp/org-receipt; echo 'org layer: denied' >&2; exit 2"
ALLOW = ('echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse",'
         '"permissionDecision":"allow"}}\'')
COMMAND = "touch {work}/marker"
#: the deny as JSON (hookSpecificOutput), on stdout with exit 0, or on stderr with exit 2
DENY_JSON = ('{"decision":"block","reason":"org layer: denied","hookSpecificOutput":'
             '{"hookEventName":"PreToolUse","permissionDecision":"deny",'
             '"permissionDecisionReason":"org layer: denied"}}')
HOOK_JSON_STDOUT = "echo held >> {base}/tmp/org-receipt; echo '%s'; exit 0" % DENY_JSON
HOOK_JSON_STDERR = "echo held >> {base}/tmp/org-receipt; echo '%s' >&2; exit 2" % DENY_JSON


def system(hook: str = HOOK, **extra) -> dict:
    doc = {"$version": 4, **extra, "hooks": {"PreToolUse": [
        {"hooks": [{"type": "command", "command": hook, "timeout": 30}]}]}}
    return {SYSTEM: {"text": json.dumps(doc, indent=2) + "\n"}}


def user(doc: dict, where: str = "home/.qwen/settings.json") -> dict:
    return {where: json.dumps({"$version": 4, **doc})}


OFF = {"disableAllHooks": True}
ALLOW_HOOK = {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": ALLOW}]}]}}

#: name -> (system files, user files, extra args, extra env, cwd relative to the base or None)
SCENARIOS: dict[str, tuple] = {
    "baseline": (system(), {}, [], {}, None),
    "user_disableAllHooks": (system(), user(OFF), [], {}, None),
    "user_disableAllHooks_vs_system_false":
        (system(disableAllHooks=False), user(OFF), [], {}, None),
    "project_disableAllHooks": (system(), user(OFF, "work/.qwen/settings.json"), [], {}, None),
    "project_disableAllHooks_vs_system_false":
        (system(disableAllHooks=False), user(OFF, "work/.qwen/settings.json"), [], {}, None),
    "user_and_project_vs_system_false":
        (system(disableAllHooks=False), {**user(OFF), **user(OFF, "work/.qwen/settings.json")},
         [], {}, None),
    "user_allow_hook": (system(disableAllHooks=False), user(ALLOW_HOOK), [], {}, None),
    "user_allow_hook_vs_json_deny_stdout":
        (system(HOOK_JSON_STDOUT, disableAllHooks=False), user(ALLOW_HOOK), [], {}, None),
    "user_allow_hook_vs_json_deny_stderr":
        (system(HOOK_JSON_STDERR, disableAllHooks=False), user(ALLOW_HOOK), [], {}, None),
    "project_allow_hook_vs_json_deny_stdout":
        (system(HOOK_JSON_STDOUT, disableAllHooks=False),
         user(ALLOW_HOOK, "work/.qwen/settings.json"), [], {}, None),
    "extension_allow_hook_vs_json_deny_stdout":
        (system(HOOK_JSON_STDOUT, disableAllHooks=False),
         {"home/.qwen/extensions/allowext/qwen-extension.json": json.dumps(
             {"name": "allowext", "version": "1.0.0", **ALLOW_HOOK})}, [], {}, None),
    "extension_allow_hook":
        (system(disableAllHooks=False),
         {"home/.qwen/extensions/allowext/qwen-extension.json": json.dumps(
             {"name": "allowext", "version": "1.0.0", **ALLOW_HOOK})}, [], {}, None),
    # the system file's own deny rule (no hook: the receipt is absent by design; "marker"
    # False means the rule held)
    "system_permissions_deny_bare":
        ({SYSTEM: {"text": json.dumps({"$version": 4, "permissions": {
            "deny": ["Bash(touch *)"]}})}}, {}, ["--bare"], {}, None),
    "system_permissions_deny_safe_mode":
        ({SYSTEM: {"text": json.dumps({"$version": 4, "permissions": {
            "deny": ["Bash(touch *)"]}})}}, {}, ["--safe-mode"], {}, None),
    "system_permissions_deny_vs_user_allow":
        ({SYSTEM: {"text": json.dumps({"$version": 4, "permissions": {
            "deny": ["Bash(touch *)"]}})}},
         user({"permissions": {"allow": ["Bash(touch *)"]}}), [], {}, None),
    "user_hooks_disabled_list":
        (system(disableAllHooks=False),
         user({"hooks": {"disabled": [HOOK], "enabled": False}}), [], {}, None),
    "bare": (system(disableAllHooks=False), {}, ["--bare"], {}, None),
    "safe_mode": (system(disableAllHooks=False), {}, ["--safe-mode"], {}, None),
    "env_QWEN_CODE_SIMPLE": (system(disableAllHooks=False), {}, [], {"QWEN_CODE_SIMPLE": "1"},
                             None),
    "env_QWEN_CODE_SAFE_MODE": (system(disableAllHooks=False), {}, [],
                                {"QWEN_CODE_SAFE_MODE": "1"}, None),
    "system_path_dev_null": (system(disableAllHooks=False), {}, [],
                             {"QWEN_CODE_SYSTEM_SETTINGS_PATH": "/dev/null"}, None),
    "system_path_user_file":
        (system(disableAllHooks=False), user(OFF, "tmp/mine.json"), [],
         {"QWEN_CODE_SYSTEM_SETTINGS_PATH": "{base}/tmp/mine.json"}, None),
    "system_defaults_user_file":
        (system(disableAllHooks=False), user(OFF, "tmp/defaults.json"), [],
         {"QWEN_CODE_SYSTEM_DEFAULTS_PATH": "{base}/tmp/defaults.json"}, None),
    "qwen_home_elsewhere":
        (system(disableAllHooks=False), user(OFF, "tmp/qh/settings.json"), [],
         {"QWEN_HOME": "{base}/tmp/qh"}, None),
    "system_file_user_owned_0666": (system(disableAllHooks=False), {}, [], {}, None),
}

#: root's commands before the turn, per scenario (after the system files are in place)
PRE = {"system_file_user_owned_0666": [f"chown 65534:65534 {SYSTEM}; chmod 0666 {SYSTEM}"]}


def run(clients, name: str) -> dict:
    sysf, files, args, env, cwd = SCENARIOS[name]
    res = org_kit.turn("qwen", clients, command=COMMAND, system_files=sysf, user_files=files,
                       extra_args=args, extra_env=env, pre=PRE.get(name, []), keep=True,
                       cwd=cwd)
    base = Path(res.get("base", ""))
    try:
        receipt = (base / "tmp" / "org-receipt").exists()
        # the overlay's upper layer holds /etc's files as the namespace left them
        after = base / ".ov0" / "upper" / SYSTEM[len("/etc/"):]
        unchanged = after.exists() and after.read_text() == sysf[SYSTEM]["text"].replace(
            "{base}", str(base))
        return {"scenario": name, "marker": res.get("marker"), "receipt": receipt,
                "holds": res.get("marker") is False and receipt,
                "system_file_unchanged": unchanged,
                "returncode": res.get("returncode"), "error": res.get("error"),
                "stderr": (res.get("stderr") or "")[-400:]}
    finally:
        shutil.rmtree(base, ignore_errors=True)


def main(argv: list[str]) -> int:
    if "--list" in argv:
        print("\n".join(SCENARIOS))
        return 0
    names = [a for a in argv if not a.startswith("-")] or list(SCENARIOS)
    clients = install_all()
    if "qwen" not in clients.bin_dirs:
        print(f"Qwen Code is not installed: {clients.failures.get('qwen')}", file=sys.stderr)
        return 1
    with ThreadPoolExecutor(max_workers=2) as pool:
        for out in pool.map(lambda n: run(clients, n), names):
            print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
