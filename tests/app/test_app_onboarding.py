"""The onboarding walkthrough: every step, cancelling at any step writes nothing (byte for byte),
and the whole walk ends with an applied home and the doctor."""
from __future__ import annotations

import re
import json

import pytest
from textual.widgets import RadioSet, SelectionList, Switch

from agentdeck.app.screens.onboarding import STEPS, OnboardingScreen
from agentdeck.app.session import target_status
from tests.conftest import snapshot_tree
from agentdeck.core import engine
from agentdeck.core.targets import registry

from app_helpers import main_screen, plain, settle, static_text
from tests.target_homes import target_home

ORDER = [s for s, _ in STEPS]


async def open_walkthrough(pilot) -> OnboardingScreen:
    await settle(pilot)
    if not isinstance(pilot.app.screen, OnboardingScreen):
        await pilot.press("o")
        await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, OnboardingScreen)
    return screen


async def go_to(pilot, screen: OnboardingScreen, step: str) -> None:
    while screen.step_id != step:
        await pilot.press("n")
        await settle(pilot)


@pytest.mark.parametrize("step", ["detect", "profile", "targets", "options", "review"])
async def test_cancel_at_any_step_changes_nothing(step, demo_host, make_app):
    home = demo_host.home
    before = snapshot_tree(home)
    app = make_app(demo_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        assert screen.first_run
        await go_to(pilot, screen, step)
        if step == "review":
            assert screen.plan is not None and screen.plan.has_changes
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is main_screen(app)
        messages = [n.message for n in app._notifications]
        assert "Onboarding cancelled: no changes were made." in messages
    assert snapshot_tree(home) == before
    assert not demo_host.state_dir.exists()


async def test_cancel_button_with_the_mouse(empty_host, make_app):
    before = snapshot_tree(empty_host.home)
    app = make_app(empty_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await pilot.click("#nav-next")
        await settle(pilot)
        assert screen.step_id == "profile"
        await pilot.click("#nav-back")
        await settle(pilot)
        assert screen.step_id == "detect"
        await pilot.click("#nav-cancel")
        await settle(pilot)
        assert not isinstance(app.screen, OnboardingScreen)
    assert snapshot_tree(empty_host.home) == before


async def test_detect_step_shows_clis_wsl_and_browsers(demo_host, make_app):
    app = make_app(demo_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        text = static_text(screen, "#detect-body")
        assert "has not written anything to this home yet" in text
        assert "copilot   1.0.102" in text
        assert "codex     not installed" in text
        assert "WSL       no" in text
        assert "browsers  not WSL" in text


async def test_detect_step_probes_browsers_under_wsl(demo_host, make_app):
    demo_host.env["WSL_DISTRO_NAME"] = "Ubuntu"
    app = make_app(demo_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        text = static_text(screen, "#detect-body")
        assert "WSL       yes" in text
        assert "wslview: not found" in text and "Edge: not found" in text


async def test_choices_reach_the_plan(empty_host, make_app):
    from agentdeck.core import targets

    app = make_app(empty_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "profile")
        rs = screen.query_one("#profile-set", RadioSet)
        assert rs.pressed_button is not None and rs.pressed_button.name == "default"
        assert "_base" not in [b.name for b in rs.query("RadioButton")]
        assert "A sensible everyday setup" in static_text(screen, "#profile-about")
        await go_to(pilot, screen, "targets")
        sl = screen.query_one("#target-set", SelectionList)
        assert sorted(sl.selected) == sorted(targets.available())
        # no target chosen: Next is disabled
        sl.deselect_all()
        await settle(pilot)
        assert screen.check_action("next", ()) is None
        assert "Choose at least one CLI" in static_text(screen, "#targets-note")
        sl.select("copilot")
        await settle(pilot)
        await go_to(pilot, screen, "options")
        mcp = screen.query_one("#opt-mcp-disabled", Switch)
        assert mcp.value is True                       # the profile's mcpDefaultDisabled
        assert screen.query_one("#browser-auto").value  # the profile's browserCommand "auto"
        mcp.value = False
        screen.query_one("#browser-suppress").value = True
        await settle(pilot)
        await go_to(pilot, screen, "review")
        await settle(pilot)
        plan = screen.plan
        assert plan.targets == ["copilot"]
        assert plan.output["copilot"].mcp.default_disabled is False
        assert not [i for i in plan.items if i.key == ["disabledMcpServers"]]
        browser = plan.output["copilot"].browser
        assert browser is not None and browser.source == "suppressBrowserLaunch"
        assert "Plan:" in static_text(screen, "#review-head")


async def test_the_whole_walk_applies_and_runs_the_doctor(empty_host, make_app, fake_doctor):
    app = make_app(empty_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        # the Codex trust option switched off (it is on by default, tests/app/
        # test_app_choices.py): the walk ends with Codex's hooks inert, which 13.2 says
        await go_to(pilot, screen, "options")
        screen.query_one("#opt-trust-hooks", Switch).value = False
        await go_to(pilot, screen, "review")
        await settle(pilot)
        # the review shows every chosen target, one group each
        from agentdeck.app.session import target_status, target_title

        groups = [str(n.label) for n in screen.query_one("PlanTree").root.children]
        assert len(groups) == len(screen.plan.targets)
        for t, g in zip(screen.plan.targets, groups):
            # one count everywhere: the group says what the main screen's badge says
            assert g.startswith(target_title(t)) and f"({target_status(screen.plan, t).badge()})" in g
        assert screen.check_action("next", ()) is True
        await pilot.press("n")                       # Apply: asks first
        await settle(pilot)
        assert app.screen.id == "confirm-apply"
        await pilot.press("y")
        await settle(pilot)
        assert app.screen.id == "apply"
        assert "Applied:" in static_text(app.screen, "#apply-result")
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen and screen.step_id == "apply"
        assert screen.applied
        assert screen.check_action("back", ()) is False  # no going back after apply (hidden)
        assert "Applied:" in static_text(screen, "#apply-body")
        await pilot.press("n")                       # the doctor
        await settle(pilot)
        assert screen.step_id == "doctor"
        assert fake_doctor and fake_doctor[-1]["live"] is False
        text = static_text(screen, "#doctor-body")
        assert "1 error" in text and "fix: apply the plan" in text
        # the last step says which hooks cannot run, and runs the drill (the
        # CLIs are not installed on this test host: skipped, counted)
        assert "codex: installed, hooks inert: Codex skips untrusted hooks" in text
        assert "fix: `agentdeck apply --trust-hooks`" in text
        assert "skipped" in text
        await pilot.press("n")                       # Finish
        await settle(pilot)
        main = main_screen(app)
        assert app.screen is main
        # no changes, but with the trust option off Codex's hooks are inert
        status = static_text(main, "#status")
        assert status.startswith("No changes. Installed, hooks inert: codex: Codex skips"), status
        messages = [n.message for n in app._notifications]
        assert not any("cancelled" in m for m in messages)
    assert not engine.build_plan(empty_host).has_changes


async def test_escape_after_apply_closes_and_says_nothing_about_no_changes(
        empty_host, make_app, no_doctor):
    app = make_app(empty_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "review")
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert str(screen.query_one("#nav-cancel").label) == "Close"
        await pilot.press("n")
        await settle(pilot)
        assert "not available" in static_text(screen, "#doctor-body")
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, OnboardingScreen)
        messages = [n.message for n in app._notifications]
        assert not any("no changes were made" in m for m in messages)


async def test_review_decisions_and_conflicts(empty_host, make_app):
    engine.apply_plan(empty_host, engine.build_plan(empty_host, names=["copilot"]))
    settings = target_home(empty_host, "copilot") / "settings.json"
    obj = json.loads(settings.read_text())
    obj["disableAllHooks"] = True
    settings.write_text(json.dumps(obj, indent=2) + "\n")
    app = make_app(empty_host, targets=["copilot"])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        assert not screen.first_run
        await go_to(pilot, screen, "review")
        await settle(pilot)
        assert re.search(r"\b\d+ conflicts?\b", static_text(screen, "#review-head"))
        assert screen.check_action("next", ()) is None     # decide first
        assert screen.check_action("decide", ("take",)) is True
        await pilot.press("t")
        await settle(pilot)
        assert screen.check_action("next", ()) is True
        item = [i for i in screen.plan.items if i.key == ["disableAllHooks"]][0]
        assert screen.plan.decision(item) == "take"


async def test_first_run_opens_the_walkthrough_and_an_existing_home_does_not(
        empty_host, make_app):
    app = make_app(empty_host, onboard=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, OnboardingScreen)
        assert "7 Doctor" in plain(app.screen.query_one("#onboard-steps").content)
    app = make_app(empty_host)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert not isinstance(app.screen, OnboardingScreen)


async def test_a_handler_that_cannot_be_found_holds_the_apply_until_confirmed(empty_host,
                                                                              make_app):
    """The review shows the error and the first Apply does not apply; the second
    opens the usual confirmation."""
    empty_host.env["PATH"] = "/usr/bin:/bin"         # no agentdeck-hook anywhere
    before = snapshot_tree(empty_host.home)
    app = make_app(empty_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "review")
        await settle(pilot)
        await pilot.press("n")                       # Apply: held
        await settle(pilot)
        assert app.screen is screen and screen.step_id == "review"
        head = static_text(screen, "#review-head")
        assert "Not applied yet" in head and "'agentdeck-hook' cannot be found" in head
        assert "Press Apply again" in head
        assert snapshot_tree(empty_host.home) == before
        await pilot.press("n")                       # Apply again: the confirmation
        await settle(pilot)
        assert app.screen.id == "confirm-apply"


async def test_the_doctor_step_counts_as_agentdeck_doctor_does(demo_host, make_app, capsys):
    """The walkthrough's doctor step says the doctor's own summary, counted as `agentdeck
    doctor` counts it on the same home; the drill and the hooks after the apply are counted
    on their own line, not mixed into it."""
    from agentdeck.core import cli
    from app_helpers import flat, go_to, open_walkthrough

    app = make_app(demo_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "review")
        await pilot.press("n")
        await settle(pilot)
        await pilot.press("y")                       # apply
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("n")                       # the doctor
        await settle(pilot)
        for _ in range(50):
            if screen.doctor_findings is not None:
                break
            await pilot.pause(0.1)
        body = flat(static_text(screen, "#doctor-body"))
        targets = list(screen.session.targets)
    capsys.readouterr()
    cli.main(["doctor", "--home", str(demo_host.home), "--target", ",".join(targets)])
    summary = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("Summary: "))
    assert f"Doctor {summary.removeprefix('Summary: ')}" in body, (summary, body)
    assert "After the apply: the hooks, and the drill's real turns" in body


@pytest.mark.parametrize("chosen", [t.name for t in registry.TARGETS])
async def test_the_mcp_option_says_how_each_chosen_cli_connects_a_server(chosen, empty_host,
                                                                          make_app):
    """The MCP option names, one line per chosen CLI, how a default-disabled server is
    connected there, and says nothing about the CLIs not chosen."""
    from agentdeck.app.session import target_title
    from agentdeck.core.views import targets as views

    app = make_app(empty_host, onboard=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        await go_to(pilot, screen, "targets")
        sl = screen.query_one("#target-set", SelectionList)
        sl.deselect_all()
        sl.select(chosen)
        await settle(pilot)
        await go_to(pilot, screen, "options")
        text = static_text(screen, "#opt-mcp-text")
    how = views.of(chosen).mcp_enable
    lines = text.splitlines()
    if how:
        assert f"{target_title(chosen)}: {how}" in " ".join(line.strip() for line in lines)
    for other in registry.TARGETS:
        if other.name != chosen:
            assert f"{target_title(other.name)}:" not in text
