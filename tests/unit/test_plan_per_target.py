"""Each target is planned on its own. A broken file is an error for its target only
(naming file:line:col); the others are planned and shown; `plan` exits 1; `apply` applies
nothing while a selected target has an error, unless --target narrows the selection."""
from __future__ import annotations

import pytest

from agentdeck.core import engine
from agentdeck.core.cli import main
from agentdeck.core.errors import UserError
from agentdeck.core.targets import registry
from tests.conftest import snapshot_tree
from tests.target_homes import target_home

ALL = [s.name for s in registry.TARGETS]
BROKEN = "[mcp_servers.x]\ncommand = \n"


def _break_codex(host):
    cfg = target_home(host, "codex") / "config.toml"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    cfg.write_text(BROKEN)
    return cfg


def test_a_broken_codex_config_is_codex_s_error_only(ghost):
    cfg = _break_codex(ghost)
    plan = engine.build_plan(ghost, "default", ALL)
    assert set(plan.errors) == {"codex"}
    assert plan.errors["codex"].startswith(f"{cfg}:2:")
    assert not plan.for_target("codex")
    assert plan.for_target("copilot") and plan.for_target("claude")
    assert [n.level for n in plan.notices["codex"]] == ["error"]
    assert plan.to_json()["errors"] == {"codex": plan.errors["codex"]}


def test_apply_refuses_a_plan_with_a_target_in_error(ghost):
    _break_codex(ghost)
    before = snapshot_tree(ghost.home)
    plan = engine.build_plan(ghost, "default", ALL)
    with pytest.raises(UserError, match="nothing applied: codex: .*--target copilot,claude"):
        engine.apply_plan(ghost, plan)
    assert snapshot_tree(ghost.home) == before


def test_one_broken_target_alone_still_raises(ghost):
    cfg = _break_codex(ghost)
    with pytest.raises(UserError, match=str(cfg)):
        engine.build_plan(ghost, "default", ["codex"])


def test_cli_plan_shows_the_others_and_exits_1(ghost, capsys):
    for name in ALL:         # every CLI has its home here, so a plain `plan` covers each
        target_home(ghost, name).mkdir(parents=True, exist_ok=True)
    cfg = _break_codex(ghost)
    rc = main(["plan", "--home", str(ghost.home)])
    out, err = capsys.readouterr()
    assert rc == 1
    assert "copilot" in out and "claude" in out and "plan failed" in out
    assert f"codex: {cfg}:2:" in err


def test_cli_apply_writes_nothing_unless_target_narrows(ghost, capsys, handler_on_path):
    _break_codex(ghost)
    before = snapshot_tree(ghost.home)
    rc = main(["apply", "--yes", "--home", str(ghost.home)])
    capsys.readouterr()
    assert rc == 1 and snapshot_tree(ghost.home) == before
    rc = main(["apply", "--yes", "--home", str(ghost.home), "--target", "copilot,claude"])
    capsys.readouterr()
    assert rc == 0
    assert (target_home(ghost, "copilot") / "hooks" / "agentdeck.json").exists()
    assert (target_home(ghost, "codex") / "config.toml").read_text() == BROKEN
