"""Small words that were not true (issue 31.6), each checked where it is said."""
from __future__ import annotations

import pytest

from agentdeck.core import cli
from agentdeck.core.policy import enforcement


def test_home_that_is_a_file_is_not_called_missing(tmp_path, capsys):
    f = tmp_path / "afile"
    f.write_text("x")
    assert cli.main(["status", "--home", str(f)]) == 1
    err = capsys.readouterr().err
    assert "is not a folder" in err and "does not exist" not in err and "create it" not in err
    assert cli.main(["status", "--home", str(tmp_path / "missing")]) == 1
    assert "does not exist; create it first" in capsys.readouterr().err


@pytest.mark.parametrize("n,word", [(1, "1 entry"), (2, "2 entries"), (18, "18 entries")])
def test_native_layer_counts_are_plural_words(monkeypatch, n, word):
    from agentdeck.core import native_layers
    monkeypatch.setattr(native_layers, "for_rule",
                        lambda rule, target, layer_name="NATIVE_DENY": {"layer": "L",
                                                                        "entries": ["x"] * n})
    assert enforcement._native("claude", {"id": "r"}) == f"L: {word}"


def test_after_uninstall_it_is_the_uninstall_plan_that_is_empty(ghost, capsys, monkeypatch):
    """After `uninstall`, status counts the install plan again (everything pending): the last
    line names the uninstall plan, not "The plan is now empty." (read as: nothing to do)."""
    monkeypatch.setenv("PATH", ghost.env["PATH"])        # the fake handler: hooks not inert
    home = str(ghost.home)
    assert cli.main(["apply", "--home", home, "--yes"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("\nThe plan is now empty.")
    assert cli.main(["uninstall", "--home", home, "--yes"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("\nThe uninstall plan is now empty."), out[-300:]
    assert cli.main(["status", "--home", home]) == 2
