"""Two applies at once on one home. One runs; the other waits briefly for the home's
lock, then fails with a clear one-line message, having written nothing; the home ends exactly as
one apply alone leaves it (no interleaved writes)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from agentdeck.core import apply as applier
from tests.safety.safety_helpers import (HOMES, applied, REPO, available, clean_env, diff_snapshots,
                                         home_snapshot, install, make_host, target_args)


def _spawn(argv, env):
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=REPO, env=env)


def test_two_applies_at_once_one_runs_the_other_waits_then_fails(tmp_path):
    names = available()
    # the reference: one apply alone, on the same path
    home = HOMES["messy"](tmp_path / "home")
    install(home, names)
    reference = home_snapshot(home)
    shutil.rmtree(home)
    HOMES["messy"](home)
    marker = tmp_path / "first-is-writing"
    slow = [sys.executable, "-m", "tests.safety.slow_apply"]
    args = ["apply", "--home", str(home), "--yes", *target_args(names)]
    env1 = clean_env(home, SLOW_MARKER=str(marker), SLOW_WRITE_SECONDS="0.25")
    first = _spawn(slow + args, env1)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert first.poll() is None, "the first apply ended before writing: " + first.stderr.read()
            assert time.monotonic() < deadline, "the first apply never started writing"
            time.sleep(0.02)
        t0 = time.monotonic()
        second = subprocess.run([sys.executable, "-m", "agentdeck.core.cli", *args], capture_output=True,
                                text=True, cwd=REPO, env=clean_env(home), timeout=60)
        waited = time.monotonic() - t0
        assert first.poll() is None, "the first apply finished before the second gave up: the test proves nothing"
        out1, err1 = first.communicate(timeout=120)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    # the second waited briefly, then failed with one clear line and no traceback
    assert second.returncode == 1, second.stdout + second.stderr
    lines = [ln for ln in second.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, second.stderr
    assert "another agentdeck apply is running on this home" in lines[0]
    assert f"pid {first.pid}" in lines[0], lines[0]
    assert "Traceback" not in second.stderr
    assert applier.LOCK_WAIT_SECONDS * 0.9 <= waited < applier.LOCK_WAIT_SECONDS + 20
    # the first ran to the end; the home is exactly what one apply alone gives
    assert applied(first.returncode, err1), out1 + err1
    home_now = home_snapshot(home)
    assert home_now == reference, diff_snapshots(reference, home_now)
    # exactly one apply took backups and left a journal-free state
    host = make_host(home)
    assert len(os.listdir(host.state_dir / "backups")) == 1
    assert not (host.state_dir / "journal.json").exists()


def test_second_apply_waiting_for_a_short_apply_then_refuses_a_stale_plan(tmp_path):
    """When the first apply finishes within the wait, the second does not write over it from a
    plan computed before: it refuses a stale plan (one clear line) and writes nothing."""
    names = available()
    home = HOMES["fresh"](tmp_path / "home")
    from agentdeck.core import engine
    host = make_host(home)
    plan_a = engine.build_plan(host, "default", names)
    plan_b = engine.build_plan(host, "default", names)
    engine.apply_plan(host, plan_a)
    after_a = home_snapshot(home)
    import pytest
    from agentdeck.core.errors import StalePlanError
    with pytest.raises(StalePlanError, match="changed on disk since this plan was computed"):
        engine.apply_plan(host, plan_b)
    assert home_snapshot(home) == after_a
