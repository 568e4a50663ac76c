"""The org layer's MCP lists with the real CLIs: `agentdeck org apply` as root, with a profile
whose [org] denies or allows MCP servers, inside a private mount namespace (the machine's /etc is
never written); then a real offline turn as an unprivileged user (nobody) whose home configures
the servers and tries to allow them back. The servers are tests/clients/mcp_start_marker.py, which
writes a marker the moment a CLI starts it: a denied server's marker stays absent, an allowed
one's is there (so the turn did start MCP servers)."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

import org_kit
import private_etc
from agentdeck.core.targets import registry

pytestmark = [pytest.mark.clients,
              pytest.mark.skipif(not private_etc.unshare_works(),
                                 reason="needs root and unshare -m -n (a private mount namespace)")]

AGENTDECK = str(Path(sys.executable).parent / "agentdeck")
ROOT_HOME = "--home {base}/roothome"
SERVER = (Path(__file__).with_name("mcp_start_marker.py")).read_text()
PROFILES = "roothome/.config/agentdeck/profiles"


def _server(name: str) -> dict:
    return {"command": "/usr/bin/python3", "args": ["{base}/home/mcp.py", "{work}/mcp-" + name]}


def _profile(org: str) -> dict[str, str]:
    """Root's profile `mcporg`: the default one, [org] as given, and `allowed` defined in its
    mcp.json (Codex names an allowed server by its command, taken from there)."""
    return {f"{PROFILES}/mcporg/profile.toml": f'[profile]\nextends = ["default"]\n\n{org}',
            f"{PROFILES}/mcporg/mcp.json": json.dumps(
                {"mcpServers": {"allowed": _server("allowed")}})}


def _user_servers(target: str, names: tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
    """(files, flags) of the user: their own MCP configuration (every server in it), and their
    attempt to allow the denied one back, in their settings or for one run. Each CLI's own
    recipe: a target whose org layer gains an MCP list needs one here."""
    files = {"home/mcp.py": SERVER}
    if target == "claude":
        files["home/.claude/.claude.json"] = json.dumps(
            {"mcpServers": {n: {"type": "stdio", **_server(n)} for n in names}})
        files["home/.claude/settings.json"] = json.dumps(
            {"allowedMcpServers": [{"serverName": n} for n in names], "deniedMcpServers": []})
        return files, ["--setting-sources", "user"]
    if target == "codex":
        files["home/.codex/config.toml"] = "".join(
            f"[mcp_servers.{n}]\ncommand = \"/usr/bin/python3\"\n"
            f"args = {json.dumps(_server(n)['args'])}\nenabled = true\n" for n in names)
        return files, ["-c", "mcp_servers.denied.enabled=true"]
    if target == "copilot":
        files["home/.copilot/mcp-config.json"] = json.dumps(
            {"mcpServers": {n: {"type": "local", "tools": ["*"], **_server(n)} for n in names}})
        files["home/.copilot/settings.json"] = json.dumps(
            {"allowedMcpServers": [{"serverName": n} for n in names], "deniedMcpServers": []})
        return files, []
    if target == "gemini":              # the user's own settings name both servers allowed and
        files["home/.gemini/settings.json"] = json.dumps(    # none excluded
            {**org_kit.GEMINI_AUTH, "mcpServers": {n: _server(n) for n in names},
             "mcp": {"allowed": list(names), "excluded": []}})
        return files, []
    if target == "opencode":            # the user's own opencode.json: both servers, enabled
        files[f"{org_kit.OPENCODE_HOME}/opencode.json"] = json.dumps(
            {"mcp": {n: {"type": "local", "enabled": True,
                         "command": [_server(n)["command"], *_server(n)["args"]]}
                     for n in names}})
        return files, []
    raise AssertionError(f"no recipe for {target}'s user MCP configuration in this test")


#: the command-line flag a CLI's org facts name as undoing its org MCP lists on one run (a stated
#: limit), by target: the test below proves the limit is real
RUN_FLAG = "--allowed-mcp-server-names"


def _org_lists(key: str) -> list[str]:
    """The targets whose org layer has `key` (mcp_denied, mcp_allowed): their org part's
    facts name the layer's key for it."""
    return [n for n in registry.NAMES if registry.has_part(n, "org")
            and key in registry.part(n, "org").FACTS.keys]


def _turn(target: str, clients, org: str, more: tuple[str, ...] = ()
          ) -> tuple[dict, dict[str, bool]]:
    names = ("denied", "allowed")
    mine, flags = _user_servers(target, names)
    flags = [*flags, *more]
    files = {**_profile(org), **mine}
    apply = f"{AGENTDECK} org apply --yes -p mcporg {ROOT_HOME}"
    plan = f"{AGENTDECK} org plan -p mcporg {ROOT_HOME}"
    res = org_kit.turn(target, clients, command="echo hi > {work}/marker", user_files=files,
                       extra_args=flags, pre=[apply, plan], keep=True)
    try:
        base = Path(res["base"])
        started = {n: (base / "work" / f"mcp-{n}").exists() for n in names}
    finally:
        shutil.rmtree(res["base"], ignore_errors=True)
    return res, started


def _check(res: dict) -> None:
    assert "error" not in res, res
    applied, plan = res["pre"]
    assert applied["rc"] == 0, applied
    assert plan["rc"] == 0 and "Everything is in sync" in plan["out"], plan   # empty after apply
    assert not res["timed_out"] and res["marker"], f"{res['stdout']}\n{res['stderr']}"


@pytest.mark.parametrize("target", _org_lists("mcp_denied"))
def test_a_denied_mcp_server_does_not_start_under_the_org_layer(clients, need, target):
    need(target)
    # "ghost" is configured nowhere: a name the user does not have must not break the layer
    res, started = _turn(target, clients, '[org]\nmcp_denied = ["denied", "ghost"]\n')
    _check(res)
    assert started == {"denied": False, "allowed": True}, (started, res["stderr"][-2000:])


@pytest.mark.parametrize("target", _org_lists("mcp_allowed"))
def test_only_an_allowed_mcp_server_starts_under_the_org_layer(clients, need, target):
    need(target)
    res, started = _turn(target, clients, '[org]\nmcp_allowed = ["allowed"]\n')
    _check(res)
    assert started == {"denied": False, "allowed": True}, (started, res["stderr"][-2000:])


@pytest.mark.parametrize("target", [t for t in _org_lists("mcp_allowed")
                                    if t not in _org_lists("mcp_denied")])
def test_a_layer_with_no_denylist_says_so_and_the_server_starts(clients, need, target):
    """The control for a layer with an allowlist only (Codex's requirements.toml): a denylist
    alone is a note in the plan, and the server starts."""
    need(target)
    res, started = _turn(target, clients, '[org]\nmcp_denied = ["denied"]\n')
    _check(res)
    assert "no MCP denylist" in res["pre"][0]["out"]
    assert started == {"denied": True, "allowed": True}, started


def test_org_uninstall_gives_copilot_s_managed_settings_back_byte_for_byte(clients, need):
    need("copilot")
    mine = '{\n  "model": "gpt-5.4"\n}\n'
    ms = "/etc/github-copilot/managed-settings.json"
    profile = _profile('[org]\nmcp_denied = ["denied"]\n')
    write = " && ".join(
        f"mkdir -p {{base}}/{Path(rel).parent} && printf '%s' '{text}' > {{base}}/{rel}"
        for rel, text in profile.items() if rel.endswith(".toml"))
    res = org_kit.as_root(clients, [
        write, f"sha256sum {ms}",
        f"{AGENTDECK} org apply --yes -t copilot -p mcporg {ROOT_HOME}", f"cat {ms}",
        f"{AGENTDECK} org uninstall --yes -t copilot {ROOT_HOME}", f"sha256sum {ms}"],
        system_files={ms: {"text": mine}})
    wrote, before, applied, during, removed, after = res["pre"]
    assert wrote["rc"] == 0 and applied["rc"] == 0 and removed["rc"] == 0, res["pre"]
    assert json.loads(during["out"]) == {"model": "gpt-5.4",
                                         "deniedMcpServers": [{"serverName": "denied"}]}
    assert before["out"] == after["out"]


@pytest.mark.parametrize("target", [t for t in _org_lists("mcp_denied")
                                    if RUN_FLAG in registry.part(t, "org").FACTS.undone_by])
def test_the_run_flag_the_facts_name_does_undo_the_org_mcp_lists(clients, need, target):
    """The limit the org facts state, tried: the user names both servers on the command line,
    and the denied one starts. If this fails, the CLI closed the gap: drop the limit."""
    need(target)
    res, started = _turn(target, clients, '[org]\nmcp_denied = ["denied"]\n',
                         more=(RUN_FLAG, "denied,allowed"))
    _check(res)
    assert started == {"denied": True, "allowed": True}, (started, res["stderr"][-2000:])
