"""Regenerating a golden file is a reviewed act: the update flag shows the diff, and under CI it
refuses (the file is left as it was)."""
from __future__ import annotations

import pytest

from tests.golden import golden_kit


def test_update_under_ci_refuses_and_writes_nothing(tmp_path, monkeypatch):
    g = tmp_path / "g.txt"
    g.write_text("old\n")
    monkeypatch.setattr(golden_kit, "UPDATE", True)
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="cannot be regenerated under CI"):
        golden_kit.check(g, "new\n")
    assert g.read_text() == "old\n"


def test_a_missing_golden_is_not_written_under_ci(tmp_path, monkeypatch):
    g = tmp_path / "g.txt"
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="is missing"):
        golden_kit.check(g, "new\n")
    assert not g.exists()


def test_update_shows_the_diff_of_what_it_rewrites(tmp_path, monkeypatch):
    g = tmp_path / "g.txt"
    g.write_text("old\n")
    monkeypatch.setattr(golden_kit, "UPDATE", True)
    monkeypatch.delenv("CI", raising=False)
    with pytest.warns(UserWarning, match=r"(?s)-old\n\+new"):
        golden_kit.check(g, "new\n")
    assert g.read_text() == "new\n"
