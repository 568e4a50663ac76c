"""The walkthrough from review to the end: the review step lists and decides every chosen
target, its Next asks before applying, the options chosen are the ones the plan, the apply, the
doctor and the main screen use afterwards, the buttons show their whole label, the targets
step's first space toggles, and after apply the walkthrough offers Close."""
from __future__ import annotations

import re
from textual.widgets import Button, Switch

from agentdeck.app.screens.onboarding import OnboardingScreen
from agentdeck.app.widgets.diff_view import DiffView
from agentdeck.app.widgets.plan_tree import PlanTree
from tests.conftest import snapshot_tree

from app_helpers import (flat, go_to, main_screen, open_walkthrough, plain, select_tree_item, settle,
                         static_text)


async def test_review_lists_and_decides_on_every_chosen_target(demo_host, make_app):
    app = make_app(demo_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "review")
        await settle(pilot)
        tree = screen.query_one(PlanTree)
        groups = list(tree.root.children)
        assert len(groups) == len(screen.plan.targets) >= 2
        # an item of the last target can be selected and shown, not only the first target's
        last = screen.plan.targets[-1]
        item = next(i for i in screen.plan.for_target(last)
                    if screen.plan.action(i) == "write")
        await select_tree_item(pilot, item.id)
        body = plain(screen.query_one(DiffView).query_one("#diff-body").content)
        assert demo_host.display(item.path) in body


async def test_next_on_review_asks_before_applying(demo_host, make_app):
    home = demo_host.home
    before = snapshot_tree(home)
    app = make_app(demo_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "review")
        await settle(pilot)
        assert str(screen.query_one("#nav-next", Button).label) == "Apply"
        await pilot.press("n")
        await settle(pilot)
        confirm = app.screen
        assert confirm.id == "confirm-apply"
        assert "Apply the plan?" in plain(confirm.query_one(".dialog-title").content)
        assert snapshot_tree(home) == before          # nothing written yet
        await pilot.press("escape")                   # changed my mind
        await settle(pilot)
        assert app.screen is screen and screen.step_id == "review" and not screen.applied
        assert snapshot_tree(home) == before
        await pilot.click("#nav-next")                # the button asks too
        await settle(pilot)
        assert app.screen.id == "confirm-apply"
        await pilot.press("y")
        await settle(pilot)
        assert app.screen.id == "apply"
        assert "Applied:" in static_text(app.screen, "#apply-result")


async def test_onboarding_options_are_used_everywhere_after_apply(empty_host, make_app):
    app = make_app(empty_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "options")
        screen.query_one("#opt-mcp-disabled", Switch).value = False
        # the Codex trust option off (on by default; test_app_choices.py covers it on): the
        # hooks are inert at the end, as the status reports below
        screen.query_one("#opt-trust-hooks", Switch).value = False
        await settle(pilot)
        note = flat(static_text(screen, "#options-note"))
        assert "Changed from the profile: mcpDefaultDisabled off" in note
        # the option is written to the operator's layer
        assert "writes them to ~/.config/agentdeck/profiles/default.local/choices.json" in note
        await go_to(pilot, screen, "review")
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        result = flat(static_text(app.screen, "#apply-result"))
        assert "The plan is now empty." in result and "still has changes" not in result
        await pilot.press("escape")
        await settle(pilot)
        assert "are written to ~/.config/agentdeck/profiles/default.local/choices.json" in \
            flat(static_text(screen, "#apply-body"))
        await pilot.press("n")                 # the real doctor
        await settle(pilot)
        doctor = flat(static_text(screen, "#doctor-body"))
        assert not re.search(r"\d+ changes? pending", doctor), doctor
        await pilot.press("n")                 # Finish
        await settle(pilot)
        main = main_screen(app)
        # no changes, but with the trust option off Codex's hooks are inert
        status = static_text(main, "#status")
        assert status.startswith("No changes. Installed, hooks inert: codex: Codex skips"), status
        await pilot.press("d")                 # the doctor screen agrees
        await settle(pilot)
        rows = [f for f in app.screen.findings if f.check.endswith(".plan")]
        assert rows and not any("pending" in f.message for f in rows)
        # the choices are saved, so the doctor's own plan (no run-only overrides) agrees
        assert not app.session.has_overrides
        assert not any("with this run's choices" in f.message for f in rows)


async def test_nav_buttons_show_their_whole_label(empty_host, make_app, no_doctor):
    app = make_app(empty_host, onboard=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "options")
        nxt = screen.query_one("#nav-next", Button)
        assert str(nxt.label) == "Review the plan"
        assert nxt.region.width >= len("Review the plan") + 2
        await go_to(pilot, screen, "review")
        await settle(pilot)
        await pilot.press("n", "y")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert str(nxt.label) == "Run the doctor"
        assert nxt.region.width >= len("Run the doctor") + 2


async def test_after_apply_onboarding_offers_close_not_cancel_or_back(empty_host, make_app,
                                                                         no_doctor):
    app = make_app(empty_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        keys = {k.key: k.description for k in screen.query("FooterKey")}
        assert keys.get("escape") == "Cancel"
        await go_to(pilot, screen, "review")
        await settle(pilot)
        await pilot.press("n", "y")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert screen.applied and screen.step_id == "apply"
        keys = {k.key: k.description for k in screen.query("FooterKey")}
        assert keys.get("escape") == "Close" and "b" not in keys
        assert not screen.query_one("#nav-back").display
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, OnboardingScreen)


async def test_targets_step_first_space_toggles_and_marks_read_without_colour(
        demo_host, make_app):
    app = make_app(demo_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "targets")
        sl = screen.query_one("#target-set")
        first = sl.get_option_at_index(0).value
        # ticked: the targets a plain command covers (core.scopes.COVERAGE: the CLIs found)
        from agentdeck.core.scopes import found_targets
        assert list(sl.selected) == found_targets(demo_host) and first in sl.selected
        await pilot.press("space")
        await settle(pilot)
        assert first not in sl.selected                   # the first space already toggles
        rows = [sl.render_line(y).text for y in range(sl.option_count)]
        assert rows[0].startswith("▐ ▌"), rows[0]          # unselected: an empty box
        assert rows[1].startswith("▐X▌"), rows[1]          # selected: an X
        text = flat(static_text(screen, "#targets-note"))
        assert "codex and claude are not installed here" in text
        await pilot.press("b")
        await settle(pilot)
        rs = screen.query_one("#profile-set")
        marks = {b.name: str(b._button) for b in rs.query("RadioButton")}
        assert marks["default"] == "▐●▌" and all(m == "▐ ▌" for n, m in marks.items()
                                                 if n != "default")


async def test_the_doctor_step_says_what_it_is_doing(empty_host, make_app, monkeypatch):
    """The last step's doctor takes seconds (its checks, then a real turn of each CLI): the step
    shows what runs now, not only "Running the doctor…"."""
    import threading

    release = threading.Event()

    def slow_doctor(host, profile, targets, live=False, progress=None):
        if progress is not None:
            progress(1, 4, "copilot: reading its files")
        release.wait(30)
        return []

    monkeypatch.setattr("agentdeck.app.screens.doctor.load_doctor", lambda: slow_doctor)
    app = make_app(empty_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "review")
        await settle(pilot)
        await pilot.press("n", "y")
        await settle(pilot)
        await pilot.press("escape")          # the apply screen's Done: back on the Apply step
        await settle(pilot)
        await pilot.press("n")               # the doctor step
        for _ in range(50):
            await pilot.pause(0.05)
            if "reading its files" in static_text(screen, "#doctor-body"):
                break
        body = static_text(screen, "#doctor-body")
        release.set()
        assert "Running the doctor…" in body and "the checks: copilot: reading its files" in body
        await settle(pilot)
