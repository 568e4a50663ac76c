"""`agentdeck drill`: one real offline turn of each chosen CLI, with the operator's configuration,
against agentdeck's scripted model server; the receipts say which hooks really ran.

First, for every chosen CLI and before any turn (core.drill.ready): is its binary found, and
are agentdeck's hooks registered for it? The plan of the target (reads only) says what is
registered: events, timeouts, other hook sources, Codex trust, and why hooks may be inert
(core.hooks_health). A CLI that is not ready is reported as skipped at once, without a turn.

Then per ready CLI (in parallel, each under its runner's time limit):
  1. make a scratch folder in agentdeck's state dir with a copy of what the CLI must read, and
     point the CLI's home, HOME and the XDG dirs at it (the home is not changed);
  2. run core.drill.inside (server + CLI) inside `unshare -n` when the kernel allows it, so only
     127.0.0.1 exists; the turn calls one harmless shell command, then the canary
     (`agentdeck-drill-canary`), which agentdeck's handler denies when it sees the drill's id,
     then, per deny rule of the profile it can try (core.drill.operator_rule), the rule's
     example and a rewritten form, made inert (decoy files in the scratch home, stub programs
     first on PATH), which that rule must deny;
  3. read the audit lines tagged with the drill's id and judge them (core.drill.report).
"""
from __future__ import annotations

import json
import secrets as _secrets
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..host import Host, HostError
from ..policy import offered, vocabulary
from ..targets import dialects
from . import forms, operator_rule, ready, receipts, record, report, runners, scratch
from ..wording import count_of

HARMLESS_FILE = "drill-harmless.txt"
CANARY_FILE = "drill-canary.txt"
COMMANDS = (f"echo agentdeck-drill-ok > {HARMLESS_FILE}",
            f"echo {receipts.CANARY} > {CANARY_FILE}")


@dataclass
class Isolation:
    prefix: list[str] = field(default_factory=list)     # [] when the network is shared
    how: str = "not isolated"


def isolation(host: Host) -> Isolation:
    """`unshare -n` (as root) or `unshare -rn` (a user namespace), if one works here and `ip`
    can bring loopback up inside it."""
    unshare, ip = host.which("unshare"), host.which("ip")
    if not unshare or not ip:
        return Isolation([], "not isolated (unshare or ip not found): the CLIs were pointed at "
                             "127.0.0.1 only")
    for flags in (["-n"], ["-rn"]):
        r = host.run([unshare, *flags, ip, "link", "set", "lo", "up"], timeout=10)
        if r.returncode == 0:
            return Isolation([unshare, *flags, "--"], f"isolated (unshare {' '.join(flags)}: "
                                                      "loopback only)")
    return Isolation([], "not isolated (this kernel refuses unshare -n): the CLIs were pointed "
                         "at 127.0.0.1 only")


def new_id() -> str:
    return f"drill-{time.strftime('%Y%m%d-%H%M%S')}-{_secrets.token_hex(3)}"


def audit_path(host: Host) -> Path:
    return host.state_dir / "audit.jsonl"


def _size(host: Host, p: Path) -> int:
    st = host.lstat(p)
    return st.st_size if st is not None else 0


def _read_from(host: Host, p: Path, offset: int) -> bytes:
    """The audit log from `offset` on (what the drill's hooks appended)."""
    try:
        data = host.read_bytes(p, limit=256 * 1024 * 1024)
    except HostError:
        return b""
    return (data or b"")[offset:]


def harmless(stubs: list[str]) -> str:
    """The harmless first command; with stubs, it also records where the turn's shell finds
    each stubbed program (the report says whether the stub was first on PATH)."""
    return f"echo agentdeck-drill-ok > {HARMLESS_FILE}" + "".join(
        f" ; type -P {n} >> {HARMLESS_FILE}" for n in stubs)


def prepare_trials(host: Host, s: scratch.Scratch, trials: operator_rule.Trials,
                   env: dict[str, str]) -> None:
    """The decoy files and the stub programs the trials need, in the scratch folder; the stub
    folder first on the turn's PATH (and again in the scratch home's shell start-up files)."""
    for d in trials.decoys:
        p = Path(d)
        host.mkdir(p.parent, mode=0o700)
        host.write_atomic(p, forms.DECOY.encode(), mode=0o600)
    for path, text in trials.tree.items():      # the matrix's virtual home, made real
        p = Path(path)
        if text is None:
            host.mkdir(p, mode=0o700)
            continue
        host.mkdir(p.parent, mode=0o700)
        if text.startswith("->"):
            host.symlink(text[2:], p)
        else:
            host.write_atomic(p, text.encode(), mode=0o600)
    if not trials.stubs:
        return
    bin_dir = s.root / "bin"
    host.mkdir(bin_dir, mode=0o700)
    for name in trials.stubs:
        host.write_atomic(bin_dir / name, operator_rule.stub_script(str(s.work), name).encode(),
                          mode=0o755)
    line = operator_rule.path_line(str(bin_dir)).encode()
    for rc in operator_rule.RC_FILES:
        host.write_atomic(s.home / rc, line, mode=0o600)
    env["PATH"] = f"{bin_dir}:{env.get('PATH') or '/usr/bin:/bin'}"


def _stub_calls(host: Host, s: scratch.Scratch,
                trials: operator_rule.Trials) -> dict[str, list[list[str]]]:
    """What each stub recorded: its calls' arguments (the CLI's own calls of the program too)."""
    out = {}
    for n in trials.stubs:
        try:
            raw = host.read_bytes(s.work / operator_rule.stub_marker(n)) or b""
        except HostError:
            raw = b""
        out[n] = operator_rule.stub_calls(raw.decode("utf-8", "replace"))
    return out


def _side(host: Host, s: scratch.Scratch, trials: operator_rule.Trials) -> dict:
    try:
        lines = (host.read_bytes(s.work / HARMLESS_FILE) or b"").decode("utf-8", "replace")
    except HostError:
        lines = ""
    found = lines.splitlines()[1:]
    out: dict[str, Any] = {"harmless": host.exists(s.work / HARMLESS_FILE),
           "canary": host.exists(s.work / CANARY_FILE),
           "markers": {f.marker: host.exists(s.work / f.marker)
                       for t in trials.trials for f in t.forms},
           "stubs_ran": [n for n in trials.stubs
                         if host.exists(s.work / operator_rule.stub_marker(n))],
           "stub_denied": operator_rule.stub_calls_denied(trials, _stub_calls(host, s, trials)),
           "stub_found": {n: (found[i] if i < len(found) else None)
                          for i, n in enumerate(trials.stubs)},
           "stub_dir": str(s.root / "bin"), "decoys_changed": []}
    for d in trials.decoys:
        try:
            same = host.read_bytes(Path(d)) == forms.DECOY.encode()
        except HostError:
            same = False
        if not same:
            out["decoys_changed"].append(d)
    return out


def drill_target(host: Host, profile: str, rd: ready.Ready, drill_id: str, iso: Isolation,
                 audit_offset: int, *,
                 make_trials: Callable[[str, str], operator_rule.Trials] | None = None,
                 extra_seconds: float = 0.0,
                 keep: dict | None = None) -> report.TargetReport:
    """The turn of one target that core.drill.ready found ready. `make_trials(home, work)`:
    the commands of the turn instead of the profile's rules (the enforcement matrix,
    core/drill/matrix.py), with `extra_seconds` more time; `keep` receives the turn's run and
    its audit records."""
    target, plan, exe, version = rd.target, rd.plan, rd.exe, rd.version
    r = runners.runner(target)
    if r is None:
        return report.failed(target, runners.why_not_supported(target))
    tid = f"{drill_id}-{target}"
    s = scratch.make(host, drill_id, target)
    try:
        real = runners.cli_home(host, target)
        copy = s.cli_home                 # the CLI's home in the scratch folder (its subdir)
        for name in r.copy:
            scratch.copy_into(host, real / name, copy / name)
        extra_args, extra_files = runners.prepare(host, target, real, copy)
        for name, data in extra_files.items():
            host.write_atomic(copy / name, data, mode=0o600)
        scratch.link_caches(host, s, r.cache_links)
        homes = runners.home_vars()
        env = {k: v for k, v in host.env.items() if k not in runners.CREDENTIAL_VARS
               and k not in homes}
        env.update(scratch.scratch_env(host, s))
        env.update(r.env)
        env[r.home_var] = runners.home_value(target, copy)
        env["AGENTDECK_DRILL_ID"] = tid
        trials = (make_trials(str(s.home), str(s.work)) if make_trials is not None else
                  operator_rule.for_target(host, profile, target, str(s.home), str(s.work)))
        prepare_trials(host, s, trials, env)
        argv = runners.argv(exe, r, extra_args)
        spec = {"argv": argv, "env": env, "cwd": str(s.work), "timeout": r.timeout + extra_seconds,
                "commands": [harmless(trials.stubs), COMMANDS[1], *trials.commands],
                "netns": bool(iso.prefix), "shell_tools": [list(t) for t in r.shell_tools]}
        inner = [*iso.prefix, sys.executable, "-m", "agentdeck.core.drill.inside"]
        t0 = time.monotonic()
        res = host.run(inner, timeout=r.timeout + extra_seconds + 20, input=json.dumps(spec),
                       env=env,
                       cwd=s.work)
        wall = time.monotonic() - t0
        try:
            run = json.loads(res.stdout.strip().splitlines()[-1]) if res.stdout.strip() else {}
        except (ValueError, IndexError):
            run = {}
        if not run:
            run = {"error": (res.stderr.strip() or f"the drill's runner exited {res.returncode}"
                             + (" (timed out)" if res.timed_out else ""))[-800:]}
        side = _side(host, s, trials)
        recs = receipts.parse(_read_from(host, audit_path(host), audit_offset), tid)
        if keep is not None:
            keep.update(run=run, records=recs, side=side)
        rep = report.judge(host, target, plan, r, version, run, recs, side, wall, iso.how,
                           trials=trials, first_form=len(COMMANDS))
        _offered(host, rep, target, version, run.get("offered"), tid)
        return rep
    finally:
        scratch.remove(host, s.root)


def _offered(host: Host, rep: report.TargetReport, target: str, version: str | None,
             names, tid: str) -> None:
    """Record the tools the turn offered the model (core/policy/offered.py: the doctor lists
    the ones agentdeck does not know) and note those here."""
    if not isinstance(names, list) or not names:
        return
    try:
        offered.record(host, target, version, names, tid)
    except HostError as e:
        rep.notes.append(f"the tools {target} offered were not recorded: {e}")
    mod = dialects.module(target)
    unknown = vocabulary.unknown(vocabulary.vocabulary([mod]), names) if mod is not None else []
    if unknown:
        rep.notes.append(f"{target} offered {count_of(len(unknown), 'tool')} agentdeck's vocabulary does "
                         f"not know: {', '.join(unknown[:12])}"
                         + (f" and {len(unknown) - 12} more" if len(unknown) > 12 else ""))


#: the network of a drill in which no turn ran
NO_TURN = "not used (no turn ran)"


def drill(host: Host, profile: str, targets: list[str],
          progress: Callable[[str, str], None] | None = None) -> report.DrillReport:
    """Drill each target (in parallel); `progress(target, what)` is called as each starts and
    ends (what: "running" or its status). Whether a turn can prove anything is decided for every
    target first (core.drill.ready); a target that is not ready is reported at once (progress:
    its status only, never "running") and no turn, scratch folder or sandbox is made for it."""
    drill_id = new_id()
    t0 = time.monotonic()
    checked: dict[str, ready.Ready | report.TargetReport] = {}
    for t in targets:
        try:
            checked[t] = ready.check(host, profile, t)
        except HostError as e:
            checked[t] = report.failed(t, str(e))
    reps: dict[str, report.TargetReport] = {}
    for t, c in checked.items():
        if isinstance(c, report.TargetReport):
            reps[t] = c
            if progress:
                progress(t, c.status)
    todo = [c for c in checked.values() if isinstance(c, ready.Ready)]
    if not todo:
        return report.DrillReport(drill_id, {t: reps[t] for t in targets},
                                  time.monotonic() - t0, NO_TURN)
    iso = isolation(host)
    offset = _size(host, audit_path(host))

    def one(rd: ready.Ready) -> report.TargetReport:
        if progress:
            progress(rd.target, "running")
        try:
            rep = drill_target(host, profile, rd, drill_id, iso, offset)
        except HostError as e:
            rep = report.failed(rd.target, str(e))
        if progress:
            progress(rd.target, rep.status)
        return rep

    try:
        with ThreadPoolExecutor(max_workers=len(todo)) as pool:
            for rep in pool.map(one, todo):
                reps[rep.target] = rep
    finally:
        scratch.remove_root(host, drill_id)
    drilled = report.DrillReport(drill_id, {t: reps[t] for t in targets}, time.monotonic() - t0,
                                 iso.how)
    record.save(host, record.entries_of(drilled))     # what held, per CLI version, on this machine
    return drilled
