"""The drill asks each target's drill part (core/targets/<name>/drill.py, interface
core/targets/parts/drill.py): every registered target's recipe agrees with its spec, the turn's
command line and environment are built from the part's data, and a target without a drill part
is reported "not supported" (no turn, no KeyError)."""
from __future__ import annotations

from pathlib import Path

import pytest

from agentdeck.core import engine
from agentdeck.core.drill import ready, runners
from agentdeck.core.drill.run import drill
from agentdeck.core.targets import registry
from agentdeck.core.targets.parts.drill import DrillPart
from tests.unit.test_drill_ready import ALL, Runs, clis  # noqa: F401 (fixture)


@pytest.mark.parametrize("spec", registry.TARGETS, ids=registry.NAMES)
def test_each_drill_part_agrees_with_its_spec(spec):
    p = registry.part(spec.name, "drill")
    assert isinstance(p, DrillPart)
    r = p.RUNNER
    assert (r.target, r.binary, r.home_var) == (spec.name, spec.binary, spec.home_env)
    assert runners.runner(spec.name) is r and runners.RUNNERS[spec.name] is r
    assert not set(r.fires) & set(r.unreachable)
    assert set(r.credential_vars) <= set(runners.CREDENTIAL_VARS)


def test_no_credential_and_no_cli_home_reaches_the_turn(clis, monkeypatch):
    env = {**clis.env, **{v: "secret" for v in runners.CREDENTIAL_VARS},
           **{s.home_env: str(s.home(clis)) for s in registry.TARGETS}}   # set, not moved
    monkeypatch.setattr(clis, "env", env)
    assert engine.apply_plan(clis, engine.build_plan(clis, "default", ALL, trust_hooks=True)).ok
    runs = Runs(clis, monkeypatch)
    drill(clis, "default", ALL)
    assert len(runs.specs) == len(ALL)
    for spec in runs.specs:
        target = spec["env"]["AGENTDECK_DRILL_ID"].rsplit("-", 1)[1]
        r = runners.runner(target)
        passed = spec["env"]
        assert not set(runners.CREDENTIAL_VARS) & (set(passed) - set(r.env))
        # the CLI's own home variable is the only one passed, but for the XDG dirs the scratch
        # folder sets for every CLI (an XDG home's variable is one of them): inside it
        scratch = str(Path(passed["HOME"]).parent) + "/"
        assert [v for v in runners.home_vars() if v in passed
                and not passed[v].startswith(scratch)] == []
        assert r.home_var in passed
        assert passed[r.home_var].endswith(f"/{target}/cli-home")
        argv = spec["argv"]
        assert argv[0] == clis.which(r.binary)
        assert argv[1:1 + len(r.args)] == [a.replace("{prompt}", runners.PROMPT) for a in r.args]
        if r.tail:           # a CLI that takes the prompt last: after prepare()'s arguments
            assert argv[-len(r.tail):] == [a.replace("{prompt}", runners.PROMPT) for a in r.tail]


def test_a_target_without_a_drill_part_is_not_supported(clis, monkeypatch):
    assert engine.apply_plan(clis, engine.build_plan(clis, "default", ["claude"])).ok
    real = registry.has_part
    monkeypatch.setattr(registry, "has_part",
                        lambda name, module: False if module == "drill" else real(name, module))
    runs = Runs(clis, monkeypatch)
    rep = drill(clis, "default", ALL)
    assert runs.calls == []
    for t in ALL:
        r = rep.targets[t]
        assert (r.status, r.ok, r.skip) == ("skipped", False, ready.NOT_SUPPORTED)
        assert r.problems == [runners.NOT_SUPPORTED]
    assert runners.runner("claude") is None and runners.prepare(clis, "claude", clis.home,
                                                                 clis.home) == ([], {})
