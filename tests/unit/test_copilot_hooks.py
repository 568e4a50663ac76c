"""Copilot hook registration, the wrapper, disable keys and hook trust."""
from __future__ import annotations

from agentdeck.core.disk import DiskView
import hashlib
import json
import os
import subprocess

import pytest

from agentdeck.core import engine, profiles
from agentdeck.core.errors import UserError
from agentdeck.core.targets.copilot.facts import COPILOT, copilot_disable_key
from agentdeck.core.targets import wrapper
from agentdeck.core.targets.copilot import hooks as copilot_hooks
from agentdeck.core.targets.copilot.adapter import CopilotTarget
from tests.target_homes import target_home

TWELVE = ["sessionStart", "sessionEnd", "userPromptSubmitted", "preToolUse", "postToolUse",
          "postToolUseFailure", "agentStop", "subagentStart", "subagentStop", "preCompact",
          "permissionRequest", "notification"]


def desired(host, profile=None):
    return CopilotTarget().desired(profile or profiles.resolve(host, "default"), DiskView(host))


def item(st, label_prefix):
    (it,) = [i for i in st.items if i.label.startswith(label_prefix)]
    return it


def test_disable_key_matches_the_facts_example():
    key = copilot_disable_key("sessionStart", {"type": "command", "bash": "echo hi"})
    assert key.startswith("48084ce6")
    assert key == hashlib.sha256(b'sessionStart\0{"type":"command","bash":"echo hi"}').hexdigest()


def test_hooks_file_registers_the_twelve_events_with_timeoutSec(host):
    st = desired(host)
    obj = json.loads(item(st, "hooks (").value)
    assert obj["version"] == 1
    assert list(obj["hooks"]) == TWELVE == list(COPILOT.register_events)
    wrapper_path = target_home(host, "copilot") / "agentdeck-hook.sh"
    for ev, actions in obj["hooks"].items():
        assert actions == [{"type": "command", "bash": f"{wrapper_path} {ev}", "timeoutSec": 30}]
        assert "timeoutSeconds" not in json.dumps(actions)
    info = st.output.hooks
    assert [e.event for e in info.events] == TWELVE
    for e in info.events:
        assert e.disable_key == copilot_disable_key(e.event, e.entry)
        assert e.state == "active" and not e.reenables_disabled


def test_settings_json_never_gets_an_inline_hooks_key(host):
    st = desired(host)
    assert not any(i.key and i.key[0] == "hooks" for i in st.items)


def test_profile_hooks_key_is_dropped_with_a_warning(host):
    prof = profiles.resolve(host, "default")
    prof.native["copilot/settings.json"] = {"hooks": {"preToolUse": []}, "model": "gpt-5"}
    st = desired(host, prof)
    assert not any(i.key == ("hooks",) for i in st.items)
    assert any("'hooks' is dropped" in n.message and "twice" in n.message for n in st.notices)
    assert item(st, "model").value == "gpt-5"


def test_action_is_byte_stable_when_the_handler_changes(host):
    prof = profiles.resolve(host, "default")
    a = desired(host, prof)
    prof.hooks.command = "/opt/other/handler --flag"
    b = desired(host, prof)
    assert item(a, "hooks (").value == item(b, "hooks (").value
    assert item(a, "hook wrapper").value != item(b, "hook wrapper").value
    assert [e.disable_key for e in a.output.hooks.events] == \
           [e.disable_key for e in b.output.hooks.events]


def test_events_subset_from_profile(host):
    prof = profiles.resolve(host, "default")
    prof.hooks.events = ["pre_tool_use", "stop", "error", "bogus"]
    st = desired(host, prof)
    obj = json.loads(item(st, "hooks (").value)
    assert list(obj["hooks"]) == ["preToolUse", "agentStop", "errorOccurred"]
    assert any("'bogus'" in n.message for n in st.notices)


def test_no_handler_no_hooks(host):
    prof = profiles.resolve(host, "default")
    prof.hooks.command = None
    st = desired(host, prof)
    assert not [i for i in st.items if i.group == "hooks"]
    assert any("no hook handler" in n.message for n in st.notices)


def _write_settings(host, text):
    target_home(host, "copilot").mkdir(parents=True, exist_ok=True)
    (target_home(host, "copilot") / "settings.json").write_text(text)


def test_disabled_hook_shows_as_disabled_by_operator(host):
    st = desired(host)
    key = st.output.hooks.events[3].disable_key      # preToolUse
    _write_settings(host, '{\n  // mine\n  "disabledHooks": ["%s"],\n}\n' % key)
    st = desired(host)
    states = {e.event: e.state for e in st.output.hooks.events}
    assert states["preToolUse"] == "disabled-by-operator"
    assert sum(s == "active" for s in states.values()) == 11
    assert "1 disabled by you in disabledHooks (preToolUse)" in item(st, "hooks (").reason


def test_changing_a_disabled_action_warns_that_it_re_enables(host, monkeypatch):
    plan = engine.build_plan(host, "default", ["copilot"])
    engine.apply_plan(host, plan)
    key = plan.output["copilot"].hooks.events[0].disable_key     # sessionStart
    _write_settings(host, json.dumps({"disableAllHooks": False, "disabledMcpServers": ["github"],
                                      "disabledHooks": [key]}))
    assert not engine.build_plan(host, "default", ["copilot"]).has_changes
    # the profile changes the timeout: every action (and key) changes
    real = profiles.resolve

    def longer(h, name):
        p = real(h, name)
        p.hooks.timeout = 45
        return p
    monkeypatch.setattr(profiles, "resolve", longer)
    plan = engine.build_plan(host, "default", ["copilot"])
    (it,) = [i for i in plan.items if i.label.startswith("hooks (")]
    assert it.cls == "update"
    assert "and so the disable key, of 12 hooks" in it.reason
    assert it.warnings == ["this change re-enables the hook you disabled (sessionStart): its "
                           "registered action changes, so its disable key in settings.json "
                           "disabledHooks no longer matches"]
    ev = plan.output["copilot"].hooks.events[0]
    assert ev.changes_key and ev.reenables_disabled and ev.previous_disable_keys == (key,)
    assert ev.state == "active"


def test_disable_all_hooks_true_is_a_conflict(host):
    _write_settings(host, '{"disableAllHooks": true}')
    plan = engine.build_plan(host, "default", ["copilot"])
    (it,) = [i for i in plan.items if i.label == "disableAllHooks"]
    assert it.cls == "conflict" and it.actual is True and it.desired is False
    assert any("disableAllHooks: true" in n.message for n in plan.notices["copilot"])
    with pytest.raises(UserError, match="conflict"):
        engine.apply_plan(host, plan)


def test_settings_parse_error_names_file_line_col(host):
    _write_settings(host, '{\n  "model": "x",\n  "theme": \n}\n')
    with pytest.raises(UserError) as e:
        desired(host)
    assert str(e.value).startswith(f"{target_home(host, 'copilot') / 'settings.json'}:4:")


def test_other_hook_sources_are_reported(host, tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / ".github" / "hooks").mkdir(parents=True)
    (repo / ".github" / "hooks" / "ci.json").write_text('{"version": 1, "hooks": {"preToolUse": []}}')
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text('{"hooks": {"Stop": []}}')
    policy = tmp_path / "policy.d"
    policy.mkdir()
    (policy / "org.json").write_text('{"hooks": {"sessionStart": []}}')
    monkeypatch.setattr(copilot_hooks, "POLICY_DIR", policy)
    home = target_home(host, "copilot")
    (home / "hooks").mkdir(parents=True)
    (home / "hooks" / "other.json").write_text('{"hooks": {"agentStop": []}}')
    (home / "config.json").write_text(json.dumps({"trustedFolders": [str(repo)],
                                                  "authToken": "SECRET-NEVER-SHOWN"}))
    _write_settings(host, '{"hooks": {"sessionStart": [{"type": "command", "bash": "x"}]}}')
    st = desired(host)
    kinds = {s.kind: s for s in st.output.hooks.other_sources}
    assert set(kinds) == {"inline-settings", "user-hooks-file", "repo-hooks", "repo-claude-hooks",
                          "policy"}
    assert kinds["inline-settings"].events == ("sessionStart",)
    assert kinds["repo-hooks"].path == str(repo / ".github" / "hooks" / "ci.json")
    text = " ".join(n.message for n in st.notices)
    assert "fires twice" in text and "SECRET-NEVER-SHOWN" not in text + repr(st.output)
    warns = [n for n in st.notices if n.level == "warning"]
    assert any("inline" in n.message for n in warns)


# ---- the wrapper ------------------------------------------------------------------------------------

def _run_wrapper(tmp_path, handler_cmd, path_env, event="preToolUse"):
    from agentdeck.core.host import Host
    h = Host.from_environment(tmp_path, env={"PATH": path_env, "HOME": str(tmp_path)})
    hd = wrapper.resolve_handler(h, handler_cmd)
    script = tmp_path / "w.sh"
    script.write_text(wrapper.render_wrapper("copilot", hd, tmp_path / "state"))
    os.chmod(script, 0o755)
    return hd, subprocess.run([str(script), event], capture_output=True, text=True,
                              env={"PATH": "/usr/bin:/bin"}, timeout=10)


def test_wrapper_execs_the_handler_with_the_event_and_env(tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    h = bindir / "my handler"
    h.write_text('#!/bin/sh\necho "$1|$2|$AGENTDECK_EVENT|$AGENTDECK_TARGET|$AGENTDECK_STATE_DIR"\nexit 2\n')
    os.chmod(h, 0o755)
    hd, r = _run_wrapper(tmp_path, "'my handler' --x", f"{bindir}:/usr/bin:/bin")
    assert hd.resolved == str(h) and not hd.warnings
    assert r.stdout.strip() == f"--x|preToolUse|preToolUse|copilot|{tmp_path / 'state'}"
    assert r.returncode == 2      # a handler's own exit code is kept (exit 2 still denies)


def test_wrapper_fails_open_when_the_handler_is_missing(tmp_path):
    hd, r = _run_wrapper(tmp_path, "no-such-handler", "/nonexistent")
    assert hd.resolved is None and "not on PATH" in hd.warnings[0]
    assert r.returncode == 0 and "not found" in r.stderr


def test_missing_handler_is_a_plan_warning(host):
    host.env["PATH"] = "/nonexistent"
    st = desired(host)
    assert any("not on PATH" in n.message for n in st.notices)
    assert item(st, "hook wrapper").mode == 0o755


def test_copilots_event_spellings():
    """Copilot CLI 1.0.102's own names for the canonical events (observed; the event table
    reads them from its facts)."""
    from agentdeck.core.facts import event_table
    t = event_table()
    assert (t["stop"]["copilot"], t["user_prompt_submit"]["copilot"],
            t["notification"]["copilot"], t["error"]["copilot"]) == (
        "agentStop", "userPromptSubmitted", "notification", "errorOccurred")


def test_copilots_own_path_deny_is_not_written():
    """Copilot CLI 1.0.102 has no path deny list agentdeck can write (its policy part says why):
    the hook is the only layer."""
    from agentdeck.core import native_layers
    layer = native_layers.native_deny("copilot")
    assert layer is not None and layer.written is False and layer.why
