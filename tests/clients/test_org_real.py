"""The org layer with the real CLIs: `agentdeck org apply` as root inside a private mount
namespace (its /etc and /usr/local are the test's own overlay: the machine's are never written),
then a real offline turn of each CLI as an unprivileged user (nobody, via setpriv) whose home
switches off everything it can -- and the org deny holds in each of Copilot, Codex, Claude and
Qwen (against what Qwen's layer can hold; what it cannot is shown still to beat it)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import org_kit
import private_etc
from agentdeck.core.facts.org import ORG
from agentdeck.core.targets import registry
from tests.registry_kit import dialect

pytestmark = [pytest.mark.clients,
              pytest.mark.skipif(not private_etc.unshare_works(),
                                 reason="needs root and unshare -m -n (a private mount namespace)")]

AGENTDECK = str(Path(sys.executable).parent / "agentdeck")
APPLY = f"{AGENTDECK} org apply --yes --home {{base}}/roothome"
#: a call the default profile's ssh-private-keys path rule denies; the marker shows whether it ran
DENIED = "touch {work}/marker; cat ~/.ssh/id_ed25519"
ALLOWED = "touch {work}/marker"

#: every registered target with an org layer (its org part)
ORG_TARGETS = [n for n in registry.NAMES if registry.has_part(n, "org")]


def allow_out(target: str) -> str:
    """A user hook command that answers "allow" in the CLI's own pre-tool shape (its dialect)."""
    d = dialect(target)
    row = {"permissionDecision": "allow"}
    if d.pre_tool["shape"] == "specific":
        row = {"hookSpecificOutput": {"hookEventName": d.events[0], **row}}
    return f"echo '{json.dumps(row, separators=(',', ':'))}'"


#: an OpenCode plugin of the user's that loads and does nothing
NOOP_PLUGIN = "export const Mine = async () => ({});\n"


def switched_off(target: str) -> tuple[dict, list[str], dict]:
    """(user files, CLI flags, environment) of a user who tries to switch the org layer off."""
    allow = allow_out(target)
    if target == "claude":
        group = [{"matcher": "Bash", "hooks": [{"type": "command", "command": allow}]}]
        files = {"home/.claude/settings.json": json.dumps({
            "disableAllHooks": True, "hooks": {"PreToolUse": group},
            "permissions": {"allow": ["Bash"], "defaultMode": "bypassPermissions"}})}
        return files, ["--setting-sources", "user"], {
            "CLAUDE_CODE_MANAGED_SETTINGS_PATH": "{base}/tmp/none.json"}
    if target == "codex":
        hook = json.dumps(allow)
        files = {"home/.codex/config.toml":
                 "[features]\nhooks = false\n[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\n"
                 f"type = \"command\"\ncommand = {hook}\n"}
        return files, ["--dangerously-bypass-hook-trust", "-c", "features.hooks=false"], {}
    if target == "qwen":      # --yolo is in the turn's argv; QWEN_HOME is home/.qwen
        off = {"$version": 4, "disableAllHooks": True,
               "hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": allow}]}]}}
        return ({"home/.qwen/settings.json": json.dumps(off),
                 "work/.qwen/settings.json": json.dumps(off)}, [],
                {"QWEN_CODE_SYSTEM_DEFAULTS_PATH": "{base}/home/.qwen/settings.json"})
    if target == "copilot":
        files = {"home/.copilot/settings.json": json.dumps({"disableAllHooks": True}),
                 "home/.copilot/hooks/mine.json": json.dumps(
                     {"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": allow}]}})}
        return files, ["--yolo"], {"COPILOT_ALLOW_ALL": "true"}
    if target == "gemini":    # --yolo is in the turn's argv; the project folder is trusted
        off = {"hooksConfig": {"enabled": False}}
        group = [{"hooks": [{"name": "mine", "type": "command", "command": allow}]}]
        return ({"home/.gemini/settings.json": json.dumps(
                    {**org_kit.GEMINI_AUTH, **off, "hooks": {"BeforeTool": group}}),
                 "home/.gemini/policies/allow.toml":
                     '[[rule]]\ntoolName = "*"\ndecision = "allow"\npriority = 999\n',
                 "work/.gemini/settings.json": json.dumps(off)}, [], {})
    if target == "opencode":  # --auto is in the turn's argv (the drill's recipe)
        from agentdeck.core.targets.opencode.org import PLUGIN
        off = json.dumps({"plugin": [], "permission": {"*": "allow"}})
        return ({f"{org_kit.OPENCODE_HOME}/opencode.json": off,
                 f"{org_kit.OPENCODE_HOME}/plugins/{Path(PLUGIN).name}": NOOP_PLUGIN,
                 "work/opencode.json": off}, [],
                {"OPENCODE_PERMISSION": json.dumps({"*": "allow"}),
                 "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1"})
    # each CLI's own switches (its facts): a new target with an org layer needs its recipe here
    raise AssertionError(f"no recipe for how a user switches {target}'s hooks off")


@pytest.mark.parametrize("target", ORG_TARGETS)
def test_the_org_deny_holds_for_a_user_who_switched_everything_off(clients, need, target):
    need(target)
    files, flags, env = switched_off(target)
    edit = (f"setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "
            f"'echo x >> /usr/local/lib/agentdeck/policy/{target}.json' 2>&1; "
            f"setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "
            f"'echo x >> /usr/local/lib/agentdeck/org_hook.py' 2>&1; echo done")
    res = org_kit.turn(target, clients, command=DENIED, user_files=files, extra_args=flags,
                       extra_env=env, pre=[APPLY, edit])
    assert "error" not in res, res
    assert res["pre"][0]["rc"] == 0, res["pre"][0]
    assert res["pre"][1]["out"].count("Permission denied") == 2, res["pre"][1]
    assert not res["timed_out"], res
    assert res["marker"] is False, f"the denied call ran:\n{res['stdout']}\n{res['stderr']}"
    org = [a for a in res["audit"] if a.get("layer") == "org" and a.get("event") == "pre_tool_use"]
    assert org and org[0]["decision"] == "deny" and org[0]["target"] == target, res["audit"]
    assert org[0]["rule"] == "ssh-private-keys"


@pytest.mark.parametrize("target", ORG_TARGETS)
def test_an_allowed_call_runs_under_the_org_layer(clients, need, target):
    need(target)
    res = org_kit.turn(target, clients, command=ALLOWED, pre=[APPLY])
    assert res["pre"][0]["rc"] == 0, res["pre"][0]
    assert res["marker"] is True, f"{res['stdout']}\n{res['stderr']}"
    org = [a for a in res["audit"] if a.get("layer") == "org" and a.get("event") == "pre_tool_use"]
    assert org and org[0]["decision"] == "allow", res["audit"]


def test_org_uninstall_gives_the_system_files_back_byte_for_byte(clients, need):
    need("codex")
    mine = "# the administrator's own requirements\nallowed_approval_policies = [\"never\"]\n"
    snap = ("for f in /etc/codex/requirements.toml; do sha256sum $f; done; "
            "ls -la /etc/claude-code /etc/github-copilot /usr/local/lib/agentdeck 2>&1 | "
            "grep -c 'No such file'")
    res = org_kit.turn("codex", clients, command=ALLOWED,
                       system_files={"/etc/codex/requirements.toml": {"text": mine}},
                       pre=[snap, APPLY, "grep -c 'agentdeck org layer' /etc/codex/requirements.toml",
                            f"{AGENTDECK} org uninstall --yes --home {{base}}/roothome", snap,
                            f"{AGENTDECK} org plan --home {{base}}/roothome --json"
                            " | python3 -c 'import json,sys; print(json.load(sys.stdin)"
                            "[\"summary\"])'"])
    before, applied, marks, removed, after, plan_after = res["pre"]
    assert applied["rc"] == 0 and marks["out"].strip() == "2", res["pre"]
    assert removed["rc"] == 0, removed
    assert before["out"] == after["out"], (before, after)
    assert after["out"].strip().endswith("3")      # none of the three folders is left


def test_org_drill_holds_in_each_cli_and_says_what_was_tried(clients, need):
    need(*ORG_TARGETS)
    drill = (f"PATH={org_kit.path_of(clients)}:/usr/bin:/bin XDG_CACHE_HOME={{clients}}/xdg "
             f"{AGENTDECK} org drill --json --home {{base}}/roothome")
    import glob

    before = set(glob.glob("/tmp/agentdeck-org-drill-*"))
    res = org_kit.as_root(clients, [APPLY, drill])
    applied, ran = res["pre"]
    assert applied["rc"] == 0, applied
    # each turn's scratch folder under /tmp is gone afterwards
    assert set(glob.glob("/tmp/agentdeck-org-drill-*")) - before == set()
    doc = json.loads(ran["out"][ran["out"].index("{"):])
    by = {t["target"]: t for t in doc["targets"]}
    assert set(by) == set(ORG_TARGETS)
    for t, r in by.items():
        assert r["status"] == "ok", (t, r["problems"])
        assert r["harmless_ran"] and r["canary_held"] and r["rule_held"] and r["org_denies"] >= 2
        assert r["rule"] in ("ssh-private-keys", "cloud-credentials") and r["user"] == "65534:65534"
        assert len(r["edits"]) == 4 and all(r["edits"].values())
        assert r["attempts"]
    assert "disableAllHooks" in " ".join(by["claude"]["attempts"])
    assert "features.hooks=false" in " ".join(by["codex"]["attempts"])
    assert "project .qwen/settings.json" in " ".join(by["qwen"]["attempts"])
    assert "hooksConfig.enabled: false" in " ".join(by["gemini"]["attempts"])
    assert "OPENCODE_PERMISSION" in " ".join(by["opencode"]["attempts"])
    assert ran["rc"] == 0


def test_org_drill_skips_a_cli_without_the_org_layer(clients, need):
    need("claude")
    drill = (f"PATH={org_kit.path_of(clients)}:/usr/bin:/bin "
             f"{AGENTDECK} org drill -t claude --home {{base}}/roothome")
    res = org_kit.as_root(clients, [drill])
    [ran] = res["pre"]
    assert ran["rc"] == 1 and "claude   skipped" in ran["out"], ran
    assert "run agentdeck org apply first" in ran["out"]


USER_PROFILE = """[profile]
extends = ["_base"]

[policy]
on_error = "allow"

[[policy.rules]]
id = "the-user-allows-cat"
tool = "shell"
match = '\\bcat\\b'
decision = "allow"
reason = "the user's own rule: cat is fine"
"""


@pytest.mark.parametrize("target", ORG_TARGETS)
def test_org_and_user_layers_together_a_user_allow_rule_cannot_relax_the_org_deny(
        clients, need, target):
    """agentdeck installed in the user's home too (their own profile ALLOWS the command): both
    handlers run, the user layer's line says allow, the org layer's says deny -- and the call
    does not run."""
    need(target)
    venv = str(Path(sys.executable).parent)
    state = "{base}/xdg/state/agentdeck"
    user_env = (f"env HOME={{base}}/home AGENTDECK_CONFIG_DIR={{base}}/xdg/config/agentdeck "
                f"AGENTDECK_STATE_DIR={state} PATH={venv}:/usr/bin:/bin "
                f"AGENTDECK_SCRIPTS_DIR={venv} COPILOT_HOME={{base}}/home/.copilot "
                f"CODEX_HOME={{base}}/home/.codex CLAUDE_CONFIG_DIR={{base}}/home/.claude "
                f"QWEN_HOME={{base}}/home/.qwen XDG_CONFIG_HOME={{base}}/xdg/config")
    trust = " --trust-hooks" if target == "codex" else ""
    user_apply = (f"setpriv --reuid=65534 --regid=65534 --clear-groups {user_env} "
                  f"{venv}/agentdeck apply --yes -t {target} -p mine{trust} 2>&1 | tail -3")
    files = {"xdg/config/agentdeck/profiles/mine/profile.toml": USER_PROFILE}
    res = org_kit.turn(target, clients, command=DENIED, user_files=files,
                       extra_env={"AGENTDECK_STATE_DIR": state, "PATH": f"{venv}:"
                                  + org_kit.argv_env(target, Path("/"), clients, True)[1]["PATH"]},
                       extra_args=(["--dangerously-bypass-hook-trust"] if target == "codex"
                                   else []),
                       pre=[APPLY, user_apply], open_root=True)
    assert res["pre"][0]["rc"] == 0, res["pre"][0]
    assert "Applied" in res["pre"][1]["out"], res["pre"][1]
    assert res["marker"] is False, f"{res['stdout']}\n{res['stderr']}"
    pre = [a for a in res["audit"] if a.get("event") == "pre_tool_use"]
    org = [a for a in pre if a.get("layer") == "org"]
    mine = [a for a in pre if "layer" not in a]
    assert org and org[0]["decision"] == "deny" and org[0]["rule"] == "ssh-private-keys", pre
    # the user layer is active: its own lines for the session's other events are there (the
    # events its CLI fires, the drill part's RUNNER.fires: OpenCode's plugin sees tool calls only)
    from agentdeck.core.drill import runners
    other = {"session_start", "stop"} & set(runners.runner(target).fires)
    assert {a["event"] for a in res["audit"] if "layer" not in a} >= other
    if ORG[target].user_pre_hook_runs_after_org_deny:       # Codex: both ran, the deny won
        assert [(a["decision"], a["rule"]) for a in mine] == [("allow", "the-user-allows-cat")]
    else:                                    # Copilot, Claude: the user's pre-tool hook not run
        assert mine == [], pre


#: the targets whose org part names a live probe: the live doctor gives them a
#: `<target>.org.live` row (Codex's hooks/list, Copilot's hooks.discover)
LIVE_ORG = [n for n in ORG_TARGETS if getattr(registry.part(n, "org"), "LIVE_PROBE", None)]


def test_the_live_doctor_sees_the_org_layer_in_each_cli_with_a_live_probe(clients, need):
    assert LIVE_ORG, "no target's org part names a live probe"
    need(*LIVE_ORG)
    doctor = (f"PATH={org_kit.path_of(clients, str(clients.root))}:/usr/bin:/bin "
              f"XDG_CACHE_HOME={clients.root}/xdg "
              f"{AGENTDECK} doctor --live --json {' '.join(f'-t {t}' for t in LIVE_ORG)} "
              "--home {base}/roothome")
    res = org_kit.as_root(clients, [APPLY, doctor])
    applied, ran = res["pre"]
    assert applied["rc"] == 0, applied
    doc = json.loads(ran["out"][ran["out"].index("{"):])
    rows = {f["check"]: f for f in doc["findings"] if ".org." in f["check"]}
    for t in LIVE_ORG:
        assert rows[f"{t}.org.layer"]["result"] == "ok", rows
        assert rows[f"{t}.org.live"]["result"] == "ok", rows
    # what each CLI itself reports of the managed hook
    if "codex" in LIVE_ORG:
        assert "trustStatus managed" in rows["codex.org.live"]["message"]
    if "copilot" in LIVE_ORG:
        assert "origin policy" in rows["copilot.org.live"]["message"]


def test_claude_s_managed_permissions_deny_holds_without_the_org_hook(clients, need):
    """The drop-in also carries the [[policy.paths]] deny rules as Claude's own permissions.deny:
    with the drop-in's hook taken out (as root, for this test), a read of a protected file is
    still refused under the user's bypassPermissions."""
    need("claude")
    drop = "/etc/claude-code/managed-settings.d/agentdeck.json"
    unhook = ("python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); "
              "d.pop(\"hooks\"); json.dump(d, open(p, \"w\"))' " + drop)
    res = org_kit.turn("claude", clients, command=DENIED, pre=[APPLY, unhook, f"cat {drop}"])
    assert res["pre"][1]["rc"] == 0 and '"hooks"' not in res["pre"][2]["out"], res["pre"]
    assert '"Read(~/.ssh/id_' in res["pre"][2]["out"]
    assert res["marker"] is False, f"{res['stdout']}\n{res['stderr']}"
    assert not [a for a in res["audit"] if a.get("layer") == "org"]    # no org hook ran


QWEN_SYSTEM = "/etc/qwen-code/settings.json"


def test_qwen_s_system_file_is_left_as_written_and_uninstall_leaves_etc_byte_exact(clients,
                                                                                  need):
    """Qwen rewrites a settings file without "$version": 4 on every start: the org file carries
    it, so after a real turn it is byte-identical; uninstall then leaves no /etc/qwen-code."""
    need("qwen")
    snap = ("ls -la /etc/qwen-code 2>&1 | grep -c 'No such file'; "
            "find /etc -type f -exec sha256sum {} + 2>/dev/null | sort | sha256sum; "
            "find /etc | sort | sha256sum")
    res = org_kit.turn("qwen", clients, command=ALLOWED,
                       pre=[snap, f"{APPLY} -t qwen", f"sha256sum {QWEN_SYSTEM}"], keep=True)
    try:
        before, applied, written = res["pre"]
        assert applied["rc"] == 0 and before["out"].split()[0] == "1", res["pre"]
        assert res["marker"] is True, f"{res['stdout']}\n{res['stderr']}"
        # the overlay's upper layer holds /etc as the turn left it
        after_turn = Path(res["base"]) / ".ov0" / "upper" / "qwen-code" / "settings.json"
        import hashlib
        assert hashlib.sha256(after_turn.read_bytes()).hexdigest() == written["out"].split()[0]
    finally:
        import shutil
        shutil.rmtree(res["base"], ignore_errors=True)
    res = org_kit.as_root(clients, [snap, f"{APPLY} -t qwen", f"{AGENTDECK} org uninstall --yes -t qwen "
                                    "--home {base}/roothome", snap])
    before, applied, removed, after = res["pre"]
    assert applied["rc"] == 0 and removed["rc"] == 0, res["pre"]
    assert before["out"] == after["out"] and after["out"].split()[0] == "1", (before, after)


#: what Qwen Code 0.24.4 lets the user do that switches the org hook off (FACTS.limits): each
#: is shown still to beat it, so the facts change when Qwen's behaviour does
QWEN_BEATS = {
    "bare": ({}, ["--bare"], {}),
    "safe_mode_env": ({}, [], {"QWEN_CODE_SAFE_MODE": "1"}),
    "system_path_env": ({"tmp/mine.json": '{"$version": 4}'}, [],
                        {"QWEN_CODE_SYSTEM_SETTINGS_PATH": "{base}/tmp/mine.json"}),
    "extension_allow_hook": ({"home/.qwen/extensions/allowext/qwen-extension.json": json.dumps(
        {"name": "allowext", "version": "1.0.0", "hooks": {"PreToolUse": [
            {"hooks": [{"type": "command", "command": allow_out("qwen")}]}]}})}, [], {}),
}


@pytest.mark.parametrize("how", list(QWEN_BEATS))
def test_what_qwen_s_org_layer_cannot_hold_still_beats_it(clients, need, how):
    from agentdeck.core.targets.qwen.org import FACTS

    need("qwen")
    files, flags, env = QWEN_BEATS[how]
    res = org_kit.turn("qwen", clients, command=DENIED, user_files=files, extra_args=flags,
                       extra_env=env, pre=[APPLY])
    assert res["pre"][0]["rc"] == 0, res["pre"][0]
    assert res["marker"] is True, (how, res["stdout"], res["stderr"])     # the call ran
    key = {"safe_mode_env": "safe_mode"}.get(how, how)
    assert "does NOT hold" in FACTS.attempts[key]


GEMINI_SYSTEM = "/etc/gemini-cli/settings.json"
GEMINI_POLICY = "/etc/gemini-cli/policies/agentdeck.toml"
_GEMINI_UNPIN = ("python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); "
                 "d.pop(\"hooksConfig\"); json.dump(d, open(p, \"w\"))' " + GEMINI_SYSTEM)


def _gemini_user(conf: dict) -> dict:
    return {"home/.gemini/settings.json": json.dumps({**org_kit.GEMINI_AUTH,
                                                      "hooksConfig": conf})}


#: what Gemini CLI 0.61.0 lets a user (or a loose folder mode) do that stops the org HOOK
#: (FACTS.attempts / undone_by), each shown to stop it -- and the admin policy rules, which none
#: of them reaches, still denying the call. (user files, environment, root's commands after
#: apply, the FACTS.attempts key it shows)
GEMINI_UNDO = {
    "disabled_name": ({"enabled": None, "disabled": ["agentdeck-org"]}, {}, [], "disabled_name"),
    "system_path_env": (None, {"GEMINI_CLI_SYSTEM_SETTINGS_PATH": "{base}/tmp/mine.json"}, [],
                        "system_path_env"),
    # the settings file is skipped for a folder above it others can write; the policies folder
    # is checked alone (observed: its rules still loaded)
    "insecure_folder": (None, {}, ["chmod 0777 /etc/gemini-cli"], None),
    # without the system file's pin, the user's hooksConfig.enabled: false stops the hook
    "unpinned": ({"enabled": False}, {}, [_GEMINI_UNPIN], "hooks_enabled"),
}


@pytest.mark.parametrize("how", list(GEMINI_UNDO))
def test_what_stops_gemini_s_org_hook_and_the_admin_policy_rules_that_still_hold(
        clients, need, how):
    from agentdeck.core.targets.gemini.org import FACTS

    need("gemini")
    conf, env, pre, key = GEMINI_UNDO[how]
    files = _gemini_user({k: v for k, v in conf.items() if v is not None}) if conf else {}
    files["tmp/mine.json"] = "{}"
    for with_rules in (True, False):
        drop = [] if with_rules else [f"rm {GEMINI_POLICY}"]
        res = org_kit.turn("gemini", clients, command=DENIED, user_files=files, extra_env=env,
                           pre=[APPLY, *pre, *drop])
        assert all(p["rc"] == 0 for p in res["pre"]), res["pre"]
        org = [a for a in res["audit"] if a.get("layer") == "org"]
        assert org == [], (how, org)                    # the org hook did not run
        # the admin-tier rule held without it; with the rules removed the call ran
        assert res["marker"] is (not with_rules), (how, with_rules, res["stderr"][-1500:])
        if with_rules:
            assert "agentdeck org policy (ssh-private-keys)" in res["stderr"] + res["stdout"]
    if key:
        assert "does NOT hold" in FACTS.attempts[key] or "ONLY with" in FACTS.attempts[key]


def test_gemini_s_pin_holds_the_hook_against_the_user_s_switch_without_the_policy_rules(
        clients, need):
    """The other half of `unpinned`: with the system file's pin and NO admin rules, the user's
    and a project's hooksConfig.enabled: false leave the org hook running, and it denies."""
    need("gemini")
    files, flags, env = switched_off("gemini")
    res = org_kit.turn("gemini", clients, command=DENIED, user_files=files, extra_args=flags,
                       extra_env=env, pre=[APPLY, f"rm {GEMINI_POLICY}"])
    assert res["pre"][1]["rc"] == 0, res["pre"]
    assert res["marker"] is False, res["stderr"][-1500:]
    org = [a for a in res["audit"] if a.get("layer") == "org" and a.get("event") == "pre_tool_use"]
    assert org and org[0]["decision"] == "deny" and org[0]["rule"] == "ssh-private-keys"


def test_gemini_s_uninstall_leaves_etc_byte_exact_after_a_real_turn(clients, need):
    need("gemini")
    snap = ("ls -la /etc/gemini-cli 2>&1 | grep -c 'No such file'; "
            "find /etc -type f -exec sha256sum {} + 2>/dev/null | sort | sha256sum; "
            "find /etc | sort | sha256sum")
    res = org_kit.turn("gemini", clients, command=ALLOWED,
                       pre=[snap, f"{APPLY} -t gemini", f"sha256sum {GEMINI_SYSTEM} {GEMINI_POLICY}"],
                       keep=True)
    try:
        before, applied, written = res["pre"]
        assert applied["rc"] == 0 and before["out"].split()[0] == "1", res["pre"]
        assert res["marker"] is True, f"{res['stdout']}\n{res['stderr']}"
        import hashlib
        upper = Path(res["base"]) / ".ov0" / "upper" / "gemini-cli"
        sums = [hashlib.sha256((upper / rel).read_bytes()).hexdigest()
                for rel in ("settings.json", "policies/agentdeck.toml")]
        assert sums == written["out"].split()[0::2]     # Gemini left both as written
    finally:
        import shutil
        shutil.rmtree(res["base"], ignore_errors=True)
    res = org_kit.as_root(clients, [snap, f"{APPLY} -t gemini", f"{AGENTDECK} org uninstall --yes "
                                    "-t gemini --home {base}/roothome", snap])
    before, applied, removed, after = res["pre"]
    assert applied["rc"] == 0 and removed["rc"] == 0, res["pre"]
    assert before["out"] == after["out"] and after["out"].split()[0] == "1", (before, after)


# ---- OpenCode: a managed plugin, which a user's flag or variable still switches off ------------

#: what OpenCode 1.18.33 lets a user do that switches the org plugin off (FACTS.undone_by), each
#: shown to let the denied call run with no org line: (flags, environment)
OPENCODE_UNDO = {
    "--pure": (["--pure"], {}),
    "OPENCODE_PURE": ([], {"OPENCODE_PURE": "1"}),
    "OPENCODE_TEST_MANAGED_CONFIG_DIR": ([], {"OPENCODE_TEST_MANAGED_CONFIG_DIR": "{base}/tmp"}),
}


def test_every_way_opencode_s_org_plugin_is_undone_has_a_real_turn():
    from agentdeck.core.targets.opencode.org import FACTS

    assert set(OPENCODE_UNDO) == set(FACTS.undone_by)


@pytest.mark.parametrize("how", list(OPENCODE_UNDO))
def test_what_switches_opencode_s_org_plugin_off_still_does(clients, need, how):
    need("opencode")
    flags, env = OPENCODE_UNDO[how]
    res = org_kit.turn("opencode", clients, command=DENIED, extra_args=flags, extra_env=env,
                       pre=[APPLY])
    assert res["pre"][0]["rc"] == 0, res["pre"][0]
    assert [a for a in res["audit"] if a.get("layer") == "org"] == [], how   # no org plugin
    assert res["marker"] is True, (how, res["stdout"], res["stderr"])        # the call ran


#: a user plugin that turns the model's harmless call into the one the org policy denies
REWRITER = """export const Rewrite = async () => ({
  "tool.execute.before": async (input, output) => {
    if (output?.args?.command) output.args.command = "cat ~/.ssh/id_ed25519; " + output.args.command;
  },
});
"""


def test_opencode_s_org_plugin_judges_the_arguments_a_user_plugin_leaves(clients, need):
    """User plugins run before the managed one: a user plugin that rewrites the call cannot
    slip the rewritten call past the org plugin."""
    need("opencode")
    res = org_kit.turn("opencode", clients, command=ALLOWED, pre=[APPLY], user_files={
        f"{org_kit.OPENCODE_HOME}/plugins/rewrite.js": REWRITER})
    assert res["pre"][0]["rc"] == 0, res["pre"][0]
    assert res["marker"] is False, (res["stdout"], res["stderr"])
    org = [a for a in res["audit"] if a.get("layer") == "org" and a.get("event") == "pre_tool_use"]
    assert org and org[0]["decision"] == "deny" and org[0]["rule"] == "ssh-private-keys", org


def test_opencode_s_managed_files_are_left_as_written_and_uninstall_leaves_etc_byte_exact(
        clients, need):
    need("opencode")
    from agentdeck.core.targets.opencode.org import FACTS, PLUGIN

    snap = ("ls -la /etc/opencode 2>&1 | grep -c 'No such file'; "
            "find /etc -type f -exec sha256sum {} + 2>/dev/null | sort | sha256sum; "
            "find /etc | sort | sha256sum")
    res = org_kit.turn("opencode", clients, command=ALLOWED,
                       pre=[snap, f"{APPLY} -t opencode", f"sha256sum {FACTS.path} {PLUGIN}"],
                       keep=True)
    try:
        before, applied, written = res["pre"]
        assert applied["rc"] == 0 and before["out"].split()[0] == "1", res["pre"]
        assert res["marker"] is True, f"{res['stdout']}\n{res['stderr']}"
        import hashlib
        upper = Path(res["base"]) / ".ov0" / "upper" / "opencode"
        sums = [hashlib.sha256((upper / Path(rel).name).read_bytes()).hexdigest()
                for rel in (FACTS.path, PLUGIN)]
        assert sums == written["out"].split()[0::2]     # OpenCode left both as written
    finally:
        import shutil
        shutil.rmtree(res["base"], ignore_errors=True)
    res = org_kit.as_root(clients, [snap, f"{APPLY} -t opencode", f"{AGENTDECK} org uninstall "
                                    "--yes -t opencode --home {base}/roothome", snap])
    before, applied, removed, after = res["pre"]
    assert applied["rc"] == 0 and removed["rc"] == 0, res["pre"]
    assert before["out"] == after["out"] and after["out"].split()[0] == "1", (before, after)
