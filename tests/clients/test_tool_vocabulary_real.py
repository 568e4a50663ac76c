"""A closed tool vocabulary: every tool a real CLI offers the model in an offline turn is one
agentdeck's vocabulary for that CLI knows: the `tools` of its requests to
tests/clients/scripted_model.py and the deferred tools its prompt lists by name (reachable
through the CLI's tool search), read by the drill's own reader (core/drill/server.py). This
fails the day a new CLI version offers a new tool."""
from __future__ import annotations

from pathlib import Path

import pytest

from offline_turn import run_turn
from scripted_model import ScriptedModel

from agentdeck.core.drill.server import deferred_names, offered_names
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
    offered = {n for _, body in m.requests
               for n in [*offered_names(body.get("tools")), *deferred_names(body)]}
    assert offered, f"{target}: the turn offered no tools (did it reach the model?)"
    assert m.offered() <= offered          # the drill's reader sees every tool the test's does
    vocab = vocabulary.vocabulary([dialects.module(target)])
    unknown = vocabulary.unknown(vocab, offered)
    assert unknown == [], f"{target} offers tools agentdeck does not know: {unknown}"
