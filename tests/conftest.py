"""Shared fixtures. Every test runs against a temporary home: the real home is never read or
written (HOME and the CLI home variables are pointed into tmp_path for the whole session)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentdeck.core.host import Host
from agentdeck.core.targets import registry

try:   # CI runs the property tests on a fixed set of examples: a red CI is then reproducible,
    # and a developer's runs (random) keep looking for new failures
    from hypothesis import settings as _hyp_settings
    _hyp_settings.register_profile("ci", derandomize=True, print_blob=True)
    if os.environ.get("CI"):
        _hyp_settings.load_profile("ci")
except ImportError:
    pass

#: the variables that move a CLI's home, one per registered target (its spec's home_env): a new
#: target is isolated as soon as it is registered
CLI_HOME_VARS = tuple(s.home_env for s in registry.TARGETS)
#: everything a test's environment drops: the CLI homes, agentdeck's own dirs, the XDG dirs,
#: and the switches that would change what a test sees (a crash point, WSL)
_HOME_VARS = CLI_HOME_VARS + ("AGENTDECK_STATE_DIR", "AGENTDECK_CONFIG_DIR", "XDG_STATE_HOME",
                              "XDG_CONFIG_HOME", "XDG_DATA_HOME", "AGENTDECK_CRASH_AT",
                              "WSL_DISTRO_NAME")


@pytest.fixture(autouse=True)
def _isolate_home(tmp_path_factory, monkeypatch):
    """No test may touch the real home: HOME points at a throwaway folder and the variables
    that would redirect a CLI's home elsewhere are removed."""
    fake = tmp_path_factory.mktemp("process-home")
    monkeypatch.setenv("HOME", str(fake))
    for v in _HOME_VARS:
        monkeypatch.delenv(v, raising=False)
    yield


@pytest.fixture(autouse=True)
def _no_own_handler(monkeypatch):
    """The `agentdeck-hook` installed beside the interpreter running the tests would be "the
    running agentdeck's own handler" the wrappers name (core/targets/wrapper.py): hidden here
    (for this process and the agentdeck processes tests start), so a test's handler is only what
    it puts on its host's PATH (the `ghost` fixture) or pins with `own_handler_at`."""
    monkeypatch.setenv("AGENTDECK_SCRIPTS_DIR", "")


@pytest.fixture
def own_handler_at():
    """own_handler_at(host, dir): make `dir` the scripts dir of "the running agentdeck"."""
    def pin(host, d):
        host.env["AGENTDECK_SCRIPTS_DIR"] = str(d)
    return pin


@pytest.fixture
def home(tmp_path) -> Path:
    h = tmp_path / "home"
    h.mkdir()
    return h


@pytest.fixture
def host(home) -> Host:
    env = {k: v for k, v in os.environ.items() if k not in _HOME_VARS}
    h = Host.from_environment(home, env=env)
    h.osrelease_path = home / ".no-osrelease"   # not WSL unless a test says so
    h.cwd = home            # started in the home: no project folder's files unless a test says so
    return h


@pytest.fixture
def ghost(host, tmp_path) -> Host:
    """The host with a fake `agentdeck-hook` first on a PATH we control: the wrappers record the
    handler's resolved path, so plans and golden files do not depend on this machine's PATH."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    h = bindir / "agentdeck-hook"
    h.write_text("#!/bin/sh\nexit 0\n")
    os.chmod(h, 0o755)
    host.env["PATH"] = f"{bindir}:/usr/bin:/bin"
    return host


def snapshot_tree(root: Path) -> dict[str, tuple]:
    """Every path under root with its bytes (or link target) and mode, for byte-exact checks."""
    out: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            st = os.lstat(p)
            if os.path.islink(p):
                out[rel] = ("link", os.readlink(p))
            elif p.is_dir():
                out[rel] = ("dir", st.st_mode & 0o7777)
            else:
                out[rel] = ("file", p.read_bytes(), st.st_mode & 0o7777)
    return out


@pytest.fixture
def handler_on_path(tmp_path, monkeypatch):
    """A fake `agentdeck-hook` first on this process's PATH (and so on the PATH of every host
    and agentdeck process a test makes from the environment): the hooks an apply installs can
    run, so it ends with exit 0 rather than 2 ("hooks inert: the handler is not found")."""
    bindir = tmp_path / "handler-bin"
    bindir.mkdir()
    h = bindir / "agentdeck-hook"
    h.write_text("#!/bin/sh\nexit 0\n")
    os.chmod(h, 0o755)
    monkeypatch.setenv("PATH", f"{bindir}:{os.environ.get('PATH', '/usr/bin:/bin')}")
    return h
