"""What `agentdeck apply` says when Ctrl-C meets it, as it is (core/cli.py interrupted_words):
in the middle of the writes, the files already written are put back at once (not at the next
command) and it says so; after the apply finished, it says everything was applied; before any
write, nothing more was written."""
from __future__ import annotations

import os

import pytest

from agentdeck.core import apply as apply_mod, cli, plan_run
from agentdeck.core.interrupt import EXIT_INTERRUPTED, INTERRUPTED, STATE

from tests.conftest import snapshot_tree


@pytest.fixture(autouse=True)
def fresh_state():
    saved = dict(STATE)
    STATE.update(host=None, applied=False)
    yield
    STATE.clear()
    STATE.update(saved)


def _home(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    return home


def _apply(home, capsys) -> tuple[int, str]:
    old = dict(os.environ)
    os.environ["HOME"] = str(home)
    try:
        rc = cli.main(["apply", "--yes", "--home", str(home)])
    finally:
        os.environ.clear()
        os.environ.update(old)
    return rc, capsys.readouterr().err


def test_ctrl_c_between_two_writes_puts_back_what_was_written_and_says_so(tmp_path, monkeypatch,
                                                                          capsys):
    home = _home(tmp_path)
    before = snapshot_tree(home)
    real = apply_mod._write_one
    calls = [0]

    def write_then_interrupt(*a, **kw):
        calls[0] += 1
        if calls[0] == 3:
            raise KeyboardInterrupt
        return real(*a, **kw)

    monkeypatch.setattr(apply_mod, "_write_one", write_then_interrupt)
    rc, err = _apply(home, capsys)
    assert rc == EXIT_INTERRUPTED
    assert "interrupted during the apply; rolled back an interrupted apply" in err, err
    assert "the files are as they were before it" in err and INTERRUPTED not in err
    # agentdeck's own state (the backups, under ~/.local/state) aside, the home is as it was
    after = {k: v for k, v in snapshot_tree(home).items() if not k.startswith(".local")}
    assert after == before
    assert not apply_mod.journal_path(STATE["host"]).exists()


def test_ctrl_c_after_the_apply_finished_says_it_was_applied(tmp_path, monkeypatch, capsys):
    home = _home(tmp_path)

    def interrupt(*a, **kw):
        raise KeyboardInterrupt
    monkeypatch.setattr(plan_run, "say_inert", interrupt)      # the apply's last word
    rc, err = _apply(home, capsys)
    assert rc == EXIT_INTERRUPTED
    assert "interrupted after the apply had finished: everything in the plan was applied" in err
    assert (home / ".claude" / "settings.json").exists()


def test_ctrl_c_before_any_write_says_nothing_more_was_written(tmp_path, monkeypatch, capsys):
    home = _home(tmp_path)
    before = snapshot_tree(home)

    def interrupt(*a, **kw):
        raise KeyboardInterrupt
    monkeypatch.setattr(plan_run, "print_plan", interrupt)
    rc, err = _apply(home, capsys)
    assert rc == EXIT_INTERRUPTED and err.strip().endswith(INTERRUPTED)
    assert snapshot_tree(home) == before
