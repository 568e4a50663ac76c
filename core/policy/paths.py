"""Protected paths ([[policy.paths]]): which files a tool call or a shell command reads or
writes, and which rule protects them.

    rules = PathRules(doc["paths"], home="/home/me", fs=DiskFS())
    rules.for_call(call, cwd)        # -> [(rule, path, access)] hits
    rules.for_command(cmd)           # one simple command of core.policy.shellparse

A path is absolute and normalized (`~`, `$HOME`, `.`, `..`, `//`), relative ones against the
call's cwd (or the directory a `cd` earlier in the line went to); both it and its symlink-free
form (fs.realpath) are checked, and a path with `..` in it also in the form the kernel opens
(each component resolved in turn, so `..` after a link is the link target's parent). A glob operand is expanded against the disk at decision time.
A rule's globs: `*` and `?` stay inside one path component, `**` crosses them; `except` globs
take files out of it. A directory counts only for recursive readers and writers
(core/policy/programs.py RECURSIVE) when a protected file lies below it.
"""
from __future__ import annotations

import fnmatch
import functools
import posixpath
import re

from . import programs as P
from .shellparse import Cmd, Word, normalize
from .vocabulary import SELF_RULE

#: a process's view of the file system through /proc: its working folder (cwd) or its root
#: (root). A file tool runs in the CLI's own process, whose working folder is the session's.
_PROC_FORM = re.compile(r"^/proc/(?:self|thread-self|[0-9]+)(?:/task/[0-9]+)?/(cwd|root)(?=/|$)")


def tool_path(s: str, cwd: str) -> str:
    """A file tool's path argument as the path it opens: a `file://` URL's path, and the /proc
    forms of a process's working folder or root (`/proc/self/cwd/../.ssh/id_rsa` is the
    working folder's parent's .ssh/id_rsa; normalized lexically only after that). Blanks around
    it go and `${HOME}` is `$HOME`: a tool that trims or expands its argument opens that path,
    and one that does not opens a harmless relative one."""
    s = s.strip()
    if s.startswith("${HOME}"):
        s = "$HOME" + s[7:]
    if s[:7].lower() == "file://":
        from urllib.parse import unquote, urlsplit   # local: only for a file:// URL
        s = unquote(urlsplit(s).path) or "/"
    m = _PROC_FORM.match(s)
    if m:
        s = (cwd.rstrip("/") if m.group(1) == "cwd" else "") + s[m.end():] or "/"
    return s

_FILE_URL = re.compile(r"""(?i)file:/[^\s'"`;|&<>(){}\\,]*""")
_EMBEDDED = re.compile(r"""(?:~|\$HOME|\$\{HOME\})/[^\s'"`;|&<>(){}\\,]*"""
                       r"""|(?<![\w.~$}])/(?:[^\s'"`;|&<>(){}\\,/]+/)+[^\s'"`;|&<>(){}\\,]*""")


#: an MCP tool whose name starts with one of these verbs only reads what it names
_READS = re.compile(r"(?i)(?:read|get|list|search|find|view|show|stat|describe|head|tail|"
                    r"directory|tree)(?:[_\-.]|$|(?<=[a-z])(?=[A-Z]))")


#: a rule glob's parts: `**/`, `**`, `*`, `?`, a `[...]` class (its first character may be `]`),
#: and a run of characters that stand for themselves (a `[` with no `]` after it is one)
_GLOB_PART = re.compile(r"\*\*/|\*\*|\*|\?|\[(.[^]]*)\]|[^*?[]+|\[", re.S)


@functools.lru_cache(maxsize=4096)
def glob_rx(pattern: str) -> re.Pattern:
    """A rule glob as a regex: * and ? within a component, ** across them, [...] classes.
    Cached: every decision builds the profile's rules, and a policy holds a few hundred globs."""
    out = []
    for m in _GLOB_PART.finditer(pattern):
        part = m.group()
        if part == "**/":
            out.append("(?:.*/)?")
        elif part == "**":
            out.append(".*")
        elif part == "*":
            out.append("[^/]*")
        elif part == "?":
            out.append("[^/]")
        elif m.group(1) is not None:
            body = m.group(1)
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
        else:
            out.append(re.escape(part))
    return re.compile("".join(out) + r"\Z", re.S)


def _concrete(pattern: str) -> str:
    """One path a glob (or a tail of one) matches: each wildcard run made `x`, a class its first
    member (a negated class a character it leaves out)."""
    def cls(m: re.Match) -> str:
        body = m.group(1)
        if body.startswith("!"):
            return next(c for c in "xyz_0" if c not in body)
        return body[:1] or "x"
    return re.sub(r"[*?]+", "x", re.sub(r"\[([^]]+)\]", cls, pattern))


def _static_prefix(pattern: str) -> str:
    """The folders a glob names literally, before its first wildcard part."""
    m = _WILD.search(pattern)
    if m is None:
        return pattern or "/"
    return pattern[:max(pattern.rfind("/", 0, m.start()), 0)] or "/"


_WILD = re.compile(r"[*?[]")


#: a file name no glob names literally: a rule that covers it under a folder covers any file
#: written there
_ANY_NAME = "\x01"


#: globs of start-up files that any environment may hold (compiled.SHELL_STARTUP): a walk of a
#: folder written as a whole does not look for them (_Rule.below)
_STARTUP_ANYWHERE = ("**/site-packages/",)
#: paths whose meaning depends on the process that opens them: a process's working folder, root
#: and open files (`cd /proc/self/fd/3` after `exec 3< ~/.ssh`, `/proc/self/cwd/...`, a
#: descriptor above the standard three): the handler cannot know what they name for the command
_PROCESS_PATH = re.compile(r"^/(?:proc/(?:self|thread-self|\d+)(?:/task/(?:\d+|self))?"
                           r"/(?:cwd|root|fdinfo|map_files|task|exe|fd/(?:[3-9]|\d\d+))"
                           r"|dev/fd/(?:[3-9]|\d\d+)|proc/[^/]+/.*/\.\.)(?:/|$)")

#: a disk itself, as a device: reading or writing it reaches every file on it past every path
#: rule (red team round 9: `debugfs -R 'cat <inode>' /dev/vda`), so a command given one is
#: unresolved
_DISK_DEVICE = re.compile(r"^/dev/(?:[shv]d[a-z]|xvd[a-z]|nvme\d|mmcblk\d|dm-\d|md\d|loop\d"
                          r"|mapper/|disk/|root$|block/|sr\d|ubd|vd[a-z])")


class _Rule:
    __slots__ = ("data", "pats", "excepts", "prefixes", "access", "deep", "walk_pats")

    def __init__(self, data: dict, home: str):
        self.data = data
        globs = [_expand_home(g, home) for g in data.get("paths") or []]
        self.pats = [glob_rx(g) for g in globs]
        self.walk_pats = [p for p, g in zip(self.pats, globs) if not g.startswith(_STARTUP_ANYWHERE)]
        self.prefixes = [(_static_prefix(g), g) for g in globs]
        self.excepts = [glob_rx(_expand_home(g, home)) for g in data.get("except") or []]
        self.access = set(data.get("access") or ("read", "write"))
        self.deep = any(g.startswith("**") for g in globs)

    def covers(self, path: str) -> bool:
        return any(p.match(path) for p in self.pats) and not any(e.match(path)
                                                                for e in self.excepts)

    def covers_in_walk(self, path: str) -> bool:
        """covers, less the start-up files any environment holds (_STARTUP_ANYWHERE)."""
        return any(p.match(path) for p in self.walk_pats) and not any(e.match(path)
                                                                     for e in self.excepts)

    def named_under(self, d: str) -> str | None:
        """A path this rule protects that a tree written at folder `d` holds by name, whatever
        the tree's files: the rule's literal part lies under `d` (`~` for `~/.ssh/id_*`), `d`
        is inside it (`~/protected` for `~/protected/**`), or `d`'s own name is a literal part
        of a glob (`.claude` for `**/.claude/settings.json`)."""
        d = d.rstrip("/") or "/"
        base = posixpath.basename(d)
        for prefix, g in self.prefixes:
            if d == "/" or prefix.startswith(d + "/"):
                cand = _concrete(g) if g.startswith("/") else d.rstrip("/") + "/" + _concrete(g)
                if self.covers(cand):
                    return cand
            comps = g.split("/")
            for k, c in enumerate(comps[:-1]):
                # only where the glob lets any folder come before that name (`**/`): an
                # absolute glob's folder names (`/home/alice/.claude/...`) say nothing of a
                # tree at another folder of the same name (~/src/alice)
                if "**" not in comps[:k]:
                    continue
                if c == base and not any(ch in c for ch in "*?["):
                    cand = d + "/" + _concrete("/".join(comps[k + 1:]))
                    if self.covers(cand):
                        return cand
        return None

    def may_be_under(self, d: str) -> str | None:
        """A path this rule protects that a tree written at folder `d` may hold, when what the
        tree holds is not known (an archive whose members cannot be listed)."""
        d = d.rstrip("/") or "/"
        hit = self.named_under(d)
        if hit:
            return hit
        for _, g in self.prefixes:
            comps = g.split("/")
            for k in range(len(comps)):
                cand = (d if d != "/" else "") + "/" + _concrete("/".join(comps[k:])).lstrip("/")
                if self.covers(cand):
                    return cand
        return None

    def below(self, d: str, fs, skip_hidden: bool) -> str | None:
        """A protected file (that exists) under directory `d`, or None."""
        d = d.rstrip("/") or "/"
        for prefix, g in self.prefixes:
            if g.startswith(_STARTUP_ANYWHERE):
                # an environment's start-up files already below a folder deleted or rewritten
                # as a whole (`find . -delete`, `git stash`, `rm -r .venv`): removing one runs
                # nothing, and each project's .venv holds some; a file written by name, or a
                # tree copied in from a known folder, is still judged
                continue
            if g.startswith("**"):
                hit = fs.find(d, self.covers_in_walk)
                cands = [hit] if hit else []
            elif prefix == d or prefix.startswith(d + "/") or d == "/":
                rel = prefix[len(d):] if d != "/" else prefix
                if skip_hidden and any(s.startswith(".") for s in rel.split("/") if s):
                    continue
                cands = fs.glob(g) if any(ch in g for ch in "*?[") else [g]
            elif d.startswith(prefix + "/") and "**" in g:
                hit = fs.find(d, self.covers_in_walk)
                cands = [hit] if hit else []
            else:
                continue
            for c in cands:
                if self.covers_in_walk(c) and (fs.exists(c) or c == g):
                    if skip_hidden and any(s.startswith(".") for s in
                                           c[len(d):].split("/") if s):
                        continue
                    return c
        return None


def _expand_home(g: str, home: str) -> str:
    if g == "~" or g.startswith("~/"):
        return (home.rstrip("/") or "") + g[1:]
    if g == "$HOME" or g.startswith("$HOME/"):
        return (home.rstrip("/") or "") + g[5:]
    return g


class PathRules:
    def __init__(self, rules: list[dict], home: str, fs):
        self.home, self.fs = home, fs
        self.rules = [_Rule(r, home) for r in rules if isinstance(r, dict)]
        #: the names a find's -exec is given (its -name/-iname tests, when nothing else can
        #: let other names through): the links below its folders that it follows
        self.follow_names: list[tuple[bool, str]] | None = None
        #: links an earlier command of the same call makes (link -> what it points at): a
        #: later command's path through one is also the path it points at
        self.links: dict[str, str] = {}
        #: why a command of the call writes a tree whose files are not known while a protected
        #: path may be among them (an archive that cannot be listed): the rules make it
        #: unresolved (core/policy/rules.py reads and clears it after each command)
        self.unknown: list[str] = []
        #: the protected files that have other names (hard links), by identity: looked up once,
        #: when a path judged is a file with more than one name
        self._linked: dict | None = None
        self._process: dict[str, bool] = {}

    def _through_links(self, path: str) -> str | None:
        for link, target in self.links.items():
            if path == link or path.startswith(link.rstrip("/") + "/"):
                return target + path[len(link):]
        return None

    def _made_links(self, name: str, cmd: Cmd, flags: set[str], cwd: str) -> list[str]:
        """The targets of the links `ln` (and `cp -s`/`cp -l`) makes, recorded in self.links;
        a symbolic link's relative target is resolved against the link's folder, as the
        kernel does. Returns the targets (making a link to a path is access to it)."""
        symbolic = bool(flags & {"-s", "--symbolic", "--symbolic-link"})
        if not (name == "ln" or name == "cp" and (symbolic or flags & {"-l", "--link"})):
            return []
        maybe = [a.value for a in cmd.argv[1:]]
        vals = [v for v in maybe if v is not None]
        if len(vals) != len(maybe):
            return []
        ops: list[str] = []
        target_dir: str | None = None
        i = 0
        while i < len(vals):
            v = vals[i]
            if v in ("-t", "--target-directory"):
                target_dir = vals[i + 1] if i + 1 < len(vals) else None
                i += 2
                continue
            if v.startswith("--target-directory="):
                target_dir = v.split("=", 1)[1]
            elif not v.startswith("-") or v == "-":
                ops.append(v)
            i += 1
        if not ops:
            return []
        if target_dir is not None:
            pairs = [(t, posixpath.join(normalize(target_dir, cwd, self.home), posixpath.basename(t)))
                     for t in ops]
        elif len(ops) == 1:
            pairs = [(ops[0], posixpath.join(cwd, posixpath.basename(ops[0])))]
        else:
            dest = normalize(ops[-1], cwd, self.home)
            many = len(ops) > 2 or self.fs.is_dir(dest)
            pairs = [(t, posixpath.join(dest, posixpath.basename(t)) if many else dest)
                     for t in ops[:-1]]
        out = []
        for t, link in pairs:
            base = posixpath.dirname(link) if symbolic else cwd
            target = normalize(t, base, self.home)
            self.links[link] = target
            out.append(target)
        return out

    def _protected_names(self, ident: tuple) -> list[str]:
        """The protected files whose identity is `ident`: each rule's files a glob without
        `**` finds (a `**` rule's files cannot all be listed in time: docs/policy.md)."""
        return self._linked_files().get(ident, [])

    def _linked_files(self) -> dict:
        """{identity: [protected path, ...]} for the protected files that have other names."""
        if self._linked is None:
            self._linked = {}
            for r in self.rules:
                for _, g in r.prefixes:
                    if "**" in g:
                        continue
                    for c in (self.fs.glob(g) if any(ch in g for ch in "*?[") else [g]):
                        i = self.fs.hard_linked(c)
                        if i is not None and r.covers(c):
                            self._linked.setdefault(i, []).append(c)
        return self._linked

    def _linked_below(self, d: str, access: set[str], skip_hidden: bool) -> list[tuple[dict, str, str]]:
        """A file below folder `d` that is another name of a protected file, for a command
        that walks `d` (only looked for when a protected file has other names at all)."""
        linked = self._linked_files()
        if not linked:
            return []
        top = len(d.rstrip("/"))

        def match(q: str) -> bool:
            if skip_hidden and any(s.startswith(".") for s in q[top:].split("/")):
                return False
            return self.fs.hard_linked(q) in linked
        found = self.fs.find(d, match)
        if found is None:
            return []
        names = linked.get(self.fs.hard_linked(found), [])
        return [(r.data, n, "/".join(sorted(access & r.access)))
                for r in self.rules if access & r.access for n in names if r.covers(n)][:1]

    def __bool__(self) -> bool:
        return bool(self.rules)

    # -- one path
    def _followed_below(self, d: str, access: set[str], skip_hidden: bool) -> list[tuple[dict, str, str]]:
        """For a command that follows the symbolic links it meets while walking folder `d`
        (programs.FOLLOWS_LINKS: `grep -R`, `find -L`, `zip -r`): a link there to a protected
        path, or to a folder above one, is that path. A folder too large to walk in time is
        not known (unresolved)."""
        links, complete = self.fs.links_below(d)
        top = len(d.rstrip("/"))
        names = self.follow_names
        for q in links:
            if skip_hidden and any(s.startswith(".") for s in q[top:].split("/")):
                continue
            if names is not None and not any(  # `find . -name '*.md' -exec cat {} +`
                    fnmatch.fnmatchcase(posixpath.basename(q).lower() if fold else
                                        posixpath.basename(q), pat) for fold, pat in names):
                continue
            target = self.fs.realpath(q)
            got = self.hits(target, access, recursive=self.fs.is_dir(target))
            if got:
                return got[:1]
        if not complete:
            self.unknown.append(f"it follows the links below {d}, which holds more entries than "
                                f"agentdeck looks at in time")
        return []

    def _git_toplevel(self, d: str) -> str:
        """The repository folder `d` is in: the nearest folder at or above it with a `.git`,
        or `d` itself when there is none (a repository the line makes)."""
        q = d.rstrip("/") or "/"
        while True:
            if self.fs.exists(q.rstrip("/") + "/.git"):
                return q
            if q in ("/", ""):
                return d
            q = posixpath.dirname(q)

    def _process_path(self, path: str) -> bool:
        """Whether `path` names a process's folder or open file (_PROCESS_PATH), by its text or
        through a link on the way to it (`ln -s /proc/self/cwd /tmp/pc` made before)."""
        got = self._process.get(path)
        if got is None:
            got = bool(_PROCESS_PATH.match(path)) or any(
                bool(_PROCESS_PATH.match(t)) for t in self.fs.link_targets(path))
            self._process[path] = got
        return got

    def hits(self, path: str, access: set[str], recursive: bool = False,
             skip_hidden: bool = False, follow: bool = False) -> list[tuple[dict, str, str]]:
        if self._process_path(path):
            self.unknown.append(f"{path} is reached through /proc or /dev/fd, whose meaning "
                                f"depends on the process that opens it")
        elif _DISK_DEVICE.match(path) or _DISK_DEVICE.match(self.fs.realpath(path)):
            self.unknown.append(f"{path} is a disk device: every file on it is reached past the "
                                f"path rules")
        out = []
        forms = [path]
        real = self.fs.realpath(path)
        if real != path:
            forms.append(real)
        linked = self._through_links(path) if self.links else None
        if linked is not None:          # through a link an earlier command of the line made
            forms += [linked, self.fs.realpath(linked)]
        ident = self.fs.hard_linked(real)
        if ident is not None:           # another name of a protected file (a hard link)
            forms += self._protected_names(ident)
        for r in self.rules:
            acc = access & r.access
            if not acc:
                continue
            for p in forms:
                if r.covers(p):
                    out.append((r.data, p, "/".join(sorted(acc))))
                    break
                if recursive and self.fs.is_dir(p):
                    below = r.below(p, self.fs, skip_hidden)
                    if below:
                        out.append((r.data, below, "/".join(sorted(acc))))
                        break
        if recursive and not out and self.fs.is_dir(real):
            out += self._linked_below(real, access, skip_hidden)
        if recursive and follow and not out and self.fs.is_dir(real):
            out += self._followed_below(real, access, skip_hidden)
        return out

    def tree_hits(self, d: str, access: set[str], src: str | None = None,
                  members: list[str] | None = None, unknown: str = "") -> list[tuple[dict, str, str]]:
        """A whole tree written at folder `d` (a directory copied, moved or linked there, an
        archive extracted into it, a repository made there): what is there now and below it,
        every protected path the tree holds by name (_Rule.named_under), and what it holds:
        the files under `src` (a folder that exists), or `members` (an archive's), each at its
        place under `d`. With neither and `unknown` set (why its files are not known), a
        protected path that may lie under `d` makes the command unresolved (self.unknown).
        What is below `d` now is overwritten by an archive's members only where one of them
        lands, and by a tree whose files are not known maybe (unresolved, as anywhere else):
        there, only `d` inside a protected tree or named by a protected glob is a certain hit."""
        rules = [r for r in self.rules if access & r.access]
        src_known = src is not None and self.fs.is_dir(src)
        if members is not None or unknown and not src_known:
            # `d` itself, or any file written in it, protected (`~/protected/**`)
            out = self.hits(d, access) or [(r, d, a) for r, _, a in self.hits(
                (d.rstrip("/") or "") + "/" + _ANY_NAME, access)]
            below = [] if out or members is not None else self.hits(d, access, recursive=True)
            if below:
                self.unknown.append(f"{unknown}, and {below[0][1]} is there")
        else:
            out = self.hits(d, access, recursive=True)
        for r in rules:
            cand = r.named_under(d)
            if cand:
                out.append((r.data, cand, "/".join(sorted(access & r.access))))
        if members is not None:
            for m in members:
                out += self.hits(normalize(m, d, self.home), access)
        elif src is not None and self.fs.is_dir(src):
            src = src.rstrip("/") or "/"
            found = self.fs.find(src, lambda q: any(r.covers(d + q[len(src):]) for r in rules))
            if found:
                out += self.hits(d + found[len(src):], access)
        elif unknown and not out:
            for r in rules:
                cand = r.may_be_under(d)
                if cand:
                    self.unknown.append(f"{unknown}, and a protected path may be among them "
                                        f"({cand})")
                    break
        return out

    def _destinations(self, name: str, cmd: Cmd, flags: set[str], cwd: str,
                      rec: bool) -> list[tuple[dict, str, str]]:
        """What cp, mv, install, ln, rsync (COPY, MOVE, ln) write: each source lands at
        DEST/<its name> when DEST is a folder (`-t DIR`, a trailing slash, `.`, several sources,
        a folder on disk) and at DEST when it is not; when that cannot be told (DEST not there
        yet: an earlier command may make it), both. A directory (or a source not there yet)
        copied with -r, moved, or linked to is a whole tree written there (tree_hits)."""
        symbolic = bool(flags & {"-s", "--symbolic", "--symbolic-link"})
        takes = P.DEST_VALUED.get(name, frozenset())
        ops: list[Word] = []
        tdir: str | None = None
        argv = cmd.argv[1:]
        ended = False
        suffix: str | None = None
        i = 0
        while i < len(argv):
            v = argv[i].value
            if not ended and v is not None and v.startswith("-") and v != "-":
                if v == "--":
                    ended = True
                elif v in ("-S", "--suffix") and name != "rsync":
                    suffix = argv[i + 1].value if i + 1 < len(argv) else None
                    if suffix is None:
                        self.unknown.append(f"{name} makes backups with a suffix that is not known")
                    i += 2
                    continue
                elif v.startswith("--suffix=") and name != "rsync":
                    suffix = v.split("=", 1)[1]
                elif v in ("-t", "--target-directory"):
                    tdir = argv[i + 1].value if i + 1 < len(argv) else None
                    if tdir is None:
                        return []
                    i += 2
                    continue
                elif v.startswith("--target-directory="):
                    tdir = v.split("=", 1)[1]
                elif v in takes:
                    i += 2
                    continue
                i += 1
                continue
            ops.append(argv[i])
            i += 1
        out: list[tuple[dict, str, str]] = []
        if name == "install" and flags & {"-d", "--directory"}:
            for w in ops:
                for p in self._word_paths(w, cwd):
                    out += self.hits(p, {"write"})
            return out
        if tdir is not None:
            dest, sources = tdir, ops
        elif name == "ln" and len(ops) == 1:
            dest, sources = ".", ops
        elif len(ops) >= 2 and ops[-1].value is not None:
            dest, sources = ops[-1].value, ops[:-1]
        else:
            return []
        dpath = normalize(dest, cwd, self.home)
        # `cp --parents a/b DEST`, `rsync -R a/./b DEST`: a source lands at DEST/<its path as
        # given> (rsync: what follows `/./`), not DEST/<its name>
        keeps_path = (name in P.COPY and "--parents" in flags and name != "rsync"
                      or name == "rsync" and bool(flags & {"-R", "--relative"}))
        # a backup (`-b`, `--backup`, `-S SUF`, `SIMPLE_BACKUP_SUFFIX`): the file already at
        # the destination is renamed to DEST<suffix> (`cp -b -S .json x ~/.claude/settings`)
        backup = name != "rsync" and (suffix is not None or "-b" in flags or any(
            f == "--backup" or f.startswith("--backup=") for f in flags))
        if backup and suffix is None:
            suffix = cmd.env.get("SIMPLE_BACKUP_SUFFIX", "~")
            if suffix is None:
                self.unknown.append(f"{name} makes backups with a suffix that is not known")
        # a symbolic link given as a source stays a link: mv, cp -P/-d/-a/-r (without -L),
        # rsync -l/-a
        keeps_links = (name in P.MOVE or name == "cp" and bool(flags & {
            "-P", "-d", "--no-dereference", "-a", "--archive", "-r", "-R", "--recursive"})
            and not flags & {"-L", "--dereference"}
            or name == "rsync" and bool(flags & {"-l", "--links", "-a", "--archive"}))
        into = (tdir is not None or dest.endswith(("/", "/.", "/..")) or dest in (".", "..", "~")
                or len(sources) > 1 or self.fs.is_dir(dpath) or keeps_path)
        exact = bool(flags & {"-T", "--no-target-directory"})
        there = self.fs.exists(dpath)
        tree_kind = name in P.MOVE or (name in P.COPY and rec) or (name == "ln" and symbolic)
        for w in sources:
            raw = w.value if w.value is not None else w.pattern
            for sp in self._word_paths(w, cwd):
                if keeps_path and w.value is not None:
                    rel = w.value.split("/./", 1)[1] if name == "rsync" and "/./" in w.value \
                        else w.value
                    rel = rel.rstrip("/") if name == "rsync" else rel
                    targets = [normalize(rel.lstrip("/") or ".", dpath, self.home)]
                elif name == "rsync" and raw.endswith("/"):
                    targets = [dpath]              # rsync src/ dst: the contents of src
                elif exact:
                    targets = [dpath]
                elif into:
                    targets = [posixpath.join(dpath, posixpath.basename(sp))]
                elif there:
                    targets = [dpath]
                else:
                    targets = [dpath, posixpath.join(dpath, posixpath.basename(sp))]
                is_tree = tree_kind and (self.fs.is_dir(sp) or not self.fs.exists(sp))
                text = self.fs.readlink(sp) if keeps_links else None
                if text and not text.startswith("/"):
                    # a relative link moved or copied as a link points elsewhere where it lands
                    # (`cp -P /tmp/x/k ~/proj/k` with k -> ../.ssh/id_rsa: red team round 8):
                    # making that link is access to its new target
                    for t in targets:
                        out += self.hits(posixpath.normpath(posixpath.join(
                            posixpath.dirname(t), text)), {"read", "write"})
                if backup and suffix:
                    targets = targets + [t + suffix for t in targets]
                for t in targets:
                    if not is_tree:
                        out += self.hits(t, {"write"})
                    elif name == "ln":
                        # a link's tree is what it points at, which can change after: by name only
                        out += self.tree_hits(t, {"write"})
                    else:
                        out += self.tree_hits(
                            t, {"write"}, src=sp if self.fs.is_dir(sp) else None,
                            unknown=f"{name} writes {raw[:40]} (not there yet) as a whole folder")
        return out

    def _extracted(self, name: str, ext: tuple, base: str, cwd: str) -> list[tuple[dict, str, str]]:
        """An archive extracted into folder `dest` (programs.extraction): its members, listed
        from the archive at decision time (fs.archive_members), each written where it lands
        (a leading `/` and `..` dropped unless the program keeps them: `tar -P`, `unzip -:`);
        members that cannot be listed are a tree whose files are not known (unresolved where a
        protected path may lie under it, and anywhere when members may name any path)."""
        dest, archive, climbs = ext
        d = normalize(dest, cwd, self.home) if dest else base
        members = None
        if archive and archive != "-":
            members = self.fs.archive_members(normalize(archive, cwd, self.home))
        if members is not None and not climbs:
            members = ["/".join(s for s in m.split("/") if s and s != "..") or "." for m in members]
        what = f"{name} extracts {archive[:40] if archive else 'its standard input'}"
        out = self.tree_hits(d, {"write"}, members=members,
                             unknown=what + ", whose members are not known")
        if members is None and climbs and not out and any("write" in r.access
                                                          for r in self.rules):
            self.unknown.append(what + ", whose members are not known and may name any path "
                                "(absolute or climbing out with ..)")
        return out

    def _patched(self, name: str, pa: tuple, cmd: Cmd, base: str) -> list[tuple[dict, str, str]]:
        """A patch applied: the names its text gives (read at decision time from the patch
        file, an input redirection or a here-document), each a write where it lands; a patch
        that cannot be read is a tree of files not known in the folder it applies in."""
        pfile, strip, folder, climbs = pa
        d = normalize(folder, base, self.home) if folder else base
        text = None
        src = pfile
        if src is None:
            for mode, w in cmd.redirects:
                if mode == "here":
                    text = w.value
                elif mode == "r" and w.value is not None:
                    src = w.value
        if text is None and src is not None and src != "-":
            text = self.fs.read_script(normalize(src, cmd.cwd or "/", self.home), 1 << 20)
        if text is None:
            return self.tree_hits(d, {"write"}, unknown=f"{name} applies a patch agentdeck "
                                                         "cannot read")
        out: list[tuple[dict, str, str]] = []
        for n in P.patch_names(text, strip):
            if not climbs:
                n = "/".join(s for s in n.split("/") if s and s != "..")
            out += self.hits(normalize(n, d, self.home), {"write"})
        return out

    def _git_brought(self, gt: tuple, vals: list, base: str) -> list[tuple[dict, str, str]]:
        """The files a git command brings into its work tree (programs.git_tree_write): the
        paths it names, each a write (a folder: what is below it), or, for a branch's, a
        remote's or a stash's files, a tree whose files are not known (tree_hits: unresolved
        where a protected path may lie under it)."""
        folder, kind, paths = gt
        d = normalize(folder, base, self.home) if folder else base
        if kind == "maybe-paths":
            # `git checkout A [B...]`: A is a path when it is there, else the commit to take
            # the paths B... from (no paths: the whole tree)
            if not self.fs.exists(normalize(paths[0], d, self.home)):
                paths = paths[1:]
                kind = "commit-paths" if paths else "tree"
            else:
                kind = "paths"
        sub = P._git_subcommand(vals) or "git"
        if kind == "commit-paths":
            # another commit's files under each path: a folder, `.` or a pattern is a tree
            # whose files are not known (`git checkout REV -- .` may bring a settings file)
            brought: list[tuple[dict, str, str]] = []
            for p in paths:
                full = normalize(p, d, self.home)
                if any(c in p for c in "*?[") or p.startswith(":") or self.fs.is_dir(full) \
                        or p.endswith("/"):
                    top = full if not any(c in p for c in "*?[") else \
                        normalize(p.split("*")[0].split("?")[0].split("[")[0] or ".", d,
                                  self.home).rsplit("/", 1)[0] or "/"
                    if p.startswith(":"):
                        top = d
                    brought += self.tree_hits(top, {"write"}, unknown=f"git {sub} brings "
                                              f"another commit's files agentdeck cannot list "
                                              f"into {top}")
                else:
                    brought += self.hits(full, {"write"}, recursive=True)
            return brought
        if kind == "paths":
            out: list[tuple[dict, str, str]] = []
            for p in paths:
                out += self.hits(normalize(p, d, self.home), {"write"}, recursive=True)
            return out
        return self.tree_hits(d, {"write"}, unknown=f"git {sub} brings files agentdeck cannot "
                                                    f"list into {d}")

    def _physical(self, value: str, cwd: str) -> str | None:
        """The path the kernel opens for a word with a `..` in it: each component resolved in
        turn, so a `..` after a symbolic link (on disk, or made earlier in the line) goes to
        the link target's parent, not lexically back. None when it equals the lexical form
        or has no `..`."""
        if ".." not in value.split("/"):
            return None
        start = normalize(value.split("/", 1)[0] or "/", cwd, self.home) if value[:1] in "~$" \
            else ("/" if value.startswith("/") else normalize(".", cwd, self.home))
        rest = value.split("/", 1)[1] if value[:1] in "~$" and "/" in value else \
            ("" if value[:1] in "~$" else value)
        cur = start
        for part in rest.split("/"):
            if part in ("", "."):
                continue
            if part == "..":
                cur = posixpath.dirname(cur) or "/"
                continue
            nxt = posixpath.join(cur, part)
            made = self._through_links(nxt) if self.links else None
            cur = self.fs.realpath(made if made is not None else nxt)
        lexical = normalize(value, cwd, self.home)
        return None if cur == lexical else cur

    def _word_paths(self, w: Word, cwd: str, any_name: bool = False) -> list[str]:
        if w.value is not None and not w.glob:
            lex = normalize(w.value, cwd, self.home)
            phys = self._physical(w.value, cwd)
            return [lex] if phys is None else [lex, phys]
        pat = w.pattern
        if not pat:
            return []
        if pat.strip("*") == "":
            # a bare `*` (or `**`) names every file of the folder, as bash expands it; a word
            # whose value is not known at all (`$(ls)`, a word xargs reads) may be any of its
            # names, a hidden one too
            d = cwd.rstrip("/") or ""
            if w.value is None and not any_name:
                return []
            found = self.fs.glob(d + "/*")
            if w.value is None:
                found += [f for f in self.fs.glob(d + "/.*")
                          if posixpath.basename(f) not in (".", "..")]
            return [normalize(f, cwd, self.home) for f in found]
        absolute = normalize(pat, cwd, self.home)
        # a `*` that stands for a value not known (`~/"$1"/id_rsa`, `~/{}/id_rsa`) may be a
        # hidden name, as a glob's `*` is not (red team round 10: `.ssh`)
        found = self.fs.glob(absolute, hidden=w.value is None)
        if found:
            return [normalize(f, cwd, self.home) for f in found]
        if w.value is not None:
            return [normalize(w.value, cwd, self.home)]
        return []

    def _embedded(self, text: str, cwd: str) -> list[str]:
        out = []
        # a file: URL in a word names the path it decodes to (percent escapes, a host such as
        # `localhost`: `curl file://localhost/home/me/.ss%68/id_rsa`)
        for m in _FILE_URL.finditer(text):
            url = m.group(0)
            url = url if url[5:7] == "//" else "file://" + url[5:]
            out.append(normalize(tool_path(url, cwd), cwd, self.home))
        for m in _EMBEDDED.finditer(text):
            s = m.group(0).rstrip(".:")
            if s.startswith("${HOME}"):
                s = "$HOME" + s[7:]
            out.append(normalize(s, cwd, self.home))
        return out

    def _code_paths(self, text: str, cwd: str, name: str = "") -> list[str]:
        """The files inline code can name relative to the working folder (programs.code_paths):
        a word with a `/` or a `.` in it (`../.env`, `settings.json`), and a bare word that is
        a file there now; `.` and `..` alone name a folder, not a file in it. `name`: the
        program running it (Tcl's bare words are strings)."""
        names = P.code_paths(text, name.rstrip("0123456789.") in P.BARE_WORD_LANGUAGES)
        return self._named_files(names, cwd) + self._home_joined(text, names, cwd)

    def _home_joined(self, text: str, names: list[str], cwd: str = "/") -> list[str]:
        """Inline code that finds a folder at run time (the home: `os.environ["HOME"]`,
        `Path.home()`, `os.homedir()`, `$ENV{HOME}`, perl's bare `chdir`; or an absolute
        literal it changes into) and joins literals to it (`+ "/.ssh/id_rsa"`,
        `os.path.join(..., ".ssh", "id_rsa")`, `/ ".ssh" / "id_rsa"`): each literal, and each
        run of up to four in order, is judged below the home and below each absolute literal
        (the first four) of code that changes folder."""
        code = text[:P.MAX_CODE]
        # an absolute literal is a folder the code may change into (os.chdir, process.chdir,
        # Dir.chdir, perl's chdir)
        # a relative one too (`os.chdir("../../.claude")`), and a folder opened for names
        # relative to it (python's dir_fd, openat): red team round 8
        moves = any(k in code for k in ("chdir", "dir_fd", "openat", "opendir")) or bool(
            re.search(r"(?:^|[;\s\[{])cd\s", code))         # Tcl's and the shells' `cd DIR`
        bases = [n.rstrip("/") for n in names if n.startswith("/") and n.strip("/")][:4] \
            if moves else []
        if moves:
            bases += [normalize(n, cwd, self.home).rstrip("/") or "/" for n in names
                      if not n.startswith("/") and (n.startswith(("..", "~"))
                                                    or "/" in n.strip("/"))][:4]
        if P.HOME_IDIOM.search(code):
            bases.append(self.home)
            # interpolated in a string: perl's "$ENV{HOME}/.ssh/x", ruby's "#{Dir.home}/.ssh/x"
            names = names + [m.group(1) for m in P.HOME_IN_STRING.finditer(code)]
        rel = [n.strip("/") for n in names if n.strip("/")][:40]     # (`+ "/.ssh/id_rsa"` too)
        if not bases or not rel:
            return []
        runs = {"/".join(rel[i:i + k]) for i in range(len(rel)) for k in range(1, 5)
                if i + k <= len(rel)}
        return [posixpath.normpath(f"{b}/{r}") for b in bases for r in sorted(runs)]

    def _value_paths(self, value: str, cwd: str) -> list[str]:
        """The files a value given to a program can name (programs.names_paths), judged as
        inline code's literals are."""
        return self._named_files(P.names_paths(value), cwd)

    def _glued(self, v: str, cwd: str) -> list[str]:
        """The rests of a cluster of short options `v` that may be a value glued to the letter
        before them and name a file (as _named_files counts one: a `/` or a `.` in it, or a
        file there now)."""
        out = []
        for k in range(2, len(v)):
            if not v[k - 1].isalnum():
                break
            rest = v[k:]
            if rest not in (".", "..") and ("/" in rest or "." in rest
                                             or self.fs.exists(normalize(rest, cwd, self.home))):
                out.append(rest)
        return out

    def _named_files(self, words, cwd: str) -> list[str]:
        out = []
        for w in words:
            if w in (".", ".."):
                continue
            p = normalize(w, cwd, self.home)
            if "/" in w or "." in w or self.fs.exists(p):
                out.append(p)
        return out

    # -- a simple command
    def for_command(self, cmd: Cmd, unresolved_hit=None) -> list[tuple[dict, str, str]]:
        name = cmd.name
        cwd = cmd.cwd or "/"
        vals = [a.value for a in cmd.argv[1:]]
        flags: set[str] = set()
        for v in vals:
            if v and v.startswith("-") and v != "-" and v != "--":
                if v.startswith("--"):
                    flags.add(v.split("=", 1)[0])
                else:
                    flags.add(v)
                    flags.update("-" + c for c in v[1:])
        words = {v for v in vals if v}
        role = P.role(name, flags) if name else "unknown"
        rec = P.recursive(name, flags, words)
        skip_hidden = name in P.SKIPS_HIDDEN and not (flags & set(P.SKIPS_HIDDEN[name]))
        follow = P.follows_links(name, flags, words)
        hits: list[tuple[dict, str, str]] = []

        def check(paths, access, recursive=rec, follow=follow):
            for p in paths:
                hits.extend(self.hits(p, access, recursive, skip_hidden, follow))

        both = {"read", "write"}
        if name in P.SIGNALLERS:
            # stopping or killing the guard's hook processes switches it off for the calls they
            # judge (red team round 10: a background `pkill -STOP -f agentdeck-hoo[k]` loop):
            # a signal by a name or pattern that can match one is a write of its wrapper
            check(self._signalled(name, vals), {"write"}, False)
        # a link made to a path is access to it (read and write, as the rule says), and later
        # commands of the line that use the link reach it
        check(self._made_links(name, cmd, flags, cwd), both, False)
        if name in P.PERMISSION_WRITERS and not rec:
            # `chmod 000 ~/.claude`, `chattr +i ~/.local/state`: what is under a folder whose
            # mode, owner or attributes change may no longer be read (or written) by the CLI
            # and the handler: the guard's own files there count as written
            for w in cmd.argv[1:]:
                if w.value and not w.value.startswith("-"):
                    p = normalize(w.value, cwd, self.home)
                    if self.fs.is_dir(p):
                        hits.extend(h for h in self.hits(p, {"write"}, True)
                                    if h[0].get("id") == SELF_RULE)
        for mode, w in cmd.redirects:
            if mode == "here":
                # a program an interpreter reads from stdin (`python3 - <<EOF`, `perl <<< '...'`,
                # `echo CODE | python3`): its text names paths as -c's does
                if name in P.INTERPRETERS and w.value:
                    check(self._embedded(w.value, cwd) + self._code_paths(w.value, cwd, name), both,
                          P.code_removes_trees(w.value))
                continue
            acc = {"r": {"read"}, "w": {"write"}, "rw": both}[mode]
            check(self._word_paths(w, cwd), acc, False)
        if role == "mention":
            return hits
        # an interpreter's program given as text (-c CODE, awk's program, sqlite3's SQL) is no
        # file operand: the paths its words name, relative to the working folder, are
        code_at = {i for i, _ in P.inline_code_at(name, vals) if i is not None} \
            if name in P.INTERPRETERS else set()
        for i in code_at:
            text = vals[i]
            if text is not None:
                check(self._code_paths(text, cwd, name), both, P.code_removes_trees(text))
        operands: list[Word] = []
        ended = False
        unsplit = P.short_options(name) is None
        # the words that are a short option's value (`-f F`, `split -l 1`): judged as operands
        # are, but not counted among them (a program's Nth operand, a copy's destination)
        valued = {id(cmd.argv[1 + i]) for i in P.option_values_at(name, vals)}
        base = cwd
        skip_next = False
        bases: dict[int, str] = {}
        for i, w in enumerate(cmd.argv[1:]):
            v = w.value
            if skip_next:
                skip_next = False
                continue
            bases[id(w)] = base
            if i in code_at:
                continue
            if v is None and w.inner:
                for c in w.inner:
                    if c.name == "git" and P.names_only(c.name, [a.value for a in c.argv[1:]]):
                        # `cat $(git ls-files)`: the files of the repository it runs in
                        check([c.cwd or cwd], {"read", "write"} if role in ("unknown", "rw", "move")
                              else {"read"} if role in ("read", "copy") else {"write"}, True)
                # `cat $(echo ~/.ssh/id_rsa)`: what the substitution prints is the operand;
                # every word its commands were given is a candidate
                given = [a for c in w.inner for a in c.argv[1:] if a.value is not None]
                operands += given
                # `$(ls -d ~/.ssh)/id_rsa`: each of those words with the text that follows
                tail = w.pattern[1:] if w.pattern.startswith("*") else ""
                if tail.startswith("/") and not any(ch in tail for ch in "*?"):
                    operands += [Word.lit(a.value.rstrip("/") + tail.replace("[[]", "[")
                                          .replace("[]]", "]")) for a in given if a.value]
                # and the word itself, by every value it can take (`id_$(ls)`: id_*)
            if v is not None and not ended:
                if v == "--":
                    ended = True
                    continue
                if v.startswith("-") and v != "-":
                    if (name in P.COPY or name in P.MOVE or name == "ln") and (
                            v in ("-t", "--target-directory")
                            or v.startswith("--target-directory=")):
                        # the folder the sources land in: _destinations judges what lands
                        skip_next = "=" not in v
                        continue
                    if v.startswith("--directory=") and name in P.CHDIR_OPTION:
                        base = normalize(v.split("=", 1)[1], base, self.home)
                        continue
                    if "=" in v:
                        operands.append(Word.lit(v.split("=", 1)[1]))
                    elif not v.startswith("--") and unsplit:
                        # `prog -fFILE`, `prog -xvfFILE` where prog's options are not known
                        # (programs.SHORT_OPTIONS): any rest of the cluster may be a value
                        # glued to the letter before it; one that names a file is an operand
                        operands += [Word.lit(x) for x in self._glued(v, base)]
                    if v in ("-C", "--directory") and name in P.CHDIR_OPTION:
                        # -C DIR: the folder the operands after it are relative to, not an
                        # operand itself (`tar -czf x.tgz -C ~ notes` reads ~/notes, not ~)
                        nxt = cmd.argv[i + 2] if i + 2 < len(cmd.argv) else None
                        if nxt is not None and nxt.value is not None:
                            base = normalize(nxt.value, base, self.home)
                            skip_next = True
                    continue
                if name == "dd" and v.startswith(("if=", "of=")):
                    acc = {"read"} if v.startswith("if=") else {"write"}
                    check([normalize(v[3:], cwd, self.home)], acc, False)
                    continue
                if v.startswith("@") and len(v) > 1:
                    operands.append(Word.lit(v[1:]))
                    continue
                if "=@" in v:
                    operands.append(Word.lit(v.split("=@", 1)[1].split(";", 1)[0]))
                    continue
            operands.append(w)
        access = {"meta": set(), "read": {"read"}, "write": {"write"}, "rw": both,
                  "unknown": both, "move": both, "copy": {"read"}}.get(role, both)
        if name in P.ARCHIVERS:
            access = both if name not in P.TAR_NAMES else {"read"}
        if name in P.COPY or name in P.MOVE or name == "ln":
            # where each source lands (DEST/<name> in a folder), and whole trees written there
            hits.extend(self._destinations(name, cmd, flags, cwd, rec))
        plain = [w for w in operands if id(w) not in valued]
        if name in P.MOVE and len(plain) >= 2 and not flags & {"-t", "--target-directory"}:
            operands = [w for w in operands if w is not plain[-1]]   # _destinations judges it
        if role == "copy" and len(plain) >= 2:
            check(self._word_paths(plain[-1], cwd), {"write"}, rec)
            operands = [w for w in operands if w is not plain[-1]]
        if access and rec and P.searches_working_folder(name, flags, [w.value for w in operands]):
            check([base], {"read"}, True)         # `cd ~/.ssh && grep -r x`, `rg key`
        # a program no table models (programs.modelled) may walk a folder it is given: one that
        # holds a protected path makes the command unresolved (`scanner ~/.ssh`, `tool --dir=~`)
        walks = role == "unknown" and not rec and bool(name) and not P.modelled(name)
        if access:
            files = role in ("read", "write", "rw", "copy", "move")   # its operands are files
            for w in operands:
                wb = bases.get(id(w), base)
                if files and w.value is None and w.pattern and w.pattern.strip("*") == "":
                    self._any_name(name, w, wb, access, rec or role == "move")
                    continue
                found = self._word_paths(w, wb)
                check(found, access, rec or role == "move")
                if walks and not hits:
                    self._walked(name, found, access)
            for w in cmd.feeds:               # find -exec, xargs: everything below the dirs
                if files and w.value is None and w.pattern.strip("*") == "":
                    self._any_name(name, w, cwd, access, rec or role == "move")
                    continue
                saved = self.follow_names
                self.follow_names = P.find_names(cmd.via)
                check(self._word_paths(w, cwd), access, True, follow or "find -L" in cmd.via)
                if "find -L" in cmd.via and role in ("copy", "move", "write", "rw", "unknown"):
                    # a found name may be where it writes (`-exec cp EVIL {} \;`): through a
                    # link found there, the link's target is written (red team round 8)
                    for d in self._word_paths(w, cwd):
                        if self.fs.is_dir(d):
                            hits.extend(self._followed_below(d, {"write"}, skip_hidden))
                self.follow_names = saved
        if role not in ("meta",) or name in P.INTERPRETERS:
            emb_access = both if (name in P.INTERPRETERS or role == "unknown") else access
            if emb_access:
                for w in cmd.argv[1:]:
                    if w.value and ("/" in w.value):
                        check(self._embedded(w.value, cwd), emb_access, False)
        if name in P.TAR_NAMES:
            for i, v in enumerate(vals):
                archive = vals[i + 1] if v in ("-f", "--file") and i + 1 < len(vals) else None
                if archive:
                    check([normalize(archive, cwd, self.home)], {"write"}, False)
        # the files an option or a later operand names as the program's output (sort -o F,
        # curl -o F, ssh-keygen -f F, uniq IN OUT, split IN PREFIX, git init DIR, ...)
        opvals = [w.value for w in operands if w.value is not None and id(w) not in valued]
        for where, kind in P.output_writes(name, vals, opvals):
            p = normalize(where, base, self.home)
            if kind == "file":
                check([p], {"write"}, False)
            elif kind == "prefix" and name == "split":
                names = P.split_names(vals, p)
                if names is None:
                    self.unknown.append(f"split names its pieces {where[:40]} and a suffix of "
                                        "more letters than agentdeck lists")
                check(names or [p], {"write"}, False)
            elif kind == "prefix":
                check([p, p + "aa"], {"write"}, False)
            elif kind == "new-tree":
                hits.extend(self.tree_hits(p, {"write"}))
            else:
                hits.extend(self.tree_hits(p, {"write"}, unknown=f"{name} writes files it names "
                                           f"itself into {where[:40]}"))
        # an archive extracted: a whole tree written in its folder, its members where they land
        ext = P.extraction(name, vals)
        if ext is not None:
            hits.extend(self._extracted(name, ext, base if name in P.CHDIR_OPTION else cwd, cwd))
        # a patch applied: every file its text names (git apply, patch < FILE)
        pa = P.patch_application(name, vals)
        if pa is not None:
            hits.extend(self._patched(name, pa, cmd, base))
        # what a program deletes or overwrites as a side effect (programs.side_writes): the
        # folder it acts on (its -C DIR, the working folder), its operands, or a DIR it names
        for where, recursive in P.side_writes(name, vals):
            if where == P.OPERANDS:
                for w in operands:
                    check(self._word_paths(w, bases.get(id(w), base)), {"write"}, True)
            else:
                check([normalize(where, base, self.home)], {"write"}, recursive)
        # what git reads into its object store as a whole tree (`git add -A`, `commit -a`,
        # `stash -u`): the files of the repository the folder is in (a `.git` above it, or the
        # folder itself for one made on the line), where a rule names them; a rule for any
        # folder (`**/.env`) is left to git's ignore files, which are not read here
        if name == "git" and P.git_reads_tree(vals):
            top = self._git_toplevel(normalize(P._git_work_tree(vals) or base, cwd, self.home))
            hits.extend(h for h in self.hits(top, {"read"}, True)
                        if not all(str(g).startswith("**") for g in h[0].get("paths") or ["**"]))
        # what git brings into the work tree (a branch's, a remote's, a stash's files: not known
        # at decision time, so a tree of unknown files; a pathspec: those paths)
        gt = P.git_tree_write(vals) if name == "git" else None
        if gt is not None:
            hits.extend(self._git_brought(gt, vals, base))
        # a value the program is given that names a file (an environment variable of an
        # interpreter, a shell or a program whose role is not known: `X=../k python3 -c CODE`,
        # `HISTFILE=KEY bash -i`; awk's -v, make's and git's -c assignments) is a path it may
        # read or write, as inline code's literals are
        given = list(P.given_values(name, vals))
        if name in P.INTERPRETERS or name in P.SHELLS or role == "unknown":
            given += list(cmd.env.items())
        for _, value in given:
            if value:
                check(self._value_paths(value, cwd), both, P.code_removes_trees(
                    " ".join(a.value or "" for a in cmd.argv[1:])))
        # a file a variable of its environment names as its output (GIT_TRACE=F git status)
        for var, value in cmd.env.items():
            out_file = P.output_var_file(var, value)
            if out_file:
                check([normalize(out_file, cwd, self.home)], {"write"}, False)
        # the files a program reads or writes by default, named nowhere on the line
        # (programs.default_files: `aws configure get`, `ssh-keygen` with no -f, `gh auth token`)
        for where, how in P.default_files(name, vals):
            check([normalize(where, cwd, self.home)], both if how == "rw" else {how}, False)
        # what a package manager's uninstall removes (programs.uninstall_writes): the handler's
        # own package when it names agentdeck, the environment of a pip or python it names
        for where in P.uninstall_writes(cmd.argv[0].value or "" if cmd.argv else "", vals):
            check([normalize(where, cwd, self.home)], {"write"}, True)
        return hits

    def _signalled(self, name: str, vals: list) -> list[str]:
        """The guard's hook programs (the self rule's `agentdeck-hook*` files) that `name`
        (pkill, killall, ...) may signal with these words: its patterns are searched in each
        one's process name and (-f) command line; a pattern that is not static, or a process
        group or every process (`kill -- -1`), may be any of them."""
        hooks = [_concrete(g) for r in self.rules if r.data.get("id") == SELF_RULE
                 for g in (r.data.get("paths") or [])
                 if posixpath.basename(g).startswith("agentdeck-hook")]
        hooks = [_expand_home(h, self.home) for h in hooks]
        if not hooks:
            return []
        shown = [(posixpath.basename(h)[:15], f"/bin/sh {h} PreToolUse",
                  f"/usr/bin/python3 -I {h} PreToolUse") for h in hooks]
        pats, full, exact = P.signal_patterns(name, vals)
        stopping = P.stops(vals)
        out = []
        for (comm, line, py), h in zip(shown, hooks):
            for pat in pats:
                if pat is None:
                    out.append(h)
                    break
                try:
                    rx = re.compile(pat)
                except re.error:
                    out.append(h)
                    break
                # (the handler's interpreter: a stopped one never answers, a killed one
                # makes the wrapper deny; killall compares a long name whole)
                subjects = ([line, py] if full else [comm, posixpath.basename(h)]) + (
                    ["python3"] if stopping and not full else [])
                if any((rx.fullmatch(x) if exact else rx.search(x)) for x in subjects):
                    out.append(h)
                    break
        return out

    def _any_name(self, name: str, w: Word, cwd: str, access: set[str], recursive: bool) -> None:
        """A word whose value is not known at all (`"$@"`, `$(ls)`, a word xargs reads from a
        pipe) may name any file of the folder: one that is protected (or that holds a protected
        path, for a recursive program) makes the command unresolved (self.unknown)."""
        maybe = [h for p in self._word_paths(w, cwd, True) for h in self.hits(p, access, recursive)]
        if maybe and not self.unknown:
            self.unknown.append(f"{name} is given a word whose value is not known, and "
                                f"{maybe[0][1]} is in {cwd}")

    def _walked(self, name: str, paths: list[str], access: set[str]) -> None:
        """`paths`, given to a program whose use of them is not known: a folder among them
        that holds a protected path is reported unresolved (self.unknown), not allowed."""
        for p in paths:
            if self.unknown or not self.fs.is_dir(p):
                continue
            below = self.hits(p, access, recursive=True)
            if below:
                self.unknown.append(f"{name} is given the folder {p}, which holds {below[0][1]}, "
                                    f"and agentdeck does not know what {name} does in it")

    def _glob_below(self, pattern: str) -> list[tuple[dict, str, str]]:
        """A glob tool's pattern that could match a protected file under its folder lists its
        name: that is a read of it. Looked for among the files below the pattern's fixed
        folder (hidden folders included, as Copilot's glob lists them; the walk is bounded), each matched against the
        whole pattern (`*` may cross a `/` here: more, never less)."""
        import fnmatch   # local: only for a glob tool's call

        rx = re.compile(fnmatch.translate(pattern))
        fixed = []
        for part in pattern.split("/"):
            if any(ch in part for ch in "*?["):
                break
            fixed.append(part)
        base = "/".join(fixed) or "/"       # the walk starts where the pattern's wildcards do
        readable = [r for r in self.rules if "read" in r.access]
        if not readable:
            return []
        found = self.fs.find(base, lambda p: bool(rx.match(p)) and any(r.covers(p) for r in readable))
        return self.hits(found, {"read"}) if found else []

    # -- a tool call that is not a shell command
    def _raw_process(self, subjects, cwd: str) -> None:
        """A tool's path with a `..` after a link (`/tmp/pc/../../.ssh/id_rsa`, pc a link to
        /proc/self/cwd): the kernel follows the link first, so the text is not what is opened;
        one that goes through a process's folder is not known (self.unknown)."""
        for s in subjects:
            if isinstance(s, str) and "/.." in s and len(s) <= 4096:
                raw = posixpath.join(cwd, tool_path(s, cwd))
                if self._process_path(raw):
                    self.unknown.append(f"{s} is reached through /proc or /dev/fd, whose "
                                        f"meaning depends on the process that opens it")

    def for_call(self, call, cwd: str) -> list[tuple[dict, str, str]]:
        cwd = cwd or self.home or "/"
        self._raw_process(list(call.subjects) + list(getattr(call, "paths", None) or []), cwd)
        kind = getattr(call, "kind", "") or ""
        hits: list[tuple[dict, str, str]] = []
        if call.cls == "read":
            if kind == "glob":
                pat = call.subjects[0] if call.subjects else ""
                # a glob tool's `{a,b}` lists (ripgrep's and node's globs read them)
                from .shellparse import expand_braces   # local: only for a glob tool's call
                for base in call.subjects[1:] or [cwd]:
                    for one in (expand_braces(pat) if "{" in pat else [pat]) if pat else []:
                        folder = normalize(tool_path(base, cwd), cwd, self.home)
                        full = normalize(tool_path(one, cwd), folder, self.home)
                        for p in self.fs.glob(full) or [full]:
                            hits += self.hits(p, {"read"})
                        if not hits:
                            hits += self._glob_below(full)
                return hits
            if kind == "list":
                return hits
            paths = call.subjects or ([cwd] if kind == "search" else [])
            for s in paths:
                p = normalize(tool_path(s, cwd), cwd, self.home)
                hits += self.hits(p, {"read"}, recursive=(kind == "search"))
            return hits
        if call.cls == "write":
            for s in call.subjects:
                hits += self.hits(normalize(tool_path(s, cwd), cwd, self.home), {"write"})
            return hits
        if call.cls == "web":
            # a file:// URL is a path (Claude's WebFetch, Qwen's web_fetch): read
            for s in call.subjects:
                if isinstance(s, str) and s[:7].lower() == "file://":
                    hits += self.hits(normalize(tool_path(s, cwd), cwd, self.home), {"read"})
            return hits
        if call.cls in ("mcp", "other"):
            # an other tool's path arguments (a tool with no declared file role, or one nobody
            # declares): read and written, the strictest role a path can have; an MCP tool's
            # too, relative ones against the working folder, but read only when its name says
            # it reads (`read_file`, `get_file_contents`, `list_directory`, `search_files`)
            access = {"read", "write"}
            if call.cls == "mcp" and call.subjects and _READS.match(
                    call.subjects[0].rsplit("/", 1)[-1]):
                access = {"read"}
            if call.cwd:      # the folder the tool says it acts in: its names are there
                cwd = normalize(tool_path(call.cwd, cwd), cwd, self.home)
                for s in (getattr(call, "texts", None) or [])[:50]:
                    if 0 < len(s) <= 255 and not any(c.isspace() for c in s) and "://" not in s:
                        # (the folder as a whole: `.`, `:/`, `*`, `-A`, a git server's add)
                        hits += self.hits(normalize(s, cwd, self.home) if s not in (
                            ":/", "*", "-A") else cwd, access, recursive=s in (".", "./", ":/",
                                                                          "*", "-A"))
            for s in getattr(call, "paths", None) or []:
                hits += self.hits(normalize(tool_path(s, cwd), cwd, self.home), access)
                src, colon, _ = s.partition(":")
                if colon and "://" not in s and src.startswith(("/", "~", ".")):
                    # a bind mount `SRC:DST[:ro]` (a container tool's `volumes`): all below SRC
                    hits += self.hits(normalize(tool_path(src, cwd), cwd, self.home), access,
                                      recursive=True)
            for s in getattr(call, "texts", None) or []:
                for p in self._embedded(s, cwd):
                    hits += self.hits(p, {"read", "write"})
                if s.startswith(("~/", "$HOME/")) or s in ("~",):
                    hits += self.hits(normalize(tool_path(s, cwd), cwd, self.home), {"read", "write"})
        return hits
