"""A plan that cannot be computed is shown as its one-line error, in the status and the plan
pane: nothing stays "computing", a broken file stops only its own target, and `r` plans again
once the file is fixed."""
from __future__ import annotations

from agentdeck.app.screens.onboarding import OnboardingScreen
from agentdeck.app.widgets.target_list import TargetList

from app_helpers import choose_tab, flat, main_screen, plain, settle, static_text
from tests.target_homes import target_home


async def test_broken_settings_show_the_error_and_no_target_stays_computing(demo_host,
                                                                            make_app):
    settings = target_home(demo_host, "copilot") / "settings.json"
    settings.write_text(settings.read_text().replace('"theme": "dark",', '"theme": "dark",,'))
    demo_host.state_dir.mkdir(parents=True)
    app = make_app(demo_host)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        status = static_text(screen, "#status")
        assert status.startswith("Could not compute the plan: ~/.copilot/settings.json:4:19")
        assert "\n" not in status.strip()
        note = flat(static_text(screen, "#plan-note"))
        assert "~/.copilot/settings.json:4:19: expected a string key" in note
        assert "Nothing has been written" in note
        # the broken file stops its own target only; the others are planned and shown
        entries = screen.query_one(TargetList).entries
        assert entries["copilot"].badge == "plan failed"
        others = [e.badge for t, e in entries.items() if e.available and t != "copilot"]
        assert others and all(b != "plan failed" for b in others)
        await choose_tab(pilot, "tab-hooks")
        assert "Could not compute the plan" in plain(screen.query_one("#hooks-body").content)
        assert screen.check_action("apply", ()) is None
        # fixed on disk: r computes it again
        settings.write_text(settings.read_text().replace(",,", ","))
        await pilot.press("r")
        await settle(pilot)
        assert static_text(screen, "#status").startswith("Plan:")
        assert screen.query_one(TargetList).entries["copilot"].badge != "plan failed"


async def test_unknown_profile_error_is_in_the_plan_pane(demo_host, make_app):
    app = make_app(demo_host, profile="nonsense")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        if isinstance(app.screen, OnboardingScreen):
            await pilot.press("escape")
            await settle(pilot)
        note = flat(static_text(main_screen(app), "#plan-note"))
        assert "unknown profile 'nonsense'" in note


async def test_walkthrough_review_says_why_a_plan_failed_and_leaves_that_cli_out(demo_host,
                                                                                 make_app):
    """The walkthrough's Review with one CLI's broken settings: the reason (file, line, column)
    is on the step, Apply is not offered, and x unticks that CLI and plans the others, which can
    then be applied."""
    from agentdeck.app.screens.onboarding import OnboardingScreen
    from textual.widgets import Button, SelectionList

    from app_helpers import go_to, open_walkthrough

    settings = target_home(demo_host, "copilot") / "settings.json"
    settings.write_text(settings.read_text().replace('"theme": "dark",', '"theme": "dark",,'))
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        assert isinstance(screen, OnboardingScreen)
        await go_to(pilot, screen, "review")
        await settle(pilot)
        head = flat(static_text(screen, "#review-head"))
        assert "copilot: its plan failed: ~/.copilot/settings.json:4:19" in head, head
        assert "Press x to leave copilot out" in head
        assert screen.query_one("#nav-next", Button).disabled
        assert screen.check_action("leave_out", ()) is True
        await pilot.press("x")
        await settle(pilot)
        assert "copilot" not in screen.query_one("#target-set", SelectionList).selected
        assert screen.plan is not None and not screen.plan.errors
        assert "copilot" not in screen.plan.targets and screen.plan.targets
        assert "plan failed" not in flat(static_text(screen, "#review-head"))
        assert not screen.query_one("#nav-next", Button).disabled
        assert screen.check_action("leave_out", ()) is False
        # after Apply, "the plan is now empty" is not all: the CLI left out is named, with why
        await pilot.press("n")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen and screen.applied
        body = flat(static_text(screen, "#apply-body"))
        assert "The plan is now empty." in body
        assert ("Left out: copilot, whose plan failed: ~/.copilot/settings.json:4:19" in body
                and "`agentdeck plan --target copilot`" in body), body
        # back on the main screen, the CLI left out is still planned, and still fails: its
        # status names it instead of "Everything is in sync"
        screen._finish()
        await settle(pilot)
        main = main_screen(app)
        assert app.screen is main
        await settle(pilot)
        status = flat(static_text(main, "#status"))
        assert "in sync" not in status and "copilot" in status, status
        assert "settings.json:4:19" in status, status
