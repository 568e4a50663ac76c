"""Crash safety. A real `agentdeck` process is killed with SIGKILL at every write
step in turn and the home must survive each kill:

- AGENTDECK_CRASH_AT=k kills the apply just before write step k (k = 1..N);
- AGENTDECK_CRASH_MID_WRITE=k kills it halfway through writing the temp file of atomic write k
  (backups and the journal included), so a write is really cut short.

After each kill:

- no file is partially written: every JSON and TOML file in the home parses;
- the next agentdeck run (here `plan`, which only reads otherwise) recovers from the journal:
  the home is byte-identical to before the killed apply, and no temp file is left;
- a following apply converges: it gives exactly the home a clean apply gives, and the plan after
  it is empty.

N is discovered, not assumed: k grows until the process runs to the end without being killed.
Each series prints "N of N steps survived". Steps run two at a time, each worker in its own home.
Each worker builds its scenario's home once and copies it back before every step (the copy is
checked byte-identical to the first build), and the killed process is forked from a server with
agentdeck imported (safety_helpers.cli_forked), so a step costs the apply, not a start-up.
"""
from __future__ import annotations

import shutil
import signal
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from agentdeck.core import apply as applier
from agentdeck.core import cli, engine
from tests.safety.safety_helpers import (applied, HOMES, available, clean_env, cli_forked,
                                         cli_inproc, cli_proc, diff_snapshots, home_snapshot,
                                         make_host, target_args, temp_leftovers,
                                         unparsable_configs)

LEAN_PROFILE = """[profile]
description = "a smaller profile: switching to it removes and rewrites things"
extends = ["_base"]

[hooks]
command = "agentdeck-hook --lean"
timeout = 10
"""
WORKERS = 2


def _quiet(*args: str) -> int:
    """cli.main without capturing (thread-safe: output goes to pytest's capture)."""
    return cli.main([str(a) for a in args])


def _setup(scenario: str, home: Path, names: list[str]) -> list[str]:
    """Build the home for a scenario; returns the command line of the run to kill."""
    if home.exists():
        shutil.rmtree(home)
    HOMES["fresh" if scenario == "install-fresh" else "messy"](home)
    if scenario in ("install-fresh", "install-messy"):
        return ["apply", "--home", str(home), "--yes", *target_args(names)]
    # 2: the messy home's own ~/.codex/hooks.json is kept, so Codex runs none of agentdeck's
    # hooks and the apply says so (safety_helpers.applied); everything was applied
    assert _quiet("apply", "--home", home, "--yes", *target_args(names)) in (0, 2)
    if scenario == "uninstall":
        return ["uninstall", "--home", str(home), "--yes", *target_args(names)]
    # "switch": another profile, so the apply both rewrites and removes things
    prof = home / ".config" / "agentdeck" / "profiles" / "lean"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text(LEAN_PROFILE)
    (prof / "AGENTS.md").write_text("Lean persona.\n")
    return ["apply", "--home", str(home), "--yes", "--profile", "lean", *target_args(names)]


def _plan_args(argv: list[str]) -> list[str]:
    """The read-only `plan` matching an apply (or uninstall) command line."""
    return ["plan"] + [a for a in argv[1:] if a != "--yes"]


def _converge(home: Path, argv: list[str], names: list[str]) -> None:
    assert _quiet(*argv) in (0, 2), "the apply after recovery failed"   # 2: see _setup
    if argv[0] == "uninstall":
        plan = engine.build_uninstall_plan(make_host(home), names)
        assert not plan.has_changes, [f"{i.cls} {i.label}" for i in plan.items]
    else:
        assert _quiet(*_plan_args(argv)) == 0, "the plan after the apply is not empty"


@dataclass
class Series:
    scenario: str
    var: str                     # AGENTDECK_CRASH_AT | AGENTDECK_CRASH_MID_WRITE
    names: list[str]
    finished_at: int | None = None
    survived: set[int] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def worker(self, root: Path, w: int) -> None:
        home = root / f"worker-{w}" / "home"
        template = root / f"worker-{w}" / "template"
        argv = _setup(self.scenario, home, self.names)
        before = home_snapshot(home)
        # built at `home` (its files name that path), kept aside, copied back for every step
        shutil.copytree(home, template, symlinks=True)
        _converge(home, argv, self.names)
        reference = home_snapshot(home)
        assert reference != before, "the scenario changes nothing: the test would prove nothing"
        k = w + 1
        while True:
            with self.lock:
                if self.finished_at is not None and k > self.finished_at:
                    return
            assert k < 400, f"{self.var} is not honoured: the run never got killed at the end"
            self.step(k, home, template, argv, before, reference)
            k += WORKERS

    def step(self, k: int, home: Path, template: Path, argv: list[str], before: dict,
             reference: dict) -> None:
        shutil.rmtree(home)
        shutil.copytree(template, home, symlinks=True)
        assert home_snapshot(home) == before, "the scenario's home is not copied back exactly"
        r = cli_forked(*argv, env=clean_env(home, **{self.var: str(k)}),
                       scratch=home.parent / "out")
        where = f"{self.scenario}, {self.var}={k}"
        if applied(r.returncode, r.stderr):       # ran to the end: there is no write k
            with self.lock:
                self.finished_at = k if self.finished_at is None else min(self.finished_at, k)
            assert home_snapshot(home) == reference, diff_snapshots(reference, home_snapshot(home))
            return
        assert r.returncode == -signal.SIGKILL, (
            f"{where}: expected the kill, got exit {r.returncode}:\n{r.stdout}\n{r.stderr}")
        assert "Traceback" not in r.stderr
        # no file partially written (a cut-short write leaves at most a temp file beside it)
        assert unparsable_configs(home) == [], f"{where}: {unparsable_configs(home)}"
        # the next run recovers: the home is as it was, no temp file is left, no journal
        assert _quiet(*_plan_args(argv)) in (0, 2), f"{where}: the run after the kill failed"
        assert not applier.journal_path(make_host(home)).exists(), f"{where}: journal left"
        assert temp_leftovers(home) == [], f"{where}: temp files left: {temp_leftovers(home)}"
        now = home_snapshot(home)
        assert now == before, f"{where}: the home was not rolled back:\n" + diff_snapshots(before, now)
        # a following apply converges to the same home as a clean run, and an empty plan
        _converge(home, argv, self.names)
        now = home_snapshot(home)
        assert now == reference, f"{where}: apply after recovery differs:\n" + diff_snapshots(reference, now)
        with self.lock:
            self.survived.add(k)


def _run_series(tmp_path: Path, scenario: str, var: str, capsys) -> None:
    s = Series(scenario, var, available())
    with ThreadPoolExecutor(WORKERS) as pool:
        for f in [pool.submit(s.worker, tmp_path, w) for w in range(WORKERS)]:
            f.result()
    n = s.finished_at - 1
    with capsys.disabled():
        print(f"\n[crash safety] {scenario}, {var}: {len(s.survived)} of {n} steps survived "
              f"({'+'.join(s.names)})", file=sys.stderr)
    assert n >= 3, f"only {n} write steps: the scenario is too small to prove anything"
    assert s.survived == set(range(1, n + 1))


@pytest.mark.parametrize("scenario", ["install-fresh", "install-messy", "switch", "uninstall"])
def test_kill_before_every_write_step_recovers_and_converges(fast_tmp, scenario, capsys):
    _run_series(fast_tmp, scenario, "AGENTDECK_CRASH_AT", capsys)


@pytest.mark.parametrize("scenario", ["switch"])
def test_kill_in_the_middle_of_every_write_recovers_and_converges(fast_tmp, scenario, capsys):
    _run_series(fast_tmp, scenario, "AGENTDECK_CRASH_MID_WRITE", capsys)


def test_the_run_after_a_kill_says_it_recovered(tmp_path):
    """The operator is told: one line on stderr naming the journal."""
    names = available()
    home = tmp_path / "home"
    argv = _setup("switch", home, names)
    r = cli_proc(*argv, env=clean_env(home, AGENTDECK_CRASH_AT="2"))
    assert r.returncode == -signal.SIGKILL
    rc, out, err = cli_inproc(*_plan_args(argv))
    assert rc in (0, 2)
    lines = err.splitlines()    # then the plan's own word on the messy home's Codex hooks
    assert "rolled back an interrupted apply" in lines[0] and "journal" in lines[0], err
    assert all("hooks are inert" in ln for ln in lines[1:]), err


def test_recovery_after_a_kill_is_itself_crash_safe(tmp_path):
    """Recovery only writes from the journal's backups and is idempotent: running it twice (as a
    run killed during recovery would) gives the same home."""
    names = available()
    home = tmp_path / "home"
    argv = _setup("switch", home, names)
    before = home_snapshot(home)
    r = cli_proc(*argv, env=clean_env(home, AGENTDECK_CRASH_AT="3"))
    assert r.returncode == -signal.SIGKILL
    host = make_host(home)
    journal = applier.journal_path(host).read_bytes()
    assert applier.recover(host)
    applier.journal_path(host).write_bytes(journal)   # as if killed before removing it
    assert applier.recover(host)
    assert home_snapshot(home) == before
    assert applier.recover(host) is None
