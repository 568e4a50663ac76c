"""The number and bracket keys switch the main screen's tabs (the focus inside a pane follows),
and quitting asks first when decisions would be lost, by every key that quits."""
from __future__ import annotations

from textual.widgets import TabbedContent

from agentdeck.app.screens.onboarding import OnboardingScreen

from app_helpers import find_item, select_tree_item, settle, static_text


async def test_number_and_bracket_keys_switch_tabs(demo_host, make_app):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        if isinstance(app.screen, OnboardingScreen):
            await pilot.press("escape")
            await settle(pilot)
        screen = app.screen
        tabs = screen.query_one(TabbedContent)
        await pilot.press("2")
        await settle(pilot)
        assert tabs.active == "tab-hooks"
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert tabs.active == "tab-keys"
        screen.query_one("#keys-table").focus()        # the focus inside a pane follows
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert tabs.active == "tab-mcp"
        await pilot.press("left_square_bracket", "left_square_bracket", "left_square_bracket")
        await settle(pilot)
        assert tabs.active == "tab-plan"
        await pilot.press("6")
        await settle(pilot)
        assert tabs.active == "tab-notices"
        descriptions = {b.binding.key: b.binding.description
                        for b in screen.active_bindings.values()}
        assert descriptions["1"] == "Plan tab" and descriptions["5"] == "Browser tab"


async def test_q_asks_when_decisions_would_be_lost(demo_host, make_app):
    demo_host.state_dir.mkdir(parents=True)
    app = make_app(demo_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        item = find_item(screen.plan, "copilot", path_end="agents/reviewer.md")
        await select_tree_item(pilot, item.id)
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
        assert app.screen.id == "confirm-quit"
        assert "1 choice" in static_text(app.screen, "#quit-text")
        await pilot.press("escape")                  # stay
        await settle(pilot)
        assert app.screen is screen and app.return_code is None
        await pilot.press("ctrl+q")                 # the other ways to quit ask too
        await settle(pilot)
        assert app.screen.id == "confirm-quit"
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("q")
        await settle(pilot)
        await pilot.press("y")
        await pilot.pause()
    assert app.return_code == 0
