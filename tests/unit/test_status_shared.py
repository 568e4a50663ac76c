"""A file several CLIs read (a skill in a folder they share) is one item of the combined plan,
counted under the first target that wants it. `status` and the app's badge name those shared
changes beside a target's own, so what they say adds up to what the doctor and `plan --target`
(a plan of that target alone) count for it, and a target is never "in sync" while a file it
wants is still to write."""
from __future__ import annotations

import json
import re

import pytest

from agentdeck.core import cli, engine
from agentdeck.core.targets import registry
from agentdeck.core.views import status
from tests.target_homes import target_home

NAMES = [s.name for s in registry.TARGETS]


@pytest.fixture
def every_home(ghost):
    for name in NAMES:      # every CLI has its home: a plain status covers each
        target_home(ghost, name).mkdir(parents=True, exist_ok=True)
    return ghost


def _alone(host, name: str) -> int:
    """What the doctor and `plan --target NAME` count: the target planned on its own."""
    return engine.build_plan(host, "default", [name]).counts(name)["changes"]


def test_some_change_is_shared_in_the_default_profile(every_home):
    plan = engine.build_plan(every_home, "default")
    assert any(plan.shared_changes(t) for t in plan.targets)


@pytest.mark.parametrize("name", NAMES)
def test_status_adds_up_to_the_target_planned_alone(every_home, capsys, monkeypatch, name):
    monkeypatch.setenv("PATH", every_home.env["PATH"])
    cli.main(["status", "--home", str(every_home.home), "--json"])
    row = next(r for r in json.loads(capsys.readouterr().out) if r["target"] == name)
    assert row["changes"] + sum(row["shared"].values()) == _alone(every_home, name)
    cli.main(["status", "--home", str(every_home.home)])
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.split()[0] == name)
    said = sum(int(n) for n in re.findall(r"(\d+) (?:changes? pending|shared with)", line))
    assert said == _alone(every_home, name)
    for owner in row["shared"]:
        assert f"shared with {owner}" in line


@pytest.mark.parametrize("name", NAMES)
def test_the_app_badge_adds_up_to_the_target_planned_alone(every_home, name):
    st = status.of(engine.build_plan(every_home, "default"), name)
    badge = st.badge()
    said = sum(int(n) for n in re.findall(r"(\d+) (?:changes?\b|shared\b)", badge))
    alone = _alone(every_home, name)
    assert said == alone
    assert (badge == "in sync") == (alone == 0 and not st.hand_edits and not st.conflicts
                                    and not st.inert)
    assert ("shared" in badge) == bool(st.shared)


def test_a_target_whose_only_changes_are_shared_is_not_in_sync(every_home):
    plan = engine.build_plan(every_home, "default")
    name = next(t for t in plan.targets if plan.shared_changes(t))
    for it in plan.for_target(name):        # its own changes skipped: only the shared are left
        plan.decide(it.id, "skip")
    st = status.of(plan, name)
    assert st.changes == 0 and not st.in_sync
    assert st.badge().startswith(f"{sum(k for _, k in st.shared)} shared change")
