"""A read-once view of the files a plan looks at.

Each path is read at most once per plan (one read, one hash), parsed at most once, and its sha
is kept as a plan input so apply can refuse a plan whose inputs changed since it was computed.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import UserError
from .host import Host, HostError
from .manifest import sha256

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING", "__bool__": lambda self: False})()


@dataclass
class FileState:
    path: Path
    data: bytes | None          # None: absent
    sha: str | None
    mode: int | None
    is_link: bool
    link_target: str | None
    is_dir: bool
    _text: str | None = None
    _doc: Any = None

    @property
    def exists(self) -> bool:
        return self.data is not None


@dataclass
class DiskView:
    host: Host
    files: dict[str, FileState] = field(default_factory=dict)

    def state(self, path: Path) -> FileState:
        key = str(path)
        st = self.files.get(key)
        if st is not None:
            return st
        h = self.host
        is_link = h.is_symlink(path)
        link_target = h.readlink(path) if is_link else None
        is_dir = h.is_dir(path)
        data = None
        if not is_dir:
            try:
                data = h.read_bytes(path)
            except HostError as e:
                raise UserError(str(e)) from None
        st = FileState(path, data, sha256(data) if data is not None else None,
                       h.mode(path) if data is not None else None, is_link, link_target, is_dir)
        self.files[key] = st
        return st

    def text(self, path: Path) -> str | None:
        st = self.state(path)
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

    def doc(self, path: Path, fmt: str):
        """The parsed document (JsonDoc or TomlDoc) or None when the file is absent."""
        st = self.state(path)
        if st._doc is not None:
            return st._doc
        text = self.text(path)
        if text is None:
            return None
        st._doc = parse_doc(text, fmt, str(path))
        return st._doc

    def inputs(self) -> dict[str, str | None]:
        return {k: v.sha for k, v in self.files.items()}


def parse_doc(text: str, fmt: str, path: str):
    from .formats.errors import FormatError

    try:
        if fmt == "toml":
            from .formats.tomldoc import TomlDoc
            return TomlDoc.parse(text, path=path)
        from .formats.jsonc import JsonDoc
        return JsonDoc.parse(text, path=path, jsonc=(fmt != "json"))
    except FormatError as e:
        raise UserError(e.msg, path=path, line=e.line, col=e.col) from None


def new_doc(fmt: str):
    if fmt == "toml":
        from .formats.tomldoc import TomlDoc
        return TomlDoc.new()
    from .formats.jsonc import JsonDoc
    return JsonDoc.new({})


def current_sha(host: Host, path: Path) -> str | None:
    """The sha of a file as it is now (for the stale-plan check)."""
    try:
        if os.path.isdir(path):
            return None
        data = host.read_bytes(path)
    except HostError:
        return "unreadable"
    return sha256(data) if data is not None else None
