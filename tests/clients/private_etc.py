"""Run one real offline CLI turn with system files of the test's own, never the machine's.

`run(spec)` starts this file again inside `unshare -m -n` (a private mount namespace and a
network namespace with loopback only). In there, /etc, /usr/local and /var are overlay mounts whose
upper layers live in the test's temporary folder, so every file the spec puts under them
(/etc/claude-code/..., /etc/codex/requirements.toml, /etc/github-copilot/policy.d/...,
/usr/local/lib/agentdeck/...) exists for the CLI only and vanishes with the namespace; the
machine's real /etc is never written. The scripted model server (agentdeck.core.drill.server)
runs in there too, on the namespace's own 127.0.0.1.

The turn can run as an unprivileged user (`"user": [uid, gid]`, via setpriv): the CLI
installs are then bind-mounted read-only into the spec's folder, since /root is not theirs to
read.

spec (JSON):
  base          a folder (mode 0755 chain) for the scratch home, work dir and mounts
  system_files  {abs path: {"text": str, "mode": int}} written as root inside the namespace
  argv, env     the turn; {port} is the server's port, {clients} the clients folder as the
                CLI sees it
  commands      the shell commands the scripted model asks for, in order
  shell_tools   optional [[tool name, argument], ...]: the CLI's own shell tool, tried first
  user          [uid, gid] or null (root)
  open_root     true: /root is an overlay too, made 0711 in there, so the user can run the
                test's own agentdeck (whose interpreter may live under /root)
  pre           optional shell commands run as root inside the namespace before the turn
                (after the system files are in place), e.g. to try an edit as the user
result (JSON on stdout): returncode, stdout, stderr, timed_out, requests, pre (their outputs)
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve()
OVERLAID = ("/etc", "/usr/local", "/var")


def unshare_works() -> bool:
    try:
        r = subprocess.run(["unshare", "-m", "-n", "--", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0 and os.geteuid() == 0


def guarded() -> tuple[str, ...]:
    """The org layer's system paths (each layer's /etc folder from the registry, the lib and
    state dirs): none may appear on the real machine because of a test."""
    from agentdeck.core.org.scope import system_dirs
    return system_dirs()


def run(spec: dict, timeout: float = 180) -> dict:
    """Run the spec in a private namespace (see the module docstring)."""
    paths = guarded()
    before = {p for p in paths if os.path.lexists(p)}
    try:
        return _run(spec, timeout)
    finally:
        appeared = {p for p in paths if os.path.lexists(p)} - before
        assert not appeared, f"the namespace leaked onto the real machine: {sorted(appeared)}"


def _run(spec: dict, timeout: float) -> dict:
    r = subprocess.run(["unshare", "-m", "-n", "--propagation", "private", "--",
                        sys.executable, str(HERE)], input=json.dumps(spec), text=True,
                       capture_output=True, timeout=timeout)
    try:
        return json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise AssertionError(f"the namespace runner failed (exit {r.returncode}): "
                             f"{r.stderr[-2000:]}") from None


# ---- inside the namespace ---------------------------------------------------------------------

def _sh(argv: list[str]) -> None:
    subprocess.run(argv, check=True, capture_output=True)


def _overlay(base: Path, extra: tuple[str, ...] = ()) -> None:
    for i, target in enumerate(OVERLAID + extra):
        upper, work = base / f".ov{i}" / "upper", base / f".ov{i}" / "work"
        upper.mkdir(parents=True, exist_ok=True)
        work.mkdir(parents=True, exist_ok=True)
        _sh(["mount", "-t", "overlay", "overlay", "-o",
             f"lowerdir={target},upperdir={upper},workdir={work}", target])


def _write_system(files: dict) -> None:
    for path, f in files.items():
        p = Path(path)
        assert p.is_absolute() and str(p).startswith(OVERLAID), path
        p.parent.mkdir(parents=True, exist_ok=True, mode=0o755)
        p.write_text(f["text"])
        os.chmod(p, f.get("mode", 0o644))


def _inner(spec: dict) -> dict:
    sys.path.insert(0, str(HERE.parents[2]))            # the repository, for agentdeck.*
    from agentdeck.core.drill.server import Script, ScriptedServer

    base = Path(spec["base"])
    _overlay(base, ("/root",) if spec.get("open_root") else ())
    if spec.get("open_root"):      # the test's venv interpreter lives under /root (pyenv)
        os.chmod("/root", 0o711)
    _write_system(spec.get("system_files") or {})
    _sh(["ip", "link", "set", "lo", "up"])
    clients = spec.get("clients_src")
    seen_clients = clients
    if clients and spec.get("user"):
        mnt = base / "clients"
        mnt.mkdir(exist_ok=True)
        _sh(["mount", "--bind", clients, str(mnt)])
        _sh(["mount", "-o", "remount,bind,ro", str(mnt)])
        seen_clients = str(mnt)
    pre_out = []
    for cmd in spec.get("pre") or []:
        r = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True,
                           timeout=spec.get("pre_timeout", 300))
        pre_out.append({"cmd": cmd, "rc": r.returncode, "out": (r.stdout + r.stderr)[-20000:]})
    script = Script(list(spec.get("commands") or []),
                    shell_tools=tuple((str(n), str(a)) for n, a in spec.get("shell_tools") or ()))
    with ScriptedServer(script) as srv:
        sub = {"{port}": str(srv.port), "{clients}": seen_clients or ""}

        def fill(s: str) -> str:
            for k, v in sub.items():
                s = s.replace(k, v)
            return s

        argv = [fill(a) for a in spec["argv"]]
        env = {k: fill(v) for k, v in spec["env"].items()}
        if spec.get("user"):
            uid, gid = spec["user"]
            argv = ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups",
                    "--inh-caps=-all", "--", *argv]
        try:
            r = subprocess.run(argv, env=env, cwd=spec.get("cwd"), capture_output=True,
                               text=True, timeout=spec.get("timeout", 120),
                               stdin=subprocess.DEVNULL)
            out = {"returncode": r.returncode, "stdout": r.stdout[-6000:],
                   "stderr": r.stderr[-6000:], "timed_out": False}
        except subprocess.TimeoutExpired as e:
            out = {"returncode": None, "stdout": str(e.stdout or "")[-3000:],
                   "stderr": str(e.stderr or "")[-3000:], "timed_out": True}
        with script.lock:
            out["requests"] = list(script.seen)
    out["pre"] = pre_out
    return out


if __name__ == "__main__":
    spec = json.loads(sys.stdin.read())
    try:
        res = _inner(spec)
    except Exception as e:  # noqa: BLE001 - reported to the outer process as data
        import traceback
        res = {"error": f"{type(e).__name__}: {e}", "trace": traceback.format_exc()[-3000:]}
    print(json.dumps(res))
