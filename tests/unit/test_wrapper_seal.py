"""The guard fails closed on its own parts (issue 30.1): the wrapper records the compiled
policy's path, digest and fail mode (core/seal.py), the handler enforces only that policy, and
every fault -- the policy deleted, emptied, corrupted or rewritten, a redirect from the CLI's
environment, the handler missing, not executable or crashing -- gives a deny at a pre-tool
event, with an audit line; apply puts the damaged file back. Run through the real wrapper
(/bin/sh) and the real handler, for every target with a hook wrapper, in its own payload shape."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agentdeck.core import engine, hookhandler
from agentdeck.core.policy.payloads import shapes
from agentdeck.core.targets import registry, wrapper

GUARD = """[profile]
extends = ["default"]

[policy]
on_error = "deny"

[[policy.rules]]
id = "no-rm-rf"
tool = "shell"
command = "rm"
args = ["-r|-R|--recursive", "-f|--force"]
decision = "deny"
reason = "no recursive force delete"
"""
NAMES = [s.name for s in registry.TARGETS]


def _payload(target: str, command: str) -> tuple[str, dict]:
    for label, caller, event, payload in shapes("shell", command):
        if caller == target:
            return event, payload
    raise AssertionError(f"no shell payload template for {target}")


@pytest.fixture
def guarded(host, tmp_path):
    """(host, handler copy): the guard profile installed with a copy of the real handler as
    the running agentdeck's own."""
    d = host.config_dir / "profiles" / "guard"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text(GUARD)
    own = tmp_path / "own-bin"
    own.mkdir()
    real = Path(sys.executable).parent / "agentdeck-hook"
    assert real.exists(), "the test venv has no agentdeck-hook console script"
    shutil.copy2(real, own / "agentdeck-hook")
    host.env["AGENTDECK_SCRIPTS_DIR"] = str(own)
    return host, own / "agentdeck-hook"


def _install(host, target):
    plan = engine.build_plan(host, "guard", [target], trust_hooks=True)
    assert engine.apply_plan(host, plan).ok
    info = plan.info[target]["hooks"]
    return Path(info["wrapper"]), host.state_dir / "policy" / f"{target}.json"


def _run(host, wrapper_path, target, command, extra_env=None):
    """("deny" | "allow", stderr): what the CLI makes of the wrapper's answer in its own channel
    (exit 2, or a deny in the JSON it reads: Qwen's answer is exit 0 with hookSpecificOutput)."""
    event, payload = _payload(target, command)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(host.home), **(extra_env or {})}
    r = subprocess.run([str(wrapper_path), event], input=json.dumps(payload).encode(),
                       capture_output=True, env=env, timeout=60)
    out = r.stdout.decode()
    denied = r.returncode == 2 or '"permissionDecision": "deny"' in out
    assert r.returncode in (0, 2), (r.returncode, r.stderr)
    return ("deny" if denied else "allow"), r.stderr.decode()


def _audit(host) -> list[dict]:
    p = host.state_dir / "audit.jsonl"
    return [json.loads(x) for x in p.read_text().splitlines()] if p.exists() else []


def test_decision_spellings_are_the_handlers():
    want = {n for c in hookhandler.DECISION_EVENTS for n in hookhandler.EVENTS[c]} \
        | set(hookhandler.DECISION_EVENTS)
    assert set(wrapper.DECISION_SPELLINGS) == want


@pytest.mark.parametrize("target", NAMES)
def test_the_wrapper_is_sealed_with_the_policy_it_enforces(guarded, target):
    host, _ = guarded
    w, policy = _install(host, target)
    text = w.read_text()
    assert f"AGENTDECK_POLICY_SHA256={hashlib.sha256(policy.read_bytes()).hexdigest()}" in text
    assert "AGENTDECK_ON_ERROR=deny" in text
    assert _run(host, w, target, "ls -la")[0] == "allow"
    assert _run(host, w, target, "rm -rf build")[0] == "deny"


FAULTS = {
    "deleted": lambda p: p.unlink(),
    "emptied": lambda p: p.write_text(""),
    "corrupted": lambda p: p.write_text("{not json"),
    "rewritten with no rules": lambda p: p.write_text(json.dumps(
        {**json.loads(p.read_text()), "rules": [], "paths": [], "on_error": "allow"})),
}


@pytest.mark.parametrize("fault", list(FAULTS))
@pytest.mark.parametrize("target", NAMES)
def test_a_damaged_policy_fails_closed_and_apply_restores_it(guarded, target, fault):
    host, _ = guarded
    w, policy = _install(host, target)
    good = policy.read_bytes()
    FAULTS[fault](policy)
    rc, err = _run(host, w, target, "ls -la")       # even a harmless call: the guard is broken
    assert rc == "deny", err
    last = _audit(host)[-1]
    assert (last["decision"], last["rule"]) == ("deny", "on_error")
    plan = engine.build_plan(host, "guard", [target], trust_hooks=True)
    [item] = [i for i in plan.items if i.label == "compiled policy"]
    assert plan.action(item) == "write" and "agentdeck's own file" in item.reason
    assert engine.apply_plan(host, plan).ok
    assert policy.read_bytes() == good
    assert _run(host, w, target, "ls -la")[0] == "allow"
    again = engine.build_plan(host, "guard", [target], trust_hooks=True)
    assert not [i for i in again.items if again.action(i) in ("write", "remove")]


@pytest.mark.parametrize("target", NAMES)
def test_the_clis_environment_cannot_redirect_the_policy(guarded, target, tmp_path):
    """A `.env` the CLI loads or a project settings file's `env` that points AGENTDECK_POLICY
    (or the digest, or the fail mode) elsewhere: the wrapper sets its own."""
    host, _ = guarded
    w, _ = _install(host, target)
    evil = tmp_path / "evil.json"
    evil.write_text(json.dumps({"format": 2, "rules": [], "paths": [], "on_error": "allow"}))
    env = {"AGENTDECK_POLICY": str(evil), "AGENTDECK_POLICY_SHA256": "",
           "AGENTDECK_ON_ERROR": "allow", "AGENTDECK_STATE_DIR": str(tmp_path / "elsewhere")}
    assert _run(host, w, target, "rm -rf build", env)[0] == "deny"
    assert _run(host, w, target, "ls -la", env)[0] == "allow"


@pytest.mark.parametrize("how", ["not executable", "removed", "crashes"])
@pytest.mark.parametrize("target", NAMES)
def test_a_handler_that_cannot_run_fails_closed_at_decision_events_only(guarded, target, how):
    host, handler = guarded
    w, _ = _install(host, target)
    if how == "not executable":
        handler.chmod(0o644)
    elif how == "removed":
        handler.unlink()
    else:        # its package uninstalled: the console script runs and dies with exit 1
        handler.write_text("#!/bin/sh\necho 'ModuleNotFoundError: agentdeck' >&2\nexit 1\n")
        handler.chmod(0o755)
    rc, err = _run(host, w, target, "ls -la")
    assert rc == "deny" and "fails closed" in err, err
    assert _audit(host)[-1]["rule"] == "on_error"
    other = subprocess.run([str(w), "SessionStart"], input=b"{}", capture_output=True,
                           env={"PATH": "/usr/bin:/bin", "HOME": str(host.home)}, timeout=60)
    assert other.returncode == 0          # a session start, a stop: never blocked by a fault


def test_a_profile_without_rules_seals_no_policy(host, tmp_path):
    own = tmp_path / "own-bin"
    own.mkdir()
    shutil.copy2(Path(sys.executable).parent / "agentdeck-hook", own / "agentdeck-hook")
    host.env["AGENTDECK_SCRIPTS_DIR"] = str(own)
    d = host.config_dir / "profiles" / "bare"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text('[profile]\n[hooks]\ncommand = "agentdeck-hook"\n')
    target = NAMES[0]
    plan = engine.build_plan(host, "bare", [target], trust_hooks=True)
    assert not [i for i in plan.items if i.label == "compiled policy"]
    assert engine.apply_plan(host, plan).ok
    text = Path(plan.info[target]["hooks"]["wrapper"]).read_text()
    assert "\nAGENTDECK_POLICY_SHA256=\n" in text and "\nAGENTDECK_ON_ERROR=allow\n" in text
