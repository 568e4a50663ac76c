"""`doctor --repo`: what each of the three readers will do with a repository's hooks
(agentdeck.core.doctor.repo_checks.repo_findings). Static: no CLI is run; git is asked when present."""
from __future__ import annotations

import re
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from agentdeck.core import engine
from agentdeck.core.doctor.repo_checks import repo_findings
from agentdeck.core.targets import repo as R
from tests.target_homes import target_home


@pytest.fixture
def repo(tmp_path) -> Path:
    d = tmp_path / "repo"
    d.mkdir()
    return d


def git(repo: Path, *args: str) -> str:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(repo.parent), "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c",
                           "init.defaultBranch=main", *args], cwd=repo, env=env, check=True,
                          capture_output=True, text=True).stdout


needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def installed(host, repo, **kw):
    res = engine.apply_plan(host, engine.build_repo_plan(host, repo, "default", **kw))
    assert res.ok


def by_check(findings, check):
    return [f for f in findings if f.check == check]


def trust(host, *folders):
    target_home(host, "copilot").mkdir(parents=True, exist_ok=True)
    (target_home(host, "copilot") / "config.json").write_text(json.dumps(
        {"copilot_tokens": {"x": "never read"}, "trustedFolders": [str(f) for f in folders]}))


def test_every_finding_is_about_the_repo_and_explains_each_reader(ghost, repo):
    installed(ghost, repo)
    fs = repo_findings(ghost, repo)
    assert {f.target for f in fs} == {"repo"}
    for check in ("repo.plan", "repo.reader.copilot-cli", "repo.reader.vscode",
                  "repo.reader.cloud-agent", "repo.cloud.setup", "repo.settings.disable-all",
                  "repo.hooks.others"):
        assert by_check(fs, check), check
    [vs] = by_check(fs, "repo.reader.vscode")
    assert "ignores matchers" in vs.message and "never fires SessionEnd" in vs.message
    [cloud] = by_check(fs, "repo.reader.cloud-agent")
    assert "PermissionRequest, Notification never fire" in cloud.message
    assert "`ask` counts as deny" in cloud.message
    assert by_check(fs, "repo.plan")[0].result == "ok"
    # the token in config.json is never printed
    trust(ghost, repo)
    assert all("never read" not in f.message for f in repo_findings(ghost, repo))


@pytest.mark.parametrize("how,result", [("none", "warning"), ("self", "ok"), ("ancestor", "ok"),
                                        ("subfolder", "warning"), ("allow_all", "ok")])
def test_folder_trust_from_config_json(ghost, repo, how, result):
    installed(ghost, repo)
    if how == "self":
        trust(ghost, repo)
    elif how == "ancestor":
        trust(ghost, repo.parent)
    elif how == "subfolder":
        (repo / "sub").mkdir()
        trust(ghost, repo / "sub")
    elif how == "allow_all":
        ghost.env["COPILOT_ALLOW_ALL"] = "true"
    [f] = by_check(repo_findings(ghost, repo), "repo.reader.copilot-cli")
    assert f.result == result, f.message
    if how == "subfolder":
        assert "only these subfolders are trusted" in f.message
    if how == "ancestor":
        assert "ancestor" in f.message


def test_trust_is_read_from_config_json_only(ghost, repo):
    installed(ghost, repo)
    target_home(ghost, "copilot").mkdir(parents=True, exist_ok=True)
    (target_home(ghost, "copilot") / "settings.json").write_text(json.dumps({"trustedFolders": [str(repo)]}))
    [f] = by_check(repo_findings(ghost, repo), "repo.reader.copilot-cli")
    assert f.result == "warning"


def test_disable_all_hooks(ghost, repo):
    installed(ghost, repo)
    s = repo / ".github" / "copilot" / "settings.json"
    s.parent.mkdir(parents=True)
    s.write_text('{\n  "disableAllHooks": true\n}\n')
    [f] = by_check(repo_findings(ghost, repo), "repo.settings.disable-all")
    assert f.result == "error" and f.path == ".github/copilot/settings.json" and f.line == 2
    s.write_text('{"disableAllHooks": "yes"}')
    [f] = by_check(repo_findings(ghost, repo), "repo.settings.disable-all")
    assert f.result == "error" and "ignore the whole file" in f.message
    s.unlink()
    target_home(ghost, "copilot").mkdir(parents=True, exist_ok=True)
    (target_home(ghost, "copilot") / "settings.json").write_text('// mine\n{"disableAllHooks": true}')
    [f] = by_check(repo_findings(ghost, repo), "repo.settings.disable-all")
    assert f.result == "error" and "every user and repository hook" in f.message


def test_other_hook_files_spellings_matchers_and_duplicates(ghost, repo):
    installed(ghost, repo)
    other = repo / ".github" / "hooks" / "team.json"
    other.write_text(json.dumps({"version": 1, "hooks": {
        "AgentStop": [{"type": "command", "bash": "echo stop"}],
        "preToolUse": [{"type": "command", "bash": "./scripts/guard.sh", "matcher": "bash",
                        "timeoutSeconds": 5}],
        "bogus": [{"type": "command", "bash": "echo"}],
    }}, indent=1))
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"Stop": [
        {"hooks": [{"type": "command", "command": "agentdeck-hook Stop"}]}]}}))
    fs = repo_findings(ghost, repo)
    ev = {(f.result, f.message.split(": ", 1)[1][:40]) for f in by_check(fs, "repo.hooks.events")}
    msgs = " | ".join(f.message for f in by_check(fs, "repo.hooks.events"))
    assert "'AgentStop' is silently dropped by Copilot CLI and rejected by VS Code" in msgs
    assert "'bogus' is not a hook event" in msgs
    assert "'preToolUse' is Copilot CLI's camelCase spelling; VS Code reads the PascalCase 'PreToolUse'" in msgs
    assert ev
    [stop] = [f for f in by_check(fs, "repo.hooks.events") if "AgentStop" in f.message]
    assert stop.result == "error" and stop.fix == "spell it 'Stop'" and stop.line
    [m] = by_check(fs, "repo.hooks.matchers")
    assert m.result == "warning" and "VS Code ignores matchers" in m.message
    [t] = by_check(fs, "repo.hooks.timeout")
    assert "timeoutSeconds" in t.message
    [s] = by_check(fs, "repo.hooks.script")
    assert s.result == "error" and "scripts/guard.sh does not exist" in s.message
    assert "denies every tool call" in s.message
    others = by_check(fs, "repo.hooks.others")
    assert any(f.result == "info" and f.message.startswith(".github/hooks/team.json") for f in others)
    assert any(f.result == "warning" and ".claude/settings.json also runs agentdeck's handler"
               in f.message for f in others)


def test_invalid_hook_file_and_wrong_version(ghost, repo):
    installed(ghost, repo)
    (repo / ".github" / "hooks" / "c.json").write_text('// comment\n{"hooks": {}}')
    (repo / ".github" / "hooks" / "v.json").write_text('{"version": 2, "hooks": {}}')
    fs = by_check(repo_findings(ghost, repo), "repo.hooks.file")
    assert any("c.json is not valid JSON" in f.message and "comments" in f.message for f in fs)
    assert any("v.json" in f.message and "reject the whole file" in f.message for f in fs)


def test_wrapper_not_executable_is_an_error(ghost, repo):
    installed(ghost, repo)
    os.chmod(repo / R.WRAPPER, 0o644)
    fs = by_check(repo_findings(ghost, repo), "repo.hooks.script")
    assert fs and all(f.result == "error" for f in fs)
    assert any("not executable" in f.message for f in fs)


def test_home_hooks_too(ghost, repo):
    installed(ghost, repo)
    engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["copilot"]))
    others = by_check(repo_findings(ghost, repo), "repo.hooks.others")
    assert any("handled twice" in f.message for f in others)


def test_cloud_setup_finding(ghost, repo):
    installed(ghost, repo)
    [f] = by_check(repo_findings(ghost, repo), "repo.cloud.setup")
    assert f.result == "warning" and "--cloud-setup" in f.fix
    installed(ghost, repo, cloud_setup=True)
    [f] = by_check(repo_findings(ghost, repo), "repo.cloud.setup")
    assert f.result == "ok"


def test_pending_plan_and_missing_files(ghost, repo):
    fs = repo_findings(ghost, repo)
    [p] = by_check(fs, "repo.plan")
    assert p.result == "warning" and re.search(r"\d+ changes? pending", p.message)
    [h] = by_check(fs, "repo.hooks.file")
    assert h.result == "warning"


def test_not_a_folder(ghost, tmp_path):
    [f] = repo_findings(ghost, tmp_path / "missing")
    assert (f.check, f.result) == ("repo.folder", "error")


@needs_git
def test_git_committed_and_executable_bit(ghost, repo):
    git(repo, "init", "-q")
    installed(ghost, repo)
    fs = by_check(repo_findings(ghost, repo), "repo.git.committed")
    assert {f.result for f in fs} == {"warning"} and len(fs) == 2
    git(repo, "add", ".github")
    git(repo, "commit", "-q", "-m", "hooks")
    assert [f.result for f in by_check(repo_findings(ghost, repo), "repo.git.committed")] == ["ok"]
    git(repo, "update-index", "--chmod=-x", R.WRAPPER)
    [f] = by_check(repo_findings(ghost, repo), "repo.git.committed")
    assert f.result == "error" and "without the executable bit" in f.message
    assert f.fix.startswith("git update-index --chmod=+x")


@needs_git
def test_git_ignored(ghost, repo):
    git(repo, "init", "-q")
    (repo / ".gitignore").write_text(".github/\n")
    installed(ghost, repo)
    fs = by_check(repo_findings(ghost, repo), "repo.git.committed")
    assert fs and all(f.result == "error" and "ignored by git" in f.message for f in fs)


def test_cli_doctor_repo(ghost, repo, capsys):
    from agentdeck.core import cli

    installed(ghost, repo)
    rc = cli.main(["doctor", "--repo", str(repo), "--home", str(ghost.home), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert rc == data["exit"] and data["targets"] == ["repo"]
    assert {f["target"] for f in data["findings"]} == {"repo"}
    rc = cli.main(["doctor", "--repo", str(repo), "--home", str(ghost.home)])
    out = capsys.readouterr().out
    assert out.startswith(f"repository {repo.resolve()}\n") and "repo.reader.vscode" in out


def test_handler_on_this_machines_path(ghost, repo):
    installed(ghost, repo)
    [f] = by_check(repo_findings(ghost, repo), "repo.handler")
    assert f.result == "ok" and "agentdeck-hook is on this machine's PATH" in f.message
    ghost.env["PATH"] = "/usr/bin:/bin"      # the venv's bin is not on PATH (not activated)
    [f] = by_check(repo_findings(ghost, repo), "repo.handler")
    assert f.result == "warning"
    assert "hooks fire but enforce nothing here" in f.message
    assert "docs/repo-scope.md" in f.fix and ("on PATH" in f.fix or "pipx install" in f.fix)
