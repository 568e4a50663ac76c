"""The drill decides before any turn whether a turn can prove anything (core.drill.ready): a
target whose CLI is missing, or where agentdeck's hooks are not installed, is reported as
skipped in one line, and no runner (core.drill.inside), sandbox probe or scratch folder is
started for it. Observed through the Host's process seam (`host.run`); the real turns are in
tests/clients/test_drill_real.py."""
from __future__ import annotations

import json
import os
from types import SimpleNamespace

import pytest

from agentdeck.core import engine
from agentdeck.core.drill import command, findings, ready, report
from agentdeck.core.drill.run import drill
from agentdeck.core.host import RunResult
from agentdeck.core.targets import registry
from tests.target_homes import target_home

#: every registered target the drill has a recipe for (its drill part)
ALL = [n for n in registry.NAMES if registry.has_part(n, "drill")]
INSIDE = "agentdeck.core.drill.inside"


@pytest.fixture
def clis(ghost, tmp_path):
    """The ghost host with a fake binary of each CLI on its PATH (never run: host.run is
    recorded below)."""
    bindir = tmp_path / "bin"
    for name in ALL:
        p = bindir / registry.spec(name).binary
        p.write_text("#!/bin/sh\nexit 0\n")
        os.chmod(p, 0o755)
    return ghost


class Runs:
    """host.run, recorded: the drill's runner answers like a finished turn with no receipts;
    every other process (the unshare probe) fails, so the drill is not isolated."""

    def __init__(self, host, monkeypatch):
        self.calls: list[list[str]] = []
        self.specs: list[dict] = []
        monkeypatch.setattr(host, "run", self)

    def __call__(self, argv, *, timeout=10.0, input=None, env=None, cwd=None):
        argv = list(argv)
        self.calls.append(argv)
        if INSIDE in argv:
            self.specs.append(json.loads(input))
            out = json.dumps({"returncode": 0, "timed_out": False, "requests": [],
                              "stdout": "", "stderr": "", "loopback": "shared"})
            return RunResult(argv, 0, out + "\n", "")
        return RunResult(argv, 1, "", "not here")

    @property
    def turns(self) -> list[list[str]]:
        return [a for a in self.calls if INSIDE in a]


def _progress():
    seen: list[tuple[str, str]] = []
    return seen, lambda t, what: seen.append((t, what))


def test_no_runner_is_started_where_agentdeck_is_not_installed(clis, monkeypatch):
    runs = Runs(clis, monkeypatch)
    seen, progress = _progress()
    rep = drill(clis, "default", ALL, progress=progress)
    assert runs.calls == []                      # no turn, and not even the sandbox probe
    assert not (clis.state_dir / "drill").exists()
    assert not rep.ok and rep.turns == 0 and rep.network == "not used (no turn ran)"
    for t in ALL:
        r = rep.targets[t]
        assert (r.status, r.ok, r.skip) == ("skipped", False, ready.NOT_INSTALLED)
        assert r.problems == [f"agentdeck is not installed for {t} "
                              f"(no {clis.display(engine.HOME.manifest_paths(clis)[t])}): run "
                              f"`agentdeck apply --target {t}` first"]
    assert seen == [(t, "skipped") for t in ALL]     # never "running"


def test_only_the_installed_target_gets_a_turn(clis, monkeypatch):
    assert engine.apply_plan(clis, engine.build_plan(clis, "default", ["claude"])).ok
    runs = Runs(clis, monkeypatch)
    seen, progress = _progress()
    rep = drill(clis, "default", ALL, progress=progress)
    assert len(runs.turns) == 1
    assert runs.specs[0]["argv"][0] == clis.which("claude")
    assert runs.specs[0]["env"]["AGENTDECK_DRILL_ID"].endswith("-claude")
    assert {t: rep.targets[t].skip for t in ALL} == {
        t: None if t == "claude" else ready.NOT_INSTALLED for t in ALL}
    assert rep.targets["claude"].status == "failed"          # the recorded turn fired nothing
    assert rep.targets["claude"].seconds is not None
    assert [t for t, what in seen if what == "running"] == ["claude"]
    assert not (clis.state_dir / "drill").exists()           # the one scratch folder is gone


def test_a_missing_cli_is_skipped_without_a_turn(ghost, monkeypatch):
    assert engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["claude"])).ok
    runs = Runs(ghost, monkeypatch)
    rep = drill(ghost, "default", ["claude"])
    assert runs.calls == []
    r = rep.targets["claude"]
    assert (r.status, r.skip, r.problems) == ("skipped", ready.CLI_MISSING,
                                               ["claude is not installed (not found on PATH)"])


def test_hooks_not_registered_although_a_manifest_exists(clis, monkeypatch):
    assert engine.apply_plan(clis, engine.build_plan(clis, "default", ["claude"])).ok
    settings = target_home(clis, "claude") / "settings.json"
    data = json.loads(settings.read_text())
    del data["hooks"]                                   # the operator took our hooks out
    settings.write_text(json.dumps(data, indent=2))
    runs = Runs(clis, monkeypatch)
    rep = drill(clis, "default", ["claude"])
    assert runs.calls == []
    r = rep.targets["claude"]
    assert (r.status, r.skip) == ("skipped", ready.HOOKS_NOT_REGISTERED)
    assert r.problems[0].startswith("agentdeck's hooks are not installed for claude")


def test_a_profile_without_hooks_has_nothing_to_drill(clis, monkeypatch):
    d = clis.config_dir / "profiles" / "quiet"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text('[profile]\ntargets = ["claude"]\n\n[hooks]\nevents = []\n')
    assert engine.apply_plan(clis, engine.build_plan(clis, "quiet", ["claude"])).ok
    runs = Runs(clis, monkeypatch)
    rep = drill(clis, "quiet", ["claude"])
    assert runs.calls == []
    assert rep.targets["claude"].skip == ready.NO_HOOKS
    assert "registers no hook for claude" in rep.targets["claude"].problems[0]


def test_a_broken_file_fails_that_target_in_one_line(clis, monkeypatch):
    assert engine.apply_plan(clis, engine.build_plan(clis, "default", ["claude"])).ok
    (target_home(clis, "claude") / "settings.json").write_text('{"hooks": ')
    runs = Runs(clis, monkeypatch)
    rep = drill(clis, "default", ALL)
    assert runs.calls == []
    r = rep.targets["claude"]
    assert r.status == "failed" and r.skip is None and len(r.problems) == 1
    assert r.problems[0].startswith("cannot plan claude: ") and "settings.json:1:" in r.problems[0]
    # the others are judged on their own (not installed here), not failed with it
    assert {t: rep.targets[t].skip for t in ALL if t != "claude"} == {
        t: ready.NOT_INSTALLED for t in ALL if t != "claude"}


def test_cli_text_is_one_line_per_skipped_target_and_exits_1(clis, monkeypatch, capsys):
    runs = Runs(clis, monkeypatch)
    rc = command.main(SimpleNamespace(profile=None, target=None, json=False), clis)
    cap = capsys.readouterr()
    assert rc == 1 and runs.calls == []
    assert cap.err == ""                                  # no "running…": no turn was started
    lines = cap.out.splitlines()
    assert lines[0].endswith(": no turn was run")
    for t in ALL:
        mine = [ln for ln in lines if ln.startswith(f"{t} ")]
        assert len(mine) == 1 and mine[0].startswith(f"{t:<8} skipped: agentdeck is not installed")
    assert lines[-1] == (f"Drill: 0 of {len(ALL)} CLIs ok; skipped (not ok): "
                         f"{', '.join(ALL)}. Nothing was drilled.")


def test_cli_json_keeps_its_shape(clis, monkeypatch, capsys):
    Runs(clis, monkeypatch)
    rc = command.main(SimpleNamespace(profile=None, target=["codex"], json=True), clis)
    data = json.loads(capsys.readouterr().out)
    assert rc == 1 and data["ok"] is False and set(data["targets"]) == {"codex"}
    c = data["targets"]["codex"]
    assert (c["ok"], c["status"], c["skip"]) == (False, "skipped", "not-installed")
    assert c["events"] == {} and c["seconds"] is None and len(c["problems"]) == 1


def test_doctor_rows_for_skipped_targets(clis, monkeypatch):
    Runs(clis, monkeypatch)
    rep = drill(clis, "default", ["claude"])
    f = findings.target_finding(rep.targets["claude"])
    assert (f.result, f.check) == ("info", "claude.live.drill")
    assert f.message.endswith("; nothing to prove yet")
    missing = report.skipped("codex", "codex is not installed (not found on PATH)",
                             ready.CLI_MISSING)
    assert findings.target_finding(missing).result == "skipped"
