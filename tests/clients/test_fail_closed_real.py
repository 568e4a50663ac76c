"""The guard fails closed, in real offline turns of every registered CLI (issue 30.1): after
each fault that used to switch it off for every later call -- the compiled policy deleted or
rewritten with no rules, the CLI's environment pointing AGENTDECK_POLICY at a missing file, the
handler's exec bit gone, its package gone -- the next turn's harmless command does not run
(the prompt or the tool call is denied: on_error deny, recorded), and after `agentdeck apply`
the same command runs again. One turn per CLI where it can: the scripted model
(tests/clients/scripted_model.py, on 127.0.0.1) plants each fault between its calls."""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from offline_turn import run_turn
from scripted_model import ScriptedModel

from agentdeck.core import engine
from agentdeck.core.facts.versions import facts_by_target
from agentdeck.core.policy.payloads import pre_tool
from agentdeck.core.targets import registry

pytestmark = pytest.mark.clients

PROFILE = ('[profile]\nextends = ["default"]\n\n[policy]\non_error = "deny"\n\n'
           '[[policy.rules]]\nid = "no-rm-rf"\ntool = "shell"\ncommand = "rm"\n'
           'args = ["-r|-R|--recursive", "-f|--force"]\ndecision = "deny"\n')
NAMES = [s.name for s in registry.TARGETS]


def _install(host, target: str, tmp_path: Path) -> Path:
    """The guard profile applied, its handler a copy of the real one first on PATH (so a test
    can break it without touching the venv). Returns the copy."""
    own = tmp_path / "handler-bin"
    own.mkdir()
    shutil.copy2(Path(sys.executable).parent / "agentdeck-hook", own / "agentdeck-hook")
    host.env["PATH"] = f"{own}{os.pathsep}{host.env['PATH']}"
    host.env["AGENTDECK_SCRIPTS_DIR"] = str(own)      # "the running agentdeck's" handler: the copy
    d = host.config_dir / "profiles" / "guard"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text(PROFILE)
    _apply(host, target)
    return own / "agentdeck-hook"


def _apply(host, target):
    plan = engine.build_plan(host, "guard", [target], trust_hooks=True)
    assert engine.apply_plan(host, plan).ok


def _turn(host, target, work: Path, marker: Path, env=None) -> bool:
    """Whether `touch marker` ran in a real turn."""
    global LAST
    with ScriptedModel(command=f"touch {marker}") as m:
        r = run_turn(host, target, m.url, "run the scripted command", work, env)
    LAST = (r.returncode, r.stdout[-1500:], r.stderr[-1500:], sorted(m.offered()))
    return marker.exists()


LAST: tuple = ()


def _audit_lines(host) -> list[dict]:
    path = Path(host.state_dir) / "audit.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def _denied_by_on_error(host) -> bool:
    path = Path(host.state_dir) / "audit.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []
    return any(r.get("decision") == "deny" and r.get("rule") == "on_error" for r in lines)


def _policy(host, target) -> Path:
    return Path(host.state_dir) / "policy" / f"{target}.json"


FAULTS = {
    "policy deleted": lambda host, t, h: (_policy(host, t).unlink(), None)[1],
    "policy rewritten with no rules": lambda host, t, h: (_policy(host, t).write_text(
        json.dumps({**json.loads(_policy(host, t).read_text()), "rules": [], "paths": []})), None)[1],
    "handler not executable": lambda host, t, h: (h.chmod(0o644), None)[1],
    "handler's package gone": lambda host, t, h: (h.write_text(
        "#!/bin/sh\necho 'ModuleNotFoundError: No module named agentdeck' >&2\nexit 1\n"), None)[1],
}


def _heal(host, target: str, handler: Path, fault: str) -> None:
    if fault.startswith("handler"):
        shutil.copy2(Path(sys.executable).parent / "agentdeck-hook", handler)
    else:
        _apply(host, target)           # apply puts agentdeck's own damaged file back


@pytest.mark.parametrize("target", NAMES)
def test_after_each_fault_the_next_call_is_denied(scratch_env, need, tmp_path, target):
    """One turn per CLI: the scripted model plants each fault in turn before answering with its
    next call (so the CLI starts once, as a long session would meet the fault), the call after
    the fault is denied by on_error, and after the fault is healed the next call runs."""
    need(target)
    host = scratch_env
    handler = _install(host, target, tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    done: set[tuple[str, str]] = set()
    audit_at: dict[tuple[str, str], int] = {}

    def marker(fault: str, phase: str) -> Path:
        return work / (fault.replace(" ", "-").replace("'", "") + "." + phase)

    def step(fault: str, phase: str):
        def make(_body):
            if (fault, phase) not in done:      # a request sent again plants nothing again
                done.add((fault, phase))
                audit_at[(fault, phase)] = len(_audit_lines(host))
                if phase == "after":
                    FAULTS[fault](host, target, handler)
                elif phase == "again":
                    _heal(host, target, handler, fault)
            return f"touch {marker(fault, phase)}"
        return make

    steps = [("", "before")] + [(f, ph) for f in FAULTS for ph in ("after", "again")]
    last: tuple = ()
    for _ in steps:     # one turn; a CLI that ends its turn after a denial (Qwen) starts again
        todo = [x for x in steps if x not in done]
        if not todo:
            break
        calls: list = [step(f, ph) for f, ph in todo]
        if todo[0][1] == "again":   # a new turn's prompt meets the fault too: heal it first
            calls[0] = calls[0](None)
        with ScriptedModel(command="", calls=calls) as m:
            r = run_turn(host, target, m.url, "run the scripted commands", work, timeout=240)
        last = (r.returncode, r.stdout[-1500:], r.stderr[-1500:], sorted(m.offered()))
        if not any(x in done for x in todo):
            break
    assert marker("", "before").exists(), f"{target}: the guard blocks a healthy call: {last}"
    lines = _audit_lines(host)
    for fault in FAULTS:
        assert (fault, "again") in done, f"{target}: the turn stopped at {fault}: {last}"
        assert not marker(fault, "after").exists(), f"{target}: {fault}: the call ran"
        window = lines[audit_at[(fault, "after")]:audit_at[(fault, "again")]]
        assert any(x.get("decision") == "deny" and x.get("rule") == "on_error" for x in window), (
            f"{target}: {fault}: no on_error deny in the audit log: {window}")
        assert marker(fault, "again").exists(), f"{target}: {fault}: not healed: {last}"


@pytest.mark.parametrize("target", NAMES)
def test_the_clis_environment_cannot_point_the_guard_elsewhere(scratch_env, need, tmp_path,
                                                               target):
    """What a `.env` file the CLI loads, or a project settings file's `env`, would hand the
    hook: AGENTDECK_POLICY at a missing file (once read as "no rules") and an empty digest. The
    wrapper sets its own: `rm -rf` stays denied, a harmless command runs."""
    need(target)
    host = scratch_env
    _install(host, target, tmp_path)
    work = tmp_path / "work"
    (work / "build").mkdir(parents=True)
    env = {"AGENTDECK_POLICY": "/nonexistent/policy.json", "AGENTDECK_POLICY_SHA256": "",
           "AGENTDECK_ON_ERROR": "allow"}
    with ScriptedModel(command=f"rm -rf {work / 'build'}") as m:
        run_turn(host, target, m.url, "run the scripted command", work, env)
    assert (work / "build").is_dir(), f"{target}: rm -rf ran with the environment redirected"
    assert _turn(host, target, work, work / "ok.txt", env)


#: (target, a working-folder settings file it reads after the home's that can switch its hooks
#: off): each target's health part's PROJECT_SETTINGS, the observed fact -- not the guard's own
#: list, so deleting a file from the guard makes this fail
PROJECT_LAYERS = [(t, rel) for t in NAMES if registry.has_part(t, "health")
                  for rel in getattr(registry.part(t, "health"), "PROJECT_SETTINGS", ())]


def test_some_target_has_project_layers():
    assert PROJECT_LAYERS


@pytest.mark.parametrize("target,rel", PROJECT_LAYERS)
def test_a_project_layer_that_switches_hooks_off_cannot_be_written(scratch_env, need, tmp_path,
                                                                   target, rel):
    """The first route of issue 30: a settings file in the working folder that the CLI reads
    after the home's, written through the CLI's own shell tool, left the next turn there with
    no hook. The write is denied, and the next turn's `rm -rf` is still denied."""
    need(target)
    host = scratch_env
    _install(host, target, tmp_path)
    work = tmp_path / "work"
    (work / "build").mkdir(parents=True)
    body = ("[features]\\ncodex_hooks = false\\n" if rel.endswith(".toml")
            else '{"disableAllHooks": true}')
    cmd = f"mkdir -p {Path(rel).parent} && printf '%s' '{body}' > {rel}"
    with ScriptedModel(command=cmd) as m:
        run_turn(host, target, m.url, "run the scripted command", work)
    assert not (work / rel).exists(), f"{target}: {rel} was written by the shell"
    # and through the CLI's own file tool (the route seen: Claude's Write)
    template = next(t for t in pre_tool().values() if t.caller == target)
    for name, args in template.tools.get("write", [])[:1]:
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        with ScriptedModel(command="", calls=[(name, args(str(work / rel)))]) as m:
            run_turn(host, target, m.url, "write the file", work)
        assert not (work / rel).exists(), f"{target}: {rel} was written by {name}"
        denied = [r for r in _audit_lines(host) if r.get("decision") == "deny"
                  and r.get("tool_name") == name]
        assert denied and denied[-1]["rule"] == "agentdeck-self", denied
    with ScriptedModel(command=f"rm -rf {work / 'build'}") as m:
        run_turn(host, target, m.url, "run the scripted command", work)
    assert (work / "build").is_dir(), f"{target}: rm -rf ran after the attempt"


#: (target, env file) for each environment file a CLI loads into its own environment at start
#: (its facts' env_files): the hook inherits what is set there
ENV_FILES = [(t, rel) for t in NAMES for rel in facts_by_target()[t].env_files]


def test_some_target_loads_env_files():
    assert ENV_FILES


@pytest.mark.parametrize("target,rel", ENV_FILES)
def test_an_env_file_cannot_run_code_in_the_handler(scratch_env, need, tmp_path, target, rel):
    """Red team GS84: a `.env` the CLI loads set PYTHONPATH to a folder whose sitecustomize.py
    exits 0; the handler's interpreter ran it before deciding, so every call was allowed with no
    audit line. The wrapper runs the handler isolated (-I) with every PYTHON*/LD_* variable
    unset: `rm -rf` stays denied by its rule, recorded."""
    need(target)
    host = scratch_env
    _install(host, target, tmp_path)
    work = tmp_path / "work"
    (work / "build").mkdir(parents=True)
    evil = tmp_path / "evilpy"
    evil.mkdir()
    (evil / "sitecustomize.py").write_text("import os\nos._exit(0)\n")
    path = (work / rel[3:]) if rel.startswith("**/") else registry.BY_NAME[target].home(host) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"PYTHONPATH={evil}\nPYTHONSTARTUP={evil / 'sitecustomize.py'}\n")
    with ScriptedModel(command=f"rm -rf {work / 'build'}") as m:
        run_turn(host, target, m.url, "run the scripted command", work)
    assert (work / "build").is_dir(), f"{target}: rm -rf ran with {rel} setting PYTHONPATH: {LAST}"
    denied = [r for r in _audit_lines(host) if r.get("decision") == "deny"]
    assert denied and denied[-1]["rule"] == "no-rm-rf", _audit_lines(host)[-3:]
    assert _turn(host, target, work, work / "ok.txt"), f"{target}: {LAST}"
