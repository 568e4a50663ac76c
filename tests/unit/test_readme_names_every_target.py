"""The README's flag table and docs/architecture.md name every registered target: its name
where `--target` lists the choices, its home variable where `--home` says which variables
default inside the home. A target added to the registry without these words fails here."""
from __future__ import annotations

from pathlib import Path

import pytest

from agentdeck.core.targets import registry

ROOT = Path(__file__).resolve().parents[2]


def _row(flag: str) -> str:
    rows = [line for line in (ROOT / "README.md").read_text().splitlines()
            if line.startswith(f"| `{flag}")]
    assert len(rows) == 1, f"README.md has {len(rows)} flag-table rows for {flag}"
    return rows[0]


@pytest.mark.parametrize("spec", registry.TARGETS, ids=lambda s: s.name)
def test_the_target_flag_row_names_the_target(spec):
    assert f"`{spec.name}`" in _row("--target T")


@pytest.mark.parametrize("spec", registry.TARGETS, ids=lambda s: s.name)
def test_the_home_flag_row_names_the_targets_home_variable(spec):
    assert f"`{spec.home_env}`" in _row("--home DIR")


@pytest.mark.parametrize("spec", registry.TARGETS, ids=lambda s: s.name)
def test_architecture_names_the_targets_home_variable(spec):
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("## State and config locations", 1)[1].split("\n## ", 1)[0]
    assert f"`{spec.home_env}`" in section
