"""config.toml edits: the operator's comments, ordering and unknown tables survive every apply
(and uninstall gives the file back byte for byte); the profile's native keys, `notify` only when
asked, a `hooks` table refused; persona and skills; TOML errors name file:line:col."""
from __future__ import annotations

import json
import tomllib

import pytest

from agentdeck.core import engine
from agentdeck.core.errors import UserError
from tests.target_homes import target_home

OPERATOR = """# Codex settings, hand-written.
model = "gpt-5-codex"   # the one I like

# sandboxing, do not touch
[sandbox_workspace_write]
network_access = false  # offline by default

[mcp_servers.local-db]
# my own database tool
command = "db-mcp"
args = ["--readonly"]

[profiles.deep]   # an unknown-to-agentdeck table
model_reasoning_effort = "high"
"""


@pytest.fixture
def cfg(host):
    p = target_home(host, "codex") / "config.toml"
    p.parent.mkdir(parents=True)
    p.write_text(OPERATOR)
    return p


def _apply(host, profile="default", trust=False):
    plan = engine.build_plan(host, profile, ["codex"], trust_hooks=trust)
    res = engine.apply_plan(host, plan)
    assert res.ok, res.leftover
    return plan


def test_comments_order_and_unknown_tables_survive(host, cfg):
    _apply(host)
    _apply(host, trust=True)
    text = cfg.read_text()
    assert text.startswith(OPERATOR)          # everything agentdeck adds goes after the operator's
    data = tomllib.loads(text)
    assert data["profiles"]["deep"] == {"model_reasoning_effort": "high"}
    assert set(data["mcp_servers"]) == {"local-db", "memory", "github"}
    assert not engine.build_plan(host, "default", ["codex"]).has_work


def test_uninstall_gives_config_toml_back_byte_for_byte(host, cfg):
    _apply(host, trust=True)
    plan = engine.build_uninstall_plan(host, ["codex"])
    assert engine.apply_plan(host, plan).ok
    assert cfg.read_text() == OPERATOR


def test_comment_inside_an_operator_edit_survives_our_update(host, cfg):
    _apply(host)
    cfg.write_text(cfg.read_text().replace('model = "gpt-5-codex"', 'model = "o5"  # switched'))
    prof = host.config_dir / "profiles" / "more"
    (prof / "codex").mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n[hooks]\ntimeout = 40\n')
    _apply(host, "more")
    assert 'model = "o5"  # switched' in cfg.read_text()
    assert "# my own database tool" in cfg.read_text()


def _native(host, text: str) -> str:
    prof = host.config_dir / "profiles" / "nat"
    (prof / "codex").mkdir(parents=True, exist_ok=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
    (prof / "codex" / "config.toml").write_text(text)
    return "nat"


def test_native_keys_are_managed_per_leaf_and_notify_only_when_asked(host, cfg):
    plan = engine.build_plan(host, "default", ["codex"])
    assert not [i for i in plan.items if i.key and i.key[0] == "notify"]
    name = _native(host, 'notify = ["notify-send", "codex"]\n[tui]\nstatus_line = ["model"]\n'
                         '[hooks.state."x"]\ntrusted_hash = "sha256:00"\n'
                         '[mcp_servers.memory]\nstartup_timeout_sec = 30\n')
    plan = engine.build_plan(host, name, ["codex"])
    labels = {i.label: i for i in plan.items}
    assert labels["notify"].desired == ["notify-send", "codex"]
    assert labels["tui.status_line"].key == ["tui", "status_line"]
    assert labels["MCP server memory"].desired["startup_timeout_sec"] == 30
    assert not [i for i in plan.items if i.key[:1] == ["hooks"] and "trust" not in i.label]
    assert any("table 'hooks' is dropped" in n.message for n in plan.notices["codex"])
    assert engine.apply_plan(host, plan).ok
    data = tomllib.loads(cfg.read_text())
    assert data["notify"] == ["notify-send", "codex"] and data["tui"] == {"status_line": ["model"]}
    assert "x" not in data.get("hooks", {}).get("state", {})   # the profile's table: dropped


def test_toml_error_is_one_line_with_position(host, cfg):
    cfg.write_text('model = "x"\n[broken\n')
    with pytest.raises(UserError) as e:
        engine.build_plan(host, "default", ["codex"])
    assert str(e.value).startswith(f"{cfg}:2:")


def test_persona_block_keeps_operator_text(host):
    p = target_home(host, "codex") / "AGENTS.md"
    p.parent.mkdir(parents=True)
    p.write_text("# Mine\n\nAlways answer in British English.\n")
    _apply(host)
    text = p.read_text()
    assert text.startswith("<!-- agentdeck:begin")
    assert text.endswith("# Mine\n\nAlways answer in British English.\n")
    assert "Instructions for Codex CLI" in text


def test_agents_are_not_installed_for_codex_and_say_so(host):
    plan = engine.build_plan(host, "default", ["codex"])
    assert not [i for i in plan.items if i.group == "agents"]
    assert any("no custom agents" in n.message and "reviewer" in n.message
               for n in plan.notices["codex"])
    skills = plan.output["codex"].skills
    assert skills is not None and skills.agents == ()


def test_commands_become_skills_in_the_shared_dir(host):
    plan = _apply(host)
    skill = host.agents_skills_dir / "review" / "SKILL.md"
    assert skill.read_text().startswith('---\nname: "review"\ndescription: "Review the current diff')
    link = host.agents_skills_dir / "changelog"
    assert link.is_symlink()
    info = plan.output["codex"].skills
    assert info is not None
    assert [c.name for c in info.commands] == ["review"]
    assert [l.name for l in info.links] == ["changelog"]


def test_symlinked_skill_of_a_command_name_wins(host, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    host.agents_skills_dir.mkdir(parents=True)
    (host.agents_skills_dir / "review").symlink_to(mine)
    plan = engine.build_plan(host, "default", ["codex"])
    assert not [i for i in plan.items if i.label == "command review as a skill"]
    assert any("existing symlinked skill wins" in n.message for n in plan.notices["codex"])


def test_wrapper_is_0755_and_runs_the_handler(host, tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "agentdeck-hook").write_text("#!/bin/sh\nexit 0\n")
    (bindir / "agentdeck-hook").chmod(0o755)
    host.env["PATH"] = f"{bindir}:/usr/bin:/bin"
    _apply(host)
    w = target_home(host, "codex") / "agentdeck-hook.sh"
    assert w.stat().st_mode & 0o777 == 0o755
    text = w.read_text()
    assert "AGENTDECK_TARGET=codex" in text and f"\n{bindir}/agentdeck-hook \"$AGENTDECK_EVENT\"\nrc=$?\n" in text


def test_plan_json_carries_the_info(host):
    plan = engine.build_plan(host, "default", ["codex"])
    from agentdeck.core.plan import dumps
    obj = json.loads(dumps(plan))
    assert {i["label"] for i in obj["items"]} >= {"hooks (10 events)", "MCP server github", "persona"}


def test_unknown_or_mistyped_native_keys_are_not_written(host, cfg):
    from agentdeck.core.targets.codex.facts import CODEX
    if not getattr(CODEX, "config_keys", None):
        pytest.skip("agentdeck.core.targets.codex.facts has no config key catalogue in this build")
    name = _native(host, 'modle = "typo"\nnotify = "notify-send"\nmodel = "o5"\n')
    plan = engine.build_plan(host, name, ["codex"])
    labels = {i.label for i in plan.items}
    assert "model" in labels and "modle" not in labels and "notify" not in labels
    msgs = " ".join(n.message for n in plan.notices["codex"])
    assert "'modle' is not written: Codex does not know it" in msgs
    assert "'notify' is not written: Codex expects a list of strings" in msgs
