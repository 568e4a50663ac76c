"""Repository scope against the real Copilot CLI (@github/copilot, the pinned version): a
repository prepared by `apply --repo` carries hooks that `hooks.discover` (projectPaths = the
repository) reports when the folder is trusted, and none when it is not.

Folder trust is written by THIS TEST into the scratch home's config.json (agentdeck itself never
writes config.json). The handler on PATH is a canary: discovery must not run any hook.
"""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from agentdeck.core.disk import DiskView
from agentdeck.core import engine
from agentdeck.core.targets.copilot.probes import hooks_discover as copilot_hooks_discover
from agentdeck.core.doctor.repo_checks import repo_findings
from agentdeck.core.targets import repo as R
from tests.target_homes import target_home

pytestmark = pytest.mark.clients


@pytest.fixture
def prepared(scratch_env, need, tmp_path):
    """(host, repo, canary): a git repository with agentdeck's repo hooks applied, and a canary
    handler first on PATH that would leave a file behind if any hook ran."""
    need("copilot")
    host = scratch_env
    canary = tmp_path / "canary-hook-ran"
    bindir = tmp_path / "canary-bin"
    bindir.mkdir()
    (bindir / "agentdeck-hook").write_text(f"#!/bin/sh\ntouch {canary}\nexit 0\n")
    os.chmod(bindir / "agentdeck-hook", 0o755)
    host.env["PATH"] = f"{bindir}{os.pathsep}{host.env['PATH']}"
    repo = tmp_path / "work" / "repo"
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True, capture_output=True)
    plan = engine.build_repo_plan(host, repo, "default")
    res = engine.apply_plan(host, plan)
    assert res.ok, res.leftover
    report = plan.output["repo"].repo
    assert report is not None
    return host, repo, canary, report


def trust(host, *folders: Path) -> None:
    target_home(host, "copilot").mkdir(parents=True, exist_ok=True)
    (target_home(host, "copilot") / "config.json").write_text(json.dumps(
        {"trustedFolders": [str(f) for f in folders]}))


def discover(host, repo: Path) -> dict:
    res = copilot_hooks_discover(host, project_paths=[str(repo)])
    assert res.skipped_reason is None, res.skipped_reason
    assert res.ok, res.error
    return res.data


def test_trusted_folder_loads_our_hooks(prepared):
    host, repo, canary, info = prepared
    trust(host, repo)
    data = discover(host, repo)
    assert not data["errors"], data["errors"]
    rows = [h for h in data["hooks"] if h["origin"] == "repository"]
    assert {h["source"] for h in rows} == {R.HOOKS_FILE}
    assert all(h["enabled"] for h in rows)
    # every event, under its PascalCase key, is loaded as the camelCase event it means, with the
    # disable key agentdeck computed for it (so _vsCodeCompat is hashed as the facts say)
    got = sorted((h["hookType"], h["disableKey"]) for h in rows)
    want = sorted((e.event, e.disable_key) for e in info.hooks.events)
    assert got == want
    assert not canary.exists(), "hooks.discover ran a hook"


def test_untrusted_folder_loads_none(prepared):
    host, repo, canary, _ = prepared
    trust(host)                                  # config.json exists, this folder not in it
    assert [h for h in discover(host, repo)["hooks"] if h["origin"] == "repository"] == []
    (target_home(host, "copilot") / "config.json").unlink()  # no config.json at all
    assert [h for h in discover(host, repo)["hooks"] if h["origin"] == "repository"] == []
    assert not canary.exists()


def test_trust_of_an_ancestor_covers_the_repository(prepared):
    host, repo, canary, info = prepared
    trust(host, repo.parent)
    rows = [h for h in discover(host, repo)["hooks"] if h["origin"] == "repository"]
    assert len(rows) == len(info.hooks.events)
    assert R.trust_of(DiskView(host), repo.resolve())["trusted"]


def test_doctor_live_agrees(prepared):
    host, repo, canary, _ = prepared
    trust(host, repo)
    [f] = [f for f in repo_findings(host, repo, live=True) if f.check == "repo.live.discover"]
    assert f.result == "ok" and f.live, f.message
    trust(host)
    [f] = [f for f in repo_findings(host, repo, live=True) if f.check == "repo.live.discover"]
    assert f.result == "info" and "not trusted" in f.message
    assert not canary.exists()
