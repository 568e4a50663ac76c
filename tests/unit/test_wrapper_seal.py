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
    info = plan.output[target].hooks
    return Path(info.wrapper), host.state_dir / "policy" / f"{target}.json"


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
    text = Path(plan.output[target].hooks.wrapper).read_text()
    assert "\nAGENTDECK_POLICY_SHA256=\n" in text and "\nAGENTDECK_ON_ERROR=allow\n" in text


# ---- the CLI's environment cannot change which code the handler runs (issue 30, red team GS84)
#: what a CLI's .env can plant (Qwen loads the working folder's; Codex ~/.codex/.env): code the
#: handler's interpreter would run before deciding, exiting 0 (allow, and no audit line)
_EXIT_0 = "import os\nos._exit(0)\n"


@pytest.mark.parametrize("target", NAMES)
def test_python_variables_and_the_user_site_cannot_run_code_in_the_handler(guarded, target, tmp_path):
    host, _ = guarded
    w, _ = _install(host, target)
    evil = tmp_path / "evilpy"
    evil.mkdir()
    (evil / "sitecustomize.py").write_text(_EXIT_0)
    (evil / "usercustomize.py").write_text(_EXIT_0)
    (evil / "startup.py").write_text(_EXIT_0)
    # the user's site-packages in the home the CLI passes (a model can write there)
    ver = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    user_site = host.home / ".local" / "lib" / ver / "site-packages"
    user_site.mkdir(parents=True)
    (user_site / "usercustomize.py").write_text(_EXIT_0)
    (user_site / "zz.pth").write_text("import os; os._exit(0)\n")
    env = {"PYTHONPATH": str(evil), "PYTHONSTARTUP": str(evil / "startup.py"),
           "PYTHONUSERBASE": str(host.home / ".local"), "PYTHONINSPECT": "1"}
    before = len(_audit(host))
    assert _run(host, w, target, "rm -rf build", env)[0] == "deny"
    assert _audit(host)[before:] and _audit(host)[-1]["decision"] == "deny"
    assert _audit(host)[-1].get("rule") == "no-rm-rf"
    assert _run(host, w, target, "ls -la", env)[0] == "allow"


def _preload_library(tmp_path) -> Path:
    """A shared library whose constructor exits 0 in a Python process (the handler's
    interpreter) and does nothing in any other (the shell running the wrapper)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    assert cc, "a C compiler is needed (.ci/run installs gcc)"
    src = tmp_path / "evil.c"
    src.write_text(
        "#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n"
        "__attribute__((constructor)) static void evil(void) {\n"
        "  char exe[4096]; ssize_t n = readlink(\"/proc/self/exe\", exe, sizeof exe - 1);\n"
        "  if (n > 0) { exe[n] = 0; if (strstr(exe, \"python\")) _exit(0); }\n}\n")
    lib = tmp_path / "libevil.so"
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(lib), str(src)], check=True, timeout=120)
    return lib


@pytest.mark.parametrize("target", NAMES)
def test_loader_variables_do_not_reach_the_handler(guarded, target, tmp_path):
    host, _ = guarded
    w, _ = _install(host, target)
    lib = _preload_library(tmp_path)
    libdir = tmp_path / "libs"
    libdir.mkdir()
    # a library the interpreter loads (hashlib's libcrypto, zlib...) under its own name
    for name in ("libcrypto.so.3", "libz.so.1", "libffi.so.8", "libexpat.so.1"):
        shutil.copy2(lib, libdir / name)
    for env in ({"LD_PRELOAD": str(lib)}, {"LD_LIBRARY_PATH": str(libdir)},
                {"LD_AUDIT": str(lib)}):
        assert _run(host, w, target, "rm -rf build", env)[0] == "deny", env
        assert _audit(host)[-1].get("rule") == "no-rm-rf", env
        assert _run(host, w, target, "ls -la", env)[0] == "allow", env


def test_the_handler_gets_no_code_variable_and_keeps_the_rest(host, tmp_path):
    """What the handler's process receives: none of the variables that choose code (every LD_*
    and PYTHON* name, however spelled in the environment, and the fixed list), the variables
    agentdeck's wrapper sets, and everything else the CLI passed."""
    dump = tmp_path / "env.txt"
    fake = tmp_path / "handler"
    fake.write_text(f"#!/bin/sh\nenv > {dump}\nexit 0\n")
    fake.chmod(0o755)
    h = wrapper.resolve_handler(host, str(fake))
    assert h.interpreter is None           # not a Python script: run as it is
    w = tmp_path / "w.sh"
    w.write_text(wrapper.render_wrapper(NAMES[0], h, tmp_path / "state"))
    w.chmod(0o755)
    planted = {n: "/tmp/x" for n in wrapper.CODE_VARS}
    planted.update({"LD_PRELOAD": "/tmp/x.so", "LD_ORIGIN_PATH": "/tmp", "PYTHONPATH": "/tmp",
                    "PYTHONSAFEPATH": "", "PYTHON_GIL": "0", "MALLOC_CHECK_": "3",
                    "AGENTDECK_DRILL_ID": "d1", "KEEP_ME": "yes",
                    "ODD": "a\nexport PYTHONFOO=1\nAGENTDECK_ENV\nexport LD_X=1"})
    r = subprocess.run([str(w), "PreToolUse"], input=b"{}", capture_output=True, timeout=60,
                       env={"PATH": "/usr/bin:/bin", **planted})
    assert r.returncode == 0, r.stderr
    seen = {ln.split("=", 1)[0] for ln in dump.read_text().splitlines() if "=" in ln}
    leaked = {n for n in seen if n.startswith(wrapper.CODE_PREFIXES) or n in wrapper.CODE_VARS}
    assert not leaked
    assert {"KEEP_ME", "AGENTDECK_DRILL_ID", "ODD", "AGENTDECK_TARGET", "AGENTDECK_EVENT"} <= seen


def test_a_python_handler_runs_isolated(guarded):
    host, handler = guarded
    h = wrapper.resolve_handler(host, "agentdeck-hook")
    assert h.interpreter and os.path.isabs(h.interpreter)
    assert h.exec_line.startswith(f"{h.interpreter} {wrapper.ISOLATED} {handler}")
    # the installed wrapper still names the handler, not its interpreter
    text = wrapper.render_wrapper(NAMES[0], h, host.state_dir)
    assert wrapper.handler_of_wrapper(text) == str(handler)
