"""Keyboard and reading in the app: target keys and palette entries, `?`
listing every key, the plan filter, a real diff for a structured hand-edit, the Keys tab's
"last written" at 80x24, one count everywhere, the result screen's title after apply."""
from __future__ import annotations

import inspect
import json

import pytest

from textual.widgets import DataTable, Input

from agentdeck.app.screens.keys import KeysScreen, key_sections
from agentdeck.app.session import target_status
from agentdeck.app.widgets.diff_view import DiffView
from agentdeck.app.widgets.keys_pane import KeysPane
from agentdeck.app.widgets.plan_pane import PlanPane
from agentdeck.app.widgets.plan_tree import PlanTree
from agentdeck.core import engine

from app_helpers import (choose_tab, disabled_member, find_item, main_screen, plain, select_key_row,
                         select_tree_item, settle, static_text)
from tests.target_homes import target_home


def tree_leaves(tree: PlanTree) -> list:
    out = []

    def walk(node):
        for c in node.children:
            if c.data is not None:
                out.append(c.data)
            walk(c)
    walk(tree.root)
    return out


async def test_keys_and_palette_switch_targets_and_tabs(demo_host, make_app):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        from agentdeck.core.targets import registry
        order = [t for t in registry.NAMES if t in screen.plan.targets]
        listed = list(registry.NAMES)                  # the list shows every registered target
        assert screen.target == order[0]
        await pilot.press("greater_than_sign")
        await settle(pilot)
        assert screen.target == order[1]
        assert screen.query_one("TargetList").current == order[1]
        await pilot.press("less_than_sign", "less_than_sign")
        await settle(pilot)
        assert screen.target == listed[-1]            # wraps around
        titles = {c.title: c for c in app.get_system_commands(screen)}
        for t in order:
            from agentdeck.app.session import target_title
            assert f"Target: {target_title(t)}" in titles
        for tab in ("Plan", "Hooks", "Keys", "MCP", "Browser", "Notices"):
            assert f"Tab: {tab}" in titles
        assert "Filter the plan" in titles and "All keys" in titles
        for name in ("Target: GitHub Copilot CLI", "Tab: MCP"):
            done = titles[name].callback()
            if inspect.isawaitable(done):
                await done
        await settle(pilot)
        assert screen.target == "copilot"
        assert screen.query_one("TabbedContent").active == "tab-mcp"


async def test_question_mark_lists_every_key_including_space_on_a_switch(demo_host, make_app):
    app = make_app(demo_host)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        main = app.screen
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, KeysScreen)
        text = plain(app.screen.query_one("#keys-list").content, width=76)
        sections = dict(key_sections(app, main))
        switch = dict((w, k) for k, w in sections["On a switch"])
        assert "space" in switch["Toggle"] and ("enter" in switch["Toggle"]
                                                or "⏎" in switch["Toggle"])
        for words in ("Next target", "Previous target", "Filter the plan", "Keep mine", "Apply",
                      "Plan tab", "Show unchanged", "Refresh", "Onboard", "All keys",
                      "Command palette"):
            assert words in text, words
        assert ">" in text and "<" in text and "/" in text and "space" in text
        await pilot.press("question_mark")
        await settle(pilot)
        assert app.screen is main


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
async def test_question_mark_can_show_every_line(demo_host, make_app, size):
    """The list scrolls inside the box: scrolled to its end, its last line ("tab, shift+tab")
    is inside the box (the scroll used to overflow the box by the title's two lines)."""
    app = make_app(demo_host)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        box, scroll = app.screen.query_one("#keys-box"), app.screen.query_one("#keys-scroll")
        assert box.content_region.contains_region(scroll.region), (box.content_region,
                                                                    scroll.region)
        await pilot.press("end")
        await settle(pilot)
        assert scroll.scroll_y == scroll.max_scroll_y
        assert scroll.scroll_y + scroll.scrollable_content_region.height \
            >= scroll.virtual_size.height
        text = plain(app.screen.query_one("#keys-list").content, width=scroll.size.width - 2)
        assert text.rstrip().splitlines()[-1].strip().startswith("tab, shift+tab")


async def test_the_plan_tree_can_be_filtered(demo_host, make_app):
    app = make_app(demo_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        tree = screen.query_one(PlanTree)
        every = tree_leaves(tree)
        assert any("hooks" in i.path for i in every) and any("hooks" not in i.path
                                                              for i in every)
        await pilot.press("slash")
        await settle(pilot)
        box = screen.query_one("#plan-filter", Input)
        assert box.display and box.has_focus
        await pilot.press(*"hooks")
        await settle(pilot)
        shown = tree_leaves(tree)
        assert shown and all("hooks" in (i.path + (i.label or "")).lower() for i in shown)
        assert len(shown) < len(every)
        await pilot.press(*"zzz-nothing")
        await settle(pilot)
        assert "Nothing in the plan matches" in plain(screen.query_one("#plan-note").content)
        await pilot.press("escape")
        await settle(pilot)
        assert not box.display and box.value == ""
        assert len(tree_leaves(tree)) == len(every)


def _hand_edit(host):
    engine.apply_plan(host, engine.build_plan(host, names=["copilot"]))
    path = target_home(host, "copilot") / "mcp-config.json"
    obj = json.loads(path.read_text())
    obj["mcpServers"]["memory"]["args"] = ["my-own-memory-server"]
    path.write_text(json.dumps(obj, indent=2) + "\n")


async def test_a_hand_edited_key_shows_a_real_diff_of_the_three_values(empty_host, make_app):
    _hand_edit(empty_host)
    app = make_app(empty_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        item = find_item(screen.plan, "copilot", key=("mcpServers", "memory"))
        assert item.cls == "hand-edited"
        await pilot.press("u")                        # a kept hand-edit is listed with them
        await settle(pilot)
        await select_tree_item(pilot, item.id)
        text = plain(screen.query_one(DiffView).query_one("#diff-body").content)
        assert "Your change since agentdeck wrote it" in text
        assert "--- last written" in text and "+++ on disk" in text
        assert '+    "my-own-memory-server"' in text
        assert "What take profile's would write" in text
        assert "--- on disk" in text and "+++ profile" in text
        assert '-    "my-own-memory-server"' in text
        # one value per line, not three JSON blobs cut at the column width
        assert "…" not in text
        # taking the profile's: the reason no longer reads as if it were kept
        await pilot.press("t")
        await settle(pilot)
        text = plain(screen.query_one(DiffView).query_one("#diff-body").content)
        assert "decision: take profile's" in text
        assert "why it was kept by default:" in text
        label = next(str(n.label) for n in screen.query_one(PlanTree)._tree_nodes.values()
                     if n.data is not None and n.data.id == item.id)
        assert "taking profile's" in label and "kept" not in label


async def test_keys_tab_keeps_last_written_at_80x24(demo_host, make_app):
    app = make_app(demo_host, targets=["copilot"])
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_tab(pilot, "tab-keys")
        pane = screen.query_one(KeysPane)
        labels = [str(c.label) for c in pane.query_one(DataTable).columns.values()]
        assert "last" in labels, labels
        # 16.1: the demo's own disabledMcpServers list is no longer an item (agentdeck adds
        # members only): the detail bar is checked on the pinned disableAllHooks key instead
        item = find_item(screen.plan, "copilot", key=("disableAllHooks",))
        await select_key_row(pilot, item.id)
        detail = plain(pane.query_one("#keys-detail").content, width=60)
        lines = {ln.split("  ")[0].strip(): ln for ln in detail.splitlines()}
        assert "last written" in detail and "profile wants" in detail and "on disk" in detail
        assert "(absent)" in lines.get("on disk", "") and "false" in detail
        assert pane.query_one("#keys-bar").region.bottom <= screen.size.height - 2
        # the reason reads across the pane, not cut after a few words beside the buttons
        shown = " ".join(plain(pane.query_one("#keys-detail").content,
                               width=pane.query_one("#keys-detail").size.width).split())
        reason = " ".join(screen.plan.reason_of(item).split())
        assert reason[:100] in shown, (reason, shown)
        assert pane.query_one("#keys-detail").region.bottom <= screen.size.height - 2


async def test_one_count_in_onboarding_and_on_the_main_screen(demo_host, make_app):
    from app_helpers import go_to, open_walkthrough

    app = make_app(demo_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "review")
        await settle(pilot)
        plan = screen.plan
        tree = screen.query_one(PlanPane).query_one(PlanTree)
        groups = {str(n.label).split("  (")[0]: str(n.label) for n in tree.root.children}
        from agentdeck.app.session import target_title
        for t in plan.targets:
            badge = target_status(plan, t).badge()
            assert f"({badge})" in groups[target_title(t)], groups
            assert "to review" not in groups[target_title(t)]
        await pilot.press("escape")
        await settle(pilot)
        main = main_screen(app)
        for t in main.plan.targets:
            assert main.query_one("TargetList").entries[t].badge == \
                target_status(main.plan, t).badge()


async def test_badges_fit_the_target_list_at_80x24(demo_host, make_app):
    """At 80 columns a badge with shared changes puts "+ N shared" on a line of its own instead
    of wrapping mid-phrase ("16 changes + 2" / "shared"); each line fits the list."""
    app = make_app(demo_host)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        tl = main_screen(app).query_one("TargetList")
        width = tl.scrollable_content_region.width - 2          # the options' padding
        split = 0
        for name, entry in tl.entries.items():
            lines = tl.get_option(name).prompt.plain.splitlines()
            assert all(len(line) <= width for line in lines), (name, lines, width)
            split += sum(1 for line in lines if line.strip().startswith("+ ")
                         and line.strip().endswith(" shared"))
        assert split, "the demo home has no badge with shared changes: this checks nothing"


async def test_the_result_screen_drops_applying_from_its_title(empty_host, make_app):
    app = make_app(empty_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("a", "y")
        await settle(pilot)
        assert app.screen.id == "apply"
        title = static_text(app.screen, "#apply-title")
        assert "Applying" not in title and "Plan applied" in title
        assert "Applied:" in static_text(app.screen, "#apply-result")


async def test_an_mcp_switch_is_reached_seen_and_toggled_from_the_keyboard(demo_host, make_app):
    """On the MCP tab, Tab reaches a server's switch, the row with focus
    is marked (a bar at its left edge, the switch's track in the accent colour: a tint alone
    did not show in a 256-colour terminal), and space / enter toggle it; the plan follows.
    Keys only: no click, no focus() call."""
    from textual.widgets import Switch

    from agentdeck.app.widgets.mcp_pane import McpRow

    app = make_app(demo_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        for _ in range(3):                                   # Plan > Hooks > Keys > MCP
            await pilot.press("right_square_bracket")
            await settle(pilot)
        assert screen.query_one("TabbedContent").active == "tab-mcp"
        rows = {r.server.name: r for r in screen.query(McpRow)}
        memory = rows["memory"]
        sw = memory.query_one(Switch)
        assert sw.value is True
        # a row whose switch has no focus (the first switch gets it as the tab opens)
        other = next(r for n, r in rows.items() if app.focused is not r.query_one(Switch))
        unfocused_bar = other.styles.border_left
        unfocused_track = other.query_one(Switch).get_component_rich_style(
            "switch--slider").bgcolor
        for _ in range(8):                                   # Tab until the switch has focus
            if app.focused is sw:
                break
            await pilot.press("tab")
            await settle(pilot)
        assert app.focused is sw, f"Tab never reached the memory switch ({app.focused!r})"
        # the focus shows: the row's left bar and the switch's track change
        assert memory.styles.border_left != unfocused_bar
        assert memory.styles.border_left[0] not in ("", "none", "blank", "hidden")
        assert sw.get_component_rich_style("switch--slider").bgcolor != unfocused_track
        assert all(r.styles.border_left == unfocused_bar for n, r in rows.items() if n != "memory")
        await pilot.press("space")
        await settle(pilot)
        assert sw.value is False and app.focused is sw       # toggled, focus stays on it
        assert app.session.pending() == {"mcp_enabled": {"copilot": {"memory": False}}}
        item = disabled_member(screen.plan, "memory")
        assert item is not None and screen.plan.action(item) == "write"
        layer = [i for i in screen.plan.items if tuple(i.key) == ("mcp_enabled", "copilot",
                                                                   "memory")]
        assert layer and layer[0].desired is False           # the choice is a plan item
        await pilot.press("enter")
        await settle(pilot)
        assert sw.value is True
        assert app.session.pending() == {}
        assert disabled_member(screen.plan, "memory") is None


async def test_on_the_mcp_tab_space_toggles_the_first_switch_at_once(demo_host, make_app):
    """Reaching the MCP tab by its keys gives its first switch the focus: space toggles it
    without a Tab first."""
    from textual.widgets import Switch

    from agentdeck.app.widgets.mcp_pane import McpRow

    app = make_app(demo_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        for _ in range(3):                                   # Plan > Hooks > Keys > MCP
            await pilot.press("right_square_bracket")
            await settle(pilot)
        first = list(screen.query(McpRow))[0]
        sw = first.query_one(Switch)
        assert app.focused is sw, app.focused
        before = sw.value
        await pilot.press("space")
        await settle(pilot)
        assert sw.value is (not before)
