"""The Claude Code target against the real CLI (@anthropic-ai/claude-code, the version core.facts
pins).

agentdeck writes an install into a scratch home (CLAUDE_CONFIG_DIR set, so .claude.json lives
inside it), then `claude doctor` must report no invalid setting in our settings.json -- every
hook event known, every handler well-formed -- also next to the operator's own hooks, and must
still read the .claude.json Claude itself rewrites. `claude mcp list` is NEVER run: it starts
every stdio server to health-check it.
"""
from __future__ import annotations

import json

import pytest

from agentdeck.core import engine
from agentdeck.core.targets.claude.probes import claude_doctor
from tests.target_homes import target_home, claude_json

pytestmark = pytest.mark.clients


def install(host, profile="default"):
    plan = engine.build_plan(host, profile, ["claude"])
    result = engine.apply_plan(host, plan)
    assert result.ok, result.leftover
    assert not engine.build_plan(host, profile, ["claude"]).has_work
    return plan


def problems(host) -> list[dict]:
    res = claude_doctor(host)
    assert res.ok, res.error
    assert "Claude Code doctor" in res.data["output"]
    return res.data["problems"]


def settings_problems(host) -> list[dict]:
    """The doctor's problems about settings.json (hooks, statusLine, keys). The .claude.json line
    about GITHUB_TOKEN missing from this credential-free scratch environment is expected."""
    settings = str(target_home(host, "claude") / "settings.json")
    return [p for p in problems(host) if p["file"] == settings]


def test_fresh_home_has_no_invalid_settings(scratch_env, need):
    need("claude")
    host = scratch_env
    assert claude_json(host) == target_home(host, "claude") / ".claude.json"
    install(host)
    assert settings_problems(host) == []
    # no .claude.json remark: github (${GITHUB_TOKEN}) is off, so it is not written (it used to
    # be the one remark, "Missing environment variables: GITHUB_TOKEN")
    others = [p for p in problems(host) if p["file"] != str(target_home(host, "claude") / "settings.json")]
    assert others == [], others
    # the doctor run made Claude rewrite .claude.json with its own keys; ours are intact
    data = json.loads(claude_json(host).read_text())
    assert set(data["mcpServers"]) == {"memory"}
    assert not engine.build_plan(host, "default", ["claude"]).has_work


def test_next_to_the_operators_hooks_and_a_status_line(scratch_env, need):
    need("claude")
    host = scratch_env
    (target_home(host, "claude") / "settings.json").write_text(json.dumps({
        "model": "sonnet",
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo guard", "timeout": 5}]}]},
    }, indent=2) + "\n")
    prof = host.config_dir / "profiles" / "sl"
    (prof / "claude").mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
    (prof / "claude" / "settings.json").write_text(json.dumps(
        {"statusLine": {"type": "command", "command": "echo status", "padding": 0}}))
    install(host, "sl")
    data = json.loads((target_home(host, "claude") / "settings.json").read_text())
    assert data["hooks"]["PreToolUse"][0]["hooks"][0]["command"] == "echo guard"
    assert len(data["hooks"]["PreToolUse"]) == 2
    assert settings_problems(host) == []


def test_a_broken_event_name_is_what_the_doctor_would_catch(scratch_env, need):
    """The check above can fail: a camelCase event (Copilot's spelling) is flagged."""
    need("claude")
    host = scratch_env
    (target_home(host, "claude") / "settings.json").write_text(json.dumps(
        {"hooks": {"sessionStart": [{"hooks": [{"type": "command", "command": "x"}]}]}}))
    found = settings_problems(host)
    assert found and "sessionStart" in found[0]["message"]
