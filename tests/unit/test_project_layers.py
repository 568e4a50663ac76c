"""A project settings file that switches hooks off where agentdeck was started (the working
folder, or a parent) is reported by `status` (hooks inert, with the file) and the doctor, for
every target whose health part knows such files (issue 30.2): Claude Code's
.claude/settings.json and settings.local.json, Qwen Code's .qwen/settings.json."""
from __future__ import annotations

import json

import pytest

from agentdeck.core import engine, hooks_health
from agentdeck.core.doctor.runner import run as run_doctor
from agentdeck.core.targets import registry

#: (target, the project file, what it holds): the targets whose health part reports one
CASES = [(s.name, rel) for s in registry.TARGETS if registry.has_part(s.name, "health")
         for rel in getattr(registry.part(s.name, "health"), "PROJECT_SETTINGS", ())]


def test_some_target_reports_project_layers():
    assert CASES


@pytest.mark.parametrize("target,rel", CASES)
@pytest.mark.parametrize("where", ["here", "parent"])
def test_a_project_file_with_disable_all_is_reported(ghost, target, rel, where):
    assert engine.apply_plan(ghost, engine.build_plan(ghost, "default", [target])).ok
    project = ghost.home / "src" / "repo"
    (project / "sub").mkdir(parents=True)
    ghost.cwd = project / "sub" if where == "parent" else project
    f = project / rel
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(json.dumps({"disableAllHooks": True}))
    plan = engine.build_plan(ghost, "default", [target])
    reasons = hooks_health.inert(plan, target, now=True)
    assert any(str(f).replace(str(ghost.home), "~") in r.reason for r in reasons), reasons
    findings = [x for x in run_doctor(ghost, "default", [target])
                if x.check.endswith("project-disable-all") and x.result != "ok"]
    assert findings and findings[0].path == ghost.display(f)
    f.write_text(json.dumps({"disableAllHooks": False}))
    plan = engine.build_plan(ghost, "default", [target])
    assert not any("disableAllHooks" in r.reason for r in hooks_health.inert(plan, target, now=True))
