"""Every registered target on one home: one plan shows each; applied together or one after another in
any order, the plan afterwards is empty; the ~/.agents/skills folder Copilot and Codex share is
planned once, recorded for both, never ping-pongs between them, and uninstalling one target
releases (does not delete) what the other still owns."""
from __future__ import annotations

from agentdeck.core.disk import DiskView
import itertools
import os

import pytest

from tests.conftest import snapshot_tree
from agentdeck.core import engine, targets
from agentdeck.core.demo import make_demo_home
from agentdeck.core.manifest import Manifest
from agentdeck.core.targets import registry

#: every registered target (core/targets/registry.py), in display order
ALL = list(registry.NAMES)


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
    assert ALL[:3] == ["copilot", "codex", "claude"]      # the first three, in display order


def test_one_plan_shows_every_target(ghost):
    # the bundled profiles name no targets: with no CLI found, a plan covers every one
    # (core.scopes.COVERAGE; tests/unit/test_coverage.py)
    assert engine.build_plan(ghost, "default").targets == ALL
    plan = engine.build_plan(ghost, "default", ALL)
    assert plan.targets == ALL
    for t in ALL:
        assert plan.for_target(t), t
        assert {"hooks", "mcp", "skills"} <= set(plan.info[t]), t
    from agentdeck.core.render import render_plan
    text = render_plan(plan, ghost, titles={t: targets.get(t).title for t in ALL})
    for title in ("GitHub Copilot CLI", "OpenAI Codex CLI", "Claude Code"):
        assert title in text
    for t in ALL:
        assert registry.spec(t).title in text, t


def test_shared_skill_items_are_identical_for_copilot_and_codex(ghost):
    from agentdeck.core import profiles
    prof = profiles.resolve(ghost, "default")
    shared = {}
    for t in ("copilot", "codex"):
        st = targets.get(t).desired(prof, DiskView(ghost))
        shared[t] = sorted((str(d.path), d.kind, d.value, d.mode) for d in st.items
                           if str(d.path).startswith(str(ghost.agents_skills_dir)))
    assert shared["copilot"] and shared["copilot"] == shared["codex"]
    plan = engine.build_plan(ghost, "default", ["copilot", "codex"])
    sk = [i for i in plan.items if i.path.startswith(str(ghost.agents_skills_dir))]
    assert sk and all(i.target == "copilot" and i.also == ["codex"] for i in sk)


def test_all_together_then_empty(ghost):
    _apply(ghost, ALL)
    assert _pending(ghost, ALL) == []
    _apply(ghost, ALL, trust=True)
    assert _pending(ghost, ALL) == []


@pytest.mark.parametrize("order", list(itertools.permutations(ALL)), ids="-".join)
def test_any_order_one_target_at_a_time(ghost, order):
    for i, t in enumerate(order):
        _apply(ghost, [t])
        assert _pending(ghost, list(order[: i + 1])) == [], (t, order)
    assert _pending(ghost, ALL) == []
    snap = snapshot_tree(ghost.home)
    for t in order:                       # re-applying each alone changes nothing at all
        plan = engine.build_plan(ghost, "default", [t])
        assert not plan.has_work, [(i.label, i.cls) for i in plan.items if plan.action(i) != "none"]
    assert snapshot_tree(ghost.home) == snap


@pytest.mark.parametrize("first,second", [("copilot", "codex"), ("codex", "copilot")])
def test_shared_skills_dir_never_ping_pongs(ghost, first, second):
    skills_dir = ghost.agents_skills_dir
    seen = None
    for n, t in enumerate((first, second, first, second)):
        _apply(ghost, [t])
        plan = engine.build_plan(ghost, "default", ["copilot", "codex"])
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


@pytest.mark.parametrize("gone,stays", [("copilot", "codex"), ("codex", "copilot")])
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
