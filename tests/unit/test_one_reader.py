"""One reader: one `plan` of an installed home opens each configuration file at
most once, every file it reads is a plan input, and the doctor says what the plan says about a
broken file (both read through core.disk)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from agentdeck.core import engine
from agentdeck.core.doctor.context import Ctx
from agentdeck.core.errors import UserError
from agentdeck.core.host import Host
from agentdeck.core.targets import registry
from tests.target_homes import target_home

ALL = list(registry.NAMES)


def _count_reads(monkeypatch, host: Host) -> Counter:
    """Every host read of a file's bytes, by path (read_text reads through read_bytes)."""
    reads: Counter = Counter()
    real = Host.read_bytes

    def counting(self, path, *a, **kw):
        reads[str(path)] += 1
        return real(self, path, *a, **kw)

    monkeypatch.setattr(Host, "read_bytes", counting)
    return reads


def _installed(ghost) -> None:
    res = engine.apply_plan(ghost, engine.build_plan(ghost, "default", ALL))
    assert res.ok, res.leftover


def test_one_plan_of_an_installed_home_opens_each_config_file_once(ghost, monkeypatch):
    _installed(ghost)
    reads = _count_reads(monkeypatch, ghost)
    plan = engine.build_plan(ghost, "default", ALL)
    assert not plan.has_work
    home = str(ghost.home)
    config = {p: n for p, n in reads.items() if p.startswith(home)
              and "/.config/agentdeck/profiles/" not in p}
    # the configuration files and every manifest: read, and read once
    for must in (target_home(ghost, "copilot") / ".agentdeck-managed.json", target_home(ghost, "copilot") / "settings.json",
                 target_home(ghost, "copilot") / "mcp-config.json", target_home(ghost, "copilot") / "hooks" / "agentdeck.json",
                 target_home(ghost, "codex") / "config.toml", target_home(ghost, "codex") / ".agentdeck-managed.json",
                 target_home(ghost, "claude") / "settings.json", target_home(ghost, "claude") / ".agentdeck-managed.json"):
        assert config.get(str(must)) == 1, (must, config.get(str(must)))
    twice = {p: n for p, n in config.items() if n > 1}
    assert not twice, twice


def test_every_file_the_plan_reads_is_a_plan_input(ghost, monkeypatch):
    _installed(ghost)
    reads = _count_reads(monkeypatch, ghost)
    plan = engine.build_plan(ghost, "default", ALL)
    state = str(ghost.state_dir)
    read = {p for p in reads if p.startswith(str(ghost.home)) and not p.startswith(state)
            and "/.config/agentdeck/profiles/" not in p}
    missing = read - set(plan.inputs)
    assert not missing, missing
    # and so a change to any of them makes the plan stale (here: a file only read for a report)
    cfg = target_home(ghost, "copilot") / "config.json"
    assert str(cfg) in plan.inputs


def test_a_change_to_a_read_only_input_makes_the_plan_stale(ghost):
    cfg = target_home(ghost, "copilot") / "config.json"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text('{"trustedFolders": []}\n')
    plan = engine.build_plan(ghost, "default", ["copilot"])
    cfg.write_text('{"trustedFolders": ["/tmp"]}\n')
    with pytest.raises(UserError, match="changed"):
        engine.apply_plan(ghost, plan)


def _doctor_message(host: Host, path: Path, fmt: str) -> str:
    ld = Ctx(host, targets=["codex"]).toml(path) if fmt == "toml" else Ctx(host).json(path)
    return f"{ld.path}:{ld.line}:{ld.col}: {ld.error}"


@pytest.mark.parametrize("text, expect", [
    ("[a.b]\nx = 1\n[a.b]\ny = 2\n", "a.b"),
    ("\ufeff[a]\nx = 1\n", "byte-order mark"),
])
def test_doctor_and_plan_say_the_same_about_a_broken_toml(ghost, text, expect):
    cfg = target_home(ghost, "codex") / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as e:
        engine.build_plan(ghost, "default", ["codex"])
    assert expect in str(e.value)
    assert _doctor_message(ghost, cfg, "toml") == str(e.value)


def test_doctor_plans_read_through_its_own_view_once(ghost, monkeypatch):
    """The doctor's context and the plans it builds share one view: each file opened once."""
    _installed(ghost)
    reads = _count_reads(monkeypatch, ghost)
    ctx = Ctx(ghost, targets=ALL)
    for t in ALL:
        ctx.json(target_home(ghost, "copilot") / "settings.json")
        plan, err = ctx.plan(t)
        assert err is None and plan is not None
    assert reads[str(target_home(ghost, "copilot") / "settings.json")] == 1
    assert reads[str(target_home(ghost, "copilot") / ".agentdeck-managed.json")] == 1
