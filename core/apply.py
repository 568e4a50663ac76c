"""The applier: executes exactly the plan the operator saw.

Order of work: take the home's lock; refuse a stale plan (any input's sha changed); compute every
file's new bytes in memory; save backups and write the journal (before the first change); write
each file atomically (temp + fsync + rename, modes kept, symlinks written through); write the
manifests last; delete the journal. A crash at any point leaves a journal, and the next run rolls
the home back to where it was before that apply (see `recover`).
"""
from __future__ import annotations

import json
import os
import stat
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from .disk import MISSING, DiskView, current_sha
from .errors import LockedError, StalePlanError, UserError
from .host import TEMP_SUFFIX, Host, HostBusy, HostError
from .inert import inert
from .kinds import OpContext
from .digest import sha256
from .manifest import Entry, Manifest
from .ops import OPS, DeleteOp, Op, WriteOp, missing_dirs
from .plan import Action, Decision, ItemClass, Plan, PlanItem
from .wording import count_of, noun_for

LOCK_WAIT_SECONDS = 2.0


# ---- lock ---------------------------------------------------------------------------------------

@contextmanager
def home_lock(host: Host, wait: float = LOCK_WAIT_SECONDS) -> Iterator[None]:
    """One lock per home. A second apply waits briefly, then fails with a clear message."""
    path = host.state_dir / "lock"
    try:
        with host.lock(path, wait):
            yield
    except HostBusy as busy:
        raise LockedError(f"another agentdeck apply is running on this home (pid {busy.holder}); "
                          "wait for it to finish and try again", path=str(path)) from None


# ---- operations ---------------------------------------------------------------------------------
# the op types (write, delete, symlink, unlink) are core/ops.py's; the item kinds that make them
# are core/kinds'


@dataclass
class ApplyResult:
    """What an apply did: files written, removed, left over or kept, and its backup folder."""
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    backup_dir: str | None = None
    leftover: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)     # removals refused for safety, one line each
    recovered: str | None = None
    #: target -> why its hooks cannot run after this apply, each "<reason> (fix: ...)" (the
    #: plan computed again, core.hooks_health): the apply's last word is that effect
    inert: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.leftover


def _fault_point(host: Host, counter: list[int]) -> None:
    """Test instrumentation for the crash-safety suite: AGENTDECK_CRASH_AT=N kills this process
    (SIGKILL, no cleanup) just before write step N."""
    counter[0] += 1
    at = host.env.get("AGENTDECK_CRASH_AT")
    if at and at.isdigit() and int(at) == counter[0]:
        host.kill_self()


def build_ops(host: Host, plan: Plan, *, keep_originals: bool = True
              ) -> tuple[list[Op], dict[str, dict[str, Any]]]:
    """Every file's new bytes, computed in memory from the plan and the disk as it was planned.
    Returns the ops and, per item id, the manifest facts to record (prior, created_file, dirs).
    Each path's items are turned into ops by their kind (core/kinds). keep_originals=False (a
    preview, core/preview.py): write nothing, not even the copy of a file replaced for the
    first time."""
    disk = DiskView(host)
    by_path: dict[str, list[PlanItem]] = {}
    for it in plan.items:
        if plan.action(it) in (Action.WRITE, Action.REMOVE):
            by_path.setdefault(it.path, []).append(it)
    ops: list[Op] = []
    facts: dict[str, dict[str, Any]] = {}

    def writes(it: PlanItem) -> bool:
        return plan.action(it) == Action.WRITE

    for path_s, items in by_path.items():
        path = Path(path_s)
        ctx = OpContext(host, disk, path, disk.state(path), writes, plan.manifests.values(),
                        keep_originals, ops, facts, missing_dirs(host, path))
        items[0].type.ops(ctx, items)
    return ops, facts


def _no_setid(mode: int | None) -> int | None:
    """A mode to put back, without setuid/setgid bits (a config file never needs them, and a
    manifest that asks for them is refused as forged)."""
    return None if mode is None else mode & 0o1777


def update_manifests(plan: Plan, facts: dict[str, dict[str, Any]]) -> dict[str, Manifest]:
    """The manifests as they must be after this apply (only those that change)."""
    changed: dict[str, Manifest] = {}
    for it in plan.items:
        act = plan.action(it)
        if act == Action.NONE:
            continue
        owners = [it.target] + list(it.also)
        if it.wanted and act in (Action.WRITE, Action.RECORD):
            spec = it.spec
            if spec is None:   # a wanted item is built from the profile's Desired (core.plan)
                raise AssertionError(f"wanted item {it.id} has no desired spec")
            f = facts.get(it.id, {})
            old = it.entry
            prior = f.get("prior", old.prior if old else (MISSING if it.actual is MISSING else it.actual))
            kind = it.type
            entry = Entry(
                path=it.path, kind=it.kind, key=list(it.key), fmt=spec.fmt,
                fingerprint=kind.fingerprint(spec.value, spec.mode),
                prior_sha=f.get("prior_sha", old.prior_sha if old else None),
                created_file=f.get("created_file", old.created_file if old else False),
                created_dirs=f.get("created_dirs", list(old.created_dirs) if old else []),
                made_keys=f.get("made_keys", list(old.made_keys) if old else []),
                prior_mode=_no_setid(f.get("prior_mode", old.prior_mode if old else None)),
                label=spec.label, meta=spec.meta, member=spec.member,
                **kind.recorded_fields(spec, prior))
            for t in owners:
                m = plan.manifests[t]
                m.entries[entry.id] = entry
                changed[t] = m
        else:
            # removed, released, forgotten, or a hand-edit we stop managing
            targets = [it.target] if it.release else owners + [
                t for t, m in plan.manifests.items() if it.id in m.entries]
            for t in set(targets):
                m = plan.manifests[t]
                if m.entries.pop(it.id, None) is not None:
                    changed[t] = m
    for t in plan.profile_switches():       # the profile this apply installs, remembered
        m = plan.manifests[t]
        if m.entries:
            m.profile = plan.profile
            changed[t] = m
    return changed


# ---- journal ------------------------------------------------------------------------------------

def journal_path(host: Host) -> Path:
    return host.state_dir / "journal.json"


def _write_journal(host: Host, records: list[dict[str, Any]], backup_dir: Path) -> None:
    obj = {"started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "pid": os.getpid(),
           "backup_dir": str(backup_dir), "ops": records}
    host.write_atomic(journal_path(host), (json.dumps(obj, indent=1) + "\n").encode(), mode=0o600)


def _now(host: Host, p: Path) -> tuple[str, str | None]:
    """What is at `p` now: ("absent", None), ("link", target), ("file", sha) or ("other", kind)."""
    lst = host.lstat(p)
    if lst is None:
        return ("absent", None)
    if host.is_symlink(p) and not (host.is_file(p)):
        return ("link", host.readlink(p))
    try:
        data = host.read_bytes(p)
    except HostError:
        return ("other", None)
    return ("file", sha256(data)) if data is not None else ("absent", None)


def _undo(host: Host, records: list[dict[str, Any]]) -> list[str]:
    """Put back what the journal records say was there, last op first -- only where the file is
    still what this apply left: each record says what the apply was to write (`wrote`: a sha,
    a link target, or None for a removal). A file that is neither what was there before nor
    what the apply wrote changed since (Claude Code rewrites ~/.claude.json while it runs): it
    is kept, and named in the list returned. Temp files of a write cut short go first, then
    the folders the apply made, once empty."""
    kept: list[str] = []
    for rec in reversed(records):
        p = Path(rec["path"])
        _remove_temp_files(host, p)
        if "wrote" in rec:   # journals written before this check existed have no "wrote"
            now = _now(host, p)
            was = (("file", rec["backup_sha"]) if rec.get("backup_sha") else
                   ("link", rec["link_was"]) if rec.get("link_was") else
                   ("absent", None) if not rec.get("existed") else None)
            wrote = rec["wrote"]
            op_type = OPS.get(rec.get("op")) if isinstance(rec.get("op"), str) else None
            ours = op_type.leaves(wrote) if op_type is not None else ("absent", None)
            if was is not None and now == was:
                _rmdirs(host, rec)
                continue          # not reached by the apply, or already put back
            if now != ours and not (ours[0] == "absent" and now[0] == "absent"):
                kept.append(f"{rec.get('via') or rec['path']}: kept as it is now, it changed after "
                            "the interrupted apply wrote it")
                continue
        if rec.get("backup"):
            data = host.read_bytes(Path(rec["backup"]))
            if data is None:
                kept.append(f"{rec['path']}: its backup {rec['backup']} is gone; left as it is")
                continue
            host.write_atomic(p, data, mode=rec.get("mode"))
        elif rec.get("link_was"):
            host.symlink(rec["link_was"], p)
        elif not rec.get("existed"):
            if host.exists(p) and not host.is_dir(p) or host.is_symlink(p):
                host.remove(p)
        _rmdirs(host, rec)
    return kept


def _rmdirs(host: Host, rec: dict[str, Any]) -> None:
    if not rec.get("existed"):
        for d in rec.get("made_dirs", []):
            host.rmdir_if_empty(Path(d))


def _remove_temp_files(host: Host, p: Path) -> None:
    """The `.<name>.*.agentdeck-tmp` files write_atomic leaves when it is killed mid-write."""
    prefix = f".{p.name}."
    for fn in host.listdir(p.parent):
        if fn.startswith(prefix) and fn.endswith(TEMP_SUFFIX) and host.is_file(p.parent / fn):
            try:
                host.remove(p.parent / fn)
            except (HostError, OSError):
                pass


def read_journal(host: Host) -> dict[str, Any] | None:
    """The journal of an apply that did not finish, checked before anything acts on it: every
    path inside the home or a CLI home (or the file a symlink there leads to), every backup
    inside agentdeck's own state dir. None when there is no journal."""
    jp = journal_path(host)
    try:
        raw = host.read_bytes(jp)
    except HostError:
        raw = b""
    if raw is None:
        return None

    def bad(why: str) -> UserError:
        return UserError(f"the apply journal {why}; inspect it and remove it to continue", path=str(jp))

    try:
        obj = json.loads(raw)
        if not isinstance(obj, dict):
            raise TypeError("not an object")
        ops = obj["ops"]
    except (ValueError, KeyError, TypeError):
        raise bad("is unreadable") from None
    if not isinstance(ops, list) or not all(isinstance(r, dict) and isinstance(r.get("path"), str)
                                            for r in ops):
        raise bad("is unreadable")
    backups = host.realpath(host.state_dir) + os.sep
    for rec in ops:
        p, via = rec["path"], rec.get("via")
        through_link = (isinstance(via, str) and host.confined(via) and host.real_confined(via)
                        and str(host.resolve_write_path(Path(via))) == p)
        if not ((host.confined(p) and host.real_confined(p)) or through_link):
            raise bad(f"names a path outside the home ({p})")
        what = host.never_written_what(p)
        if what:
            raise bad(f"names {what} ({p}), which agentdeck never writes")
        b = rec.get("backup")
        if b is not None:
            lst = host.lstat(Path(b)) if isinstance(b, str) else None
            if (lst is None or not stat.S_ISREG(lst.st_mode) or lst.st_nlink != 1
                    or not host.realpath(b).startswith(backups)):
                raise bad(f"names a backup that is not one of agentdeck's ({b})")
        dirs = rec.get("made_dirs", [])
        if not isinstance(dirs, list) or not all(isinstance(d, str) and host.confined(d)
                                                 and host.real_confined(d) for d in dirs):
            raise bad("names a directory outside the home")
        if rec.get("link_was") is not None and not isinstance(rec["link_was"], str):
            raise bad("is unreadable")
        for k in ("wrote", "backup_sha"):
            if rec.get(k) is not None and not isinstance(rec[k], str):
                raise bad("is unreadable")
    return obj


def recover(host: Host) -> str | None:
    """Roll back an apply that did not finish (its journal is still there). Returns a message
    saying what was done, or None when there was nothing to recover."""
    obj = read_journal(host)
    if obj is None:
        return None
    jp = journal_path(host)
    try:
        kept = _undo(host, obj["ops"])
    except HostError as e:
        raise UserError(f"{e}; could not roll back the interrupted apply: the journal "
                        f"{host.display(jp)} stays, fix that and run agentdeck again") from None
    host.remove(jp)
    msg = f"rolled back an interrupted apply from {obj.get('started', '?')} (journal {host.display(jp)})"
    if kept:
        msg += "; " + "; ".join(host.display(k) for k in kept)
    return msg


# ---- run ----------------------------------------------------------------------------------------

def _record_kept_conflicts(host: Host, plan: Plan) -> None:
    """Remember the conflicts the operator explicitly decided to keep, and the other tools'
    files they chose to leave in place (plan.load_kept)."""
    from .plan import kept_path, load_kept

    new = {i.id: i.actual_fp for i in plan.items if i.actual_fp and (
           (i.cls == ItemClass.CONFLICT and plan.decisions.get(i.id) == Decision.KEEP)
           # another tool's file the operator chose to leave in place (an aside item skipped)
           or (i.type.sets_aside and i.cls == ItemClass.CREATE
               and plan.decisions.get(i.id) == Decision.SKIP))}
    if not new:
        return
    kept = load_kept(host)
    kept.update(new)
    host.write_atomic(kept_path(host), (json.dumps(kept, indent=1, sort_keys=True) + "\n").encode(),
                      mode=0o600)


def check_fresh(host: Host, plan: Plan) -> None:
    changed = [p for p, sha in plan.inputs.items() if current_sha(host, Path(p)) != sha]
    if changed:
        first = host.display(changed[0])
        more = f" (and {len(changed) - 1} more)" if len(changed) > 1 else ""
        raise StalePlanError(f"{first}{more} changed on disk since this plan was computed; "
                             "nothing was written. Compute the plan again and review it.")


def _recheck_before_write(host: Host, plan: Plan, op: Op, done: list[dict[str, Any]]) -> None:
    """Right before replacing a file, check again that it is what the plan saw. A program that
    rewrites its own config while it runs (Claude Code and ~/.claude.json) may have written it
    since the check at the start; then stop, put back the files this apply already wrote, and
    leave that file alone."""
    if not op.replaces_file or op.display not in plan.inputs:
        return
    if current_sha(host, Path(op.display)) == plan.inputs[op.display]:
        return
    _undo(host, done)
    host.sync_batched_dirs()     # what was put back is on disk before the journal goes
    host.remove(journal_path(host))
    undone = f"; the {count_of(len(done), 'file')} it had already written {noun_for(len(done), 'was', 'were')} put back" if done else ""
    raise StalePlanError(f"{host.display(op.display)} changed on disk while agentdeck was applying "
                         f"(another program is writing it){undone}. Nothing was changed. "
                         "Compute the plan again and review it.")


def run(host: Host, plan: Plan, recompute: Callable[[], Plan] | None = None,
        progress: Callable[[str], None] | None = None,
        leave_conflicts: bool = False) -> ApplyResult:
    """Apply `plan` (with its decisions). Raises UserError subclasses for a held lock, a stale
    plan or an undecided conflict; nothing is written in those cases. `leave_conflicts`: apply
    the rest and leave each undecided conflict as it is on disk (not recorded as decided)."""
    result = ApplyResult()
    undecided = plan.undecided_conflicts()
    if undecided and not leave_conflicts:
        names = ", ".join(f"{i.label or i.id} in {host.display(i.path)}" for i in undecided[:3])
        raise UserError(f"{count_of(len(undecided), 'conflict')} {noun_for(len(undecided), 'needs', 'need')} your decision before apply: {names} "
                        "(keep yours with --keep ID or take the profile's with --take ID)")
    with home_lock(host):
        check_fresh(host, plan)
        ops, facts = build_ops(host, plan)
        kept_ops = [o for o in ops if o.removes and not host.real_confined(o.path)]
        for op in kept_ops:
            ops.remove(op)    # never delete through a symlink that leads out of the home
            result.kept.append(f"{host.display(op.display or op.path)}: not deleted, it is reached "
                               "through a symlink that leads out of the home")
        for op, caller in _still_called(host, kept_ops, ops):
            ops.remove(op)    # a kept hooks file still runs the wrapper: keep the wrapper too
            result.kept.append(f"{host.display(op.display or op.path)}: not deleted, "
                               f"{caller} (kept) still calls it")
        before = {t: dict(m.entries) for t, m in plan.manifests.items()}
        manifests = update_manifests(plan, facts)
        sweep = sorted({d for t, m in plan.manifests.items() for eid, e in before[t].items()
                        if eid not in m.entries for d in (e.created_dirs or [])},
                       key=len, reverse=True)
        for t, m in manifests.items():
            if m.entries:
                ops.append(WriteOp(m.path, m.render(), 0o600, display=str(m.path)))
            elif host.lstat(m.path) is not None:
                # nothing of ours is left for this target: the manifest goes too, and with it
                # the directories our first writes made, once they are empty
                ops.append(DeleteOp(m.path, rmdirs=sweep, display=str(m.path)))
        if not ops:
            _record_kept_conflicts(host, plan)
            result.inert = inert_after(plan)     # nothing written: the plan is the home's state
            return result
        try:
            _write_all(host, plan, ops, sweep, result, progress)
        except HostError as e:
            raise UserError(str(e)) from None
        _record_kept_conflicts(host, plan)
    if recompute is not None:
        after = recompute()
        # what the operator chose to leave out (skip) or keep is not "left over"
        held = {k for k, v in plan.decisions.items() if v in (Decision.SKIP, Decision.KEEP)}
        held |= set(plan.holds().held)     # a file kept for what the operator kept (core/held.py)
        result.leftover = [f"{i.cls} {i.label or i.id}" for i in after.items
                           if after.action(i) in (Action.WRITE, Action.REMOVE) and i.id not in held]
        result.inert = inert_after(after)
    return result


def inert_after(plan: Plan) -> dict[str, list[str]]:
    """target -> "<reason> (fix: ...)" for each target whose hooks cannot run (core.inert)
    in `plan`, the home as an apply leaves it; empty for an uninstall."""
    if plan.mode != "install":
        return {}
    return {t: [i.line() for i in inert(plan, t)] for t in plan.targets if inert(plan, t)}


def _write_all(host: Host, plan: Plan, ops: list[Op], sweep: list[str], result: ApplyResult,
               progress: Callable[[str], None] | None) -> None:
    """Backups and journal, then every write. A failure (a HostError line: disk full, read-only,
    permission, immutable...) before the journal leaves the home as it was; one after it puts
    back what this apply already wrote and says so, or, when even that fails, says that the
    journal stays for the next run to roll back."""
    for op in ops:      # the door refuses these anyway; refuse them before anything is written
        try:
            op.check(host)
        except HostError as e:
            raise HostError(f"{e}; nothing was written") from None
    stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}"
    backup_dir = host.state_dir / "backups" / stamp
    host.mkdir(backup_dir, 0o700)
    host.chmod(backup_dir.parent, 0o700)
    records = []
    with host.dir_syncs_batched():   # the backups' folder is synced once, before the journal
        for n, op in enumerate(ops):
            records.append(_backup(host, n, op, backup_dir))
        index = {os.path.basename(r["backup"]): r.get("via", r["path"])
                 for r in records if r.get("backup")}
        try:
            if index:   # which backup is which file, for an operator restoring by hand
                host.write_atomic(backup_dir / "index.json",
                                  (json.dumps(index, indent=2) + "\n").encode(), mode=0o600)
        except HostError as e:
            _forget_journal(host)
            raise HostError(f"{e}; nothing was changed") from None
    try:
        _write_journal(host, records, backup_dir)
    except HostError as e:
        _forget_journal(host)
        raise HostError(f"{e}; nothing was changed") from None
    result.backup_dir = str(backup_dir)
    counter = [0]
    n = 0
    try:
        # each file is written to a temp file, fsynced and renamed; each folder written into is
        # fsynced once, when the writes are done, and the journal goes only after that
        with host.dir_syncs_batched():
            for n, op in enumerate(ops):
                _recheck_before_write(host, plan, op, records[:n])
                _fault_point(host, counter)
                _write_one(host, op, result, progress)
            for d in sweep:   # directories our removed entries made, now empty (deepest first)
                host.rmdir_if_empty(Path(d))
    except HostError as e:
        raise HostError(_put_back(host, records[: n + 1], str(e))) from None
    host.remove(journal_path(host))


def _backup(host: Host, n: int, op: Op, backup_dir: Path) -> dict[str, Any]:
    """The journal record of `op`, with a backup of the file it changes (when there is one)."""
    rec: dict[str, Any] = {"path": str(op.path), "op": op.kind}
    if op.display and op.display != str(op.path):
        rec["via"] = op.display      # the planned path; op.path is where its symlink leads
    lst = host.lstat(op.path)
    rec["existed"] = lst is not None
    if lst is not None and host.is_symlink(op.path) and op.on_link:
        rec["link_was"] = host.readlink(op.path)
    elif lst is not None and host.is_file(op.path) and (
            data := host.read_bytes(op.path)) is not None:   # None: gone since the lstat
        b = backup_dir / f"{n:03d}-{op.path.name}"
        try:
            host.write_atomic(b, data, mode=0o600)
        except HostError as e:
            raise HostError(f"{e} (the backup of {host.display(op.display or op.path)}); "
                            "nothing was changed") from None
        rec["backup"] = str(b)
        rec["backup_sha"] = sha256(data)
        rec["mode"] = host.mode(op.path)
    rec["wrote"] = op.wrote()
    rec["made_dirs"] = missing_dirs(host, op.path)
    return rec


def _still_called(host: Host, kept: list[Op], ops: list[Op]) -> list[tuple[Op, str]]:
    """The deletions of files that a file kept (not deleted) names, each with the kept file
    that names it: with ~/.copilot/hooks symlinked out of the home, its agentdeck.json stays,
    and deleting the wrapper it runs would make every Copilot tool call fail."""
    out: list[tuple[Op, str]] = []
    taken: list[Op] = []
    for k in kept:
        try:
            data = host.read_bytes(k.path) or b""
        except HostError:
            continue
        for op in ops:
            if op.removes and op not in taken and (
                    str(op.display or op.path).encode() in data
                    or host.display(op.display or op.path).encode() in data):
                taken.append(op)
                out.append((op, host.display(k.display or k.path)))
    return out


def _forget_journal(host: Host) -> None:
    try:
        host.remove(journal_path(host))
    except HostError:
        pass


def _put_back(host: Host, records: list[dict[str, Any]], what: str) -> str:
    """After a failed write: undo what this apply wrote; the message says how that went."""
    jp = host.display(journal_path(host))
    try:
        kept = _undo(host, records)
        host.remove(journal_path(host))
    except HostError as e:
        return (f"{what}; putting back the files already written failed too ({e}): the journal "
                f"{jp} stays and the next agentdeck run rolls the home back (fix that first)")
    done = len(records) - 1
    extra = ("; " + "; ".join(kept)) if kept else ""
    return (f"{what}; nothing was changed" + (f" (the {count_of(done, 'file')} already written {noun_for(done, 'was', 'were')} put back)"
                                               if done else "") + extra)


def _write_one(host: Host, op: Op, result: ApplyResult, progress: Callable[[str], None] | None) -> None:
    if progress:
        progress(f"{op.kind} {host.display(op.display or op.path)}")
    op.run(host, result)
