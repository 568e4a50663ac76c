"""The install writes the compiled policy the handler reads (one plan item per target, and one
committed file in a repository), the plan is empty right after, uninstall takes it out, and
`policy show` / enforcement.describe say per target how each rule is enforced.

The profile schema's [policy] belongs to the schema; here the profile's policy is
supplied through compiled.policy_of, which reads `profile.policy` once the schema has it."""
from __future__ import annotations

import io
import json
import os
import stat
import sys

import pytest

from agentdeck.core import engine, hookhandler
from agentdeck.core.policy import compiled, enforcement
from tests.registry_kit import HOOKED, denied, shell_payload

POLICY = {"on_error": "deny", "rules": [
    {"id": "no-force-push", "tool": "shell", "match": r"git\s+push\b.*--force", "decision": "deny",
     "reason": "force-push is not allowed here"},
    {"id": "ask-env", "tool": "write", "match": r"\.env$", "decision": "ask", "reason": "env file"}]}


@pytest.fixture
def with_policy(monkeypatch):
    real = compiled.policy_of
    monkeypatch.setattr(compiled, "policy_of", lambda profile: real({"policy": POLICY}))


def test_policy_of_reads_plain_data_and_defaults():
    assert compiled.policy_of({"policy": {"rules": []}}) == {
        "on_error": "deny", "unresolved": "ask", "inline_code": "allow", "protect_agentdeck": True,
        "rules": [],
        "paths": []}
    assert compiled.policy_of({}) is None

    class Obj:
        policy = None
    assert compiled.policy_of(Obj()) is None


@pytest.mark.parametrize("target", HOOKED)
def test_each_target_installs_its_compiled_policy(ghost, with_policy, target, monkeypatch, capsys):
    plan = engine.build_plan(ghost, "default", [target])
    [item] = [i for i in plan.items if i.label == "compiled policy"]
    path = ghost.state_dir / "policy" / f"{target}.json"
    assert item.path == str(path) and item.cls == "create"
    engine.apply_plan(ghost, plan)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    doc = json.loads(path.read_text())
    assert (doc["format"], doc["target"], doc["on_error"]) == (2, target, "deny")
    # the profile's rules, then the guard's built-in self-protection (protect_agentdeck)
    assert [r["id"] for r in doc["rules"]] == ["no-force-push", "ask-env",
                                               "agentdeck-self-commands",
                                               "agentdeck-self-commands-uninstall"]
    assert [r["id"] for r in doc["paths"]] == ["agentdeck-self"]
    assert not engine.build_plan(ghost, "default", [target]).has_changes
    # the handler, with the wrapper's environment, finds and enforces it
    monkeypatch.setenv("AGENTDECK_STATE_DIR", str(ghost.state_dir))
    monkeypatch.setenv("AGENTDECK_TARGET", target)
    monkeypatch.delenv("AGENTDECK_POLICY", raising=False)
    event, payload = shell_payload(target, "git push --force")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(payload).encode())))
    code = hookhandler.main([event])
    said = capsys.readouterr()
    assert denied(target, code, said.out), (code, said.out)
    assert "force-push" in said.err
    # uninstall takes it out again
    engine.apply_plan(ghost, engine.build_uninstall_plan(ghost, [target]))
    assert not path.exists()


def test_an_ask_rule_says_what_it_becomes_in_codex(ghost, with_policy):
    plan = engine.build_plan(ghost, "default", ["codex"])
    msgs = [n.message for n in plan.notices["codex"]]
    assert any("ask-env (ask) in codex: becomes deny" in m for m in msgs)


def test_the_repository_gets_a_committed_policy(ghost, with_policy, tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    plan = engine.build_repo_plan(ghost, repo, "default")
    [item] = [i for i in plan.items if i.label == "compiled policy"]
    assert item.path == str(repo / ".github" / "agentdeck" / "policy.json")
    engine.apply_plan(ghost, plan)
    p = repo / ".github" / "agentdeck" / "policy.json"
    assert stat.S_IMODE(p.stat().st_mode) == 0o644 and json.loads(p.read_text())["target"] == "repo"
    # the repo wrapper's handler looks for it relative to the hooks' cwd (the repository root)
    cwd = os.getcwd()
    try:
        os.chdir(repo)
        doc, problem = hookhandler.load_policy(
            compiled.policy_path({"AGENTDECK_TARGET": "repo"}, "/nowhere"))
    finally:
        os.chdir(cwd)
    assert problem is None and doc["rules"][0]["id"] == "no-force-push"


def test_a_bad_rule_is_a_one_line_error(ghost, monkeypatch):
    monkeypatch.setattr(compiled, "policy_of", lambda profile: {"on_error": "allow", "rules": [
        {"id": "x", "tool": "shell", "match": "(", "decision": "deny"}]})
    from agentdeck.core.errors import UserError
    with pytest.raises(UserError, match=r"policy rule 'x': match '\(' is not a valid regular"):
        engine.build_plan(ghost, "default", ["claude"])


def test_enforcement_describes_each_rule_per_target():
    codex = enforcement.describe(POLICY, "codex")
    [fp, ask] = codex["rules"]
    assert fp["channels"][0]["how"].startswith("exit 2") and fp["channels"][0]["version"] == "0.171.0"
    assert ask["channels"][0]["ask_becomes"] == "deny"
    assert any("trusted" in c for c in codex["caveats"])
    repo = enforcement.describe(POLICY, "repo")
    assert {c["dialect"] for c in repo["rules"][0]["channels"]} == {"copilot-pascal", "vscode"}
    assert any("matchers" in c for c in repo["caveats"])
    copilot = enforcement.describe(POLICY, "copilot")
    assert "permissionDecision" in copilot["rules"][0]["channels"][0]["how"]
    assert copilot["on_error"] == {"value": "deny", "exit": 2, "meaning": copilot["on_error"]["meaning"]}
