"""Snapshot tests (pytest-textual-snapshot) of each pane and screen on the demo home, at 80x24 and
120x40. Deterministic: the demo home sits at a fixed path (hook disable keys hash the wrapper's
absolute path), paths show as ~, CLI versions are stubbed, WSL is off, PATH is fixed.

Regenerate after a deliberate change with `python -m pytest tests/app --snapshot-update`, then
look at the SVGs in tests/app/__snapshots__/."""
from __future__ import annotations

import os
from importlib.metadata import version

import pytest

from app_helpers import (choose_tab, choose_target, find_item, make_root, org_apply,
                         select_tree_item, settle)

#: the Textual the baselines were drawn with: another version draws some borders and widgets
#: differently, so the comparison would fail for reasons that are not ours
BASELINE_TEXTUAL = "8.2.8"
pytestmark = [
    pytest.mark.skipif(
        version("textual") != BASELINE_TEXTUAL,
        reason=f"snapshot baselines were drawn with textual {BASELINE_TEXTUAL}, this is "
               f"{version('textual')}; regenerate them with --snapshot-update and look at them"),
    # one pytest-xdist worker runs them all: they share the fixed demo home (snapshot_host's
    # lock), so on two workers one would wait for the other
    pytest.mark.xdist_group("app-snapshots"),
]

SIZES = [(80, 24), (120, 40)]
PANES = ["plan", "hooks", "keys", "mcp", "browser", "notices"]


def _size_id(size):
    return f"{size[0]}x{size[1]}"


@pytest.mark.parametrize("size", SIZES, ids=_size_id)
@pytest.mark.parametrize("pane", PANES)
def test_pane(pane, size, snapshot_host, make_app, snap_compare):
    app = make_app(snapshot_host)

    async def run_before(pilot):
        await settle(pilot)
        if pane == "plan":
            item = find_item(app.screen.plan, "copilot", path_end="hooks/agentdeck.json")
            await select_tree_item(pilot, item.id)
        else:
            await choose_tab(pilot, f"tab-{pane}")
            if pane == "keys":
                app.screen.query_one("#keys-table").focus()
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=_size_id)
def test_confirm_apply(size, snapshot_host, make_app, snap_compare):
    app = make_app(snapshot_host)

    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=_size_id)
def test_doctor(size, snapshot_host, make_app, fake_doctor, snap_compare):
    app = make_app(snapshot_host)

    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=_size_id)
@pytest.mark.parametrize("step", ["detect", "options", "review"])
def test_onboarding(step, size, snapshot_host, make_app, snap_compare):
    app = make_app(snapshot_host, onboard=True)

    async def run_before(pilot):
        await settle(pilot)
        screen = app.screen
        while screen.step_id != step:
            await pilot.press("n")
            await settle(pilot)
        if step == "review":
            item = find_item(screen.plan, "copilot", path_end="hooks/agentdeck.json")
            await select_tree_item(pilot, item.id)
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_light_theme(snapshot_host, make_app, snap_compare):
    app = make_app(snapshot_host, dark=False)

    async def run_before(pilot):
        await settle(pilot)
        item = find_item(app.screen.plan, "copilot", path_end="hooks/agentdeck.json")
        await select_tree_item(pilot, item.id)

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=_size_id)
@pytest.mark.parametrize("tab", ["plan", "readers"])
def test_repo(tab, size, snapshot_host, make_app, snap_compare):
    import subprocess

    repo = snapshot_host.home / "src" / "project"
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    app = make_app(snapshot_host, repo=str(repo))

    async def run_before(pilot):
        await settle(pilot)
        if tab == "readers":
            await pilot.press("2")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_policy_tab(snapshot_host, make_app, snap_compare):
    """The Policy tab of the bundled default profile (Copilot)."""
    app = make_app(snapshot_host)

    async def run_before(pilot):
        await settle(pilot)
        await choose_tab(pilot, "tab-policy")

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def test_activity(snapshot_host, make_app, snap_compare):
    """The Activity screen, with a line appended while it is open."""
    from test_app_policy import record, settle_live, wait_rows, write_log

    write_log(snapshot_host, [record(1), record(2, "deny", rule="no-ssh-keys")])
    app = make_app(snapshot_host)

    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("l")
        await settle_live(pilot)
        await wait_rows(pilot, app.screen, 2)
        write_log(snapshot_host, [record(3, "ask", target="codex", session="s-2",
                                         rule="ask-web")])
        await wait_rows(pilot, app.screen, 3)
        await settle_live(pilot)

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=_size_id)
@pytest.mark.parametrize("state", ["installed", "ownership-fails", "administrators-file"])
def test_org_tab(state, size, snapshot_host, make_app, snap_compare, tmp_path):
    """A real org layer (`agentdeck org apply --root`, managed hooks only) under a fixed root
    prefix beside the snapshot home; the second CLI with an org part shown. administrators-file:
    no org layer, an administrator's own file at a CLI's shared layer path."""
    import shutil

    from agentdeck.core.facts import org as F

    root = snapshot_host.home.parent / "orgroot"
    shutil.rmtree(root, ignore_errors=True)
    target = F.names()[1]
    if state == "administrators-file":
        target = next(t for t in F.names() if F.ORG[t].shared)
        mine = make_root(root) / F.ORG[target].path.lstrip("/")
        mine.parent.mkdir(mode=0o755)
        mine.write_text("# the administrator's\n" if mine.suffix == ".toml" else "{}\n")
    else:
        org_apply(make_root(root), tmp_path / "admin", "--managed-hooks-only")
    if state == "ownership-fails":
        os.chmod((root / F.ORG[target].path.lstrip("/")).parent, 0o777)
    snapshot_host.env["AGENTDECK_ORG_ROOT"] = str(root)
    app = make_app(snapshot_host)

    async def run_before(pilot):
        await settle(pilot)
        await choose_tab(pilot, "tab-org")
        await choose_target(pilot, target)
        await settle(pilot)

    try:
        assert snap_compare(app, terminal_size=size, run_before=run_before)
    finally:
        shutil.rmtree(root, ignore_errors=True)
