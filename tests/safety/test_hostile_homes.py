"""Hostile homes and faults. No hang, no traceback, nothing written outside the home,
no edit lost after a crash.

- FIFOs, devices and sockets where agentdeck reads a file: one line naming it, at once (a FIFO
  used to block plan, apply and doctor forever), and never replaced by a regular file;
- the one door writes only inside the home (resolved), never Copilot's config.json, keeps hard
  links and modes; forged manifests and journals cannot widen that;
- every OSError (disk full in a backup, a temp file, the lock; read-only file system; permission;
  an immutable file; a busy mount point) is one line naming the file, the operation and the
  errno's meaning, exit 1, and the home is as it was (what was written is put back), or the
  journal stays and the line says the next run rolls it back;
- recovery compares each file with what the interrupted apply wrote before touching it: a file
  changed since is kept (and said so), and recovery leaves no empty folder it made.

Faults are simulated through the Host's primitives (monkeypatched to raise OSError), not with
root-only setups. A hang is caught by an alarm, so a regression fails instead of blocking.
"""
from __future__ import annotations

import errno
import json
import os
import signal
import stat
from pathlib import Path

import pytest

from agentdeck.core import apply as applier
from agentdeck.core import engine
from agentdeck.core import host as host_mod
from tests.safety.safety_helpers import (require, available, cli_inproc, cli_proc, clean_env, demo_home,
                                         diff_snapshots, fresh_home, home_snapshot, install,
                                         make_host, target_args)
from tests.registry_kit import home_files
from tests.target_homes import target_home



@pytest.fixture(autouse=True)
def no_hang():
    """Fail (not block) when something waits on a FIFO."""
    def boom(*_):
        raise TimeoutError("agentdeck blocked (a FIFO opened without O_NONBLOCK?)")
    old = signal.signal(signal.SIGALRM, boom)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _one_line_error(rc: int, out: str, err: str, name: str) -> None:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert rc == 1, (rc, out, err)
    assert len(lines) == 1 and lines[0].startswith("agentdeck: error: "), err
    assert name in lines[0], err
    assert "Traceback" not in err + out


def _outside(tmp_path: Path) -> Path:
    d = tmp_path / "outside"
    d.mkdir(exist_ok=True)
    return d


def _tree(d: Path) -> dict:
    out = {}
    for p in sorted(d.rglob("*")):
        st = os.lstat(p)
        out[str(p)] = (stat.S_IFMT(st.st_mode), stat.S_IMODE(st.st_mode),
                       p.read_bytes() if stat.S_ISREG(st.st_mode) else None)
    return out


# ---- FIFOs, devices, sockets where a file is read ------------------------------------------------

def _read_files(target: str) -> list[str]:
    """The files `target`'s plan reads and edits in place, and its hooks file (registry_kit)."""
    files, hooks = home_files(target)
    return files + ([hooks] if hooks and hooks not in files else [])


#: every registered target's files that agentdeck reads (from its own plan on an empty home)
FIFO_FILES = {t: _read_files(t) for t in available()}
FIFO_CASES = [(t, rel) for t, rels in FIFO_FILES.items() if t in available() for rel in rels]


@pytest.mark.parametrize("target,rel", FIFO_CASES, ids=[r for _, r in FIFO_CASES])
@pytest.mark.parametrize("command", ["plan", "apply", "doctor"])
def test_a_fifo_where_a_file_is_read_is_one_line_at_once(tmp_path, target, rel, command):
    home = fresh_home(tmp_path / "home")
    p = home / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(p)
    extra = ["--yes"] if command == "apply" else []
    rc, out, err = cli_inproc(command, "--home", home, "--target", target, *extra)
    if command == "doctor":   # the doctor reports findings, it does not stop: no hang, no traceback
        assert "Traceback" not in out + err and rc in (0, 1, 2), (rc, out, err)
        assert stat.S_ISFIFO(os.lstat(p).st_mode)
        return
    _one_line_error(rc, out, err, rel.split("/")[-1])
    assert "FIFO" in err
    assert stat.S_ISFIFO(os.lstat(p).st_mode), "the FIFO was replaced"


def test_a_fifo_for_copilots_config_json_never_hangs(tmp_path):
    home = fresh_home(tmp_path / "home")
    (home / ".copilot").mkdir()
    os.mkfifo(home / ".copilot" / "config.json")
    rc, out, err = cli_inproc("plan", "--home", home, "--target", "copilot")
    assert rc in (1, 2) and "Traceback" not in err, (rc, err)
    assert stat.S_ISFIFO(os.lstat(home / ".copilot" / "config.json").st_mode)


def test_a_persona_reached_through_a_symlink_to_a_fifo_or_a_device_is_refused(tmp_path):
    home = fresh_home(tmp_path / "home")
    (home / ".copilot").mkdir()
    fifo = _outside(tmp_path) / "pipe"
    os.mkfifo(fifo)
    link = home / ".copilot" / "copilot-instructions.md"
    for target in (fifo, Path("/dev/null")):
        if link.is_symlink():
            link.unlink()
        os.symlink(target, link)
        for command in ("plan", "apply"):
            rc, out, err = cli_inproc(command, "--home", home, "--target", "copilot",
                                      *(["--yes"] if command == "apply" else []))
            _one_line_error(rc, out, err, "copilot-instructions.md")
        assert os.readlink(link) == str(target)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_file_swapped_for_a_fifo_between_plan_and_apply_is_refused_at_once(tmp_path):
    """The app's path: the plan is computed, shown, then applied later."""
    home = demo_home(tmp_path / "home")
    host = make_host(home)
    plan = engine.build_plan(host, "default", ["copilot"])
    settings = home / ".copilot" / "settings.json"
    settings.unlink()
    os.mkfifo(settings)
    with pytest.raises(applier.UserError) as e:
        engine.apply_plan(make_host(home), plan)
    assert "settings.json" in str(e.value) and "\n" not in str(e.value)
    assert stat.S_ISFIFO(os.lstat(settings).st_mode)
    assert not applier.journal_path(host).exists()


def test_a_socket_or_a_directory_in_place_of_a_file_is_one_line(tmp_path):
    import socket

    home = fresh_home(tmp_path / "home")
    (home / ".codex").mkdir()
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(str(home / ".codex" / "config.toml"))
        rc, out, err = cli_inproc("plan", "--home", home, "--target", "codex")
        _one_line_error(rc, out, err, "config.toml")
        assert "socket" in err
    finally:
        s.close()


def test_host_read_primitives_refuse_non_regular_files_without_opening_them(tmp_path):
    host = make_host(tmp_path)
    os.mkfifo(tmp_path / "p")
    for p, word in ((tmp_path / "p", "FIFO"), (Path("/dev/null"), "character device"),
                    (tmp_path, "directory")):
        with pytest.raises(host_mod.HostError) as e:
            host.read_bytes(p)
        assert word in str(e.value) and "\n" not in str(e.value)
    assert host.read_bytes(tmp_path / "absent") is None


def test_a_fifo_swapped_in_after_the_kind_check_does_not_block(tmp_path, monkeypatch):
    """The race: the path is a file at the stat, a FIFO at the open. O_NONBLOCK + fstat."""
    host = make_host(tmp_path)
    p = tmp_path / "f"
    p.write_text("{}")
    real_stat = os.stat

    def swap(path, *a, **k):
        st = real_stat(path, *a, **k)
        if str(path) == str(p) and stat.S_ISREG(st.st_mode):
            p.unlink()
            os.mkfifo(p)
        return st
    monkeypatch.setattr(host_mod.os, "stat", swap)
    with pytest.raises(host_mod.HostError) as e:
        host.read_bytes(p)
    assert "FIFO" in str(e.value)


# ---- the door: writes only inside the home, never replace a non-regular file ----------------------

def test_the_door_refuses_writes_outside_the_home_through_a_symlinked_folder(tmp_path):
    home = fresh_home(tmp_path / "home")
    out = _outside(tmp_path)
    (home / ".copilot").mkdir()
    os.symlink(out, home / ".copilot" / "agents")
    host = make_host(home)
    with pytest.raises(host_mod.HostError) as e:
        host.write_atomic(home / ".copilot" / "agents" / "x.md", b"x")
    assert "out of the home" in str(e.value)
    with pytest.raises(host_mod.HostError):
        host.symlink("/etc", home / ".copilot" / "agents" / "l")
    with pytest.raises(host_mod.HostError):
        host.mkdir(home / ".copilot" / "agents" / "d")
    assert list(out.iterdir()) == []


def test_the_door_never_writes_or_removes_copilots_config_json(tmp_path):
    home = fresh_home(tmp_path / "home")
    cfg = home / ".copilot" / "config.json"
    cfg.parent.mkdir()
    cfg.write_text('{"trustedFolders": []}')
    host = make_host(home)
    for act in (lambda: host.write_atomic(cfg, b"{}"), lambda: host.remove(cfg),
                lambda: host.symlink("x", cfg)):
        with pytest.raises(host_mod.HostError) as e:
            act()
        assert "config.json" in str(e.value)
    assert cfg.read_text() == '{"trustedFolders": []}'


def test_the_door_never_replaces_a_device_or_a_fifo(tmp_path):
    home = fresh_home(tmp_path / "home")
    host = make_host(home)
    os.mkfifo(home / "p")
    os.symlink("/dev/null", home / "n")
    for p in (home / "p", home / "n"):
        with pytest.raises(host_mod.HostError) as e:
            host.write_atomic(p, b"x")
        assert "not a regular file" in str(e.value) or "out of the home" in str(e.value)
    assert stat.S_ISFIFO(os.lstat(home / "p").st_mode) and os.readlink(home / "n") == "/dev/null"


def test_a_hard_linked_settings_json_keeps_its_link_and_mode(tmp_path):
    home = demo_home(tmp_path / "home")
    settings = home / ".copilot" / "settings.json"
    twin = home / "dotfiles-settings.json"
    os.link(settings, twin)
    os.chmod(settings, 0o640)
    before = home_snapshot(home)
    install(home, ["copilot"])
    assert os.stat(settings).st_ino == os.stat(twin).st_ino and os.stat(settings).st_nlink == 2
    assert stat.S_IMODE(os.stat(settings).st_mode) == 0o640
    assert twin.read_bytes() == settings.read_bytes() != before[".copilot/settings.json"][2]
    rc, out, err = cli_inproc("uninstall", "--home", home, "--yes", "--target", "copilot")
    assert rc == 0, err
    assert os.stat(settings).st_ino == os.stat(twin).st_ino
    assert home_snapshot(home) == before, diff_snapshots(before, home_snapshot(home))


# ---- forged manifests and journals ----------------------------------------------------------------

def _forge_manifest(host, cli_home: Path, entries: list[dict]) -> None:
    m = cli_home / ".agentdeck-managed.json"
    m.parent.mkdir(parents=True, exist_ok=True)
    m.write_text(json.dumps({"format": 1, "tool": "agentdeck", "target": "copilot", "entries": entries}))


def test_a_forged_manifest_entry_cannot_rewrite_or_delete_copilots_config_json(tmp_path):
    home = fresh_home(tmp_path / "home")
    host = make_host(home)
    cfg = target_home(host, "copilot") / "config.json"
    cfg.parent.mkdir(parents=True)
    cfg.write_text('{"trustedFolders": ["/x"], "token": "s3cret"}')
    _forge_manifest(host, target_home(host, "copilot"), [{"path": str(cfg), "kind": "file", "fingerprint": "0" * 64,
                                              "created_file": True}])
    before = cfg.read_bytes()
    rc, out, err = cli_inproc("uninstall", "--home", home, "--yes", "--target", "copilot")
    _one_line_error(rc, out, err, "config.json")
    assert cfg.read_bytes() == before


def test_a_forged_manifest_entry_through_a_symlinked_folder_writes_nothing_outside(tmp_path):
    home = fresh_home(tmp_path / "home")
    out = _outside(tmp_path)
    (out / "victim.md").write_text("theirs\n")
    os.chmod(out / "victim.md", 0o600)
    host = make_host(home)
    target_home(host, "copilot").mkdir(parents=True)
    os.symlink(out, target_home(host, "copilot") / "agents")
    originals = host.state_dir / "originals"
    originals.mkdir(parents=True)
    import hashlib
    payload = b"overwritten by a forged manifest\n"
    sha = hashlib.sha256(payload).hexdigest()
    (originals / sha).write_bytes(payload)
    target = str(target_home(host, "copilot") / "agents" / "victim.md")
    _forge_manifest(host, target_home(host, "copilot"), [
        {"path": target, "kind": "file", "fingerprint": "0" * 64, "prior_sha": sha}])
    snap = _tree(out)
    rc, o, err = cli_inproc("uninstall", "--home", home, "--yes", "--target", "copilot")
    assert "Traceback" not in err and _tree(out) == snap, (rc, o, err)


def _forge_journal(host, ops: list[dict]) -> Path:
    jp = applier.journal_path(host)
    jp.parent.mkdir(parents=True, exist_ok=True)
    jp.write_text(json.dumps({"started": "x", "pid": 1, "backup_dir": "", "ops": ops}))
    return jp


def test_a_forged_journal_backup_that_links_to_an_outside_secret_is_refused(tmp_path):
    home = fresh_home(tmp_path / "home")
    out = _outside(tmp_path)
    secret = out / "id_rsa"
    secret.write_text("PRIVATE KEY\n")
    os.chmod(secret, 0o600)
    host = make_host(home)
    b = host.state_dir / "backups" / "1" / "000-x"
    b.parent.mkdir(parents=True)
    os.symlink(secret, b)
    _forge_journal(host, [{"path": str(home / "stolen"), "op": "write", "existed": True,
                           "backup": str(b), "mode": 0o644}])
    rc, o, err = cli_inproc("plan", "--home", home, "--target", "copilot")
    _one_line_error(rc, o, err, "journal")
    assert not (home / "stolen").exists()


def test_a_forged_journal_path_through_a_symlinked_folder_is_refused(tmp_path):
    home = fresh_home(tmp_path / "home")
    out = _outside(tmp_path)
    os.symlink(out, home / "escape")
    host = make_host(home)
    b = host.state_dir / "backups" / "1" / "000-x"
    b.parent.mkdir(parents=True)
    b.write_text("planted\n")
    _forge_journal(host, [{"path": str(home / "escape" / "planted"), "op": "write", "existed": True,
                           "backup": str(b), "mode": 0o644}])
    rc, o, err = cli_inproc("status", "--home", home, "--target", "copilot")
    _one_line_error(rc, o, err, "journal")
    assert list(out.iterdir()) == []


def test_a_forged_journal_naming_copilots_config_json_is_refused(tmp_path):
    home = fresh_home(tmp_path / "home")
    host = make_host(home)
    cfg = target_home(host, "copilot") / "config.json"
    cfg.parent.mkdir(parents=True)
    cfg.write_text('{"trustedFolders": []}')
    _forge_journal(host, [{"path": str(cfg), "op": "write", "existed": False, "wrote": None}])
    rc, o, err = cli_inproc("plan", "--home", home, "--target", "copilot")
    _one_line_error(rc, o, err, "config.json")
    assert cfg.exists()


# ---- every OSError is one line ---------------------------------------------------------------------

def _fail_writes(monkeypatch, err: int, which) -> list[int]:
    """Make the data step of Host writes raise OSError(err) for the writes `which(k, path)`
    picks (k counts the writes, the profile cache's aside: that cache is written before the
    apply and may fail quietly). Returns the counter."""
    calls = [0]
    real_write, real_data = host_mod.Host.write_atomic, host_mod.Host._write_data

    def write_atomic(self, path, data, **k):
        if "profile-cache" not in str(path):
            calls[0] += 1
            self._fail_next = which(calls[0], str(path))
        try:
            return real_write(self, path, data, **k)
        finally:
            self._fail_next = False

    def write_data(self, f, data):
        if getattr(self, "_fail_next", False):
            raise OSError(err, os.strerror(err))
        return real_data(self, f, data)
    monkeypatch.setattr(host_mod.Host, "write_atomic", write_atomic)
    monkeypatch.setattr(host_mod.Host, "_write_data", write_data)
    return calls


@pytest.mark.parametrize("n", [1, 2, 4, 7])
@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EIO, errno.EDQUOT])
def test_a_write_that_fails_midway_puts_back_what_was_written(tmp_path, monkeypatch, n, err):
    """_write_data is every write's data step (backups, journal, temp files): the n-th fails."""
    home = demo_home(tmp_path / "home")
    before = home_snapshot(home)
    _fail_writes(monkeypatch, err, lambda k, path: k == n)
    rc, out, e = cli_inproc("apply", "--home", home, "--yes", *target_args(available()))
    _one_line_error(rc, out, e, "cannot write")
    assert os.strerror(err) in e and errno.errorcode[err] in e
    assert "nothing was changed" in e
    assert home_snapshot(home) == before, diff_snapshots(before, home_snapshot(home))
    assert not applier.journal_path(make_host(home)).exists()
    monkeypatch.undo()
    install(home, available())     # and the next apply works


@pytest.mark.parametrize("err,word", [(errno.EROFS, "Read-only file system"),
                                      (errno.EACCES, "Permission denied"),
                                      (errno.EPERM, "Operation not permitted"),   # chattr +i
                                      (errno.EBUSY, "busy")])                     # a mount point
def test_a_rename_refused_by_the_file_system_is_one_line_and_changes_nothing(tmp_path, monkeypatch, err, word):
    home = demo_home(tmp_path / "home")
    before = home_snapshot(home)
    real = os.replace
    calls = [0]

    def fake(src, dst, *a, **k):
        calls[0] += 1
        if calls[0] > 3 and ".local/state" not in str(dst):   # a home file, after some writes
            raise OSError(err, os.strerror(err), str(dst))
        return real(src, dst, *a, **k)
    monkeypatch.setattr(host_mod.os, "replace", fake)
    rc, out, e = cli_inproc("apply", "--home", home, "--yes", *target_args(available()))
    _one_line_error(rc, out, e, "cannot write")
    assert word in e
    monkeypatch.undo()
    assert home_snapshot(home) == before, diff_snapshots(before, home_snapshot(home))


def test_disk_full_on_the_lock_is_one_line(tmp_path, monkeypatch):
    home = demo_home(tmp_path / "home")

    def full(*a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(host_mod.os, "pwrite", full)
    rc, out, e = cli_inproc("apply", "--home", home, "--yes", *target_args(available()))
    _one_line_error(rc, out, e, "lock")
    assert "No space left on device (ENOSPC)" in e


def test_when_putting_back_fails_too_the_journal_stays_and_the_next_run_rolls_back(tmp_path, monkeypatch):
    home = demo_home(tmp_path / "home")
    before = home_snapshot(home)
    state = str(make_host(home).state_dir)
    home_writes = [0]

    def which(k, path):           # the 2nd file of the home written fails, and every write after
        if not path.startswith(state):
            home_writes[0] += 1
        return home_writes[0] >= 2
    _fail_writes(monkeypatch, errno.ENOSPC, which)
    real_remove = host_mod.Host.remove

    def remove(self, path):       # and the put-back cannot remove the file it created either
        if home_writes[0] >= 2 and not str(path).startswith(state):
            raise host_mod.HostError(f"{path}: cannot remove: No space left on device (ENOSPC)")
        return real_remove(self, path)
    monkeypatch.setattr(host_mod.Host, "remove", remove)
    rc, out, e = cli_inproc("apply", "--home", home, "--yes", *target_args(available()))
    _one_line_error(rc, out, e, "No space left on device")
    assert "journal" in e and "next agentdeck run rolls the home back" in e
    monkeypatch.undo()
    rc, out, e = cli_inproc("status", "--home", home, *target_args(available()))
    assert "rolled back an interrupted apply" in e, e
    assert home_snapshot(home) == before, diff_snapshots(before, home_snapshot(home))


# ---- recovery keeps what changed since, restores only what the apply left ---------------------------

def _killed_apply(home: Path, k: int, names) -> None:
    r = cli_proc("apply", "--home", home, "--yes", *target_args(names),
                 env=clean_env(home, AGENTDECK_CRASH_AT=str(k)))
    assert r.returncode == -signal.SIGKILL, (r.returncode, r.stderr)


def test_recovery_keeps_a_file_changed_after_the_interrupted_apply_wrote_it(tmp_path):
    home = demo_home(tmp_path / "home")
    host = make_host(home)
    journal = applier.journal_path(host)
    # kill late enough that settings.json was written
    for k in range(2, 30):
        if journal.exists():
            cli_inproc("status", "--home", home, "--target", "copilot")
        _killed_apply(home, k, ["copilot"])
        recs = json.loads(journal.read_text())["ops"]
        done = [r for r in recs[: k - 1] if r["path"].endswith("settings.json")]
        if done:
            break
    else:
        pytest.fail("no kill point after settings.json was written")
    settings = Path(done[0]["path"])
    edited = settings.read_text().replace("{", '{\n  "operatorEdit": true,', 1)
    settings.write_text(edited)       # Copilot (or the operator) writes it meanwhile
    rc, out, err = cli_inproc("status", "--home", home, "--target", "copilot")
    assert "rolled back an interrupted apply" in err and "settings.json" in err and "kept" in err, err
    assert settings.read_text() == edited, "recovery rolled back an edit made after the apply"


def test_recovery_after_a_kill_mid_write_on_a_fresh_home_leaves_no_empty_folder(tmp_path):
    names = available()
    for k in (1, 2, 3, 5, 8):
        home = fresh_home(tmp_path / f"home{k}")
        before = home_snapshot(home)
        r = cli_proc("apply", "--home", home, "--yes", *target_args(names),
                     env=clean_env(home, AGENTDECK_CRASH_MID_WRITE=str(k)))
        if r.returncode != -signal.SIGKILL:
            continue
        rc, out, err = cli_inproc("status", "--home", home, *target_args(names))
        assert home_snapshot(home) == before, f"k={k}: " + diff_snapshots(before, home_snapshot(home))


def test_status_recovers_first(tmp_path):
    home = demo_home(tmp_path / "home")
    before = home_snapshot(home)
    _killed_apply(home, 3, available())
    rc, out, err = cli_inproc("status", "--home", home, *target_args(available()))
    assert "rolled back an interrupted apply" in err, err
    assert home_snapshot(home) == before


# ---- profiles ---------------------------------------------------------------------------------------

def test_a_1200_long_extends_chain_is_one_line_not_a_recursion_error(tmp_path):
    home = fresh_home(tmp_path / "home")
    root = make_host(home).config_dir / "profiles"
    for i in range(1200):
        d = root / f"p{i}"
        d.mkdir(parents=True)
        ext = f'extends = ["p{i + 1}"]\n' if i < 1199 else ""
        (d / "profile.toml").write_text(f'[profile]\ndescription = "x"\n{ext}')
    rc, out, err = cli_inproc("plan", "--home", home, "--profile", "p0")
    _one_line_error(rc, out, err, "profile.toml")
    assert "extends chain is deeper than" in err


def test_with_copilots_hooks_folder_symlinked_out_the_wrapper_it_calls_is_kept_too(tmp_path):
    """Uninstall cannot delete hooks/agentdeck.json through the symlink; deleting the wrapper
    it runs would then make every Copilot tool call fail. Both stay, both are reported."""
    require("copilot")
    home = fresh_home(tmp_path / "home")
    out = _outside(tmp_path) / "hooks"
    out.mkdir()
    (home / ".copilot").mkdir()
    os.symlink(out, home / ".copilot" / "hooks")
    install(home, ["copilot"])
    hooks = out / "agentdeck.json"
    assert hooks.exists()
    rc, o, err = cli_inproc("uninstall", "--home", home, "--yes", "--target", "copilot")
    assert rc == 0, err
    wrapper = [p for p in (home / ".copilot").iterdir() if p.name.startswith("agentdeck-hook")]
    assert hooks.exists() and wrapper, "the hooks file stays, and so must the wrapper it calls"
    assert wrapper[0].name in hooks.read_text()
    assert "still calls it" in o and "agentdeck.json" in o


# ---- forgotten on uninstall: each file comes back as it was -----------------------------------------

CODEX_TEXTS = {
    "no final newline": 'model = "o3"',
    "no final newline, CRLF": 'model = "o3"\r\nx = 1',
    "inline mcp_servers": 'mcp_servers = { mine = { command = "x" } }\n',
    "inline between keys, no final newline":
        'a = 1\nmcp_servers = { mine = { command = "x" }, other = { command = "y" } }\nb = 2',
    "empty inline mcp_servers": 'x = { a = 1,  b = 2 }\nmcp_servers = {}\n',
    "ends in blank lines": 'model = "o3"\n\n\n',
    "nan": 'model = "o3"\nn = nan\n',
}


@pytest.mark.parametrize("text", CODEX_TEXTS.values(), ids=CODEX_TEXTS.keys())
def test_codex_config_toml_comes_back_byte_for_byte(tmp_path, text):
    require("codex")
    home = fresh_home(tmp_path / "home")
    cfg = home / ".codex" / "config.toml"
    cfg.parent.mkdir()
    cfg.write_bytes(text.encode())
    install(home, ["codex"])
    assert cfg.read_bytes() != text.encode()
    rc, out, err = cli_inproc("uninstall", "--home", home, "--yes", "--target", "codex")
    assert rc == 0, err
    assert cfg.read_bytes() == text.encode()


PERSONAS = {"blank line before the block": "# mine\n\nsome text\n\n",
            "no blank line": "# mine\nsome text\n", "no final newline": "# mine\nsome text",
            "two blank lines": "# mine\n\n\n"}


@pytest.mark.parametrize("text", PERSONAS.values(), ids=PERSONAS.keys())
def test_the_text_around_the_persona_block_comes_back_byte_for_byte(tmp_path, text):
    require("copilot")
    home = fresh_home(tmp_path / "home")
    p = home / ".copilot" / "copilot-instructions.md"
    p.parent.mkdir()
    p.write_text(text)
    install(home, ["copilot"])
    assert "agentdeck" in p.read_text()
    rc, out, err = cli_inproc("uninstall", "--home", home, "--yes", "--target", "copilot")
    assert rc == 0, err
    assert p.read_text() == text


@pytest.mark.parametrize("existing", [[], [".copilot"], [".codex", ".claude"]])
def test_uninstall_removes_the_folders_its_first_write_created(tmp_path, existing):
    """An empty ~/.copilot/hooks (or any folder agentdeck's first write made) is
    not left behind; folders that were there before stay."""
    home = fresh_home(tmp_path / "home")
    for d in existing:
        (home / d).mkdir()
    before = home_snapshot(home)
    install(home, available())
    assert (home / ".copilot" / "hooks").is_dir() or "copilot" not in available()
    rc, out, err = cli_inproc("uninstall", "--home", home, "--yes", *target_args(available()))
    assert rc == 0, err
    assert home_snapshot(home) == before, diff_snapshots(before, home_snapshot(home))
