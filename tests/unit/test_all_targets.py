"""Every registered target on one home: one plan shows each; applied together or one after another in
any order, the plan afterwards is empty; the ~/.agents/skills folder several CLIs share (Copilot,
Codex and Qwen read it) is planned once, recorded for each, never ping-pongs between them, and
uninstalling one target releases (does not delete) what another still owns. Orders and pairs
are sampled (tests/registry_kit.py pairs): every target in both places, growing linearly."""
from __future__ import annotations

import os
import tempfile

import pytest

from tests.conftest import snapshot_tree
from agentdeck.core import engine, profiles, targets
from agentdeck.core.disk import DiskView
from agentdeck.core.host import Host
from agentdeck.core.demo import make_demo_home
from agentdeck.core.manifest import Manifest
from agentdeck.core.targets import registry
from agentdeck.core.targets.spec import SKILLS
from tests.registry_kit import pairs

#: every registered target (core/targets/registry.py), in display order
ALL = list(registry.NAMES)


def _skill_sharers() -> list[str]:
    """The targets whose default profile writes into ~/.agents/skills (read from their plans on
    an empty home, at collection)."""
    with tempfile.TemporaryDirectory() as d:
        h = Host.from_environment(d, env={"PATH": "/usr/bin:/bin"})
        prof = profiles.resolve(h, "default")
        under = str(h.agents_skills_dir)
        return [t for t in ALL if any(str(x.path).startswith(under)
                                      for x in targets.get(t).desired(prof, DiskView(h)).items)]


SHARERS = _skill_sharers()
#: the orders the targets are applied in one at a time: the registry's, its reverse, and a
#: sample of pairs (every target first and second), not every permutation
ORDERS = [tuple(ALL), tuple(reversed(ALL)), *pairs(ALL)]


def _apply(host, names, trust=None):
    plan = engine.build_plan(host, "default", names, trust_hooks=trust)
    res = engine.apply_plan(host, plan)
    assert res.ok, res.leftover
    return plan


def _pending(host, names):
    plan = engine.build_plan(host, "default", names)
    return [(i.target, i.label, i.cls) for i in plan.items if plan.action(i) != "none"]


def _manifest(host, name):
    t = targets.get(name)
    return Manifest.load(host, name, t.manifest_path(host))


def test_available_targets_are_every_registered_one():
    assert targets.available() == ALL
    assert len(SHARERS) >= 2, SHARERS      # the shared-skills tests below have pairs to try


def test_one_plan_shows_every_target(ghost):
    # the bundled profiles name no targets: with no CLI found, a plan covers every one
    # (core.scopes.COVERAGE; tests/unit/test_coverage.py)
    assert engine.build_plan(ghost, "default").targets == ALL
    plan = engine.build_plan(ghost, "default", ALL)
    assert plan.targets == ALL
    for t in ALL:
        assert plan.for_target(t), t
        assert plan.output[t].hooks is not None, t
        assert (plan.output[t].skills is not None) == registry.spec(t).can(SKILLS), t
        assert plan.output[t].mcp is not None, t
    from agentdeck.core.render import render_plan
    text = render_plan(plan, ghost, titles={t: targets.get(t).title for t in ALL})
    for title in ("GitHub Copilot CLI", "OpenAI Codex CLI", "Claude Code"):
        assert title in text
    for t in ALL:
        assert registry.spec(t).title in text, t


def test_shared_skill_items_are_identical_for_every_target_that_shares_them(ghost):
    prof = profiles.resolve(ghost, "default")
    shared = {}
    for t in SHARERS:
        st = targets.get(t).desired(prof, DiskView(ghost))
        shared[t] = sorted((str(d.path), d.kind, d.value, d.mode) for d in st.items
                           if str(d.path).startswith(str(ghost.agents_skills_dir)))
    first, *rest = SHARERS
    assert shared[first] and all(shared[t] == shared[first] for t in rest)
    plan = engine.build_plan(ghost, "default", SHARERS)
    sk = [i for i in plan.items if i.path.startswith(str(ghost.agents_skills_dir))]
    assert sk and all(i.target == first and i.also == rest for i in sk)


def test_all_together_then_empty(ghost):
    _apply(ghost, ALL)
    assert _pending(ghost, ALL) == []
    _apply(ghost, ALL, trust=True)
    assert _pending(ghost, ALL) == []


@pytest.mark.parametrize("order", ORDERS, ids="-".join)
def test_any_order_one_target_at_a_time(ghost, order):
    for i, t in enumerate(order):
        _apply(ghost, [t])
        assert _pending(ghost, list(order[: i + 1])) == [], (t, order)
    assert _pending(ghost, list(order)) == []
    snap = snapshot_tree(ghost.home)
    for t in order:                       # re-applying each alone changes nothing at all
        plan = engine.build_plan(ghost, "default", [t])
        assert not plan.has_work, [(i.label, i.cls) for i in plan.items if plan.action(i) != "none"]
    assert snapshot_tree(ghost.home) == snap


@pytest.mark.parametrize("first,second", pairs(SHARERS))
def test_shared_skills_dir_never_ping_pongs(ghost, first, second):
    skills_dir = ghost.agents_skills_dir
    seen = None
    for n, t in enumerate((first, second, first, second)):
        _apply(ghost, [t])
        plan = engine.build_plan(ghost, "default", [first, second])
        pending = [(i.target, i.label, i.cls) for i in plan.items if plan.action(i) != "none"]
        if n == 0:   # the other target's own files are still to come, but no shared skill
            # (the other target only records the shared skills as its own too: no disk change)
            assert pending and not [i for i in plan.items if plan.action(i) in ("write", "remove")
                                    and i.path.startswith(str(skills_dir))]
        else:
            assert pending == []
        now = snapshot_tree(skills_dir)
        assert seen is None or now == seen
        seen = now
    # one record of who wrote what: each shared entry is in both manifests
    ids_first = {e for e in _manifest(ghost, first).entries if e.startswith(str(skills_dir))}
    ids_second = {e for e in _manifest(ghost, second).entries if e.startswith(str(skills_dir))}
    assert ids_first and ids_first == ids_second


@pytest.mark.parametrize("gone,stays", pairs(SHARERS))
def test_uninstalling_one_target_releases_shared_skills(ghost, gone, stays):
    _apply(ghost, [gone])
    _apply(ghost, [stays])
    skill = ghost.agents_skills_dir / "review" / "SKILL.md"
    link = ghost.agents_skills_dir / "changelog"
    plan = engine.build_uninstall_plan(ghost, [gone])
    shared = [i for i in plan.items if i.path.startswith(str(ghost.agents_skills_dir))]
    assert shared and all(i.release and plan.action(i) == "record" for i in shared)
    assert engine.apply_plan(ghost, plan).ok
    assert skill.exists() and link.is_symlink()
    assert _pending(ghost, [stays]) == []
    assert not any(e.startswith(str(ghost.agents_skills_dir)) for e in _manifest(ghost, gone).entries)
    # the last owner's uninstall deletes them
    assert engine.apply_plan(ghost, engine.build_uninstall_plan(ghost, [stays])).ok
    assert not skill.exists() and not os.path.lexists(link)


def test_messy_home_all_targets_idempotent_and_uninstall_restores(ghost):
    make_demo_home(ghost.home)
    before = snapshot_tree(ghost.home)
    _apply(ghost, ALL)
    assert _pending(ghost, ALL) == []
    for t in reversed(ALL):
        _apply(ghost, [t])
    assert _pending(ghost, ALL) == []
    assert engine.apply_plan(ghost, engine.build_uninstall_plan(ghost, ALL)).ok
    after = snapshot_tree(ghost.home)
    state = os.path.relpath(ghost.state_dir, ghost.home)
    changed = sorted(k for k in set(before) | set(after)
                     if before.get(k) != after.get(k) and not k.startswith(state)
                     and not k.startswith(".local"))
    assert changed == [], changed
