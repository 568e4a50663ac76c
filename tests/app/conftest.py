"""Fixtures for the app tests: the demo home (deterministic: WSL off, a fixed PATH holding a fake
hook handler inside the home, CLI versions stubbed), an app factory, and a fake doctor."""
from __future__ import annotations

import asyncio
import inspect
import os
import stat
from pathlib import Path

import pytest

from agentdeck.core import demo
from agentdeck.core.doctor.findings import Finding
from agentdeck.core.facts.versions import verified_label
from agentdeck.core.host import Host
from agentdeck.core.targets import registry

@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Run `async def` tests (Pilot) on a fresh event loop; no async plugin needed."""
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        names = pyfuncitem._fixtureinfo.argnames
        asyncio.run(pyfuncitem.obj(**{n: pyfuncitem.funcargs[n] for n in names}))
        return True
    return None


#: the one CLI the app tests' hosts have installed: the first registered, at the version its
#: facts were verified for; every other one is not installed
INSTALLED = registry.NAMES[0]


def stub_versions(host: Host, target: str) -> str | None:
    return verified_label(INSTALLED) if target == INSTALLED else None


def make_host(home: Path) -> Host:
    env = demo.demo_env(home)
    bindir = home / ".local" / "bin"
    bindir.mkdir(parents=True, exist_ok=True)
    handler = bindir / "agentdeck-hook"
    if not handler.exists():
        handler.write_text("#!/bin/sh\nexit 0\n")
        handler.chmod(handler.stat().st_mode | stat.S_IXUSR)
    env["PATH"] = f"{bindir}{os.pathsep}/usr/bin{os.pathsep}/bin"
    env.pop("WSL_DISTRO_NAME", None)
    # the Org tab (and the doctor's org rows) read the system layer under this root prefix,
    # never the machine's own /etc; a test that wants an org layer applies one there
    env["AGENTDECK_ORG_ROOT"] = str(home / ".org-root")
    host = Host.from_environment(home, env=env)
    host.osrelease_path = home / ".no-osrelease"
    return host


@pytest.fixture
def demo_home(tmp_path) -> Path:
    return demo.make_demo_home(tmp_path / "demo")


@pytest.fixture
def demo_host(demo_home) -> Host:
    return make_host(demo_home)


@pytest.fixture
def empty_host(tmp_path) -> Host:
    home = tmp_path / "empty"
    home.mkdir()
    return make_host(home)


@pytest.fixture
def make_app():
    from agentdeck.app.app import AgentDeckApp

    def factory(host: Host, **kw) -> AgentDeckApp:
        kw.setdefault("version_probe", stub_versions)
        return AgentDeckApp(host, **kw)

    return factory


FINDINGS = [
    Finding("copilot", "error", "copilot.hooks.disable-all",
            "settings.json has disableAllHooks: true; no hook runs",
            fix="apply the plan (agentdeck pins it to false)", path="~/.copilot/settings.json",
            line=3),
    Finding("copilot", "warning", "copilot.mcp.header-env",
            "MCP server github: header Authorization names an environment variable",
            fix="put the token in the operator's own mcp-config.json"),
    Finding("copilot", "ok", "copilot.hooks.registered", "12 hooks registered"),
    Finding("codex", "skipped", "codex.installed", "codex is not installed"),
    Finding("agentdeck", "info", "agentdeck.state", "no apply has run on this home yet"),
]


@pytest.fixture
def fake_doctor(monkeypatch):
    """Install a doctor with a fixed set of findings; returns the list of calls it received."""
    calls: list[dict] = []

    def run(host, profile, targets, live=False, progress=None):
        calls.append({"profile": profile, "targets": targets, "live": live})
        found = list(FINDINGS)
        if progress is not None:
            for n in range(3):
                progress(n + 1, 3, f"check {n + 1} of 3")
        if live:
            found.append(Finding("copilot", "ok", "copilot.live.hooks",
                                 "copilot loaded 12 hooks", live=True))
        return found

    monkeypatch.setattr("agentdeck.app.screens.doctor.load_doctor", lambda: run)
    return calls


@pytest.fixture
def no_doctor(monkeypatch):
    monkeypatch.setattr("agentdeck.app.screens.doctor.load_doctor", lambda: None)


SNAPSHOT_ROOT = Path("/tmp/agentdeck-app-snapshots")


@pytest.fixture
def snapshot_host(monkeypatch):
    """The demo home at a fixed path, so hashes of registered hook actions (which name the
    wrapper by absolute path) are the same on every run. The bundled profiles are copied to a
    fixed path too: a profile skill is linked by absolute path, and the checkout's own location
    (CI clones elsewhere) must not reach a snapshot. A lock keeps two concurrent test runs on
    one machine from sharing them."""
    import fcntl
    import shutil

    from agentdeck.core import profile_dirs, profiles

    SNAPSHOT_ROOT.mkdir(parents=True, exist_ok=True)
    with open(SNAPSHOT_ROOT.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        bundled = SNAPSHOT_ROOT / "profiles"
        shutil.rmtree(bundled, ignore_errors=True)
        shutil.copytree(profiles.bundled_dir(), bundled, symlinks=True)
        monkeypatch.setattr(profile_dirs, "bundled_dir", lambda: bundled)
        home = SNAPSHOT_ROOT / "home"
        shutil.rmtree(home, ignore_errors=True)
        demo.make_demo_home(home)
        try:
            yield make_host(home)
        finally:
            shutil.rmtree(home, ignore_errors=True)
