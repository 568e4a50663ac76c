"""The app on a home with an agentihooks 2.17.0 Copilot install (made by the real tool from PyPI,
tests/clients/agentihooks_kit.py; skipped with pip's reason when it cannot be installed): the
install is one node at the top of the plan tree, its persona is decided from the keyboard, and
after apply the next plan is empty with its hooks file set aside (docs/migrating.md)."""
from __future__ import annotations

import os

import pytest
from rich.text import Text

from agentdeck.app.widgets.plan_tree import PlanTree
from agentdeck.core import engine
from tests.app.conftest import make_host
from tests.clients.agentihooks_kit import init_home

from app_helpers import press_settled, select_tree_item, settle
from tests.target_homes import target_home


@pytest.fixture
def aih_host(tmp_path):
    home = tmp_path / "aih"
    why = init_home(home, "copilot")
    if why:
        pytest.skip(why)
    return make_host(home)


def labels(node) -> list[str]:
    out = []
    for child in node.children:
        lab = child.label
        out.append(lab.plain if isinstance(lab, Text) else str(lab))
        out.extend("  " + s for s in labels(child))
    return out


async def test_the_install_is_one_node_and_the_persona_is_decided_by_key(aih_host, make_app):
    host = aih_host
    app = make_app(host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        tree = screen.query_one(PlanTree)
        shown = labels(tree.root)
        assert shown[0].startswith("agentihooks 2.17.0 found: hooks file, managed settings sidecar")
        assert any(s.strip().startswith("~ set aside") and "hooks file" in s for s in shown)
        assert any(s.strip().startswith("! decide") and "persona block" in s for s in shown)
        assert any(s.strip().startswith("kept") and "MCP server agentihooks" in s for s in shown)
        persona = f"{target_home(host, 'copilot') / 'copilot-instructions.md'}#block"
        assert screen.plan.get(persona).cls == "conflict"
        # the group's "decide persona block" row is the persona item itself
        group = tree.root.children[0]
        assert any(n.data is not None and n.data.id == persona for n in group.children)
        from agentdeck.app.widgets.diff_view import DiffView
        from app_helpers import plain
        aside = next(i for i in screen.plan.items if i.kind == "aside")
        await select_tree_item(pilot, aside.id)      # the header says what happens, no "apply"
        body = " ".join(plain(screen.query_one(DiffView).query_one("#diff-body").content).split())
        assert "· apply will set it aside" in body and "decision: apply" not in body
        await select_tree_item(pilot, persona)
        await pilot.press("t")
        await settle(pilot)
        assert screen.plan.decision(screen.plan.get(persona)) == "take"
        await press_settled(pilot, "a", "y", "escape")     # apply, confirm, close the result
    assert sorted(os.listdir(target_home(host, "copilot") / "hooks")) == ["agentdeck.json"]
    assert (target_home(host, "copilot") / "copilot-instructions.md").read_text().startswith("<!-- agentdeck:begin")
    assert not engine.build_plan(host, "default", ["copilot"]).has_work


async def test_onboarding_detect_says_an_agentihooks_install_was_found(aih_host, make_app):
    from agentdeck.app.screens.onboarding import OnboardingScreen
    from app_helpers import static_text

    app = make_app(aih_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        if not isinstance(app.screen, OnboardingScreen):
            await pilot.press("o")
            await settle(pilot)
        text = static_text(app.screen, "#detect-body")
        assert "other tools" in text
        assert "copilot: agentihooks 2.17.0 found: hooks file" in text
        assert "uninstall gives" in text


async def test_a_with_only_an_undecided_conflict_says_what_to_press(aih_host, make_app):
    """Everything else applied, the persona conflict left: `a` still opens the confirmation,
    which says what to press, and the status line says it too, in one line at 120 columns."""
    from agentdeck.app.screens.apply import ConfirmApplyScreen
    from app_helpers import static_text

    host = aih_host
    engine.apply_plan(host, engine.build_plan(host, "default", ["copilot"]), leave_conflicts=True)
    app = make_app(host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert not screen.plan.has_work and screen.plan.undecided_conflicts()
        status = static_text(screen, "#status")
        assert "! item: k = yours, t = profile's" in status
        assert screen.query_one("#status").size.height == 1       # not cut, not wrapped
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmApplyScreen)
        note = " ".join(static_text(app.screen, "#confirm-note").split())
        assert "Press esc, select the ! item in the plan, then k to keep yours or t to take " \
               "the profile's" in note
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
