"""agentdeck's speed, side by side: one command, one table of medians and ratios.

    python benchmarks/run.py                 # everything (first run builds two venvs: ~1 min)
    python benchmarks/run.py --only b,e      # some rows
    python benchmarks/run.py --runs 21       # more runs per pair (default 11)
    python benchmarks/run.py --big           # row c also applies 1,000 of each (minutes)

Rows (see docs/performance.md for the targets and the figures):
  a  agentdeck apply --target copilot --yes   vs  agentihooks init --target copilot (2.17.0);
     again with agentihooks' default as an operator profile, on its first apply
  b  agentdeck plan --json (all targets)      vs  python -c pass
  c  in-process plan, 10 / 100 / 1,000 MCP servers + as many skills and agents
  d  app start-up: first screen, plan shown   (benchmarks/app_startup.py)
  e  agentdeck-hook preToolUse (payload)      vs  python -c pass (same stdin)
  f  agentdeck doctor --live                  vs  the slowest single live probe
  g  in-process apply / plan / uninstall of 10 / 100 / 1,000 MCP servers (each target's file)
  h  agentdeck plan on a home whose settings.json is a FIFO (returns, one line)
  i  agentdeck drill: a real offline turn of each of the three CLIs (target <= 10 s wall)
  p  agentdeck-hook PreToolUse, 1 MB of secret-sounding words (issue 15: <= 0.2 s, line written)
  r  agentdeck-hook preToolUse with a 50-rule policy  vs  python -c reading the same stdin (<= 2x)
  s  agentdeck-hook preToolUse, 50 argv/path/regex rules (the shell parser runs)  vs  python -c pass (<= 2x)

Honesty rules: each pair runs alternately (A B, B A, A B, ...) so the machine's drift cancels;
every figure is a median; each process of rows a and b gets a fresh temp home (row e keeps one
home for the series: after the first event the state dir exists, as on a real machine). Wall
time is the figure; child CPU time (user+sys) is shown next to it because a loaded 2-core
machine inflates wall time.

Interpreters: both tools run in clean venvs under the cache dir (~/.cache/agentdeck-bench, or
$AGENTDECK_BENCH_CACHE), built from the Python running this script: agentdeck installed as an
operator installs it (a regular, non-editable install of a copy of this checkout, reinstalled
whenever the checkout's package files change; one venv per checkout), agentihooks==2.17.0 from
PyPI. The script re-runs itself inside the agentdeck venv, so `python -c pass` is that venv's
interpreter. A venv keeps the comparison fair: a shared site-packages can carry .pth files that
slow every interpreter start -- and so does an editable install, whose .pth loads its import
finder (pathlib, importlib.util, ...) into every interpreter of the venv: ~50 M instructions,
more than a bare `python -c pass` (~37 M), on both sides of rows b, e, r and s and on agentdeck's
side only of row a. `--here` skips the venv and measures the running interpreter instead.

agentihooks' own `uv tool install` is neutralized by a stand-in `uv` (exit 0) first on PATH.
Nothing here is a test: no timing is asserted anywhere in the test suite.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CACHE = Path(os.environ.get("AGENTDECK_BENCH_CACHE") or Path.home() / ".cache" / "agentdeck-bench")
AGENTIHOOKS = "agentihooks==2.17.0"
IN_VENV_FLAG = "--_in_venv"

#: the 12 events agentihooks 2.17.0 registers for Copilot, as agentdeck's canonical names
AIH_EVENTS = ["session_start", "session_end", "user_prompt_submit", "pre_tool_use",
              "post_tool_use", "post_tool_use_failure", "stop", "subagent_start",
              "subagent_stop", "pre_compact", "permission_request", "notification"]

HOOK_PAYLOAD = json.dumps({
    "timestamp": "2025-06-01T12:00:00.000Z", "session_id": "5f1c2a9e-0b7d-4f7e-9a51-3c1d2e4f5a6b",
    "cwd": "/home/dev/src/shop-api", "hook_event_name": "preToolUse", "tool_name": "bash",
    "tool_input": {"command": "git diff --stat HEAD~1 && pytest -q tests/unit -k cart",
                   "description": "Run the cart unit tests after the refactor"},
    "transcript_path": "/home/dev/.copilot/session-state/5f1c2a9e/events.jsonl",
}).encode()


# ---- environment -------------------------------------------------------------------------------
def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def venv_python(d: Path) -> Path:
    return d / "bin" / "python"


def ensure_venv(d: Path, requirement: list[str], marker: str) -> str | None:
    """Create venv `d` with `requirement` pip-installed (once; a marker records what). Returns
    None when ready, else why it could not be made."""
    mark = d / ".bench-installed"
    if mark.exists() and mark.read_text() == marker and venv_python(d).exists():
        return None
    log(f"building {d} ({' '.join(requirement)}) ...")
    shutil.rmtree(d, ignore_errors=True)
    r = subprocess.run([sys.executable, "-m", "venv", str(d)], capture_output=True, text=True)
    if r.returncode != 0:
        return f"python -m venv failed: {r.stderr.strip()[-300:]}"
    r = subprocess.run([str(venv_python(d)), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        *requirement], capture_output=True, text=True)
    if r.returncode != 0:
        err = [ln for ln in (r.stderr or r.stdout).splitlines() if "WARNING" not in ln]
        return f"pip install {' '.join(requirement)} failed: {' | '.join(err[-3:])}"
    mark.write_text(marker)
    return None


#: what a regular install of agentdeck is built from (pyproject's package-dir)
PACKAGE_PARTS = ("pyproject.toml", "README.md", "core", "app", "profiles")


def package_files() -> list[Path]:
    """The checkout's files a regular install is built from (no caches)."""
    out: list[Path] = []
    for part in PACKAGE_PARTS:
        p = REPO / part
        if p.is_file():
            out.append(p)
        elif p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.is_file() and "__pycache__" not in f.parts
                          and f.suffix != ".pyc")
    return out


def tree_digest() -> str:
    h = hashlib.sha256()
    for f in package_files():
        h.update(str(f.relative_to(REPO)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def install_checkout(d: Path) -> str | None:
    """(Re)install this checkout into venv `d` as a regular package when its files changed since
    the last install: from a copy (setuptools then writes its build/ and egg-info there, not in
    the checkout), without build isolation (the venv has setuptools). None when ready."""
    mark = d / ".bench-checkout"
    digest = tree_digest()
    if mark.exists() and mark.read_text() == digest:
        return None
    log(f"installing {REPO} into {d} (a regular install of the checkout as it is now) ...")
    with tempfile.TemporaryDirectory(prefix="agentdeck-bench-src-") as tmp:
        src = Path(tmp) / "agentdeck"
        src.mkdir()
        for f in package_files():
            dest = src / f.relative_to(REPO)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, dest)
        r = subprocess.run([str(venv_python(d)), "-m", "pip", "install", "-q", "--no-deps",
                            "--force-reinstall", "--no-build-isolation",
                            "--disable-pip-version-check", str(src)], capture_output=True, text=True)
    if r.returncode != 0:
        err = [ln for ln in (r.stderr or r.stdout).splitlines() if "WARNING" not in ln]
        return f"pip install of the checkout failed: {' | '.join(err[-3:])}"
    mark.write_text(digest)
    return None


def reexec_in_venv(argv: list[str]) -> None:
    # one venv per checkout: two worktrees benchmarked at once do not reinstall each other's
    d = CACHE / f"agentdeck-venv-{hashlib.sha256(str(REPO).encode()).hexdigest()[:8]}"
    deps = hashlib.sha256((REPO / "pyproject.toml").read_bytes()).hexdigest()[:12]
    # the dependencies once (pyproject's, and setuptools to build with), then the checkout
    # reinstalled whenever its files change
    import tomllib
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    requirement = [*pyproject["build-system"]["requires"], *pyproject["project"]["dependencies"]]
    why = ensure_venv(d, requirement, f"deps of {REPO} pyproject {deps}")
    why = why or install_checkout(d)
    if why:
        sys.exit(f"benchmarks: cannot build the agentdeck venv: {why} (or run with --here)")
    py = venv_python(d)
    os.execv(str(py), [str(py), str(Path(__file__).resolve()), *argv, IN_VENV_FLAG])


def bindir() -> Path:
    return Path(sys.executable).parent


def tool(name: str) -> list[str]:
    """The console script next to this interpreter, as an operator runs it."""
    exe = bindir() / name
    if exe.exists():
        return [str(exe)]
    mod = {"agentdeck": "agentdeck.core.cli", "agentdeck-hook": "agentdeck.core.hookhandler"}[name]
    return [sys.executable, "-c", f"import sys; from {mod} import main; sys.exit(main())"]


def clean_env(home: Path, path_first: list[Path] = ()) -> dict[str, str]:
    """The environment of one timed process: HOME is the fresh home; no XDG, CLI-home or
    agentdeck/agentihooks variables leak in from the machine."""
    drop = ("XDG_", "AGENTDECK_", "AGENTIHOOKS_", "COPILOT_", "CODEX_", "CLAUDE_", "QWEN_",
            "VIRTUAL_ENV", "PYTHON")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env["HOME"] = str(home)
    env["PATH"] = os.pathsep.join([*(str(p) for p in path_first), str(bindir()),
                                   "/usr/local/bin", "/usr/bin", "/bin"])
    return env


# ---- timing ------------------------------------------------------------------------------------
@dataclass
class Sample:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    @property
    def med(self) -> float:
        return statistics.median(self.wall)

    @property
    def cpu_med(self) -> float:
        return statistics.median(self.cpu) if self.cpu else float("nan")


def timed(argv: list[str], env: dict, *, stdin: bytes | None = None, cwd: Path | None = None,
          ok: tuple[int, ...] = (0,), timeout: float = 600) -> tuple[float, float]:
    """(wall seconds, child CPU seconds) of one process run to completion."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(argv, input=stdin, capture_output=True, env=env, cwd=cwd,
                       stdin=None if stdin is not None else subprocess.DEVNULL, timeout=timeout)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode not in ok:
        raise RuntimeError(f"{' '.join(argv[:4])} exited {r.returncode}: "
                           f"{(r.stderr or r.stdout).decode(errors='replace').strip()[-400:]}")
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def alternate(runs: int, a, b) -> tuple[Sample, Sample]:
    """Run a() and b() `runs` times each, alternating which goes first; each returns
    (wall, cpu). One untimed warm-up of each first (page cache, .pyc)."""
    a()
    b()
    sa, sb = Sample(), Sample()
    for i in range(runs):
        order = ((a, sa), (b, sb)) if i % 2 == 0 else ((b, sb), (a, sa))
        for fn, s in order:
            w, c = fn()
            s.wall.append(w)
            s.cpu.append(c)
    return sa, sb


# ---- the table ---------------------------------------------------------------------------------
@dataclass
class Row:
    key: str
    what: str
    value: str
    versus: str = ""
    vs_value: str = ""
    ratio: str = ""
    cpu: str = ""
    target: str = ""
    met: str = ""


def ms(s: float) -> str:
    return f"{s * 1000:.0f} ms" if s < 10 else f"{s:.1f} s"


def verdict(ok: bool, basis: str) -> str:
    """met or not, and on what: "wall" (elapsed time, which a loaded machine inflates) or "CPU"
    (the processes' user+sys time)."""
    return f"{'yes' if ok else 'NO'} ({basis})"


def pair_row(key: str, what: str, versus: str, sa: Sample, sb: Sample, limit: float,
             target: str) -> Row:
    ratio, cpu_ratio = sa.med / sb.med, sa.cpu_med / sb.cpu_med
    return Row(key, what, ms(sa.med), versus, ms(sb.med), f"{ratio:.2f}x",
               f"{ms(sa.cpu_med)} / {ms(sb.cpu_med)} = {cpu_ratio:.2f}x",
               target, f"{verdict(ratio <= limit, 'wall')}, {verdict(cpu_ratio <= limit, 'CPU')}")


def not_run(key: str, what: str, why: str, target: str) -> Row:
    return Row(key, what, "not run", target=target, met=f"n/a: {why}")


# ---- a: apply vs agentihooks init --------------------------------------------------------------
def aih_paths() -> tuple[Path, Path]:
    d = CACHE / "agentihooks-2.17.0"
    return d, d / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"


def equivalent_profile(dest: Path, aih_site: Path, aih_python: Path) -> None:
    """An agentdeck operator profile holding what agentihooks' built-in `default` profile
    installs for Copilot: its persona (CLAUDE.md) and rule compiled into the instructions, its 4
    package skills, its MCP server, its statusLine setting and hooks on the same 12 events."""
    prof = aih_site / "profiles"
    dest.mkdir(parents=True)
    (dest / "profile.toml").write_text(
        "[profile]\n"
        'description = "what agentihooks 2.17.0 default installs for Copilot"\n'
        'targets = ["copilot"]\n\n'
        "[hooks]\n"
        'command = "agentdeck-hook"\n'
        f"events = {json.dumps(AIH_EVENTS)}\n"
        "timeout = 30\n")
    shutil.copy(prof / "default" / "CLAUDE.md", dest / "AGENTS.md")
    shutil.copytree(prof / "package" / "rules", dest / "rules")
    shutil.copytree(prof / "package" / "skills", dest / "skills")
    (dest / "mcp.json").write_text(json.dumps({"mcpServers": {"agentihooks": {
        "type": "local", "command": str(aih_python), "args": ["-m", "hooks.mcp"]}}}, indent=2))
    (dest / "copilot").mkdir()
    (dest / "copilot" / "settings.json").write_text(json.dumps({"statusLine": {
        "type": "command", "command": f"{aih_python} -m hooks.statusline"}}, indent=2))


def row_a(runs: int) -> list[Row]:
    """Two lines, each alternated with `agentihooks init --target copilot` on a fresh home:
    the command an operator runs first, `agentdeck apply --target copilot --yes` (the bundled
    default profile: persona, rules, a skill, an agent, a command, MCP servers, settings, hooks
    and a compiled policy), and the same apply of an operator profile holding what agentihooks'
    own default installs, on its first apply (a profile agentdeck has not seen: pydantic
    validates it; from the second apply on it is read from the profile cache)."""
    what, target = "agentdeck apply --target copilot --yes", "ratio <= 0.5"
    versus = "agentihooks init --target copilot"
    venv, site = aih_paths()
    why = ensure_venv(venv, [AGENTIHOOKS], AGENTIHOOKS)
    if why:
        return [not_run("a", what, why, target)]
    aih = venv / "bin" / "agentihooks"
    stub = CACHE / "stub-bin"
    stub.mkdir(parents=True, exist_ok=True)
    (stub / "uv").write_text("#!/bin/sh\n# stand-in: agentihooks' `uv tool install` does nothing\nexit 0\n")
    (stub / "uv").chmod(0o755)
    template = Path(tempfile.mkdtemp(prefix="agentdeck-bench-profile-"))
    equivalent_profile(template / "agentihooks-equivalent", site, venv_python(venv))

    def ours(profile: str | None):
        def run():
            with tempfile.TemporaryDirectory(prefix="bench-a-") as h:
                home = Path(h)
                extra: list[str] = []
                if profile:
                    shutil.copytree(template, home / ".config" / "agentdeck" / "profiles")
                    extra = ["--profile", profile]
                return timed([*tool("agentdeck"), "apply", "--target", "copilot", "--yes",
                              *extra, "--home", str(home)], clean_env(home), cwd=home)
        return run

    def theirs():
        with tempfile.TemporaryDirectory(prefix="bench-a-") as h:
            home = Path(h)
            return timed([str(aih), "init", "--target", "copilot"],
                         clean_env(home, [stub, venv / "bin"]), cwd=home)

    rows = []
    try:
        for profile, label, limit, goal in (
                (None, what, 0.5, target),
                ("agentihooks-equivalent", "  the same, agentihooks' default as an operator profile, "
                 "first apply (pydantic validates it)", None, "(no target)")):
            sa, sb = alternate(runs, ours(profile), theirs)
            row = pair_row("a", label, versus, sa, sb, limit or 0.0, goal)
            if limit is None:
                row.met = ""
            rows.append(row)
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        return [*rows, not_run("a", what, str(e)[:300], target)]
    finally:
        shutil.rmtree(template, ignore_errors=True)
    return rows


# ---- b: plan --json vs python -c pass ----------------------------------------------------------
def bare(stdin: bytes | None = None):
    def run():
        with tempfile.TemporaryDirectory(prefix="bench-py-") as h:
            return timed([sys.executable, "-c", "pass"], clean_env(Path(h)), stdin=stdin)
    return run


def row_b(runs: int) -> Row:
    def plan():
        with tempfile.TemporaryDirectory(prefix="bench-b-") as h:
            return timed([*tool("agentdeck"), "plan", "--json", "--home", h], clean_env(Path(h)),
                         ok=(0, 2))
    sa, sb = alternate(runs, plan, bare())
    return pair_row("b", "agentdeck plan --json (fresh home)", "python -c pass", sa, sb, 10,
                    "<= 10x")


# ---- c: plan growth ----------------------------------------------------------------------------
def rows_c(rounds: int, big: bool) -> list[Row]:
    applied = "10,100,1000" if big else "10,100"
    r = subprocess.run([sys.executable, str(REPO / "benchmarks" / "workers.py"), "growth",
                        "--sizes", "10,100,1000", "--rounds", str(rounds), "--applied", applied],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return [not_run("c", "plan growth", (r.stderr or r.stdout).strip()[-300:],
                        "1,000 in <= 1 s")]
    d = json.loads(r.stdout)
    med = {int(n): statistics.median(v) for n, v in d["times"].items()}
    rows = []
    prev = None
    for n in sorted(med):
        items = d["items"][str(n)]
        growth = f"x{med[n] / med[prev]:.1f} for x{n // prev}" if prev else ""
        ok = None if n != 1000 else med[n] <= 1.0 and med[n] / med[prev] <= 12
        rows.append(Row("c", f"plan {n} servers+skills+agents, fresh home ({items} items)",
                        ms(med[n]), "", "", growth, f"{med[n] / n * 1e6:.0f} us per server",
                        "<= 1 s, ~linear" if n == 1000 else "", "" if ok is None else verdict(ok, "wall")))
        prev = n
    prev = None
    for n in sorted(int(x) for x in d["apply"]):
        secs = d["apply"][str(n)]
        growth = f"x{secs / d['apply'][str(prev)]:.1f} for x{n // prev}" if prev else ""
        rows.append(Row("c", f"apply {n} servers+skills+agents, fresh home (once)", ms(secs), "",
                        "", growth, "", "(no target)"))
        prev = n
    prev = None
    for n in sorted(int(x) for x in d["in_sync"]):
        secs = statistics.median(d["in_sync"][str(n)])
        growth = (f"x{secs / statistics.median(d['in_sync'][str(prev)]):.1f} for x{n // prev}"
                  if prev else "")
        rows.append(Row("c", f"plan {n} servers+skills+agents, applied home (in sync)", ms(secs),
                        "", "", growth, "", "(no target)"))
        prev = n
    return rows


# ---- g: MCP servers, apply / plan / uninstall (issue 12.6) ------------------------------------
def rows_g(rounds: int) -> list[Row]:
    """Apply, plan of the applied home and uninstall of 10 / 100 / 1,000 MCP servers on a fresh
    home: all three targets together (each one's file: mcp-config.json, config.toml,
    .claude.json), then each target alone at 1,000."""
    def run(sizes: str, targets: str) -> dict | str:
        r = subprocess.run([sys.executable, str(REPO / "benchmarks" / "workers.py"), "mcp",
                            "--sizes", sizes, "--targets", targets, "--rounds", str(rounds)],
                           capture_output=True, text=True)
        return json.loads(r.stdout) if r.returncode == 0 else (r.stderr or r.stdout).strip()[-300:]

    d = run("10,100,1000", "copilot,codex,claude")
    if isinstance(d, str):
        return [not_run("g", "apply/uninstall of N MCP servers", d, "1,000 in <= 2 s")]
    rows = []
    for what, key, limit in (("apply", "apply", 2.0), ("uninstall", "uninstall", 2.0)):
        prev = None
        for n in (10, 100, 1000):
            secs = d[key][str(n)]
            growth = f"x{secs / d[key][str(prev)]:.1f} for x{n // prev}" if prev else ""
            ok = None if n != 1000 else secs <= limit and secs / d[key]["100"] <= 12
            rows.append(Row("g", f"{what} {n} MCP servers, all targets, fresh home (once)", ms(secs),
                            "", "", growth, "",
                            "<= 2 s, x10 costs <= x12" if n == 1000 else "",
                            "" if ok is None else verdict(ok, "wall")))
            prev = n
    plan = statistics.median(d["plan"]["1000"])
    rows.append(Row("g", "plan of the applied 1,000-server home (in sync)", ms(plan), "", "",
                    f"x{plan / statistics.median(d['plan']['100']):.1f} for x10", "", "<= 0.6 s",
                    verdict(plan <= 0.6, "wall")))
    for target in ("copilot", "codex", "claude"):
        t = run("1000", target)
        if isinstance(t, str):
            rows.append(not_run("g", f"{target} alone, 1,000 servers", t, ""))
            continue
        rows.append(Row("g", f"  {target} alone, 1,000 servers: apply / plan / uninstall",
                        f"{ms(t['apply']['1000'])} / {ms(statistics.median(t['plan']['1000']))} / "
                        f"{ms(t['uninstall']['1000'])}", "", "", "", "", "(no target)"))
    return rows


# ---- h: a home with a FIFO (issue 15) -----------------------------------------------------------
def row_h(runs: int) -> Row:
    """`agentdeck plan` on a home whose Copilot settings.json is a FIFO: it must return (exit
    1, one line naming the file) instead of waiting for a writer forever. Against: the same plan
    with settings.json a regular file (what start-up and planning cost on this machine now)."""
    what = "plan of a home with a FIFO settings.json (exit 1, one line)"
    with tempfile.TemporaryDirectory(prefix="agentdeck-fifo-") as tmp:
        fifo, plain = Path(tmp) / "fifo", Path(tmp) / "plain"
        for h in (fifo, plain):
            (h / ".copilot").mkdir(parents=True)
        os.mkfifo(fifo / ".copilot" / "settings.json")
        (plain / ".copilot" / "settings.json").write_text("{}\n")
        bad: list[str] = []

        def run(home: Path, want: int):
            def go():
                r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                try:
                    r = subprocess.run(tool("agentdeck") + ["plan", "--home", str(home)],
                                       env=clean_env(home), capture_output=True, text=True,
                                       timeout=10, stdin=subprocess.DEVNULL)
                except subprocess.TimeoutExpired:
                    bad.append("hung (> 10 s)")
                    return 10.0, 0.0
                wall = time.perf_counter() - t0
                r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
                if want == 1 and (r.returncode != 1 or len(lines) != 1 or "settings.json" not in lines[0]):
                    bad.append(f"exit {r.returncode}: {r.stderr[-120:]!r}")
                return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
            return go
        sa, sb = alternate(runs, run(fifo, 1), run(plain, 2))
    if bad:
        return Row("h", what, ms(sa.med), "", "", "", "", "<= 1 s, one-line error", f"NO ({bad[0]})")
    return Row("h", what, ms(sa.med), "same home, settings.json a file", ms(sb.med),
               f"{sa.med / sb.med:.2f}x", f"{ms(sa.cpu_med)} cpu", "<= 1 s, one-line error",
               verdict(sa.med <= 1.0, "wall"))


# ---- d: app start-up ---------------------------------------------------------------------------
def rows_d(runs: int) -> list[Row]:
    """benchmarks/app_startup.py (the app's own benchmark: fresh process per run, headless at
    120x40, on a fresh demo home and on a fresh empty home), its medians parsed from its table."""
    import re

    script = REPO / "benchmarks" / "app_startup.py"
    targets = {"first screen": ("first screen <= 0.6 s", 0.6), "plan shown": ("plan shown <= 1 s", 1.0)}
    if not script.exists():
        return [not_run("d", f"app: {m}", "benchmarks/app_startup.py is not there", t)
                for m, (t, _) in targets.items()]
    r = subprocess.run([sys.executable, str(script), "--runs", str(runs)], capture_output=True,
                       text=True, timeout=3600)
    found = re.findall(r"^(demo|empty)\s+(first screen|plan shown)\s+(\d+)ms", r.stdout, re.M)
    if r.returncode != 0 or not found:
        why = (r.stderr or r.stdout).strip()[-300:]
        return [not_run("d", "app start-up", why, "first screen <= 0.6 s, plan <= 1 s")]
    rows = []
    for home, moment, med in found:
        secs = int(med) / 1000
        target, limit = targets[moment]
        rows.append(Row("d", f"app: {moment} ({home} home; process start to "
                        + ("main screen mounted)" if moment == "first screen" else "plan in the panes)"),
                        ms(secs), target=target, met=verdict(secs <= limit, "wall")))
    return rows


# ---- e: hook handler ---------------------------------------------------------------------------
def row_e(runs: int) -> Row:
    """One home for the whole series, as on a real machine: after the first event the state
    dir exists and each call appends one line to audit.jsonl."""
    with tempfile.TemporaryDirectory(prefix="bench-e-") as h:
        env = clean_env(Path(h))

        def hook():
            return timed([*tool("agentdeck-hook"), "preToolUse"], env, stdin=HOOK_PAYLOAD)

        def py():
            return timed([sys.executable, "-c", "pass"], env, stdin=HOOK_PAYLOAD)

        sa, sb = alternate(runs, hook, py)
        lines = (Path(h) / ".local" / "state" / "agentdeck" / "audit.jsonl").read_text().splitlines()
        if len(lines) != runs + 1:
            raise RuntimeError(f"expected {runs + 1} audit lines, found {len(lines)}")
    return pair_row("e", "agentdeck-hook preToolUse (Copilot payload on stdin)",
                    "python -c pass", sa, sb, 2, "<= 2x")


# ---- p: hook handler on a padded payload -----------------------------------------------------
def big_payload(size: int = 1_000_000) -> bytes:
    """A Claude-shaped PreToolUse whose command is `size` bytes of the words the old redactor was
    quadratic on, joined into one long identifier (its worst case) and as separate words."""
    words = "token_password_apikey_secret_api_key_PASSWORD_Bearer_x_"
    half = size // 2
    glued = (words * (half // len(words) + 1))[:half]
    spaced = (words.replace("_", " ") * (half // len(words) + 1))[:size - half]
    return json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                       "cwd": "/r", "tool_input": {"command": glued + spaced}}).encode()


def row_p(runs: int) -> Row:
    payload = big_payload()
    with tempfile.TemporaryDirectory(prefix="bench-g-") as h:
        env = clean_env(Path(h))

        def hook():
            return timed([*tool("agentdeck-hook"), "PreToolUse"], env, stdin=payload)

        sample = Sample()
        hook()
        for _ in range(runs):
            w, c = hook()
            sample.wall.append(w)
            sample.cpu.append(c)
        lines = (Path(h) / ".local" / "state" / "agentdeck" / "audit.jsonl").read_text().splitlines()
        if len(lines) != runs + 1:
            raise RuntimeError(f"expected {runs + 1} audit lines, found {len(lines)}")
    return Row("p", f"agentdeck-hook PreToolUse, {len(payload) // 1000} kB of secret-sounding words",
               ms(sample.med), cpu=f"{ms(sample.cpu_med)} cpu", target="<= 0.2 s, line written",
               met=verdict(sample.med <= 0.2, "wall"))


# ---- r: hook handler deciding with 50 rules --------------------------------------------------
def fifty_rules() -> dict:
    """A compiled policy of 50 rules over every class (none matches HOOK_PAYLOAD's command, so
    every rule of its class is searched: the allow path is the slow one)."""
    classes = ["shell", "read", "write", "mcp", "web"]
    rules = [{"id": f"r{i}", "tool": classes[i % 5], "match": rf"\bforbidden-{i}\b|secret{i}\.pem$",
              "decision": "deny" if i % 3 else "ask", "reason": f"rule {i}"} for i in range(50)]
    return {"format": 1, "target": "copilot", "on_error": "deny", "rules": rules}


def row_r(runs: int) -> Row:
    with tempfile.TemporaryDirectory(prefix="bench-h-") as h:
        env = clean_env(Path(h))
        state = Path(h) / ".local" / "state" / "agentdeck"
        (state / "policy").mkdir(parents=True)
        (state / "policy" / "copilot.json").write_text(json.dumps(fifty_rules()))
        env.update(AGENTDECK_TARGET="copilot", AGENTDECK_STATE_DIR=str(state))

        def hook():
            return timed([*tool("agentdeck-hook"), "preToolUse"], env, stdin=HOOK_PAYLOAD)

        def py():
            return timed([sys.executable, "-c", "import sys; sys.stdin.buffer.read()"], env,
                         stdin=HOOK_PAYLOAD)

        sa, sb = alternate(runs, hook, py)
        last = json.loads((state / "audit.jsonl").read_text().splitlines()[-1])
        if last.get("decision") != "allow":
            raise RuntimeError(f"expected an allow decision, got {last.get('decision')!r}")
    return pair_row("r", "agentdeck-hook preToolUse, 50-rule compiled policy (decides)",
                    "python -c reading stdin", sa, sb, 2, "<= 2x")


# ---- s: the same, with argv and protected-path rules (the shell parser runs) ------------------
def fifty_shell_rules() -> dict:
    """50 rules that make the handler parse the command: 20 argv rules, 15 [[policy.paths]]
    rules, 15 regex rules (none matches HOOK_PAYLOAD's command: the allow path)."""
    names = ["rm", "git", "dd", "mkfs", "shred", "chmod", "chown", "curl", "wget", "scp"]
    rules = [{"id": f"a{i}", "tool": "shell", "command": [names[i % 10]],
              "args": [f"--forbidden-{i}|-Z"], "decision": "deny", "reason": f"rule {i}"}
             for i in range(20)]
    rules += [{"id": f"x{i}", "tool": "shell", "match": rf"\bforbidden-{i}\b",
               "decision": "deny", "reason": f"rule {i}"} for i in range(15)]
    paths = [{"id": f"p{i}", "paths": [f"~/.secret{i}/**", f"~/.ssh/key{i}_*"], "except": [],
              "access": ["read", "write"], "decision": "deny", "reason": f"path {i}"}
             for i in range(15)]
    return {"format": 2, "target": "copilot", "on_error": "deny", "unresolved": "ask",
            "rules": rules, "paths": paths}


def row_s(runs: int) -> Row:
    with tempfile.TemporaryDirectory(prefix="bench-s-") as h:
        env = clean_env(Path(h))
        state = Path(h) / ".local" / "state" / "agentdeck"
        (state / "policy").mkdir(parents=True)
        (state / "policy" / "copilot.json").write_text(json.dumps(fifty_shell_rules()))
        env.update(AGENTDECK_TARGET="copilot", AGENTDECK_STATE_DIR=str(state))

        def hook():
            return timed([*tool("agentdeck-hook"), "preToolUse"], env, stdin=HOOK_PAYLOAD)

        def py():
            return timed([sys.executable, "-c", "pass"], env, stdin=HOOK_PAYLOAD)

        sa, sb = alternate(runs, hook, py)
        last = json.loads((state / "audit.jsonl").read_text().splitlines()[-1])
        if last.get("decision") != "allow":
            raise RuntimeError(f"expected an allow decision, got {last.get('decision')!r}")
    return pair_row("s", "agentdeck-hook preToolUse, 50 argv/path/regex rules, shell parser",
                    "python -c pass", sa, sb, 2, "<= 2x")


# ---- f: doctor --live --------------------------------------------------------------------------
def row_f(runs: int) -> list[Row]:
    what, target = "agentdeck doctor --live (all targets)", "<= 1.3x"
    sys.path.insert(0, str(REPO / "tests" / "clients"))
    try:
        from clientkit import install_all, scratch_host
    except ImportError as e:
        return [not_run("f", what, f"tests/clients/clientkit.py: {e}", target)]
    clients = install_all()
    missing = {t: w for t, w in clients.failures.items()}
    if missing:
        return [not_run("f", what, "real CLIs not installed: "
                        + "; ".join(f"{t}: {w}" for t, w in missing.items()), target)]
    base = Path(tempfile.mkdtemp(prefix="bench-f-"))
    try:
        host = scratch_host(base, clients)
        env = dict(host.env)
        env["PATH"] = f"{bindir()}{os.pathsep}{env['PATH']}"
        # a realistic home: the default profile applied for every target
        timed([*tool("agentdeck"), "apply", "--yes"], env)
        env_file = base / "env.json"
        env_file.write_text(json.dumps(env))
        per_probe: dict[str, list[float]] = {}
        probe_cpu: dict[str, list[float]] = {}

        def doctor():
            return timed([*tool("agentdeck"), "doctor", "--live"], env, ok=(0, 1, 2),
                         cwd=host.home)

        def probes():
            r = subprocess.run([sys.executable, str(REPO / "benchmarks" / "workers.py"), "probes",
                                "--home", str(host.home), "--env-json", str(env_file)],
                               capture_output=True, text=True, env=env, cwd=host.home)
            if r.returncode != 0:
                raise RuntimeError(r.stderr.strip()[-400:])
            d = json.loads(r.stdout)
            bad = {k: v for k, v in d.items() if v["skipped"]}
            if bad:
                raise RuntimeError("probe skipped: " + "; ".join(f"{k}: {v['skipped']}"
                                                                 for k, v in bad.items()))
            for k, v in d.items():
                per_probe.setdefault(k, []).append(v["seconds"])
                probe_cpu.setdefault(k, []).append(v["cpu"])
            slowest = max(d.values(), key=lambda v: v["seconds"])
            return slowest["seconds"], float("nan")

        try:
            sa, _ = alternate(runs, doctor, probes)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            return [not_run("f", what, str(e)[:300], target)]
    finally:
        shutil.rmtree(base, ignore_errors=True)
    meds = {k: statistics.median(v[1:]) for k, v in per_probe.items()}   # [0] is the warm-up
    cpus = {k: statistics.median(v[1:]) for k, v in probe_cpu.items()}
    name, slow = max(meds.items(), key=lambda kv: kv[1])
    ratio = sa.med / slow
    detail = ", ".join(f"{k} {ms(v)} ({ms(cpus[k])} cpu)"
                       for k, v in sorted(meds.items(), key=lambda kv: -kv[1]))
    log(f"f: probe medians: {detail}")
    floor = sum(cpus.values()) / (os.cpu_count() or 1)
    return [Row("f", what, ms(sa.med), f"slowest probe alone: {name}", ms(slow), f"{ratio:.2f}x",
                f"{ms(sa.cpu_med)} cpu", target, verdict(ratio <= 1.3, "wall")),
            Row("f", f"  the {len(cpus)} probes' CLIs need {ms(sum(cpus.values()))} cpu: on "
                     f"{os.cpu_count()} cores no run of them all can take less than",
                ms(floor), "", "", f"{floor / slow:.2f}x", "", "(the floor)")]


# ---- i: the drill ------------------------------------------------------------------------------
def row_i(runs: int) -> list[Row]:
    """`agentdeck drill`: one real offline turn of each CLI (in parallel) against agentdeck's
    scripted model server, on a home with the default profile applied (Codex hooks trusted)."""
    what, target = "agentdeck drill (copilot, codex, claude)", "<= 10 s"
    sys.path.insert(0, str(REPO / "tests" / "clients"))
    try:
        from clientkit import install_all, scratch_host
    except ImportError as e:
        return [not_run("i", what, f"tests/clients/clientkit.py: {e}", target)]
    clients = install_all()
    if clients.failures:
        return [not_run("i", what, "real CLIs not installed: " + "; ".join(
            f"{t}: {w}" for t, w in clients.failures.items()), target)]
    base = Path(tempfile.mkdtemp(prefix="bench-i-"))
    per_cli: dict[str, list[float]] = {}
    try:
        host = scratch_host(base, clients)
        env = dict(host.env)
        env["PATH"] = f"{bindir()}{os.pathsep}{env['PATH']}"
        timed([*tool("agentdeck"), "apply", "--yes", "--trust-hooks"], env)
        sample = Sample()
        for n in range(runs + 1):                       # [0] is the warm-up
            t0 = time.perf_counter()
            r = subprocess.run([*tool("agentdeck"), "drill", "--json"], capture_output=True,
                               text=True, env=env, cwd=host.home, timeout=300)
            wall = time.perf_counter() - t0
            if r.returncode != 0:
                return [not_run("i", what, f"drill exited {r.returncode}: "
                                + r.stdout.strip()[-300:], target)]
            if n:
                sample.wall.append(wall)
                for t, v in json.loads(r.stdout)["targets"].items():
                    per_cli.setdefault(t, []).append(v["seconds"])
    finally:
        shutil.rmtree(base, ignore_errors=True)
    detail = ", ".join(f"{t} {ms(statistics.median(v))}" for t, v in per_cli.items())
    log(f"i: per CLI (median turn, the three run at once): {detail}")
    return [Row("i", what, ms(sample.med), "per CLI turn (parallel)", detail, "", "", target,
                verdict(sample.med <= 10, "wall"))]


# ---- main --------------------------------------------------------------------------------------
def machine() -> str:
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{os.cpu_count()} cpus ({model}), Python {platform.python_version()} "
            f"({sys.executable}), {platform.system()} {platform.release()}, load average {load}")


def interpreter_label(here: bool) -> str:
    """What the table measured agentdeck with: the clean venv (the default) or, with --here,
    whatever interpreter ran the script."""
    if here:
        return (f"--here: the running interpreter ({sys.executable}), NOT a clean install: "
                "whatever its site-packages and .pth files load is measured too")
    return (f"clean venv ({sys.prefix}): this checkout installed as a regular package, "
            "as a user installs it")


def print_table(rows: list[Row], here: bool) -> None:
    print(f"agentdeck measured in {interpreter_label(here)}")
    head = Row("", "measured (--here)" if here else "measured", "median", "against", "median",
               "ratio", "cpu (user+sys)", "target", "met")
    cols = ["key", "what", "value", "versus", "vs_value", "ratio", "cpu", "target", "met"]
    widths = {c: max(len(getattr(r, c)) for r in [head, *rows]) for c in cols}
    for r in [head, *rows]:
        print("  ".join(getattr(r, c).ljust(widths[c]) for c in cols).rstrip())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=11, help="runs per side of each pair (default 11)")
    ap.add_argument("--only", default="abcdefghiprs", help="rows to run, e.g. b,e (default: all)")
    ap.add_argument("--big", action="store_true",
                    help="row c also applies 1,000 servers+skills+agents (minutes: see the doc)")
    ap.add_argument("--here", action="store_true",
                    help="measure the running interpreter instead of the clean agentdeck venv")
    ap.add_argument(IN_VENV_FLAG, action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if not a.here and not a._in_venv:
        reexec_in_venv([x for x in sys.argv[1:]])
    only = set(a.only.replace(",", ""))
    started = time.time()
    print(f"machine: {machine()}")
    print(f"agentdeck: {REPO} at {git_rev()}; {a.runs} runs per side, alternated; medians\n")
    rows: list[Row] = []
    steps = [("b", lambda: [row_b(a.runs)]), ("e", lambda: [row_e(a.runs)]), ("p", lambda: [row_p(a.runs)]),
             ("r", lambda: [row_r(a.runs)]),
             ("s", lambda: [row_s(a.runs)]),
             ("a", lambda: row_a(a.runs)), ("c", lambda: rows_c(max(3, a.runs // 2), a.big)),
             ("d", lambda: rows_d(a.runs)), ("f", lambda: row_f(max(3, a.runs // 2))),
             ("g", lambda: rows_g(max(3, a.runs // 2))), ("h", lambda: [row_h(a.runs)]),
             ("i", lambda: row_i(max(3, a.runs // 2)))]
    for key, fn in steps:
        if key in only:
            log(f"row {key} ...")
            rows += fn()
    rows.sort(key=lambda r: r.key)
    print_table(rows, a.here)
    print(f"\n({time.time() - started:.0f} s; load average at the end "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())})")


def git_rev() -> str:
    r = subprocess.run(["git", "-C", str(REPO), "describe", "--always", "--dirty"],
                       capture_output=True, text=True)
    return r.stdout.strip() or "?"


if __name__ == "__main__":
    main()
