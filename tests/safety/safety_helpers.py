"""Shared helpers of the safety suite: homes (fresh, messy), byte-exact snapshots that leave out
agentdeck's own state directory, and ways to run the CLI (in-process, or as a real process that
can be killed)."""
from __future__ import annotations

import functools

import contextlib
import io
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from agentdeck.core import cli, demo, targets
from agentdeck.core.host import Host
from tests.conftest import _HOME_VARS, snapshot_tree

REPO = Path(__file__).resolve().parents[2]


def available() -> list[str]:
    return targets.available()


def require(*names: str) -> None:
    """A test about one CLI's own file fails, never skips, when that CLI's target is gone from
    the registry: a removed target package must not leave `pytest tests/safety` green."""
    missing = [n for n in names if n not in available()]
    if missing:
        pytest.fail(f"target {', '.join(missing)} is not in the registry; this test checks its "
                    "files", pytrace=False)


def needs(*names: str):
    """Decorator form of require()."""
    def deco(fn):
        @functools.wraps(fn)
        def run(*args, **kwargs):
            require(*names)
            return fn(*args, **kwargs)
        return run
    return deco


def target_sets() -> list[tuple[str, ...]]:
    """Each available target alone, then all of them together (when there are several)."""
    names = available()
    out = [(n,) for n in names]
    if len(names) > 1:
        out.append(tuple(names))
    return out


def target_args(names) -> list[str]:
    return [a for n in names for a in ("--target", n)]


# ---- environments and hosts ------------------------------------------------------------------

def clean_env(home: Path, **extra: str) -> dict[str, str]:
    """The process environment for agentdeck on `home`: nothing pointing at a real home."""
    env = {k: v for k, v in os.environ.items() if k not in _HOME_VARS}
    env["HOME"] = str(home)
    for v in ("PYTHONSTARTUP", "AGENTDECK_CRASH_MID_WRITE"):
        env.pop(v, None)
    env.update(extra)
    return env


def make_host(home: Path, **extra: str) -> Host:
    h = Host.from_environment(home, env=clean_env(home, **extra))
    h.osrelease_path = home / ".no-osrelease"
    return h


def state_rel(home: Path) -> str:
    """agentdeck's state dir for this home, relative to it ('' when it lies outside)."""
    sd = make_host(home).state_dir
    try:
        return str(sd.relative_to(home))
    except ValueError:
        return ""


# ---- snapshots ---------------------------------------------------------------------------------

def home_snapshot(home: Path, state: str | None = None) -> dict[str, tuple]:
    """snapshot_tree(home) without agentdeck's own state dir (and the bare parent directory
    entries leading to it, e.g. ~/.local/state, which the state dir needs)."""
    state = state_rel(home) if state is None else state
    snap = snapshot_tree(home)
    if not state:
        return snap
    parents = set()
    p = Path(state)
    while str(p) not in (".", ""):
        parents.add(str(p))
        p = p.parent
    out = {}
    for k, v in snap.items():
        if k == state or k.startswith(state + os.sep):
            continue
        if k in parents and v[0] == "dir":
            continue
        out[k] = v
    return out


def diff_snapshots(a: dict, b: dict, limit: int = 12) -> str:
    """A readable account of what differs between two snapshots (for assertion messages)."""
    lines = []
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            lines.append(f"  {k}:\n    before: {_short(a.get(k))}\n    after:  {_short(b.get(k))}")
    more = f"\n  ... and {len(lines) - limit} more" if len(lines) > limit else ""
    return "\n".join(lines[:limit]) + more


def _short(v) -> str:
    s = repr(v)
    return s if len(s) < 400 else s[:400] + "..."


# ---- homes ---------------------------------------------------------------------------------------

def fresh_home(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    return root


MESSY_EXTRA: dict[str, bytes] = {
    # a dotfiles repository the operator links into the CLI homes (stow-style)
    "dotfiles/copilot/settings.json": (
        b'{\r\n  // kept in my dotfiles repo, CRLF line ends\r\n  "model": "gpt-5",\r\n'
        b'  "theme": "dark",\r\n  "disabledMcpServers": ["my-notes"],\r\n}'),   # no final newline
    ".copilot/hooks/mine.json": b'{"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "echo hi"}]}}\n',
    ".copilot/agents/my-agent.md": b"---\nname: my-agent\ndescription: mine\n---\nMine.\n",
    ".codex/AGENTS.md": b"# My Codex notes\r\n\r\nNo trailing newline here",
    ".codex/hooks.json": b'{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo bye"}]}]}}\n',
    ".claude.json": b'{"numStartups": 12, "mcpServers": {"mine": {"command": "my-mcp"}}, "projects": {}}\n',
    ".claude/CLAUDE.md": b"# My Claude notes\n",
    # the operator's own hook group, laid out the way a whole-list rewrite renders it (a compact
    # layout is test_regressions::test_operator_hook_list_layout_survives_uninstall)
    ".claude/settings.json": (
        b'{\n  "model": "sonnet",\n  "hooks": {\n    "Stop": [\n      {\n        "hooks": [\n'
        b'          {\n            "type": "command",\n            "command": "notify-send done"\n'
        b'          }\n        ]\n      }\n    ]\n  },\n  "env": {"MY_VAR": "1"}\n}\n'),
    ".gitconfig": b"[user]\n\tname = Demo\n",
    "notes/empty.txt": b"",
}
MESSY_MODES = {"dotfiles/copilot/settings.json": 0o600, ".claude.json": 0o600,
               ".codex/AGENTS.md": 0o640, ".copilot/agents/my-agent.md": 0o444}


def messy_home(root: Path) -> Path:
    """The demo home (commented settings, an operator MCP server, a hand-written config.toml,
    an instructions file, a hand-linked skill) plus: settings.json as a symlink into a dotfiles
    repo (CRLF, no final newline, 0600), other hook files, CRLF persona files without a final
    newline, odd modes, Claude's own files, and an empty directory."""
    demo.make_demo_home(root)
    (root / ".copilot" / "settings.json").unlink()
    for rel, data in MESSY_EXTRA.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    for rel, mode in MESSY_MODES.items():
        os.chmod(root / rel, mode)
    os.symlink("../dotfiles/copilot/settings.json", root / ".copilot" / "settings.json")
    (root / "empty-dir").mkdir()
    os.chmod(root / ".codex", 0o700)
    return root


def demo_home(root: Path) -> Path:
    """The home `agentdeck demo` makes (agentdeck.core.demo), as it is."""
    return demo.make_demo_home(root)


HOMES = {"fresh": fresh_home, "demo": demo_home, "messy": messy_home}


# ---- running the CLI -----------------------------------------------------------------------------

def cli_inproc(*args: str) -> tuple[int, str, str]:
    """agentdeck.core.cli.main in this process: (exit code, stdout, stderr). An uncaught exception would
    propagate into the test (a traceback the operator would have seen)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main([str(a) for a in args])
    return rc, out.getvalue(), err.getvalue()


def cli_proc(*args: str, env: dict[str, str], timeout: float = 120,
             prefix: list[str] | None = None) -> subprocess.CompletedProcess:
    """`python -m core.cli ARGS` as a real process."""
    argv = (prefix or [sys.executable, "-m", "agentdeck.core.cli"]) + [str(a) for a in args]
    return subprocess.run(argv, capture_output=True, text=True, cwd=REPO, env=env,
                          timeout=timeout)


def _forked_cli(argv: list[str], env: dict[str, str], out: str, err: str) -> None:
    """The child of cli_forked: this process's environment, working folder and standard streams
    become the given ones (at the descriptor level: what the process writes, tracebacks
    included, lands in the files), then agentdeck.core.cli.main runs and its exit code is the
    process's."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(REPO)
    for fd, path in ((1, out), (2, err)):
        f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(f, fd)
        os.close(f)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)   # noqa: SIM115 - process-long
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)   # noqa: SIM115 - process-long
    try:
        rc = cli.main([str(a) for a in argv])
    except BaseException:                 # as `python -m` would: the traceback, exit 1
        import traceback   # local: only a crashing child prints one
        traceback.print_exc()
        rc = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(rc)


def cli_forked(*args: str, env: dict[str, str], scratch: Path,
               timeout: float = 120) -> subprocess.CompletedProcess:
    """`agentdeck ARGS` as a real process that can be killed, like cli_proc, forked from a server
    that has agentdeck imported already (multiprocessing's forkserver), so a run costs its own
    work and not an interpreter's start-up and imports (about 0.4 s of CPU each). `scratch`: a
    folder for its captured output."""
    import multiprocessing   # local: the crash series only
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["agentdeck.core.cli", "tests.safety.safety_helpers"])
    scratch.mkdir(parents=True, exist_ok=True)
    out, err = scratch / "stdout", scratch / "stderr"
    p = ctx.Process(target=_forked_cli, args=([str(a) for a in args], env, str(out), str(err)))
    p.start()
    p.join(timeout)
    if p.exitcode is None:
        p.kill()
        p.join()
        raise subprocess.TimeoutExpired(["agentdeck", *args], timeout)
    return subprocess.CompletedProcess(["agentdeck", *args], p.exitcode,
                                       out.read_text(encoding="utf-8", errors="replace"),
                                       err.read_text(encoding="utf-8", errors="replace"))


def applied(rc: int, err: str) -> bool:
    """An apply's exit: 0, or 2 where only the messy home's own ~/.codex/hooks.json is kept (it
    is the operator's, so agentdeck's Codex hooks are not registered, and the apply says so)."""
    lines = [ln for ln in err.strip().splitlines() if ln.startswith("agentdeck: ")]
    return rc == 0 or (rc == 2 and bool(lines) and all(
        "codex's hooks are inert: agentdeck's hooks are not registered: ~/.codex/hooks.json "
        "holds other hooks, kept" in ln for ln in lines))


def install(home: Path, names, *extra: str) -> None:
    rc, out, err = cli_inproc("apply", "--home", home, "--yes", *target_args(names), *extra)
    assert applied(rc, err), f"apply failed ({rc}):\n{out}\n{err}"


def uninstall(home: Path, names, *extra: str) -> tuple[str, str]:
    rc, out, err = cli_inproc("uninstall", "--home", home, "--yes", *target_args(names), *extra)
    assert rc == 0, f"uninstall failed ({rc}):\n{out}\n{err}"
    return out, err


def plan_json(home: Path, names, *extra: str, uninstall: bool = False) -> dict:
    cmd = "uninstall" if uninstall else "plan"
    args = [cmd, "--home", home, "--json", *target_args(names), *extra]
    if uninstall:
        # `uninstall --json` without --yes would refuse (no terminal); plan it through the engine
        from agentdeck.core import engine
        from agentdeck.core.plan import Plan
        plan = engine.build_uninstall_plan(make_host(home), list(names))
        return plan.to_json()
    rc, out, err = cli_inproc(*args)
    assert rc in (0, 2), err
    return json.loads(out)


# ---- checks ---------------------------------------------------------------------------------------

def unparsable_configs(home: Path) -> list[str]:
    """Every *.json / *.toml file under home that does not parse (JSONC allowed)."""
    from agentdeck.core.formats.jsonc import JsonDoc

    bad = []
    for dirpath, dirnames, filenames in os.walk(home):
        for fn in filenames:
            p = Path(dirpath) / fn
            if p.is_symlink() and not p.exists():
                continue
            try:
                if fn.endswith(".json"):
                    JsonDoc.parse(p.read_text(encoding="utf-8"), path=str(p), jsonc=True)
                elif fn.endswith(".toml"):
                    tomllib.loads(p.read_text(encoding="utf-8"))
            except Exception as e:  # noqa: BLE001 - any failure is a broken file
                bad.append(f"{p.relative_to(home)}: {e}")
    return bad


def temp_leftovers(home: Path) -> list[str]:
    """Temp files of a cut-short atomic write left in the home (agentdeck's own state dir aside:
    a backup being written when the process died is not the operator's file)."""
    state = state_rel(home)
    out = [str(Path(d, f).relative_to(home)) for d, _, fs in os.walk(home) for f in fs
           if f.endswith(".agentdeck-tmp")]
    return [p for p in out if not (state and p.startswith(state + os.sep))]
