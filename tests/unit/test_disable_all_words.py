"""`disableAllHooks: true` is one fact per CLI (its facts' disable_all_stops_user_hooks, as
observed), worded one way by the plan's notice and the app's Hooks pane: Copilot CLI 1.0.102
still runs its user hooks with it, Claude Code and Qwen Code do not (issue 31.2: the plan said
"none of these hooks run" and the pane "every hook is off" while Copilot ran all twelve)."""
from __future__ import annotations

import json

import pytest

from agentdeck.app.widgets.hooks_pane import disable_all_words
from agentdeck.core import engine
from agentdeck.core.facts.versions import facts_by_target
from agentdeck.core.targets import registry
from agentdeck.core.targets.spec import DISABLE_ALL
from agentdeck.core.views import hooks as hooks_view
from tests.target_homes import target_home


@pytest.mark.parametrize("target", [s.name for s in registry.TARGETS])
def test_disable_all_is_worded_from_the_targets_fact(host, target):
    settings = target_home(host, target) / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"disableAllHooks": True}))
    plan = engine.build_plan(host, "default", [target])
    h = plan.output[target].hooks
    assert h is not None
    if not registry.spec(target).can(DISABLE_ALL):      # a CLI without the setting (Codex)
        assert h.disable_all_effect == "" and h.disable_all_on_disk is None
        return
    assert h.disable_all_on_disk is True
    stops = facts_by_target()[target].disable_all_stops_user_hooks
    effect = h.disable_all_effect
    assert h.disable_all_stops is stops
    assert ("none of these hooks" in effect) is stops
    assert ("still runs these hooks" in effect) is (not stops)
    # the plan's notice, the app's view and pane say the same words
    notes = [n.message for n in plan.notices.get(target, []) if "disableAllHooks: true" in n.message]
    assert notes and all(effect in n for n in notes), notes
    view = hooks_view.of(plan, target)
    assert view.disable_all_effect == effect and view.disable_all_stops is stops
    assert disable_all_words(host, True, view.disable_all_effect) == f"on disk: true ({effect})"


def test_copilot_fact_is_that_it_still_runs_them():
    """The observed fact this wording rests on (tests/clients/test_drill_real.py checks it in a
    real turn)."""
    stopping = {t for t, f in facts_by_target().items() if f.disable_all_stops_user_hooks}
    assert stopping != set(facts_by_target())      # at least one CLI ignores it (Copilot 1.0.102)


def test_the_pinned_items_reason_says_the_same_fact(host):
    """A plan that pins disableAllHooks to false says why in the fact's terms: for a CLI that
    still runs its hooks with it true (Copilot 1.0.102), not "true would silently turn off every
    hook" (issue 31.2: the plan item and the app's Plan and Keys details said so)."""
    pinned = {}
    for spec in registry.TARGETS:
        plan = engine.build_plan(host, "default", [spec.name])
        for item in plan.items:
            if item.label == "disableAllHooks":
                pinned[spec.name] = item.reason
    assert pinned, "no target pins disableAllHooks: this test checks nothing"
    for target, reason in pinned.items():
        f = facts_by_target()[target]
        stops = f.disable_all_stops_user_hooks
        assert ("would silently turn off every hook" in reason) is stops, (target, reason)
        assert ("still runs them" in reason) is (not stops), (target, reason)
        if not stops:
            assert f.verified_versions[1] in reason, (target, reason)
