"""The repository screen: open a repository folder, see its plan, which reader
gets which payload per event, the doctor's findings at repository scope; apply and remove
through the same confirmation as the main screen."""
from __future__ import annotations

import os
import subprocess

import pytest
from textual.widgets import Input, Switch, TabbedContent

from agentdeck.app.screens.repo import RepoScreen
from agentdeck.core import engine
from tests.conftest import snapshot_tree

from app_helpers import main_screen, plain, settle, static_text


@pytest.fixture
def repo(tmp_path):
    path = tmp_path / "project"
    path.mkdir()
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def flat(text: str) -> str:
    return " ".join(text.split())


async def test_repo_flag_opens_the_screen_with_plan_readers_and_findings(demo_host, make_app,
                                                                          repo):
    before = snapshot_tree(repo)
    app = make_app(demo_host, repo=str(repo))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RepoScreen)          # not the walkthrough, even on a first run
        assert screen.root == str(repo)
        plan = screen.plan
        assert plan is not None and plan.targets == ["repo"]
        tree = "\n".join(str(n.label) for n in screen.query_one("PlanTree").root.children)
        assert "+ .github/hooks/agentdeck.json" in tree
        assert "+ .github/hooks/agentdeck-hook.sh" in tree
        assert static_text(screen, "#status").startswith("Plan: 3 to add")   # + the committed policy
        await pilot.press("2")
        await settle(pilot)
        assert screen.query_one(TabbedContent).active == "repo-tab-readers"
        readers = plain(screen.query_one("#readers-body").content, width=160)
        assert "Copilot CLI" in readers and "VS Code" in readers and "cloud agent" in readers
        assert "✗ not trusted" in readers
        lines: dict[str, str] = {}
        for ln in readers.splitlines():          # the table row comes before the notes
            if ln.strip():
                lines.setdefault(ln.split()[0], ln)
        assert "✓ snake_case" in lines["PreToolUse"] and "✓ VS Code's" in lines["PreToolUse"]
        assert lines["PermissionRequest"].count("✗ never fires") == 2
        assert "`ask` is treated as deny" in readers
        await pilot.press("3")
        await settle(pilot)
        checks = {f.check for f in screen.findings}
        assert "repo.reader.copilot-cli" in checks and "repo.plan" in checks
        assert screen.query_one("#repo-doctor-table").row_count == len(screen.findings)
        assert "fix:" in static_text(screen, "#repo-doctor-fix")
    assert snapshot_tree(repo) == before              # looking writes nothing


async def test_apply_and_remove_through_the_confirmation(demo_host, make_app, repo):
    demo_host.state_dir.mkdir(parents=True)
    app = make_app(demo_host, repo=str(repo))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("a")
        await settle(pilot)
        confirm = app.screen
        assert confirm.id == "confirm-apply"
        assert f"repository {repo}" in flat(static_text(confirm, "#confirm-summary"))
        await pilot.press("escape")                    # cancel: nothing written
        await settle(pilot)
        assert not (repo / ".github").exists()
        await pilot.press("a")
        await settle(pilot)
        await pilot.press("y")
        await settle(pilot)
        result = flat(static_text(app.screen, "#apply-result"))
        assert "Applied: 4 files written" in result and "The plan is now empty." in result
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        assert static_text(screen, "#status").startswith("No changes. Everything is in sync.")
        assert screen.check_action("apply", ()) is None
        hook = repo / ".github" / "hooks" / "agentdeck-hook.sh"
        assert hook.is_file() and os.access(hook, os.X_OK)
        assert not engine.build_repo_plan(demo_host, repo).has_changes
        # remove: the same confirmation, then everything agentdeck wrote goes
        await pilot.press("x")
        await settle(pilot)
        assert "Remove agentdeck's hooks" in plain(app.screen.query_one(".dialog-title").content)
        await pilot.press("y")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
    assert not (repo / ".github" / "hooks" / "agentdeck.json").exists()
    assert not hook.exists()


async def test_open_a_folder_from_the_main_screen(demo_host, make_app, repo, tmp_path):
    demo_host.state_dir.mkdir(parents=True)
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        main = app.screen
        await pilot.press("p")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RepoScreen) and screen.root is None
        assert "Open a repository folder" in static_text(screen, "#plan-note")
        assert screen.check_action("apply", ()) is None
        inp = screen.query_one("#repo-path", Input)
        assert app.focused is inp
        # a folder that is not there: one line, nothing else
        await pilot.press(*str(tmp_path / "nowhere"), "enter")
        await settle(pilot)
        assert "not a folder" in static_text(screen, "#status")
        assert "not a folder" in flat(static_text(screen, "#plan-note"))
        assert app.focused is inp                    # the field keeps the focus after an error
        inp.value = ""
        await pilot.press(*str(repo), "enter")
        await settle(pilot)
        assert screen.plan is not None and screen.root == str(repo)
        assert app.focused is screen.query_one("PlanTree")
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is main


async def test_cloud_setup_switch_adds_the_workflow_step(demo_host, make_app, repo):
    app = make_app(demo_host, repo=str(repo))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert len(screen.plan.items) == 3   # wrapper, hooks file, committed policy
        await pilot.click("#repo-cloud")
        await settle(pilot)
        assert screen.query_one("#repo-cloud", Switch).value
        paths = [i.path for i in screen.plan.items]
        assert any(p.endswith(".github/workflows/copilot-setup-steps.yml") for p in paths)


async def test_run_app_and_the_cli_pass_the_repository(demo_host, monkeypatch, repo):
    from agentdeck.app import app as app_module
    from agentdeck.core import cli

    seen = {}

    def fake_run(self, *a, **kw):
        seen["repo"] = self.repo
        seen["onboard"] = self.onboard

    monkeypatch.setattr(app_module.AgentDeckApp, "run", fake_run)
    monkeypatch.chdir(repo.parent)
    assert app_module.run_app(demo_host, repo="project") == 0
    assert seen == {"repo": str(repo), "onboard": False}
    # agentdeck tui --repo DIR reaches run_app
    calls = {}
    monkeypatch.setattr(app_module, "run_app", lambda host, **kw: calls.update(kw) or 0)
    assert cli.main(["tui", "--home", str(demo_host.home), "--repo", str(repo)]) == 0
    assert calls["repo"] == str(repo)


async def test_decisions_on_a_foreign_hook_file(demo_host, make_app, repo):
    hooks = repo / ".github" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "agentdeck.json").write_text('{"version": 1, "hooks": {}}\n')
    app = make_app(demo_host, repo=str(repo))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        item = next(i for i in screen.plan.items if i.path.endswith("agentdeck.json"))
        assert item.cls in ("foreign", "conflict", "hand-edited")
        from app_helpers import select_tree_item

        await select_tree_item(pilot, item.id)
        assert screen.check_action("decide", ("take",)) is True
        await pilot.press("t")
        await settle(pilot)
        assert screen.plan.decision(screen.plan.get(item.id)) == "take"
        assert screen.unsaved() == 1
        await pilot.press("r")                        # decisions survive a refresh
        await settle(pilot)
        assert screen.plan.decision(screen.plan.get(item.id)) == "take"
        await pilot.press("q")
        await settle(pilot)
        assert app.screen.id == "confirm-quit"


async def test_handler_not_on_path_is_a_warning_on_the_screen(demo_host, make_app, repo):
    """The committed wrapper looks on PATH only: without the handler there, the Readers tab,
    the notices and the doctor's row say that the hooks fire but enforce nothing here."""
    demo_host.env["PATH"] = f"/usr/bin{os.pathsep}/bin"
    app = make_app(demo_host, repo=str(repo))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        report = screen.plan.output["repo"].repo
        assert report is not None and report.hooks.on_path is False
        await pilot.press("2")
        await settle(pilot)
        readers = flat(plain(screen.query_one("#readers-body").content, width=160))
        assert "This machine's handler: ⚠ not on PATH: hooks fire but enforce nothing here" \
            in readers
        notices = flat(plain(screen.query_one("#repo-notices-body").content, width=160))
        assert "agentdeck-hook is not on this machine's PATH: hooks fire but enforce nothing" \
            in notices
        [f] = [f for f in screen.findings if f.check == "repo.handler"]
        assert f.result == "warning"
        assert "doctor: " in static_text(screen, "#status")
