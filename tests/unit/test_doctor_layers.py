"""Layers, drawn (core/doctor/layers_view.py): per CLI, the org, environment, project and home
layers, strongest first, with the one that decides the hooks now; a project file that switches
the hooks off is marked and decides; `doctor --layers` prints them, `--json` carries them."""
from __future__ import annotations

import json
import os

import pytest

from agentdeck.core import cli
from agentdeck.core.doctor.context import Ctx
from agentdeck.core.doctor.layers_view import rows
from agentdeck.core.targets import registry
from agentdeck.core.targets.layers import layers

from test_doctor_checks import install, make_host

TARGETS = tuple(registry.NAMES)
#: (target, a project layer of its with keys that switch the hooks off)
PROJECT = [(t, next(l for l in layers(t) if l.project and l.kind == "json" and l.keys))
           for t in TARGETS
           if any(l.project and l.kind == "json" and l.keys for l in layers(t))]


@pytest.fixture
def home(tmp_path):
    h = tmp_path / "home"
    h.mkdir()
    host = make_host(h)
    install(host)
    work = h / "work"
    work.mkdir()
    host.cwd = work
    return host


@pytest.mark.parametrize("target", TARGETS)
def test_a_clean_home_is_decided_by_agentdecks_own_file(home, target):
    got = rows(Ctx(host=home, targets=[target]), target)
    assert [r.layer for r in got][-1] == "home"
    order = [r.layer for r in got]
    assert order == sorted(order, key=["org", "env", "project", "home"].index), order
    (win,) = [r for r in got if r.wins]
    assert win.layer == "home" and "agentdeck's hooks" in win.decides and not win.undoes
    assert not [r for r in got if r.undoes]


@pytest.mark.parametrize("target", TARGETS)
def test_the_home_rows_name_the_files_of_the_adapters_reports(home, target):
    """agentdeck's own files in the home layer come from the adapter's typed reports: the file
    its hooks (or plugin) are registered in, and the file its MCP servers are written in."""
    ctx = Ctx(host=home, targets=[target])
    plan, _ = ctx.plan(target)
    out = plan.output[target]
    got = {r.path: r.decides for r in rows(ctx, target) if r.layer == "home"}
    assert out.hooks is not None or out.mcp is not None
    if out.hooks is not None:
        assert "agentdeck's hooks" in got[home.display(out.hooks.file)], got
    if out.mcp is not None:
        assert "MCP servers" in got[home.display(out.mcp.file)], got


@pytest.mark.parametrize("target,layer", PROJECT, ids=[t for t, _ in PROJECT])
def test_a_project_file_that_switches_hooks_off_decides_and_is_marked(home, target, layer):
    p = home.cwd / layer.path[3:]
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps({layer.keys[0]: True}))
    got = rows(Ctx(host=home, targets=[target]), target)
    (win,) = [r for r in got if r.wins]
    assert win.layer == "project" and win.path == home.display(p), got
    assert layer.keys[0] in win.undoes


def test_doctor_layers_prints_them_and_json_carries_them(home, capsys):
    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(home.env)
    cwd = os.getcwd()
    os.chdir(home.cwd)
    try:
        cli.main(["doctor", "--layers", "--home", str(home.home)])
        text = capsys.readouterr().out
        cli.main(["doctor", "--json", "--home", str(home.home)])
        data = json.loads(capsys.readouterr().out)
    finally:
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(old)
    for t in TARGETS:
        assert f"{registry.spec(t).title}: layers, strongest first" in text
        assert any(r["wins"] for r in data["layers"][t]), data["layers"][t]
    assert sum(1 for ln in text.splitlines() if ln.startswith("  > ")) == len(TARGETS)
