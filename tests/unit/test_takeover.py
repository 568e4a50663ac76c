"""The take-over of another tool's install (core/targets/takeover.py, the aside kind of
core/plan.py), on small hand-made agentihooks-like homes: the rule table's aside rows, and
the cases a real agentihooks install does not produce (a linked hooks file, a broken persona
region, an unknown major version, a damaged kept copy). The real install is
test_takeover_golden.py."""
from __future__ import annotations

import json

import pytest

from agentdeck.core import engine
from agentdeck.core.errors import UserError
from agentdeck.core.facts.known_tools import AGENTIHOOKS
from agentdeck.core.plan import ASIDE_FP, ItemClass, classify
from tests.target_homes import target_home

HEADER, FOOTER = AGENTIHOOKS.installs["copilot"].persona_markers


@pytest.mark.parametrize("desired, recorded, actual, cls", [
    (ASIDE_FP, None, "sha:1", ItemClass.CREATE),        # found: set it aside
    (ASIDE_FP, None, ASIDE_FP, ItemClass.NOOP),
    (ASIDE_FP, ASIDE_FP, ASIDE_FP, ItemClass.NOOP),     # set aside, still away
    (ASIDE_FP, ASIDE_FP, "sha:2", ItemClass.HAND_EDITED),   # written again since: kept
    (None, ASIDE_FP, ASIDE_FP, ItemClass.REMOVE),       # uninstall: put it back
    (None, ASIDE_FP, "sha:2", ItemClass.HAND_EDITED),   # it is back already: left as is
    (None, None, "sha:1", ItemClass.NOOP),
])
def test_aside_rows_of_the_rule_table(desired, recorded, actual, cls):
    assert classify(desired, recorded, actual, aside=True)[0] == cls


def fake_install(host, *, version="2.17.0", persona=None, link_hooks=False):
    home = target_home(host, "copilot")
    (home / "hooks").mkdir(parents=True)
    (host.home / ".agentihooks").mkdir()
    (host.home / ".agentihooks" / "state.json").write_text(json.dumps(
        {"version": version, "targets": {"global": {"copilot": {"path": str(home)}}}}))
    hooks = json.dumps({"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "command": f"{home}/agentihooks-hook.sh preToolUse"}]}})
    if link_hooks:
        (host.home / "elsewhere.json").write_text(hooks)
        (home / "hooks" / "agentihooks.json").symlink_to(host.home / "elsewhere.json")
    else:
        (home / "hooks" / "agentihooks.json").write_text(hooks)
    (home / "agentihooks-hook.sh").write_text("#!/bin/sh\n")
    if persona is not None:
        (home / "copilot-instructions.md").write_text(persona)


def parts(plan):
    (found,) = plan.to_json()["found"]["copilot"]
    return found, {p["what"]: p for p in found["parts"]}


def test_no_install_no_group(ghost):
    plan = engine.build_plan(ghost, "default", ["copilot"])
    assert plan.to_json()["found"] == {"copilot": []}
    assert not any(i.kind == "aside" for i in plan.items)


def test_a_linked_hooks_file_is_not_moved_and_the_group_says_both_run(ghost):
    fake_install(ghost, link_hooks=True)
    plan = engine.build_plan(ghost, "default", ["copilot"])
    _, by = parts(plan)
    assert by["hooks file"]["fate"] == "kept" and "both" in by["hooks file"]["note"]
    assert not any(i.kind == "aside" for i in plan.items)


def test_a_persona_header_without_its_end_marker_is_left_alone(ghost):
    text = f"{HEADER}\n\n# Identity\nno end marker here\n"
    fake_install(ghost, persona=text)
    plan = engine.build_plan(ghost, "default", ["copilot"])       # the plan is not an error
    _, by = parts(plan)
    assert by["persona block"]["fate"] == "kept" and "line 1" in by["persona block"]["note"]
    persona = next(i for i in plan.items if i.label == "persona")
    assert persona.cls == ItemClass.CREATE                        # ours goes beside it
    assert engine.apply_plan(ghost, plan).ok
    assert (target_home(ghost, "copilot") / "copilot-instructions.md").read_text().endswith(text)


def test_an_unknown_major_version_is_warned_about(ghost):
    fake_install(ghost, version="3.1.0")
    found, _ = parts(engine.build_plan(ghost, "default", ["copilot"]))
    assert found["version"] == "3.1.0" and "2.x" in found["warning"]


def test_the_persona_region_keeps_text_around_it_and_comes_back_in_place(ghost):
    text = f"my notes first\n{HEADER}\ntheirs\n{FOOTER}\nmy notes after\n"
    fake_install(ghost, persona=text)
    plan = engine.build_plan(ghost, "default", ["copilot"])
    pid = f"{target_home(ghost, 'copilot') / 'copilot-instructions.md'}#block"
    assert plan.get(pid).cls == ItemClass.CONFLICT and plan.get(pid).actual == "theirs\n"
    plan.decide(pid, "take")
    assert engine.apply_plan(ghost, plan).ok
    now = (target_home(ghost, "copilot") / "copilot-instructions.md").read_text()
    assert now.startswith("my notes first\n<!-- agentdeck:begin") and now.endswith("my notes after\n")
    assert "theirs" not in now
    assert engine.apply_plan(ghost, engine.build_uninstall_plan(ghost, ["copilot"])).ok
    assert (target_home(ghost, "copilot") / "copilot-instructions.md").read_text() == text


def test_a_damaged_kept_copy_is_not_put_back_and_does_not_block_the_uninstall(ghost):
    """Nothing can be put back from a damaged copy; the rest of the uninstall goes on (a
    refusal there would leave the operator stuck: --skip could not get past it)."""
    fake_install(ghost)
    plan = engine.build_plan(ghost, "default", ["copilot"])
    assert engine.apply_plan(ghost, plan).ok
    man = json.loads((target_home(ghost, "copilot") / ".agentdeck-managed.json").read_text())
    (entry,) = [e for e in man["entries"] if e["kind"] == "aside"]
    kept = ghost.state_dir / "originals" / entry["prior_sha"]
    kept.write_text("not what was there")
    un = engine.build_uninstall_plan(ghost, ["copilot"])
    item = un.get(entry["path"])
    assert un.action(item) == "record" and "missing or damaged" in item.reason
    assert engine.apply_plan(ghost, un).ok
    assert not (target_home(ghost, "copilot") / "hooks" / "agentihooks.json").exists()   # not forged back
    assert not (target_home(ghost, "copilot") / "hooks" / "agentdeck.json").exists()
    assert not (target_home(ghost, "copilot") / ".agentdeck-managed.json").exists()


def test_its_hooks_file_is_not_put_back_once_its_tool_removed_itself(ghost):
    fake_install(ghost)
    assert engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["copilot"])).ok
    (target_home(ghost, "copilot") / "agentihooks-hook.sh").unlink()       # `agentihooks uninstall`
    un = engine.build_uninstall_plan(ghost, ["copilot"])
    item = un.get(str(target_home(ghost, "copilot") / "hooks" / "agentihooks.json"))
    assert un.action(item) == "record" and "which is gone" in item.reason
    assert engine.apply_plan(ghost, un).ok
    assert not (target_home(ghost, "copilot") / "hooks" / "agentihooks.json").exists()


def test_a_forged_setuid_prior_mode_is_refused(ghost):
    fake_install(ghost)
    assert engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["copilot"])).ok
    path = target_home(ghost, "copilot") / ".agentdeck-managed.json"
    man = json.loads(path.read_text())
    for e in man["entries"]:
        if e["kind"] == "aside":
            e["prior_mode"] = 0o6777
    path.write_text(json.dumps(man))
    with pytest.raises(UserError) as e:
        engine.build_uninstall_plan(ghost, ["copilot"])
    assert "prior_mode" in str(e.value)


def test_leaving_its_hooks_file_in_place_is_remembered(ghost):
    """Skipping the set-aside is a choice that holds (not pending again in every later plan and
    `status`): the next plan keeps it, says both run, and take still works."""
    fake_install(ghost)
    hooks = target_home(ghost, "copilot") / "hooks" / "agentihooks.json"
    plan = engine.build_plan(ghost, "default", ["copilot"])
    plan.decide(str(hooks), "skip")
    assert engine.apply_plan(ghost, plan).ok
    assert hooks.exists()
    again = engine.build_plan(ghost, "default", ["copilot"])
    assert not again.has_work
    item = again.get(str(hooks))
    assert item.cls == ItemClass.FOREIGN and again.action(item) == "none"
    assert "left it in place" in item.reason
    _, by = parts(again)
    assert by["hooks file"]["fate"] == "kept" and "both tools' hooks run" in by["hooks file"]["note"]
    again.decide(str(hooks), "take")
    assert engine.apply_plan(ghost, again).ok
    assert not hooks.exists()
    assert not engine.build_plan(ghost, "default", ["copilot"]).has_work


def test_a_folder_where_the_set_aside_file_was_is_left_alone_and_said(ghost):
    fake_install(ghost)
    assert engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["copilot"])).ok
    hooks = target_home(ghost, "copilot") / "hooks" / "agentihooks.json"
    hooks.mkdir()
    un = engine.build_uninstall_plan(ghost, ["copilot"])
    item = un.get(str(hooks))
    assert "a folder or a link is there now" in item.reason and "it is back" not in item.reason
    assert engine.apply_plan(ghost, un).ok
    assert hooks.is_dir()
