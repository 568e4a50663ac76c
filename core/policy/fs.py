"""The file-system look-ups a policy decision makes (globs, symlinks, directories, script
text), behind one small interface so `agentdeck policy test` can decide its corpus against a
virtual home (MemoryFS) and the hook handler against the disk (DiskFS).

The hook handler has no Host object (it runs on every tool call, bare start-up): DiskFS is, with
core/hookhandler.py, the one part of core/ that touches the disk itself
(tests/unit/test_host_door.py lists it). It never writes, never follows a FIFO or device
(reads are O_NONBLOCK and of regular files only), and bounds what it reads and globs.
"""
from __future__ import annotations

import fnmatch
import os
import posixpath
import stat

MAX_GLOB = 2000
MAX_WALK = 5000     # entries a search below a directory looks at (a '**' rule)
MAX_LINK_WALK = 20000   # entries a walk that follows links looks at for links (more: not known)
#: the folders of the system's programs a copied program is compared with (same_program)
PROGRAM_DIRS = ("/usr/bin", "/bin", "/usr/sbin", "/sbin")
#: a program file larger than this is not compared byte for byte
MAX_PROGRAM_COMPARE = 16 * 1024 * 1024
#: the virtual tree's stand-in for a compiled program (MemoryFS: not one program's bytes)
ELF_STUB = "\x7fELF\0"
MAX_MEMBERS = 5000  # members an archive's listing holds at most (more: not known)
MAX_ARCHIVE = 64 * 1024 * 1024  # bytes of an archive listed at most (a compressed one is read whole)

#: POSIX character classes as fnmatch ranges, `/` left out: (ASCII, and what a UTF-8 locale adds; a set that
#: names one matches every character beyond ASCII too, a negated set none of them: both more
#: than bash would match, never less)
_NON_ASCII = "\x80-\U0010ffff"
_ANY = "\x00-\U0010ffff"
_CLASSES = {
    "alpha": ("a-zA-Z", True), "lower": ("a-z", True), "upper": ("A-Z", True),
    "alnum": ("0-9a-zA-Z", True), "word": ("0-9a-zA-Z_", True), "digit": ("0-9", False),
    "xdigit": ("0-9A-Fa-f", False), "space": (" \t\n\r\x0b\x0c", True), "blank": (" \t", True),
    "punct": (":-@!-.[-`{-~", True), "print": (" -~", True), "graph": ("!-~", True),
    "cntrl": ("\x00-\x1f\x7f", False),
}


def shell_pattern(pattern: str) -> str:
    """A bash glob pattern as fnmatch (and the glob module) read it: bracket expressions with
    POSIX classes (`[[:lower:]]`), equivalence and collating elements (`[[=a=]]`, `[[.a.]]`),
    `^` as well as `!` for negation and `\\` escapes are rewritten into the sets fnmatch knows;
    a `[` with no closing `]` is a literal `[`. Everything else is passed through."""
    if "[" not in pattern:
        return pattern
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        if pattern[i] != "[":
            out.append(pattern[i])
            i += 1
            continue
        got = _bracket(pattern, i + 1)
        if got is None:
            out.append("[[]")
            i += 1
            continue
        text, i = got
        out.append(text)
    return "".join(out)


def _bracket(pattern: str, j: int) -> tuple[str, int] | None:
    """The fnmatch set for the bracket expression opened before `j`, and the index after its
    `]`; None when it is not closed."""
    n = len(pattern)
    neg = j < n and pattern[j] in "!^"
    if neg:
        j += 1
    singles: set[str] = set()
    ranges: list[str] = []
    start = j
    #: a POSIX class or an equivalence class: what it holds is the locale's (a locale made
    #: for it puts `_` in `upper`: red team round 11), so the expression may match any character
    by_locale = False
    while j < n:
        ch = pattern[j]
        if ch == "]" and j > start:
            break
        if ch == "[" and j + 1 < n and pattern[j + 1] in ":=.":
            kind = pattern[j + 1]
            end = pattern.find(kind + "]", j + 2)
            if end >= 0:
                name = pattern[j + 2:end]
                by_locale = by_locale or kind in ":="
                if kind == ":":
                    ascii_, wide = _CLASSES.get(name, (_ANY, False))
                    ranges.append(ascii_ + (_NON_ASCII if wide and not neg else ""))
                elif len(name) == 1:
                    singles.add(name)
                elif not neg:
                    ranges.append(_ANY)
                j = end + 2
                continue
        if ch == "\\" and j + 1 < n:
            singles.add(pattern[j + 1])
            if not neg:
                singles.add("\\")
            j += 2
            continue
        if j + 2 < n and pattern[j + 1] == "-" and pattern[j + 2] != "]":
            lo, hi = ch, pattern[j + 2]
            if lo <= hi:
                ranges.append(lo + "-" + hi)
            j += 3
            continue
        singles.add(ch)
        j += 1
    if j >= n:
        return None
    if by_locale:
        return "?", j + 1
    singles.discard("/")        # (a file name never holds one, and the glob module splits on it)
    body = ("]" if "]" in singles else "") + "".join(ranges) + "".join(
        sorted(singles - {"]", "!", "-"})) + ("!" if "!" in singles else "") + (
        "-" if "-" in singles else "")
    if not body:
        return ("[!" + _ANY + "]" if not neg else "?"), j + 1   # the empty set / any character
    if not neg and body == "!":
        return "!", j + 1
    return ("[!" if neg else "[") + body + "]", j + 1


def load_binding(pkg: str):
    """A package's compiled `_binding` module, loaded from its folder without running the
    package's __init__ (tree-sitter's imports `typing`, ~10 ms) or importlib.util (~2 ms): the
    hook handler saves both."""
    import importlib.machinery as M
    import sys

    for base in sys.path:
        d = os.path.join(base or ".", pkg)
        try:
            names = sorted(os.listdir(d))
        except (OSError, ValueError):
            continue
        for f in names:
            if f.startswith("_binding") and f.endswith((".so", ".pyd")):
                full, path = f"{pkg}._binding", os.path.join(d, f)
                loader = M.ExtensionFileLoader(full, path)
                spec = M.ModuleSpec(full, loader, origin=path)
                mod = loader.create_module(spec)
                loader.exec_module(mod)
                return mod
    raise ImportError(f"{pkg}: no compiled binding on sys.path")


def _link_targets(p: str, readlink) -> list[str]:
    """What each symbolic link on the way to `p` points at (absolute), in order, `readlink`
    giving a path's link text or None: at most 40 links in all (as the kernel follows)."""
    out: list[str] = []
    parts = [x for x in p.split("/") if x]
    cur, i = "", 0
    while i < len(parts) and len(out) < 40:
        nxt = f"{cur}/{parts[i]}"
        t = readlink(nxt)
        if t is None:
            cur, i = nxt, i + 1
            continue
        t = posixpath.normpath(posixpath.join(cur or "/", t))
        out.append(t)
        parts = [x for x in t.split("/") if x] + parts[i + 1:]
        cur, i = "", 0
    return out


class DiskFS:
    def realpath(self, p: str) -> str:
        try:
            return os.path.realpath(p)
        except (OSError, ValueError):
            return p

    def is_dir(self, p: str) -> bool:
        try:
            return stat.S_ISDIR(os.stat(p).st_mode)
        except (OSError, ValueError):
            return False

    def exists(self, p: str) -> bool:
        try:
            os.lstat(p)
            return True
        except (OSError, ValueError):
            return False

    def hard_linked(self, p: str) -> tuple | None:
        """The identity (device, inode) of a regular file that has more than one name (a hard
        link), None for any other path (a symbolic link included: it is not followed): a
        protected file reached by another of its names."""
        try:
            st = os.lstat(p)
        except (OSError, ValueError):
            return None
        return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) and st.st_nlink > 1 else None

    def glob(self, pattern: str, hidden: bool = False) -> list[str]:
        """The paths `pattern` matches, as the shell expands it; `hidden`: a `*` matches a name
        that starts with `.` too (it stands for a value not known, not for a glob)."""
        import glob as g

        out: list[str] = []
        pattern = shell_pattern(pattern)
        try:
            for m in g.iglob(pattern, recursive="**" in pattern, include_hidden=hidden):
                out.append(m)
                if len(out) >= MAX_GLOB:
                    break
        except (OSError, ValueError, RecursionError):
            pass
        return out

    def find(self, top: str, match, budget: int = MAX_WALK) -> str | None:
        """The first path under `top` that `match(path)` accepts, walking at most `budget`
        entries (a huge tree is not walked to its end: the hook must answer in time)."""
        stack = [top]
        while stack and budget > 0:
            d = stack.pop()
            try:
                with os.scandir(d) as it:
                    for e in it:
                        budget -= 1
                        if match(e.path):
                            return e.path
                        if e.is_dir(follow_symlinks=False):
                            stack.append(e.path)
                        if budget <= 0:
                            break
            except (OSError, ValueError):
                continue
        return None

    def same_program(self, p: str, names, dirs=PROGRAM_DIRS) -> str | None:
        """The system program (`names` in `dirs`) the regular file `p` is another copy or name
        of: the same file (a hard link) or the same bytes. A program copied out of /usr/bin in
        an earlier call and run by its new path is still that program (red team round 8: `cp
        /bin/rm /tmp/del`, then `/tmp/del -rf DIR`). None when it is none of them."""
        try:
            st = os.stat(p)
        except (OSError, ValueError):
            return None
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_PROGRAM_COMPARE:
            return None
        data: bytes | None = None
        for n in names:
            for d in dirs:
                q = f"{d}/{n}"
                try:
                    sq = os.stat(q)
                except (OSError, ValueError):
                    continue
                if (sq.st_dev, sq.st_ino) == (st.st_dev, st.st_ino):
                    return q if q != p else None
                if sq.st_size != st.st_size:
                    continue
                try:
                    if data is None:
                        with open(p, "rb") as f:
                            data = f.read(MAX_PROGRAM_COMPARE)
                    with open(q, "rb") as f:
                        if f.read(MAX_PROGRAM_COMPARE) == data:
                            return q
                except OSError:
                    continue
        return None

    def readlink(self, p: str) -> str | None:
        """The text of the symbolic link `p` (None when it is not one)."""
        try:
            return os.readlink(p)
        except (OSError, ValueError):
            return None

    def link_targets(self, p: str) -> list[str]:
        """What each symbolic link on the way to `p` points at (absolute), in order."""
        def readlink(q: str) -> str | None:
            try:
                return os.readlink(q)
            except (OSError, ValueError):
                return None
        return _link_targets(p, readlink)

    def links_below(self, top: str, budget: int = MAX_LINK_WALK) -> tuple[list[str], bool]:
        """The symbolic links under folder `top` (not followed), and whether the walk saw every
        entry (False past `budget` entries: what is beyond is not known)."""
        links: list[str] = []
        stack = [top]
        while stack:
            d = stack.pop()
            try:
                with os.scandir(d) as it:
                    for e in it:
                        budget -= 1
                        if budget < 0:
                            return links, False
                        if e.is_symlink():
                            links.append(e.path)
                        elif e.is_dir(follow_symlinks=False):
                            stack.append(e.path)
            except (OSError, ValueError):
                continue
        return links, True

    def archive_members(self, p: str) -> list[str] | None:
        """The member names of a tar or zip archive, None when they cannot be known: not a
        regular file, another format, too large or too many, or a member that is a link or a
        device (where a link's later members land is not its name)."""
        try:
            st = os.stat(p)
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_ARCHIVE:
                return None
            import tarfile   # local: only when a command extracts an archive
            import zipfile   # local: likewise
            if zipfile.is_zipfile(p):
                with zipfile.ZipFile(p) as z:
                    infos = z.infolist()
                    if len(infos) > MAX_MEMBERS or any(
                            stat.S_ISLNK(i.external_attr >> 16) for i in infos):
                        return None
                    return [i.filename for i in infos]
            out: list[str] = []
            with tarfile.open(p, "r:*") as t:
                for m in t:
                    if not (m.isfile() or m.isdir()) or len(out) >= MAX_MEMBERS:
                        return None
                    out.append(m.name)
            return out
        except Exception:      # any archive the modules cannot read: its members are not known
            return None

    def read_script(self, p: str, limit: int) -> str | None:
        try:
            fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, ValueError):
            return None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            data = os.read(fd, limit)
        except OSError:
            return None
        finally:
            os.close(fd)
        return data.decode("utf-8", "replace")


class MemoryFS:
    """A virtual tree: {absolute path: text (a file) | None (a folder) | "->target" (a
    symbolic link) | "==path" (another name of the file at path: a hard link)}."""

    def __init__(self, entries: dict[str, str | None]):
        self.entries = dict(entries)
        for p in list(self.entries):
            d = posixpath.dirname(p)
            while d and d != "/" and d not in self.entries:
                self.entries[d] = None
                d = posixpath.dirname(d)
        self.entries.setdefault("/", None)      # the root is a folder, as on a disk
        # the tree does not change once made: what every lookup would scan it for, once
        self._sorted = sorted(self.entries)
        self._hard_named = frozenset(v[2:] for v in self.entries.values()
                                     if isinstance(v, str) and v.startswith("=="))

    def _link(self, p: str) -> str | None:
        v = self.entries.get(p)
        return v[2:] if isinstance(v, str) and v.startswith("->") else None

    def realpath(self, p: str, _depth: int = 0) -> str:
        parts = p.strip("/").split("/")
        cur = ""
        for i, part in enumerate(parts):
            cur = f"{cur}/{part}"
            t = self._link(cur)
            if t is not None and _depth < 20:
                rest = "/".join(parts[i + 1:])
                nxt = posixpath.normpath(posixpath.join(posixpath.dirname(cur), t))
                return self.realpath(posixpath.join(nxt, rest) if rest else nxt, _depth + 1)
        return cur or "/"

    def is_dir(self, p: str) -> bool:
        return self.entries.get(self.realpath(p), "") is None and self.realpath(p) in self.entries

    def exists(self, p: str) -> bool:
        return p in self.entries

    def hard_linked(self, p: str) -> tuple | None:
        """An entry `==PATH` is another name of the file at PATH (a hard link): both names
        have the identity PATH (a symbolic link is not followed)."""
        real = posixpath.normpath(p)
        v = self.entries.get(real)
        if isinstance(v, str) and v.startswith("=="):
            return (v[2:],)
        if real in self._hard_named:
            return (real,)
        return None

    def glob(self, pattern: str, hidden: bool = False) -> list[str]:
        pattern = shell_pattern(pattern)
        rx = fnmatch.translate(pattern)
        import re
        if "**" in pattern:
            rx = rx.replace(r"(?s:", r"(?s:", 1)
        c = re.compile(rx)
        out = []
        for p in self._sorted:
            if c.match(p) and (hidden or not any(
                    seg.startswith(".") and not pat.startswith(".")
                    for seg, pat in zip(p.split("/"), pattern.split("/")))):
                if p.count("/") == pattern.count("/") or "**" in pattern:
                    out.append(p)
        return out[:MAX_GLOB]

    def find(self, top: str, match, budget: int = MAX_WALK) -> str | None:
        top = top.rstrip("/")
        for p in self._sorted[:budget]:
            if p.startswith(top + "/") and match(p):
                return p
        return None

    def same_program(self, p: str, names, dirs=PROGRAM_DIRS) -> str | None:
        v = self.entries.get(posixpath.normpath(p))
        if not isinstance(v, str) or v.startswith("->"):
            return None
        for n in names:
            for d in dirs:
                q = f"{d}/{n}"
                if q != p and (v == "==" + q or self.entries.get(q) == v and v != ELF_STUB):
                    return q
        return None

    def readlink(self, p: str) -> str | None:
        return self._link(p)

    def link_targets(self, p: str) -> list[str]:
        return _link_targets(p, self._link)

    def links_below(self, top: str, budget: int = MAX_LINK_WALK) -> tuple[list[str], bool]:
        top = top.rstrip("/")
        under = [p for p in sorted(self.entries) if p.startswith(top + "/")]
        return [p for p in under[:budget] if self._link(p) is not None], len(under) <= budget

    def archive_members(self, p: str) -> list[str] | None:
        """An entry whose text is `archive:` and a member per line (`->` marks a link)."""
        v = self.entries.get(self.realpath(p))
        if not isinstance(v, str) or not v.startswith("archive:"):
            return None
        names = [n for n in v.split("\n")[1:] if n]
        return None if any(n.startswith("->") for n in names) else names

    def read_script(self, p: str, limit: int) -> str | None:
        v = self.entries.get(self.realpath(p))
        if isinstance(v, str) and v.startswith("=="):
            v = self.entries.get(v[2:])
        return v[:limit] if isinstance(v, str) and not v.startswith("->") else None
