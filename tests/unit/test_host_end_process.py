"""Host.end_process: how the doctor's JSON-RPC probes end the CLI they started with Host.popen
(the Host is the only door to processes)."""
from __future__ import annotations

import sys
import time

import pytest

from agentdeck.core.host import descendants

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().decode().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_a_child_that_ends_on_closed_input_keeps_its_exit_code(host):
    proc = host.popen(["sh", "-c", "cat >/dev/null; exit 3"])
    proc.stdin.close()
    assert host.end_process(proc, grace=30) == 3


def test_a_child_that_ignores_closed_input_is_killed_with_its_grandchild(host):
    # the launcher starts a grandchild (as Copilot's npm launcher does) and both outlive stdin
    proc = host.popen(["sh", "-c", "sleep 300 & echo $!; wait"])
    grandchild = int(proc.stdout.readline())
    assert _alive(grandchild) and grandchild in descendants(proc.pid)
    assert descendants(grandchild) == []
    proc.stdin.close()
    code = host.end_process(proc, grace=0.2)
    assert code == -9                                   # SIGKILL: it did not end by itself
    for _ in range(200):                                # reaped by init, not by us: wait for it
        if not _alive(grandchild):
            break
        time.sleep(0.05)
    assert not _alive(grandchild)
    proc.stdout.close()
    proc.stderr.close()

