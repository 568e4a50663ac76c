"""Default-disabled MCP servers hold in the real Claude Code, and the facts behind how
(core/targets/claude/facts.py: mcp_* fields).

The server is tests/clients/mcp_start_marker.py: its command writes "started" to a marker file
the moment Claude starts it, and "called" when its tool runs. A real offline turn (`claude -p`
against tests/clients/scripted_model.py) and `claude mcp list` (which health-checks, i.e. starts,
every stdio server it lists) then show whether the server was started.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from offline_turn import run_turn
from scripted_model import ScriptedModel

from agentdeck.core import engine
from agentdeck.core.targets.claude.facts import CLAUDE
from tests.target_homes import target_home, claude_json

pytestmark = pytest.mark.clients

SERVER = Path(__file__).with_name("mcp_start_marker.py")
TOOL = "mcp__probe__probe_tool"


def _project(path: Path) -> Path:
    """A folder Claude takes as its own project root (a git repository: otherwise Claude may
    take a parent that happens to hold a .git)."""
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def _turn(host, work: Path, tool: str | None = None) -> set[str]:
    """One real turn; the tool names Claude offered the model."""
    with ScriptedModel(command="echo hi", call=(tool, {}) if tool else None) as m:
        r = run_turn(host, "claude", m.url, "run it", work, {"ENABLE_TOOL_SEARCH": "false"},
                     extra_args=["--allowedTools", tool] if tool else None)
        assert r.returncode == 0, r.stderr[-2000:]
    return m.offered()


def _mcp_list(host, work: Path) -> str:
    exe = next(str(Path(d) / "claude") for d in host.env["PATH"].split(os.pathsep)
               if (Path(d) / "claude").exists())
    r = subprocess.run([exe, "mcp", "list"], env=dict(host.env), cwd=work, capture_output=True,
                       text=True, timeout=90, stdin=subprocess.DEVNULL)
    return r.stdout + r.stderr


def _probe_profile(host, marker: Path) -> str:
    """The default profile (mcpDefaultDisabled, only memory always on) plus the marker server."""
    d = host.config_dir / "profiles" / "probe"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
    (d / "mcp.json").write_text(json.dumps({"mcpServers": {"probe": {
        "command": sys.executable, "args": [str(SERVER), str(marker)]}}}))
    return "probe"


def test_a_default_disabled_server_is_never_started_and_enabling_it_starts_it(scratch_env, need,
                                                                               tmp_path):
    need("claude")
    host = scratch_env
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    marker = tmp_path / "probe-marker.txt"
    profile = _probe_profile(host, marker)
    plan = engine.build_plan(host, profile, ["claude"])
    servers = {s.name: s for s in plan.output["claude"].mcp.servers}
    assert (servers["probe"].enabled, servers["probe"].reason) == (False, "default-disabled")
    assert engine.apply_plan(host, plan).ok
    work = _project(tmp_path / "work")

    offered = _turn(host, work, tool=TOOL)
    assert not marker.exists(), f"a default-disabled server was started: {marker.read_text()}"
    assert TOOL not in offered
    assert "probe" not in _mcp_list(host, work) and not marker.exists()

    # enabling it (the app's MCP switch: the operator's layer) writes it, and Claude starts it
    on = engine.build_plan(host, profile, ["claude"],
                           choices={"mcp_enabled": {"claude": {"probe": True}}})
    assert engine.apply_plan(host, on).ok
    offered = _turn(host, work, tool=TOOL)
    assert TOOL in offered
    assert marker.read_text().splitlines()[:1] == ["started"] and "called" in marker.read_text()


# ---- the facts: what does (not) keep a configured server from starting ---------------------------

def _plain_home(host, tmp_path, settings: dict | None = None, entry_extra: dict | None = None,
                projects: dict | None = None, extra_servers: dict | None = None) -> Path:
    marker = tmp_path / "marker.txt"
    server = {"type": "stdio", "command": sys.executable, "args": [str(SERVER), str(marker)],
              **(entry_extra or {})}
    doc = {"mcpServers": {"probe": server, **(extra_servers or {})}, "projects": projects or {}}
    claude_json(host).parent.mkdir(parents=True, exist_ok=True)
    claude_json(host).write_text(json.dumps(doc))
    if settings is not None:
        (target_home(host, "claude") / "settings.json").write_text(json.dumps(settings))
    return marker


def test_facts_no_user_level_switch_but_the_deny_list_and_not_registering(scratch_env, need,
                                                                            tmp_path):
    need("claude")
    host = scratch_env
    work = _project(tmp_path / "work")
    other = _project(tmp_path / "other")
    project_key = CLAUDE.mcp_project_disable_key
    json_keys = CLAUDE.mcp_json_approval_keys

    # per project: disabled in `work`, started in any other project
    marker = _plain_home(host, tmp_path, projects={str(work): {project_key: ["probe"]}})
    _turn(host, work)
    assert not marker.exists(), f"{project_key} did not hold in its own project"
    _turn(host, other)
    assert marker.exists(), f"{project_key} held outside its project: not what facts say"
    marker.unlink()

    # the .mcp.json approval lists do not concern a user server
    marker = _plain_home(host, tmp_path, settings={json_keys[1]: ["probe"]})
    _turn(host, work)
    assert marker.exists(), f"{json_keys[1]} kept a user server from starting"
    marker.unlink()

    # "disabled": true on the entry is ignored
    marker = _plain_home(host, tmp_path, settings={}, entry_extra={"disabled": True})
    _turn(host, work)
    assert marker.exists() is CLAUDE.mcp_entry_disabled_ignored
    marker.unlink(missing_ok=True)

    # deniedMcpServers holds everywhere, `claude mcp list` too, but still warns about its ${VAR}s
    gh = {"github": {"type": "http", "url": "https://example.invalid/mcp",
                     "headers": {"Authorization": "Bearer ${AGENTDECK_TEST_UNSET_TOKEN}"}}}
    marker = _plain_home(host, tmp_path, extra_servers=gh, settings={CLAUDE.mcp_denied_key: [
        {"serverName": "probe"}, {"serverName": "github"}]})
    _turn(host, other)
    listed = _mcp_list(host, other)
    assert not marker.exists(), f"{CLAUDE.mcp_denied_key} did not hold"
    assert "Missing environment variables: AGENTDECK_TEST_UNSET_TOKEN" in listed, listed

    # ${VAR:-default} expands silently; a server that is not registered is never started
    gh["github"]["headers"]["Authorization"] = "Bearer ${AGENTDECK_TEST_UNSET_TOKEN:-}"
    assert CLAUDE.mcp_env_default_syntax == "${VAR:-default}"
    _plain_home(host, tmp_path, extra_servers=gh, settings={})
    listed = _mcp_list(host, other)
    assert "Missing environment variables" not in listed and "github" in listed, listed
    marker.unlink(missing_ok=True)
    claude_json(host).write_text(json.dumps({"mcpServers": gh}))
    _turn(host, other)
    assert not marker.exists() and CLAUDE.mcp_off_means == "not-registered"
