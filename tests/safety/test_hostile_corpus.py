"""The hostile and malformed input corpus in tests/fixtures/bad/.

Each case is a folder: `case.toml` (what to set up and what to expect) and `home/` (files laid
over an empty home; `state/` over agentdeck's state dir). Text containing @@HOME@@, @@STATE@@ or
@@OUTSIDE@@ has the real paths put in. For every case and command (plan and apply by default):

- error cases: exit 1; exactly one line, on stderr, "agentdeck: error: ..." naming the file (with
  line and column where the case gives them) and saying what is wrong; nothing on stdout; no
  traceback; nothing written -- the home (agentdeck's state dir included) and the folder outside
  it are byte-identical before and after;
- tolerated cases (`tolerated = true`): inputs that are not agentdeck's to refuse (another tool's
  file, a valid-but-odd value): no error and no traceback, and the files listed in `keep` are
  byte-identical after an apply.

See tests/fixtures/bad/README.md for the case format.
"""
from __future__ import annotations

import os
import shutil
import tomllib
from pathlib import Path

import pytest

from tests.conftest import snapshot_tree
from tests.safety.safety_helpers import require, available, cli_inproc, install, make_host, target_args

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "bad"
CASES = sorted(p for p in CORPUS.iterdir() if (p / "case.toml").is_file())
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def _load(case_dir: Path) -> dict:
    return tomllib.loads((case_dir / "case.toml").read_text())


def test_corpus_is_large_enough():
    errors = [c for c in CASES if not _load(c).get("tolerated")]
    assert len(errors) >= 50, f"only {len(errors)} error cases"


class World:
    """The home, agentdeck's state dir and a folder outside the home, for one case."""

    def __init__(self, root: Path):
        self.home = root / "home"
        self.outside = root / "outside"
        self.home.mkdir(parents=True)
        self.outside.mkdir()
        self.state = make_host(self.home).state_dir

    def sub(self, data: bytes) -> bytes:
        for k, v in ((b"@@HOME@@", self.home), (b"@@STATE@@", self.state),
                     (b"@@OUTSIDE@@", self.outside)):
            data = data.replace(k, str(v).encode())
        return data

    def subs(self, s: str) -> str:
        return self.sub(s.encode()).decode()

    def path(self, rel: str) -> Path:
        s = self.subs(rel)
        return Path(s) if os.path.isabs(s) else self.home / s

    def lay(self, src: Path, dst: Path) -> None:
        for dirpath, _, files in os.walk(src):
            for fn in files:
                p = Path(dirpath) / fn
                out = dst / p.relative_to(src)
                if out.parent.is_symlink() or out.parent.is_file():
                    out.parent.unlink()
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(self.sub(p.read_bytes()))

    def snapshot(self) -> tuple[dict, dict]:
        return snapshot_tree(self.home), snapshot_tree(self.outside)


def _prepare(case_dir: Path, spec: dict, root: Path) -> World:
    needed = spec.get("targets", ["copilot"])
    require(*needed)
    if spec.get("needs_non_root") and IS_ROOT:
        pytest.skip("running as root: mode 000 does not stop root from reading a file")
    w = World(root)
    for rel, content in spec.get("outside", {}).items():
        p = w.outside / rel
        if rel.endswith("/"):
            p.mkdir(parents=True, exist_ok=True)
        else:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(content)
    first = spec.get("files_first", False)
    if first and (case_dir / "home").is_dir():
        w.lay(case_dir / "home", w.home)
    if spec.get("install"):
        install(w.home, needed, *spec.get("install_args", []))
    if not first and (case_dir / "home").is_dir():
        w.lay(case_dir / "home", w.home)
    if (case_dir / "state").is_dir():
        w.lay(case_dir / "state", w.state)
    for rel in spec.get("remove", []):
        p = w.path(rel)
        shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
    for rel in spec.get("dirs", []):
        w.path(rel).mkdir(parents=True, exist_ok=True)
    for rel, target in spec.get("links", {}).items():
        p = w.path(rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(w.subs(target), p)
    for rel, size in spec.get("generate", {}).items():
        assert size == "50MB"
        p = w.path(rel)
        p.parent.mkdir(parents=True, exist_ok=True)
        with open(p, "wb") as f:       # sparse: 50 MB on paper, nothing on the disk
            f.write(b"{")
            f.seek(50 * 1024 * 1024 - 2)
            f.write(b"}")
    for rel, mode in spec.get("modes", {}).items():
        os.chmod(w.path(rel), mode)
    return w


def _argv(command: str, spec: dict, w: World) -> list[str]:
    args = list(spec.get("args", []))
    if "--target" not in args:
        args += target_args(spec.get("targets", ["copilot"]))
    argv = [command, "--home", str(w.home), *args]
    return argv + ["--yes"] if command in ("apply", "uninstall") else argv


def _commands(spec: dict) -> list[str]:
    return spec.get("commands", ["plan", "apply"])


def _restore_modes(spec: dict, w: World) -> None:
    for rel in spec.get("modes", {}):
        try:
            os.chmod(w.path(rel), 0o600)
        except OSError:
            pass


@pytest.mark.parametrize("case_dir", CASES, ids=[c.name for c in CASES])
def test_hostile_input(case_dir: Path, fast_tmp: Path):
    spec = _load(case_dir)
    w = _prepare(case_dir, spec, fast_tmp / "w")
    try:
        if spec.get("tolerated"):
            _check_tolerated(spec, w)
        else:
            for command in _commands(spec):
                _check_error(spec, w, command)
    finally:
        _restore_modes(spec, w)


def _check_error(spec: dict, w: World, command: str) -> None:
    before = w.snapshot()
    rc, out, err = cli_inproc(*_argv(command, spec, w))
    what = f"`agentdeck {command}`: rc={rc}\nstdout: {out!r}\nstderr: {err!r}"
    assert rc == 1, what
    assert out == "", what
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].strip(), "not exactly one line: " + what
    line = lines[0]
    assert line.startswith("agentdeck: error: "), what
    assert "Traceback" not in err
    assert spec["expect"] in line, f"expected {spec['expect']!r} in: {line}"
    if spec.get("file"):
        named = str(w.path(spec["file"]))
        where = named
        if "line" in spec:
            where += f":{spec['line']}"
            if "col" in spec:
                where += f":{spec['col']}"
            where += ":"
        elif "col" in spec:
            where += ":"
        assert where in line, f"expected the file (and position) {where!r} in: {line}"
    after = w.snapshot()
    assert after == before, f"`agentdeck {command}` wrote something: " + _changed(before, after)


def _changed(a: tuple[dict, dict], b: tuple[dict, dict]) -> str:
    out = []
    for where, x, y in (("home", a[0], b[0]), ("outside", a[1], b[1])):
        out += [f"{where}/{k}" for k in sorted(set(x) | set(y)) if x.get(k) != y.get(k)]
    return ", ".join(out)


def _check_tolerated(spec: dict, w: World) -> None:
    kept = {rel: snapshot_tree(w.path(rel).parent).get(w.path(rel).name) for rel in spec["keep"]}
    outside = snapshot_tree(w.outside)
    rc, out, err = cli_inproc(*_argv("plan", spec, w))
    assert rc in (0, 2) and "Traceback" not in err, err
    if spec.get("warn"):
        assert spec["warn"] in out, f"the plan does not warn {spec['warn']!r}:\n{out}"
    rc, out, err = cli_inproc(*_argv("apply", spec, w))
    if spec.get("inert"):      # the apply's last word: the hooks cannot run, why, exit 2
        assert rc == 2 and spec["inert"] in err.splitlines()[-1], out + err
    else:
        assert rc == 0 and "Traceback" not in err, out + err
    for rel, snap in kept.items():
        assert snapshot_tree(w.path(rel).parent).get(w.path(rel).name) == snap, f"{rel} was changed"
    assert snapshot_tree(w.outside) == outside
    rc, out, err = cli_inproc(*_argv("plan", spec, w))
    assert rc == 0, "apply did not converge:\n" + out + err
