"""Fixtures for the `clients` tests: the pinned real CLIs, installed once from npm into a cache
outside the repository (see clientkit.py), and a scratch host per test."""
from __future__ import annotations

import time

import pytest

from clientkit import Clients, install_all, scratch_host, warm_npx_servers
from agentdeck.core.host import Host
from tests.ci_rule import missing_tool


@pytest.fixture(scope="session")
def clients() -> Clients:
    """Every pinned CLI that could be installed (or reused). Tests that need one that could not
    be installed are skipped with npm's reason (see `need`)."""
    t0 = time.monotonic()
    c = install_all()
    took = time.monotonic() - t0
    print(f"\n[clients] root {c.root}: ready in {took:.1f}s "
          f"(installed: {', '.join(f'{t} {s:.0f}s' for t, s in c.install_seconds.items()) or '-'})")
    for target, why in c.failures.items():
        print(f"[clients] {target} unavailable: {why}")
    if c.bin_dirs:
        warm_npx_servers(c)
    return c


@pytest.fixture
def need(clients):
    """need("copilot", ...) skips the test, with the install failure as the reason, unless
    those CLIs are installed (under CI it fails with that reason: tests/ci_rule.py)."""
    def _need(*targets: str) -> None:
        missing = [f"{t}: {clients.failures.get(t, 'not installed')}" for t in targets
                   if t not in clients.bin_dirs]
        if missing:
            missing_tool("real CLI unavailable: " + "; ".join(missing))
    return _need


@pytest.fixture
def scratch_env(tmp_path, clients) -> Host:
    """A Host with HOME, every registered CLI's home variable and XDG_* under tmp_path
    (XDG_CACHE_HOME: the shared client cache), the CLIs first on PATH, no credentials."""
    if not clients.bin_dirs:
        missing_tool("no real CLI could be installed: "
                    + "; ".join(f"{t}: {why}" for t, why in clients.failures.items()))
    return scratch_host(tmp_path, clients)
