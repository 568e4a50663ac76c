"""An MCP pane switch does what it says in one step: it plans the member of the operator's
disabled list (nothing to take), the badge counts what the summary counts, apply writes the
switch to the operator's layer and leaves the plan empty; switching back plans nothing; after
an onboarding with mcpDefaultDisabled off the switch still plans its member."""
from __future__ import annotations

from textual.widgets import Switch

from agentdeck.app.session import target_status
from agentdeck.app.widgets.mcp_pane import McpRow
from agentdeck.app.widgets.target_list import TargetList
from agentdeck.core import engine

from app_helpers import choose_tab, disabled_member, flat, plain, settle, static_text
from tests.target_homes import target_home


def _mcp_row(screen, name: str) -> McpRow:
    for row in screen.query(McpRow):
        if row.server.name == name:
            return row
    raise AssertionError(name)


async def test_mcp_switch_on_the_demo_home_writes_in_one_step(demo_host, make_app):
    demo_host.state_dir.mkdir(parents=True)
    settings = target_home(demo_host, "copilot") / "settings.json"
    app = make_app(demo_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_tab(pilot, "tab-mcp")
        memory = _mcp_row(screen, "memory")
        text = plain(memory.query_one(".mcp-facts").content)
        # memory is not in mcp-config.json yet: it is not "now on"
        assert "now on" not in text and "new: apply adds it, on" in text
        await pilot.click(f"#{memory.query_one(Switch).id}")
        await settle(pilot)
        text = plain(_mcp_row(screen, "memory").query_one(".mcp-facts").content)
        assert "now on" not in text and "new: apply adds it, off" in text
        # memory is its own member of the operator's list: planned, nothing to take
        item = disabled_member(screen.plan, "memory")
        assert item.cls == "create" and item.desired == "memory"
        assert screen.plan.decision(item) == "apply"
        assert screen.plan.action(item) == "write"
        assert disabled_member(screen.plan, "my-notes") is None    # the operator's name stays theirs
        messages = [n.message for n in app._notifications]
        assert any("memory off: the plan follows" in m for m in messages)
        # the badge counts what the summary counts
        badge = screen.query_one(TargetList).entries["copilot"].badge
        st = target_status(screen.plan, "copilot")
        assert badge == st.badge()
        summary = screen.plan.summary()
        assert ("hand-edit" in badge) == ("hand-edit" in summary)
        if st.hand_edits:
            assert f"{st.hand_edits} hand-edit" in summary
        # apply: nothing is left over, and the main screen does not plan to undo it
        await pilot.press("a")
        await settle(pilot)
        # the switch is written to the operator's layer, and the app says where
        assert ("writes your choices (MCP server memory off" in
                flat(static_text(app.screen, "#confirm-summary")))
        assert "profiles/default.local/choices.json" in flat(static_text(app.screen,
                                                                         "#confirm-summary"))
        await pilot.press("y")
        await settle(pilot)
        result = flat(static_text(app.screen, "#apply-result"))
        assert "The plan is now empty." in result, result
        assert "still has changes" not in result
        assert "are written to ~/.config/agentdeck/profiles/default.local/choices.json" in result
        await pilot.press("escape")
        await settle(pilot)
        item = disabled_member(screen.plan, "memory")
        assert screen.plan.action(item) == "none"
        assert not screen.plan.has_changes, screen.plan.summary()
        assert not _mcp_row(screen, "memory").server.enabled
    from agentdeck.core.formats.jsonc import JsonDoc

    assert JsonDoc.parse(settings.read_text()).data["disabledMcpServers"] == ["my-notes", "memory"]


async def test_switching_back_plans_nothing_and_takes_nothing(demo_host, make_app):
    demo_host.state_dir.mkdir(parents=True)
    app = make_app(demo_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_tab(pilot, "tab-mcp")
        sw = f"#{_mcp_row(screen, 'memory').query_one(Switch).id}"
        assert disabled_member(screen.plan, "memory") is None
        await pilot.click(sw)
        await settle(pilot)
        item = disabled_member(screen.plan, "memory")     # a member, planned, not taken
        assert screen.plan.decision(item) == "apply" and screen.plan.action(item) == "write"
        await pilot.click(sw)
        await settle(pilot)
        assert disabled_member(screen.plan, "memory") is None             # as before
        assert item.id not in app.session.auto_taken and item.id not in app.session.decisions


async def test_switch_after_an_onboarding_with_mcp_default_disabled_off(demo_host, make_app):
    """Onboarding applied with mcpDefaultDisabled off, then memory switched
    off on the main screen. The settings key did not exist in the plan before the switch."""
    ov = {"directives": {"mcpDefaultDisabled": False}}
    # onboarding's apply writes its options to the operator's layer
    engine.apply_plan(demo_host, engine.build_plan(demo_host, names=["copilot"], choices=ov))
    app = make_app(demo_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert not screen.plan.has_changes
        await choose_tab(pilot, "tab-mcp")
        assert "mcpDefaultDisabled no" in plain(screen.query_one("#mcp-head").content)
        await pilot.click(f"#{_mcp_row(screen, 'memory').query_one(Switch).id}")
        await settle(pilot)
        text = flat(plain(_mcp_row(screen, "memory").query_one(".mcp-facts").content))
        assert "now on, apply turns it off" in text          # it is on disk and on now
        assert "you switched it off here" in text and "mcpDefaultDisabled" not in text
        item = disabled_member(screen.plan, "memory")
        assert screen.plan.decision(item) == "apply" and screen.plan.action(item) == "write"
        await pilot.press("a", "y")
        await settle(pilot)
        assert "The plan is now empty." in flat(static_text(app.screen, "#apply-result"))
        await pilot.press("escape")
        await settle(pilot)
        assert not screen.plan.has_changes
