"""The doctor's manifest check says what the next apply does with an item changed since
agentdeck wrote it: agentdeck's own file (the hook wrapper) is written back by the plan, so it
is not "kept as you left them", and its fix is plain `agentdeck apply` (found following the
doctor's fixes: a wrapper that lost its exec bit was called kept, with `--take <id>` to restore
it, while `agentdeck apply` alone puts it back)."""
from __future__ import annotations

import os

import pytest

from agentdeck.core import doctor, engine
from agentdeck.core.targets import registry


@pytest.mark.parametrize("target", [s.name for s in registry.TARGETS if s.enforcement != "none"])
def test_a_changed_wrapper_is_said_to_be_written_back(host, target):
    plan = engine.build_plan(host, "default", [target])
    wrappers = [i for i in plan.items if i.label == "hook wrapper"]
    assert wrappers, f"{target} plans no hook wrapper"
    assert engine.apply_plan(host, plan).ok
    os.chmod(wrappers[0].path, 0o644)
    rows = [f for f in doctor.run(host, "default", [target]) if f.check == f"{target}.manifest"]
    said = [(f.message, f.fix or "") for f in rows if "hook wrapper" in f.message]
    assert said, [f.message for f in rows]
    for message, fix in said:
        assert "kept as you left them" not in message and "the plan writes them back" in message
        assert "`agentdeck apply` writes them back" in fix and "--take" not in fix
    assert engine.apply_plan(host, engine.build_plan(host, "default", [target])).ok
    assert os.stat(wrappers[0].path).st_mode & 0o111, "apply did not put the mode back"
