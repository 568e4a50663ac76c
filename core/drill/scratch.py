"""The drill's scratch folder: where a drilled CLI keeps its session state, logs and caches, so
the operator's home is left as it was.

It lives in agentdeck's own state dir (`<state>/drill/<id>/<target>/`, the one part of the home a
drill may change) and is removed after the run. It holds a copy of what the CLI must read from
its home (runners.Runner.copy), a HOME and XDG dirs of its own, and the working directory the
turn runs in. Everything goes through the Host.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..host import Host, HostError
from ..targets import registry


@dataclass
class Scratch:
    root: Path
    #: the CLI home's folder name where its variable names the folder above it (TargetSpec.
    #: home_subdir: OpenCode's XDG_CONFIG_HOME/opencode); "" otherwise
    home_subdir: str = ""

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def cli_home(self) -> Path:
        base = self.root / "cli-home"
        return base / self.home_subdir if self.home_subdir else base

    @property
    def work(self) -> Path:
        return self.root / "work"

    @property
    def xdg(self) -> dict[str, Path]:
        return {"XDG_CONFIG_HOME": self.root / "xdg" / "config",
                "XDG_DATA_HOME": self.root / "xdg" / "data",
                "XDG_STATE_HOME": self.root / "xdg" / "state",
                "XDG_CACHE_HOME": self.root / "xdg" / "cache"}


def drill_root(host: Host, drill_id: str) -> Path:
    return host.state_dir / "drill" / drill_id


def make(host: Host, drill_id: str, target: str) -> Scratch:
    s = Scratch(drill_root(host, drill_id) / target, registry.spec(target).home_subdir)
    for d in (s.home, s.cli_home, s.work, *s.xdg.values()):
        host.mkdir(d, mode=0o700)
    return s


def copy_into(host: Host, src: Path, dst: Path, depth: int = 0) -> int:
    """Copy a file or a folder (links kept as links) from the home into the scratch folder;
    returns the number of files copied. A missing source copies nothing."""
    if depth > 12:
        return 0
    if host.is_symlink(src):
        host.symlink(host.readlink(src), dst)
        return 1
    if host.is_dir(src):
        host.mkdir(dst, mode=0o700)
        return sum(copy_into(host, src / n, dst / n, depth + 1) for n in host.listdir(src))
    if not host.is_file(src):
        return 0
    data = host.read_bytes(src)
    if data is None:
        return 0
    host.write_atomic(dst, data, mode=host.mode(src) or 0o600)
    return 1


def link_caches(host: Host, s: Scratch, rels: tuple[str, ...]) -> None:
    """Each folder `rel` of the operator's $XDG_CACHE_HOME (a bundle the CLI unpacks on first
    run, runners.Runner.cache_links) linked from the scratch cache instead of unpacked again
    (the run reads it; the CLI's other cache files stay in the scratch folder)."""
    real_cache = Path(host.env.get("XDG_CACHE_HOME") or host.home / ".cache")
    for rel in rels:
        pkg = real_cache / rel
        if host.is_dir(pkg):
            host.symlink(str(pkg), s.xdg["XDG_CACHE_HOME"] / rel)


def remove(host: Host, path: Path, depth: int = 0, *, confine: bool = True) -> None:
    """Remove the scratch folder and everything the CLI left in it (never through a link).
    `confine=False`: a scratch folder of agentdeck's own outside the home (the org drill's)."""
    if depth > 40:
        return
    try:
        if host.is_symlink(path) or not host.is_dir(path):
            host.remove(path, confine=confine)
            return
        for n in host.listdir(path):
            remove(host, path / n, depth + 1, confine=confine)
        host.rmdir_if_empty(path, confine=confine)
    except (HostError, OSError):
        pass


def remove_root(host: Host, drill_id: str) -> None:
    root = drill_root(host, drill_id)
    remove(host, root)
    host.rmdir_if_empty(root.parent)          # <state>/drill, when no other drill is running


def scratch_env(host: Host, s: Scratch) -> dict[str, str]:
    """HOME, TMPDIR and the XDG dirs of the scratch folder (created here)."""
    host.mkdir(s.root / "tmp", mode=0o700)
    env = {"HOME": str(s.home), "TMPDIR": str(s.root / "tmp")}
    env.update({k: str(v) for k, v in s.xdg.items()})
    return env
