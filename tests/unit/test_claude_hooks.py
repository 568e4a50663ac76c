"""Claude hooks in settings.json next to the operator's own: agentdeck's matcher group per event
is a list-member item, so the operator's groups are never compared, rewritten, reordered or
removed -- on first install, on later profile changes, when they add groups of their own, and on
uninstall."""
from __future__ import annotations

import json

import pytest

from agentdeck.core import engine
from tests.target_homes import target_home

THEIRS = {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/guard.sh",
                                                  "timeout": 5}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}],
    "FileChanged": [{"hooks": [{"type": "command", "command": "echo changed"}]}],
}


@pytest.fixture
def settings(host):
    p = target_home(host, "claude") / "settings.json"
    p.parent.mkdir(parents=True)
    p.write_text(json.dumps({"model": "sonnet", "hooks": THEIRS}, indent=2) + "\n")
    return p


def _plan(host, profile="default"):
    return engine.build_plan(host, profile, ["claude"])


def _apply(host, profile="default"):
    plan = _plan(host, profile)
    res = engine.apply_plan(host, plan)
    assert res.ok, res.leftover
    return plan


def _hooks(path):
    return json.loads(path.read_text())["hooks"]


def _ours(group, host):
    return str(target_home(host, "claude") / "agentdeck-hook.sh") in json.dumps(group)


def test_first_install_adds_our_group_after_theirs(host, settings):
    plan = _plan(host)
    items = [i for i in plan.items if i.label.startswith("hook ") and i.kind == "key"]
    assert len(items) == 12 and {i.cls for i in items} == {"create"}
    pre = next(i for i in items if i.label == "hook PreToolUse")
    assert "next to your 1 group(s)" in pre.reason
    assert any("your own hooks" in n.message for n in plan.notices["claude"])
    assert plan.info["claude"]["other_hook_sources"][0]["events"] == ["FileChanged", "PreToolUse", "Stop"]
    engine.apply_plan(host, plan)
    hooks = _hooks(settings)
    assert hooks["PreToolUse"][0] == THEIRS["PreToolUse"][0]
    assert _ours(hooks["PreToolUse"][1], host)
    assert hooks["Stop"][0] == THEIRS["Stop"][0] and _ours(hooks["Stop"][1], host)
    assert hooks["FileChanged"] == THEIRS["FileChanged"]
    assert hooks["SessionStart"] == [{"hooks": [{
        "type": "command", "command": f"{target_home(host, 'claude') / 'agentdeck-hook.sh'} SessionStart",
        "timeout": 30}]}]
    assert not _plan(host).has_work


def test_operator_adds_a_group_later_no_conflict_and_uninstall_keeps_it(host, settings):
    _apply(host)
    obj = json.loads(settings.read_text())
    mine2 = {"matcher": "Edit", "hooks": [{"type": "command", "command": "lint"}]}
    obj["hooks"]["PreToolUse"].append(mine2)
    obj["hooks"]["SessionStart"].insert(0, {"hooks": [{"type": "command", "command": "hello"}]})
    settings.write_text(json.dumps(obj, indent=2) + "\n")
    plan = _plan(host)
    assert not plan.has_work
    # the profile changes our hooks: only our groups change, in place
    prof = host.config_dir / "profiles" / "slow"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n[hooks]\ntimeout = 45\n')
    plan = _plan(host, "slow")
    assert {i.cls for i in plan.items if i.label.startswith("hook ") and i.kind == "key"} == {"update"}
    engine.apply_plan(host, plan)
    hooks = _hooks(settings)
    assert hooks["PreToolUse"][0] == THEIRS["PreToolUse"][0] and hooks["PreToolUse"][2] == mine2
    assert hooks["PreToolUse"][1]["hooks"][0]["timeout"] == 45
    assert hooks["SessionStart"][0]["hooks"][0]["command"] == "hello"
    # uninstall: only our groups go; theirs, including the ones added after us, stay
    assert engine.apply_plan(host, engine.build_uninstall_plan(host, ["claude"])).ok
    obj = json.loads(settings.read_text())
    assert obj["hooks"] == {**THEIRS, "PreToolUse": THEIRS["PreToolUse"] + [mine2],
                            "SessionStart": [{"hooks": [{"type": "command", "command": "hello"}]}]}
    assert obj["model"] == "sonnet"


def test_uninstall_on_untouched_file_is_byte_exact(host, settings):
    before = settings.read_bytes()
    _apply(host)
    assert engine.apply_plan(host, engine.build_uninstall_plan(host, ["claude"])).ok
    assert settings.read_bytes() == before


def test_fresh_home_uninstall_removes_the_file(host):
    _apply(host)
    settings = target_home(host, "claude") / "settings.json"
    assert settings.exists()
    assert engine.apply_plan(host, engine.build_uninstall_plan(host, ["claude"])).ok
    assert not settings.exists()


def test_operator_edits_our_group_is_a_hand_edit_kept(host, settings):
    _apply(host)
    obj = json.loads(settings.read_text())
    obj["hooks"]["Stop"][1]["hooks"][0]["timeout"] = 99
    settings.write_text(json.dumps(obj, indent=2) + "\n")
    plan = _plan(host)
    it = next(i for i in plan.items if i.label == "hook Stop")
    assert it.cls == "hand-edited" and not plan.has_changes
    engine.apply_plan(host, plan)
    assert _hooks(settings)["Stop"][1]["hooks"][0]["timeout"] == 99


def test_operator_deletes_our_group_is_not_re_added(host, settings):
    _apply(host)
    obj = json.loads(settings.read_text())
    obj["hooks"]["Stop"] = obj["hooks"]["Stop"][:1]
    settings.write_text(json.dumps(obj, indent=2) + "\n")
    plan = _plan(host)
    it = next(i for i in plan.items if i.label == "hook Stop")
    assert it.cls == "hand-edited" and "deleted by you" in it.reason
    assert not plan.has_changes


def test_profile_drops_an_event_removes_only_our_group(host, settings):
    _apply(host)
    prof = host.config_dir / "profiles" / "few"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n[hooks]\nevents = ["session_start"]\n')
    plan = _plan(host, "few")
    assert {i.label for i in plan.items if i.cls == "remove"} >= {"hook PreToolUse", "hook Stop"}
    engine.apply_plan(host, plan)
    hooks = _hooks(settings)
    assert hooks["PreToolUse"] == THEIRS["PreToolUse"] and hooks["Stop"] == THEIRS["Stop"]
    assert "PostToolUse" not in hooks and _ours(hooks["SessionStart"][0], host)


def test_claude_config_dir_is_respected(host, tmp_path):
    cdir = tmp_path / "claude-cfg"
    host.env["CLAUDE_CONFIG_DIR"] = str(cdir)
    plan = _apply(host)
    assert (cdir / "settings.json").exists() and (cdir / "agentdeck-hook.sh").exists()
    assert (cdir / ".claude.json").exists() and not (host.home / ".claude.json").exists()
    assert (cdir / ".agentdeck-managed.json").exists()
    assert plan.info["claude"]["hooks"]["wrapper"] == str(cdir / "agentdeck-hook.sh")
    assert not (host.home / ".claude").exists()


def test_disable_all_hooks_is_reported(host, settings):
    obj = json.loads(settings.read_text())
    obj["disableAllHooks"] = True
    settings.write_text(json.dumps(obj))
    plan = _plan(host)
    assert any("disableAllHooks: true" in n.message for n in plan.notices["claude"])


def test_events_use_claude_names_and_timeout(host):
    plan = _plan(host)
    events = [e["event"] for e in plan.info["claude"]["hooks"]["events"]]
    assert events == ["SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PostToolUse",
                      "PostToolUseFailure", "Stop", "SubagentStart", "SubagentStop", "PreCompact",
                      "PermissionRequest", "Notification"]
    for e in plan.info["claude"]["hooks"]["events"]:
        assert set(e["group"]["hooks"][0]) == {"type", "command", "timeout"}


def test_a_non_list_event_value_is_left_alone(host, settings):
    obj = json.loads(settings.read_text())
    obj["hooks"]["Stop"] = {"oops": True}
    settings.write_text(json.dumps(obj))
    plan = _plan(host)
    assert not [i for i in plan.items if i.label == "hook Stop"]
    assert any("hooks Stop not a list" in n.message for n in plan.notices["claude"])
    engine.apply_plan(host, plan)
    assert _hooks(settings)["Stop"] == {"oops": True}


def test_a_non_object_hooks_value_registers_nothing(host, settings):
    settings.write_text(json.dumps({"hooks": []}))
    plan = _plan(host)
    # no hook is registered; Claude's own permissions.deny layer for the profile's protected
    # paths does not depend on the hooks value and is still planned
    assert not [i for i in plan.items if i.group == "hooks"
                and not i.label.startswith("permissions.deny ")]
    assert any('"hooks" is not an object' in n.message for n in plan.notices["claude"])


def test_with_member_never_replaces_a_non_list():
    from agentdeck.core.errors import UserError
    from agentdeck.core.plan import with_member
    with pytest.raises(UserError):
        with_member({"a": 1}, "/w.sh", {"x": 1})
    assert with_member(None, "/w.sh", {"x": "/w.sh"}) == [{"x": "/w.sh"}]
    assert with_member([{"y": 1}, {"x": "/w.sh 1"}], "/w.sh", {"x": "/w.sh 2"}) == [{"y": 1}, {"x": "/w.sh 2"}]
