"""Fixtures of the safety suite."""
from __future__ import annotations

import pytest

import os
import shutil
import tempfile
from pathlib import Path

from agentdeck.core import targets


@pytest.fixture
def with_fake_target(monkeypatch):
    """Registers a small second target ('fake', home ~/.fake) that shares the skill link
    ~/.agents/skills/changelog with Copilot, so cross-target guarantees are tested even while
    only one real adapter exists."""
    monkeypatch.setitem(targets.ADAPTERS, "fake", ("tests.safety.fake_target", "FakeTarget"))
    monkeypatch.setattr(targets, "ORDER", tuple(targets.ORDER) + ("fake",))
    yield "fake"


@pytest.fixture
def fast_tmp(tmp_path) -> Path:
    """A scratch folder on tmpfs (/dev/shm) when there is one: the crash and corpus suites run
    hundreds of applies, each fsyncing every file it writes, and fsync on a real disk costs
    milliseconds. The code paths are the same; only the disk is faster."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    d = Path(tempfile.mkdtemp(prefix="agentdeck-safety-", dir=shm))
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(autouse=True)
def _handler_on_path(handler_on_path):
    """The safety suite is about files: its applies run with a handler on PATH, so an apply
    ends with exit 0 (without one it is exit 2, "hooks inert", tests/unit/test_apply_effect.py)."""
    return handler_on_path
