"""The repository scope asks each target's `repo` part (core/targets/parts/repo.py): exactly one
part carries agentdeck's repository hook file, every reader a part names is known, no part
imports a feature, and a repository file another target's CLI reads (Qwen Code's project
`.qwen/settings.json`) is reported by the plan and the doctor."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentdeck.core import engine
from agentdeck.core.doctor.repo_checks import repo_findings
from agentdeck.core.targets import registry
from agentdeck.core.targets import repo as R
from agentdeck.core.targets.parts.repo import CarrierPart, RepoPart

from test_doctor_parts import FEATURES, REPO, _imports

WITH_PART = [n for n in registry.NAMES if registry.has_part(n, "repo")]


@pytest.mark.parametrize("name", WITH_PART)
def test_every_repo_part_keeps_the_protocol(name):
    part = registry.part(name, "repo")
    assert isinstance(part, RepoPart)
    assert part.FACTS.target == name and part.FACTS.verified
    known = R.all_readers()
    for f in part.FACTS.files:
        assert not f.path.startswith("/") and f.kind.startswith("repo-")
        assert f.readers and all(r in known for r in f.readers), f
    if part.FACTS.hooks is not None:
        assert isinstance(part, CarrierPart)
        assert set(part.FACTS.hooks.readers) <= set(part.FACTS.readers)


def test_exactly_one_part_carries_the_hook_file():
    carriers = [n for n in WITH_PART if registry.part(n, "repo").FACTS.hooks is not None]
    assert carriers == [R.CARRIER_NAME]
    assert R.HOOKS_FILE.startswith(R.HOOKS_DIR + "/") and R.WRAPPER.startswith(R.HOOKS_DIR + "/")
    assert set(R.READERS) == set(R.CARRIER.FACTS.hooks.readers)


def test_the_repo_parts_import_no_feature():
    files = [REPO / "core" / "targets" / "parts" / "repo.py"]
    files += [REPO / "core" / "targets" / n / "repo.py" for n in WITH_PART]
    for f in files:
        for mod in _imports(f):
            for feature in FEATURES + ("engine", "scopes"):
                assert not (mod == f"agentdeck.core.{feature}"
                            or mod.startswith(f"agentdeck.core.{feature}.")
                            or mod.startswith(f"agentdeck.{feature}")), (f, mod)


# ---- Qwen Code's project layer --------------------------------------------------------------
QWEN = "qwen"
needs_qwen = pytest.mark.skipif(QWEN not in WITH_PART, reason="no repo part for Qwen Code")


@pytest.fixture
def repo(tmp_path) -> Path:
    d = tmp_path / "repo"
    (d / ".qwen").mkdir(parents=True)
    return d


@needs_qwen
def test_qwen_project_hooks_are_another_source_read_by_qwen_only(ghost, repo):
    (repo / ".qwen" / "settings.json").write_text(json.dumps(
        {"$version": 4, "hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "./scripts/check.sh"}]}]}}))
    plan = engine.build_repo_plan(ghost, repo, "default")
    report = plan.output["repo"].repo
    assert report is not None
    [src] = report.other_sources
    assert src.kind == "repo-qwen-hooks" and src.readers == (QWEN,)
    assert src.events == ("PreToolUse",) and src.runs_agentdeck is False
    notes = [n.message for n in plan.notices["repo"]]
    assert any(m.startswith("other hook source: .qwen/settings.json (PreToolUse): read by "
                            "Qwen Code") for m in notes), notes
    fs = [f for f in repo_findings(ghost, repo) if f.check == "repo.hooks.others"]
    assert [(f.result, f.path) for f in fs] == [("info", ".qwen/settings.json")]
    assert "read by Qwen Code" in fs[0].message


@needs_qwen
def test_qwen_project_file_running_agentdecks_handler_is_no_double_of_the_hook_file(ghost, repo):
    """Qwen does not read .github/hooks: its project hooks running agentdeck's handler double
    only the home's hooks for Qwen, never the repository file's (a note, not the warning)."""
    (repo / ".qwen" / "settings.json").write_text(json.dumps(
        {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "agentdeck-hook Stop"}]}]}}))
    plan = engine.build_repo_plan(ghost, repo, "default")
    line = [n for n in plan.notices["repo"] if ".qwen/settings.json" in n.message]
    assert [n.level for n in line] == ["info"] and "in the home for that CLI" in line[0].message
    [f] = [f for f in repo_findings(ghost, repo) if f.check == "repo.hooks.others"]
    assert f.result == "info" and "with agentdeck's hooks in the home" in f.message


@needs_qwen
def test_qwen_project_disable_all_hooks_is_a_warning_about_the_users_hooks(ghost, repo):
    (repo / ".qwen" / "settings.json").write_text('{\n  // the team\'s\n  "disableAllHooks": true\n}\n')
    fs = [f for f in repo_findings(ghost, repo) if f.check == "repo.settings.disable-all"]
    warn = [f for f in fs if f.result == "warning"]
    assert len(warn) == 1 and warn[0].path == ".qwen/settings.json" and warn[0].line == 3
    assert "Qwen Code runs none of the user's hooks" in warn[0].message
    assert "agentdeck org" in warn[0].fix
    # agentdeck's repository hooks are not affected: the carrier's ok row stays
    assert [f.result for f in fs if f.result == "ok"] == ["ok"]


@needs_qwen
def test_qwen_project_file_without_hooks_or_switch_says_nothing(ghost, repo):
    (repo / ".qwen" / "settings.json").write_text('{"$version": 4, "disableAllHooks": false}')
    plan = engine.build_repo_plan(ghost, repo, "default")
    report = plan.output["repo"].repo
    assert report is not None and report.other_sources == ()
    fs = repo_findings(ghost, repo)
    assert not [f for f in fs if f.path == ".qwen/settings.json"]
