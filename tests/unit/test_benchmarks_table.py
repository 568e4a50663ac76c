"""benchmarks/run.py: the default run measures a clean venv (a regular install, as a user
installs), `--here` says in the table that it measured the running interpreter instead, and each
verdict says whether wall or CPU time met the target. (No timing is asserted.)"""
from __future__ import annotations

import sys

import pytest

from benchmarks import run as bench


def main(monkeypatch, *argv: str) -> list[list[str]]:
    """benchmarks/run.py's main with these arguments and no rows; the re-executions it asked."""
    asked: list[list[str]] = []

    def reexec(args: list[str]) -> None:
        asked.append(args)
        raise SystemExit(0)

    monkeypatch.setattr(bench, "reexec_in_venv", reexec)
    monkeypatch.setattr(sys, "argv", ["run.py", "--only", "", *argv])
    try:
        bench.main()
    except SystemExit:
        pass
    return asked


def test_the_default_run_goes_into_the_clean_venv(monkeypatch, capsys):
    assert main(monkeypatch) == [["--only", ""]]
    assert capsys.readouterr().out == ""          # nothing measured outside it


def test_the_table_says_which_interpreter_it_measured(monkeypatch, capsys):
    assert main(monkeypatch, bench.IN_VENV_FLAG) == []
    out = capsys.readouterr().out
    assert "measured in clean venv" in out and "--here" not in out
    assert main(monkeypatch, "--here") == []
    out = capsys.readouterr().out
    assert "--here: the running interpreter" in out and "NOT a clean install" in out
    assert "measured (--here)" in out                  # the table's own header


def test_each_verdict_says_wall_or_cpu():
    fast, slow = bench.Sample([0.01] * 3, [0.01] * 3), bench.Sample([0.05] * 3, [0.011] * 3)
    row = bench.pair_row("z", "a", "b", slow, fast, 2, "<= 2x")
    assert row.met == "NO (wall), yes (CPU)"
    assert bench.verdict(True, "wall") == "yes (wall)"
    with pytest.raises(TypeError):
        bench.verdict(True)                            # no verdict without its basis
