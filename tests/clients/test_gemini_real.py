"""Gemini CLI 0.61.0 for real: agentdeck's install in a scratch home, then real offline turns of
`gemini --yolo -p` against tests/clients/scripted_model.py speaking the Gemini API (the recipe is
the drill part's, core/targets/gemini/drill.py RUNNER; the sign-in is chosen by the scratch
host's system defaults, clientkit.py): the hooks fire through agentdeck's handler, a policy deny
holds (the command does not run, the model sees the reason), agentdeck's hook name in
hooksConfig.disabled turns it off (the doctor says so), the settings file Gemini reads is left as
agentdeck wrote it, the persona reaches the model, a default-disabled MCP server is not started
until it is switched on, `agentdeck drill` reports Gemini ok, `doctor --live` asks a copy, and
uninstall is byte-exact. Facts: docs/facts/gemini.md."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scripted_model import ScriptedModel

from agentdeck.core import doctor, engine
from agentdeck.core.targets.gemini import SPEC
from agentdeck.core.targets.gemini.drill import RUNNER

pytestmark = pytest.mark.clients

MARKER_SERVER = Path(__file__).with_name("mcp_start_marker.py")


@pytest.fixture
def ghost(scratch_env, need, tmp_path):
    need("gemini")
    host = scratch_env
    # the system settings at a scratch path: never the machine's /etc/gemini-cli
    host.env["GEMINI_CLI_SYSTEM_SETTINGS_PATH"] = str(tmp_path / "etc" / "settings.json")
    # agentdeck-hook (the profile's handler) from this venv
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    return host


def _exe(host) -> str:
    return next(str(Path(d) / SPEC.binary) for d in host.env["PATH"].split(os.pathsep)
                if (Path(d) / SPEC.binary).exists())


def _turn(host, tmp_path: Path, model: ScriptedModel, prompt: str = "run it",
          allowlist: bool = True):
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    port = model.url.rsplit(":", 1)[1]
    args = list(RUNNER.args)
    if not allowlist:                    # every configured server not excluded may start
        i = args.index("--allowed-mcp-server-names")
        del args[i:i + 2]
    argv = [a.replace("{prompt}", prompt) for a in (*args, *RUNNER.tail)]
    env = {**host.env, **{k: v.replace("{port}", port) for k, v in RUNNER.env.items()}}
    r = subprocess.run([_exe(host), *argv], env=env, cwd=work, capture_output=True, text=True,
                       timeout=180, stdin=subprocess.DEVNULL)
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


GUARD = ('[profile]\nextends = ["default"]\n\n[[policy.rules]]\nid = "no-marker"\ntool = "shell"\n'
         'match = "agentdeck-denied-marker"\ndecision = "deny"\nreason = "the marker is off limits"\n')
DENIED = "echo x > agentdeck-denied-marker.txt"


def test_hooks_fire_and_a_shell_deny_holds_in_a_real_turn(ghost, tmp_path):
    host = ghost
    prof = _profile(host, "guard", GUARD)
    assert engine.apply_plan(host, engine.build_plan(host, prof, ["gemini"])).ok
    settings = SPEC.home(host) / "settings.json"
    written = settings.read_bytes()

    with ScriptedModel(command="", calls=[("run_shell_command", {"command": DENIED}),
                                          ("run_shell_command", {"command": "echo ok > ran.txt"})]) as m:
        r, work = _turn(host, tmp_path, m)
        bodies = json.dumps([b for _, b in m.requests])
    assert r.returncode == 0, r.stderr[-2000:]
    assert not (work / "agentdeck-denied-marker.txt").exists(), "the denied command ran"
    assert (work / "ran.txt").exists(), "the allowed command did not run"
    assert "the marker is off limits" in bodies            # the model saw the reason
    assert "Instructions for Gemini CLI" in bodies          # GEMINI.md reached the model
    lines = _audit(host)
    events = {ln.get("event") for ln in lines}
    assert {"session_start", "user_prompt_submit", "pre_tool_use", "post_tool_use", "stop",
            "session_end", "pre_compact"} <= events
    denied = [ln for ln in lines if ln.get("decision") == "deny"]
    assert denied and denied[0]["rule"] == "no-marker" and denied[0]["tool_class"] == "shell"
    assert {ln.get("dialect") for ln in lines if ln.get("event") == "pre_tool_use"} == {"gemini"}
    # Gemini left the file it read as agentdeck wrote it, and the plan is still empty
    assert settings.read_bytes() == written
    assert not engine.build_plan(host, prof, ["gemini"]).has_changes


def test_the_hook_name_in_hooks_config_disabled_turns_it_off(ghost, tmp_path):
    """agentdeck names its hooks so the doctor can find that name in hooksConfig.disabled: with
    it there, Gemini runs none of them and the denied command runs; the doctor reports it."""
    host = ghost
    prof = _profile(host, "guard", GUARD)
    assert engine.apply_plan(host, engine.build_plan(host, prof, ["gemini"])).ok
    settings = SPEC.home(host) / "settings.json"
    data = json.loads(settings.read_text())
    data["hooksConfig"] = {"disabled": ["agentdeck"]}
    settings.write_text(json.dumps(data, indent=2))
    n = len(_audit(host))
    with ScriptedModel(command="", calls=[("run_shell_command", {"command": DENIED})]) as m:
        r, work = _turn(host, tmp_path, m)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (work / "agentdeck-denied-marker.txt").exists(), "a disabled hook still denied"
    assert len(_audit(host)) == n, "a disabled hook still ran"
    found = [f for f in doctor.run(host, prof, ["gemini"]) if f.check == "gemini.hooks.disabled-name"]
    assert found and found[0].result == "error", found


def test_a_default_disabled_server_is_not_started_until_switched_on(ghost, tmp_path):
    host = ghost
    marker = tmp_path / "marker.txt"
    prof = _profile(host, "probe", '[profile]\nextends = ["default"]\n',
                    {"probe": {"command": sys.executable, "args": [str(MARKER_SERVER), str(marker)]}})
    plan = engine.build_plan(host, prof, ["gemini"])
    servers = {s.name: s for s in plan.output["gemini"].mcp.servers}
    assert servers["probe"].reason == "default-disabled"
    assert engine.apply_plan(host, plan).ok
    with ScriptedModel(command="echo hi") as m:
        r, _ = _turn(host, tmp_path, m, allowlist=False)
    assert r.returncode == 0, r.stderr[-2000:]
    assert not marker.exists(), "a default-disabled server was started"
    on = engine.build_plan(host, prof, ["gemini"],
                           choices={"mcp_enabled": {"gemini": {"probe": True}}})
    assert engine.apply_plan(host, on).ok
    with ScriptedModel(command="echo hi") as m:
        r, _ = _turn(host, tmp_path, m, allowlist=False)
    assert r.returncode == 0, r.stderr[-2000:]
    assert marker.exists() and "started" in marker.read_text()


def test_a_server_switched_off_in_the_enablement_file_stays_off_and_is_reported_off(ghost, tmp_path):
    """`/mcp disable` writes Gemini's enablement file; a server named there does not start even
    with agentdeck's switch on, and agentdeck's MCP report says it is off and why, for a profile
    server and for one of the operator's own."""
    host = ghost
    marker, mine = tmp_path / "marker.txt", tmp_path / "mine.txt"
    prof = _profile(host, "probe", '[profile]\nextends = ["default"]\n',
                    {"Probe": {"command": sys.executable, "args": [str(MARKER_SERVER), str(marker)]}})
    home = SPEC.home(host)
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text(json.dumps({"mcpServers": {"Mine": {
        "command": sys.executable, "args": [str(MARKER_SERVER), str(mine)]}}}))
    # the file as `/mcp disable Probe` and `/mcp disable Mine` leave it (lower-cased names)
    (home / "mcp-server-enablement.json").write_text(json.dumps(
        {"probe": {"enabled": False}, "mine": {"enabled": False}}, indent=2))
    plan = engine.build_plan(host, prof, ["gemini"],
                             choices={"mcp_enabled": {"gemini": {"Probe": True}}})
    servers = {s.name: s for s in plan.output["gemini"].mcp.servers}
    assert (servers["Probe"].enabled, servers["Probe"].reason) == (False, "operator-switched-off")
    assert (servers["Mine"].enabled, servers["Mine"].reason) == (False, "operator-switched-off")
    item = next(i for i in plan.items if i.key == ["mcpServers", "Probe"])
    assert "/mcp disable" in item.reason, item.reason
    assert engine.apply_plan(host, plan).ok
    with ScriptedModel(command="echo hi") as m:
        r, _ = _turn(host, tmp_path, m, allowlist=False)
    assert r.returncode == 0, r.stderr[-2000:]
    assert not marker.exists() and not mine.exists(), "a server switched off in the file started"
    # the file is the switch: without it both start (the same turn, so the test can fail)
    (home / "mcp-server-enablement.json").unlink()
    with ScriptedModel(command="echo hi") as m:
        r, _ = _turn(host, tmp_path, m, allowlist=False)
    assert r.returncode == 0, r.stderr[-2000:]
    assert marker.exists() and mine.exists()


def test_agentdeck_drill_reports_gemini_ok(ghost, tmp_path):
    host = ghost
    assert engine.apply_plan(host, engine.build_plan(host, "default", ["gemini"])).ok
    r = subprocess.run([str(Path(sys.executable).parent / "agentdeck"), "drill", "--target",
                        "gemini"], env=dict(host.env), cwd=host.home, capture_output=True,
                       text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert "gemini   ok" in r.stdout and "deny: held" in r.stdout


def test_doctor_live_asks_a_copy_and_reports_a_broken_file(ghost, tmp_path):
    host = ghost
    assert engine.apply_plan(host, engine.build_plan(host, "default", ["gemini"])).ok
    live = [f for f in doctor.run(host, "default", ["gemini"], live=True)
            if f.check == "gemini.live.settings"]
    assert [f.result for f in live] == ["ok"], live
    settings = SPEC.home(host) / "settings.json"
    settings.write_text('{"a": }\n')
    broken = settings.read_bytes()
    live = [f for f in doctor.run(host, "default", ["gemini"], live=True)
            if f.check == "gemini.live.settings"]
    assert live and live[0].result == "error" and "cannot read" in live[0].message, live
    assert settings.read_bytes() == broken


def test_uninstall_is_byte_exact_after_real_turns(ghost, tmp_path):
    host = ghost
    home = SPEC.home(host)
    home.mkdir(parents=True, exist_ok=True)
    theirs = '{\n  // mine\n  "general": {"vimMode": true}\n}\n'
    (home / "settings.json").write_text(theirs)
    assert engine.apply_plan(host, engine.build_plan(host, "default", ["gemini"])).ok
    with ScriptedModel(command="echo hi > hi.txt") as m:
        r, _ = _turn(host, tmp_path, m)
    assert r.returncode == 0, r.stderr[-2000:]
    assert engine.apply_plan(host, engine.build_uninstall_plan(host, ["gemini"])).ok
    assert (home / "settings.json").read_text() == theirs
    assert not (home / "agentdeck-hook.sh").exists()
    assert not (home / "GEMINI.md").exists()
    n = len(_audit(host))
    with ScriptedModel(command="echo hi > hi2.txt") as m:
        r, _ = _turn(host, tmp_path, m)
    assert r.returncode == 0, r.stderr[-2000:]
    assert len(_audit(host)) == n          # no agentdeck hook left to fire
