"""Golden tests for repository scope: every file `apply --repo` writes, the plan as the operator
reads it, the pane info and the doctor's findings -- on a fresh repository and on one that
already carries other hooks (a team hook file, Claude-format hooks, inline Copilot settings
hooks) and its own copilot-setup-steps.yml.

The repository scope is not a home target (core/targets/repo.py), so it has its own test; the
comparison and the file listing are tests/golden/golden_kit.py's, as for the home targets
(tests/unit/test_golden.py).

Regenerate after an intended change with:
    AGENTDECK_UPDATE_GOLDEN=1 python -m pytest tests/unit/test_repo_golden.py
and review the diff of tests/golden/repo/.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from agentdeck.core import engine
from agentdeck.core.doctor.repo_checks import repo_findings
from agentdeck.core.targets.copilot.facts import copilot_disable_key
from agentdeck.core.render import render_plan
from agentdeck.core.targets import repo as R
from tests.golden.golden_kit import GOLDEN, check, listing, plain
from tests.target_homes import target_home

GOLDEN_REPO = GOLDEN / "repo"


def normalize(text: str, host, repo: Path, tmp_path: Path) -> str:
    return (text.replace(str(repo), "<REPO>").replace(str(host.home), "<HOME>")
                .replace(str(tmp_path / "bin"), "<BIN>").replace(str(tmp_path), "<TMP>")
                .replace(R.default_spec(), "agentdeck==<VERSION>"))


def tree(repo: Path) -> str:
    return listing(repo, links=False)


def stable_info(report) -> dict:
    info = json.loads(json.dumps(plain(report)))
    for ev in info["hooks"]["events"]:
        # the action names only repository-relative paths: the key is the same on every machine
        assert ev["disable_key"] == copilot_disable_key(ev["key"], ev["action"])
    info["manifest"] = "<STATE>/repos/<sha256 of the repository path>[:16].json"
    return info


def run(host, repo: Path, tmp_path: Path, cloud_setup) -> str:
    plan = engine.build_repo_plan(host, repo, "default", cloud_setup=cloud_setup)
    parts = ["=== plan", render_plan(plan, host, titles={"repo": R.RepoTarget.title}),
             "=== info", json.dumps(stable_info(plan.output["repo"].repo), indent=1, sort_keys=True)]
    res = engine.apply_plan(host, plan)
    assert res.ok, res.leftover
    again = engine.build_repo_plan(host, repo, "default")
    assert not again.has_work, again.summary()
    parts += ["=== repository after apply", tree(repo)]
    findings = [f for f in repo_findings(host, repo) if not f.check.startswith("repo.git.")]
    parts += ["=== doctor (static, git checks left out)"]
    parts += [f"{f.result:<8} {f.check:<26} {f.path or '-'}{':' + str(f.line) if f.line else ''}"
              f"  {f.message}" + (f"\n{'':<36}fix: {f.fix}" if f.fix else "") for f in findings]
    return normalize("\n".join(parts) + "\n", host, repo, tmp_path)


def test_fresh_repository(ghost, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "README.md").write_text("# project\n")
    check(GOLDEN_REPO / "fresh_repo.txt", run(ghost, repo, tmp_path, cloud_setup=True))


TEAM_HOOKS = {
    "version": 1,
    "hooks": {
        "preToolUse": [{"type": "command", "bash": "./scripts/guard.sh", "matcher": "bash",
                        "timeoutSec": 10}],
        "AgentStop": [{"type": "command", "bash": "echo done >> .agent.log"}],
    },
}
CLAUDE = {"permissions": {"allow": ["Bash(npm test)"]},
          "hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [
              {"type": "command", "command": "npx prettier --write \"$CLAUDE_FILE_PATHS\""}]}]}}
SETTINGS = {"hooks": {"sessionStart": [{"type": "command", "bash": "echo hi"}]}}
WORKFLOW = """name: "Copilot Setup Steps"
on: workflow_dispatch
jobs:
  copilot-setup-steps:
    runs-on: ubuntu-latest
    permissions:
      contents: read
    steps:
      - uses: actions/checkout@v5
      - name: Install dependencies
        run: npm ci
"""


def test_repository_with_other_hooks(ghost, tmp_path):
    repo = tmp_path / "repo"
    (repo / ".github" / "hooks").mkdir(parents=True)
    (repo / ".github" / "hooks" / "security.json").write_text(json.dumps(TEAM_HOOKS, indent=2) + "\n")
    (repo / "scripts").mkdir()
    (repo / "scripts" / "guard.sh").write_text("#!/bin/sh\nexit 0\n")
    os.chmod(repo / "scripts" / "guard.sh", 0o755)
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text(json.dumps(CLAUDE, indent=2) + "\n")
    (repo / ".github" / "copilot").mkdir()
    (repo / ".github" / "copilot" / "settings.json").write_text(json.dumps(SETTINGS, indent=2) + "\n")
    (repo / ".github" / "workflows").mkdir()
    (repo / ".github" / "workflows" / "copilot-setup-steps.yml").write_text(WORKFLOW)
    target_home(ghost, "copilot").mkdir(parents=True)
    (target_home(ghost, "copilot") / "config.json").write_text(json.dumps(
        {"logged_in_users": [{"login": "someone"}], "trustedFolders": [str(tmp_path)]}))
    got = run(ghost, repo, tmp_path, cloud_setup=True)
    assert "someone" not in got                         # nothing but trustedFolders is read
    check(GOLDEN_REPO / "other_hooks_repo.txt", got)
