"""What a take-over of a real agentihooks 2.17.0 home remembers across later runs:
agentihooks run again after agentdeck took its persona's place, and a manifest aside entry
without its kept copy's sha. The real install comes from tests/clients/agentihooks_kit.py
(skipped with pip's reason when it cannot be installed)."""
from __future__ import annotations

import json

import pytest

from agentdeck.core import engine
from agentdeck.core.errors import UserError
from agentdeck.core.plan import ItemClass
from tests.clients.agentihooks_kit import init_home, snapshot

from tests.unit.test_takeover_golden import aih, aside_id, persona_id, state_rel  # noqa: F401 (fixture)
from tests.target_homes import target_home

HEADER = "<!-- managed-by: agentihooks"
OURS = "<!-- agentdeck:begin"


def fates(plan, what: str) -> list[str]:
    (found,) = plan.to_json()["found"]["copilot"]
    return [p["fate"] for p in found["parts"] if p["what"] == what]


def test_agentihooks_init_again_after_the_persona_was_taken_then_take_again_and_uninstall(aih):
    plan = engine.build_plan(aih, "default", ["copilot"])
    plan.decide(persona_id(aih), "take")
    assert engine.apply_plan(aih, plan).ok
    # the operator re-runs agentihooks: it rewrites its hooks file and the whole persona file
    assert init_home(aih.home, "copilot") == ""
    persona = target_home(aih, "copilot") / "copilot-instructions.md"
    rewritten = persona.read_bytes()
    assert OURS.encode() not in rewritten and rewritten.count(HEADER.encode()) == 1
    hooks_rewritten = (target_home(aih, "copilot") / "hooks" / "agentihooks.json").read_bytes()

    again = engine.build_plan(aih, "default", ["copilot"])
    # the group says what is there now: its region is back to decide (not "replaced"), and its
    # hooks file is back and kept (not "set aside"); the notice agrees with the item
    assert fates(again, "persona block") == ["decide"]
    assert fates(again, "hooks file") == ["kept"]
    assert again.get(aside_id(aih)).cls == ItemClass.HAND_EDITED
    notes = [n.message for n in again.notices["copilot"] if "other hook source" in n.message]
    assert notes and all("set aside by this plan" not in t and "kept" in t for t in notes)

    again.decide(persona_id(aih), "take")
    again.decide(aside_id(aih), "take")
    assert engine.apply_plan(aih, again).ok
    text = persona.read_text()
    # ours took the place of the region agentihooks wrote last: one persona, not two
    assert text.startswith(OURS) and HEADER not in text
    third = engine.build_plan(aih, "default", ["copilot"])
    assert not third.has_work
    assert fates(third, "persona block") == ["replaced"]

    # uninstall gives back what agentihooks wrote last, once
    assert engine.apply_plan(aih, engine.build_uninstall_plan(aih, ["copilot"])).ok
    assert persona.read_bytes() == rewritten
    assert (target_home(aih, "copilot") / "hooks" / "agentihooks.json").read_bytes() == hooks_rewritten


def test_an_aside_entry_without_prior_sha_is_refused_before_anything_is_written(aih):
    plan = engine.build_plan(aih, "default", ["copilot"])
    plan.decide(persona_id(aih), "keep")
    assert engine.apply_plan(aih, plan).ok
    man = target_home(aih, "copilot") / ".agentdeck-managed.json"
    data = json.loads(man.read_text())
    (entry,) = [e for e in data["entries"] if e["kind"] == "aside"]
    entry["prior_sha"] = None
    man.write_text(json.dumps(data))
    before = snapshot(aih.home, skip=(state_rel(aih),))
    with pytest.raises(UserError) as e:
        engine.build_uninstall_plan(aih, ["copilot"])
    assert "aside entry without the prior_sha" in str(e.value)
    assert str(man) in str(e.value.path)
    assert snapshot(aih.home, skip=(state_rel(aih),)) == before


def test_a_persona_kept_at_an_earlier_apply_is_not_shown_as_still_to_decide(aih):
    plan = engine.build_plan(aih, "default", ["copilot"])
    assert fates(plan, "persona block") == ["decide"]
    plan.decide(persona_id(aih), "keep")
    assert engine.apply_plan(aih, plan).ok
    again = engine.build_plan(aih, "default", ["copilot"])
    assert again.get(persona_id(aih)).cls == ItemClass.HAND_EDITED
    assert fates(again, "persona block") == ["kept"]
    # agentihooks writes its region again (a new body): the decision is asked for again
    persona = target_home(aih, "copilot") / "copilot-instructions.md"
    persona.write_text(persona.read_text().replace("# Identity", "# Identity (rewritten)", 1))
    third = engine.build_plan(aih, "default", ["copilot"])
    assert third.get(persona_id(aih)).cls == ItemClass.CONFLICT
    assert fates(third, "persona block") == ["decide"]
