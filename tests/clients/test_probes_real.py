"""The facts in core/facts, checked against the real CLIs through the live probes.

Each test writes config by hand into a scratch home and asks the installed CLI what it loaded.
Every hook command is `touch <canary>`: a probe that ran a hook would leave the canary behind.
"""
from __future__ import annotations

import json
import os
import re
import time
from collections import Counter
from functools import partial
from pathlib import Path

import pytest

from agentdeck.core.targets import registry

from agentdeck.core.doctor.probes import ProbeResult, run_all
from agentdeck.core.targets.claude.probes import claude_doctor
from agentdeck.core.targets.codex.probes import hooks_list as codex_hooks_list
from agentdeck.core.targets.codex.probes import mcp_list as codex_mcp_list
from agentdeck.core.targets.codex.probes import startup_config as codex_startup_config
from agentdeck.core.targets.copilot.probes import hooks_discover as copilot_hooks_discover
from agentdeck.core.targets.copilot.probes import mcp_list as copilot_mcp_list
from agentdeck.core.facts import FACTS_BY_TARGET
from agentdeck.core.targets.claude.facts import CLAUDE
from agentdeck.core.targets.codex.facts import CODEX, codex_hook_state_key, codex_trusted_hash
from agentdeck.core.targets.copilot.facts import COPILOT, copilot_disable_key
from agentdeck.core.facts.versions import cli_version, in_verified_range
from agentdeck.core.host import Host
from tests.target_homes import target_home

pytestmark = pytest.mark.clients


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _ok(res: ProbeResult) -> ProbeResult:
    assert res.skipped_reason is None, res.skipped_reason
    assert res.ok, f"{res.target} {res.probe}: {res.error}"
    return res


@pytest.fixture
def canary(tmp_path) -> Path:
    return tmp_path / "canary-hook-ran"


# ---- versions ----------------------------------------------------------------------------------
@pytest.mark.clients
@pytest.mark.parametrize("target", registry.NAMES)
def test_installed_version_is_the_verified_one(scratch_env, need, target):
    need(target)
    version = cli_version(scratch_env, target)
    assert version == FACTS_BY_TARGET[target].verified_versions[1]
    assert in_verified_range(target, version)


# ---- Copilot: hooks.discover and disable keys ------------------------------------------------
@pytest.mark.clients
def test_copilot_disable_keys_match_the_cli(scratch_env, need, canary):
    need("copilot")
    touch = f"touch {canary}"
    hooks = {
        "sessionStart": [{"type": "command", "bash": touch}],
        "preToolUse": [
            {"type": "command", "bash": touch, "timeoutSec": 30},
            {"type": "command", "command": touch},                      # -> bash + powershell
            {"type": "command", "bash": touch, "powershell": "echo ps", "cwd": "/tmp",
             "env": {"B": "2", "A": "1"}, "timeoutSec": 7, "matcher": "bash|edit"},
            # same fields written in another order: the key follows Copilot's order, not ours
            {"matcher": "x", "timeoutSec": 2.5, "env": {"A": "1"}, "cwd": "/tmp",
             "powershell": "echo p", "bash": touch + " ü", "type": "command"},
            {"type": "command", "bash": touch, "timeout": 9},          # alias of timeoutSec
            {"type": "command", "bash": touch + " #ts", "timeoutSeconds": 9},  # silently ignored
            {"bash": touch + " #notype", "unknownKey": 1},
            {"type": "command", "exec": "/usr/bin/touch", "args": [str(canary)], "timeoutSec": 3},
            {"type": "http", "url": "https://example.invalid/hook", "headers": {"X": "1"},
             "timeoutSec": 2},
        ],
        # matcher is dropped on events that ignore it
        "postToolUseFailure": [{"type": "command", "bash": touch, "matcher": "bash"}],
        "agentStop": [{"type": "command", "bash": touch, "timeoutSec": 5}],
        # Claude-style group, one level deep: the group matcher moves into the action
        "postToolUse": [{"matcher": "edit", "hooks": [{"type": "command", "command": touch,
                                                       "timeout": 3}]}],
        "notification": [{"type": "command", "bash": touch, "timeoutSec": -1}],  # skipped
    }
    _write(target_home(scratch_env, "copilot") / "hooks" / "agentdeck.json",
           json.dumps({"version": 1, "hooks": hooks}))
    res = _ok(copilot_hooks_discover(scratch_env))

    expected = []
    for event, entries in hooks.items():
        for i, entry in enumerate(entries):
            if event == "notification":
                continue
            actions = entry["hooks"] if "hooks" in entry else [entry]
            for a in actions:
                if "hooks" in entry:
                    a = {**a, "matcher": entry["matcher"]}
                expected.append((event, copilot_disable_key(event, a)))
    got = [(h["hookType"], h["disableKey"]) for h in res.data["hooks"]]
    assert Counter(got) == Counter(expected)
    assert copilot_disable_key("sessionStart", {"type": "command", "bash": "echo hi"}).startswith(
        "48084ce6")
    assert any("timeoutSec must be positive" in e for e in res.data["errors"])
    assert all(h["origin"] == "user" and h["enabled"] for h in res.data["hooks"])
    assert not canary.exists(), "hooks.discover ran a hook"


@pytest.mark.clients
def test_copilot_event_names_aliases_and_dropped_names(scratch_env, need, canary):
    need("copilot")
    hooks = {}
    for alias in COPILOT.pascal_aliases:
        hooks[alias] = [{"type": "command", "bash": f"touch {canary} #{alias}"}]
    for name in COPILOT.dropped_event_names + COPILOT.callback_only_events + ("bogusEvent",):
        hooks[name] = [{"type": "command", "bash": f"touch {canary} #{name}"}]
    for name in COPILOT.hook_events:
        hooks[name] = [{"type": "command", "bash": f"touch {canary} #{name}"}]
    _write(target_home(scratch_env, "copilot") / "hooks" / "names.json", json.dumps({"hooks": hooks}))
    res = _ok(copilot_hooks_discover(scratch_env))
    got = Counter((h["hookType"], h["disableKey"]) for h in res.data["hooks"])
    expected = Counter()
    for alias, event in COPILOT.pascal_aliases.items():
        expected[(event, copilot_disable_key(alias, hooks[alias][0]))] += 1
    for name in COPILOT.hook_events:
        expected[(name, copilot_disable_key(name, hooks[name][0]))] += 1
    assert got == expected                       # dropped and callback-only names: not loaded
    assert not res.data["errors"]
    assert not canary.exists()


@pytest.mark.clients
def test_copilot_disabled_hooks_and_project_paths(scratch_env, need, canary, tmp_path):
    need("copilot")
    a1 = {"type": "command", "bash": f"touch {canary} #1"}
    a2 = {"type": "command", "bash": f"touch {canary} #2", "timeoutSec": 10}
    _write(target_home(scratch_env, "copilot") / "hooks" / "h.json",
           json.dumps({"hooks": {"preToolUse": [a1, a2]}}))
    _write(target_home(scratch_env, "copilot") / "settings.json",
           '// JSONC\n{"disabledHooks": ["%s"]}\n' % copilot_disable_key("preToolUse", a1))
    res = _ok(copilot_hooks_discover(scratch_env, project_paths=[str(tmp_path)]))
    enabled = {h["disableKey"]: h["enabled"] for h in res.data["hooks"]}
    assert enabled == {copilot_disable_key("preToolUse", a1): False,
                       copilot_disable_key("preToolUse", a2): True}
    # a changed timeout is a new key: the operator's disable no longer applies
    assert copilot_disable_key("preToolUse", {**a1, "timeoutSec": 5}) not in enabled
    assert not canary.exists()


@pytest.mark.clients
def test_copilot_discover_and_disable_all_hooks(scratch_env, need, canary):
    need("copilot")
    _write(target_home(scratch_env, "copilot") / "hooks" / "h.json",
           json.dumps({"hooks": {"sessionStart": [{"bash": f"touch {canary}"}]}}))
    _write(target_home(scratch_env, "copilot") / "settings.json", '{"disableAllHooks": true}')
    [row] = _ok(copilot_hooks_discover(scratch_env)).data["hooks"]
    assert row["enabled"] is not COPILOT.discover_applies_disable_all
    assert "disableKey" in row
    assert not canary.exists()


@pytest.mark.clients
def test_copilot_settings_keys_are_the_clis(scratch_env, need):
    need("copilot")
    doc = {k: None for k in sorted(COPILOT.settings_keys)}
    doc.update({k: None for k in COPILOT.settings_legacy_aliases})
    doc.update({"trustedFolders": [], "agentdeckNotASetting": 1})
    _write(target_home(scratch_env, "copilot") / "settings.json", json.dumps(doc))
    res = _ok(copilot_hooks_discover(scratch_env))
    pattern = re.compile(COPILOT.unknown_settings_warning)
    found = [m for w in res.data["settings_warnings"] if (m := pattern.search(w))]
    assert found, res.data["settings_warnings"]
    unknown = set(re.findall(r'"([^"]+)"', found[0].group("keys")))
    assert unknown == {"trustedFolders", "agentdeckNotASetting"}
    assert found[0].group("path") == str(target_home(scratch_env, "copilot") / "settings.json")


@pytest.mark.clients
def test_copilot_invalid_settings_value_is_logged(scratch_env, need):
    need("copilot")
    _write(target_home(scratch_env, "copilot") / "settings.json", '{"disableAllHooks": "no", "model": "x"}')
    res = _ok(copilot_hooks_discover(scratch_env))
    assert any("couldn't be loaded" in w and "disableAllHooks: Expected boolean" in w
               for w in res.data["settings_warnings"]), res.data["settings_warnings"]
    # and the whole file is ignored, not just the bad key
    listed = scratch_env.run([scratch_env.which("copilot"), "config", "--list", "--json"],
                             timeout=30)
    assert json.loads(listed.stdout) == {}


@pytest.mark.clients
def test_copilot_mcp_list(scratch_env, need):
    need("copilot")
    servers = {
        "loc": {"type": "local", "command": "node", "args": ["server.js"], "tools": ["*"]},
        "web": {"type": "http", "url": "https://example.invalid/mcp", "tools": ["*"]},
        "events": {"type": "sse", "url": "https://example.invalid/sse"},
        "badtype": {"type": "weird", "command": "x"},
        "nourl": {"type": "http"},
        "badargs": {"type": "stdio", "command": "y", "args": "not-an-array"},
    }
    _write(target_home(scratch_env, "copilot") / "mcp-config.json", json.dumps({"mcpServers": servers}))
    _write(target_home(scratch_env, "copilot") / "settings.json", '{"disabledMcpServers": ["loc"]}')
    res = _ok(copilot_mcp_list(scratch_env))
    listed = res.data["mcpServers"]
    assert set(listed) == {"loc", "web", "events"}          # bad entries silently omitted
    assert listed["loc"]["enabled"] is False and listed["web"]["enabled"] is True
    assert listed["events"]["tools"] == list(COPILOT.mcp_default_tools)
    assert {s["type"] for s in listed.values()} <= set(COPILOT.mcp_transports)

    _write(target_home(scratch_env, "copilot") / "mcp-config.json", '{"mcpServers": {')
    bad = copilot_mcp_list(scratch_env)
    assert not bad.ok and "mcpServers: Required" in bad.error   # the misleading message


# ---- Codex: hooks/list, trust hashes, state keys ----------------------------------------------
def _codex_rows(host: Host, cwd: Path) -> list[dict]:
    res = _ok(codex_hooks_list(host, [str(cwd)]))
    [entry] = res.data["data"]
    assert not entry["errors"], entry["errors"]
    return entry["hooks"]


@pytest.mark.clients
def test_codex_trust_hashes_and_state_keys(scratch_env, need, canary, tmp_path):
    need("codex")
    touch = f"touch {canary}"
    groups = {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": touch + " #pre", "timeout": 5},
            {"type": "command", "command": touch + " #pre2", "statusMessage": "checking"},
        ]}, {"matcher": "", "hooks": [{"type": "command", "command": touch + " #é"}]}],
        "SessionEnd": [{"hooks": [{"type": "command", "command": touch + " #end",
                                   "timeoutSec": 30}]}],     # ignored: default 1 s applies
        "UserPromptSubmit": [{"matcher": "ignored", "hooks": [
            {"type": "command", "command": touch + " #ups", "async": True}]}],
        "Stop": [{"hooks": [{"type": "command", "command": touch + " #stop", "timeout": 0}]}],
    }
    hooks_json = _write(target_home(scratch_env, "codex") / "hooks.json", json.dumps({"hooks": groups}))
    source = str(hooks_json.resolve())
    expected = {}
    for event, gs in groups.items():
        for gi, g in enumerate(gs):
            for hi, h in enumerate(g["hooks"]):
                key = codex_hook_state_key(source, event, gi, hi)
                expected[key] = codex_trusted_hash(event, g.get("matcher"), [h])

    rows = _codex_rows(scratch_env, tmp_path)
    assert {r["key"]: r["currentHash"] for r in rows} == expected
    assert {r["trustStatus"] for r in rows} == {"untrusted"}
    by_cmd = {r["command"]: r for r in rows}
    assert by_cmd[touch + " #end"]["timeoutSec"] == CODEX.default_timeout("SessionEnd") == 1
    assert by_cmd[touch + " #pre2"]["timeoutSec"] == CODEX.default_timeout_sec == 600
    assert by_cmd[touch + " #ups"]["matcher"] is None          # not a matcher event
    assert by_cmd[touch + " #stop"]["timeoutSec"] == CODEX.timeout_min_sec

    # trust all but one, and pre-trust another with a stale hash
    keys = sorted(expected)
    stale, untrusted = keys[0], keys[1]
    state = "".join(
        f'\n[hooks.state."{k}"]\ntrusted_hash = "{"sha256:" + "0" * 64 if k == stale else h}"\n'
        for k, h in expected.items() if k != untrusted)
    _write(target_home(scratch_env, "codex") / "config.toml", 'model = "gpt-5"\n' + state)
    status = {r["key"]: r["trustStatus"] for r in _codex_rows(scratch_env, tmp_path)}
    assert status.pop(stale) == "modified"
    assert status.pop(untrusted) == "untrusted"
    assert set(status.values()) == {"trusted"}
    assert not canary.exists(), "hooks/list ran a hook"


@pytest.mark.clients
def test_codex_hooks_in_config_toml(scratch_env, need, canary, tmp_path):
    need("codex")
    config = _write(target_home(scratch_env, "codex") / "config.toml", (
        '[[hooks.SessionStart]]\nmatcher = "startup"\n'
        f'[[hooks.SessionStart.hooks]]\ntype = "command"\ncommand = "touch {canary}"\n'))
    [row] = _codex_rows(scratch_env, tmp_path)
    assert row["key"] == codex_hook_state_key(str(config.resolve()), "SessionStart", 0, 0)
    assert row["currentHash"] == codex_trusted_hash(
        "SessionStart", "startup", [{"type": "command", "command": f"touch {canary}"}])
    with config.open("a") as f:
        f.write(f'\n[hooks.state."{row["key"]}"]\ntrusted_hash = "{row["currentHash"]}"\n'
                "enabled = false\n")
    [row] = _codex_rows(scratch_env, tmp_path)
    assert row["trustStatus"] == "trusted" and row["enabled"] is False


@pytest.mark.clients
def test_codex_events_and_matcher_events(scratch_env, need, canary, tmp_path):
    need("codex")
    names = CODEX.hook_events + ("PostToolUseFailure", "Notification", "preToolUse", "Bogus")
    _write(target_home(scratch_env, "codex") / "hooks.json", json.dumps({"hooks": {
        e: [{"matcher": "m", "hooks": [{"type": "command", "command": f"touch {canary} #{e}"}]}]
        for e in names}}))
    rows = _codex_rows(scratch_env, tmp_path)
    loaded = {r["command"].rsplit("#", 1)[1]: r for r in rows}
    assert set(loaded) == set(CODEX.hook_events)               # the rest: dropped silently
    assert {e for e, r in loaded.items() if r["matcher"] == "m"} == set(CODEX.matcher_events)
    for e, r in loaded.items():
        assert r["timeoutSec"] == CODEX.default_timeout(e)


@pytest.mark.clients
def test_codex_startup_config(scratch_env, need):
    need("codex")
    config = _write(target_home(scratch_env, "codex") / "config.toml",
                    'model = "gpt-5"\n\n[mcp_servers.docs]\ncommand = "x"\nbogus_field = 1\n')
    bad = codex_startup_config(scratch_env)
    assert not bad.ok
    assert f"{config}:5:1" in bad.error and "bogus_field" in bad.error
    assert bad.data["error"]["data"]["line"] == 5 and bad.data["error"]["data"]["column"] == 1

    _write(target_home(scratch_env, "codex") / "config.toml", 'model = "gpt-5"\n')
    good = _ok(codex_startup_config(scratch_env))
    assert good.data["appServerVersion"] == CODEX.verified_versions[1]


@pytest.mark.clients
def test_codex_mcp_list(scratch_env, need):
    need("codex")
    _write(target_home(scratch_env, "codex") / "config.toml", (
        '[mcp_servers.local]\ncommand = "node"\nargs = ["s.js"]\nunknown_is_fine = 1\n'
        '[mcp_servers.remote]\nurl = "https://example.invalid/mcp"\n'
        'bearer_token_env_var = "TOKEN"\n'))
    res = _ok(codex_mcp_list(scratch_env))
    transports = {s["name"]: s["transport"]["type"] for s in res.data}
    assert transports == {"local": "stdio", "remote": "streamable_http"}
    assert set(transports.values()) <= set(CODEX.mcp_transports)

    _write(target_home(scratch_env, "codex") / "config.toml", '[mcp_servers.local]\ncommand = 3\n')
    bad = codex_mcp_list(scratch_env)
    assert not bad.ok and "mcp_servers.local.command" in bad.error


# ---- Claude ------------------------------------------------------------------------------------
@pytest.mark.clients
def test_claude_doctor_reports_unknown_hook_events(scratch_env, need, canary):
    need("claude")
    settings = _write(target_home(scratch_env, "claude") / "settings.json", json.dumps({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                                                      "command": f"touch {canary}"}]}],
        "SessionStart": [{"hooks": [{"type": "command", "command": f"touch {canary}"}]}],
        "preToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}],
        "Stop": [{"type": "command", "command": "flat-copilot-style"}],
    }}))
    res = _ok(claude_doctor(scratch_env))
    problems = {p["path"]: p for p in res.data["problems"]}
    assert set(problems) == {"hooks.preToolUse", "hooks.Stop.0"}
    assert problems["hooks.preToolUse"]["file"] == str(settings)
    msg = problems["hooks.preToolUse"]["message"]
    assert 'Unknown hook event "preToolUse" was ignored' in msg
    valid = msg.split("Valid events: ", 1)[1].split(", ")
    assert tuple(valid) == CLAUDE.hook_events
    assert not canary.exists(), "claude doctor ran a hook"


# ---- all together, timeouts, missing CLIs ----------------------------------------------------------
@pytest.mark.clients
def test_run_all_concurrently(scratch_env, need, tmp_path):
    need("copilot", "codex", "claude")
    probes = [partial(copilot_hooks_discover, project_paths=[str(tmp_path)]), copilot_mcp_list,
              codex_startup_config, partial(codex_hooks_list, cwds=[str(tmp_path)]),
              codex_mcp_list, claude_doctor]
    t0 = time.monotonic()
    results = run_all(scratch_env, probes)
    wall = time.monotonic() - t0
    assert [r.probe for r in results] == ["hooks.discover", "mcp list", "startup config",
                                          "hooks/list", "mcp list", "doctor"]
    assert all(r.ok for r in results), [(r.probe, r.error) for r in results if not r.ok]
    print("\n" + "\n".join(f"{r.target:8} {r.probe:15} {r.seconds:5.2f}s" for r in results)
          + f"\nwall {wall:.2f}s")


@pytest.mark.clients
def test_rpc_probe_times_out_and_kills_the_child(scratch_env, need):
    need("copilot")
    res = copilot_hooks_discover(scratch_env, timeout=0.01)
    assert not res.ok and "in time" in res.error
    assert res.seconds < 10
    assert _processes_with_env("COPILOT_HOME", str(target_home(scratch_env, "copilot"))) == []


@pytest.mark.clients
def test_rpc_probe_kills_a_hung_cli_and_its_children(tmp_path):
    """A CLI that ignores both the request and the end of its input: after the timeout and the
    grace period, the launcher AND its child are killed (no real CLI needed)."""
    bin_dir = tmp_path / "bin"
    fake = _write(bin_dir / "copilot", "#!/bin/sh\nsleep 300 &\nwait\n")
    fake.chmod(0o755)
    marker = f"probe-test-{os.getpid()}-{time.monotonic_ns()}"
    host = Host.from_environment(tmp_path, env={"PATH": f"{bin_dir}:/usr/bin:/bin",
                                                "AGENTDECK_TEST_MARKER": marker})
    res = copilot_hooks_discover(host, timeout=0.5)
    assert not res.ok and "in time" in res.error
    deadline = time.monotonic() + 5
    while _processes_with_env("AGENTDECK_TEST_MARKER", marker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_with_env("AGENTDECK_TEST_MARKER", marker) == []


def _processes_with_env(var: str, value: str) -> list[int]:
    """Live processes whose environment has var=value (Linux; [] elsewhere)."""
    needle = f"{var}={value}".encode()
    found = []
    for entry in (os.listdir("/proc") if os.path.isdir("/proc") else []):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/environ", "rb") as f:
                    if needle in f.read().split(b"\0"):
                        found.append(int(entry))
            except OSError:
                pass
    return found


@pytest.mark.clients
def test_missing_cli_is_reported_not_raised(tmp_path):
    host = Host.from_environment(tmp_path, env={"PATH": str(tmp_path / "empty")})
    results = run_all(host, [copilot_hooks_discover, copilot_mcp_list, codex_startup_config,
                             partial(codex_hooks_list, cwds=[]), codex_mcp_list, claude_doctor])
    for r in results:
        assert not r.ok and r.skipped_reason and "not installed" in r.skipped_reason
    assert cli_version(host, "codex") is None
