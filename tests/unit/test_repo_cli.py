"""The command line at repository scope: plan/apply/uninstall/doctor --repo DIR, --cloud-setup."""
from __future__ import annotations

import re
import json
import os

import pytest

from agentdeck.core import cli
from agentdeck.core.targets import repo as R


@pytest.fixture
def env(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    repo = tmp_path / "repo"
    repo.mkdir()
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "agentdeck-hook").write_text("#!/bin/sh\nexit 0\n")
    os.chmod(bindir / "agentdeck-hook", 0o755)
    monkeypatch.setenv("PATH", f"{bindir}:/usr/bin:/bin")
    return home, repo


def run(capsys, *argv):
    rc = cli.main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_plan_apply_plan_uninstall(env, capsys):
    home, repo = env
    h, r = ["--home", str(home)], ["--repo", str(repo)]
    rc, out, _ = run(capsys, "plan", *h, *r)
    assert rc == 2 and "repo  Repository (.github/hooks)" in out and "Plan: 3 to add" in out   # wrapper, hooks file, committed policy
    rc, out, _ = run(capsys, "plan", *h, *r, "--cloud-setup", "--json")
    data = json.loads(out)
    assert rc == 2 and data["targets"] == ["repo"] and data["summary"]["add"] == 4   # + the workflow
    rc, out, err = run(capsys, "apply", *h, *r, "--cloud-setup", "--yes")
    assert rc == 0, err
    assert "The plan is now empty." in out
    assert (repo / R.HOOKS_FILE).is_file() and (repo / R.WORKFLOW).is_file()
    assert run(capsys, "plan", *h, *r)[0] == 0
    rc, out, err = run(capsys, "apply", *h, *r, "--no-cloud-setup", "--yes")
    assert rc == 0, err
    assert not (repo / R.WORKFLOW).exists()
    rc, out, err = run(capsys, "uninstall", *h, *r, "--yes")
    assert rc == 0, err
    assert not (repo / ".github").exists()


def test_cloud_setup_with_a_spec(env, capsys):
    home, repo = env
    rc, _, err = run(capsys, "apply", "--home", str(home), "--repo", str(repo),
                     "--cloud-setup=agentdeck @ file:///opt/agentdeck.whl", "--yes")
    assert rc == 0, err
    assert "pipx install 'agentdeck @ file:///opt/agentdeck.whl'" in (repo / R.WORKFLOW).read_text()


@pytest.mark.parametrize("argv,msg", [
    (["plan", "--cloud-setup"], "need --repo DIR"),
    (["plan", "--no-cloud-setup"], "need --repo DIR"),
    (["plan", "--repo", "{repo}", "--target", "copilot"], "--target does not apply with --repo"),
    (["apply", "--repo", "{repo}", "--trust-hooks", "--yes"], "--trust-hooks does not apply"),
    (["plan", "--repo", "{repo}/missing"], "not a folder"),
])
def test_operator_mistakes_are_one_line(env, capsys, argv, msg):
    home, repo = env
    argv = [a.replace("{repo}", str(repo)) for a in argv] + ["--home", str(home)]
    rc, out, err = run(capsys, *argv)
    assert rc == 1 and msg in err and err.count("\n") == 1 and "Traceback" not in err


def test_home_plan_is_unaffected_by_repo_state(env, capsys):
    home, repo = env
    assert run(capsys, "apply", "--home", str(home), "--repo", str(repo), "--yes")[0] == 0
    rc, out, _ = run(capsys, "plan", "--home", str(home), "--target", "copilot", "--json")
    data = json.loads(out)
    assert all(not i["path"].startswith(str(repo)) for i in data["items"])


def test_status_repo(env, capsys):
    home, repo = env
    rc, out, _ = run(capsys, "status", "--home", str(home), "--repo", str(repo))
    assert rc == 2 and out.startswith("repo ") and re.search(r"\d+ changes? pending", out)
    assert run(capsys, "apply", "--home", str(home), "--repo", str(repo), "--yes")[0] == 0
    rc, out, _ = run(capsys, "status", "--home", str(home), "--repo", str(repo))
    assert rc == 0 and out.startswith("repo     in sync")   # warnings (folder trust...) may follow
