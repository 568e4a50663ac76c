"""The take-over asks each target's takeover part (core/targets/<name>/takeover.py, interface
core/targets/parts/takeover.py) what a known tool's install writes there: every part agrees with
its spec, the known tool's per-CLI installs are the parts', and a target without a takeover part
has nothing to take over (no group, no aside item, no KeyError)."""
from __future__ import annotations

import pytest

from agentdeck.core import engine
from agentdeck.core.facts.known_tools import AGENTIHOOKS, KNOWN_TOOLS
from agentdeck.core.targets import registry
from agentdeck.core.targets.parts.takeover import TakeoverPart
from tests.unit.test_takeover import fake_install, parts

WITH = [n for n in registry.NAMES if registry.has_part(n, "takeover")]


@pytest.mark.parametrize("name", WITH)
def test_each_takeover_part_agrees_with_its_spec(name, ghost):
    p = registry.part(name, "takeover")
    assert isinstance(p, TakeoverPart)
    path, fmt, table = p.mcp_file(ghost)
    assert fmt in ("json", "jsonc", "toml") and table
    assert path.parent in (registry.spec(name).home(ghost), ghost.home)     # the CLI's files
    for tool in KNOWN_TOOLS:
        inst = tool.install(name)
        assert inst is None or inst is p.INSTALLS[tool.name]
        assert inst is None or inst.hooks_mode in ("own-file", "same-file", "inline")


def test_the_known_tools_installs_are_the_parts():
    assert dict(AGENTIHOOKS.installs) == {n: registry.part(n, "takeover").INSTALLS[AGENTIHOOKS.name]
                                          for n in WITH}
    assert AGENTIHOOKS.install(registry.NAMES[0]).persona_markers == \
        AGENTIHOOKS.persona_markers(registry.NAMES[0])


def test_a_target_without_a_takeover_part_takes_nothing_over(ghost, monkeypatch):
    fake_install(ghost)
    found, by = parts(engine.build_plan(ghost, "default", ["copilot"]))
    assert by["hooks file"]["fate"] == "set aside"           # with the part: found
    real = registry.has_part
    monkeypatch.setattr(registry, "has_part", lambda name, module: False
                        if (name, module) == ("copilot", "takeover") else real(name, module))
    plan = engine.build_plan(ghost, "default", ["copilot"])
    assert plan.to_json()["found"] == {"copilot": []}
    assert not any(i.kind == "aside" for i in plan.items)
    assert "copilot" not in AGENTIHOOKS.installs
