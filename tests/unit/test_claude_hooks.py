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
    # the 12 default events, and PreSkillShellCommand beside PreToolUse (a skill's `!command`)
    assert len(items) == 13 and {i.cls for i in items} == {"create"}
    pre = next(i for i in items if i.label == "hook PreToolUse")
    assert "next to your 1 group" in pre.reason
    assert any("your own hooks" in n.message for n in plan.notices["claude"])
    assert plan.output["claude"].hooks.other_sources[0].events == ("FileChanged", "PreToolUse", "Stop",)
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
    assert plan.output["claude"].hooks.wrapper == str(cdir / "agentdeck-hook.sh")
    assert not (host.home / ".claude").exists()


def test_disable_all_hooks_is_reported(host, settings):
    obj = json.loads(settings.read_text())
    obj["disableAllHooks"] = True
    settings.write_text(json.dumps(obj))
    plan = _plan(host)
    assert any("disableAllHooks: true" in n.message for n in plan.notices["claude"])


def test_events_use_claude_names_and_timeout(host):
    plan = _plan(host)
    events = [e.event for e in plan.output["claude"].hooks.events]
    assert events == ["SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse",
                      "PreSkillShellCommand", "PostToolUse", "PostToolUseFailure", "Stop",
                      "SubagentStart", "SubagentStop", "PreCompact", "PermissionRequest",
                      "Notification"]
    for e in plan.output["claude"].hooks.events:
        assert set(e.entry["hooks"][0]) == {"type", "command", "timeout"}


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


def test_a_skills_shell_commands_are_registered_with_the_pre_tool_event(host):
    """Claude Code 2.1.332 runs a skill's own `!command` lines under PreSkillShellCommand, which
    PreToolUse never sees (facts: also_events): agentdeck's pre-tool handler is registered there
    too, flagged as decided as pre_tool_use; a profile without pre_tool_use gets neither."""
    rows = {e.event: e for e in _plan(host).output["claude"].hooks.events}
    skill = rows["PreSkillShellCommand"]
    assert (skill.canonical, skill.also) == ("pre_tool_use", True)
    assert not rows["PreToolUse"].also
    assert skill.command.endswith("agentdeck-hook.sh PreSkillShellCommand")
    prof = host.config_dir / "profiles" / "quiet"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n\n'
                                       '[hooks]\nevents = ["stop"]\n')
    assert [e.event for e in _plan(host, "quiet").output["claude"].hooks.events] == ["Stop"]


# ---- what the handler makes of Claude Code's shell-running calls ------------------------------
from pathlib import Path   # noqa: E402

from agentdeck.core.policy.selftest import run_case   # noqa: E402
from agentdeck.core.policy.vocabulary import classify, tool_calls, vocabulary   # noqa: E402
from agentdeck.core.targets.dialects import readers   # noqa: E402

PAYLOADS = Path(__file__).resolve().parents[1] / "fixtures" / "payloads" / "claude"
#: the skill event's payload as Claude Code 2.1.332 sent it (paths and ids neutralized, the
#: command replaced by the one the captured PreToolUse fixture carries)
SKILL_PAYLOAD = json.loads((PAYLOADS / "PreSkillShellCommand.json").read_text())


def _doc(decision: str) -> dict:
    return {"format": 2, "target": "claude", "on_error": "deny", "rules": [
        {"id": "no-capture", "tool": "shell", "match": r"agentdeck-capture|rm -rf",
         "decision": decision, "reason": "not here"}]}


def test_a_skills_shell_command_is_decided_as_a_pre_tool_shell_call():
    """PreSkillShellCommand carries PreToolUse's payload (tool_name Bash): the handler records a
    pre-tool shell call (the spelling kept in raw_event) and a shell rule denies it in Claude's
    channel, exit 2 (observed to keep the command from running)."""
    record, code, out, err = run_case(_doc("deny"), "claude", "PreSkillShellCommand",
                                      SKILL_PAYLOAD)
    assert (record["event"], record["raw_event"], record["dialect"]) == (
        "pre_tool_use", "PreSkillShellCommand", "claude")
    assert (record["tool_class"], record["decision"], record["rule"], code, err) == (
        "shell", "deny", "no-capture", 2, "not here")
    assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_an_ask_at_a_skills_shell_command_is_a_deny_in_effect():
    """Observed: Claude Code does not wait for approval there ("a skill can't wait for"): the
    command does not run, so the audit line says deny is what happened; at PreToolUse an ask
    stays an ask."""
    record, code, out, _ = run_case(_doc("ask"), "claude", "PreSkillShellCommand", SKILL_PAYLOAD)
    assert (record["decision"], record["effective"], code) == ("ask", "deny", 0)
    assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "ask"
    pre = {**SKILL_PAYLOAD, "hook_event_name": "PreToolUse", "tool_use_id": "toolu_1"}
    record, *_ = run_case(_doc("ask"), "claude", "PreToolUse", pre)
    assert (record["decision"], record["effective"]) == ("ask", "ask")


def test_monitor_is_judged_as_a_shell_command():
    """Claude Code 2.1.332's Monitor runs a shell command and streams its output (an `rm -rf`
    through it ran while agentdeck filed it as "other"): it is a shell call, and a shell rule
    denies it."""
    pre = {**SKILL_PAYLOAD, "hook_event_name": "PreToolUse", "tool_use_id": "toolu_1",
           "tool_name": "Monitor",
           "tool_input": {"command": "rm -rf build", "description": "watch"}}
    [call] = tool_calls(pre)
    assert (call.cls, call.subjects) == ("shell", ["rm -rf build"])
    record, code, _, _ = run_case(_doc("deny"), "claude", "PreToolUse", pre)
    assert (record["tool_class"], record["decision"], code) == ("shell", "deny", 2)
    # Claude's vocabulary names it (not only the rule for unknown tools given a command): a
    # Monitor call is a shell call whatever its arguments are called
    vocab = vocabulary(readers("claude", "claude"))
    assert classify("Monitor", {"description": "watch"}, vocab=vocab).cls == "shell"


def test_claude_event_spellings():
    """Claude Code 2.1.332's names for the canonical events agentdeck maps (observed; its
    StopFailure is the closest to an error event)."""
    from agentdeck.core.facts import event_table
    t = event_table()
    assert (t["stop"]["claude"], t["notification"]["claude"], t["error"]["claude"]) == (
        "Stop", "Notification", "StopFailure")
