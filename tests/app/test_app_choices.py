"""Issue 16.2: choices made in the app stick. An MCP switch or an onboarding option is written,
through the plan, to the operator's layer (core.overlay: <config>/profiles/<profile>.local/),
so the next `agentdeck plan` and the next app session have nothing to do."""
from __future__ import annotations

import json
import os

from textual.widgets import Switch

from agentdeck.app.widgets.mcp_pane import McpRow
from agentdeck.core import cli, engine, overlay
from agentdeck.core.errors import UserError

from app_helpers import choose_tab, main_screen, plain, settle, static_text


def _row(screen, name: str) -> McpRow:
    for row in screen.query(McpRow):
        if row.server["name"] == name:
            return row
    raise AssertionError(name)


def flat(text: str) -> str:
    return " ".join(text.split())


def cli_plan(host, monkeypatch, capsys, *args) -> tuple[int, str]:
    """`agentdeck plan --home HOME ...` in-process, in the host's own environment:
    (exit code, stdout + stderr)."""
    for k in list(os.environ):
        monkeypatch.delenv(k)
    for k, v in host.env.items():
        monkeypatch.setenv(k, v)
    capsys.readouterr()
    code = cli.main(["plan", "--home", str(host.home), *args])
    got = capsys.readouterr()
    return code, got.out + got.err


async def _switch_and_apply(app, pilot, server: str) -> str:
    screen = app.screen
    await choose_tab(pilot, "tab-mcp")
    await pilot.click(f"#{_row(screen, server).query_one(Switch).id}")
    await settle(pilot)
    await pilot.press("a")
    await settle(pilot)
    confirm = flat(static_text(app.screen, "#confirm-summary"))
    await pilot.press("y")
    await settle(pilot)
    result = flat(static_text(app.screen, "#apply-result"))
    await pilot.press("escape")
    await settle(pilot)
    return confirm + " || " + result


async def test_switch_off_apply_then_plan_and_a_new_session_are_empty(empty_host, make_app,
                                                                      monkeypatch, capsys):
    host = empty_host
    layer = overlay.choices_path(host, "default")
    app = make_app(host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_tab(pilot, "tab-mcp")
        await pilot.click(f"#{_row(screen, 'memory').query_one(Switch).id}")
        await settle(pilot)
        # the layer's files are plan items like any other write
        items = [i for i in screen.plan.items if i.group == "choices"]
        assert {tuple(i.key) for i in items} == {(), ("mcp_enabled", "copilot", "memory")}
        assert all(screen.plan.action(i) == "write" for i in items)
        msg = [n.message for n in app._notifications][-1]
        assert "~/.config/agentdeck/profiles/default.local/choices.json" in msg
        assert not layer.exists()                       # nothing written before apply
        await pilot.press("a")
        await settle(pilot)
        assert "profiles/default.local/choices.json" in flat(static_text(app.screen,
                                                                         "#confirm-summary"))
        await pilot.press("y")
        await settle(pilot)
        result = flat(static_text(app.screen, "#apply-result"))
        assert "The plan is now empty." in result
        assert ("Your choices (MCP server memory off (GitHub Copilot CLI)) are written to "
                "~/.config/agentdeck/profiles/default.local/choices.json") in result, result
        await pilot.press("escape")
        await settle(pilot)
        assert static_text(main_screen(app), "#status").startswith("No changes.")
    assert json.loads(layer.read_text()) == {"mcp_enabled": {"copilot": {"memory": False}}}
    toml = (layer.parent / "profile.toml").read_text()
    assert 'extends = ["default"]' in toml
    settings = json.loads((host.copilot_home / "settings.json").read_text())
    assert "memory" in settings["disabledMcpServers"]
    # the next `agentdeck plan` has nothing to do (exit 0) and says whose choices it uses
    code, out = cli_plan(host, monkeypatch, capsys, "--target", "copilot")
    assert code == 0, out
    assert "No changes" in out
    assert not engine.build_plan(host, names=["copilot"]).has_work
    # `--profile default.local` uses the same layer (only the persona block, which names the
    # profile, differs)
    local = engine.build_plan(host, "default.local", names=["copilot"])
    assert {i.group for i in local.items if local.action(i) == "write"} <= {"persona"}
    servers = {s["name"]: s for s in local.info["copilot"]["mcp"]["servers"]}
    assert servers["memory"]["enabled"] is False
    # a new app session: no changes, and the switch is off, saying where it was saved
    app2 = make_app(host, targets=["copilot"])
    async with app2.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app2.screen
        assert static_text(screen, "#status").startswith("No changes.")
        assert "in sync" in screen.query_one("TargetList").entries["copilot"].badge
        await choose_tab(pilot, "tab-mcp")
        row = _row(screen, "memory")
        assert not row.server["enabled"]
        facts = flat(plain(row.query_one(".mcp-facts").content))
        assert "your choice, saved in ~/.config/agentdeck/profiles/default.local/choices.json" \
            in facts


async def test_switching_back_removes_the_choice_through_the_plan(empty_host, make_app,
                                                                 monkeypatch, capsys):
    host = empty_host
    layer = overlay.choices_path(host, "default")
    app = make_app(host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _switch_and_apply(app, pilot, "memory")
    assert json.loads(layer.read_text())["mcp_enabled"]["copilot"] == {"memory": False}
    app2 = make_app(host, targets=["copilot"])
    async with app2.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app2.screen
        await choose_tab(pilot, "tab-mcp")
        await pilot.click(f"#{_row(screen, 'memory').query_one(Switch).id}")
        await settle(pilot)
        # the saved choice is planned away (it is a recorded item the plan no longer wants)
        gone = [i for i in screen.plan.items if i.group == "choices" or
                tuple(i.key) == ("mcp_enabled", "copilot", "memory")]
        assert gone and all(screen.plan.action(i) == "remove" for i in gone), \
            [(i.cls, i.key) for i in gone]
        await pilot.press("a", "y")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert static_text(main_screen(app2), "#status").startswith("No changes.")
    assert not (layer.parent / "profile.toml").exists()
    settings = json.loads((host.copilot_home / "settings.json").read_text())
    assert "memory" not in settings.get("disabledMcpServers", [])
    code, out = cli_plan(host, monkeypatch, capsys, "--target", "copilot")
    assert code == 0, out


async def test_flipping_a_switch_twice_is_no_choice(empty_host, make_app):
    app = make_app(empty_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_tab(pilot, "tab-mcp")
        sw = f"#{_row(screen, 'memory').query_one(Switch).id}"
        await pilot.click(sw)
        await settle(pilot)
        await pilot.click(sw)
        await settle(pilot)
        assert app.session.pending() == {}
        assert app.unsaved() == 0
        assert not [i for i in screen.plan.items if i.group == "choices"]


async def test_onboarding_options_stick(empty_host, make_app, monkeypatch, capsys):
    from test_app_trial import go_to, open_walkthrough

    host = empty_host
    app = make_app(host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "options")
        screen.query_one("#opt-mcp-disabled", Switch).value = False
        await settle(pilot)
        note = flat(static_text(screen, "#options-note"))
        assert "writes them to ~/.config/agentdeck/profiles/default.local/choices.json" in note
        await go_to(pilot, screen, "review")
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        body = flat(static_text(screen, "#apply-body"))
        assert "mcpDefaultDisabled off) are written to ~/.config/agentdeck/profiles/" \
               "default.local/choices.json" in body, body
    data = json.loads(overlay.choices_path(host, "default").read_text())
    assert data == {"directives": {"mcpDefaultDisabled": False}}
    code, out = cli_plan(host, monkeypatch, capsys)
    assert code == 0, out
    app2 = make_app(host, onboard=True)
    async with app2.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "options")
        # the walkthrough starts from the saved choice, so Next changes nothing
        assert screen.query_one("#opt-mcp-disabled", Switch).value is False
        assert "as profile" in flat(static_text(screen, "#options-note"))


async def test_a_broken_layer_is_one_line_naming_the_file(empty_host, make_app, monkeypatch,
                                                         capsys):
    host = empty_host
    path = overlay.choices_path(host, "default")
    path.parent.mkdir(parents=True)
    path.write_text('{"mcp_enabled": {"copilot": {"memory": "no"}}}\n')
    try:
        engine.build_plan(host, names=["copilot"])
    except UserError as e:
        assert str(e).startswith(f"{path}:1:") and "mcp_enabled.copilot.memory" in str(e)
    else:
        raise AssertionError("a bad choices.json was accepted")
    path.write_text('{"mcp_enabled": \n')
    code, out = cli_plan(host, monkeypatch, capsys)
    assert code == 1
    assert "choices.json:" in out and "Traceback" not in out, out
    assert len(out.strip().splitlines()) == 1, out
    app = make_app(host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        status = static_text(app.screen, "#status")
        assert "Could not compute the plan" in status and "choices.json" in status


async def test_switching_against_a_saved_choice_the_profile_agrees_with(empty_host, make_app):
    """choices.json says memory on (the profile has it on too): switching it off cannot be
    done by dropping the saved choice, so the switch becomes a choice of its own."""
    host = empty_host
    path = overlay.choices_path(host, "default")
    path.parent.mkdir(parents=True)
    path.write_text('{"mcp_enabled": {"copilot": {"memory": true}}}\n')
    app = make_app(host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_tab(pilot, "tab-mcp")
        assert _row(screen, "memory").server["enabled"]
        await pilot.click(f"#{_row(screen, 'memory').query_one(Switch).id}")
        await settle(pilot)
        assert app.session.pending() == {"mcp_enabled": {"copilot": {"memory": False}}}
        assert not _row(screen, "memory").server["enabled"]
        item = next(i for i in screen.plan.items
                    if tuple(i.key) == ("mcp_enabled", "copilot", "memory"))
        assert item.desired is False and screen.plan.action(item) == "write"
        await pilot.press("a", "y")
        await settle(pilot)
    assert json.loads(path.read_text()) == {"mcp_enabled": {"copilot": {"memory": False}}}
    assert not engine.build_plan(host, names=["copilot"]).has_changes
