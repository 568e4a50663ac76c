"""OpenCode 1.18.33 for real: agentdeck's install in a scratch home, then real offline turns of
`opencode run` against tests/clients/scripted_model.py (the recipe is the drill part's,
core/targets/opencode/drill.py RUNNER): agentdeck's plugin runs the handler before each tool
call, a policy deny holds (the file is not read, the model sees the reason, the handler's audit
line is written), OPENCODE_PURE switches the plugin off (what the doctor reports), a
default-disabled MCP server is not started until it is switched on, the config file OpenCode
reads is left as agentdeck wrote it, `agentdeck drill` reports OpenCode ok, and uninstall gives
the home back byte for byte. Facts: docs/facts/opencode.md."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scripted_model import ScriptedModel

from agentdeck.core import doctor, engine
from agentdeck.core.targets.opencode import SPEC
from agentdeck.core.targets.opencode.drill import RUNNER, npm_stub
from agentdeck.core.targets.opencode.facts import OPENCODE

pytestmark = pytest.mark.clients

MARKER_SERVER = Path(__file__).with_name("mcp_start_marker.py")
T = SPEC.name


@pytest.fixture
def ohost(scratch_env, need, tmp_path):
    need(T)
    host = scratch_env
    # agentdeck-hook (the profile's handler) from this venv
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    home = SPEC.home(host)
    for rel, data in npm_stub().items():       # no start-up npm install (docs/facts section 1)
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_bytes(data)
    return host


def _turn(host, tmp_path: Path, model: ScriptedModel, prompt: str = "run it",
          env: dict | None = None):
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    port = model.url.rsplit(":", 1)[1]
    args = [a.replace("{prompt}", prompt) for a in (*RUNNER.args, *RUNNER.tail)]
    exe = next(str(Path(d) / SPEC.binary) for d in host.env["PATH"].split(os.pathsep)
               if (Path(d) / SPEC.binary).exists())
    run_env = {**host.env, **{k: v.replace("{port}", port) for k, v in RUNNER.env.items()},
               **(env or {})}
    return subprocess.run([exe, *args], env=run_env, cwd=work, capture_output=True, text=True,
                          timeout=150, stdin=subprocess.DEVNULL)


def _audit(host) -> list[dict]:
    p = host.state_dir / "audit.jsonl"
    return [json.loads(line) for line in p.read_text().splitlines()] if p.exists() else []


def _profile(host, name: str, mcp: dict) -> str:
    d = host.config_dir / "profiles" / name
    d.mkdir(parents=True)
    (d / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
    (d / "mcp.json").write_text(json.dumps({"mcpServers": mcp}))
    return name


def _keys(host) -> tuple[Path, Path]:
    ssh = host.home / ".ssh"
    ssh.mkdir(exist_ok=True)
    (ssh / "id_rsa").write_text("-----BEGIN PRIVATE KEY----- secret\n")
    (ssh / "id_rsa.pub").write_text("ssh-rsa AAAA public\n")
    return ssh / "id_rsa", ssh / "id_rsa.pub"


def test_the_plugin_asks_the_handler_and_a_deny_holds(ohost, tmp_path):
    host = ohost
    key, pub = _keys(host)
    # every MCP server of the default profile off: the turn does not wait for npx offline
    prof = _profile(host, "nomcp", {})
    assert engine.apply_plan(host, engine.build_plan(host, prof, [T])).ok
    plugin = SPEC.home(host) / OPENCODE.plugins_dir / "agentdeck.js"
    assert plugin.is_file()
    with ScriptedModel(command="", calls=[("read", {"filePath": str(key)}), f"cat {key}",
                                          f"cat {pub}"]) as m:
        r = _turn(host, tmp_path, m)
    assert r.returncode == 0, r.stderr[-3000:]
    results = m.tool_results()
    assert len(results) == 3, (results, r.stderr[-2000:])
    assert "private SSH keys" in results[0] and "secret" not in results[0], results[0]
    assert "private SSH keys" in results[1] and "secret" not in results[1], results[1]
    assert "ssh-rsa AAAA public" in results[2], results[2]
    audit = [a for a in _audit(host) if a.get("target") == T]
    assert [(a["event"], a["decision"], a.get("rule")) for a in audit] == [
        ("pre_tool_use", "deny", "ssh-private-keys"), ("pre_tool_use", "deny", "ssh-private-keys"),
        ("pre_tool_use", "allow", None)], audit
    assert audit[0]["dialect"] == "opencode" and audit[0]["tool_name"] == "read"
    assert audit[1]["tool_class"] == "shell" and audit[1]["session_id"].startswith("ses_")
    # the config file OpenCode read is left as agentdeck wrote it ("$schema" is there)
    plan = engine.build_plan(host, prof, [T])
    assert not plan.has_changes and plan.counts(T)["kept"] == 0, plan.counts(T)


def test_opencode_pure_switches_the_plugin_off(ohost, tmp_path):
    """The fact `policy show` and the doctor's opencode.plugin.environment state: under
    OPENCODE_PURE=1 no plugin runs, the denied read goes through and nothing is audited."""
    host = ohost
    key, _ = _keys(host)
    assert engine.apply_plan(host, engine.build_plan(host, _profile(host, "nomcp", {}), [T])).ok
    with ScriptedModel(command=f"cat {key}") as m:
        r = _turn(host, tmp_path, m, env={OPENCODE.pure_env: "1"})
    assert r.returncode == 0, r.stderr[-3000:]
    assert "secret" in m.tool_results()[0]
    assert not [a for a in _audit(host) if a.get("target") == T]
    host.env[OPENCODE.pure_env] = "1"
    found = [f for f in doctor.run(host, "nomcp", [T]) if f.check == "opencode.plugin.environment"]
    assert [f.result for f in found] == ["error"], found


def test_a_default_disabled_server_is_not_started_until_switched_on(ohost, tmp_path):
    host = ohost
    marker = tmp_path / "marker.txt"
    prof = _profile(host, "probe", {"probe": {"command": sys.executable,
                                              "args": [str(MARKER_SERVER), str(marker)]}})
    plan = engine.build_plan(host, prof, [T])
    servers = {s.name: s for s in plan.output[T].mcp.servers}
    assert servers["probe"].reason == "default-disabled"
    assert engine.apply_plan(host, plan).ok
    cfg = json.loads("\n".join(line for line in (SPEC.home(host) / "opencode.json").read_text()
                               .splitlines() if not line.lstrip().startswith("//")))
    assert cfg["mcp"]["probe"]["enabled"] is False
    with ScriptedModel(command="echo hi") as m:
        r = _turn(host, tmp_path, m)
    assert r.returncode == 0, r.stderr[-2000:]
    assert not marker.exists(), "a default-disabled server was started"
    on = engine.build_plan(host, prof, [T], choices={"mcp_enabled": {T: {"probe": True}}})
    assert engine.apply_plan(host, on).ok
    with ScriptedModel(command="echo hi") as m:
        r = _turn(host, tmp_path, m)
    assert r.returncode == 0, r.stderr[-2000:]
    assert marker.exists() and "started" in marker.read_text()


def test_agentdeck_drill_reports_opencode_ok(ohost, tmp_path):
    host = ohost
    assert engine.apply_plan(host, engine.build_plan(host, "default", [T])).ok
    r = subprocess.run([str(Path(sys.executable).parent / "agentdeck"), "drill", "--target", T],
                       env=dict(host.env), cwd=host.home, capture_output=True, text=True,
                       timeout=300, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert f"{T}" in r.stdout and "deny: held" in r.stdout, r.stdout[-3000:]


def test_uninstall_is_byte_exact_after_real_turns(ohost, tmp_path):
    host = ohost
    home = SPEC.home(host)
    theirs = ('{\n  // mine\n  "$schema": "https://opencode.ai/config.json",\n'
              '  "permission": {"bash": {"*": "allow"}}\n}\n')
    (home / "opencode.json").write_text(theirs)
    (home / "plugins").mkdir()
    (home / "plugins" / "mine.js").write_text("export const Mine = async () => ({});\n")
    before = {p.relative_to(home): p.read_bytes() for p in home.rglob("*") if p.is_file()}
    prof = _profile(host, "nomcp", {})
    assert engine.apply_plan(host, engine.build_plan(host, prof, [T])).ok
    with ScriptedModel(command="echo hi > hi.txt") as m:
        r = _turn(host, tmp_path, m)
    assert r.returncode == 0, r.stderr[-2000:]
    assert [a for a in _audit(host) if a.get("target") == T]            # the plugin ran
    assert engine.apply_plan(host, engine.build_uninstall_plan(host, [T])).ok
    # what OpenCode writes itself at start (its .gitignore) is its own, not agentdeck's
    after = {p.relative_to(home): p.read_bytes() for p in home.rglob("*") if p.is_file()
             and p.name != ".gitignore"}
    assert after == before
    n = len(_audit(host))
    with ScriptedModel(command="echo hi > hi2.txt") as m:
        r = _turn(host, tmp_path, m)
    assert r.returncode == 0, r.stderr[-2000:]
    assert len(_audit(host)) == n          # no agentdeck plugin left to fire
