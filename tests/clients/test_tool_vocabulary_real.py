"""A closed tool vocabulary (issue 30.5): every tool a real CLI offers the model in an offline
turn (the `tools` list of its request to tests/clients/scripted_model.py) is one agentdeck's
vocabulary for that CLI knows. This fails the day a new CLI version offers a new tool."""
from __future__ import annotations

from pathlib import Path

import pytest

from offline_turn import run_turn
from scripted_model import ScriptedModel

from agentdeck.core.policy import vocabulary
from agentdeck.core.targets import dialects, registry

pytestmark = pytest.mark.clients

NAMES = [s.name for s in registry.TARGETS]


@pytest.mark.parametrize("target", NAMES)
def test_every_offered_tool_is_known(scratch_env, need, tmp_path: Path, target):
    need(target)
    work = tmp_path / "work"
    work.mkdir()
    with ScriptedModel(command="true") as m:
        run_turn(scratch_env, target, m.url, "run the scripted command", work, None)
    offered = m.offered()
    assert offered, f"{target}: the turn offered no tools (did it reach the model?)"
    vocab = vocabulary.vocabulary([dialects.module(target)])
    assert vocabulary.unknown(vocab, offered) == [], f"{target} offers tools agentdeck does not know: {vocabulary.unknown(vocab, offered)}"
