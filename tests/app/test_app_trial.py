"""Findings of the operator trial, one test (or more) each: what the operator did, and what
the app must do now. Numbers refer to the trial's findings."""
from __future__ import annotations

import json
import os
import stat

import pytest
from textual.widgets import Button, DataTable, Switch, TabbedContent

from agentdeck.app.screens.onboarding import OnboardingScreen
from agentdeck.app.session import key_title, target_status
from agentdeck.app.widgets.diff_view import DiffView
from agentdeck.app.widgets.keys_pane import KeysPane
from agentdeck.app.widgets.mcp_pane import McpRow
from agentdeck.app.widgets.plan_tree import PlanTree
from agentdeck.app.widgets.target_list import TargetList
from agentdeck.core import engine
from tests.conftest import snapshot_tree

from app_helpers import (choose_tab, choose_target, disabled_member, find_item, main_screen, plain, select_tree_item,
                         settle, static_text)


async def open_walkthrough(pilot) -> OnboardingScreen:
    await settle(pilot)
    if not isinstance(pilot.app.screen, OnboardingScreen):
        await pilot.press("o")
        await settle(pilot)
    assert isinstance(pilot.app.screen, OnboardingScreen)
    return pilot.app.screen


async def go_to(pilot, screen: OnboardingScreen, step: str) -> None:
    while screen.step_id != step:
        await pilot.press("n")
        await settle(pilot)


def flat(text: str) -> str:
    return " ".join(text.split())


def _mcp_row(screen, name: str) -> McpRow:
    for row in screen.query(McpRow):
        if row.server.name == name:
            return row
    raise AssertionError(name)


def footer_fits(screen, width: int) -> None:
    """Every footer key is whole and left of the command palette's key; a group's label keeps
    a space before the next key."""
    keys = [k for k in screen.query("FooterKey") if not k.has_class("-command-palette")]
    palette = [k for k in screen.query("FooterKey") if k.has_class("-command-palette")]
    right = palette[0].region.x if palette else width
    for k in keys:
        assert k.region.right <= right, f"{k.key} {k.description!r} is cut at {width} columns"
    widgets = sorted([*keys, *screen.query("FooterLabel")], key=lambda w: w.region.x)
    for a, b in zip(widgets, widgets[1:]):
        if type(a).__name__ == "FooterLabel":
            assert b.region.x > a.region.right, "no space after a binding group's label"


# ---- 1. every chosen target is reviewable ------------------------------------------------------

async def test_1_review_lists_and_decides_on_every_chosen_target(demo_host, make_app):
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


# ---- 2. applying from the review step asks first -----------------------------------------------

async def test_2_next_on_review_asks_before_applying(demo_host, make_app):
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


# ---- 3. an MCP switch does what it says in one step -------------------------------------------

async def test_3_mcp_switch_on_the_demo_home_writes_in_one_step(demo_host, make_app):
    demo_host.state_dir.mkdir(parents=True)
    settings = demo_host.copilot_home / "settings.json"
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
        # 16.1: memory is its own member of the operator's list: planned, nothing to take
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
        # 16.2: the switch is written to the operator's layer, and the app says where
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


async def test_3_switching_back_undoes_the_take(demo_host, make_app):
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
        item = disabled_member(screen.plan, "memory")     # 16.1: a member, planned, not taken
        assert screen.plan.decision(item) == "apply" and screen.plan.action(item) == "write"
        await pilot.click(sw)
        await settle(pilot)
        assert disabled_member(screen.plan, "memory") is None             # as before
        assert item.id not in app.session.auto_taken and item.id not in app.session.decisions


async def test_3_switch_after_an_onboarding_with_mcp_default_disabled_off(demo_host, make_app):
    """The trial's sequence: onboarding applied with mcpDefaultDisabled off, then memory switched
    off on the main screen. The settings key did not exist in the plan before the switch."""
    ov = {"directives": {"mcpDefaultDisabled": False}}
    # onboarding's apply writes its options to the operator's layer (16.2)
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


# ---- 4. one set of overrides for the plan, the apply, the doctor and the main screen --------

async def test_4_onboarding_options_are_used_everywhere_after_apply(empty_host, make_app):
    app = make_app(empty_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "options")
        screen.query_one("#opt-mcp-disabled", Switch).value = False
        # the Codex trust option off (on by default; test_app_choices.py covers it on): the
        # hooks are inert at the end, as 13.2 reports below
        screen.query_one("#opt-trust-hooks", Switch).value = False
        await settle(pilot)
        note = flat(static_text(screen, "#options-note"))
        assert "Changed from the profile: mcpDefaultDisabled off" in note
        # 16.2: the option is written to the operator's layer (was: a hint to copy it by hand)
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
        assert "change(s) pending" not in doctor, doctor
        await pilot.press("n")                 # Finish
        await settle(pilot)
        main = main_screen(app)
        # issue 13.2: no changes, but with the trust option off Codex's hooks are inert
        status = static_text(main, "#status")
        assert status.startswith("No changes. Installed, hooks inert: codex: Codex skips"), status
        await pilot.press("d")                 # the doctor screen agrees
        await settle(pilot)
        rows = [f for f in app.screen.findings if f.check.endswith(".plan")]
        assert rows and not any("pending" in f.message for f in rows)
        # the choices are saved (16.2), so the doctor's own plan (no run-only overrides) agrees
        assert not app.session.has_overrides
        assert not any("with this run's choices" in f.message for f in rows)


# ---- 5. versions are read, the CLI is never run ------------------------------------------------

def fake_npm_cli(home, marker) -> None:
    """copilot installed from npm inside the home: a package.json with the version, and a
    binary that leaves `marker` behind when it is run."""
    pkg = home / ".npm-global" / "lib" / "node_modules" / "@github" / "copilot"
    (pkg / "bin").mkdir(parents=True)
    (pkg / "package.json").write_text(json.dumps({"name": "@github/copilot",
                                                  "version": "1.0.102"}))
    exe = pkg / "bin" / "copilot"
    exe.write_text(f"#!/bin/sh\ntouch {marker}\necho 1.0.102\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    bindir = home / ".local" / "bin"
    os.symlink(exe, bindir / "copilot")


async def test_5_versions_come_from_package_json_without_running_the_cli(
        empty_host, make_app, tmp_path):
    from agentdeck.app.session import detect_version

    marker = tmp_path / "copilot-was-run"
    fake_npm_cli(empty_host.home, marker)
    before = snapshot_tree(empty_host.home)
    app = make_app(empty_host, onboard=True, version_probe=detect_version)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        assert "copilot   1.0.102" in static_text(screen, "#detect-body")
        assert "codex     not installed" in static_text(screen, "#detect-body")
        await pilot.press("escape")
        await settle(pilot)
        header = plain(main_screen(app).query_one("#host-header").render())
        assert "copilot 1.0.102" in header
    assert not marker.exists(), "the CLI was run"
    assert snapshot_tree(empty_host.home) == before


# ---- 6. a plan error is shown, nothing stays "computing" ---------------------------------------

async def test_6_broken_settings_show_the_error_and_no_target_stays_computing(demo_host,
                                                                            make_app):
    settings = demo_host.copilot_home / "settings.json"
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
        # 16.5: the broken file stops its own target only; the others are planned and shown
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


async def test_6_unknown_profile_error_is_in_the_plan_pane(demo_host, make_app):
    app = make_app(demo_host, profile="nonsense")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        if isinstance(app.screen, OnboardingScreen):
            await pilot.press("escape")
            await settle(pilot)
        note = flat(static_text(main_screen(app), "#plan-note"))
        assert "unknown profile 'nonsense'" in note


# ---- 7. the reason does not contradict the decision --------------------------------------------

async def test_7_taking_a_foreign_item_says_why_it_was_kept_by_default(demo_host, make_app):
    app = make_app(demo_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        item = find_item(screen.plan, "copilot", path_end="skills/changelog")
        await select_tree_item(pilot, item.id)
        body = plain(screen.query_one(DiffView).query_one("#diff-body").content)
        assert "decision: keep mine" in body and "why it was" not in body
        await pilot.press("t")
        await settle(pilot)
        body = flat(plain(screen.query_one(DiffView).query_one("#diff-body").content))
        assert "decision: take profile's · apply will write it" in body
        assert "why it was kept by default: the profile's skill" in body


# ---- 8. polish ----------------------------------------------------------------------------------

async def test_8_footers_fit_at_80x24_with_spaces_after_groups(demo_host, make_app, fake_doctor):
    demo_host.state_dir.mkdir(parents=True)
    app = make_app(demo_host)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        main = app.screen
        for tab in ("tab-plan", "tab-keys"):
            await choose_tab(pilot, tab)
            footer_fits(main, 80)
        labels = [str(l.content) for l in main.query("FooterLabel")]
        assert "keep/take/skip" in labels and "tab" in labels
        await pilot.press("d")
        await settle(pilot)
        footer_fits(app.screen, 80)
        await pilot.press("escape")
        await pilot.press("o")
        await settle(pilot)
        ob = app.screen
        bar = ob._step_bar()
        assert len(bar.plain) <= 78 and "7 Doctor" in bar.plain and "[1 Detect]" in bar.plain
        for step in ("detect", "targets", "review"):
            await go_to(pilot, ob, step)
            await settle(pilot)
            footer_fits(ob, 80)


async def test_8_nav_buttons_show_their_whole_label(empty_host, make_app, no_doctor):
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


async def test_8_after_apply_onboarding_offers_close_not_cancel_or_back(empty_host, make_app,
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


async def test_8_targets_step_first_space_toggles_and_marks_read_without_colour(
        demo_host, make_app):
    app = make_app(demo_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "targets")
        sl = screen.query_one("#target-set")
        first = sl.get_option_at_index(0).value
        assert first in sl.selected
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


async def test_8_codex_trust_rows_are_named_by_their_event(demo_host, make_app):
    from agentdeck.core import targets

    if "codex" not in targets.available():
        pytest.skip("no Codex target in this build")
    app = make_app(demo_host, targets=["codex"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_target(pilot, "codex")
        app.session.trust_hooks = True
        screen.compute_plan()
        await settle(pilot)
        trust = [i for i in screen.plan.for_target("codex") if i.key[:2] == ["hooks", "state"]]
        assert len(trust) > 2
        titles = [key_title(i) for i in trust]
        assert len(set(titles)) == len(titles) and "trust hook PreToolUse" in titles
        tree = "\n".join(str(n.label) for g in screen.query_one(PlanTree).root.children
                         for n in [g, *g.children])
        assert "trust hook SessionStart" in tree and "hooks.state." not in tree
        await choose_tab(pilot, "tab-hooks")
        assert "trust hook Stop" in plain(screen.query_one("#hooks-body").content, width=200)


async def test_8_tab_keys(demo_host, make_app):
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


async def test_8_q_asks_when_decisions_would_be_lost(demo_host, make_app):
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


async def test_8_keys_table_fits_without_cutting_columns(demo_host, make_app):
    for size in ((80, 24), (120, 40)):
        app = make_app(demo_host)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            if isinstance(app.screen, OnboardingScreen):
                await pilot.press("escape")
                await settle(pilot)
            await choose_tab(pilot, "tab-keys")
            table = app.screen.query_one(KeysPane).query_one(DataTable)
            assert table.virtual_size.width <= table.scrollable_content_region.width, size
            for col in table.columns.values():
                assert col.get_render_width(table) - 2 >= len(str(col.label)), (size, col.label)


# ---- 9. backups are mentioned only when something was backed up -------------------------------

async def test_9_no_backup_folder_mentioned_when_nothing_was_replaced(empty_host, make_app):
    empty_host.state_dir.mkdir(parents=True)
    app = make_app(empty_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        result = static_text(app.screen, "#apply-result")
        assert "Applied:" in result and "Backups" not in result
