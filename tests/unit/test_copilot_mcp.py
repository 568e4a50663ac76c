"""Copilot MCP translation, warnings, the secret scanner's integration, and the disabledMcpServers
list under the three-state rule (stable re-runs, /mcp disable and /mcp enable respected)."""
from __future__ import annotations

import json
import os

import pytest

from agentdeck.core import engine
from agentdeck.core.model import McpServer
from agentdeck.core.targets.copilot.mcp import disabled_list, translate
from tests.target_homes import target_home

GH_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def srv(**kw) -> McpServer:
    return McpServer.model_validate(kw)


# ---- translation ---------------------------------------------------------------------------------

def test_stdio_becomes_local_with_tools_star():
    tr = translate("m", srv(command="npx", args=["-y", "x"]), None)
    assert tr.entry == {"type": "local", "command": "npx", "args": ["-y", "x"], "tools": ["*"]}
    assert not tr.warnings and not tr.secret


@pytest.mark.parametrize("typ, want", [("http", "http"), ("streamable-http", "http"), ("sse", "sse")])
def test_remote_transports_get_auth_and_oidc_false(typ, want):
    tr = translate("r", srv(type=typ, url="https://x.example/mcp"), None)
    assert tr.entry == {"type": want, "url": "https://x.example/mcp", "tools": ["*"],
                        "auth": False, "oidc": False}


def test_auth_kept_when_set():
    tr = translate("r", srv(type="http", url="https://x", auth=True), None)
    assert tr.entry["auth"] is True and tr.entry["oidc"] is False


def test_env_reference_header_is_dropped_with_a_warning():
    tr = translate("g", srv(type="http", url="https://x", headers={
        "Authorization": "Bearer ${GITHUB_TOKEN}", "X-Plain": "yes", "X-Env": "$OTHER"}), None)
    assert tr.entry["headers"] == {"X-Plain": "yes"}
    assert len(tr.warnings) == 2 and all("sends header values literally" in w for w in tr.warnings)
    assert "never writes the resolved value" in tr.warnings[0]


def test_partial_wildcard_is_flagged():
    tr = translate("t", srv(command="x", tools=["gh-*", "read"]), None)
    assert tr.entry["tools"] == ["gh-*", "read"]
    assert "match nothing" in tr.warnings[0] and "gh-*" in tr.warnings[0]
    assert not translate("t", srv(command="x", tools=["*"]), None).warnings


def test_missing_command_or_url_is_not_written():
    assert translate("a", srv(type="stdio"), None).entry is None
    tr = translate("b", srv(type="sse"), None)
    assert tr.entry is None and "needs a 'url'" in tr.warnings[0]


@pytest.mark.parametrize("native", [{"args": "x"}, {"env": {"A": 1}}, {"tools": "*"},
                                    {"timeout": "5"}, {"cwd": 3}])
def test_native_fields_of_the_wrong_type_are_not_written(native):
    tr = translate("m", srv(command="npx"), native)
    assert tr.entry is None and "not written" in tr.warnings[0]


def test_native_override_merges_over_neutral():
    tr = translate("m", srv(command="npx", args=["a"]), {"tools": ["one"], "cwd": "/w", "timeout": 5000})
    assert tr.entry == {"type": "local", "command": "npx", "args": ["a"], "tools": ["one"],
                        "timeout": 5000, "cwd": "/w"}
    assert translate("n", None, {"type": "sse", "url": "https://s"}).entry["type"] == "sse"


@pytest.mark.parametrize("field, value", [
    ("headers", {"Authorization": f"Bearer {GH_TOKEN}"}),
    ("env", {"API_KEY": "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123"}),
    ("args", ["--token", GH_TOKEN]),
    ("url", "https://user:hunter2secret@example.com/mcp"),
    ("command", f"run-with {GH_TOKEN}"),
])
def test_literal_credentials_are_flagged_and_make_the_item_secret(field, value):
    kw = {"command": "x"} if field in ("env", "args", "command") else {"type": "http", "url": "https://x"}
    kw[field] = value
    tr = translate("s", srv(**kw), None)
    assert tr.secret, tr
    assert any("literal credential" in w for w in tr.warnings)
    # the warning names where, never the whole secret
    assert GH_TOKEN not in " ".join(tr.warnings) and "hunter2secret" not in " ".join(tr.warnings)


@pytest.mark.parametrize("kw", [
    {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
    {"command": "x", "env": {"TOKEN": "${TOKEN}", "MODE": "task-list risk-free"}},
    {"type": "http", "url": "https://api.githubcopilot.com/mcp/"},
    {"command": "x", "args": ["--api-key-file", "/home/me/.key", "sk-learn"]},
])
def test_no_false_positives(kw):
    tr = translate("ok", srv(**kw), None)
    assert not tr.secret and not any("credential" in w for w in tr.warnings)


# ---- disabledMcpServers ----------------------------------------------------------------------------

def test_list_first_write_appends_ours_after_yours():
    want, contrib = disabled_list(["mine"], None, ["a", "b"], set(), None)
    assert want == ["mine", "a", "b"] and contrib == ["a", "b"]


def test_list_names_already_there_are_not_ours():
    want, contrib = disabled_list(["a", "mine"], None, ["a", "b"], set(), None)
    assert want == ["a", "mine", "b"] and contrib == ["b"]


def test_list_operator_disable_is_absorbed():
    want, contrib = disabled_list(["a", "b", "x"], ["a", "b"], ["a", "b"], set(), ["a", "b"])
    assert want == ["a", "b", "x"] and contrib == ["a", "b"]


def test_list_hand_removed_entry_wants_the_recorded_list():
    want, _ = disabled_list(["b", "x"], ["a", "b", "x"], ["a", "b"], set(), ["a", "b"])
    assert want == ["a", "b", "x"]       # == recorded: the planner says hand-edited, kept


def test_list_withdraws_only_our_names():
    # the profile now wants b enabled: b was ours -> leaves; x is the operator's -> stays
    want, contrib = disabled_list(["a", "b", "x"], ["a", "b", "x"], ["a"], set(), ["a", "b"])
    assert want == ["a", "x"] and contrib == ["a"]
    # and a dropped server leaves too
    want, _ = disabled_list(["a", "gone"], ["a", "gone"], ["a"], {"gone"}, ["a", "gone"])
    assert want == ["a"]


# ---- through the engine --------------------------------------------------------------------------------

def _settings(host):
    from agentdeck.core.formats.jsonc import JsonDoc
    return JsonDoc.parse((target_home(host, "copilot") / "settings.json").read_text()).data


def _apply(host):
    plan = engine.build_plan(host, "default", ["copilot"])
    engine.apply_plan(host, plan)
    return plan


def _item(plan, label):
    (it,) = [i for i in plan.items if i.label == label]
    return it


def test_rerun_after_mcp_disable_and_enable_is_stable(host):
    _apply(host)
    assert _settings(host)["disabledMcpServers"] == ["github"]
    # the operator runs `/mcp disable memory` (Copilot appends it)
    p = target_home(host, "copilot") / "settings.json"
    data = _settings(host)
    data["disabledMcpServers"].append("memory")
    p.write_text(json.dumps(data, indent=2))
    plan = engine.build_plan(host, "default", ["copilot"])
    it = _item(plan, "disabledMcpServers: github")
    assert it.cls == "noop" and not plan.has_changes
    engine.apply_plan(host, plan)
    plan = engine.build_plan(host, "default", ["copilot"])
    assert _item(plan, "disabledMcpServers: github").cls == "noop" and not plan.has_work
    assert _settings(host)["disabledMcpServers"] == ["github", "memory"]
    # `/mcp enable github`: removed from the list, recorded in enabledMcpServers
    data = _settings(host)
    data["disabledMcpServers"] = ["memory"]
    data["enabledMcpServers"] = ["github"]
    p.write_text(json.dumps(data, indent=2))
    plan = engine.build_plan(host, "default", ["copilot"])
    assert _item(plan, "disabledMcpServers: github").cls == "noop" and not plan.has_changes
    engine.apply_plan(host, plan)
    assert not engine.build_plan(host, "default", ["copilot"]).has_work
    info = engine.build_plan(host, "default", ["copilot"]).output["copilot"].mcp
    rows = {r.name: r for r in info.servers}
    assert rows["github"].enabled and rows["github"].reason == "operator-enabled"
    assert not rows["memory"].enabled and rows["memory"].reason == "operator-disabled"


def test_hand_removed_entry_is_kept_and_reported_not_a_conflict(host):
    _apply(host)
    p = target_home(host, "copilot") / "settings.json"
    data = _settings(host)
    data["disabledMcpServers"] = []
    p.write_text(json.dumps(data, indent=2))
    for _ in range(2):
        plan = engine.build_plan(host, "default", ["copilot"])
        it = _item(plan, "disabledMcpServers: github")
        assert it.cls == "hand-edited", it.reason
        engine.apply_plan(host, plan)
    assert _settings(host)["disabledMcpServers"] == []


def test_app_toggle_on_withdraws_our_name(host):
    _apply(host)
    plan = engine.build_plan(host, "default", ["copilot"],
                             overrides={"mcp_enabled": {"copilot": {"github": True}}})
    # 16.1: our member leaves; agentdeck created the list, so an emptied list goes with it
    it = _item(plan, "disabledMcpServers: github")
    assert it.cls == "remove"
    engine.apply_plan(host, plan)
    assert "disabledMcpServers" not in _settings(host)


def test_operator_servers_are_disabled_but_never_touched(host):
    home = target_home(host, "copilot")
    home.mkdir()
    (home / "mcp-config.json").write_text(json.dumps({"mcpServers": {
        "mine": {"type": "local", "command": "mine-mcp", "args": [], "env": {"K": GH_TOKEN}}}}))
    os.chmod(home / "mcp-config.json", 0o644)
    plan = engine.build_plan(host, "default", ["copilot"])
    info = plan.output["copilot"].mcp
    rows = {r.name: r for r in info.servers}
    assert rows["mine"].origin == "operator" and rows["mine"].secret
    assert rows["mine"].reason == "default-disabled" and not rows["mine"].enabled
    assert rows["memory"].reason == "always-enabled" and rows["memory"].enabled
    assert rows["github"].reason == "default-disabled"
    assert any("consider chmod 600" in n.message for n in plan.notices["copilot"])
    engine.apply_plan(host, plan)
    data = json.loads((home / "mcp-config.json").read_text())
    assert data["mcpServers"]["mine"] == {"type": "local", "command": "mine-mcp", "args": [],
                                         "env": {"K": GH_TOKEN}}
    assert _settings(host)["disabledMcpServers"] == ["github", "mine"]


def test_dropped_profile_server_leaves_config_and_list(host, monkeypatch):
    _apply(host)
    from agentdeck.core import profiles
    real = profiles.resolve

    def without_github(h, name):
        p = real(h, name)
        p.mcp_servers.pop("github")
        return p
    monkeypatch.setattr(profiles, "resolve", without_github)
    plan = engine.build_plan(host, "default", ["copilot"])
    classes = {i.label: i.cls for i in plan.items if i.cls != "noop"}
    # the compiled policy names the servers whose `<server>-<tool>` names Copilot sends
    # (and the wrapper, sealed with the policy's digest: core/seal.py)
    assert classes == {"MCP server github": "remove", "disabledMcpServers: github": "remove",
                       "compiled policy": "update", "hook wrapper": "update"}
    engine.apply_plan(host, plan)
    assert "github" not in json.loads((target_home(host, "copilot") / "mcp-config.json").read_text())["mcpServers"]
    assert "disabledMcpServers" not in _settings(host)     # 16.1: agentdeck's list, emptied
    assert not engine.build_plan(host, "default", ["copilot"]).has_work


def test_secret_server_makes_mcp_config_0600(host, monkeypatch):
    from agentdeck.core import profiles
    real = profiles.resolve

    def with_secret(h, name):
        p = real(h, name)
        p.mcp_servers["leaky"] = srv(type="http", url="https://x.example",
                                     headers={"Authorization": f"Bearer {GH_TOKEN}"})
        return p
    monkeypatch.setattr(profiles, "resolve", with_secret)
    plan = engine.build_plan(host, "default", ["copilot"])
    it = _item(plan, "MCP server leaky")
    assert it.secret and any("literal credential" in w for w in it.warnings)
    engine.apply_plan(host, plan)
    assert os.stat(target_home(host, "copilot") / "mcp-config.json").st_mode & 0o777 == 0o600


# ---- 16.1: our names are members of the operator's list ---------------------------------------

def _write_settings(host, data):
    target_home(host, "copilot").mkdir(parents=True, exist_ok=True)
    (target_home(host, "copilot") / "settings.json").write_text(json.dumps(data, indent=2) + "\n")


def _uninstall(host):
    res = engine.apply_plan(host, engine.build_uninstall_plan(host, ["copilot"]))
    assert res.ok, res.leftover


def test_default_disabled_joins_the_operators_own_list(host):
    _write_settings(host, {"disabledMcpServers": ["playwright"]})
    plan = engine.build_plan(host, "default", ["copilot"])
    assert _item(plan, "disabledMcpServers: github").cls == "create"
    rows = {r.name: r for r in plan.output["copilot"].mcp.servers}
    assert rows["github"].reason == "default-disabled" and not rows["github"].enabled
    engine.apply_plan(host, plan)
    assert _settings(host)["disabledMcpServers"] == ["playwright", "github"]
    assert not engine.build_plan(host, "default", ["copilot"]).has_work


def test_uninstall_removes_only_ours_and_keeps_what_the_operator_added_since(host):
    _write_settings(host, {"disabledMcpServers": ["playwright"]})
    _apply(host)
    data = _settings(host)
    data["disabledMcpServers"].append("later")          # the operator, after agentdeck
    (target_home(host, "copilot") / "settings.json").write_text(json.dumps(data, indent=2) + "\n")
    _uninstall(host)
    assert _settings(host)["disabledMcpServers"] == ["playwright", "later"]


def test_a_name_the_operator_removed_is_never_re_added_nor_re_enabled(host):
    _apply(host)
    data = _settings(host)
    data["disabledMcpServers"] = ["mine"]                # github taken out by hand, mine added
    (target_home(host, "copilot") / "settings.json").write_text(json.dumps(data, indent=2) + "\n")
    for _ in range(2):
        plan = engine.build_plan(host, "default", ["copilot"])
        assert _item(plan, "disabledMcpServers: github").cls == "hand-edited"
        engine.apply_plan(host, plan)
    assert _settings(host)["disabledMcpServers"] == ["mine"]
    _uninstall(host)
    assert _settings(host)["disabledMcpServers"] == ["mine"]    # not restored to the old list


def test_a_name_that_was_there_before_agentdeck_stays_the_operators(host):
    _write_settings(host, {"disabledMcpServers": ["github"]})
    plan = engine.build_plan(host, "default", ["copilot"])
    assert not [i for i in plan.items if i.label.startswith("disabledMcpServers")]
    engine.apply_plan(host, plan)
    _uninstall(host)
    assert _settings(host)["disabledMcpServers"] == ["github"]


def test_member_match_is_exact_for_names():
    from agentdeck.core.plan import find_member, without_member
    assert find_member(["github-mcp-server", "github"], "github") == (1, "github")
    assert without_member(["github-mcp-server"], "github") == ["github-mcp-server"]


def test_a_whole_list_record_from_before_is_read_as_members(host):
    """A manifest written before 16.1 recorded the list as one value with meta.contributed."""
    _write_settings(host, {"disabledMcpServers": ["playwright"]})
    _apply(host)
    mpath = target_home(host, "copilot") / ".agentdeck-managed.json"
    man = json.loads(mpath.read_text())
    ours = [e for e in man["entries"] if e.get("member") == "github"]
    assert len(ours) == 1
    legacy = dict(ours[0], value=["playwright", "github"], prior=["playwright"],
                  meta={"contributed": ["github"]}, label="disabledMcpServers")
    legacy.pop("member")
    from agentdeck.core.manifest import canonical
    legacy["fingerprint"] = canonical(legacy["value"])
    man["entries"] = [e for e in man["entries"] if e is not ours[0]] + [legacy]
    mpath.write_text(json.dumps(man, indent=2))
    data = _settings(host)
    data["disabledMcpServers"].append("later")
    (target_home(host, "copilot") / "settings.json").write_text(json.dumps(data, indent=2) + "\n")
    plan = engine.build_plan(host, "default", ["copilot"])
    assert not plan.has_changes, [(i.label, i.cls) for i in plan.items if plan.action(i) != "none"]
    _uninstall(host)
    assert _settings(host)["disabledMcpServers"] == ["playwright", "later"]
