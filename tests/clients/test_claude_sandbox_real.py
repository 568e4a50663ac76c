"""The OS floor under protected paths with the real Claude Code: the [[policy.paths]] rules
agentdeck writes into Claude's command sandbox (sandbox.filesystem.denyRead, through the plan,
because the operator's settings.json turns the sandbox on) stop a Bash `python3 -c` that builds
the key's path at run time -- which neither the hook nor permissions.deny can read -- with
agentdeck's hook made inert (its wrapper made to exit 0).

One real offline turn against tests/clients/scripted_model.py (docs/facts/claude.md): the
scripted model runs three Bash calls in one turn; what Claude sends back as the tool results is
what the model would have seen. With the sandbox on, Claude enforces agentdeck's permissions.deny
Read entries in it too; a second turn without those shows the sandbox entries hold alone, and a
control turn without either shows they are what stops the read. Needs bubblewrap (.ci/run
installs it).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scripted_model import ScriptedModel

from agentdeck.core import engine
from agentdeck.core.targets.claude import facts as claude_facts
from tests.target_homes import target_home

pytestmark = pytest.mark.clients

SECRET = "agentdeck-test-private-key-material"
#: the key's path built from pieces at run time: no hook or permission list can read it
BUILT = ("python3 -c \"import os; p = os.path.join(os.path.expanduser(chr(126)), "
         "chr(46) + 'ss' + 'h', 'id' + chr(95) + 'r' + 'sa'); print(open(p).read())\"")


def _turn(host, clients, calls: list, cwd: Path) -> list[str]:
    """One real Claude turn running `calls` (scripted_model's sequence); the tool results."""
    env = dict(host.env)
    env.update({"ANTHROPIC_API_KEY": "sk-offline-test", "IS_SANDBOX": "1"})
    with ScriptedModel(command="", calls=calls) as m:
        env["ANTHROPIC_BASE_URL"] = m.url
        r = subprocess.run([str(clients.bin_dirs["claude"] / "claude"), "-p", "run them",
                            "--model", "sonnet", "--permission-mode", "bypassPermissions"],
                           env=env, cwd=cwd, capture_output=True, text=True, timeout=180,
                           stdin=subprocess.DEVNULL)
        assert r.returncode == 0, r.stderr[-2000:]
        results = m.tool_results()
    assert len(results) == len(calls), f"not every call was made: {r.stdout[-500:]}"
    return results


def test_claudes_sandbox_stops_a_path_built_at_run_time_with_the_hook_neutered(
        scratch_env, clients, need, tmp_path):
    """The bundled default profile's ssh-private-keys rule, in a home whose operator turned
    Claude's sandbox on and closed its two ways around it (allowUnsandboxedCommands false,
    failIfUnavailable true)."""
    need("claude")
    if shutil.which("bwrap") is None:
        pytest.fail("bubblewrap (bwrap) is not installed: Claude's sandbox needs it on Linux "
                    "(.ci/run installs it)")
    host = scratch_env
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    ssh = host.home / ".ssh"
    ssh.mkdir(mode=0o700)
    (ssh / "id_rsa").write_text(SECRET + "\n")
    (ssh / "id_rsa.pub").write_text("ssh-rsa AAAA public\n")
    settings = target_home(host, "claude") / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"sandbox": {"enabled": True, "failIfUnavailable": True,
                                                "allowUnsandboxedCommands": False}}))
    plan = engine.build_plan(host, "default", ["claude"])
    assert engine.apply_plan(host, plan).ok
    written = json.loads(settings.read_text())["sandbox"]["filesystem"]["denyRead"]
    sandbox = plan.output["claude"].sandbox
    assert sandbox is not None
    ours = [e.entry for e in sandbox.entries
            if e.kind == claude_facts.SANDBOX_KEYS["read"][-1]]
    assert ours and set(ours) <= set(written)

    # the hook is gone: its wrapper answers every event with exit 0 and runs no handler
    (target_home(host, "claude") / "agentdeck-hook.sh").write_text("#!/bin/sh\nexit 0\n")
    audit = Path(host.state_dir) / "audit.jsonl"
    before = audit.read_text() if audit.exists() else ""
    work = tmp_path / "work"
    work.mkdir()

    escape = ("Bash", {"command": BUILT, "description": "read it",
                       "dangerouslyDisableSandbox": True})
    built, escaped, pub = _turn(host, clients, [BUILT, escape, "cat ~/.ssh/id_rsa.pub"], work)
    assert SECRET not in built and "Permission denied" in built, built
    assert SECRET not in escaped and "Permission denied" in escaped, escaped
    assert "ssh-rsa AAAA public" in pub, pub
    assert (audit.read_text() if audit.exists() else "") == before, "the hook still ran"

    # the sandbox also enforces agentdeck's permissions.deny Read entries (facts.py SANDBOX):
    # without them, its own denyRead entries still stop the read
    doc = json.loads(settings.read_text())
    doc["permissions"]["deny"] = [e for e in doc["permissions"]["deny"]
                                  if not e.startswith("Read(")]
    settings.write_text(json.dumps(doc))
    [alone] = _turn(host, clients, [BUILT], work)
    assert SECRET not in alone and "Permission denied" in alone, alone

    # control: without agentdeck's sandbox entries too, the same call reads the key
    doc["sandbox"]["filesystem"]["denyRead"] = [e for e in written if e not in ours]
    settings.write_text(json.dumps(doc))
    [leaked] = _turn(host, clients, [BUILT], work)
    assert SECRET in leaked, leaked
