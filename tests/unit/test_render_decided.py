"""The text plan says what apply will do with a hand-edited (or foreign) item -- the
profile's value written when the operator takes it, theirs left when they keep it -- and never
both ("[hand-edited: taking the profile] ... kept" contradicted itself)."""
from __future__ import annotations

import itertools
import json

from agentdeck.core import engine, plan as planner
from agentdeck.core.demo import make_demo_home
from agentdeck.core.render import KEEP_OUTCOMES, render_plan
from tests.target_homes import target_home


def _item_lines(text: str, host, item) -> list[str]:
    """The item's line and the lines under it (reason, values, warnings) in the text plan."""
    where = host.display(item.path)
    lines = text.splitlines()
    for n, ln in enumerate(lines):
        if ln.startswith("  ") and ln[4:].startswith(where + "  ") and item.label in ln:
            block = [ln]
            for nxt in lines[n + 1:]:
                if not nxt.startswith("      "):
                    break
                block.append(nxt)
            return block
    raise AssertionError(f"{where} {item.label} is not in the text plan:\n{text}")


def _hand_edited(host):
    engine.apply_plan(host, engine.build_plan(host, names=["copilot"]))
    path = target_home(host, "copilot") / "mcp-config.json"
    obj = json.loads(path.read_text())
    obj["mcpServers"]["memory"]["args"] = ["my-own-memory-server"]
    path.write_text(json.dumps(obj, indent=2) + "\n")
    plan = engine.build_plan(host, names=["copilot"])
    item = next(i for i in plan.items if i.key == ["mcpServers", "memory"])
    assert item.cls == "hand-edited"
    return plan, item


def test_keep_says_yours_stays_and_take_says_the_profiles_value_is_written(ghost):
    plan, item = _hand_edited(ghost)
    kept = "\n".join(_item_lines(render_plan(plan, ghost, verbose=True), ghost, item))
    assert "[hand-edited: keeping yours]" in kept
    assert "changed by you since the last apply; kept" in kept       # the default: yours stays
    assert "taking" not in kept and "writes the profile" not in kept

    plan.decide(item.id, "take")
    taken = "\n".join(_item_lines(render_plan(plan, ghost, verbose=True), ghost, item))
    assert taken.splitlines()[0].lstrip().startswith("~ ")            # apply writes it
    assert "[hand-edited: taking the profile's: apply writes the profile's value]" in taken
    assert "changed by you since the last apply" in taken             # why it is a hand-edit
    assert "kept" not in taken and "keeping" not in taken             # never both


def test_taking_a_foreign_item_drops_kept_and_keeping_says_it(ghost):
    make_demo_home(ghost.home)
    plan = engine.build_plan(ghost, names=["copilot"])
    item = next(i for i in plan.items if i.cls == "foreign" and "take" in i.choices)
    kept = "\n".join(_item_lines(render_plan(plan, ghost), ghost, item))
    assert "[foreign: keeping yours]" in kept and "was not written by agentdeck; kept" in kept
    plan.decide(item.id, "take")
    taken = "\n".join(_item_lines(render_plan(plan, ghost), ghost, item))
    assert "[foreign: taking the profile's: apply writes the profile's value]" in taken
    assert "was not written by agentdeck" in taken
    assert "kept" not in taken and "keeping" not in taken


def test_taking_a_hand_edit_the_profile_no_longer_wants_says_apply_removes_it(ghost):
    _hand_edited(ghost)
    # a profile without the default profile's MCP servers: memory is no longer wanted, and the
    # operator changed it since agentdeck wrote it
    prof = ghost.config_dir / "profiles" / "plain"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["_base"]\n')
    plan = engine.build_plan(ghost, "plain", names=["copilot"])
    item = next(i for i in plan.items if i.key == ["mcpServers", "memory"])
    assert item.cls == "hand-edited" and not item.wanted
    kept = "\n".join(_item_lines(render_plan(plan, ghost), ghost, item))
    assert "[hand-edited: keeping yours]" in kept and "left as is, no longer managed" in kept
    plan.decide(item.id, "take")
    taken = "\n".join(_item_lines(render_plan(plan, ghost), ghost, item))
    assert taken.splitlines()[0].lstrip().startswith("- ")
    assert "[hand-edited: taking the profile's: apply removes it]" in taken
    assert "left as is" not in taken and "kept" not in taken and "keeping" not in taken


def test_every_default_outcome_of_a_kept_class_is_one_the_renderer_replaces():
    """core.plan.classify says the default outcome in the reason's last clause; the renderer
    drops exactly those clauses when the operator takes the profile's value. A new wording in
    classify must be added to render.KEEP_OUTCOMES (or say "decide", as conflicts do)."""
    fps = (None, "a", "b", "c")
    seen = set()
    for desired, recorded, actual, pinned in itertools.product(fps, fps, fps, (False, True)):
        cls, _heal, why = planner.classify(desired, recorded, actual, pinned)
        if cls not in planner.KEPT_CLASSES:
            continue
        seen.add(cls)
        last = why.rpartition("; ")[2]
        assert last in KEEP_OUTCOMES or "decide" in last, (cls, why)
    assert seen == {"hand-edited", "foreign", "conflict"}
