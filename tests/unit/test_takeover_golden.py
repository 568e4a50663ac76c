"""Taking over an agentihooks install (docs/migrating.md), on a home produced by the
real agentihooks 2.17.0 from PyPI (`agentihooks init --target copilot`; tests/clients/
agentihooks_kit.py installs it, and these tests are skipped with pip's reason when it cannot).

Golden: the plan as the operator reads it (one group for the install, its parts and their fate).
Then: each event is registered once after apply, the persona is the operator's decision, the
next plan is empty, and uninstall gives the agentihooks home back byte for byte (everything but
agentdeck's own state dir). The real Copilot's view of it is tests/clients/test_takeover_real.py.

Regenerate after an intended change with:
  AGENTDECK_UPDATE_GOLDEN=1 python -m pytest tests/unit/test_takeover_golden.py
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agentdeck.core import cli, engine, profiles
from agentdeck.core.plan import ItemClass
from agentdeck.core.render import render_plan
from tests.clients.agentihooks_kit import init_home, snapshot, venv_dir
from tests.target_homes import target_home

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "takeover"
UPDATE = os.environ.get("AGENTDECK_UPDATE_GOLDEN") == "1"


@pytest.fixture
def aih(ghost):
    """The ghost host's home, holding a fresh agentihooks 2.17.0 Copilot install."""
    why = init_home(ghost.home, "copilot")
    if why:
        pytest.skip(why)
    return ghost


def state_rel(host) -> str:
    return os.path.relpath(host.state_dir, host.home)


def normalize(text: str, host) -> str:
    return (text.replace(str(profiles.bundled_dir()), "<PROFILES>")
                .replace(str(venv_dir()), "<AGENTIHOOKS_VENV>")
                .replace(str(host.home), "<HOME>"))


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    assert path.exists(), f"no golden file {path}: run with AGENTDECK_UPDATE_GOLDEN=1"
    assert text == path.read_text()


def persona_id(host) -> str:
    return f"{target_home(host, 'copilot') / 'copilot-instructions.md'}#block"


def aside_id(host) -> str:
    return str(target_home(host, "copilot") / "hooks" / "agentihooks.json")


def test_plan_shows_one_group_for_the_install(aih):
    plan = engine.build_plan(aih, "default", ["copilot"])
    check_golden("agentihooks_copilot_plan.txt", normalize(render_plan(plan, aih), aih))
    (found,) = plan.to_json()["found"]["copilot"]
    assert found["tool"] == "agentihooks" and found["version"] == "2.17.0"
    assert found["title"] == ("agentihooks 2.17.0 found: hooks file, managed settings sidecar, "
                              "persona block, env file and shell block, MCP server")
    fates = {p["what"]: p["fate"] for p in found["parts"]}
    assert fates == {"hooks file": "set aside", "managed settings sidecar": "kept",
                     "persona block": "decide", "env file and shell block": "kept",
                     "MCP server": "kept"}
    aside = plan.get(aside_id(aih))
    assert aside.kind == "aside" and aside.cls == ItemClass.CREATE and plan.action(aside) == "write"
    persona = plan.get(persona_id(aih))
    assert persona.cls == ItemClass.CONFLICT          # the operator decides: keep or replace
    # its MCP server is not quietly switched off
    assert not any(i.label == "disabledMcpServers: agentihooks" for i in plan.items)
    row = plan.output["copilot"].mcp.server("agentihooks")
    assert row is not None and row.enabled is True


def test_apply_yes_with_the_persona_undecided_exits_2_and_names_it(aih, monkeypatch, capsys):
    monkeypatch.setenv("PATH", aih.env["PATH"])
    before = snapshot(aih.home)
    rc = cli.main(["--home", str(aih.home), "apply", "--target", "copilot", "--yes"])
    out = capsys.readouterr()
    assert rc == 2
    assert "persona" in out.out + out.err
    # the rest was applied, the agentihooks persona is untouched
    after = snapshot(aih.home)
    assert after[".copilot/copilot-instructions.md"] == before[".copilot/copilot-instructions.md"]
    assert ".copilot/hooks/agentihooks.json" not in after


def test_take_over_then_uninstall_gives_the_agentihooks_home_back(aih):
    before = snapshot(aih.home)
    plan = engine.build_plan(aih, "default", ["copilot"])
    plan.decide(persona_id(aih), "take")
    assert engine.apply_plan(aih, plan).ok
    # each Copilot event is registered once, by agentdeck's hooks file
    hooks_dir = target_home(aih, "copilot") / "hooks"
    assert sorted(os.listdir(hooks_dir)) == ["agentdeck.json"]
    events = json.loads((hooks_dir / "agentdeck.json").read_text())["hooks"]
    assert len(events) == 12 and all(len(v) == 1 for v in events.values())
    # the persona is the profile's, and the agentihooks region is gone from the file
    text = (target_home(aih, "copilot") / "copilot-instructions.md").read_text()
    assert text.startswith("<!-- agentdeck:begin") and "agentihooks:managed-end" not in text
    # its settings keys stay; its MCP server is not disabled
    settings = json.loads((target_home(aih, "copilot") / "settings.json").read_text())
    assert settings["statusLine"]["command"].endswith("-m hooks.statusline")
    assert "agentihooks" not in settings.get("disabledMcpServers", [])
    # the next plan is empty, and says the take-over holds
    again = engine.build_plan(aih, "default", ["copilot"])
    assert not again.has_work
    (found,) = again.to_json()["found"]["copilot"]
    fates = {p["what"]: p["fate"] for p in found["parts"]}
    assert fates["hooks file"] == "set aside" and fates["persona block"] == "replaced"
    check_golden("agentihooks_copilot_after.txt", normalize(render_plan(again, aih), aih))

    un = engine.build_uninstall_plan(aih, ["copilot"])
    assert engine.apply_plan(aih, un).ok
    after = snapshot(aih.home, skip=(state_rel(aih),))
    assert after == {k: v for k, v in before.items() if not k.startswith(state_rel(aih) + "/")}


def test_keeping_its_persona_writes_none_of_ours_and_is_remembered(aih):
    before = snapshot(aih.home)
    plan = engine.build_plan(aih, "default", ["copilot"])
    plan.decide(persona_id(aih), "keep")
    assert engine.apply_plan(aih, plan).ok
    path = ".copilot/copilot-instructions.md"
    assert snapshot(aih.home)[path] == before[path]
    again = engine.build_plan(aih, "default", ["copilot"])
    assert not again.has_work and not again.undecided_conflicts()
    assert again.get(persona_id(aih)).cls == ItemClass.HAND_EDITED
    assert engine.apply_plan(aih, engine.build_uninstall_plan(aih, ["copilot"])).ok
    after = snapshot(aih.home, skip=(state_rel(aih),))
    assert after == {k: v for k, v in before.items() if not k.startswith(state_rel(aih) + "/")}


def test_agentihooks_init_again_brings_its_hooks_file_back_and_the_plan_says_so(aih):
    plan = engine.build_plan(aih, "default", ["copilot"])
    plan.decide(persona_id(aih), "keep")
    assert engine.apply_plan(aih, plan).ok
    assert init_home(aih.home, "copilot") == ""          # the operator re-runs agentihooks
    hooks = target_home(aih, "copilot") / "hooks" / "agentihooks.json"
    assert hooks.exists()
    rewritten = hooks.read_bytes()
    again = engine.build_plan(aih, "default", ["copilot"])
    item = again.get(aside_id(aih))
    assert item.cls == ItemClass.HAND_EDITED and "it is back" in item.reason
    assert again.action(item) == "none"                   # kept until the operator takes it
    again.decide(item.id, "take")
    assert engine.apply_plan(aih, again).ok
    assert not hooks.exists()
    # uninstall puts back the file agentihooks wrote last, not the first one
    assert engine.apply_plan(aih, engine.build_uninstall_plan(aih, ["copilot"])).ok
    assert hooks.read_bytes() == rewritten
