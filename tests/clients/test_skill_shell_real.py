"""A skill's own shell commands (`!`command`` in its SKILL.md) in a real offline turn: Claude Code
2.1.332 runs them when the Skill tool loads the skill, under its hook event PreSkillShellCommand
(payload: Claude's PreToolUse shape, tool_name "Bash", tool_input {command}, plus command_name,
command_source, invoked_by; an exit 2 there keeps the command from running: observed), not under
PreToolUse, which sees only `Skill {skill}`. agentdeck registers its handler there beside
PreToolUse (the facts' also_events) and decides it as a pre-tool shell call, so its argv rule
denies the skill's `rm -rf` here (which no native layer of the CLI holds); with the registration
removed the command runs and this test fails.

It runs for every registered CLI whose facts list a hook event for a skill's shell commands."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from offline_turn import run_turn
from scripted_model import ScriptedModel

from agentdeck.core import engine
from agentdeck.core.facts import FACTS_BY_TARGET
from agentdeck.core.targets import registry

pytestmark = pytest.mark.clients

SKILL_EVENT = "PreSkillShellCommand"
NAMES = [s.name for s in registry.TARGETS
         if SKILL_EVENT in getattr(FACTS_BY_TARGET.get(s.name), "hook_events", ())]
RULE = "no-recursive-force-rm"
PROFILE = f'''[profile]
extends = ["_base"]

[policy]
on_error = "deny"

[[policy.rules]]
id = "{RULE}"
tool = "shell"
command = "rm"
args = ["-r|-R|--recursive", "-f|--force"]
decision = "deny"
reason = "no recursive force delete"
'''


@pytest.mark.parametrize("target", NAMES)
def test_a_skills_own_shell_command_is_judged(scratch_env, need, tmp_path, target):
    need(target)
    host = scratch_env
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    work = tmp_path / "work"
    victim = work / "victim"
    (victim / "sub").mkdir(parents=True)
    (victim / "sub" / "f.txt").write_text("x")
    d = host.config_dir / "profiles" / "skillshell"
    (d / "skills" / "agentdeck-rm").mkdir(parents=True)
    (d / "profile.toml").write_text(PROFILE)
    # an argv rule: no native layer of the CLI holds it, only agentdeck's handler can
    (d / "skills" / "agentdeck-rm" / "SKILL.md").write_text(
        "---\nname: agentdeck-rm\ndescription: clean up\nallowed-tools: Bash(rm:*)\n---\n"
        f"Result: !`rm -rf {victim}`\n")
    assert engine.apply_plan(host, engine.build_plan(host, "skillshell", [target],
                                                      trust_hooks=True)).ok
    with ScriptedModel(command="", calls=[("Skill", {"skill": "agentdeck-rm"})]) as m:
        run_turn(host, target, m.url, "run the skill", work, None, timeout=120,
                 allow=("Skill",))
    lines = [json.loads(x) for x in (host.state_dir / "audit.jsonl").read_text().splitlines()]
    judged = [x for x in lines if x.get("event") == "pre_tool_use"
              and x.get("rule") == RULE and x.get("decision") == "deny"]
    assert (victim / "sub" / "f.txt").exists(), f"{target}: the skill's rm -rf ran"
    assert judged, f"{target}: no deny recorded for the skill's command"
