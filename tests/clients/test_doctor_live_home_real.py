"""`doctor --live` leaves the home as it found it, outside agentdeck's state dir: the real CLIs
are asked on a scratch copy (core/doctor/isolated.py), where they write their config.json, logs,
*.sqlite, installation_id, backups and telemetry. Proved with a fingerprint of the whole home
tree (every path, mode, link target and file hash) before and after, on a fresh install and on a
broken (messy) home, whose live findings still name the home's own files and lines."""
from __future__ import annotations

import os

import pytest

from agentdeck.core import doctor, engine
from agentdeck.core.doctor.report import render_text
from tests.conftest import snapshot_tree
from test_doctor_real import ALL, MESSY, plant, rows, with_handler
from tests.target_homes import target_home

pytestmark = pytest.mark.clients


def outside_state(host) -> dict:
    state = str(host.state_dir.relative_to(host.home))
    return {k: v for k, v in snapshot_tree(host.home).items()
            if k != state and not k.startswith(state + os.sep)}


def _changed(before: dict, after: dict) -> list[str]:
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))


def test_doctor_live_leaves_a_fresh_install_as_it_found_it(scratch_env, need, tmp_path):
    need(*ALL)
    host = with_handler(scratch_env, tmp_path)
    assert engine.apply_plan(host, engine.build_plan(host, "default", list(ALL),
                                                     trust_hooks=True)).ok
    before = outside_state(host)
    fs = doctor.run(host, "default", list(ALL), live=True)
    assert not _changed(before, outside_state(host)), _changed(before, outside_state(host))
    text = render_text(fs, profile="default", live=True, verbose=True)
    live = {f.check: f.result for f in fs if f.live}
    # the copy answers as the home would: every hook found, trusted, nothing wrong
    assert {c for c in ("copilot.live.hooks", "copilot.live.mcp", "codex.live.hooks",
                        "codex.live.config", "codex.live.mcp", "claude.live.doctor")} <= set(live)
    assert all(r in ("ok", "info") for r in live.values()), text
    assert "not trusted" not in text and "did not discover" not in text, text
    assert not (host.state_dir / "doctor").exists(), "the scratch copies are removed"


def test_doctor_live_leaves_a_broken_home_as_it_found_it(scratch_env, need):
    need(*ALL)
    host = scratch_env
    plant(host, MESSY)
    before = outside_state(host)
    fs = doctor.run(host, "default", list(ALL), live=True)
    assert not _changed(before, outside_state(host)), _changed(before, outside_state(host))
    text = render_text(fs, profile="default", live=True, verbose=True)
    # the CLIs' answers name the home's files, not the scratch copy
    assert any("~/.copilot/hooks/v2.json" in f.message for f in rows(fs, "copilot.live.hooks")), text
    assert "/doctor/live-" not in text and str(host.state_dir) not in text, text


def test_doctor_repo_live_leaves_the_home_as_it_found_it(scratch_env, need, tmp_path):
    """`doctor --repo DIR --live` asks Copilot about the repository on a scratch copy of
    ~/.copilot too, whose config.json carries the home's folder trust."""
    import json
    import subprocess

    from agentdeck.core.doctor.repo_checks import repo_findings

    need("copilot")
    host = with_handler(scratch_env, tmp_path)
    repo = tmp_path / "work" / "repo"
    repo.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True, capture_output=True)
    assert engine.apply_plan(host, engine.build_repo_plan(host, repo, "default")).ok
    target_home(host, "copilot").mkdir(parents=True, exist_ok=True)
    (target_home(host, "copilot") / "config.json").write_text(json.dumps({"trustedFolders": [str(repo)]}))
    before = outside_state(host)
    [f] = [f for f in repo_findings(host, repo, live=True) if f.check == "repo.live.discover"]
    assert f.result == "ok", f.message          # trusted in the copy as in the home
    assert not _changed(before, outside_state(host)), _changed(before, outside_state(host))
