"""The main screen: start-up before the plan, header and badges, the plan tree and its diffs,
the panes, the operator's decisions, keys, themes, mouse, 80x24."""
from __future__ import annotations

import json
import threading

import pytest
from textual.widgets import DataTable, Switch, TabbedContent

from agentdeck.app.screens.main import MainScreen
from agentdeck.app.session import Session, target_status
from agentdeck.app.widgets.diff_view import DiffView
from agentdeck.app.widgets.keys_pane import KeysPane
from agentdeck.app.widgets.mcp_pane import McpRow
from agentdeck.app.widgets.plan_pane import PlanPane
from agentdeck.app.widgets.target_list import TargetList
from agentdeck.core import engine

from app_helpers import (disabled_member, choose_tab, choose_target, find_item, flat, main_screen, plain, select_key_row,
                      select_tree_item, settle, static_text)
from tests.target_homes import target_home


async def test_first_screen_is_interactive_before_the_plan(demo_host, make_app, monkeypatch):
    gate = threading.Event()
    real = Session.build_plan

    def slow(self):
        assert gate.wait(10), "test gate never opened"
        return real(self)

    monkeypatch.setattr(Session, "build_plan", slow)
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MainScreen)
        assert "Computing the plan" in static_text(screen, "#status")
        assert screen.check_action("apply", ()) is None           # shown disabled
        assert screen.check_action("refresh_plan", ()) is None
        # the screen answers keys while the plan is computed
        dark = app.current_theme.dark
        await pilot.press("ctrl+t")
        assert app.current_theme.dark is not dark
        screen.query_one(TabbedContent).active = "tab-hooks"    # no settle: the plan waits
        await pilot.pause()
        assert screen.query_one(TabbedContent).active == "tab-hooks"
        assert "Computing the plan" in plain(screen.query_one("#hooks-body").content)
        gate.set()
        await settle(pilot)
        assert screen.plan is not None
        assert static_text(screen, "#status").startswith("Plan:")
        assert screen.check_action("apply", ()) is True


async def test_header_shows_home_wsl_and_versions(demo_host, make_app):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        header = plain(app.screen.query_one("#host-header").render())
        assert "home ~" in header
        assert "WSL no" in header
        assert "copilot 1.0.102" in header
        # one entry per CLI, or, when they do not fit the line, the missing ones grouped
        missing = header.split("not installed: ")[1].split("\n")[0] if "not installed: " in header else ""
        assert "codex not installed" in header or "codex" in missing.split(", ")
        assert str(demo_host.home) not in header


async def test_version_detection_runs_in_a_worker_and_survives_errors(demo_host, make_app):
    def broken(host, target):
        raise RuntimeError("boom")

    app = make_app(demo_host, version_probe=broken)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert set(app.versions.values()) == {"installed (version unknown)"}


async def test_badges_follow_the_plan(demo_host, make_app):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        tl = screen.query_one(TargetList)
        for t in screen.plan.targets:
            expected = target_status(screen.plan, t).badge()
            assert tl.entries[t].badge == expected
        copilot = tl.entries["copilot"]
        assert "change" in copilot.badge and "1 hand-edit" in copilot.badge
        assert copilot.installed is True
        if "codex" in tl.entries and tl.entries["codex"].available:
            assert tl.entries["codex"].installed is False
            assert "not installed" in plain(tl.entries["codex"].prompt())


async def test_plan_tree_marks_and_file_diff(demo_host, make_app):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        plan = screen.plan
        hooks = find_item(plan, "copilot", path_end="hooks/agentdeck.json")
        await select_tree_item(pilot, hooks.id)
        diff = plain(screen.query_one(DiffView).query_one("#diff-body").content)
        assert "+ ~/.copilot/hooks/agentdeck.json" in diff
        assert "--- on disk" in diff and "+++ profile" in diff
        assert '+  "version": 1,' in diff
        assert str(demo_host.home) not in diff
        # the persona block: only the managed block is diffed
        persona = find_item(plan, "copilot", path_end="copilot-instructions.md")
        await select_tree_item(pilot, persona.id)
        diff = plain(screen.query_one(DiffView).query_one("#diff-body").content)
        assert "Only the managed block changes" in diff
        tree_text = "\n".join(str(n.label) for n in screen.query_one("PlanTree").root.children)
        assert "! ~/.agents/skills/changelog" in tree_text
        assert "+ ~/.copilot/hooks/agentdeck.json" in tree_text


async def test_key_item_shows_the_three_states(demo_host, make_app):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        item = find_item(screen.plan, "copilot", key=("disableAllHooks",))
        await select_tree_item(pilot, item.id)
        text = plain(screen.query_one(DiffView).query_one("#diff-body").content)
        assert "profile wants" in text and "false" in text
        assert "last written" in text and "on disk" in text and "(absent)" in text


async def test_unchanged_items_toggle(empty_host, make_app):
    engine.apply_plan(empty_host, engine.build_plan(empty_host))
    app = make_app(empty_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        note = static_text(screen, "#plan-note")
        assert "In sync" in note and "Press u" in note
        await pilot.press("u")
        await settle(pilot)
        tree = screen.query_one("PlanTree")
        assert len(tree.root.children) > 0
        assert screen.query_one(PlanPane).show_all


async def test_apply_is_disabled_when_the_plan_is_empty(empty_host, make_app):
    engine.apply_plan(empty_host, engine.build_plan(empty_host, trust_hooks=True))  # hooks that run: in sync
    app = make_app(empty_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert static_text(screen, "#status").startswith("No changes. Everything is in sync.")
        assert screen.check_action("apply", ()) is None
        keys = {k.key: k for k in screen.query("FooterKey")}
        assert "a" in keys and keys["a"].has_class("-disabled")   # shown, but disabled
        await pilot.press("a")
        await settle(pilot)
        assert app.screen is screen                        # nothing opened
        titles = [c.title for c in app.get_system_commands(screen)]
        assert "Apply the plan" not in titles and "Doctor" in titles


async def test_hooks_pane(demo_host, make_app):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await choose_tab(pilot, "tab-hooks")
        text = plain(app.screen.query_one("#hooks-body").content, width=160)
        assert "handler  agentdeck-hook  (~/.local/bin/agentdeck-hook)" in text
        assert "wrapper  ~/.copilot/agentdeck-hook.sh" in text
        assert "preToolUse" in text and "registers it" in text
        assert "disableAllHooks" in text
        assert "Other hook sources" in text


async def test_hooks_pane_highlights_a_change_that_reenables_a_disabled_hook(
        demo_host, make_app):
    from agentdeck.core.targets.copilot import facts

    engine.apply_plan(demo_host, engine.build_plan(demo_host, names=["copilot"]))
    plan = engine.build_plan(demo_host, names=["copilot"])
    ev = plan.output["copilot"].hooks.events[0]
    # the operator changed one registered action (another timeout) and disabled that hook
    hooks_file = target_home(demo_host, "copilot") / "hooks" / "agentdeck.json"
    obj = json.loads(hooks_file.read_text())
    action = obj["hooks"][ev.event][0]
    action["timeoutSec"] = 5
    hooks_file.write_text(json.dumps(obj, indent=2) + "\n")
    key = facts.copilot_disable_key(ev.event, action)
    settings = target_home(demo_host, "copilot") / "settings.json"
    data = settings.read_text().replace('"theme": "dark",',
                                        f'"theme": "dark",\n  "disabledHooks": ["{key}"],')
    settings.write_text(data)
    # taking the profile's hooks file puts the action back: its key changes, the hook returns
    app = make_app(demo_host, targets=["copilot"])
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await choose_tab(pilot, "tab-hooks")
        text = plain(app.screen.query_one("#hooks-body").content, width=180)
        assert "re-enables your disabled hook" in text


async def test_keys_pane_lists_every_key_with_three_states(demo_host, make_app):
    app = make_app(demo_host)
    async with app.run_test(size=(150, 40)) as pilot:
        await settle(pilot)
        await choose_tab(pilot, "tab-keys")
        pane = app.screen.query_one(KeysPane)
        keys = {tuple(i.key) for i in pane.items}
        assert ("disableAllHooks",) in keys and ("mcpServers", "memory") in keys
        table = pane.query_one(DataTable)
        assert table.row_count == len(pane.items)
        labels = [str(c.label) for c in table.columns.values()]
        assert labels[1:] == ["key", "choice", "profile wants", "last written", "on disk", "class"]


@pytest.fixture
def hand_edited(empty_host):
    """An applied home where the operator then edited a key agentdeck wrote."""
    engine.apply_plan(empty_host, engine.build_plan(empty_host, names=["copilot"]))
    path = target_home(empty_host, "copilot") / "mcp-config.json"
    obj = json.loads(path.read_text())
    obj["mcpServers"]["memory"]["args"] = ["my-own-memory-server"]
    path.write_text(json.dumps(obj, indent=2) + "\n")
    return empty_host


async def test_take_the_profiles_value_for_a_hand_edit_and_apply_writes_it(hand_edited, make_app):
    host = hand_edited
    path = target_home(host, "copilot") / "mcp-config.json"
    app = make_app(host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        item = find_item(screen.plan, "copilot", key=("mcpServers", "memory"))
        assert item.cls == "hand-edited"
        assert screen.plan.decision(item) == "keep"
        assert screen.check_action("apply", ()) is None    # keeping yours changes nothing
        await choose_tab(pilot, "tab-keys")
        await select_key_row(pilot, item.id)
        assert screen.check_action("decide", ("take",)) is True
        await pilot.press("t")
        await settle(pilot)
        assert screen.plan.decision(item) == "take"
        assert "1 to change" in static_text(screen, "#status")
        pane = screen.query_one(KeysPane)
        row = pane.query_one(DataTable).get_row(item.id)
        assert "take profile's" in plain(row[2])
        await pilot.press("a")
        await settle(pilot)
        confirm = app.screen
        text = plain(confirm.query_one("#confirm-decisions").query_one("Static").content)
        assert "take profile's" in text
        await pilot.press("y")
        await settle(pilot)
        result = static_text(app.screen, "#apply-result")
        assert "Applied: 2 files written" in result          # the file and the manifest
        assert "Backups of what was replaced: ~/.local/state/agentdeck/backups/" in result
        await pilot.press("escape")
        await settle(pilot)
    written = json.loads(path.read_text())
    assert written["mcpServers"]["memory"]["args"] == item.desired["args"]
    assert not engine.build_plan(host, names=["copilot"]).has_changes


async def test_keep_mine_leaves_the_hand_edit(hand_edited, make_app):
    host = hand_edited
    path = target_home(host, "copilot") / "mcp-config.json"
    before = path.read_bytes()
    app = make_app(host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        item = find_item(screen.plan, "copilot", key=("mcpServers", "memory"))
        await choose_tab(pilot, "tab-keys")
        await select_key_row(pilot, item.id)
        await pilot.press("t")
        await settle(pilot)
        await pilot.click("#keys-keep")          # the mouse works too
        await settle(pilot)
        assert screen.plan.decision(item) == "keep"
        assert screen.check_action("apply", ()) is None
    assert path.read_bytes() == before


def changed_profile(host) -> None:
    """An operator profile named default whose persona differs: the plan gets an update."""
    import shutil

    from agentdeck.core.profiles import bundled_dir

    dest = host.config_dir / "profiles" / "default"
    shutil.copytree(bundled_dir() / "default", dest)
    with open(dest / "AGENTS.md", "a") as f:
        f.write("\nOne more house rule.\n")


async def test_a_conflict_blocks_apply_until_decided(hand_edited, make_app):
    host = hand_edited
    changed_profile(host)
    settings = target_home(host, "copilot") / "settings.json"
    obj = json.loads(settings.read_text())
    obj["disableAllHooks"] = True
    settings.write_text(json.dumps(obj, indent=2) + "\n")
    app = make_app(host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        item = find_item(screen.plan, "copilot", key=("disableAllHooks",))
        assert item.cls == "conflict"
        status = static_text(screen, "#status")
        assert "1 conflict to decide.  ! item: k = yours, t = profile's" in status
        assert screen.query_one("#status").size.height == 1       # one line at 120 columns
        await pilot.press("a")
        await settle(pilot)
        confirm = app.screen
        assert confirm.query_one("#confirm-yes").disabled
        assert confirm.check_action("confirm", ()) is None
        await pilot.press("y")
        await settle(pilot)
        assert app.screen is confirm                # refused
        await pilot.press("escape")
        await settle(pilot)
        await select_tree_item(pilot, item.id)
        await pilot.press("t")
        await settle(pilot)
        assert screen.plan.decision(item) == "take"
        await pilot.press("a")
        await settle(pilot)
        assert not app.screen.query_one("#confirm-yes").disabled
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
    assert json.loads(settings.read_text())["disableAllHooks"] is False


async def test_skip_leaves_a_change_out(empty_host, make_app):
    app = make_app(empty_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        before = screen.plan.counts()["add"]
        item = find_item(screen.plan, "copilot", path_end="agents/reviewer.md")
        await select_tree_item(pilot, item.id)
        await pilot.press("s")
        await settle(pilot)
        assert screen.plan.decision(item) == "skip"
        assert screen.plan.counts()["add"] == before - 1
        # decisions survive a recomputed plan
        await pilot.press("r")
        await settle(pilot)
        assert screen.plan.decision(screen.plan.get(item.id)) == "skip"
        await pilot.press("s")
        await settle(pilot)
        assert screen.plan.decision(screen.plan.get(item.id)) == "apply"


async def test_applying_with_a_skipped_change_says_it_is_left(empty_host, make_app):
    """The apply's last words in the app name what the operator skipped, as `agentdeck apply`
    does: the plan is not empty while a skipped change is pending."""
    app = make_app(empty_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        item = find_item(screen.plan, "copilot", path_end="agents/reviewer.md")
        await select_tree_item(pilot, item.id)
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        result = flat(static_text(app.screen, "#apply-result"))
        assert "The plan is now empty except for the 1 item you skipped." in result, result


def _mcp_row(screen, name: str) -> McpRow:
    for row in screen.query(McpRow):
        if row.server.name == name:
            return row
    raise AssertionError(name)


async def test_mcp_switch_edits_the_plan_live(empty_host, make_app):
    app = make_app(empty_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_tab(pilot, "tab-mcp")
        row = _mcp_row(screen, "memory")
        assert row.server.enabled and row.server.reason == "always-enabled"
        # 16.1: each name agentdeck disables is its own member of the list
        assert disabled_member(screen.plan, "memory") is None
        assert disabled_member(screen.plan, "github") is not None
        # switch memory off: the plan now disables it
        await pilot.click(f"#{row.query_one(Switch).id}")
        await settle(pilot)
        item = disabled_member(screen.plan, "memory")
        assert item is not None and item.desired == "memory"
        assert screen.plan.action(item) == "write"
        assert not _mcp_row(screen, "memory").server.enabled
        # switch github (default-disabled) on: the plan no longer disables it
        github = _mcp_row(screen, "github")
        assert github.server.reason == "default-disabled"
        await pilot.click(f"#{github.query_one(Switch).id}")
        await settle(pilot)
        assert _mcp_row(screen, "github").server.enabled
        assert disabled_member(screen.plan, "github") is None
        assert screen.plan.output["copilot"].mcp.off_list_planned == ("memory",)
        # and the apply writes exactly that
        await pilot.press("a")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
    settings = json.loads((target_home(empty_host, "copilot") / "settings.json").read_text())
    assert settings["disabledMcpServers"] == ["memory"]


async def test_mcp_switch_on_the_demo_home_keeps_the_operators_list(demo_host, make_app):
    """The demo's settings.json already has the operator's disabledMcpServers: adding a name
    to it is planned as one member of the list, the operator's names stay theirs."""
    app = make_app(demo_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_tab(pilot, "tab-mcp")
        await pilot.click(f"#{_mcp_row(screen, 'memory').query_one(Switch).id}")
        await settle(pilot)
        item = disabled_member(screen.plan, "memory")
        assert item is not None and item.cls == "create" and item.desired == "memory"
        assert disabled_member(screen.plan, "my-notes") is None
        assert screen.plan.output["copilot"].mcp.off_list_planned[:1] == ("my-notes",)


async def test_mcp_switch_is_disabled_for_servers_the_operator_set(demo_host, make_app):
    app = make_app(demo_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await choose_tab(pilot, "tab-mcp")
        github = _mcp_row(app.screen, "github")
        assert github.server.reason == "operator-enabled"
        assert github.query_one(Switch).disabled
        text = plain(github.query_one(".mcp-facts").content)
        assert "you enabled it in Copilot" in text
        assert "header Authorization dropped" in text


async def test_mcp_switch_for_codex_edits_its_plan(demo_host, make_app):
    from agentdeck.core import targets

    if "codex" not in targets.available():
        pytest.skip("no Codex target in this build")
    app = make_app(demo_host, targets=["codex"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_target(pilot, "codex")
        await choose_tab(pilot, "tab-mcp")
        row = _mcp_row(screen, "memory")
        assert row.server.enabled
        await pilot.click(f"#{row.query_one(Switch).id}")
        await settle(pilot)
        item = find_item(screen.plan, "codex", key=("mcp_servers", "memory"))
        assert item.desired.get("enabled") is False


async def test_browser_pane_and_notices(demo_host, make_app):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_tab(pilot, "tab-browser")
        text = plain(screen.query_one("#browser-body").content)
        assert "WSL              no" in text
        assert 'browserCommand   "auto"' in text
        assert "will write       nothing" in text
        await choose_tab(pilot, "tab-notices")
        notices = screen.plan.notices["copilot"]
        assert plain(screen.query_one("#notices-body").content).count(":") >= len(notices)
        tabs = screen.query_one(TabbedContent)
        assert str(tabs.get_tab("tab-notices").label) == f"Notices ({len(notices)})"


async def test_browser_pane_under_wsl_lists_the_probes(demo_host, make_app):
    demo_host.env["WSL_DISTRO_NAME"] = "Ubuntu"
    app = make_app(demo_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await choose_tab(pilot, "tab-browser")
        text = plain(app.screen.query_one("#browser-body").content)
        assert "WSL              yes" in text
        assert "wslview" in text and "not found" in text
        assert "warning:" in text


async def test_browser_tab_says_why_it_is_empty_for_targets_without_one(demo_host, make_app):
    """Clicking Browser with Codex selected opens the tab (it is not disabled) and says why
    there is nothing in it."""
    from agentdeck.core import targets

    if "codex" not in targets.available():
        pytest.skip("no Codex target in this build")
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_target(pilot, "codex")
        tabs = screen.query_one(TabbedContent)
        assert not tabs.get_tab("tab-browser").disabled
        await pilot.click("#--content-tab-tab-browser")
        await settle(pilot)
        assert tabs.active == "tab-browser"
        text = plain(screen.query_one("#browser-body").content)
        assert "No browser settings for this target" in text
        assert "OpenAI Codex CLI has no browser setting" in text


async def test_codex_trust_action_adds_trust_to_the_plan(demo_host, make_app):
    from agentdeck.core import targets

    if "codex" not in targets.available():
        pytest.skip("no Codex target in this build")
    app = make_app(demo_host, targets=["codex"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_target(pilot, "codex")
        await choose_tab(pilot, "tab-hooks")
        # trusting agentdeck's own hooks is the default plan's; the button says no (and back)
        hooks = screen.plan.output["codex"].hooks
        assert hooks.trust_requested is True
        assert all(e.will_trust for e in hooks.events)
        assert "trusts it" in plain(screen.query_one("#hooks-body").content, width=200)
        await pilot.click("#hooks-trust")
        await settle(pilot)
        assert not app.session.trusts("codex")
        assert screen.plan.output["codex"].hooks.trust_requested is False
        await pilot.click("#hooks-trust")
        await settle(pilot)
        hooks = screen.plan.output["codex"].hooks
        assert hooks.trust_requested is True and app.session.trusts("codex")


async def test_target_list_switches_the_panes(demo_host, make_app):
    from agentdeck.core import targets

    if "claude" not in targets.available():
        pytest.skip("no Claude target in this build")
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_target(pilot, "claude")
        assert screen.target == "claude"
        assert screen.query_one(PlanPane).target == "claude"
        labels = "\n".join(str(n.label) for n in screen.query_one("PlanTree").root.children)
        assert "~/.claude" in labels


async def test_a_plan_error_is_one_line_and_apply_stays_disabled(demo_host, make_app):
    app = make_app(demo_host, profile="no-such-profile")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        status = static_text(screen, "#status")
        assert status.startswith("Could not compute the plan: unknown profile 'no-such-profile'")
        assert screen.check_action("apply", ()) is None


async def test_palette_offers_the_current_screens_actions(demo_host, make_app, fake_doctor):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert titles[:3] == ["Apply the plan", "Refresh the plan", "Doctor"]
        assert "Light or dark theme" in titles and "Quit" in titles
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"doctor")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.id == "doctor"
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Run live checks" in titles and "Apply the plan" not in titles


async def test_theme_toggle_and_no_color(demo_host, make_app, monkeypatch):
    app = make_app(demo_host)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.current_theme.dark
        await pilot.press("ctrl+t")
        assert not app.current_theme.dark
        await pilot.press("ctrl+t")
        assert app.current_theme.dark
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(demo_host)
    assert app.no_color
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        svg = app.export_screenshot()
    # monochrome: the green of the + marks (#2f9e44) is gone
    assert "#2f9e44" not in svg.lower()


async def test_q_quits(demo_host, make_app):
    app = make_app(demo_host)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_mouse_tabs_and_targets(demo_host, make_app):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.click("#--content-tab-tab-mcp")
        await settle(pilot)
        assert screen.query_one(TabbedContent).active == "tab-mcp"
        await pilot.click("#--content-tab-tab-keys")
        await settle(pilot)
        assert screen.query_one(TabbedContent).active == "tab-keys"


async def test_usable_at_80x24(demo_host, make_app):
    app = make_app(demo_host)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.has_class("-narrow")
        for tab in ("tab-plan", "tab-hooks", "tab-keys", "tab-mcp", "tab-browser",
                    "tab-notices"):
            region = screen.query_one(f"#--content-tab-{tab}").region
            assert region.right <= 80, tab
        status = screen.query_one("#status").region
        assert status.y == 22 and status.height == 1
        keys = {k.key: k.region for k in screen.query("FooterKey")}
        assert keys["a"].right <= 80 and keys["d"].right <= 80 and keys["q"].right <= 80
        tree = screen.query_one("PlanTree").region
        diff = screen.query_one(DiffView).region
        assert tree.height >= 5 and diff.height >= 5


async def test_run_app_is_what_the_cli_calls(demo_host, monkeypatch):
    from agentdeck.app import app as app_module

    seen = {}

    def fake_run(self, *a, **kw):
        seen["onboard"] = self.onboard
        seen["profile"] = self.session.profile
        seen["targets"] = self.session.targets
        seen["label"] = self.home_path_label

    monkeypatch.setattr(app_module.AgentDeckApp, "run", fake_run)
    assert app_module.run_app(demo_host, profile="default", targets=["copilot"]) == 0
    # a home agentdeck never wrote to opens the walkthrough
    assert seen == {"onboard": True, "profile": "default", "targets": ["copilot"],
                    "label": str(demo_host.home)}
    demo_host.state_dir.mkdir(parents=True)
    app_module.run_app(demo_host, onboard=False)
    assert seen["onboard"] is False and seen["targets"] is None
    app_module.run_app(demo_host, onboard=True)
    assert seen["onboard"] is True


async def test_the_item_header_says_what_apply_does(demo_host, make_app):
    """A plain apply is not a decision: the header says what happens ("apply will add
    agentdeck's block", "set it aside"), never "decision: apply"."""
    app = make_app(demo_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = main_screen(app)
        item = next(i for i in screen.plan.items if i.kind == "block" and i.cls == "create")
        await select_tree_item(pilot, item.id)
        body = " ".join(plain(screen.query_one(DiffView).query_one("#diff-body").content).split())
        assert "create · apply will add agentdeck's block" in body
        assert "decision: apply" not in body
