"""A home produced by the real agentihooks (the version core.facts.known_tools was verified for),
for the take-over tests (docs/migrating.md).

agentihooks is installed once from PyPI into a venv beside the real CLIs' cache
(`<clients root>/agentihooks@<version>/venv`, see clientkit.py; pip's own cache is off, so
nothing else is written), then `agentihooks init --target <cli>` runs with HOME, XDG_* and the
CLI home variables pointed into the test's folder. When pip cannot install it, the tests that
need it are skipped with pip's reason.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

from agentdeck.core.facts.known_tools import AGENTIHOOKS

VERSION = AGENTIHOOKS.verified


def venv_dir() -> Path:
    """Beside the real CLIs (clientkit.clients_root's rule: $AGENTDECK_CLIENTS_DIR, else the
    checkout's git-ignored .cache/clients; never the real home)."""
    root = os.environ.get("AGENTDECK_CLIENTS_DIR") or \
        Path(__file__).resolve().parents[2] / ".cache" / "clients"
    return Path(root) / f"agentihooks@{VERSION}" / "venv"


def ensure_agentihooks() -> tuple[Path | None, str]:
    """(the agentihooks program, "") or (None, why it could not be installed). Test processes
    running side by side (pytest-xdist workers, two checkouts) take a lock first: one installs,
    the others wait and reuse its venv."""
    d = venv_dir()
    prog = d / "bin" / "agentihooks"
    if prog.exists():
        return prog, ""
    try:
        d.parent.mkdir(parents=True, exist_ok=True)
        lock = open(d.parent / ".install.lock", "w")
    except OSError as e:
        return None, f"installing agentihooks {VERSION} failed: {e}"
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if prog.exists():
            return prog, ""
        return _install(d, prog)


def _install(d: Path, prog: Path) -> tuple[Path | None, str]:
    shutil.rmtree(d, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(PIP_NO_CACHE_DIR="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    try:
        made = subprocess.run([sys.executable, "-m", "venv", str(d)], capture_output=True,
                              text=True, timeout=300)
        if made.returncode != 0:
            return None, f"python -m venv failed: {made.stderr.strip()[-300:]}"
        got = subprocess.run([str(d / "bin" / "pip"), "install", "-q", f"agentihooks=={VERSION}"],
                             capture_output=True, text=True, timeout=900, env=env)
    except (OSError, subprocess.TimeoutExpired) as e:
        shutil.rmtree(d, ignore_errors=True)
        return None, f"installing agentihooks {VERSION} failed: {e}"
    if got.returncode != 0 or not prog.exists():
        shutil.rmtree(d, ignore_errors=True)
        tail = (got.stderr or got.stdout).strip().splitlines()[-1:] or ["(no output)"]
        return None, f"pip install agentihooks=={VERSION} failed: {tail[0][:300]}"
    return prog, ""


def init_home(home: Path, target: str = "copilot") -> str:
    """Run `agentihooks init --target <target>` into `home`; "" or why it failed."""
    prog, why = ensure_agentihooks()
    if prog is None:
        return why
    home.mkdir(parents=True, exist_ok=True)
    env = {"HOME": str(home), "PATH": f"{prog.parent}:/usr/bin:/bin", "LANG": "C.UTF-8",
           "XDG_CONFIG_HOME": str(home / ".config"), "XDG_STATE_HOME": str(home / ".local/state"),
           "XDG_DATA_HOME": str(home / ".local/share"), "XDG_CACHE_HOME": str(home / ".cache"),
           "NO_COLOR": "1"}
    try:
        r = subprocess.run([str(prog), "init", "--target", target], env=env, cwd=str(home),
                           stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"agentihooks init --target {target} failed: {e}"
    if r.returncode != 0:
        return f"agentihooks init --target {target} exited {r.returncode}: {r.stderr.strip()[-300:]}"
    return ""


def snapshot(home: Path, skip: tuple[str, ...] = ()) -> dict[str, tuple[str, bytes | str, int]]:
    """Every file and link under `home` (relative path -> kind, bytes or link target, mode),
    except the folders named in `skip` (relative paths)."""
    out: dict[str, tuple[str, bytes | str, int]] = {}
    for dirpath, dirnames, filenames in os.walk(home):
        rel_dir = os.path.relpath(dirpath, home)
        dirnames[:] = [d for d in dirnames
                       if os.path.normpath(os.path.join(rel_dir, d)) not in skip
                       and not os.path.islink(os.path.join(dirpath, d))]
        for name in filenames + [d for d in os.listdir(dirpath)
                                 if os.path.islink(os.path.join(dirpath, d))
                                 and os.path.isdir(os.path.join(dirpath, d))]:
            p = os.path.join(dirpath, name)
            rel = os.path.normpath(os.path.relpath(p, home))
            if os.path.islink(p):
                out[rel] = ("link", os.readlink(p), 0)
            elif os.path.isfile(p):
                with open(p, "rb") as fh:
                    out[rel] = ("file", fh.read(), os.stat(p).st_mode & 0o7777)
    return out
