"""Small helpers shared by the app tests."""
from __future__ import annotations

import io
import os
from pathlib import Path

from rich.console import Console


def plain(renderable, width: int = 200) -> str:
    """A rich renderable (or a str) as plain text."""
    if isinstance(renderable, str):
        return renderable
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def static_text(screen, selector: str) -> str:
    from textual.widgets import Static

    return plain(screen.query_one(selector, Static).content)


async def settle(pilot, rounds: int = 3) -> None:
    """Let workers finish and the screen redraw."""
    app = pilot.app
    for _ in range(rounds):
        await pilot.pause()
        await app.workers.wait_for_complete()
    await pilot.pause()


async def press_settled(pilot, *keys: str) -> None:
    """Press each key, letting the app settle after each (e.g. "a", "y", "escape": apply,
    confirm, close the result)."""
    for k in keys:
        await pilot.press(k)
        await settle(pilot)


def main_screen(app):
    from agentdeck.app.screens.main import MainScreen

    for s in app.screen_stack:
        if isinstance(s, MainScreen):
            return s
    raise AssertionError("no main screen")


def find_item(plan, target: str, *, key: tuple | None = None, path_end: str | None = None):
    for it in plan.for_target(target):
        if key is not None and tuple(it.key) == tuple(key):
            return it
        if path_end is not None and it.path.endswith(path_end) and key is None:
            return it
    raise AssertionError(f"no plan item {key or path_end} for {target}")


def disabled_member(plan, name: str):
    """The plan item that puts `name` in Copilot's disabledMcpServers (one member item per name
    agentdeck disables), or None."""
    for it in plan.for_target("copilot"):
        if it.key == ["disabledMcpServers"] and it.label == f"disabledMcpServers: {name}":
            return it
    return None


async def select_tree_item(pilot, item_id: str) -> None:
    from agentdeck.app.widgets.plan_tree import PlanTree

    tree = pilot.app.screen.query_one(PlanTree)
    for node in tree.root.children:
        for n in [node, *node.children]:
            if n.data is not None and n.data.id == item_id:
                tree.focus()
                tree.move_cursor(n)
                await settle(pilot)
                return
    raise AssertionError(f"{item_id} is not in the plan tree")


async def choose_tab(pilot, tab_id: str) -> None:
    from textual.widgets import TabbedContent

    pilot.app.screen.query_one(TabbedContent).active = tab_id
    await settle(pilot)


async def choose_target(pilot, target: str) -> None:
    from agentdeck.app.widgets.target_list import TargetList

    tl = pilot.app.screen.query_one(TargetList)
    tl.highlighted = tl.get_option_index(target)
    await settle(pilot)


async def select_key_row(pilot, item_id: str) -> None:
    from textual.widgets import DataTable

    from agentdeck.app.widgets.keys_pane import KeysPane

    pane = pilot.app.screen.query_one(KeysPane)
    ids = [i.id for i in pane.items]
    table = pane.query_one(DataTable)
    table.focus()
    table.move_cursor(row=ids.index(item_id))
    await settle(pilot)


async def open_walkthrough(pilot):
    """The walkthrough (OnboardingScreen), opened with `o` unless the app started in it."""
    from agentdeck.app.screens.onboarding import OnboardingScreen

    await settle(pilot)
    if not isinstance(pilot.app.screen, OnboardingScreen):
        await pilot.press("o")
        await settle(pilot)
    assert isinstance(pilot.app.screen, OnboardingScreen)
    return pilot.app.screen


async def go_to(pilot, screen, step: str) -> None:
    """Press Next until the walkthrough `screen` is at `step`."""
    while screen.step_id != step:
        await pilot.press("n")
        await settle(pilot)


def flat(text: str) -> str:
    return " ".join(text.split())


def make_root(r: Path) -> Path:
    """An empty root prefix for the org layer (etc, usr/local/lib, var/lib) whose folders are
    root's 0755, as / is (a test's tmp_path is 0700)."""
    for d in ("etc", "usr/local/lib", "var/lib"):
        (r / d).mkdir(parents=True, exist_ok=True)
        p = r / d
        while p != r:
            os.chmod(p, 0o755)
            p = p.parent
    os.chmod(r, 0o755)
    return r


def org_apply(root: Path, home: Path, *flags: str) -> None:
    """A real `agentdeck org apply --root ROOT` (as the unit tests run it: the tests run as
    root), with an empty admin home of its own."""
    from agentdeck.core import cli

    home.mkdir(parents=True, exist_ok=True)
    assert cli.main(["org", "apply", "--yes", "--home", str(home), "--root", str(root),
                     *flags]) == 0
