"""Claude Code target: statusLine and native settings keys, MCP servers in .claude.json (only
ours touched; a file Claude rewrites during the apply is refused and nothing is left half done),
persona, skills, commands and agents."""
from __future__ import annotations

import json
import os

import pytest

from agentdeck.core import apply as applier
from agentdeck.core import engine
from agentdeck.core.errors import StalePlanError, UserError
from tests.target_homes import target_home, claude_json

GH = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def _profile(host, settings: dict | None = None, mcp: dict | None = None, name="c"):
    d = host.config_dir / "profiles" / name
    (d / "claude").mkdir(parents=True, exist_ok=True)
    (d / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
    if settings is not None:
        (d / "claude" / "settings.json").write_text(json.dumps(settings))
    if mcp is not None:
        (d / "mcp.json").write_text(json.dumps({"mcpServers": mcp}))
    return name


def _apply(host, profile="default"):
    plan = engine.build_plan(host, profile, ["claude"])
    res = engine.apply_plan(host, plan)
    assert res.ok, res.leftover
    return plan


# ---- settings.json --------------------------------------------------------------------------------

def test_status_line_and_native_keys(host):
    name = _profile(host, {"statusLine": "my-status --short", "model": "opus",
                           "permissions": {"allow": ["Bash(git diff*)"]},
                           "hooks": {"Stop": []}})
    plan = engine.build_plan(host, name, ["claude"])
    labels = {i.label: i for i in plan.items}
    assert labels["statusLine"].desired == {"type": "command", "command": "my-status --short"}
    assert labels["model"].desired == "opus"
    assert labels["permissions"].key == ["permissions"]
    assert any("key 'hooks' is dropped" in n.message for n in plan.notices["claude"])
    engine.apply_plan(host, plan)
    data = json.loads((target_home(host, "claude") / "settings.json").read_text())
    assert data["statusLine"] == {"type": "command", "command": "my-status --short"}


def test_bad_status_line_is_a_warning(host):
    name = _profile(host, {"statusLine": {"type": "static", "text": "x"}})
    plan = engine.build_plan(host, name, ["claude"])
    assert not [i for i in plan.items if i.label == "statusLine"]
    assert any("statusLine is not written" in n.message for n in plan.notices["claude"])


def test_operator_keys_and_hand_edits_are_kept(host):
    p = target_home(host, "claude") / "settings.json"
    p.parent.mkdir(parents=True)
    p.write_text('{\n  "model": "sonnet",\n  "theme": "dark"\n}\n')
    name = _profile(host, {"model": "opus"})
    plan = engine.build_plan(host, name, ["claude"])
    item = next(i for i in plan.items if i.label == "model")
    assert item.cls == "foreign"
    engine.apply_plan(host, plan)
    data = json.loads(p.read_text())
    assert data["model"] == "sonnet" and data["theme"] == "dark"


def test_invalid_settings_json_is_one_line(host):
    p = target_home(host, "claude") / "settings.json"
    p.parent.mkdir(parents=True)
    p.write_text('{"model": "x",\n  oops}\n')
    with pytest.raises(UserError) as e:
        engine.build_plan(host, "default", ["claude"])
    assert str(e.value).startswith(f"{p}:2:")


# ---- .claude.json ---------------------------------------------------------------------------------

CLAUDE_OWN = {"numStartups": 7, "projects": {"/src/x": {"allowedTools": []}},
              "mcpServers": {"mine": {"type": "stdio", "command": "my-mcp"}}}


@pytest.fixture
def cj(host):
    p = claude_json(host)
    p.write_text(json.dumps(CLAUDE_OWN, indent=2) + "\n")
    os.chmod(p, 0o600)
    return p


def test_mcp_servers_only_ours_are_touched(host, cj):
    plan = _apply(host)
    data = json.loads(cj.read_text())
    assert data["numStartups"] == 7 and data["projects"] == CLAUDE_OWN["projects"]
    assert data["mcpServers"]["mine"] == CLAUDE_OWN["mcpServers"]["mine"]
    assert data["mcpServers"]["memory"] == {"type": "stdio", "command": "npx",
                                            "args": ["-y", "@modelcontextprotocol/server-memory"]}
    assert "github" not in data["mcpServers"]     # default-disabled: not written (below)
    servers = {s.name: s for s in plan.output["claude"].mcp.servers}
    assert servers["mine"].origin == "operator" and servers["github"].origin == "profile"
    assert (servers["github"].enabled, servers["github"].reason) == (False, "default-disabled")
    assert (servers["memory"].enabled, servers["memory"].reason) == (True, "always-enabled")
    assert os.stat(cj).st_mode & 0o777 == 0o600
    # Claude adds its own keys later: still in sync
    data["numStartups"] = 8
    cj.write_text(json.dumps(data))
    assert not engine.build_plan(host, "default", ["claude"]).has_work
    # uninstall takes out our servers only
    assert engine.apply_plan(host, engine.build_uninstall_plan(host, ["claude"])).ok
    after = json.loads(cj.read_text())
    assert after == {**CLAUDE_OWN, "numStartups": 8}


def test_claude_json_rewritten_during_apply_is_refused_and_rolled_back(host, cj, monkeypatch):
    """Claude writes .claude.json after agentdeck's start-of-apply check: the re-check right
    before the write catches it; the files already written are put back; Claude's bytes stay."""
    plan = engine.build_plan(host, "default", ["claude"])
    real_check = applier.check_fresh

    def check_then_claude_writes(h, p):
        real_check(h, p)
        cj.write_text(json.dumps({**CLAUDE_OWN, "numStartups": 99}, indent=2) + "\n")

    monkeypatch.setattr(applier, "check_fresh", check_then_claude_writes)
    with pytest.raises(StalePlanError) as e:
        engine.apply_plan(host, plan)
    msg = str(e.value)
    assert "~/.claude.json changed on disk while agentdeck was applying" in msg
    assert "Nothing was changed" in msg
    assert json.loads(cj.read_text())["numStartups"] == 99
    # nothing of ours is left behind: no settings, no wrapper, no manifest, no journal
    assert not (target_home(host, "claude") / "settings.json").exists()
    assert not (target_home(host, "claude") / "agentdeck-hook.sh").exists()
    assert not (target_home(host, "claude") / ".agentdeck-managed.json").exists()
    assert not applier.journal_path(host).exists()
    monkeypatch.setattr(applier, "check_fresh", real_check)
    _apply(host)   # a fresh plan then goes through
    assert json.loads(cj.read_text())["numStartups"] == 99


def test_half_written_claude_json_is_refused_at_plan_time(host):
    claude_json(host).write_text('{"mcpServers": {"a": ')
    with pytest.raises(UserError) as e:
        engine.build_plan(host, "default", ["claude"])
    assert str(claude_json(host)) in str(e.value)


def test_mcp_translation_and_warnings(host):
    name = _profile(host, mcp={
        "loc": {"type": "local", "command": "x", "tools": ["a"], "timeout": 100},
        "ev": {"type": "sse", "url": "https://x/sse"},
        "lit": {"command": "y", "env": {"TOKEN": GH}}})
    plan = engine.build_plan(host, name, ["claude"],
                             overrides={"directives": {"mcpDefaultDisabled": False}})
    items = {i.label: i for i in plan.items}
    assert items["MCP server loc"].desired == {"type": "stdio", "command": "x"}
    assert any("Copilot settings" in w for w in items["MCP server loc"].warnings)
    assert items["MCP server ev"].desired == {"type": "sse", "url": "https://x/sse"}
    assert items["MCP server lit"].secret
    assert not any(" off: not written" in n.message for n in plan.notices["claude"])


def test_an_mcp_server_that_is_off_is_not_written_until_it_is_enabled(host):
    """Claude Code has no user-level off switch (core/targets/claude/facts.py, observed: the real CLI in
    tests/clients/test_claude_mcp_real.py): a default-disabled or profile-disabled server stays
    out of .claude.json; the app's switch (the operator's layer) writes it, switching it off
    again removes it."""
    plan = _apply(host)
    assert "github" not in json.loads(claude_json(host).read_text())["mcpServers"]
    assert any("github off: not written to ~/.claude.json" in n.message
               for n in plan.notices["claude"])
    on = engine.build_plan(host, "default", ["claude"],
                           choices={"mcp_enabled": {"claude": {"github": True}}})
    (it,) = [i for i in on.items if i.label == "MCP server github"]
    assert it.cls == "create"
    assert engine.apply_plan(host, on).ok
    assert "github" in json.loads(claude_json(host).read_text())["mcpServers"]
    assert not engine.build_plan(host, "default", ["claude"]).has_changes   # the layer keeps it
    off = engine.build_plan(host, "default", ["claude"],
                            choices={"mcp_enabled": {"claude": {"github": False}}})
    assert engine.apply_plan(host, off).ok
    assert "github" not in json.loads(claude_json(host).read_text())["mcpServers"]
    # the profile's own list switches a server off too, when mcpDefaultDisabled does not
    name = _profile(host, name="d")
    (host.config_dir / "profiles" / "d" / "copilot").mkdir()
    (host.config_dir / "profiles" / "d" / "copilot" / "settings.json").write_text(json.dumps(
        {"_agentdeck": {"mcpDefaultDisabled": False, "mcpAlwaysEnabled": []},
         "disabledMcpServers": ["memory"]}))
    servers = {s.name: s for s in engine.build_plan(host, name, ["claude"])
               .output["claude"].mcp.servers}
    assert servers["memory"].reason == "profile-disabled" and not servers["memory"].enabled
    assert servers["github"].reason == "enabled" and servers["github"].enabled


# ---- persona, skills, commands, agents ------------------------------------------------------------

def test_persona_skills_commands_agents(host):
    md = target_home(host, "claude") / "CLAUDE.md"
    md.parent.mkdir(parents=True)
    md.write_text("My notes.\n")
    plan = _apply(host)
    text = md.read_text()
    assert text.startswith("<!-- agentdeck:begin") and text.endswith("My notes.\n")
    assert "Instructions for Claude Code" in text
    link = target_home(host, "claude") / "skills" / "changelog"
    assert link.is_symlink() and (link / "SKILL.md").exists()
    assert (target_home(host, "claude") / "commands" / "review.md").read_text().startswith("---\ndescription:")
    agent = (target_home(host, "claude") / "agents" / "reviewer.md").read_text()
    assert "tools: Read, Grep, Glob, Bash(git diff*)" in agent and "model: sonnet" in agent
    info = plan.output["claude"].skills
    assert info is not None and info.dir == str(target_home(host, "claude") / "skills")
    assert [a.name for a in info.agents] == ["reviewer"]


def test_bad_names_are_refused(host):
    d = host.config_dir / "profiles" / "bad"
    (d / "agents").mkdir(parents=True)
    (d / "profile.toml").write_text('[profile]\nextends = ["_base"]\n')
    (d / "mcp.json").write_text(json.dumps({"mcpServers": {"../x": {"command": "x"}}}))
    with pytest.raises(UserError):
        engine.build_plan(host, "bad", ["claude"])


def test_invalid_hooks_value_keeps_the_wrapper(host):
    """An operator's `"hooks": 5` makes Claude ignore hooks; agentdeck reports it and keeps its
    wrapper rather than planning its removal as if the profile no longer wanted it."""
    from agentdeck.core import engine
    engine.apply_plan(host, engine.build_plan(host, "default", ["claude"]))
    (target_home(host, "claude") / "settings.json").write_text('{"hooks": 5}\n')
    plan = engine.build_plan(host, "default", ["claude"])
    wrapper = [i for i in plan.items if i.label == "hook wrapper"]
    assert wrapper and wrapper[0].cls == "noop"
    assert any('"hooks" is not an object' in n.message for n in plan.notices["claude"])
