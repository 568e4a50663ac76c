"""Defense in depth with the real Claude Code: the [[policy.paths]] rule agentdeck writes into
Claude's own permissions.deny (through the plan) still stops the Read tool when agentdeck's hook
is gone -- its wrapper made to exit 0, as a model that neutered the hook would leave it.

One real offline turn per case against tests/clients/scripted_model.py (docs/facts/, "Running a
real turn offline"): the scripted model calls Read on the file; what the CLI sends back as the
tool result is what the model would have seen. The neighbour id_rsa.pub is read in the same
setup, so the deny -- not a missing permission -- is what stops the key.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from scripted_model import ScriptedModel

from agentdeck.core import engine
from agentdeck.core.targets.output import PermissionProfileInfo
from tests.ci_rule import missing_tool
from tests.target_homes import target_home

pytestmark = pytest.mark.clients

SECRET = "agentdeck-test-private-key-material"


def _read_turn(host, clients, path: Path, cwd: Path) -> list[str]:
    """One real Claude turn whose only tool call is Read(path); the tool results it sent back.
    bypassPermissions (IS_SANDBOX=1 as root): every permission is granted but the deny list."""
    env = dict(host.env)
    env.update({"ANTHROPIC_API_KEY": "sk-offline-test", "IS_SANDBOX": "1"})
    with ScriptedModel(command="", call=("Read", {"file_path": str(path)})) as m:
        env["ANTHROPIC_BASE_URL"] = m.url
        r = subprocess.run([str(clients.bin_dirs["claude"] / "claude"), "-p", "read the file",
                            "--model", "sonnet", "--permission-mode", "bypassPermissions"],
                           env=env, cwd=cwd, capture_output=True, text=True, timeout=120,
                           stdin=subprocess.DEVNULL)
        assert r.returncode == 0, r.stderr[-2000:]
        results = m.tool_results()
    assert len(results) == 1, f"the Read call was not made: {r.stdout[-500:]}"
    return results


def test_claudes_own_deny_holds_with_the_hook_neutered(scratch_env, clients, need, tmp_path):
    """The bundled default profile's ssh-private-keys rule (~/.ssh/id_* except ~/.ssh/*.pub)."""
    need("claude")
    host = scratch_env
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    ssh = host.home / ".ssh"
    ssh.mkdir(mode=0o700)
    (ssh / "id_rsa").write_text(SECRET + "\n")
    (ssh / "id_rsa.pub").write_text("ssh-rsa AAAA public\n")
    plan = engine.build_plan(host, "default", ["claude"])
    assert engine.apply_plan(host, plan).ok
    settings = json.loads((target_home(host, "claude") / "settings.json").read_text())
    assert any(e.startswith("Read(~/.ssh/id_*") for e in settings["permissions"]["deny"])

    # the hook is gone: its wrapper answers every event with exit 0 and runs no handler
    wrapper = target_home(host, "claude") / "agentdeck-hook.sh"
    wrapper.write_text("#!/bin/sh\nexit 0\n")
    audit = Path(host.state_dir) / "audit.jsonl"
    before = audit.read_text() if audit.exists() else ""
    work = tmp_path / "work"
    work.mkdir()

    [denied] = _read_turn(host, clients, ssh / "id_rsa", work)
    assert SECRET not in denied and "denied by your permission settings" in denied, denied
    [allowed] = _read_turn(host, clients, ssh / "id_rsa.pub", work)
    assert "ssh-rsa AAAA public" in allowed, allowed
    assert (audit.read_text() if audit.exists() else "") == before, "the hook still ran"


def path_without(program: str, path: str, into: Path) -> str:
    """`path` with `program` taken out: each folder that holds it is replaced by a folder of
    links to everything else in it."""
    out = []
    for n, d in enumerate(path.split(os.pathsep)):
        if not (Path(d) / program).exists():
            out.append(d)
            continue
        copy = into / f"path-{n}"
        copy.mkdir(parents=True)
        for entry in Path(d).iterdir():
            if entry.name != program:
                (copy / entry.name).symlink_to(entry)
        out.append(str(copy))
    return os.pathsep.join(out)


def running_under(folder: Path) -> list[int]:
    """Live processes whose command line names `folder`."""
    found = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit() or int(d.name) == os.getpid():
            continue
        try:
            cmd = (d / "cmdline").read_bytes()
            state = (d / "stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if str(folder).encode() in cmd and state not in (b"Z", b"X"):
            found.append(int(d.name))
    return found


@pytest.fixture
def reap(tmp_path):
    """After the test: a process still running in its folder is killed and named in a warning.
    Codex 0.171.0 with the system's bwrap once left its sandboxed fs helper (bwrap ...
    codex --codex-run-as-fs-helper) running after `codex exec` had exited; on parallel
    workers such leftovers would pile up."""
    yield
    left = {}
    for pid in running_under(tmp_path):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            left[pid] = " ".join(a.decode(errors="replace") for a in (argv[0], *argv[-3:]))
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    if left:
        warnings.warn(f"still running in {tmp_path} after the test (killed): "
                      + "; ".join(f"{pid}: {cmd}" for pid, cmd in left.items()), stacklevel=1)


@pytest.mark.parametrize("bwrap", ["system", "bundled"])
def test_codex_permission_profile_holds_with_the_hook_neutered(scratch_env, clients, need,
                                                               tmp_path, bwrap, reap):
    """The default profile's rule, added by agentdeck to the operator's own permission profile:
    a sandboxed `codex exec` turn cannot cat ~/.ssh/id_rsa with agentdeck's hook made inert,
    and cats id_rsa.pub. (Under --dangerously-bypass-approvals-and-sandbox the layer is off:
    core/targets/codex/facts.py PERMISSIONS.) Codex's Linux sandbox runs the system's bwrap when
    one is on PATH (through its codex-linux-sandbox helper) and its bundled bubblewrap otherwise:
    both are tried, the bundled one with bwrap taken off PATH."""
    need("codex")
    host = scratch_env
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    if bwrap == "system" and host.which("bwrap") is None:
        missing_tool("bubblewrap is not installed (bwrap is not on PATH; .ci/run installs it "
                     "with apt-get): Codex's sandbox with the system's bwrap is not tried")
    if bwrap == "bundled":
        host.env["PATH"] = path_without("bwrap", host.env["PATH"], tmp_path / "no-bwrap")
        assert host.which("bwrap") is None
    # Codex makes its sandbox helper (codex-linux-sandbox, for a system bwrap) under CODEX_HOME
    # but refuses to under the temp dir; the scratch home is under pytest's, so the temp dir moves.
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    host.env["TMPDIR"] = str(tmp)
    ssh = host.home / ".ssh"
    ssh.mkdir(mode=0o700)
    (ssh / "id_rsa").write_text(SECRET + "\n")
    (ssh / "id_rsa.pub").write_text("ssh-rsa AAAA public\n")
    cfg = target_home(host, "codex") / "config.toml"
    cfg.write_text('default_permissions = "mine"\n\n[permissions.mine]\nextends = ":workspace"\n')
    plan = engine.build_plan(host, "default", ["codex"], trust_hooks=True)
    assert isinstance(perm := plan.output["codex"].permissions, PermissionProfileInfo)
    assert perm.profile == "mine"
    assert engine.apply_plan(host, plan).ok
    assert '"~/.ssh/id_*[!b]" = "none"' in cfg.read_text()
    (target_home(host, "codex") / "agentdeck-hook.sh").write_text("#!/bin/sh\nexit 0\n")
    work = tmp_path / "work"
    work.mkdir()

    def run(command: str) -> str:
        with ScriptedModel(command=command) as m:
            provider = f'{{name="fake",base_url="{m.url}/v1",wire_api="responses"}}'
            r = subprocess.run(
                [str(clients.bin_dirs["codex"] / "codex"), "exec", "--skip-git-repo-check",
                 "-c", "approval_policy=\"never\"", "-c", "model_provider=fake",
                 "-c", "model=gpt-5.4", "-c", f"model_providers.fake={provider}",
                 "-c", "features.plugins=false", "-c", "check_for_update_on_startup=false",
                 "-c", "analytics.enabled=false", "run the scripted command"],
                env=host.env, cwd=work, capture_output=True, text=True, timeout=120,
                stdin=subprocess.DEVNULL)
            assert r.returncode == 0, r.stderr[-2000:]
            results = m.tool_results()
        assert len(results) == 1, r.stderr[-1000:]
        stderr.append(r.stderr)
        return results[0]

    stderr: list[str] = []

    denied = run(f"cat {ssh / 'id_rsa'}")
    assert SECRET not in denied and "Permission denied" in denied, denied
    assert "ssh-rsa AAAA public" in run(f"cat {ssh / 'id_rsa.pub'}")
    # code that builds the key's path at run time, which no hook can read: the sandbox's floor
    built = run("python3 -c \"import os; p = os.path.join(os.path.expanduser(chr(126)), "
                "chr(46) + 'ss' + 'h', 'id' + chr(95) + 'r' + 'sa'); print(open(p).read())\"")
    assert SECRET not in built and "Permission denied" in built, built
    # which bubblewrap ran: Codex warns when it falls back on its bundled one
    fallback = ["could not find bubblewrap on PATH" in e for e in stderr]
    assert fallback == [bwrap == "bundled"] * 3, stderr
