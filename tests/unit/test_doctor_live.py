"""The live comparison, with the probes replaced by canned answers (the real CLIs are exercised in
tests/clients/test_doctor_real.py): every difference between what a CLI reports and what the
files and the plan say becomes a finding; a CLI that is not installed gives `skipped`."""
from __future__ import annotations

import json

import pytest

from agentdeck.core import doctor
from agentdeck.core.doctor.probes import ProbeResult
from agentdeck.core.targets import registry

from test_doctor_checks import install, make_host, write_files
from tests.target_homes import target_home

LIVE_IDS = {"copilot.live.hooks", "copilot.live.settings", "copilot.live.mcp", "codex.live.config",
            "codex.live.hooks", "codex.live.mcp", "claude.live.doctor", "qwen.live.settings",
            "opencode.live.config", "gemini.live.settings"}


def not_installed(target, probe, binary):
    return lambda host, *a, **k: ProbeResult(target, probe, False, None, None, 0.0,
                                             skipped_reason=f"{binary} is not installed (not found on PATH)")


def answer(target, probe, data, ok=True, error=None):
    return lambda host, *a, **k: ProbeResult(target, probe, ok, data, error, 0.1)


#: each probe by the name the tests give it: (target, its function in the target's probes part)
PROBES = {"copilot_hooks_discover": ("copilot", "hooks_discover"),
          "copilot_mcp_list": ("copilot", "mcp_list"),
          "codex_startup_config": ("codex", "startup_config"),
          "codex_hooks_list": ("codex", "hooks_list"), "codex_mcp_list": ("codex", "mcp_list"),
          "claude_doctor": ("claude", "claude_doctor"),
          "qwen_load_settings": ("qwen", "load_settings")}


@pytest.fixture
def fake(monkeypatch):
    """Start with every CLI 'not installed'; tests replace the probes they need."""
    for name, (t, fn) in PROBES.items():
        monkeypatch.setattr(registry.part(t, "probes"), fn, not_installed(t, name, t))
    # the drill (a real turn of each CLI) is tested with the real CLIs (tests/clients)
    from agentdeck.core.drill import findings as drill_findings
    monkeypatch.setattr(drill_findings, "run_findings", lambda *a, **k: [])

    def set_(name, fn):
        t, attr = PROBES[name]
        monkeypatch.setattr(registry.part(t, "probes"), attr, fn)
    return set_


@pytest.fixture
def installed(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    host = make_host(home)
    install(host)
    return host


def live(fs):
    return [f for f in fs if f.live]


def test_not_installed_gives_skipped_with_the_reason(installed, fake):
    fs = live(doctor.run(installed, live=True))
    assert {f.check for f in fs} == LIVE_IDS
    assert {f.result for f in fs} == {"skipped"}
    assert all("not installed" in f.message for f in fs)


def _discovered(host, plan_events):
    return [{"hookType": ev.event, "origin": "user", "enabled": True,
             "source": "hooks/agentdeck.json", "disableKey": ev.disable_key} for ev in plan_events]


def _copilot_events(host):
    from agentdeck.core import engine
    plan = engine.build_plan(host, "default", ["copilot"])
    return plan.output["copilot"].hooks.events


def test_copilot_everything_discovered_is_ok(installed, fake):
    evs = _copilot_events(installed)
    fake("copilot_hooks_discover", answer("copilot", "hooks.discover",
                                          {"hooks": _discovered(installed, evs), "errors": [],
                                           "warnings": [], "settings_warnings": []}))
    mcp = json.loads((target_home(installed, "copilot") / "mcp-config.json").read_text())["mcpServers"]
    disabled = json.loads((target_home(installed, "copilot") / "settings.json").read_text()).get("disabledMcpServers", [])
    listed = {n: {**e, "source": "user", "enabled": n not in disabled} for n, e in mcp.items()}
    fake("copilot_mcp_list", answer("copilot", "mcp list", {"mcpServers": listed}))
    fs = [f for f in live(doctor.run(installed, targets=["copilot"], live=True))]
    assert {f.result for f in fs} == {"ok"}, [(f.check, f.message) for f in fs if f.result != "ok"]


def test_copilot_registered_hook_not_discovered_is_an_error(installed, fake):
    evs = _copilot_events(installed)
    found = _discovered(installed, evs)[1:]                     # the first one is missing
    found[0]["enabled"] = False                                 # and one is reported disabled
    fake("copilot_hooks_discover", answer("copilot", "hooks.discover",
                                          {"hooks": found, "errors": ["Invalid hook configuration in "
                                                                      f"{installed.home}/x.json: boom"],
                                           "warnings": [], "settings_warnings": [
                                               f'Ignoring unknown top-level key(s) in user settings file "{installed.home}/.copilot/settings.json": "x".']}))
    fake("copilot_mcp_list", answer("copilot", "mcp list", {"mcpServers": {}}))
    fs = live(doctor.run(installed, targets=["copilot"], live=True))
    hooks = [f for f in fs if f.check == "copilot.live.hooks"]
    assert any(f.result == "error" and f"{evs[0].event} hook" in f.message
               and "did not discover" in f.message for f in hooks)
    assert any(f.result == "warning" and "reports it disabled" in f.message for f in hooks)
    assert any(f.result == "error" and "Copilot reports: Invalid hook configuration in ~/x.json" in f.message
               for f in hooks)
    sett = [f for f in fs if f.check == "copilot.live.settings"]
    assert sett[0].result == "warning" and str(installed.home) not in sett[0].message
    mcp = [f for f in fs if f.check == "copilot.live.mcp"]
    assert {f.result for f in mcp} == {"error"} and any("memory" in f.message for f in mcp)


def test_copilot_disable_keys_that_differ(installed, fake):
    evs = _copilot_events(installed)
    found = _discovered(installed, evs)
    found[0]["disableKey"] = "f" * 64
    fake("copilot_hooks_discover", answer("copilot", "hooks.discover",
                                          {"hooks": found, "errors": [], "warnings": [],
                                           "settings_warnings": []}))
    fs = live(doctor.run(installed, targets=["copilot"], live=True))
    assert any(f.result == "warning" and "disable key" in f.message for f in fs)


def test_copilot_mcp_enabled_flag_differs(installed, fake):
    mcp = json.loads((target_home(installed, "copilot") / "mcp-config.json").read_text())["mcpServers"]
    listed = {n: {**e, "source": "user", "enabled": True} for n, e in mcp.items()}   # all on
    fake("copilot_mcp_list", answer("copilot", "mcp list", {"mcpServers": listed}))
    fs = live(doctor.run(installed, targets=["copilot"], live=True))
    mcp_f = [f for f in fs if f.check == "copilot.live.mcp"]
    assert any(f.result == "warning" and "github" in f.message and "settings.json says disabled"
               in f.message for f in mcp_f)
    assert any(f.result == "warning" and "the plan wants it disabled" in f.message for f in mcp_f)


def test_probe_that_fails_is_a_warning(installed, fake):
    fake("copilot_mcp_list", answer("copilot", "mcp list", None, ok=False, error="timed out after 20s"))
    fs = live(doctor.run(installed, targets=["copilot"], live=True))
    row = [f for f in fs if f.check == "copilot.live.mcp"]
    assert row[0].result == "warning" and "timed out" in row[0].message


def test_codex_strict_config_error_points_at_file_and_line(tmp_path, fake):
    home = tmp_path / "home"
    home.mkdir()
    host = make_host(home)
    write_files(home, {".codex/config.toml": 'model = "x"\nbogus = 1\n'})
    msg = f"failed to load configuration: {home}/.codex/config.toml:2:1: unknown configuration field `bogus`"
    fake("codex_startup_config", answer("codex", "startup config", {"error": {
        "message": msg, "data": {"filePath": f"{home}/.codex/config.toml", "line": 2, "column": 1}}},
        ok=False, error=msg))
    fs = live(doctor.run(host, targets=["codex"], live=True))
    row = [f for f in fs if f.check == "codex.live.config"][0]
    assert row.result == "error" and row.path == "~/.codex/config.toml" and row.line == 2
    assert "~/.codex/config.toml:2:1: unknown configuration field" in row.message


def test_codex_hooks_trust_and_missing(tmp_path, fake):
    home = tmp_path / "home"
    home.mkdir()
    host = make_host(home)
    write_files(home, {".codex/hooks.json": json.dumps({"hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "echo a"},
                            {"type": "command", "command": "echo b"}]}]}})})
    from agentdeck.core.targets.codex.facts import codex_trusted_hash
    src = f"{home}/.codex/hooks.json"
    listed = [{"key": f"{src}:stop:0:0", "eventName": "stop", "command": "echo a",
               "currentHash": codex_trusted_hash("Stop", None, [{"type": "command", "command": "echo a"}]),
               "trustStatus": "trusted", "enabled": True, "sourcePath": src, "source": "user"}]
    fake("codex_hooks_list", answer("codex", "hooks/list", {"data": [{"cwd": str(home), "hooks": listed,
                                                                     "warnings": [], "errors": []}],
                                                            "configWarnings": ["Invalid configuration; using defaults."]}))
    fs = live(doctor.run(host, targets=["codex"], live=True))
    rows = [f for f in fs if f.check == "codex.live.hooks"]
    assert any(f.result == "warning" and "echo b" in f.message and "does not list it" in f.message
               for f in rows)
    assert any(f.result == "warning" and "reports trust 'trusted'" in f.message for f in rows)
    assert any(f.result == "error" and "Invalid configuration" in f.message for f in rows)


BWRAP = ("Codex could not find bubblewrap on PATH. Install bubblewrap with your OS package "
         "manager. See the sandbox prerequisites: https://developers.openai.com/codex/concepts/"
         "sandboxing#prerequisites. Codex will use the bundled bubblewrap in the meantime.")


def test_codex_missing_bubblewrap_is_this_machines_not_the_configs(tmp_path, fake):
    """Codex 0.171.0 without bwrap on PATH says so as a configWarning: the doctor names it as
    this machine's prerequisite, and the hooks are still reported as listed as expected."""
    home = tmp_path / "home"
    home.mkdir()
    host = make_host(home)
    from agentdeck.core import engine
    engine.apply_plan(host, engine.build_plan(host, names=["codex"], trust_hooks=True))
    plan = engine.build_plan(host, names=["codex"], trust_hooks=True)
    src = plan.output["codex"].hooks.trust_source
    listed = [{"key": e.key, "eventName": e.event, "command": e.command,
               "currentHash": e.hash, "trustStatus": "trusted", "enabled": True,
               "sourcePath": src, "source": "user", "timeoutSec": e.timeout}
              for e in plan.output["codex"].hooks.events]
    fake("codex_hooks_list", answer("codex", "hooks/list", {
        "data": [{"cwd": str(home), "hooks": listed, "warnings": [], "errors": []}],
        "configWarnings": [BWRAP]}))
    fs = live(doctor.run(host, targets=["codex"], live=True))
    rows = [f for f in fs if f.check == "codex.live.hooks"]
    assert rows[0].result == "ok" and "as expected" in rows[0].message, rows
    (env,) = [f for f in rows if "bubblewrap" in f.message]
    assert env.result == "info"
    assert env.message.startswith("this machine, not agentdeck's configuration: Codex could not "
                                  "find bubblewrap on PATH")
    assert "apt install bubblewrap" in env.fix and "nothing in agentdeck" in env.fix


def test_codex_mcp_enabled_flags(tmp_path, fake):
    home = tmp_path / "home"
    home.mkdir()
    host = make_host(home)
    write_files(home, {".codex/config.toml": '[mcp_servers.a]\ncommand = "x"\nenabled = false\n'
                                             '[mcp_servers.b]\ncommand = "y"\n'})
    fake("codex_mcp_list", answer("codex", "mcp list", [{"name": "a", "enabled": True}]))
    fs = live(doctor.run(host, targets=["codex"], live=True))
    rows = [f for f in fs if f.check == "codex.live.mcp"]
    assert any(f.result == "error" and "'b'" in f.message for f in rows)
    assert any(f.result == "warning" and "'a'" in f.message and "says disabled" in f.message for f in rows)


def test_claude_doctor_problems(tmp_path, fake):
    home = tmp_path / "home"
    home.mkdir()
    host = make_host(home)
    write_files(home, {".claude/settings.json": '{\n  "model": "x",\n  "hooks": {"preToolUse": []}\n}'})
    fake("claude_doctor", answer("claude", "doctor", {"problems": [
        {"file": f"{home}/.claude/settings.json", "path": "hooks.preToolUse",
         "message": 'Unknown hook event "preToolUse" was ignored.', "fix": None}], "output": ""}))
    fs = live(doctor.run(host, targets=["claude"], live=True))
    row = [f for f in fs if f.check == "claude.live.doctor"][0]
    assert row.result == "error" and row.path == "~/.claude/settings.json" and row.line == 3
    assert "preToolUse" in row.message


def test_probes_never_include_claude_mcp_list(installed, monkeypatch):
    """Nothing that starts an operator's MCP server or hook is ever run."""
    ran: list[list[str]] = []

    def run(self, argv, **kw):
        ran.append(list(argv))
        from agentdeck.core.host import RunResult
        return RunResult(list(argv), 127, "", "not here")

    def popen(self, argv, **kw):
        ran.append(list(argv))
        raise OSError("not here")
    monkeypatch.setattr(type(installed), "run", run)
    monkeypatch.setattr(type(installed), "popen", popen)
    monkeypatch.setattr(type(installed), "which", lambda self, name: f"/fake/{name}")
    doctor.run(installed, live=True)
    assert ran
    for argv in ran:
        assert argv[1:3] != ["mcp", "list"] or not argv[0].endswith("claude"), argv
        assert not (len(argv) == 1 or argv[1:] in (["-p", "hi"],)), argv


# ---- the drill: its own flag (doctor --drill), not part of --live ------------------------------

@pytest.fixture
def drill_calls(monkeypatch):
    """The drill replaced by a recorder that returns one ok row per target asked."""
    from agentdeck.core.doctor.findings import Finding
    from agentdeck.core.drill import findings as drill_findings

    calls = []

    def run_findings(host, profile, targets):
        calls.append(list(targets))
        return [Finding(t, "ok", f"{t}.live.drill", "drill: ok", live=True) for t in targets]
    monkeypatch.setattr(drill_findings, "run_findings", run_findings)
    return calls


def test_live_runs_the_probes_but_not_the_drill(installed, fake, drill_calls):
    fs = live(doctor.run(installed, live=True))
    assert drill_calls == []
    assert {f.check for f in fs} == LIVE_IDS


def test_drill_flag_adds_the_drill_rows_beside_the_live_ones(installed, fake, drill_calls):
    fs = live(doctor.run(installed, drill=True))            # --drill implies --live
    assert drill_calls == [list(registry.NAMES)]
    assert {f.check for f in fs} == LIVE_IDS | {f"{t}.live.drill" for t in registry.NAMES}
    # each target's rows together, in the registry's order
    assert [f.target for f in fs] == sorted((f.target for f in fs), key=registry.NAMES.index)


def test_the_live_report_says_how_to_run_the_drill(installed, fake, drill_calls, capsys,
                                                   monkeypatch):
    import os

    from agentdeck.core import cli
    from agentdeck.core.doctor.report import DRILL_HINT

    for k in list(os.environ):               # the CLI runs with the host's environment
        if k not in installed.env:
            monkeypatch.delenv(k)
    for k, v in installed.env.items():
        monkeypatch.setenv(k, v)
    cli.main(["doctor", "--home", str(installed.home), "--live"])
    head = capsys.readouterr().out.splitlines()[0]
    assert head == (f"agentdeck doctor: profile default, static and live checks ({DRILL_HINT}); "
                    "home shown as ~")
    assert "agentdeck drill" in DRILL_HINT and "--drill" in DRILL_HINT
    assert drill_calls == []
    cli.main(["doctor", "--home", str(installed.home), "--drill", "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["live"] is True and drill_calls == [list(registry.NAMES)]
    assert {f["check"] for f in doc["findings"] if f["check"].endswith(".live.drill")} == {
        f"{t}.live.drill" for t in registry.NAMES}
    cli.main(["doctor", "--home", str(installed.home), "--drill"])
    assert "static and live checks and the drill; home shown as ~" in capsys.readouterr().out


def test_repo_doctor_has_no_drill_flag(tmp_path, capsys):
    from agentdeck.core import cli

    home = tmp_path / "home"
    home.mkdir()
    rc = cli.main(["doctor", "--home", str(home), "--repo", str(tmp_path), "--drill"])
    err = capsys.readouterr().err
    assert rc == 1 and "doctor --repo has no --drill" in err and len(err.strip().splitlines()) == 1


def test_a_targets_probes_start_while_the_next_targets_copy_is_made(installed, fake, monkeypatch,
                                                                    tmp_path):
    """Each target's probes start as soon as its own scratch copy is made: the first target's
    probe runs while the second's copy is being made (that copy waits for it, up to 20 s)."""
    import threading

    from agentdeck.core.doctor import isolated, live as live_mod

    # the first two targets whose probes this module stands in for, in registry order
    faked = {t for t, _ in PROBES.values()}
    first, second = [n for n in registry.NAMES if n in faked][:2]
    started = threading.Event()
    events: list[str] = []

    def make(host, root, target):
        events.append(f"make {target}")
        if target == second:
            events.append("first probe running" if started.wait(20) else "first probe waited")
        (tmp_path / target).mkdir()
        return isolated.Isolated(target, host, host, tmp_path / target)

    def probe(host, *a, **k):
        started.set()
        return ProbeResult(first, "stand-in", False, None, None, 0.0, skipped_reason="stand-in")

    monkeypatch.setattr(live_mod, "_installed", lambda ctx, targets: [first, second])
    monkeypatch.setattr(isolated, "make", make)
    for name, (t, _) in PROBES.items():
        if t == first:
            fake(name, probe)
    doctor.run(installed, targets=[first, second], live=True)
    assert events == [f"make {first}", f"make {second}", "first probe running"]
