"""The one reader of configuration files: a read-once view of everything a plan looks at.

Every configuration file agentdeck reads for a plan (the CLIs' settings, hooks and MCP files,
persona files, links, and agentdeck's own manifests) is read here, through the Host, at most once
per view: one read, one hash, one parse per format. Adapters, the planner and the doctor all read
through the same `DiskView`, so

- each file is opened once per plan (tests/unit/test_one_reader.py counts the reads);
- every file a plan read is a plan input (`inputs()`): apply refuses the plan when one changed;
- there is one parser per format and so one error message: a bad file is one `UserError`
  naming file:line:col (`doc`, `json`, `toml`, `text`), or, for readers that must go on
  (the doctor, reports of other tools' files), a `Loaded` carrying that same message (`load`).

Accessors:

    view.state(path)            FileState: bytes, sha, mode, link, directory (raw)
    view.text(path)             str | None (absent); UserError for a directory, bad UTF-8, a dangling link
    view.json(path, jsonc=True) JsonDoc | None (positions: doc.line_of(keypath))
    view.toml(path)             TomlDoc | None
    view.doc(path, fmt)         either of the above by fmt ("json" | "jsonc" | "toml")
    view.data(path, fmt)        the parsed plain value | None
    view.link(path)             the link's target | None (not a link)
    view.load(path, fmt)        Loaded (never raises): absent / error + line + col / parsed
    view.manifest(target, path) the target's Manifest (read and parsed once)
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import UserError
from .formats.errors import FormatError
from .formats.jsonc import MISSING  # the one "nothing there" marker (shared with tomldoc, plan, apply)
from .formats.documents import Doc, new_doc
from .formats.jsonc import JsonDoc
from .host import Host, HostError
from .digest import sha256
from .manifest import Manifest

if TYPE_CHECKING:
    from .formats.tomldoc import TomlDoc


__all__ = ["MISSING", "FileState", "Loaded", "DiskView", "parse_doc", "new_doc", "current_sha"]


@dataclass
class FileState:
    """A file as the plan read it: bytes, sha, mode, symlink (data None: absent)."""
    path: Path
    data: bytes | None          # None: absent
    sha: str | None
    mode: int | None
    is_link: bool
    link_target: str | None
    is_dir: bool
    error: UserError | None = None     # unreadable (raised by every accessor but state/load)
    _text: str | None = None
    _docs: dict[str, Doc | UserError | None] = field(default_factory=dict)

    @property
    def exists(self) -> bool:
        return self.data is not None


@dataclass
class Loaded:
    """One config file as a tolerant reader sees it: absent, unreadable/unparseable (the one
    message, without the path, plus its position), or parsed."""
    path: Path
    exists: bool = False
    text: str | None = None
    data: Any = None
    doc: Doc | None = None
    error: str | None = None        # one line, without the path
    line: int | None = None
    col: int | None = None

    @property
    def ok(self) -> bool:
        return self.exists and self.error is None

    def line_of(self, *keypath: str) -> int | None:
        """1-based line of a key (JSON: exact; TOML: the key's or table's line, best effort)."""
        if self.doc is not None:
            try:
                return self.doc.line_of(tuple(keypath))
            except Exception:
                return None
        if self.text is not None and keypath:
            return toml_line(self.text, keypath)
        return None


@dataclass
class DiskView:
    """The plan's reader: each file read once through the Host, each manifest loaded once."""
    host: Host
    files: dict[str, FileState] = field(default_factory=dict)
    manifests: dict[str, Manifest] = field(default_factory=dict)

    # ---- raw -----------------------------------------------------------------------------------
    def state(self, path: Path) -> FileState:
        key = str(path)
        st = self.files.get(key)
        if st is not None:
            return st
        h = self.host
        path = Path(path)
        is_link = h.is_symlink(path)
        link_target = h.readlink(path) if is_link else None
        is_dir = h.is_dir(path)
        data, error = None, None
        if not is_dir:
            try:
                data = h.read_bytes(path)
            except HostError as e:
                error = _with_position(UserError(_strip_path(str(e), path), path=str(path)))
        st = FileState(path, data, sha256(data) if data is not None else None,
                       h.mode(path) if data is not None else None, is_link, link_target, is_dir,
                       error)
        if error is not None:
            st.sha = "unreadable"
        self.files[key] = st
        return st

    def present(self, path: Path) -> bool:
        """Something is at `path`: a file, a folder or a link (dangling or not)."""
        st = self.state(path)
        return st.exists or st.is_dir or st.is_link

    def link(self, path: Path) -> str | None:
        st = self.state(path)
        return st.link_target if st.is_link else None

    # ---- typed ---------------------------------------------------------------------------------
    def text(self, path: Path) -> str | None:
        st = self.state(path)
        if st.error is not None:
            raise st.error
        if st.is_dir:
            raise UserError("is a directory, expected a file", path=str(path))
        if st.data is None:
            if st.is_link:   # never create a file (and its folders) wherever a dangling link points
                raise UserError(f"is a symlink to {st.link_target}, which does not exist; agentdeck "
                                "does not write through a dangling link (fix or remove it)", path=str(path))
            return None
        if st._text is None:
            try:
                st._text = st.data.decode("utf-8")
            except UnicodeDecodeError as e:
                line = st.data[: e.start].count(b"\n") + 1
                col = e.start - (st.data.rfind(b"\n", 0, e.start) + 1) + 1
                raise UserError("not valid UTF-8", path=str(path), line=line, col=col) from None
        return st._text

    def doc(self, path: Path, fmt: str) -> Doc | None:
        """The parsed document (JsonDoc or TomlDoc) or None when the file is absent.
        fmt: "json" (strict), "jsonc" (comments and trailing commas) or "toml"."""
        st = self.state(path)
        if fmt in st._docs:
            got = st._docs[fmt]
            if isinstance(got, UserError):
                raise got
            return got
        text = self.text(path)
        if text is None:
            return None
        try:
            doc = parse_doc(text, fmt, str(path))
        except UserError as e:
            st._docs[fmt] = e
            raise
        st._docs[fmt] = doc
        return doc

    def json(self, path: Path, *, jsonc: bool = True) -> Doc | None:
        return self.doc(path, "jsonc" if jsonc else "json")

    def toml(self, path: Path) -> Doc | None:
        return self.doc(path, "toml")

    def data(self, path: Path, fmt: str) -> Any:
        d = self.doc(path, fmt)
        return d.data if d is not None else None

    def load(self, path: Path, fmt: str = "text") -> Loaded:
        """The tolerant form of `text`/`doc`: never raises; a problem is `Loaded.error` with the
        same message (and position) the plan would raise."""
        path = Path(path)
        ld = Loaded(path)
        try:
            text = self.text(path)
        except UserError as e:
            ld.exists = self.present(path)
            ld.error, ld.line, ld.col = e.msg, e.line, e.col
            return ld
        if text is None:
            return ld
        ld.exists, ld.text = True, text
        if fmt == "text":
            return ld
        try:
            ld.doc = doc = self.doc(path, fmt)
            ld.data = doc.data if doc is not None else None
        except UserError as e:
            ld.error, ld.line, ld.col = e.msg, e.line, e.col
        return ld

    def manifest(self, target: str, path: Path) -> Manifest:
        """The target's manifest, read (through this view) and parsed once."""
        m = self.manifests.get(target)
        if m is not None and str(m.path) == str(path):
            return m
        st = self.state(path)
        if st.error is not None:
            raise st.error
        m = Manifest.parse(self.host, target, Path(path), st.data)
        self.manifests[target] = m
        return m

    def inputs(self) -> dict[str, str | None]:
        """Every file this view read, with its sha (None: absent): the plan's inputs."""
        return {k: v.sha for k, v in self.files.items()}


def toml_line(text: str, keypath: tuple[str, ...]) -> int | None:
    """The line of `keypath` in TOML text: the `[table]` header for a table, `key =` inside its
    table for a value; None when not found. Good enough for pointing at a finding."""
    def q(k: str) -> str:
        return rf'(?:{re.escape(k)}|"{re.escape(k)}"|\'{re.escape(k)}\')'

    lines = text.splitlines()
    header = re.compile(r"^\s*\[\[?\s*(?P<name>[^\]]+?)\s*\]\]?\s*(?:#.*)?$")

    def norm(name: str) -> tuple[str, ...]:
        parts = re.findall(r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([^.\s]+)', name)
        return tuple(a or b or c for a, b, c in parts)

    # a table (or array of tables) named exactly keypath
    for i, ln in enumerate(lines, 1):
        m = header.match(ln)
        if m and norm(m.group("name")) == tuple(keypath):
            return i
    # a key inside the deepest table that is a prefix of keypath (or at the top level)
    for cut in range(len(keypath) - 1, -1, -1):
        table, rest = tuple(keypath[:cut]), keypath[cut:]
        key_re = re.compile(r"^\s*" + r"\s*\.\s*".join(q(k) for k in rest) + r"\s*=")
        current: tuple[str, ...] = ()
        for i, ln in enumerate(lines, 1):
            m = header.match(ln)
            if m:
                current = norm(m.group("name"))
                continue
            if current == table and key_re.match(ln):
                return i
    return None


def _strip_path(msg: str, path: Path) -> str:
    s = str(path)
    return msg[len(s) + 1:].lstrip() if msg.startswith(s + ":") else msg


def _with_position(e: UserError) -> UserError:
    """Host errors carry "line:col: message" in the text (bad UTF-8): the error with that
    position lifted into its fields (the same error when there is none)."""
    m = re.match(r"^(\d+):(\d+): (.*)$", e.msg)
    if m:
        return UserError(m.group(3), path=e.path, line=int(m.group(1)), col=int(m.group(2)))
    return e


def parse_doc(text: str, fmt: str, path: str) -> Doc:
    try:
        if fmt == "toml":
            from .formats.tomldoc import TomlDoc   # local: tomlkit loads only for a TOML file
            return TomlDoc.parse(text, path=path)
        return JsonDoc.parse(text, path=path, jsonc=(fmt != "json"))
    except FormatError as e:
        raise UserError(e.msg, path=path, line=e.line, col=e.col) from None
    except (ValueError, RecursionError) as e:
        raise UserError(str(e), path=path) from None


def current_sha(host: Host, path: Path) -> str | None:
    """The sha of a file as it is now (for the stale-plan check)."""
    try:
        if host.is_dir(Path(path)):
            return None
        data = host.read_bytes(Path(path))
    except HostError:
        return "unreadable"
    return sha256(data) if data is not None else None
