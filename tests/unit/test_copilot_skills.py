"""Skills, commands-as-skills and agents for Copilot."""
from __future__ import annotations

from agentdeck.core.disk import DiskView
import os

import pytest

from agentdeck.core import engine, profiles
from agentdeck.core.errors import UserError
from agentdeck.core.targets import skills
from agentdeck.core.targets.copilot import agents
from agentdeck.core.targets.copilot.adapter import CopilotTarget
from tests.target_homes import target_home


def desired(host, prof=None):
    return CopilotTarget().desired(prof or profiles.resolve(host, "default"), DiskView(host))


# ---- commands -> skills ----------------------------------------------------------------------------

def test_command_skill_has_name_and_description_frontmatter():
    tr = skills.command_skill("review", "---\ndescription: Review the diff.\nargument-hint: x\n---\nDo it.\n")
    assert tr.text.startswith('---\nname: "review"\ndescription: "Review the diff."\n---\n')
    assert tr.text.endswith("Do it.\n") and not tr.warnings


def test_command_without_description_uses_its_first_line():
    tr = skills.command_skill("c", "# Fix the build\n\nThen test.\n")
    assert 'description: "Fix the build"' in tr.text and tr.warnings


def test_description_is_cut_to_1024():
    tr = skills.command_skill("c", f"---\ndescription: {'word ' * 400}\n---\nbody\n")
    desc = tr.text.split('description: "')[1].split('"\n')[0]
    assert len(desc) <= 1024 and desc.endswith("…")
    assert any("1024" in w for w in tr.warnings)


@pytest.mark.parametrize("bad", ["../evil", "a/b", "..", "x/../y", ""])
def test_names_with_separators_or_dotdot_are_rejected(bad):
    with pytest.raises(UserError, match="invalid"):
        skills.command_skill(bad, "x")
    with pytest.raises(UserError, match="invalid"):
        agents.translate(bad, "x")


def test_symlinked_skill_of_the_same_name_wins_over_a_command(host, tmp_path):
    own = tmp_path / "mine" / "review"
    own.mkdir(parents=True)
    (own / "SKILL.md").write_text("mine\n")
    host.agents_skills_dir.mkdir(parents=True)
    os.symlink(own, host.agents_skills_dir / "review")
    st = desired(host)
    assert not [i for i in st.items if i.label == "command review as a skill"]
    assert any("existing symlinked skill wins" in n.message for n in st.notices)
    plan = engine.build_plan(host, "default", ["copilot"])
    engine.apply_plan(host, plan)
    assert (own / "SKILL.md").read_text() == "mine\n" and os.listdir(own) == ["SKILL.md"]


def test_profile_skill_link_over_an_operator_link_is_foreign_and_kept(host, tmp_path):
    own = tmp_path / "mine" / "changelog"
    own.mkdir(parents=True)
    host.agents_skills_dir.mkdir(parents=True)
    os.symlink(own, host.agents_skills_dir / "changelog")
    plan = engine.build_plan(host, "default", ["copilot"])
    (it,) = [i for i in plan.items if i.label == "skill changelog"]
    assert it.cls == "foreign" and plan.decision(it) == "keep"
    engine.apply_plan(host, plan)
    assert os.readlink(host.agents_skills_dir / "changelog") == str(own)


def test_skill_and_command_bytes_are_target_neutral(host):
    st = desired(host)
    (link,) = [i for i in st.items if i.label == "skill changelog"]
    # 16.7: the link names agentdeck's own copy of the profile's skill folder, not the folder
    assert link.kind == "link" and link.value == str(host.state_dir / "skills" / "changelog")
    copies = [i for i in st.items if i.label.startswith("skill changelog: ")]
    assert copies and all(str(i.path).startswith(link.value + "/") for i in copies)
    (cmd,) = [i for i in st.items if i.label == "command review as a skill"]
    assert "copilot" not in cmd.value.lower()
    assert cmd.path == host.agents_skills_dir / "review" / "SKILL.md"


def test_reaping_a_dropped_command_skill_removes_only_what_we_wrote(host, monkeypatch):
    engine.apply_plan(host, engine.build_plan(host, "default", ["copilot"]))
    skill_md = host.agents_skills_dir / "review" / "SKILL.md"
    assert skill_md.is_file()
    real = profiles.resolve

    def no_commands(h, name):
        p = real(h, name)
        p.commands = {}
        p.skills = {}
        return p
    monkeypatch.setattr(profiles, "resolve", no_commands)
    plan = engine.build_plan(host, "default", ["copilot"])
    classes = {i.label: i.cls for i in plan.items if i.cls != "noop"}
    assert classes == {"command review as a skill": "remove", "skill changelog": "remove",
                       "skill changelog: SKILL.md": "remove"}   # 16.7: agentdeck's copy goes too
    engine.apply_plan(host, plan)
    assert not (host.agents_skills_dir / "review").exists()
    assert not os.path.lexists(host.agents_skills_dir / "changelog")
    assert not (host.state_dir / "skills" / "changelog").exists()


# ---- agents --------------------------------------------------------------------------------------------

AGENT = """---
name: reviewer
description: Reviews diffs.
tools: Read, Write, Edit, Bash(git diff*), Grep, Glob, WebFetch, WebSearch, Task, TodoWrite, AskUserQuestion, mcp__x__y
model: sonnet
---
Body.
"""


def test_agent_tools_are_mapped_and_scopes_reduced():
    tr = agents.translate("reviewer", AGENT)
    assert ('tools: ["view", "create", "edit", "shell", "grep", "glob", "web_fetch", "web_search", '
            '"task", "update_todo", "ask_user", "mcp__x__y"]') in tr.text
    assert "model" not in tr.text.split("---")[1]
    assert any("scoped grant 'Bash(git diff*)' reduced to 'shell'" in w for w in tr.warnings)
    assert any("'sonnet' dropped" in w for w in tr.warnings)


def test_agent_block_list_tools_and_real_model_kept():
    tr = agents.translate("a", "---\ndescription: d\ntools:\n  - Read\n  - Bash\nmodel: gpt-5\n---\nB\n")
    assert 'tools: ["view", "shell"]' in tr.text and 'model: "gpt-5"' in tr.text


def test_agent_description_synthesized_when_missing():
    tr = agents.translate("helper", "You help with release notes.\n\nMore.\n")
    assert 'description: "You help with release notes."' in tr.text
    assert any("synthesized" in w for w in tr.warnings)


def test_agent_body_over_30000_is_cut_at_a_paragraph_with_a_marker():
    para = ("x" * 99 + "\n") * 10
    body = "\n".join([para] * 40)              # > 30,000 characters
    tr = agents.translate("big", f"---\ndescription: d\n---\n{body}")
    out_body = tr.text.split("---\n", 2)[2]
    assert len(out_body) <= agents.AGENT_BODY_MAX + 1
    assert "truncated by agentdeck" in out_body
    before_marker = out_body.split("\n\n[... truncated")[0]
    assert before_marker.endswith("x" * 99)     # cut at a paragraph boundary
    assert any("cut at a paragraph" in w for w in tr.warnings)


def test_agents_land_in_copilot_home(host):
    st = desired(host)
    (it,) = [i for i in st.items if i.label == "agent reviewer"]
    assert it.path == target_home(host, "copilot") / "agents" / "reviewer.md"
    assert it.value.startswith('---\nname: "reviewer"\ndescription: ')
