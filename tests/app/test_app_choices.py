"""Choices made in the app stick. An MCP switch or an onboarding option is written,
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
from tests.target_homes import target_home


def _row(screen, name: str) -> McpRow:
    for row in screen.query(McpRow):
        if row.server.name == name:
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
    settings = json.loads((target_home(host, "copilot") / "settings.json").read_text())
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
    servers = {s.name: s for s in local.output["copilot"].mcp.servers}
    assert servers["memory"].enabled is False
    # a new app session: no changes, and the switch is off, saying where it was saved
    app2 = make_app(host, targets=["copilot"])
    async with app2.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app2.screen
        assert static_text(screen, "#status").startswith("No changes.")
        assert "in sync" in screen.query_one("TargetList").entries["copilot"].badge
        await choose_tab(pilot, "tab-mcp")
        row = _row(screen, "memory")
        assert not row.server.enabled
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
    settings = json.loads((target_home(host, "copilot") / "settings.json").read_text())
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
    from app_helpers import go_to, open_walkthrough

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
        assert _row(screen, "memory").server.enabled
        await pilot.click(f"#{_row(screen, 'memory').query_one(Switch).id}")
        await settle(pilot)
        assert app.session.pending() == {"mcp_enabled": {"copilot": {"memory": False}}}
        assert not _row(screen, "memory").server.enabled
        item = next(i for i in screen.plan.items
                    if tuple(i.key) == ("mcp_enabled", "copilot", "memory"))
        assert item.desired is False and screen.plan.action(item) == "write"
        await pilot.press("a", "y")
        await settle(pilot)
    assert json.loads(path.read_text()) == {"mcp_enabled": {"copilot": {"memory": False}}}
    assert not engine.build_plan(host, names=["copilot"]).has_changes


def cli_run(host, monkeypatch, capsys, *argv) -> tuple[int, str]:
    """`agentdeck <argv> --home HOME` in-process, in the host's own environment."""
    for k in list(os.environ):
        monkeypatch.delenv(k)
    for k, v in host.env.items():
        monkeypatch.setenv(k, v)
    capsys.readouterr()
    code = cli.main([*argv, "--home", str(host.home)])
    got = capsys.readouterr()
    return code, got.out + got.err


async def test_onboarding_trusts_agentdecks_codex_hooks_and_the_next_plan_is_empty(
        empty_host, make_app, monkeypatch, capsys):
    """Onboarding does not end with "codex hooks inert" for a new operator: the options step has
    an explained "Trust agentdeck's Codex hooks" switch, on by default (every plan's default:
    nothing to save); the trust is written through the plan (the trusted_hash items), so
    `status` says in sync, the next plan is empty, and a second walkthrough starts the same.
    Switched off, it is a choice the layer keeps."""
    from agentdeck.core.hooks_health import inert
    from app_helpers import go_to, open_walkthrough

    host = empty_host
    app = make_app(host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "options")
        row = screen.query_one("#opt-trust-row")
        sw = screen.query_one("#opt-trust-hooks", Switch)
        assert row.display and sw.value is True                # the default
        text = flat(static_text(screen, "#opt-trust-text"))
        assert text.startswith("ON Trust agentdeck's Codex hooks:")
        assert "trusted_hash of agentdeck's own hooks" in text and "~/.codex/config.toml" in text
        assert "Your choice" not in flat(static_text(screen, "#options-note"))
        # switched off, it says what that means and that the layer keeps the no; back on
        sw.value = False
        await settle(pilot)
        assert "Codex skips agentdeck's hooks" in flat(static_text(screen, "#opt-trust-text"))
        note = flat(static_text(screen, "#options-note"))
        assert "agentdeck's hooks left untrusted (OpenAI Codex CLI)" in note
        assert "~/.config/agentdeck/profiles/default.local/choices.json" in note
        sw.value = True
        await go_to(pilot, screen, "review")
        await settle(pilot)
        trust = [i for i in screen.plan.for_target("codex") if i.key[:2] == ["hooks", "state"]]
        assert trust and all(screen.plan.action(i) == "write" for i in trust)
        assert not [i for i in screen.plan.items if i.group == "choices"]
        await pilot.press("n")                     # Apply: asks first
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        assert "The plan is now empty." in flat(static_text(app.screen, "#apply-result"))
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("n")                     # the real doctor and the inert check
        await settle(pilot)
        assert "hooks inert" not in flat(static_text(screen, "#doctor-body"))
        await pilot.press("n")                     # Finish
        await settle(pilot)
        main = main_screen(app)
        status = static_text(main, "#status")
        assert "hooks inert" not in status and status.startswith("No changes"), status
    assert not overlay.choices_path(host, "default").exists()     # the default: nothing saved
    plan = engine.build_plan(host)               # what `agentdeck plan` computes
    assert not plan.has_work, plan.summary()
    assert inert(plan, "codex") == []
    code, out = cli_run(host, monkeypatch, capsys, "status")
    assert code == 0 and "inert" not in out, out
    code, out = cli_plan(host, monkeypatch, capsys)
    assert code == 0, out
    # a second walkthrough starts from the saved choice: nothing new to write
    app2 = make_app(host, onboard=True)
    async with app2.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "options")
        assert screen.query_one("#opt-trust-hooks", Switch).value is True
        assert screen.session.pending() == {}
        assert "Your choice" not in flat(static_text(screen, "#options-note"))


async def test_onboarding_without_codex_has_no_trust_option(empty_host, make_app):
    from app_helpers import go_to, open_walkthrough

    app = make_app(empty_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "targets")
        sl = screen.query_one("#target-set")
        sl.deselect("codex")
        await settle(pilot)
        await go_to(pilot, screen, "options")
        assert not screen.query_one("#opt-trust-row").display
        await go_to(pilot, screen, "review")
        await settle(pilot)
        assert "codex" not in screen.plan.targets
        assert not [i for i in screen.plan.items if i.group == "choices"]


def test_the_layers_trust_choice_is_checked_and_merged(empty_host):
    ok = overlay.validate({"trust_hooks": {"codex": True}})
    assert ok == {"trust_hooks": {"codex": True}}
    assert overlay.validate({"trust_hooks": {"codex": False}}) == {"trust_hooks": {"codex": False}}
    for bad, words in (({"trust_hooks": {"copilot": True}}, "trust_hooks.copilot: only a CLI"),
                       ({"trust_hooks": {"codex": "yes"}},
                        "trust_hooks.codex: expected true or false"),
                       ({"trust_hooks": []}, "trust_hooks: expected an object")):
        try:
            overlay.validate(bad)
        except UserError as e:
            assert words in str(e), str(e)
        else:
            raise AssertionError(f"{bad} was accepted")
    assert overlay.merge({"trust_hooks": {"codex": True}}, {"trust_hooks": {"codex": None}}) == {}
    assert overlay.describe({"trust_hooks": {"codex": True}}) == [
        "trust agentdeck's hooks (OpenAI Codex CLI)"]
    assert overlay.describe({"trust_hooks": {"codex": False}}) == [
        "agentdeck's hooks left untrusted (OpenAI Codex CLI)"]
    # every plan trusts by default; a saved no holds in every plan, --trust-hooks overrides it
    plan = engine.build_plan(empty_host, names=["codex"])
    assert all(e.will_trust for e in plan.output["codex"].hooks.events)
    path = overlay.choices_path(empty_host, "default")
    path.parent.mkdir(parents=True)
    path.write_text('{"trust_hooks": {"codex": false}}\n')
    plan = engine.build_plan(empty_host, names=["codex"])
    assert plan.output["codex"].hooks.trust_requested is False
    assert not any(e.will_trust for e in plan.output["codex"].hooks.events)
    plan = engine.build_plan(empty_host, names=["codex"], trust_hooks=True)
    assert all(e.will_trust for e in plan.output["codex"].hooks.events)


async def test_the_hooks_tabs_trust_button_is_a_saved_choice_too(empty_host, make_app):
    """The main screen's "Don't trust them" is written to the layer (false) like onboarding's
    option switched off, so the next `agentdeck plan` leaves them untrusted too; "Trust
    agentdeck's hooks" then drops that no through the plan (back to the default)."""
    from app_helpers import choose_target

    host = empty_host
    app = make_app(host, targets=["codex"])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await choose_target(pilot, "codex")
        await choose_tab(pilot, "tab-hooks")
        assert str(screen.query_one("#hooks-trust").label) == "Don't trust them"
        await pilot.click("#hooks-trust")
        await settle(pilot)
        assert app.session.pending() == {"trust_hooks": {"codex": False}}
        await pilot.press("a")
        await settle(pilot)
        confirm = flat(static_text(app.screen, "#confirm-summary"))
        assert "agentdeck's hooks left untrusted (OpenAI Codex CLI)" in confirm
        assert "lasts for this run" not in confirm
        await pilot.press("y")
        await settle(pilot)
        assert "codex's hooks are inert" in flat(static_text(app.screen, "#apply-result"))
        await pilot.press("escape")
        await settle(pilot)
        assert json.loads(overlay.choices_path(host, "default").read_text()) == {
            "trust_hooks": {"codex": False}}
        assert not engine.build_plan(host, names=["codex"]).has_work
        await choose_tab(pilot, "tab-hooks")
        assert str(screen.query_one("#hooks-trust").label) == "Trust agentdeck's hooks"
        await pilot.click("#hooks-trust")
        await settle(pilot)
        assert app.session.pending() == {"trust_hooks": {"codex": None}}
        drop = [i for i in screen.plan.items if tuple(i.key) == ("trust_hooks", "codex")]
        assert drop and screen.plan.action(drop[0]) == "remove"
