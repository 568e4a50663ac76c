"""The enforcement matrix in real offline turns (`agentdeck drill --matrix`, core/drill/matrix.py):
every installed CLI of the registry runs the chosen corpus cases with the corpus's policy
installed in a scratch home, and docs/enforcement.md is exactly what they do now (regenerate it
with `python scripts/enforcement_doc.py`); the record keeps each class per CLI version."""
from __future__ import annotations

from pathlib import Path

import pytest

from agentdeck.core.drill import matrix, record
from agentdeck.core.targets import registry
from tests.conftest import snapshot_tree

pytestmark = pytest.mark.clients

DOC = Path(__file__).resolve().parents[2] / "docs" / "enforcement.md"


def test_docs_enforcement_md_is_what_the_pinned_clis_do(scratch_env, need):
    need(*registry.NAMES)
    host = scratch_env
    before = snapshot_tree(host.home)
    results = matrix.run(host, list(registry.NAMES))
    assert [m.status for m in results] == ["ok"] * len(results), \
        [(m.target, m.status, m.problem) for m in results]
    text = matrix.markdown(results, matrix.chosen())
    assert text == DOC.read_text(), ("docs/enforcement.md is not what the CLIs do now: run "
                                     "`python scripts/enforcement_doc.py` and review the diff")
    for m in results:
        rec = record.load(host)[m.target][m.version]
        assert rec.classes == {k: c.status for k, c in m.classes.items()}
        # no class lets a denied case through in any CLI
        assert not [k for k, c in m.classes.items() if c.status in ("not held", "over-blocked")]
    # the matrix ran in scratch homes: outside agentdeck's state dir the home is as it was
    state = str(host.state_dir.relative_to(host.home))
    after = {k: v for k, v in snapshot_tree(host.home).items()
             if k != state and not k.startswith(state + "/")}
    assert after == {k: v for k, v in before.items()
                     if k != state and not k.startswith(state + "/")}
