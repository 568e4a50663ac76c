"""What the app says agrees with what it does: a reason does not contradict the decision, a
Codex trust row is named by its event, and an apply that replaced nothing mentions no backups."""
from __future__ import annotations

import pytest

from agentdeck.app.session import key_title
from agentdeck.app.widgets.diff_view import DiffView
from agentdeck.app.widgets.plan_tree import PlanTree

from app_helpers import (choose_tab, choose_target, find_item, flat, plain, select_tree_item, settle,
                         static_text)


async def test_taking_a_foreign_item_says_why_it_was_kept_by_default(demo_host, make_app):
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


async def test_codex_trust_rows_are_named_by_their_event(demo_host, make_app):
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


async def test_no_backup_folder_mentioned_when_nothing_was_replaced(empty_host, make_app):
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


def test_the_hooks_pane_says_disableallhooks_on_disk_in_words(tmp_path):
    """The key absent (or the null an adapter reports for it), true, false, or another value
    (Qwen reads a truthy string as true: the doctor says so) -- never a bare JSON null."""
    from agentdeck.app.widgets.hooks_pane import disable_all_words
    from agentdeck.core.disk import MISSING
    from agentdeck.core.host import Host

    host = Host.from_environment(tmp_path, env={"HOME": str(tmp_path)})
    assert disable_all_words(host, None) == disable_all_words(host, MISSING) == (
        "on disk: not set (the hooks run)")
    assert disable_all_words(host, True, "X runs none of these hooks while it is true") == (
        "on disk: true (X runs none of these hooks while it is true)")
    assert disable_all_words(host, False) == "on disk: false (the hooks run)"
    assert '"no"' in disable_all_words(host, "no") and "neither true nor false" in (
        disable_all_words(host, "no"))
    assert "null" not in disable_all_words(host, None)


def test_the_demo_opens_as_the_readme_says(tmp_path):
    """`agentdeck demo` opens the app on a home agentdeck has never written to: the walkthrough
    first, as the README's quick start says."""
    from pathlib import Path

    from agentdeck.app.app import starts_in_walkthrough
    from agentdeck.core import demo
    from agentdeck.core.host import Host

    home = demo.make_demo_home(tmp_path / "demo")
    host = Host.from_environment(home, env=demo.demo_env(home))
    assert starts_in_walkthrough(host)
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("```", 1)[0]
    assert "the walkthrough opens first" in " ".join(quick.split())
    host.state_dir.mkdir(parents=True)
    assert not starts_in_walkthrough(host) and starts_in_walkthrough(host, onboard=True)
