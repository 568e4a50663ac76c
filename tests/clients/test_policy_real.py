"""The guardrail policy with the real CLIs: a policy rule denies a shell command in a real
offline turn of every registered CLI with hooks (the command's side effect is absent), an unmatched command
runs, and the audit log records both decisions; during a drill the canary is denied.

Each turn runs against tests/clients/scripted_model.py on 127.0.0.1 (docs/facts/README.md,
"Running a real turn offline", and each CLI's file there). The home is installed by agentdeck
itself (default profile + the rule), so the handler reads the compiled policy the install wrote.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from offline_turn import run_turn
from scripted_model import ScriptedModel

from agentdeck.core import engine, profiles
from agentdeck.core.errors import UserError
from agentdeck.core.policy import compiled
from tests.registry_kit import HOOKED, PROMPTED, dialect

pytestmark = pytest.mark.clients

RULE = {"id": "no-denied-marker", "tool": "shell", "match": r"denied-marker",
        "decision": "deny", "reason": "agentdeck test rule: denied-marker is forbidden"}
PROFILE_TOML = (
    '[profile]\nextends = ["default"]\n\n[policy]\non_error = "deny"\n\n[[policy.rules]]\n'
    f'id = "{RULE["id"]}"\ntool = "shell"\nmatch = \'{RULE["match"]}\'\ndecision = "deny"\n'
    f'reason = "{RULE["reason"]}"\n')


def install(host, target: str) -> str:
    """Apply agentdeck with the rule; returns how the rule got there ("profile" when the
    profile schema has [policy], else "compiled": the same compiled document written directly)."""
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    d = host.config_dir / "profiles" / "guarded"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text(PROFILE_TOML)
    try:
        prof = profiles.resolve(host, "guarded")
        how = "profile" if compiled.policy_of(prof) else "compiled"
    except UserError:
        (d / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
        how = "compiled"
    plan = engine.build_plan(host, "guarded", [target], trust_hooks=True)
    engine.apply_plan(host, plan)
    if how == "compiled":
        p = Path(host.state_dir) / "policy" / f"{target}.json"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(compiled.compile_policy({"on_error": "deny", "rules": [RULE]}, target))
        p.chmod(0o600)
    return how


def decisions(host) -> list[dict]:
    path = Path(host.state_dir) / "audit.jsonl"
    return [r for r in map(json.loads, path.read_text().splitlines()) if "decision" in r]


def turn(host, target: str, command: str, cwd: Path, env: dict | None = None):
    with ScriptedModel(command=command) as m:
        r = run_turn(host, target, m.url, "run the scripted command", cwd, env)
        assert r.returncode == 0, r.stderr[-2000:]
        assert any("tool" in json.dumps(b) for _, b in m.requests)
    return r


@pytest.mark.parametrize("target", HOOKED)
def test_a_rule_denies_in_a_real_turn_and_the_rest_runs(scratch_env, need, tmp_path, target):
    need(target)
    host = scratch_env
    how = install(host, target)
    work = tmp_path / "work"
    work.mkdir()
    denied, allowed = work / "denied-marker.txt", work / "allowed-marker.txt"

    turn(host, target, f"touch {denied}", work)
    assert not denied.exists(), f"{target}: the denied command ran ({how})"
    turn(host, target, f"touch {allowed}", work)
    assert allowed.exists(), f"{target}: the allowed command did not run"

    pre = [r for r in decisions(host) if r["event"] == "pre_tool_use"]
    assert [(r["decision"], r["rule"]) for r in pre] == [("deny", RULE["id"]), ("allow", None)]
    assert pre[0]["target"] == target and pre[0]["tool_class"] == "shell"
    assert "denied-marker" in pre[0]["summary"][0] and pre[0]["latency_ms"] >= 0
    prompts = [r for r in decisions(host) if r["event"] == "user_prompt_submit"]
    # a CLI whose hooks see the prompt recorded each (allowed); OpenCode's plugin sees none
    assert (bool(prompts) == (target in PROMPTED)) and all(r["decision"] == "allow"
                                                          for r in prompts)


@pytest.mark.parametrize("target", HOOKED)
def test_the_drill_canary_is_denied_in_a_real_turn(scratch_env, need, tmp_path, target):
    need(target)
    host = scratch_env
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    engine.apply_plan(host, engine.build_plan(host, "default", [target],
                                              trust_hooks=True))
    work = tmp_path / "work"
    work.mkdir()
    canary = work / "agentdeck-drill-canary.txt"
    turn(host, target, f"touch {canary}", work, {"AGENTDECK_DRILL_ID": "drill-real"})
    assert not canary.exists()
    [pre] = [r for r in decisions(host) if r["event"] == "pre_tool_use"]
    assert (pre["decision"], pre["rule"], pre["drill_id"]) == ("deny", "drill-canary", "drill-real")
    path = Path(host.state_dir) / "audit.jsonl"
    assert all(json.loads(x).get("drill_id") == "drill-real" for x in path.read_text().splitlines())


@pytest.mark.parametrize("target", PROMPTED)
def test_a_prompt_rule_blocks_the_prompt_before_the_model_sees_it(scratch_env, need, tmp_path,
                                                                  target):
    need(target)
    host = scratch_env
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    d = host.config_dir / "profiles" / "prompts"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text(
        '[profile]\nextends = ["default"]\n[[policy.rules]]\nid = "no-forbidden"\n'
        'tool = "prompt"\nmatch = "forbidden words"\ndecision = "deny"\n'
        'reason = "prompt blocked by the test rule"\n')
    engine.apply_plan(host, engine.build_plan(host, "prompts", [target],
                                              trust_hooks=True))
    work = tmp_path / "work"
    work.mkdir()
    marker = work / "marker.txt"
    with ScriptedModel(command=f"touch {marker}") as m:
        r = run_turn(host, target, m.url, "please run: forbidden words", work)
    assert m.requests == []                      # the model never saw the prompt
    assert not marker.exists()
    # what the CLI prints about the block: its dialect's fact (Codex names the block, not the
    # reason; Qwen prints nothing)
    shown = dialect(target).prompt.get("shown", "reason")
    said = r.stdout + r.stderr
    if shown == "reason":
        assert "prompt blocked by the test rule" in said, said[-1500:]
    elif shown:
        assert shown in said, said[-1500:]
    else:
        assert "prompt blocked by the test rule" not in said, said[-1500:]
    [rec] = [x for x in decisions(host) if x["event"] == "user_prompt_submit"]
    assert (rec["decision"], rec["rule"]) == ("deny", "no-forbidden")
