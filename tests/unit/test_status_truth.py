"""`status` never says "in sync" for a target whose plan failed (text and --json: the one-line
error, exit 1), and a wrapper that lost its exec bit is seen (hooks inert) and put back by apply."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agentdeck.core import cli, engine, hooks_health
from agentdeck.core.targets import registry
from tests.registry_kit import HOOKED
from tests.target_homes import target_home


def _status(host, capsys, monkeypatch, *extra):
    monkeypatch.setenv("PATH", host.env["PATH"])
    rc = cli.main(["status", "--home", str(host.home), *extra])
    return rc, capsys.readouterr().out


def _break(host, how):
    if how == "toml":
        p = target_home(host, "codex") / "config.toml"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("model = = 1\n")
        return "codex", f"{p}:1:"
    p = target_home(host, "claude") / "settings.json"
    if p.exists():
        p.unlink()
    p.mkdir(parents=True)
    return "claude", str(p)


@pytest.mark.parametrize("how", ["toml", "dir"])
@pytest.mark.parametrize("installed", [False, True])
def test_a_target_whose_plan_failed_is_an_error_in_status(ghost, capsys, monkeypatch, how,
                                                          installed):
    for spec in registry.TARGETS:   # every CLI has its home: a plain status covers each
        target_home(ghost, spec.name).mkdir(parents=True, exist_ok=True)
    if installed:
        assert engine.apply_plan(ghost, engine.build_plan(ghost, "default")).ok
    target, where = _break(ghost, how)
    rc, out = _status(ghost, capsys, monkeypatch)
    assert rc == 1
    line = next(ln for ln in out.splitlines() if ln.startswith(target))
    assert "in sync" not in line and line.split(None, 1)[1].startswith("error: ")
    assert where in line
    rc, out = _status(ghost, capsys, monkeypatch, "--json")
    assert rc == 1
    row = next(r for r in json.loads(out) if r["target"] == target)
    assert row["state"].startswith("error: ") and where in row["error"]
    others = [r for r in json.loads(out) if r["target"] != target]
    assert others and all(r["error"] is None for r in others)
    # the failing target alone: the same row (not a bare error without the target)
    rc, out = _status(ghost, capsys, monkeypatch, "--json", "--target", target)
    assert rc == 1 and [r["target"] for r in json.loads(out)] == [target]
    assert json.loads(out)[0]["state"].startswith("error: ")


@pytest.mark.parametrize("target", HOOKED)
def test_a_wrapper_without_its_exec_bit_is_inert_and_apply_puts_the_mode_back(
        ghost, capsys, monkeypatch, target):
    plan = engine.build_plan(ghost, "default", [target])
    assert engine.apply_plan(ghost, plan).ok
    w = Path(plan.output[target].hooks.wrapper)
    text = w.read_bytes()
    os.chmod(w, 0o644)
    rc, out = _status(ghost, capsys, monkeypatch, "--target", target)
    assert rc == 2 and "in sync" not in out
    assert f"the hook wrapper ~/{w.relative_to(ghost.home)} is not executable" in out
    plan = engine.build_plan(ghost, None, [target])
    [item] = [i for i in plan.items if i.path == str(w)]
    assert item.cls == "update" and plan.action(item) == "write"
    assert "its mode is now 644, agentdeck wrote it 755" in item.reason
    assert plan.has_changes
    # a plan that writes the wrapper again leaves no inert hooks behind once applied
    assert engine.apply_plan(ghost, plan).ok
    assert os.stat(w).st_mode & 0o777 == 0o755 and w.read_bytes() == text
    rc, out = _status(ghost, capsys, monkeypatch, "--target", target)
    assert rc == 0 and "hooks inert" not in out, out


def test_an_edited_wrapper_is_put_back(ghost):
    """The wrapper is agentdeck's own (core/seal.py: it carries the guard's fail mode and the
    policy's digest): changed content is damage, not a hand-edit to keep; the plan shows it and
    apply puts it back (the edited bytes go to the backups like every replaced file)."""
    assert engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["claude"])).ok
    w = target_home(ghost, "claude") / "agentdeck-hook.sh"
    good = w.read_text()
    w.write_text(good.replace("AGENTDECK_ON_ERROR=deny", "AGENTDECK_ON_ERROR=allow") + "# mine\n")
    plan = engine.build_plan(ghost, None, ["claude"])
    [item] = [i for i in plan.items if i.path == str(w)]
    assert item.cls == "update" and plan.action(item) == "write"
    assert "agentdeck's own file" in item.reason
    assert engine.apply_plan(ghost, plan).ok and w.read_text() == good
