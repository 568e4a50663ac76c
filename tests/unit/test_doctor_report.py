"""The doctor's public API (agentdeck.core.doctor.run) and its report: the RESULT / CHECK / MESSAGE table
grouped by target with the home shown as ~, --json, and the exit status."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agentdeck.core import cli, doctor
from agentdeck.core.doctor.findings import RESULTS, Finding
from agentdeck.core.doctor.report import exit_code, render_text
from agentdeck.core.errors import UserError
from agentdeck.core.targets import registry

from test_doctor_checks import FIXTURES, install, make_host

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def messy(tmp_path):
    home = tmp_path / "home"
    shutil.copytree(FIXTURES / "messy", home)
    return make_host(home)


def _cli(host, *args, capsys):
    """agentdeck doctor on host's home, with host's environment (PATH: the stub handler)."""
    import os
    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(host.env)
    try:
        rc = cli.main(["doctor", "--home", str(host.home), *args])
    finally:
        os.environ.clear()
        os.environ.update(old)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_run_api_targets_progress_and_order(messy):
    said: list[str] = []
    wanted = list(reversed(registry.NAMES))      # every target, not in the registry's order
    fs = doctor.run(messy, "default", wanted, live=False, progress=said.append)
    assert fs and all(isinstance(f, Finding) for f in fs)
    assert [t for t in dict.fromkeys(f.target for f in fs)] == wanted
    assert all(f.result in RESULTS and f.check.startswith(f.target + ".") for f in fs)
    assert said and all(isinstance(s, str) for s in said)
    assert not any(f.live for f in fs)
    with pytest.raises(UserError):
        doctor.run(messy, targets=["nope"])


def test_every_finding_is_one_line_with_the_home_as_tilde(messy):
    fs = doctor.run(messy)
    home = str(messy.home)
    for f in fs:
        assert "\n" not in f.message and "\n" not in f.fix
        assert home not in f.message and home not in f.fix, f
        assert f.path is None or not f.path.startswith(home), f.path
        json.dumps(f.to_json())


def test_table_grouped_by_target_with_fix_hints_and_exit_1(messy, capsys):
    """--verbose: one RESULT / CHECK / MESSAGE table per target, after the verdicts."""
    rc, out, _ = _cli(messy, "--verbose", capsys=capsys)
    assert rc == 1
    assert str(messy.home) not in out
    lines = out.splitlines()
    assert lines[0].startswith("agentdeck doctor: profile default")
    for spec in registry.TARGETS:
        assert f"{spec.title} ({spec.name})" in lines
    # one table per target the doctor checks (every registered one), after the problems' table
    assert sum(1 for ln in lines if ln.startswith("RESULT ") and "CHECK" in ln
               and "MESSAGE" in ln) == len(registry.TARGETS) + 1
    row = next(ln for ln in lines if ln.startswith("error") and "copilot.hooks.events" in ln)
    assert "~/.copilot/hooks/old.json:4: event 'AgentStop'" in row
    assert any(ln.strip().startswith("fix: rename it to 'agentStop'") for ln in lines)
    assert lines[-1].startswith("Summary: ") and "error" in lines[-1]


def test_default_is_verdicts_then_problems(messy, capsys):
    """Without --verbose: a verdict line per registered target, then the problems with their
    fixes; no table per target, no ok row."""
    rc, out, _ = _cli(messy, capsys=capsys)
    assert rc == 1
    lines = out.splitlines()
    for spec in registry.TARGETS:
        assert any(ln[2:].startswith(spec.title) and ln[0] in "✓!✗-" for ln in lines[:8]), spec
    assert not any(f"({spec.name})" == ln.split(" ")[-1] for spec in registry.TARGETS
                   for ln in lines)
    assert not [ln for ln in lines if ln.startswith("ok ")]
    row = next(ln for ln in lines if ln.startswith("error") and "copilot.hooks.events" in ln)
    assert "~/.copilot/hooks/old.json:4" in row
    assert lines[-1].startswith("Summary: ")


def test_json_output(messy, capsys):
    rc, out, _ = _cli(messy, "--json", "-t", "codex", capsys=capsys)
    data = json.loads(out)
    assert rc == data["exit"] == 1
    assert data["format"] == 1 and data["targets"] == ["codex"] and data["live"] is False
    assert {f["target"] for f in data["findings"]} == {"codex"}
    hooks = [f for f in data["findings"] if f["check"] == "codex.hooks.parse"]
    assert hooks[0]["result"] == "error" and hooks[0]["path"] == "~/.codex/hooks.json"
    assert hooks[0]["line"] == 2
    assert data["summary"]["error"] == sum(1 for f in data["findings"] if f["result"] == "error")


def test_installed_home_exits_0(tmp_path, capsys):
    home = tmp_path / "home"
    home.mkdir()
    host = make_host(home)
    install(host)
    rc, out, _ = _cli(host, capsys=capsys)
    assert rc == 0, out
    assert "error" not in {ln.split()[0] for ln in out.splitlines() if ln.split()}


def test_fresh_home_reports_not_installed_as_info(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    fs = doctor.run(make_host(home))
    assert exit_code(fs) == 0
    assert {f.result for f in fs} <= {"ok", "info", "skipped"}
    assert [f for f in fs if f.check == "copilot.home" and f.result == "info"]
    assert [f for f in fs if f.check == "copilot.plan" and "not installed" in f.message]


def test_warnings_alone_exit_0():
    fs = [Finding("copilot", "warning", "copilot.x", "m"), Finding("codex", "ok", "codex.y", "m")]
    assert exit_code(fs) == 0
    assert exit_code(fs + [Finding("claude", "error", "claude.z", "m")]) == 1
    text = render_text(fs, profile="p", live=False)
    assert "Summary: 1 warning, 1 ok; no errors (see the warnings)." in text


def test_a_crashing_check_becomes_an_error_row(messy, monkeypatch):
    from agentdeck.core.doctor.registry import CHECKS

    def boom(ctx, out):
        raise RuntimeError("kaput")
    idx = next(i for i, c in enumerate(CHECKS) if c.id == "copilot.mcp.parse")
    chk = CHECKS[idx]
    patched = list(CHECKS)
    patched[idx] = type(chk)(chk.id, chk.target, boom, chk.ok, chk.needs_home)
    monkeypatch.setattr("agentdeck.core.doctor.registry.CHECKS", patched)
    fs = doctor.run(messy, targets=["copilot"])
    row = [f for f in fs if f.check == "copilot.mcp.parse"]
    assert len(row) == 1 and row[0].result == "error" and "kaput" in row[0].message
    assert [f for f in fs if f.check == "copilot.mcp.dropped" and f.result == "error"]


def test_import_is_light():
    code = ("import sys, core.doctor\n"
            "heavy = [m for m in ('agentdeck.core.targets.copilot.doctor', 'agentdeck.core.doctor.runner', 'rich', "
            "'textual', 'tomlkit', 'pydantic') if m in sys.modules]\n"
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_static_doctor_imports_no_rich(tmp_path):
    code = ("import sys\nfrom core.host import Host\nfrom core.doctor.report import render_text\n"
            "from core import doctor\n"
            f"fs = doctor.run(Host.from_environment({str(tmp_path)!r}))\n"
            "print(render_text(fs, profile='default', live=False)[:10])\n"
            "print([m for m in ('rich', 'textual') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"
