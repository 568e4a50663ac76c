"""The plan/apply engine on a synthetic target: every class of the three-state rule, idempotence,
format preservation, symlinks, modes, stale plans and the lock."""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from agentdeck.core import apply as applier
from agentdeck.core import plan as planner
from agentdeck.core.desired import Desired, DesiredState
from agentdeck.core.disk import MISSING
from agentdeck.core.errors import LockedError, StalePlanError, UserError
from agentdeck.core.manifest import Manifest
from tests.target_homes import target_home

T = "t1"


def manifest(host) -> Manifest:
    return Manifest.load(host, T, host.home / ".t1-managed.json")


def plan_for(host, items: list[Desired]):
    st = DesiredState(T)
    st.items = list(items)
    return planner.compute(host, "p", [st], {T: manifest(host)})


def key(host, rel, k, value, fmt="jsonc", **kw) -> Desired:
    return Desired(T, host.home / rel, "key", value, key=tuple(k), fmt=fmt, label=".".join(k), **kw)


def by_label(plan, label):
    (it,) = [i for i in plan.items if i.label == label]
    return it


def apply(host, plan):
    res = applier.run(host, plan)
    assert not res.leftover
    return res


def test_create_then_plan_is_empty(host):
    items = [key(host, "s.json", ["a"], 1), key(host, "s.json", ["b", "c"], [1, 2]),
             Desired(T, host.home / "w.sh", "file", "#!/bin/sh\necho hi\n", mode=0o755, label="w"),
             Desired(T, host.home / "p.md", "block", "managed body\n", markers=("<!-- b -->", "<!-- e -->"),
                     label="persona")]
    p = plan_for(host, items)
    assert {i.cls for i in p.items} == {"create"}
    assert p.has_changes and p.summary() == "Plan: 4 to add, 0 to change, 0 to remove."
    apply(host, p)
    assert json.loads((host.home / "s.json").read_text()) == {"a": 1, "b": {"c": [1, 2]}}
    assert os.stat(host.home / "w.sh").st_mode & 0o777 == 0o755
    again = plan_for(host, items)
    assert [i.cls for i in again.items] == ["noop"] * 4
    assert not again.has_changes and again.summary() == "No changes. Everything is in sync."


def test_update_when_profile_changes(host):
    apply(host, plan_for(host, [key(host, "s.json", ["a"], 1)]))
    p = plan_for(host, [key(host, "s.json", ["a"], 2)])
    assert by_label(p, "a").cls == "update"
    apply(host, p)
    assert json.loads((host.home / "s.json").read_text()) == {"a": 2}


def test_hand_edit_is_kept_and_reported(host):
    apply(host, plan_for(host, [key(host, "s.json", ["a"], 1)]))
    (host.home / "s.json").write_text('{\n  "a": 5 // mine\n}\n')
    p = plan_for(host, [key(host, "s.json", ["a"], 1)])
    it = by_label(p, "a")
    assert it.cls == "hand-edited" and it.actual == 5 and it.recorded == 1 and it.desired == 1
    assert not p.has_changes and "1 hand-edit kept" in p.summary()
    apply(host, p)
    assert (host.home / "s.json").read_text() == '{\n  "a": 5 // mine\n}\n'


def test_take_the_profile_value_for_a_hand_edit(host):
    apply(host, plan_for(host, [key(host, "s.json", ["a"], 1)]))
    (host.home / "s.json").write_text('{"a": 5}')
    p = plan_for(host, [key(host, "s.json", ["a"], 1)])
    p.decide(by_label(p, "a").id, "take")
    assert p.has_changes
    apply(host, p)
    assert json.loads((host.home / "s.json").read_text()) == {"a": 1}
    assert plan_for(host, [key(host, "s.json", ["a"], 1)]).items[0].cls == "noop"


def test_key_deleted_by_operator_is_reported_not_readded(host):
    apply(host, plan_for(host, [key(host, "s.json", ["a"], 1), key(host, "s.json", ["b"], 2)]))
    (host.home / "s.json").write_text('{"b": 2}')
    p = plan_for(host, [key(host, "s.json", ["a"], 1), key(host, "s.json", ["b"], 2)])
    it = by_label(p, "a")
    assert it.cls == "hand-edited" and "deleted" in it.reason and it.actual is MISSING
    apply(host, p)
    assert json.loads((host.home / "s.json").read_text()) == {"b": 2}


def test_remove_when_profile_no_longer_wants_it_restores_prior(host):
    (host.home / "s.json").write_text('{"keep": true, "a": "theirs"}')
    p = plan_for(host, [key(host, "s.json", ["a"], "ours"), key(host, "s.json", ["n"], 1)])
    assert by_label(p, "a").cls == "foreign"
    p.decide(by_label(p, "a").id, "take")
    apply(host, p)
    assert json.loads((host.home / "s.json").read_text()) == {"keep": True, "a": "ours", "n": 1}
    p = plan_for(host, [])
    assert {i.cls for i in p.items} == {"remove"}
    apply(host, p)
    assert json.loads((host.home / "s.json").read_text()) == {"keep": True, "a": "theirs"}
    assert manifest(host).entries == {}


def test_noop_heals_record_and_conflict_needs_decision(host):
    (host.home / "s.json").write_text('{"a": 1}')
    p = plan_for(host, [key(host, "s.json", ["a"], 1)])
    it = by_label(p, "a")
    assert it.cls == "noop" and it.heal and not p.has_changes
    apply(host, p)
    assert manifest(host).entries   # adopted
    # profile changes AND operator changes: conflict
    (host.home / "s.json").write_text('{"a": 7}')
    p = plan_for(host, [key(host, "s.json", ["a"], 2)])
    assert by_label(p, "a").cls == "conflict"
    with pytest.raises(UserError, match="conflict"):
        applier.run(host, p)
    p.decide(by_label(p, "a").id, "keep")
    apply(host, p)
    assert json.loads((host.home / "s.json").read_text()) == {"a": 7}


def test_pinned_key_set_by_operator_is_a_conflict(host):
    (host.home / "s.json").write_text('{"disableAllHooks": true}')
    p = plan_for(host, [key(host, "s.json", ["disableAllHooks"], False, pinned=True)])
    assert p.items[0].cls == "conflict"
    assert p.undecided_conflicts()


def test_jsonc_comments_survive_update_of_another_key(host):
    text = '{\n  // my comment\n  "mine": 1, /* inline */\n  "a": 1,\n}\n'
    (host.home / "s.json").write_text(text)
    p = plan_for(host, [key(host, "s.json", ["a"], 1)])
    apply(host, p)                        # adopt
    apply(host, plan_for(host, [key(host, "s.json", ["a"], 2), key(host, "s.json", ["b"], "x")]))
    out = (host.home / "s.json").read_text()
    assert "// my comment" in out and "/* inline */" in out and '"mine": 1' in out
    assert '"a": 2' in out and '"b": "x"' in out


def test_toml_comments_survive(host):
    text = '# top comment\nmodel = "x"  # trailing\n\n[tui]\n# inside\nthing = 1\n'
    (host.home / "c.toml").write_text(text)
    apply(host, plan_for(host, [key(host, "c.toml", ["mcp_servers", "s", "command"], "run", fmt="toml")]))
    out = (host.home / "c.toml").read_text()
    assert out.startswith(text.rstrip("\n")) or "# top comment" in out
    assert "# trailing" in out and "# inside" in out and 'command = "run"' in out


def test_symlinked_settings_file_stays_a_symlink(host):
    real = host.home / "dotfiles" / "settings.json"
    real.parent.mkdir()
    real.write_text('{"x": 1}\n')
    link = host.home / "s.json"
    link.symlink_to(real)
    apply(host, plan_for(host, [key(host, "s.json", ["a"], 1)]))
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert json.loads(real.read_text()) == {"x": 1, "a": 1}


def test_file_modes_are_kept(host):
    s = host.home / "s.json"
    s.write_text('{"x": 1}\n')
    os.chmod(s, 0o640)
    apply(host, plan_for(host, [key(host, "s.json", ["a"], 1)]))
    assert os.stat(s).st_mode & 0o777 == 0o640


def test_secret_file_is_written_0600(host):
    d = Desired(T, host.home / "env", "file", "export A=1\n", secret=True, label="env")
    apply(host, plan_for(host, [d]))
    assert os.stat(host.home / "env").st_mode & 0o777 == 0o600


def test_stale_plan_is_refused_and_nothing_written(host):
    (host.home / "s.json").write_text('{"x": 1}\n')
    p = plan_for(host, [key(host, "s.json", ["a"], 1)])
    (host.home / "s.json").write_text('{"x": 2}\n')
    with pytest.raises(StalePlanError, match="changed on disk"):
        applier.run(host, p)
    assert (host.home / "s.json").read_text() == '{"x": 2}\n'


def test_held_lock_makes_second_apply_fail_clearly(host):
    p = plan_for(host, [key(host, "s.json", ["a"], 1)])
    entered, release = threading.Event(), threading.Event()

    def hold():
        with applier.home_lock(host):
            entered.set()
            release.wait(5)

    t = threading.Thread(target=hold)
    t.start()
    entered.wait(5)
    try:
        with pytest.raises(LockedError, match="another agentdeck apply is running"):
            applier.run(host, p)
    finally:
        release.set()
        t.join()
    assert not (host.home / "s.json").exists()


def test_crash_leaves_journal_and_recover_rolls_back(host):
    (host.home / "s.json").write_text('{"x": 1}\n')
    p = plan_for(host, [key(host, "s.json", ["a"], 1), key(host, "o.json", ["b"], 2)])
    # simulate a crash after the journal was written: write journal+first op by hand
    ops, facts = applier.build_ops(host, p)
    host.state_dir.mkdir(parents=True, exist_ok=True)
    backup = host.state_dir / "b0"
    backup.write_bytes((host.home / "s.json").read_bytes())
    applier._write_journal(host, [
        {"path": str(host.home / "s.json"), "existed": True, "backup": str(backup), "mode": 0o644},
        {"path": str(host.home / "o.json"), "existed": False, "made_dirs": []}], host.state_dir)
    (host.home / "s.json").write_text('{"x": 1, "a": 1}\n')
    (host.home / "o.json").write_text('{"b": 2}\n')
    msg = applier.recover(host)
    assert msg and "rolled back" in msg
    assert (host.home / "s.json").read_text() == '{"x": 1}\n'
    assert not (host.home / "o.json").exists()
    assert not applier.journal_path(host).exists()


def test_copilot_mcp_config_with_comments_is_accepted(host):
    """Copilot 1.0.102 loads a commented mcp-config.json (facts: mcp_file_jsonc), so agentdeck
    must plan against it and keep the comments rather than fail."""
    from agentdeck.core import engine
    p = target_home(host, "copilot") / "mcp-config.json"
    p.parent.mkdir(parents=True)
    p.write_text('{\n  // my servers\n  "mcpServers": {\n    "mine": {"command": "x"}\n  }\n}\n')
    plan = engine.build_plan(host, "default", ["copilot"])
    applier.run(host, plan)
    text = p.read_text()
    assert "// my servers" in text and '"mine"' in text and '"memory"' in text


def test_a_kept_conflict_is_remembered_until_the_value_changes_again(host):
    (host.home / "s.json").write_text('{"disableAllHooks": true}')
    items = [key(host, "s.json", ["disableAllHooks"], False, pinned=True)]
    p = plan_for(host, items)
    p.decide(p.items[0].id, "keep")
    apply(host, p)
    again = plan_for(host, items)
    assert again.items[0].cls == "hand-edited" and not again.undecided_conflicts()
    assert "you chose to keep" in again.items[0].reason
    (host.home / "s.json").write_text('{"disableAllHooks": "yes"}')
    assert plan_for(host, items).items[0].cls == "conflict"


def test_skipped_item_is_not_reported_as_left_over(host):
    items = [key(host, "s.json", ["a"], 1), key(host, "s.json", ["b"], 2)]
    p = plan_for(host, items)
    p.decide(by_label(p, "b").id, "skip")
    res = applier.run(host, p, recompute=lambda: plan_for(host, items))
    assert res.leftover == []
    assert json.loads((host.home / "s.json").read_text()) == {"a": 1}


def test_uninstall_after_two_applies_leaves_no_empty_file(host):
    apply(host, plan_for(host, [key(host, "s.json", ["a"], 1)]))
    apply(host, plan_for(host, [key(host, "s.json", ["a"], 1), key(host, "s.json", ["b"], 2)]))
    apply(host, plan_for(host, []))
    assert not (host.home / "s.json").exists()


def test_an_uninstall_plan_says_what_it_does_not_that_the_profile_stopped_wanting_it(ghost):
    from agentdeck.core import engine
    from agentdeck.core.manifest import ABSENT, Entry

    (target_home(ghost, "claude")).mkdir(parents=True)
    (target_home(ghost, "claude") / "CLAUDE.md").write_text("# mine\n")
    engine.apply_plan(ghost, engine.build_plan(ghost, names=["claude"]))
    plan = engine.build_uninstall_plan(ghost, ["claude"])
    removes = [i for i in plan.items if i.cls == "remove"]
    assert removes and not [i for i in removes if i.reason == planner.NO_LONGER_WANTED]
    by_kind = {i.kind: i.reason for i in removes}
    assert by_kind["key"] == "agentdeck added it; uninstall takes it out"
    assert by_kind["block"] == "agentdeck's block; uninstall takes it out, your text around it stays"
    assert by_kind["file"] == "agentdeck created it; uninstall removes it"
    # a key whose value agentdeck replaced, a file it replaced
    key = Entry(path="/x", kind="key", fingerprint="f", key=["k"], prior="theirs")
    assert engine._uninstall_reason(key) == ("agentdeck changed it; uninstall puts back the "
                                             "value it replaced")
    assert engine._uninstall_reason(Entry(path="/x", kind="key", fingerprint="f", prior=ABSENT)) \
        == "agentdeck added it; uninstall takes it out"
    f = Entry(path="/x", kind="file", fingerprint="f", prior_sha="0" * 64)
    assert engine._uninstall_reason(f) == ("agentdeck replaced it; uninstall puts back the file "
                                           "that was there before")
    # a profile switch still says the profile no longer wants it
    assert planner.classify(None, "a", "a") == ("remove", False, planner.NO_LONGER_WANTED)


def test_each_folder_is_synced_once_after_its_renames_and_before_the_journal_goes(host, monkeypatch):
    """Every file is still written to a temp file, fsynced and renamed; the folder it lands in
    is fsynced once per phase (the backups before the journal is written, the writes before it
    is removed), after the last rename into it."""
    events: list[tuple[str, str]] = []
    real_replace, real_remove = os.replace, applier.Host.remove

    def replace(src, dst, *a, **k):
        real_replace(src, dst, *a, **k)
        events.append(("rename", str(Path(dst).parent)))

    def remove(self, path, **k):
        events.append(("remove", str(path)))
        return real_remove(self, path, **k)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(applier.Host, "remove", remove)
    monkeypatch.setattr(applier.Host, "_fsync_dir", lambda self, d: events.append(("sync", str(d))))
    items = [key(host, "s.json", ["a"], 1), key(host, "u.json", ["b"], 2),
             Desired(T, host.home / "w.sh", "file", "#!/bin/sh\necho hi\n", mode=0o755, label="w"),
             Desired(T, host.home / "sub" / "p.md", "file", "body\n", label="p")]
    apply(host, plan_for(host, items))
    items[0] = key(host, "s.json", ["a"], 3)          # an update: backups, then the writes
    items[1] = key(host, "u.json", ["b"], 4)
    items[3] = Desired(T, host.home / "sub" / "p.md", "file", "other\n", label="p")
    for run in (1, 2):
        if run == 2:
            events.clear()
            apply(host, plan_for(host, items))
        journal = str(applier.journal_path(host))
        gone = events.index(("remove", journal))
        phases = [events[:gone]]
        if run == 2:    # the journal's own rename ends the backup phase
            jw = [i for i, e in enumerate(events) if e == ("rename", str(Path(journal).parent))][0]
            phases = [events[:jw], events[jw + 2:gone]]
        for phase in phases:
            renamed = {d for e, d in phase if e == "rename"}
            synced = [d for e, d in phase if e == "sync"]
            assert renamed and set(synced) >= renamed
            assert len(synced) == len(set(synced))       # once per folder per phase
            for d in renamed:       # after the last rename into it
                last = max(i for i, e in enumerate(phase) if e == ("rename", d))
                assert ("sync", d) in phase[last:]
    writes = phases[-1]
    assert sum(1 for e in writes if e == ("rename", str(host.home))) == 3   # s.json u.json, the manifest
    assert writes.count(("sync", str(host.home))) == 1


def test_a_scratch_copy_is_renamed_into_place_but_never_fsynced(host, monkeypatch):
    """write_atomic(durable=False), for the live probes' throwaway copies: the same temp file
    and rename, no fsync of the file or its folder; the default fsyncs both."""
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    p = host.home / "scratch" / "settings.json"
    host.write_atomic(p, b"{}\n", mode=0o600, durable=False)
    assert p.read_bytes() == b"{}\n" and os.stat(p).st_mode & 0o777 == 0o600 and synced == []
    assert [n for n in os.listdir(p.parent) if n != "settings.json"] == []     # no temp left
    host.write_atomic(p, b"[]\n")
    assert p.read_bytes() == b"[]\n" and len(synced) == 2
