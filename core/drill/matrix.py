"""`agentdeck drill --matrix`: the enforcement matrix. A few cases of each class of the shipped
evasion corpus (core/policy/corpus.py) run as shell calls in one real offline turn of each
installed CLI, and what each class got is recorded per CLI version:

    held          every case got the decision the corpus expects of it (a deny where an ask was
                  expected counts: stricter), and the benign ones ran
    asked         a case the corpus denies was asked instead
    not held      a case the corpus denies or asks was allowed
    over-blocked  a benign case (the corpus allows it) was denied or asked
    not seen      the hook never saw a case's call (the CLI refused it itself, or the model's
                  call did not reach the shell): nothing is claimed for it

How: for each CLI, a scratch home in agentdeck's state dir gets the corpus's own policy as a
profile, installed there by agentdeck's own plan and apply (the operator's home is not touched),
the corpus's virtual home is made real in the turn's scratch folders (the same decoys: a key is
the text DECOY), and the drill's turn (core/drill/run.py drill_target: isolated network, scratch
home, the scripted model) makes every chosen call in order. The hook's audit lines of that turn
say each call's decision. A case is chosen only when it is a shell command whose paths stay in
the scratch folders (the corpus's /home/policy-test and /tmp are moved there; no other absolute
path but system programs'), so a case that is not held changes nothing outside the scratch.

The result goes to the drill's record (core/drill/record.py, per CLI version) and to
docs/enforcement.md (scripts/enforcement_doc.py regenerates it with the pinned CLIs).
"""
from __future__ import annotations

import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..host import Host, HostError
from ..policy import corpus
from . import forms, operator_rule, ready, receipts, record, scratch
from .run import _size, audit_path, drill_target, isolation, new_id

#: cases per class that the corpus denies or asks, and benign ones, at most
PER_CLASS = 3
BENIGN_PER_CLASS = 1
#: seconds a turn may take per call, on top of the runner's own limit
SECONDS_PER_CALL = 6.0
ORDER = ("not held", "over-blocked", "not seen", "asked", "held")
PROFILE = "agentdeck-matrix"
#: system programs' folders a case may name (read-only to a case: it runs them)
_SYSTEM = ("/bin/", "/usr/", "/dev/null", "/dev/stdin", "/dev/fd/")
_ABS = re.compile(r"(?<![\w.~$}/-])/[\w.*?]")


@dataclass(frozen=True)
class Case:
    cls: str
    command: str            # as the corpus spells it (its virtual home)
    expected: str           # deny | ask | allow


@dataclass
class ClassResult:
    status: str
    cases: list[dict] = field(default_factory=list)   # command, expected, decision, rule, status


@dataclass
class TargetMatrix:
    target: str
    version: str | None
    status: str                      # ok | failed | skipped
    classes: dict[str, ClassResult] = field(default_factory=dict)
    problem: str = ""


def _safe(command: str) -> bool:
    """Whether the case runs in the turn's scratch folders as it reads in the corpus: it names
    no folder outside them, and no path climbs out of the working folder (`../../.ssh` names
    the corpus's home only at the corpus's depth, not from the drill's work folder)."""
    if "../" in command:
        return False
    text = command.replace(corpus.HOME, "").replace("/tmp", "")
    for m in _ABS.finditer(text):
        if not text.startswith(_SYSTEM, m.start()):
            return False
    return "\n" not in command or "EOF" in command


def chosen(per_class: int = PER_CLASS, benign: int = BENIGN_PER_CLASS) -> list[Case]:
    """The cases a matrix turn runs: per class of shell cases run in the corpus's working
    folder, `per_class` it denies or asks (spread over the class: its first, its last and
    between) and the first `benign` it allows, each safe to run in a scratch folder (see the
    module)."""
    by_class: dict[str, list] = {}
    for cls, item in corpus.cases():
        by_class.setdefault(cls, []).append(item)
    out: list[Case] = []
    for cls, items in by_class.items():
        strict: list[Case] = []
        ok: list[Case] = []
        for item in items:
            if not (isinstance(item, tuple) and len(item) == 3 and isinstance(item[0], str)
                    and item[1] == corpus.CWD):
                continue
            command, _, expected = item
            if not _safe(command):
                continue
            (ok if expected == "allow" else strict).append(Case(cls, command, expected))
        out += _spread(strict, per_class) + ok[:benign]
    # the classes that attack the guard itself last: where one is not held, the cases after it
    # would be judged without the guard
    last = ("the guard's own files", "layers that switch hooks off")
    return [c for c in out if c.cls not in last] + [c for c in out if c.cls in last]


def _spread(items: list, n: int) -> list:
    """`n` items spread over the list (its first, its last, and between)."""
    if len(items) <= n:
        return list(items)
    if n == 1:
        return items[:1]
    return [items[round(k * (len(items) - 1) / (n - 1))] for k in range(n)]


def real_command(case: Case, home: str, work: str, tmp: str) -> str:
    """The case's command in the turn's scratch folders."""
    return case.command.replace(corpus.HOME, home).replace("/tmp", tmp)


def _tree(home: str, work: str, tmp: str) -> dict[str, str | None]:
    """The corpus's files in the turn's scratch folders: its home, working folder and /tmp
    (the turn's own); the files it has elsewhere (an installed venv, agentdeck's package) are
    left out: a scratch turn writes nothing outside its folders."""
    out: dict[str, str | None] = {}
    for vpath, text in corpus.TREE.items():
        if vpath.startswith("/tmp/"):
            real = tmp + vpath[len("/tmp"):]
        elif vpath.startswith((corpus.CWD + "/", corpus.HOME + "/")):
            real = vpath.replace(corpus.CWD, work).replace(corpus.HOME, home)
        else:
            continue
        if isinstance(text, str) and text.startswith("->"):
            text = "->" + text[2:].replace(corpus.CWD, work).replace(corpus.HOME, home)
        elif isinstance(text, str) and "PRIVATE" in text:
            text = forms.DECOY
        out[real] = text
    return out


def profile_toml() -> str:
    """The corpus's policy as a profile (on the bundled _base)."""
    import tomlkit   # local: the profile is written only for a matrix run

    pol: dict[str, Any] = corpus.CORPUS_POLICY
    doc = tomlkit.document()
    doc["profile"] = {"extends": ["_base"]}
    policy = tomlkit.table()
    for k in ("on_error", "unresolved", "protect_agentdeck"):
        policy[k] = pol[k]
    aot = tomlkit.aot()
    for r in pol["rules"]:
        aot.append(tomlkit.item({k: v for k, v in r.items()}))
    policy["rules"] = aot
    paths = tomlkit.aot()
    for r in pol["paths"]:
        paths.append(tomlkit.item(dict(r)))
    policy["paths"] = paths
    doc["policy"] = policy
    return tomlkit.dumps(doc)


def judge(cases: list[Case], commands: list[str], records: list[dict]) -> dict[str, ClassResult]:
    """Each class's status from the turn's audit records (the pre-tool decisions)."""
    pre = [r for r in records if r.get("event") == "pre_tool_use"]
    by_class: dict[str, ClassResult] = {}
    for case, cmd in zip(cases, commands):
        rec = next((r for r in pre if (receipts.command_of(r) or "").strip() == cmd.strip()),
                   None)
        if rec is None:
            rec = next((r for r in pre if cmd.strip() in (receipts.command_of(r) or "")), None)
        decision = str(rec.get("decision")) if rec else None
        if decision is None:
            status = "not seen"
        elif case.expected == "allow":
            status = "held" if decision == "allow" else "over-blocked"
        elif decision == "allow":
            status = "not held"
        elif case.expected == "deny" and decision == "ask":
            status = "asked"
        else:
            status = "held"
        res = by_class.setdefault(case.cls, ClassResult("held"))
        res.cases.append({"command": case.command, "expected": case.expected,
                          "decision": decision, "rule": rec.get("rule") if rec else None,
                          "status": status})
        if ORDER.index(status) < ORDER.index(res.status):
            res.status = status
    return by_class


def _scratch_host(host: Host, root: Path) -> Host:
    """A host on a scratch home under `root`, with this agentdeck's handler first on PATH."""
    from . import runners   # local: as run_target's

    home = root / "home"
    host.mkdir(home, mode=0o700)
    # nothing that points at the operator's own homes: no XDG dir, no CLI home variable (each
    # CLI's home is then the scratch home's), no credential
    drop = runners.home_vars() | frozenset(runners.CREDENTIAL_VARS)
    env = {k: v for k, v in host.env.items() if not k.startswith("XDG_") and k not in drop}
    env["HOME"] = str(home)
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH') or '/usr/bin:/bin'}"
    h = Host.from_environment(home, env=env)
    h.osrelease_path = host.osrelease_path
    h.cwd = home
    return h


def run_target(host: Host, target: str, mid: str, cases: list[Case]) -> TargetMatrix:
    from .. import engine   # local: the matrix installs the corpus profile in a scratch home

    root = host.state_dir / "matrix" / mid / target
    try:
        h = _scratch_host(host, root)
        pdir = h.config_dir / "profiles" / PROFILE
        h.mkdir(pdir, mode=0o700)
        h.write_atomic(pdir / "profile.toml", profile_toml().encode(), mode=0o600)
        plan = engine.build_plan(h, PROFILE, [target], trust_hooks=True)
        if not engine.apply_plan(h, plan).ok:
            return TargetMatrix(target, None, "failed", problem="the corpus profile did not apply")
        rd = ready.check(h, PROFILE, target)
        if not isinstance(rd, ready.Ready):
            return TargetMatrix(target, rd.version, "skipped",
                                problem=rd.problems[0] if rd.problems else rd.status)
        commands: list[str] = []

        def make_trials(home: str, work: str) -> operator_rule.Trials:
            tmp = str(Path(work).parent / "matrix-tmp")
            commands[:] = [real_command(c, home, work, tmp) for c in cases]
            trial = operator_rule.Trial("matrix", "matrix", "", tuple(
                operator_rule.Form(c.cls, cmd, f"matrix-{i}.txt")
                for i, (c, cmd) in enumerate(zip(cases, commands))))
            tree = {tmp: None, **_tree(home, work, tmp)}
            return operator_rule.Trials([trial], tree=tree)

        keep: dict = {}
        rep = drill_target(h, PROFILE, rd, mid, isolation(h), _size(h, audit_path(h)),
                           make_trials=make_trials,
                           extra_seconds=SECONDS_PER_CALL * len(cases), keep=keep)
        if "records" not in keep:
            return TargetMatrix(target, rd.version, "failed",
                                problem=rep.problems[0] if rep.problems else "no turn ran")
        out = TargetMatrix(target, rd.version, "ok",
                           classes=judge(cases, commands, keep["records"]))
        if keep.get("run", {}).get("error") or keep.get("run", {}).get("timed_out"):
            out.problem = str(keep["run"].get("error") or "the turn timed out")
        return out
    except HostError as e:
        return TargetMatrix(target, None, "failed", problem=str(e))
    finally:
        scratch.remove(host, root)


def run(host: Host, targets: list[str],
        progress: Callable[[str, str], None] | None = None) -> list[TargetMatrix]:
    """The matrix of each target whose CLI is installed here (in parallel), recorded per CLI
    version in the drill's record."""
    mid = new_id().replace("drill-", "matrix-")
    cases = chosen()

    def one(t: str) -> TargetMatrix:
        if progress:
            progress(t, "running")
        m = run_target(host, t, mid, cases)
        if progress:
            progress(t, m.status)
        return m

    try:
        with ThreadPoolExecutor(max_workers=max(1, len(targets))) as pool:
            out = list(pool.map(one, targets))
    finally:
        scratch.remove(host, host.state_dir / "matrix" / mid)
        if not _entries(host):
            scratch.remove(host, host.state_dir / "matrix")
    now = time.time()
    record.save(host, [record.Entry(m.target, m.version, now, held(m), m.status,
                                    [m.problem] if m.problem else [], {},
                                    {k: c.status for k, c in m.classes.items()})
                       for m in out if m.version and m.status == "ok"])
    return out


def held(m: TargetMatrix) -> bool:
    """The guard held in this CLI's matrix: a turn ran and no class was let through or
    over-blocked (asked and not seen are no failure of the guard's)."""
    return m.status == "ok" and not any(c.status in ("not held", "over-blocked")
                                        for c in m.classes.values())


def _entries(host: Host) -> list[str]:
    try:
        return host.listdir(host.state_dir / "matrix")
    except (HostError, OSError):
        return []


def render(results: list[TargetMatrix]) -> str:
    """Rows: the classes; columns: each CLI and version."""
    heads = [f"{m.target} {m.version or ''}".strip() for m in results]
    classes: list[str] = []
    for m in results:
        for c in m.classes:
            if c not in classes:
                classes.append(c)
    w = max([len("class")] + [len(c) for c in classes])
    cw = max([12] + [len(h) for h in heads])
    lines = [f"{'class':<{w}}  " + "  ".join(f"{h:<{cw}}" for h in heads)]
    for c in classes:
        lines.append(f"{c:<{w}}  " + "  ".join(
            f"{(m.classes[c].status if c in m.classes else '-'):<{cw}}" for m in results))
    for m in results:
        if m.status != "ok" or m.problem:
            lines.append(f"{m.target}: {m.status}: {m.problem}")
    return "\n".join(lines) + "\n"


DOC_HEAD = """# Enforcement matrix

Generated by `scripts/enforcement_doc.py` from real offline turns (`agentdeck drill --matrix`):
do not edit by hand. CI re-runs the matrix with the pinned CLIs and fails when this page is
not what they do (tests/clients/test_enforcement_matrix_real.py).

Each CLI ran one turn against agentdeck's scripted model with the evasion corpus's own policy
installed by agentdeck in a scratch home (core/policy/corpus.py `CORPUS_POLICY`: an argv rule on
`rm -r -f`, one on `git push --force`, protected keys and `~/.ssh` files, agentdeck's
self-protection). The model made every call below through the CLI's shell tool; the hook's
audit lines say what each got.

- **held**: every case got the decision the corpus expects (a deny where an ask was expected
  counts as held: stricter), and the benign cases ran
- **asked**: a case the corpus denies was asked instead
- **not held**: a case the corpus denies or asks was allowed
- **over-blocked**: a benign case was denied or asked
- **not seen**: the hook never saw the call (the CLI refused it itself, or the call did not
  reach the shell): nothing is claimed for it
"""


def markdown(results: list[TargetMatrix], cases: list[Case]) -> str:
    """docs/enforcement.md: the table (class x CLI version), then the cases tried and what
    each CLI gave every case that was not held as expected."""
    ok = [m for m in results if m.status == "ok"]
    lines = [DOC_HEAD, "## Per class and CLI version", ""]
    lines.append("| class | " + " | ".join(f"{m.target} {m.version}" for m in ok) + " |")
    lines.append("|---|" + "---|" * len(ok))
    classes = list(dict.fromkeys(c.cls for c in cases))
    for cls in classes:
        lines.append(f"| {cls} | " + " | ".join(
            (m.classes[cls].status if cls in m.classes else "not tried") for m in ok) + " |")
    lines += ["", "## The cases", ""]
    for cls in classes:
        lines.append(f"- **{cls}**: " + "; ".join(
            f"`{_md(c.command)}` ({c.expected})" for c in cases if c.cls == cls))
    odd = [(m, cls, x) for m in ok for cls, res in m.classes.items() for x in res.cases
           if x["status"] != "held"]
    lines += ["", "## Cases not held as expected", ""]
    if not odd:
        lines.append("None.")
    for m, cls, x in odd:
        lines.append(f"- {m.target} {m.version}, {cls}: `{_md(x['command'])}` expected "
                     f"{x['expected']}, got {x['decision'] or 'no hook call'} ({x['status']})")
    for m in results:
        if m.status != "ok":
            lines.append(f"- {m.target}: no matrix ({m.status}: {m.problem})")
    return "\n".join(lines) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'").replace("\n", " ")
