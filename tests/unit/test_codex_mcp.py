"""MCP servers for Codex: the translation rules of core.targets.mcp_codex, enabled flags under
mcpDefaultDisabled, per-server ownership, and the operator's servers left alone."""
from __future__ import annotations

import json
import os
import tomllib

import pytest

from agentdeck.core import engine
from agentdeck.core.model import McpServer
from agentdeck.core.targets.codex.mcp import translate
from tests.target_homes import target_home

GH = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def tr(raw: dict, native: dict | None = None):
    return translate("s", McpServer.model_validate(raw), native)


def test_stdio_has_no_type_and_keeps_command_args_env():
    t = tr({"type": "stdio", "command": "npx", "args": ["-y", "x"], "env": {"MODE": "ro"}})
    assert t.entry == {"command": "npx", "args": ["-y", "x"], "env": {"MODE": "ro"}}
    assert not t.warnings


def test_local_type_is_stdio_too():
    assert tr({"type": "local", "command": "x"}).entry == {"command": "x"}


def test_env_reference_under_its_own_name_becomes_env_vars():
    t = tr({"command": "x", "env": {"TOKEN": "${TOKEN}", "HOME_DIR": "$HOME_DIR", "A": "${B}",
                                    "MIX": "pre-${X}"}})
    assert t.entry["env_vars"] == ["TOKEN", "HOME_DIR"]
    assert "env" not in t.entry
    assert any("env A" in w and "own name" in w for w in t.warnings)
    assert any("env MIX mixes text" in w for w in t.warnings)


def test_bearer_env_header_becomes_bearer_token_env_var():
    t = tr({"type": "http", "url": "https://x/mcp", "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}})
    assert t.entry == {"url": "https://x/mcp", "bearer_token_env_var": "GITHUB_TOKEN"}
    assert t.transport == "http" and not t.warnings


def test_other_env_headers_become_env_http_headers():
    t = tr({"url": "https://x", "headers": {"X-Api-Key": "${API_KEY}", "X-Team": "core",
                                            "X-Mixed": "id-${ID}"}})
    assert t.entry["env_http_headers"] == {"X-Api-Key": "API_KEY"}
    assert t.entry["http_headers"] == {"X-Team": "core"}
    assert any("X-Mixed mixes text" in w for w in t.warnings)


def test_literal_credential_header_is_never_written():
    t = tr({"url": "https://x", "headers": {"Authorization": f"Bearer {GH}", "X-Key": GH}})
    assert "http_headers" not in t.entry and "bearer_token_env_var" not in t.entry
    assert sum("holds a literal credential" in w for w in t.warnings) == 2
    assert GH not in json.dumps(t.entry)


def test_sse_is_dropped_with_a_warning():
    t = tr({"type": "sse", "url": "https://x/sse"})
    assert t.entry is None and "SSE" in t.warnings[0]


def test_tools_become_enabled_tools_and_copilot_fields_are_not_translated():
    t = tr({"command": "x", "tools": ["a", "b"], "timeout": 5000, "auth": True})
    assert t.entry == {"command": "x", "enabled_tools": ["a", "b"]}
    assert any("timeout" in w for w in t.warnings) and any("codex mcp login" in w for w in t.warnings)
    assert tr({"command": "x", "tools": ["*"]}).entry == {"command": "x"}


def test_unknown_fields_are_dropped_known_codex_fields_pass():
    t = tr({"command": "x", "startup_timeout_sec": 20, "description": "mine", "bearer_token": "t"})
    assert t.entry == {"command": "x", "startup_timeout_sec": 20}
    assert any("'description'" in w for w in t.warnings)
    assert any("inline bearer_token" in w for w in t.warnings)


def test_native_overrides_merge_on_top():
    t = tr({"command": "x", "env": {"A": "1"}}, {"env": {"B": "2"}, "tool_timeout_sec": 9, "type": "stdio"})
    assert t.entry == {"command": "x", "env": {"A": "1", "B": "2"}, "tool_timeout_sec": 9}


def test_literal_credentials_in_env_are_flagged_and_secret():
    t = tr({"command": "x", "env": {"GITHUB_TOKEN": GH}})
    assert t.secret and t.entry["env"] == {"GITHUB_TOKEN": GH}
    assert any("written 0600" in w for w in t.warnings)


def test_missing_command_is_not_written():
    t = translate("s", None, {"args": ["x"]})
    assert t.entry is None


# ---- through the adapter --------------------------------------------------------------------------

@pytest.fixture
def prof(host):
    d = host.config_dir / "profiles" / "m"
    (d / "copilot").mkdir(parents=True)
    (d / "profile.toml").write_text('[profile]\nextends = ["_base"]\n')
    return d


def _servers(plan):
    return {s.name: s for s in plan.output["codex"].mcp.servers}


def _toml(host):
    return tomllib.loads((target_home(host, "codex") / "config.toml").read_text())


def test_default_disabled_with_the_copilot_exemptions(host, prof):
    (prof / "mcp.json").write_text(json.dumps({"mcpServers": {
        "a": {"command": "a"}, "b": {"command": "b"}, "c": {"command": "c"}}}))
    (prof / "copilot" / "settings.json").write_text(json.dumps(
        {"_agentdeck": {"mcpDefaultDisabled": True, "mcpAlwaysEnabled": ["a"]}}))
    plan = engine.build_plan(host, "m", ["codex"])
    s = _servers(plan)
    assert (s["a"].enabled, s["a"].reason) == (True, "always-enabled")
    assert (s["b"].enabled, s["b"].reason) == (False, "default-disabled")
    assert engine.apply_plan(host, plan).ok
    data = _toml(host)["mcp_servers"]
    assert "enabled" not in data["a"] and data["b"]["enabled"] is False
    # the operator switches b on in config.toml: kept on, recorded, no conflict
    cfg = target_home(host, "codex") / "config.toml"
    cfg.write_text(cfg.read_text().replace("enabled = false", "enabled = true", 1))
    again = engine.build_plan(host, "m", ["codex"])
    assert _servers(again)["b"].reason == "operator-enabled"
    assert not again.has_changes
    assert engine.apply_plan(host, again).ok
    assert _toml(host)["mcp_servers"]["b"]["enabled"] is True


def test_profile_disabled_list_is_honoured(host, prof):
    """The app's per-target MCP switch (engine.with_overrides) lands in disabledMcpServers."""
    (prof / "mcp.json").write_text(json.dumps({"mcpServers": {"a": {"command": "a"}}}))
    plan = engine.build_plan(host, "m", ["codex"], overrides={"mcp_enabled": {"codex": {"a": False}}})
    assert _servers(plan)["a"].reason == "profile-disabled"
    assert plan.get(next(i.id for i in plan.items if i.label == "MCP server a")).desired["enabled"] is False


def test_operator_servers_are_never_touched_and_ours_are_removed_alone(host, prof):
    cfg = target_home(host, "codex") / "config.toml"
    cfg.parent.mkdir(parents=True)
    cfg.write_text('# mine\n[mcp_servers.local-db]\ncommand = "db"  # keep\n')
    (prof / "mcp.json").write_text(json.dumps({"mcpServers": {"a": {"command": "a"}}}))
    assert engine.apply_plan(host, engine.build_plan(host, "m", ["codex"], trust_hooks=False)).ok
    s = _servers(engine.build_plan(host, "m", ["codex"], trust_hooks=False))
    assert s["local-db"].origin == "operator"
    (prof / "mcp.json").write_text(json.dumps({"mcpServers": {}}))
    plan = engine.build_plan(host, "m", ["codex"], trust_hooks=False)
    assert [i.cls for i in plan.items if "MCP server" in i.label] == ["remove"]
    assert engine.apply_plan(host, plan).ok
    assert cfg.read_text() == '# mine\n[mcp_servers.local-db]\ncommand = "db"  # keep\n'


def test_secret_server_makes_config_toml_0600(host, prof):
    (prof / "mcp.json").write_text(json.dumps({"mcpServers": {"a": {"command": "a", "env": {"K": GH}}}}))
    plan = engine.build_plan(host, "m", ["codex"])
    item = next(i for i in plan.items if i.label == "MCP server a")
    assert item.secret
    assert engine.apply_plan(host, plan).ok
    assert os.stat(target_home(host, "codex") / "config.toml").st_mode & 0o777 == 0o600


def test_sse_server_is_a_warning_in_the_plan(host, prof):
    (prof / "mcp.json").write_text(json.dumps({"mcpServers": {"old": {"type": "sse", "url": "https://x/sse"}}}))
    plan = engine.build_plan(host, "m", ["codex"])
    assert any("SSE" in n.message for n in plan.notices["codex"] if n.level == "warning")
    assert _servers(plan)["old"].dropped
    assert not [i for i in plan.items if i.label == "MCP server old"]
