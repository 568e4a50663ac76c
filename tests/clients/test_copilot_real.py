"""The Copilot target against the real CLI (@github/copilot, the version core.facts pins).

agentdeck writes an install into a scratch home, then the installed CLI is asked what it loaded:
`copilot mcp list --json` must list our servers with the disabled flags the plan intended, and
`hooks.discover` must report our 12 hooks with no errors or warnings and disable keys equal to
the ones agentdeck computed. Nothing here starts a session: no hook or MCP server runs.
"""
from __future__ import annotations

import json

import pytest

from agentdeck.core import engine
from agentdeck.core.demo import make_demo_home
from agentdeck.core.targets.copilot.probes import hooks_discover as copilot_hooks_discover
from agentdeck.core.targets.copilot.probes import mcp_list as copilot_mcp_list
from agentdeck.core.targets.copilot.facts import COPILOT
from tests.target_homes import target_home

pytestmark = pytest.mark.clients


def install(host, profile="default"):
    plan = engine.build_plan(host, profile, ["copilot"])
    result = engine.apply_plan(host, plan)
    assert result.ok, result.leftover
    assert not engine.build_plan(host, profile, ["copilot"]).has_work
    return plan


def assert_mcp_as_planned(host, plan):
    res = copilot_mcp_list(host)
    assert res.ok, res.error
    listed = res.data["mcpServers"]
    rows = {r.name: r for r in plan.output["copilot"].mcp.servers if not r.dropped}
    assert set(listed) == set(rows)
    for name, row in rows.items():
        assert listed[name]["enabled"] is row.enabled, (name, listed[name], row)
        assert listed[name]["source"] == "user"
    return listed


def assert_hooks_as_planned(host, plan):
    res = copilot_hooks_discover(host)
    assert res.ok, res.error
    data = res.data
    assert data["errors"] == [] and data["warnings"] == [] and data["settings_warnings"] == []
    ours = [h for h in data["hooks"] if h["source"] == "hooks/agentdeck.json"]
    planned = {e.event: e for e in plan.output["copilot"].hooks.events}
    assert sorted(h["hookType"] for h in ours) == sorted(COPILOT.register_events) == sorted(planned)
    for h in ours:
        e = planned[h["hookType"]]
        assert h["disableKey"] == e.disable_key, h
        assert h["origin"] == "user"
        assert h["enabled"] is (e.state == "active")
    return ours


def test_fresh_home_loads_as_planned(scratch_env, need):
    need("copilot")
    plan = install(scratch_env)
    listed = assert_mcp_as_planned(scratch_env, plan)
    assert listed["memory"]["enabled"] and not listed["github"]["enabled"]
    assert listed["github"]["auth"] is False and listed["github"]["oidc"] is False
    assert "headers" not in listed["github"]          # the ${GITHUB_TOKEN} header was dropped
    ours = assert_hooks_as_planned(scratch_env, plan)
    assert all(h["enabled"] for h in ours)


def test_messy_home_loads_as_planned(scratch_env, need):
    need("copilot")
    make_demo_home(scratch_env.home)
    plan = install(scratch_env)
    listed = assert_mcp_as_planned(scratch_env, plan)
    assert not listed["my-notes"]["enabled"]           # the operator's own, disabled by them
    assert listed["github"]["enabled"]                 # they enabled it: never re-disabled
    assert_hooks_as_planned(scratch_env, plan)
    cfg = scratch_env.run(["copilot", "config", "--list", "--json"], timeout=30)
    assert cfg.returncode == 0, cfg.stderr
    loaded = json.loads(cfg.stdout)
    assert loaded.get("model") == "gpt-5" and loaded.get("disableAllHooks") is False


def test_operator_disabled_hook_matches_copilot(scratch_env, need):
    need("copilot")
    plan = install(scratch_env)
    key = {e.event: e.disable_key for e in plan.output["copilot"].hooks.events}["preToolUse"]
    p = target_home(scratch_env, "copilot") / "settings.json"
    data = json.loads(p.read_text())
    data["disabledHooks"] = [key]
    p.write_text(json.dumps(data, indent=2))
    again = engine.build_plan(scratch_env, "default", ["copilot"])
    assert not again.has_changes
    states = {e.event: e.state for e in again.output["copilot"].hooks.events}
    assert states["preToolUse"] == "disabled-by-operator"
    ours = assert_hooks_as_planned(scratch_env, again)
    assert [h["hookType"] for h in ours if not h["enabled"]] == ["preToolUse"]


def test_profile_settings_are_valid_for_copilot(scratch_env, need):
    """A profile with a status line, a theme and every directive: Copilot loads the settings
    (one invalid value would make it ignore the whole file) and warns about nothing."""
    need("copilot")
    prof = scratch_env.config_dir / "profiles" / "everything"
    (prof / "copilot").mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
    (prof / "copilot" / "settings.json").write_text(json.dumps({
        "statusLine": {"type": "command", "command": "echo agentdeck"},
        "_agentdeck": {"allowAll": True, "channels": "a,b", "suppressBrowserLaunch": True,
                       "browserCommand": None}}))
    plan = install(scratch_env, "everything")
    cfg = scratch_env.run(["copilot", "config", "--list", "--json"], timeout=30)
    assert cfg.returncode == 0, cfg.stderr
    loaded = json.loads(cfg.stdout)
    assert loaded["statusLine"] == {"type": "command", "command": "echo agentdeck"}
    assert "_agentdeck" not in loaded and "_agentdeck" not in (target_home(scratch_env, "copilot") / "settings.json").read_text()
    assert_hooks_as_planned(scratch_env, plan)      # settings_warnings == [] included


def test_default_disabled_server_is_disabled_next_to_the_operators_own_list(scratch_env, need):
    """The operator's settings.json already disables playwright; agentdeck adds
    github (mcpDefaultDisabled) as its own member of that list, and Copilot reports github
    disabled (not connected at start-up) while the operator's name stays; uninstall takes out
    only github."""
    need("copilot")
    home = target_home(scratch_env, "copilot")
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text('{\n  "disabledMcpServers": ["playwright"]\n}\n')
    (home / "mcp-config.json").write_text(json.dumps({"mcpServers": {
        "playwright": {"type": "local", "command": "npx", "args": ["@playwright/mcp"],
                       "tools": ["*"]}}}, indent=2) + "\n")
    plan = install(scratch_env)
    listed = assert_mcp_as_planned(scratch_env, plan)
    assert not listed["github"]["enabled"] and not listed["playwright"]["enabled"]
    assert listed["memory"]["enabled"]
    settings = json.loads((home / "settings.json").read_text())
    assert settings["disabledMcpServers"] == ["playwright", "github"]
    res = engine.apply_plan(scratch_env, engine.build_uninstall_plan(scratch_env, ["copilot"]))
    assert res.ok, res.leftover
    assert json.loads((home / "settings.json").read_text())["disabledMcpServers"] == ["playwright"]
    after = copilot_mcp_list(scratch_env)
    assert after.ok and not after.data["mcpServers"]["playwright"]["enabled"]
