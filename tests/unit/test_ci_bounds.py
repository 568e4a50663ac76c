"""CI's installs wait a bounded time on the network (.ci/net-bounds.sh, sourced by .ci/run and
.ci/install-clients.sh): an unreachable registry fails the run in minutes, not an hour."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from tests.ci_rule import missing_tool
from tests.clients import clientkit

REPO = Path(__file__).resolve().parents[2]
BOUNDS = REPO / ".ci" / "net-bounds.sh"


def bounds() -> dict[str, str]:
    """The npm and pip variables .ci/net-bounds.sh exports (read by bash itself)."""
    out = subprocess.run(["bash", "-c", f". {BOUNDS} && env -0"], capture_output=True,
                         check=True, env={"PATH": os.environ["PATH"]}).stdout
    pairs = (item.split(b"=", 1) for item in out.split(b"\0") if b"=" in item)
    return {k.decode(): v.decode() for k, v in pairs
            if k.startswith((b"npm_config_", b"PIP_"))}


def test_the_scripts_that_install_source_the_bounds():
    for script in (".ci/run", ".ci/install-clients.sh"):
        assert ". .ci/net-bounds.sh" in (REPO / script).read_text(), script


def test_the_worst_case_of_each_install_is_minutes():
    """npm: every try of a request times out, with the longest back-off between tries, and the
    whole install is stopped at clientkit.INSTALL_TIMEOUT; the CLIs install at once. pip: every
    try of a connection times out."""
    b = bounds()
    npm_tries = int(b["npm_config_fetch_retries"]) + 1
    npm_request = (npm_tries * int(b["npm_config_fetch_timeout"])
                   + (npm_tries - 1) * int(b["npm_config_fetch_retry_maxtimeout"])) / 1000
    assert npm_request <= clientkit.INSTALL_TIMEOUT <= 300
    pip_request = (int(b["PIP_RETRIES"]) + 1) * float(b["PIP_TIMEOUT"])
    assert pip_request <= 120


def test_npm_gives_up_on_a_closed_registry_in_seconds(tmp_path):
    """npm's own defaults took 72 s here for a registry that refuses the connection (retries 10
    to 60 s apart); with the bounds, about 20 s. A closed port from the OS: bound, then closed."""
    npm = shutil.which("npm")
    if npm is None:
        missing_tool("npm is not on PATH (the clients tests' CLIs are installed with it)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (tmp_path / "package.json").write_text('{"private": true}\n')
    env = {k: v for k, v in os.environ.items() if not k.lower().startswith("npm_config_")}
    env.update({k: v for k, v in bounds().items() if k.startswith("npm_config_")},
               npm_config_cache=str(tmp_path / "npm-cache"))
    t0 = time.monotonic()
    r = subprocess.run([npm, "install", "--prefix", str(tmp_path), "--no-audit", "--no-fund",
                        "--no-save", "--registry", f"http://127.0.0.1:{port}/", "left-pad@1.3.0"],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
                       stdin=subprocess.DEVNULL)
    took = time.monotonic() - t0
    assert r.returncode != 0 and "ECONNREFUSED" in r.stdout + r.stderr, r.stderr[-500:]
    assert took < 45, f"npm took {took:.0f} s to give up on a closed registry"
