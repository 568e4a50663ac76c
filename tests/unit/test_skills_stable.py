"""A profile's skills are copied into a folder agentdeck owns (its state dir) and
linked there, so moving the profile folder (a source checkout) does not break them."""
from __future__ import annotations

import os
import shutil

from agentdeck.core import engine
from agentdeck.core.targets import registry
from tests.target_homes import target_home

ALL = list(registry.NAMES)


def _own_profile(host):
    d = host.config_dir / "profiles" / "mine"
    (d / "skills" / "notes").mkdir(parents=True)
    (d / "profile.toml").write_text('[profile]\nextends = ["_base"]\n')
    (d / "skills" / "notes" / "SKILL.md").write_text("---\nname: notes\ndescription: n\n---\nbody\n")
    (d / "skills" / "notes" / "run.sh").write_text("#!/bin/sh\necho hi\n")
    os.chmod(d / "skills" / "notes" / "run.sh", 0o755)
    return d


def test_skills_link_to_agentdecks_own_copy_and_survive_the_profile_moving(ghost):
    src = _own_profile(ghost)
    res = engine.apply_plan(ghost, engine.build_plan(ghost, "mine", ALL))
    assert res.ok, res.leftover
    copy = ghost.state_dir / "skills" / "notes"
    for link in (ghost.agents_skills_dir / "notes", target_home(ghost, "claude") / "skills" / "notes"):
        assert os.readlink(link) == str(copy)
    assert (copy / "SKILL.md").read_text().endswith("body\n")
    assert os.stat(copy / "run.sh").st_mode & 0o111
    assert not engine.build_plan(ghost, "mine", ALL).has_work
    # the profile folder moves away: the installed skill still reads
    moved = src.parent / "elsewhere"
    shutil.copytree(src, moved)
    shutil.rmtree(src / "skills")
    assert (ghost.agents_skills_dir / "notes" / "SKILL.md").read_text().endswith("body\n")
    # uninstall takes the copy away too
    res = engine.apply_plan(ghost, engine.build_uninstall_plan(ghost, ALL))
    assert res.ok, res.leftover
    assert not (ghost.agents_skills_dir / "notes").is_symlink() and not copy.exists()
