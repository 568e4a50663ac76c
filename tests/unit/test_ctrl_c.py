"""Ctrl-C at any moment of agentdeck's start-up is one line and exit 130, never a traceback.

Each case starts the real entry point (pyproject's console script: agentdeck.core.entry:main)
in a child process that sends itself SIGINT the moment a given module is imported (an audit
hook on the `import` event): while the engine, argparse or the command's own modules load, and
while the app's Textual loads. Nothing is written to the home."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from agentdeck.core.entry import EXIT_INTERRUPTED, INTERRUPTED
from tests.conftest import CLI_HOME_VARS, snapshot_tree

REPO = Path(__file__).resolve().parents[2]

CHILD = """
import os, signal, sys
when = sys.argv.pop(1)
def hook(event, args):
    if event == "import" and args[0] == when:
        os.kill(os.getpid(), signal.SIGINT)
sys.addaudithook(hook)
from agentdeck.core.entry import main
sys.exit(main())
"""


def sigint_default() -> None:
    """In the child, before it execs: SIGINT back to its default. A process inherits an ignored
    SIGINT (pytest run as a background job, under nohup or a CI runner), and agentdeck rightly
    leaves an ignored SIGINT ignored; the child is started as from a terminal whatever started
    pytest."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted_at(module: str, home: Path, *argv: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in (*CLI_HOME_VARS, "AGENTDECK_STATE_DIR")}
    env["HOME"] = str(home)
    return subprocess.run([sys.executable, "-c", CHILD, module, *argv], capture_output=True,
                          text=True, cwd=REPO, env=env, timeout=120, stdin=subprocess.DEVNULL,
                          preexec_fn=sigint_default)


@pytest.mark.parametrize("module,argv", [
    ("agentdeck.core.cli", ["plan"]),            # the first of agentdeck's own modules
    ("agentdeck.core.profilecache", ["plan"]),   # inside the engine's imports
    ("agentdeck.core.engine", ["status"]),
    ("argparse", ["apply", "--yes"]),            # building the parser
    ("agentdeck.core.render", ["plan"]),         # the command has started: KeyboardInterrupt
    ("agentdeck.core.apply", ["apply", "--yes"]),
    ("textual.app", ["tui"]),                    # the app loading
])
def test_ctrl_c_during_start_up_is_one_line(home, module, argv):
    before = snapshot_tree(home)
    proc = interrupted_at(module, home, "--home", str(home), *argv)
    assert proc.stderr == INTERRUPTED + "\n", proc.stderr
    assert proc.returncode == EXIT_INTERRUPTED
    assert snapshot_tree(home) == before


def test_the_cases_hold_when_pytest_runs_with_sigint_ignored(home):
    """pytest started as a background job (or by a runner that ignores SIGINT) passes the
    ignored SIGINT on to every child: the cases above reset it in their child, so they test
    agentdeck's start-up, not how pytest was started."""
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        proc = interrupted_at("agentdeck.core.cli", home, "--home", str(home), "plan")
    finally:
        signal.signal(signal.SIGINT, old)
    assert proc.stderr == INTERRUPTED + "\n", proc.stderr
    assert proc.returncode == EXIT_INTERRUPTED


def test_an_ignored_sigint_stays_ignored(home):
    """Started with SIGINT ignored (nohup, a background job): the entry point does not take it
    back, so the command runs to its end."""
    proc = subprocess.run(
        [sys.executable, "-c", "import signal, sys\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
         + CHILD, "agentdeck.core.cli", "--home", str(home), "profiles"],
        capture_output=True, text=True, cwd=REPO, timeout=120, stdin=subprocess.DEVNULL,
        env={**os.environ, "HOME": str(home)})
    assert proc.returncode == 0, proc.stderr
    assert "default" in proc.stdout
