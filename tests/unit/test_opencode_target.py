"""What is special about OpenCode (docs/facts/opencode.md): its home in the XDG config folder,
agentdeck's plugin as the guard (run here with node: it asks the wrapper, throws on a deny and
when the wrapper cannot run), opencode.json's "$schema", MCP servers switched off with
"enabled": false and `${VAR}` written as OpenCode's `{env:VAR}`, and `policy show` naming the
plugin. The real CLI: tests/clients/test_opencode_real.py."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from agentdeck.core import engine, profiles
from agentdeck.core.formats.jsonc import JsonDoc
from agentdeck.core.host import Host
from agentdeck.core.policy.enforcement import describe
from agentdeck.core.policy.compiled import policy_of
from agentdeck.core.targets.opencode import SPEC
from agentdeck.core.targets.opencode import plugin
from tests.ci_rule import missing_tool

T = SPEC.name


def test_the_home_is_in_the_xdg_config_folder(tmp_path):
    host = Host.from_environment(tmp_path / "h", env={})
    assert SPEC.home(host) == host.home / ".config" / "opencode"
    host.env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")
    assert SPEC.home(host) == tmp_path / "xdg" / "opencode"


def test_the_plan_writes_the_plugin_schema_and_switched_off_servers(ghost):
    plan = engine.build_plan(ghost, "default", [T])
    assert engine.apply_plan(ghost, plan).ok
    home = SPEC.home(ghost)
    text = (home / "plugins" / plugin.PLUGIN_NAME).read_text()
    assert json.dumps(str(home / "agentdeck-hook.sh")) in text and "throw new Error" in text
    cfg = JsonDoc.parse((home / "opencode.json").read_text()).data
    assert cfg["$schema"] == "https://opencode.ai/config.json"
    assert cfg["mcp"]["github"]["enabled"] is False            # default-disabled
    assert "enabled" not in cfg["mcp"]["memory"]               # always enabled
    assert cfg["mcp"]["github"]["headers"]["Authorization"] == "Bearer {env:GITHUB_TOKEN}"
    assert cfg["mcp"]["memory"]["command"][0] == "npx"


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        missing_tool("node is not installed")
    return node or ""


@pytest.mark.parametrize("wrapper,exit_code,thrown", [
    ("allow", 0, None),
    ("deny", 2, "no reading keys"),
    ("crash", 1, "denied (the guard exited 1)"),
    ("missing", None, "the guard could not run"),
    ("early", 2, "no reading keys"),
])
def test_the_plugin_throws_unless_the_wrapper_allows(tmp_path, wrapper, exit_code, thrown):
    """The plugin as OpenCode loads it (an ES module), with a stand-in wrapper: exit 0 lets the
    call go on, any other exit throws (exit 2 with the handler's reason, also when the wrapper
    answers without reading the call: node then reports EPIPE beside the exit status), and a
    wrapper that cannot be started throws too (fails closed). The stand-in records the payload it got."""
    node = _node()
    w = tmp_path / "agentdeck-hook.sh"
    got = tmp_path / "payload.json"
    if wrapper == "early":     # answers without reading its stdin (its fail-closed path)
        w.write_text("#!/bin/sh\necho 'no reading keys' >&2\nexit 2\n")
        w.chmod(0o755)
    elif exit_code is not None:
        say = "echo 'no reading keys' >&2; " if exit_code == 2 else ""
        w.write_text(f"#!/bin/sh\ncat > {got}\necho \"$1\" > {got}.event\n{say}exit {exit_code}\n")
        w.chmod(0o755)
    mod = tmp_path / "agentdeck.mjs"
    mod.write_text(plugin.render(w))
    driver = tmp_path / "drive.mjs"
    driver.write_text(
        f"import {{ AgentdeckGuard }} from {json.dumps(str(mod))};\n"
        "const hooks = await AgentdeckGuard({directory: '/work', worktree: '/work'});\n"
        "try { await hooks['tool.execute.before']({tool: 'read', sessionID: 'ses_1', callID: "
        "'call_1'}, {args: {filePath: '/k'}}); console.log('ALLOWED'); }\n"
        "catch (e) { console.log('THROWN ' + e.message); }\n")
    r = subprocess.run([node, str(driver)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    if thrown is None:
        assert r.stdout.strip() == "ALLOWED"
    else:
        assert r.stdout.startswith("THROWN") and thrown in r.stdout, r.stdout
    if exit_code is not None and wrapper != "early":
        assert json.loads(got.read_text()) == {
            "hook_event_name": "tool.execute.before", "session_id": "ses_1", "call_id": "call_1",
            "tool_name": "read", "tool_input": {"filePath": "/k"}, "cwd": "/work",
            "worktree": "/work"}
        assert Path(f"{got}.event").read_text().strip() == plugin.WRAPPER_EVENT


def test_policy_show_names_the_plugin_and_says_prompts_are_not_seen(host):
    pol = policy_of(profiles.resolve(host, "default"))
    d = describe(pol, T)
    assert d["paths"] and all(e["channel"] == "plugin" for p in d["paths"]
                              for e in p["enforced_by"])
    prompt_rule = {**pol, "rules": [{"id": "p", "tool": "prompt", "match": "x",
                                     "decision": "deny"}]}
    ch = describe(prompt_rule, T)["rules"][0]["channels"][0]
    assert ch["how"].startswith("not enforced") and ch["event"] == ""
