"""Golden tests, one for every registered target: every file the target writes for a profile on
each of its golden homes (tests/golden/<target>/homes.py), plus the plan as the operator reads
it, the pane info, and idempotence (apply, then the plan is empty). A registered target without
golden homes fails here.

Regenerate after an intended change with:
    AGENTDECK_UPDATE_GOLDEN=1 python -m pytest tests/unit/test_golden.py
and review the diff of tests/golden/<target>/.
"""
from __future__ import annotations

import pytest

from agentdeck.core import engine
from agentdeck.core.render import render_plan
from agentdeck.core.targets import registry
from tests.golden.golden_kit import (GOLDEN, check, goldens_of, home_listing, info_json, normalize,
                                     pane_info)

CASES = [(name, golden) for name in registry.NAMES if goldens_of(name)
         for golden in goldens_of(name).homes]


def run(host, tmp_path, target: str, golden, monkeypatch) -> str:
    goldens = goldens_of(target)
    after = golden.prepare(host, monkeypatch)
    spec = registry.spec(target)
    plan = engine.build_plan(host, golden.profile, [target], trust_hooks=golden.trust_hooks)
    info, subs = goldens.stable_info(pane_info(plan, target), host)
    parts = ["=== plan", render_plan(plan, host), "=== info", info_json(info)]
    result = engine.apply_plan(host, plan)
    assert result.ok, result.leftover
    again = engine.build_plan(host, golden.profile, [target], trust_hooks=golden.trust_hooks)
    assert not again.has_work, [(i.label, i.cls) for i in again.items if again.action(i) != "none"]
    parts += ["=== files after apply", home_listing(host, spec, goldens.own),
              "=== plan after apply", render_plan(again, host)]
    text = "\n".join(parts) + "\n"
    for k, v in subs.items():
        text = text.replace(k, v)
    if after is not None:
        after(host)
    return normalize(text, host, tmp_path)


@pytest.mark.parametrize("target,golden", CASES, ids=[f"{t}-{g.name}" for t, g in CASES])
def test_golden_home(ghost, tmp_path, monkeypatch, target, golden):
    check(GOLDEN / target / f"{golden.name}.txt", run(ghost, tmp_path, target, golden, monkeypatch))


@pytest.mark.parametrize("target", registry.NAMES)
def test_every_registered_target_has_golden_homes(target):
    """A new target must bring its golden homes: a fresh home at least, each with its file, and
    no golden file of the target that no home produces."""
    goldens = goldens_of(target)
    assert goldens is not None, (f"target {target!r} has no tests/golden/{target}/homes.py "
                                 "declaring GOLDENS (see tests/golden/golden_kit.py)")
    names = [h.name for h in goldens.homes]
    assert "fresh_home" in names, f"{target}: no fresh_home among its golden homes {names}"
    assert len(set(names)) == len(names), names
    on_disk = sorted(p.stem for p in (GOLDEN / target).glob("*.txt"))
    assert on_disk == sorted(names), (target, on_disk, names)
