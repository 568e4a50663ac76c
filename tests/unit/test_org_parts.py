"""The org layer asks each target's org part (core/targets/<name>/org.py, interface
core/targets/parts/org.py): every part agrees with its spec, and a target without one has no org
layer -- `agentdeck org` does not list it, the doctor shows no org row for it, the handler's
entry does not accept it -- and nothing raises a KeyError."""
from __future__ import annotations

import json

import pytest

from agentdeck.core.facts import org as F
from agentdeck.core.org import handler
from agentdeck.core.targets import registry
from agentdeck.core.targets.parts.org import OrgAttempts, OrgPart
from tests.unit.test_org import org, root  # noqa: F401 (fixture)


@pytest.mark.parametrize("name", F.names())
def test_each_org_part_agrees_with_its_spec(name):
    p = registry.part(name, "org")
    assert isinstance(p, OrgPart)
    assert p.FACTS.target == name and p.FACTS.path.startswith("/etc/")
    assert p.FACTS.kind in ("file", "block") and p.FACTS.verified
    assert F.ORG[name] is p.FACTS
    tries = p.drill_attempts()
    assert isinstance(tries, OrgAttempts) and tries.words


def test_the_org_layer_is_every_registered_target_with_an_org_part():
    assert F.names() == tuple(n for n in registry.NAMES if registry.has_part(n, "org"))
    assert F.names(), "no registered target has an org part"


@pytest.fixture
def no_claude_layer(monkeypatch):
    """The registry as if Claude Code's package had no org part."""
    real = registry.has_part
    monkeypatch.setattr(registry, "has_part", lambda name, module: False
                        if (name, module) == ("claude", "org") else real(name, module))
    monkeypatch.setattr(F, "ORG", {n: f for n, f in F.ORG.items() if n != "claude"},
                        raising=False)
    return [n for n in registry.NAMES if n != "claude" and real(n, "org")]


def test_a_target_without_an_org_part_has_no_org_layer(home, root, capsys, no_claude_layer):
    from agentdeck.core.doctor.context import Ctx
    from agentdeck.core.doctor.org_checks import findings, live_findings
    from agentdeck.core.host import Host

    assert F.names() == tuple(no_claude_layer)
    assert org("plan", "-t", "claude", home=home, root=root) == 1
    assert (f"unknown target 'claude' (the org layer knows: {', '.join(no_claude_layer)})"
            in capsys.readouterr().err)
    assert org("apply", "--yes", home=home, root=root) == 0
    capsys.readouterr()
    assert not (root / "etc/claude-code").exists()
    assert org("status", "--json", home=home, root=root) == 0
    assert [r["target"] for r in json.loads(capsys.readouterr().out)] == no_claude_layer
    entry = (root / F.LIB_DIR.lstrip("/") / handler.ENTRY).read_text()
    assert "TARGETS = (" + ", ".join(f'"{n}"' for n in no_claude_layer) + ")" in entry
    host = Host.from_environment(home, env={"HOME": str(home), "PATH": "/usr/bin:/bin",
                                            "AGENTDECK_ORG_ROOT": str(root)})
    rows = findings(Ctx(host=host))                    # every target asked, claude included
    assert sorted(f.target for f in rows) == sorted(no_claude_layer)
    assert live_findings(Ctx(host=host)) == []         # not the real root: no live rows
