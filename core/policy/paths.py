"""Protected paths ([[policy.paths]]): which files a tool call or a shell command reads or
writes, and which rule protects them.

    rules = PathRules(doc["paths"], home="/home/me", fs=DiskFS())
    rules.for_call(call, cwd)        # -> [(rule, path, access)] hits
    rules.for_command(cmd)           # one simple command of core.policy.shellparse

A path is absolute and normalized (`~`, `$HOME`, `.`, `..`, `//`), relative ones against the
call's cwd (or the directory a `cd` earlier in the line went to); both it and its symlink-free
form (fs.realpath) are checked. A glob operand is expanded against the disk at decision time.
A rule's globs: `*` and `?` stay inside one path component, `**` crosses them; `except` globs
take files out of it. A directory counts only for recursive readers and writers
(core/policy/programs.py RECURSIVE) when a protected file lies below it.
"""
from __future__ import annotations

import posixpath
import re

from . import programs as P
from .shellparse import Cmd, Word, normalize

#: a process's view of the file system through /proc: its working folder (cwd) or its root
#: (root). A file tool runs in the CLI's own process, whose working folder is the session's.
_PROC_FORM = re.compile(r"^/proc/(?:self|thread-self|[0-9]+)(?:/task/[0-9]+)?/(cwd|root)(?=/|$)")


def tool_path(s: str, cwd: str) -> str:
    """A file tool's path argument as the path it opens: a `file://` URL's path, and the /proc
    forms of a process's working folder or root (`/proc/self/cwd/../.ssh/id_rsa` is the
    working folder's parent's .ssh/id_rsa; normalized lexically only after that)."""
    if s[:7].lower() == "file://":
        from urllib.parse import unquote, urlsplit   # local: only for a file:// URL
        s = unquote(urlsplit(s).path) or "/"
    m = _PROC_FORM.match(s)
    if m:
        s = (cwd.rstrip("/") if m.group(1) == "cwd" else "") + s[m.end():] or "/"
    return s

_EMBEDDED = re.compile(r"""(?:~|\$HOME|\$\{HOME\})/[^\s'"`;|&<>(){}\\,]*"""
                       r"""|(?<![\w.~$}])/(?:[^\s'"`;|&<>(){}\\,/]+/)+[^\s'"`;|&<>(){}\\,]*""")


def glob_rx(pattern: str) -> re.Pattern:
    """A rule glob as a regex: * and ? within a component, ** across them, [...] classes."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            if pattern[i:i + 3] == "**/":
                out.append("(?:.*/)?")
                i += 3
                continue
            if pattern[i:i + 2] == "**":
                out.append(".*")
                i += 2
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i + 2)
            if j < 0:
                out.append(r"\[")
            else:
                body = pattern[i + 1:j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z", re.S)


def _static_prefix(pattern: str) -> str:
    parts = pattern.split("/")
    keep = []
    for p in parts:
        if any(ch in p for ch in "*?["):
            break
        keep.append(p)
    return "/".join(keep) or "/"


class _Rule:
    __slots__ = ("data", "pats", "excepts", "prefixes", "access", "deep")

    def __init__(self, data: dict, home: str):
        self.data = data
        globs = [_expand_home(g, home) for g in data.get("paths") or []]
        self.pats = [glob_rx(g) for g in globs]
        self.prefixes = [(_static_prefix(g), g) for g in globs]
        self.excepts = [glob_rx(_expand_home(g, home)) for g in data.get("except") or []]
        self.access = set(data.get("access") or ("read", "write"))
        self.deep = any(g.startswith("**") for g in globs)

    def covers(self, path: str) -> bool:
        return any(p.match(path) for p in self.pats) and not any(e.match(path)
                                                                for e in self.excepts)

    def below(self, d: str, fs, skip_hidden: bool) -> str | None:
        """A protected file (that exists) under directory `d`, or None."""
        d = d.rstrip("/") or "/"
        for prefix, g in self.prefixes:
            if g.startswith("**"):
                hit = fs.find(d, self.covers)
                cands = [hit] if hit else []
            elif prefix == d or prefix.startswith(d + "/") or d == "/":
                rel = prefix[len(d):] if d != "/" else prefix
                if skip_hidden and any(s.startswith(".") for s in rel.split("/") if s):
                    continue
                cands = fs.glob(g) if any(ch in g for ch in "*?[") else [g]
            elif d.startswith(prefix + "/") and "**" in g:
                hit = fs.find(d, self.covers)
                cands = [hit] if hit else []
            else:
                continue
            for c in cands:
                if self.covers(c) and (fs.exists(c) or c == g):
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
        #: links an earlier command of the same call makes (link -> what it points at): a
        #: later command's path through one is also the path it points at
        self.links: dict[str, str] = {}

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

    def __bool__(self) -> bool:
        return bool(self.rules)

    # -- one path
    def hits(self, path: str, access: set[str], recursive: bool = False,
             skip_hidden: bool = False) -> list[tuple[dict, str, str]]:
        out = []
        forms = [path]
        real = self.fs.realpath(path)
        if real != path:
            forms.append(real)
        linked = self._through_links(path) if self.links else None
        if linked is not None:          # through a link an earlier command of the line made
            forms += [linked, self.fs.realpath(linked)]
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
        return out

    def _word_paths(self, w: Word, cwd: str) -> list[str]:
        if w.value is not None and not w.glob:
            return [normalize(w.value, cwd, self.home)]
        pat = w.pattern
        if not pat or pat.strip("*") == "":
            return []
        absolute = normalize(pat, cwd, self.home)
        found = self.fs.glob(absolute)
        if found:
            return [normalize(f, cwd, self.home) for f in found]
        if w.value is not None:
            return [normalize(w.value, cwd, self.home)]
        return []

    def _embedded(self, text: str, cwd: str) -> list[str]:
        out = []
        for m in _EMBEDDED.finditer(text):
            s = m.group(0).rstrip(".:")
            if s.startswith("${HOME}"):
                s = "$HOME" + s[7:]
            out.append(normalize(s, cwd, self.home))
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
        hits: list[tuple[dict, str, str]] = []

        def check(paths, access, recursive=rec):
            for p in paths:
                hits.extend(self.hits(p, access, recursive, skip_hidden))

        both = {"read", "write"}
        # a link made to a path is access to it (read and write, as the rule says), and later
        # commands of the line that use the link reach it
        check(self._made_links(name, cmd, flags, cwd), both, False)
        for mode, w in cmd.redirects:
            if mode == "here":
                continue
            acc = {"r": {"read"}, "w": {"write"}, "rw": both}[mode]
            check(self._word_paths(w, cwd), acc, False)
        if role == "mention":
            return hits
        operands: list[Word] = []
        ended = False
        base = cwd
        for i, w in enumerate(cmd.argv[1:]):
            v = w.value
            if v is None and w.inner:
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
                    if "=" in v:
                        operands.append(Word.lit(v.split("=", 1)[1]))
                    if v in ("-C", "--directory") and name in P.CHDIR_OPTION:
                        nxt = cmd.argv[i + 2] if i + 2 < len(cmd.argv) else None
                        if nxt is not None and nxt.value is not None:
                            base = normalize(nxt.value, cwd, self.home)
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
            access = both if name != "tar" else {"read"}
        if role == "copy" and len(operands) >= 2:
            check(self._word_paths(operands[-1], cwd), {"write"}, rec)
            operands = operands[:-1]
        if access:
            for w in operands:
                check(self._word_paths(w, base), access, rec or role == "move")
            for w in cmd.feeds:               # find -exec, xargs: everything below the dirs
                check(self._word_paths(w, cwd), access, True)
        if role not in ("meta",) or name in P.INTERPRETERS:
            emb_access = both if (name in P.INTERPRETERS or role == "unknown") else access
            if emb_access:
                for w in cmd.argv[1:]:
                    if w.value and ("/" in w.value):
                        check(self._embedded(w.value, cwd), emb_access, False)
        if name == "tar":
            for i, v in enumerate(vals):
                archive = vals[i + 1] if v in ("-f", "--file") and i + 1 < len(vals) else None
                if archive:
                    check([normalize(archive, cwd, self.home)], {"write"}, False)
        # what a program deletes or overwrites as a side effect (programs.side_writes): the
        # folder it acts on (its -C DIR, the working folder), its operands, or a DIR it names
        for where, recursive in P.side_writes(name, vals):
            if where == P.OPERANDS:
                for w in operands:
                    check(self._word_paths(w, base), {"write"}, True)
            else:
                check([normalize(where, base, self.home)], {"write"}, recursive)
        # what a package manager's uninstall removes (programs.uninstall_writes): the handler's
        # own package when it names agentdeck, the environment of a pip or python it names
        for where in P.uninstall_writes(cmd.argv[0].value or "" if cmd.argv else "", vals):
            check([normalize(where, cwd, self.home)], {"write"}, True)
        return hits

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
    def for_call(self, call, cwd: str) -> list[tuple[dict, str, str]]:
        cwd = cwd or self.home or "/"
        kind = getattr(call, "kind", "") or ""
        hits: list[tuple[dict, str, str]] = []
        if call.cls == "read":
            if kind == "glob":
                pat = call.subjects[0] if call.subjects else ""
                for base in call.subjects[1:] or [cwd]:
                    if pat:
                        folder = normalize(tool_path(base, cwd), cwd, self.home)
                        full = normalize(tool_path(pat, cwd), folder, self.home)
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
            # declares): read and written, the strictest role a path can have
            for s in getattr(call, "paths", None) or []:
                hits += self.hits(normalize(tool_path(s, cwd), cwd, self.home), {"read", "write"})
            for s in getattr(call, "texts", None) or []:
                for p in self._embedded(s, cwd):
                    hits += self.hits(p, {"read", "write"})
                if s.startswith(("~/", "$HOME/")) or s in ("~",):
                    hits += self.hits(normalize(tool_path(s, cwd), cwd, self.home), {"read", "write"})
        return hits
