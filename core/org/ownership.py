"""Nothing the user can edit may be on the org layer's path: each file agentdeck writes or runs
there, and every directory above it (down from the root prefix, which stands for /), must be
owned by root, writable by nobody else (no group or world write bit) and not a symlink; a
parent may be a root-owned sticky directory such as /tmp (others cannot rename or remove root's
entries there). A path that fails is an error at plan and at write time, never written through.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from ..host import Host

ROOT_UID = 0


def _one(host: Host, p: Path, what: str) -> str | None:
    st = host.lstat(p)
    if st is None:
        return None                          # not there yet: apply creates it root-owned
    if stat.S_ISLNK(st.st_mode):
        return f"{p}: {what} is a symlink (the org layer never goes through one)"
    if st.st_uid != ROOT_UID:
        return f"{p}: {what} is owned by uid {st.st_uid}, not root"
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o022:
        return f"{p}: {what} is group- or world-writable (mode {mode:04o})"
    return None


def _sticky_root_dir(host: Host, d: Path) -> bool:
    """A root-owned directory with the sticky bit (/tmp): others may add entries there but can
    neither rename nor remove root's, so a root-owned path below it cannot be swapped."""
    st = host.lstat(d)
    return (st is not None and stat.S_ISDIR(st.st_mode) and st.st_uid == ROOT_UID
            and bool(st.st_mode & stat.S_ISVTX))


def _parents(host: Host, d: Path, prefix: Path) -> list[str]:
    out = []
    while True:
        why = None if _sticky_root_dir(host, d) else _one(host, d, "a parent directory")
        if why:
            out.append(why)
        if d == prefix or d == d.parent or prefix not in d.parents:
            return out
        d = d.parent


def problems(host: Host, path: Path, prefix: Path) -> list[str]:
    """What is wrong with `path` and each existing parent up to `prefix` (inclusive)."""
    path, prefix = Path(os.path.abspath(path)), Path(os.path.abspath(prefix))
    why = _one(host, path, "the file")
    return ([why] if why else []) + _parents(host, path.parent, prefix)


def interpreter_problems(host: Host, python: str) -> list[str]:
    """The interpreter the org hooks run, checked where it really is: the folders above the
    name as written (a link there must be root's), then the file it resolves to and every
    folder above that, up to /."""
    link = Path(python)
    if not host.exists(link, follow=True):
        return [f"{python}: the interpreter the org hooks run is not there"]
    out = []
    st = host.lstat(link)
    if st is not None and stat.S_ISLNK(st.st_mode) and st.st_uid != ROOT_UID:
        out.append(f"{python}: the interpreter link is owned by uid {st.st_uid}, not root")
    out += _parents(host, link.parent, Path("/"))
    out += problems(host, Path(host.realpath(python)), Path("/"))
    return list(dict.fromkeys(out))


def reachable_problems(host: Host, path: Path) -> list[str]:
    """Can every user read `path` (a file: o+r; a folder: o+rx) and reach it (o+x on every
    folder above it)? The org hooks run as the user: what they load must be theirs to read."""
    out = []
    st = host.lstat(path)
    if st is None:
        return [f"{path}: not there"]
    need = 0o005 if stat.S_ISDIR(st.st_mode) else 0o004
    if stat.S_IMODE(st.st_mode) & need != need:
        out.append(f"{path}: not readable by other users (mode {stat.S_IMODE(st.st_mode):04o}): "
                   "the org hooks, which run as the user, cannot load it")
    d = Path(os.path.abspath(path)).parent
    while True:
        sd = host.lstat(d)
        if sd is not None and not stat.S_IMODE(sd.st_mode) & 0o001:
            out.append(f"{d}: other users cannot enter it (mode {stat.S_IMODE(sd.st_mode):04o}): "
                       f"the org hooks, which run as the user, cannot reach {path.name}")
        if d == d.parent:
            return out
        d = d.parent
