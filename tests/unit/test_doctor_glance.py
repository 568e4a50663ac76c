"""The doctor at a glance: a verdict per CLI first, then the problems with their fixes, `ok` rows
only with --verbose (core/doctor/verdict.py, core/doctor/report.py); the upgrade notice in
`status` and the doctor (core/upgrade.py) from a stub CLI that reports another version; the
drill's record on this machine (core/drill/record.py), forged or not."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agentdeck.core import cli, engine
from agentdeck.core.drill import record
from agentdeck.core.drill.report import DrillReport, TargetReport
from agentdeck.core.facts.versions import facts_by_target
from agentdeck.core.targets import registry

from test_doctor_checks import install, make_host

TARGETS = tuple(registry.NAMES)
SCREEN = 24      # the first screenful


@pytest.fixture
def home(tmp_path):
    h = tmp_path / "home"
    h.mkdir()
    host = make_host(h)
    install(host)
    return host


def _cli(host, *args, capsys, path_first: Path | None = None) -> tuple[int, str]:
    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(host.env)
    if path_first is not None:
        os.environ["PATH"] = f"{path_first}{os.pathsep}{os.environ['PATH']}"
    try:
        rc = cli.main([*args, "--home", str(host.home)])
    finally:
        os.environ.clear()
        os.environ.update(old)
    return rc, capsys.readouterr().out


def _wrapper(host, target: str) -> Path:
    plan = engine.build_plan(host, "default", [target])
    return Path(plan.output[target].hooks.wrapper)


@pytest.mark.parametrize("target", TARGETS)
def test_one_problem_shows_in_the_first_screenful_with_its_fix(home, target, capsys):
    """One CLI's hook wrapper loses its exec bit: the first screenful has that CLI's ✗ verdict
    saying its hooks are inert, the problem row and its fix; every other CLI reads ✓; no `ok`
    row is printed unless --verbose."""
    _wrapper(home, target).chmod(0o644)
    rc, out = _cli(home, "doctor", capsys=capsys)
    assert rc == 1, out
    first = out.splitlines()[:SCREEN]
    title = registry.spec(target).title
    mine = [ln for ln in first if ln.startswith(f"✗ {title}")]
    assert mine and "hooks INERT" in mine[0], out
    others = [registry.spec(t).title for t in TARGETS if t != target]
    for t in others:
        assert any(ln.startswith(f"✓ {t}") for ln in first), (t, out)
    problem = [i for i, ln in enumerate(first) if ln.startswith("error") and f"{target}." in ln]
    assert problem, out
    assert first[problem[0] + 1].strip().startswith("fix: "), out
    assert not [ln for ln in out.splitlines() if ln.startswith("ok ")], out
    _, verbose = _cli(home, "doctor", "--verbose", capsys=capsys)
    assert [ln for ln in verbose.splitlines() if ln.startswith("ok ")]


def test_json_has_the_same_shape(home, capsys):
    target = TARGETS[0]
    _wrapper(home, target).chmod(0o644)
    rc, out = _cli(home, "doctor", "--json", capsys=capsys)
    data = json.loads(out)
    assert rc == data["exit"] == 1
    marks = {v["target"]: v["mark"] for v in data["verdicts"]}
    assert marks[target] == "error"
    assert all(marks[t] == "ok" for t in TARGETS if t != target), marks
    assert data["problems"] and all(p["result"] in ("error", "warning") for p in data["problems"])
    assert data["problems"][0]["target"] == target and data["problems"][0]["fix"]


# ---- the upgrade notice --------------------------------------------------------------------------

def _stub_cli(root: Path, target: str, version: str) -> Path:
    """An npm-installed stub of the target's CLI that reports `version` (package.json, as
    core/installed.py reads it, and --version); returns the bin folder to put first on PATH."""
    spec = registry.spec(target)
    pkg = root / "node_modules" / spec.npm_package
    (pkg / "bin").mkdir(parents=True)
    (pkg / "package.json").write_text(json.dumps({"name": spec.npm_package, "version": version}))
    exe = pkg / "bin" / spec.binary
    exe.write_text(f"#!/bin/sh\necho {version}\n")
    exe.chmod(0o755)
    bin_dir = root / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / spec.binary).symlink_to(exe)
    return bin_dir


def _newer(target: str) -> str:
    hi = facts_by_target()[target].verified_versions[1]
    parts = hi.split(".")
    parts[-1] = str(int(parts[-1]) + 3)
    return ".".join(parts)


@pytest.mark.parametrize("target", TARGETS)
def test_a_newer_cli_than_the_facts_is_said_by_status_and_the_doctor(home, target, tmp_path,
                                                                      capsys):
    version = _newer(target)
    bin_dir = _stub_cli(tmp_path / "stub", target, version)
    binary = registry.spec(target).binary
    _, out = _cli(home, "status", capsys=capsys, path_first=bin_dir)
    want = f"{binary} {version} installed; facts verified on "
    assert want in out, out
    _, doc = _cli(home, "doctor", capsys=capsys, path_first=bin_dir)
    assert want in "\n".join(doc.splitlines()[:SCREEN]), doc
    # the version the facts name: nothing to say
    same = facts_by_target()[target].verified_versions[1]
    bin2 = _stub_cli(tmp_path / "stub2", target, same)
    _, out = _cli(home, "status", capsys=capsys, path_first=bin2)
    assert "installed; facts verified on" not in out, out


@pytest.mark.parametrize("target", TARGETS)
def test_a_cli_drilled_on_another_version_says_not_since(home, target, tmp_path, capsys):
    same = facts_by_target()[target].verified_versions[1]
    bin_dir = _stub_cli(tmp_path / "stub", target, same)
    old = "0.0.1"
    record.save(home, [record.Entry(target, old, 1_700_000_000, True, "ok")])
    _, out = _cli(home, "status", capsys=capsys, path_first=bin_dir)
    assert f"last drilled on {old}, not since: run `agentdeck drill`" in out, out
    record.save(home, [record.Entry(target, same, 1_700_000_100, True, "ok")])
    _, out = _cli(home, "status", capsys=capsys, path_first=bin_dir)
    assert "not since" not in out and "installed;" not in out, out
    _, doc = _cli(home, "doctor", capsys=capsys, path_first=bin_dir)
    verdict = next(ln for ln in doc.splitlines() if ln.startswith(f"✓ {registry.spec(target).title}"))
    assert "ago: held" in verdict, doc


# ---- the record ----------------------------------------------------------------------------------

def test_the_record_keeps_each_version_and_what_held(tmp_path):
    host = make_host(_mk(tmp_path))
    t = TARGETS[0]
    rep = DrillReport("d1", {t: TargetReport(t, "ok", True, version="9.9.9", seconds=3.0,
                                             rules=[{"id": "r1", "status": "held"},
                                                    {"id": "r2", "status": "not held"}])},
                      3.0, "isolated")
    record.save(host, record.entries_of(rep, now=1_800_000_000))
    got = record.load(host)[t]["9.9.9"]
    assert got.ok and got.rules == {"r1": "held", "r2": "not held"}
    assert (record.path(host).stat().st_mode & 0o777) == 0o600
    # a CLI skipped before its turn proves nothing: no entry
    skipped = DrillReport("d2", {t: TargetReport(t, "skipped", False, version="9.9.10")}, 0, "")
    assert record.entries_of(skipped) == []


@pytest.mark.parametrize("forged", [b"not json", b"[]", b'{"targets": {"x": 1}}',
                                    b'{"targets": {"copilot": {"versions": {"1": {"when": "x"}}}}}',
                                    b"\xff\xfe", b""])
def test_a_forged_record_is_no_record(tmp_path, forged):
    host = make_host(_mk(tmp_path))
    record.path(host).parent.mkdir(parents=True, exist_ok=True)
    record.path(host).write_bytes(forged)
    assert record.load(host) == {}
    assert record.latest(host, TARGETS[0]) is None


def test_a_fifo_or_a_folder_as_the_record_is_no_record_and_no_hang(tmp_path):
    host = make_host(_mk(tmp_path))
    p = record.path(host)
    p.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(p)
    assert record.load(host) == {}
    record.save(host, [record.Entry(TARGETS[0], "1.0.0", 1.0, True, "ok")])   # refused quietly
    p.unlink()
    p.mkdir()
    assert record.load(host) == {}


def _mk(tmp_path: Path) -> Path:
    h = tmp_path / "home"
    h.mkdir()
    return h


@pytest.mark.parametrize("target", TARGETS)
def test_a_cli_nothing_guards_yet_is_not_a_tick(tmp_path, target, capsys):
    """A home where the profile is not applied: every finding is info, yet nothing guards the
    CLI, so its verdict is !, never ✓."""
    h = tmp_path / "home"
    h.mkdir()
    host = make_host(h)
    engine.build_plan(host, "default", [target])          # reads only
    (h / registry.spec(target).home(host).relative_to(h)).mkdir(parents=True, exist_ok=True)
    _, out = _cli(host, "doctor", "--json", capsys=capsys)
    v = next(x for x in json.loads(out)["verdicts"] if x["target"] == target)
    assert v["guard"] == [] and v["hooks"] == "not installed" and v["mark"] == "warning", v


@pytest.mark.parametrize("target", TARGETS)
def test_the_verdict_counts_the_mcp_servers_the_adapter_reports(home, target, capsys):
    """The verdict's MCP fact is the adapter's MCP report (TargetOutput.mcp) as on disk now."""
    report = engine.build_plan(home, "default", [target]).output[target].mcp
    assert report is not None and report.servers      # the default profile has servers
    on = sum(1 for s in report.servers if s.enabled_now)
    _, out = _cli(home, "doctor", capsys=capsys)
    line = next(ln for ln in out.splitlines() if registry.spec(target).title in ln)
    assert f"MCP {on} on, {len(report.servers) - on} off" in line, out
