"""Qwen Code 0.24.4 for real: agentdeck's install in a scratch home, then real offline turns of
`qwen -p` against tests/clients/scripted_model.py (the recipe is the drill part's,
core/targets/qwen/drill.py RUNNER): the hooks fire through agentdeck's handler, a policy deny
holds (the command does not run, the model sees the reason), the settings file Qwen reads is left
as agentdeck wrote it, a default-disabled MCP server is not started until it is switched on,
`agentdeck drill` reports Qwen ok, `doctor --live` asks a copy, and uninstall is byte-exact.
Facts: docs/facts/qwen.md."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scripted_model import ScriptedModel

from agentdeck.core import doctor, engine
from agentdeck.core.targets.qwen import SPEC
from agentdeck.core.targets.qwen.drill import RUNNER

pytestmark = pytest.mark.clients

MARKER_SERVER = Path(__file__).with_name("mcp_start_marker.py")
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def qhost(scratch_env, need, tmp_path):
    need("qwen")
    host = scratch_env
    # the system files at a scratch path: never the machine's /etc/qwen-code
    host.env["QWEN_CODE_SYSTEM_SETTINGS_PATH"] = str(tmp_path / "etc" / "settings.json")
    host.env["QWEN_CODE_SYSTEM_DEFAULTS_PATH"] = str(tmp_path / "etc" / "system-defaults.json")
    # agentdeck-hook (the profile's handler) from this venv
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    return host


def _turn(host, tmp_path: Path, model: ScriptedModel, prompt: str = "run it"):
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    args = [a.replace("{port}", str(model.url.rsplit(":", 1)[1])).replace("{prompt}", prompt)
            for a in (*RUNNER.args, *RUNNER.tail)]
    exe = next(str(Path(d) / SPEC.binary) for d in host.env["PATH"].split(os.pathsep)
               if (Path(d) / SPEC.binary).exists())
    env = {**host.env, **RUNNER.env}
    r = subprocess.run([exe, *args], env=env, cwd=work, capture_output=True, text=True,
                       timeout=120, stdin=subprocess.DEVNULL)
    return r, work


def _audit(host) -> list[dict]:
    p = host.state_dir / "audit.jsonl"
    return [json.loads(line) for line in p.read_text().splitlines()] if p.exists() else []


def _profile(host, name: str, toml: str, mcp: dict | None = None) -> str:
    d = host.config_dir / "profiles" / name
    d.mkdir(parents=True)
    (d / "profile.toml").write_text(toml)
    if mcp is not None:
        (d / "mcp.json").write_text(json.dumps({"mcpServers": mcp}))
    return name


def test_hooks_fire_and_a_shell_deny_holds_in_a_real_turn(qhost, tmp_path):
    host = qhost
    prof = _profile(host, "guard", '[profile]\nextends = ["default"]\n\n'
                    '[[policy.rules]]\nid = "no-marker"\ntool = "shell"\n'
                    'match = "agentdeck-denied-marker"\ndecision = "deny"\n'
                    'reason = "the marker is off limits"\n')
    assert engine.apply_plan(host, engine.build_plan(host, prof, ["qwen"])).ok
    settings = SPEC.home(host) / "settings.json"
    written = settings.read_bytes()

    cmd = "echo x > agentdeck-denied-marker.txt"
    with ScriptedModel(command="", calls=[("run_shell_command", {"command": cmd}),
                                          ("run_shell_command", {"command": "echo ok > ran.txt"})]) as m:
        r, work = _turn(host, tmp_path, m)
        bodies = json.dumps([b for _, b in m.requests])
    assert r.returncode == 0, r.stderr[-2000:]
    assert not (work / "agentdeck-denied-marker.txt").exists(), "the denied command ran"
    assert (work / "ran.txt").exists(), "the allowed command did not run"
    assert "the marker is off limits" in bodies            # the model saw the reason
    lines = _audit(host)
    events = {ln.get("event") for ln in lines}
    assert {"session_start", "user_prompt_submit", "pre_tool_use", "post_tool_use",
            "stop"} <= events
    denied = [ln for ln in lines if ln.get("decision") == "deny"]
    assert denied and denied[0]["rule"] == "no-marker" and denied[0]["tool_class"] == "shell"
    assert {ln.get("dialect") for ln in lines if ln.get("event") == "pre_tool_use"} == {"qwen"}
    # Qwen left the file it read as agentdeck wrote it, and the plan is still empty
    assert settings.read_bytes() == written
    assert not engine.build_plan(host, prof, ["qwen"]).has_changes


SECRET = "agentdeck-test-private-key-material"


def _tool_results(model: ScriptedModel) -> list[str]:
    """The tool results of the main agent's last request (not the background memory
    subagent's, docs/facts/qwen.md: its requests carry their own system prompt)."""
    mains = [b for _, b in model.requests
             if "managed memory extraction subagent" not in json.dumps(
                 ((b.get("messages") or [{}])[0]).get("content"))]
    return [json.dumps(m.get("content")) for m in (mains[-1].get("messages") if mains else [])
            if isinstance(m, dict) and m.get("role") == "tool"]


def test_qwens_own_deny_holds_with_the_hook_neutered(qhost, tmp_path):
    """The bundled default profile's ssh-private-keys rule (~/.ssh/id_* except ~/.ssh/*.pub),
    written by agentdeck into Qwen's permissions.deny, still stops read_file and a shell cat
    of the key when agentdeck's hook is gone (its wrapper made to exit 0), and lets the public
    key through."""
    host = qhost
    ssh = host.home / ".ssh"
    ssh.mkdir(mode=0o700)
    (ssh / "id_rsa").write_text(SECRET + "\n")
    (ssh / "id_rsa.pub").write_text("ssh-rsa AAAA public\n")
    assert engine.apply_plan(host, engine.build_plan(host, "default", ["qwen"])).ok
    text = (SPEC.home(host) / "settings.json").read_text()
    assert "Read(~/.ssh/id_*[^b])" in text
    wrapper = SPEC.home(host) / "agentdeck-hook.sh"
    wrapper.write_text("#!/bin/sh\nexit 0\n")
    audit = Path(host.state_dir) / "audit.jsonl"
    before = audit.read_text() if audit.exists() else ""

    with ScriptedModel(command="", calls=[("read_file", {"file_path": str(ssh / "id_rsa")}),
                                          ("run_shell_command", {"command": "cat ~/.ssh/id_rsa"}),
                                          ("read_file", {"file_path": str(ssh / "id_rsa.pub")})]) as m:
        r, _ = _turn(host, tmp_path, m)
        results = _tool_results(m)
    assert r.returncode == 0, r.stderr[-2000:]
    assert len(results) == 3, results
    for denied in results[:2]:
        assert SECRET not in denied and "denied by permission rules" in denied, denied
        assert "Read(~/.ssh/id_*[^" in denied, denied        # the entry agentdeck wrote
    assert "ssh-rsa AAAA public" in results[2], results[2]
    assert (audit.read_text() if audit.exists() else "") == before, "the hook still ran"


def test_a_default_disabled_server_is_not_started_until_switched_on(qhost, tmp_path):
    host = qhost
    marker = tmp_path / "marker.txt"
    prof = _profile(host, "probe", '[profile]\nextends = ["default"]\n',
                    {"probe": {"command": sys.executable, "args": [str(MARKER_SERVER), str(marker)]}})
    plan = engine.build_plan(host, prof, ["qwen"])
    servers = {s.name: s for s in plan.output["qwen"].mcp.servers}
    assert servers["probe"].reason == "default-disabled"
    assert engine.apply_plan(host, plan).ok
    # the turn without the drill's allowlist: every configured server not excluded would start
    with ScriptedModel(command="echo hi") as m:
        r, _ = _turn_without_allowlist(host, tmp_path, m)
    assert r.returncode == 0, r.stderr[-2000:]
    assert not marker.exists(), "a default-disabled server was started"
    on = engine.build_plan(host, prof, ["qwen"], choices={"mcp_enabled": {"qwen": {"probe": True}}})
    assert engine.apply_plan(host, on).ok
    with ScriptedModel(command="echo hi") as m:
        r, _ = _turn_without_allowlist(host, tmp_path, m)
    assert r.returncode == 0, r.stderr[-2000:]
    assert marker.exists() and "started" in marker.read_text()


def _turn_without_allowlist(host, tmp_path, model):
    args = [a for a in RUNNER.args]
    i = args.index("--allowed-mcp-server-names")
    del args[i:i + 2]
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    port = model.url.rsplit(":", 1)[1]
    exe = next(str(Path(d) / SPEC.binary) for d in host.env["PATH"].split(os.pathsep)
               if (Path(d) / SPEC.binary).exists())
    argv = [exe, *(a.replace("{port}", port) for a in args), "run it"]
    return subprocess.run(argv, env={**host.env, **RUNNER.env}, cwd=work, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL), work


def test_agentdeck_drill_reports_qwen_ok(qhost, tmp_path):
    host = qhost
    assert engine.apply_plan(host, engine.build_plan(host, "default", ["qwen"])).ok
    r = subprocess.run([str(Path(sys.executable).parent / "agentdeck"), "drill", "--target",
                        "qwen"], env=dict(host.env), cwd=host.home, capture_output=True,
                       text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "qwen     ok" in r.stdout and "deny: held" in r.stdout


def test_doctor_live_asks_a_copy_and_reports_a_broken_file(qhost, tmp_path):
    host = qhost
    assert engine.apply_plan(host, engine.build_plan(host, "default", ["qwen"])).ok
    live = [f for f in doctor.run(host, "default", ["qwen"], live=True) if f.check == "qwen.live.settings"]
    assert [f.result for f in live] == ["ok"], live
    settings = SPEC.home(host) / "settings.json"
    settings.write_text('{"$version": 4, "a": }\n')
    broken = settings.read_bytes()
    live = [f for f in doctor.run(host, "default", ["qwen"], live=True) if f.check == "qwen.live.settings"]
    assert live and live[0].result == "error" and "cannot read" in live[0].message, live
    assert settings.read_bytes() == broken
    assert not (SPEC.home(host) / "settings.json.corrupted").exists()   # Qwen wrote in the copy


def test_uninstall_is_byte_exact_after_real_turns(qhost, tmp_path):
    host = qhost
    home = SPEC.home(host)
    theirs = '{\n  // mine\n  "$version": 4,\n  "general": {"vimMode": true}\n}\n'
    (home / "settings.json").write_text(theirs)
    assert engine.apply_plan(host, engine.build_plan(host, "default", ["qwen"])).ok
    with ScriptedModel(command="echo hi > hi.txt") as m:
        r, _ = _turn(host, tmp_path, m)
    assert r.returncode == 0, r.stderr[-2000:]
    assert engine.apply_plan(host, engine.build_uninstall_plan(host, ["qwen"])).ok
    assert (home / "settings.json").read_text() == theirs
    assert not (home / "agentdeck-hook.sh").exists()
    n = len(_audit(host))
    with ScriptedModel(command="echo hi > hi2.txt") as m:
        r, _ = _turn(host, tmp_path, m)
    assert r.returncode == 0, r.stderr[-2000:]
    assert len(_audit(host)) == n          # no agentdeck hook left to fire
