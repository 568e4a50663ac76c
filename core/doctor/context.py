"""What every doctor check shares: the host, the files it reads (each read and parsed once), the
plan per target, the manifests, and the installed CLIs' versions.

Nothing here writes, and nothing here starts a process except `cli()` in live mode (a CLI whose
version cannot be read from its npm package.json is asked with `--version` only under --live).
Every path goes through the Host, so fixture homes are all a test needs.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ..host import Host, HostError

TARGETS = ("copilot", "codex", "claude")


@dataclass
class Loaded:
    """One config file as read: absent, unreadable/unparseable (error + position), or parsed."""
    path: Path
    exists: bool = False
    text: str | None = None
    data: Any = None
    doc: Any = None                 # JsonDoc (line_of) for JSON files
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


@dataclass
class CliInfo:
    target: str
    exe: str | None = None          # found on the host's PATH
    version: str | None = None
    source: str = ""                # "package.json" | "path" | "--version"
    note: str = ""                  # why the version is unknown


@dataclass
class Ctx:
    host: Host
    profile: str = "default"
    targets: list[str] = field(default_factory=lambda: list(TARGETS))
    live: bool = False
    progress: Callable[[str], None] | None = None
    _files: dict[tuple[str, str], Loaded] = field(default_factory=dict)
    _plans: dict[str, tuple[Any, Exception | None]] = field(default_factory=dict)
    _manifests: dict[str, tuple[Any, Exception | None]] = field(default_factory=dict)
    _clis: dict[str, CliInfo] = field(default_factory=dict)
    #: checks leave data for later checks and the live comparison here (e.g. parsed hook models)
    memo: dict[str, Any] = field(default_factory=dict)

    # ---- display -------------------------------------------------------------------------------
    def show(self, path: os.PathLike | str | None) -> str | None:
        return None if path is None else self.host.display(path)

    def say(self, msg: str) -> None:
        if self.progress is not None:
            try:
                self.progress(msg)
            except Exception:
                pass

    # ---- files ---------------------------------------------------------------------------------
    def read(self, path: Path) -> Loaded:
        """The text of a file (no parsing)."""
        return self._load(path, "text")

    def json(self, path: Path, *, jsonc: bool = True) -> Loaded:
        return self._load(path, "jsonc" if jsonc else "json")

    def toml(self, path: Path) -> Loaded:
        return self._load(path, "toml")

    def _load(self, path: Path, fmt: str) -> Loaded:
        key = (str(path), fmt)
        if key in self._files:
            return self._files[key]
        ld = Loaded(path)
        self._files[key] = ld
        try:
            text = self.host.read_text(path)
        except HostError as e:
            ld.exists = self.host.exists(path)
            ld.error = _strip_path(str(e), path)
            m = re.match(r"^(\d+):(\d+): (.*)$", ld.error)
            if m:
                ld.line, ld.col, ld.error = int(m.group(1)), int(m.group(2)), m.group(3)
            return ld
        if text is None:
            return ld
        ld.exists, ld.text = True, text
        if fmt == "text":
            return ld
        from ..formats.errors import FormatError
        try:
            if fmt == "toml":
                ld.data = read_toml(text, str(path))
            else:
                from ..formats.jsonc import JsonDoc
                ld.doc = JsonDoc.parse(text, path=str(path), jsonc=(fmt == "jsonc"))
                ld.data = ld.doc.data
        except FormatError as e:
            ld.error, ld.line, ld.col = e.msg, e.line, e.col
        except (ValueError, RecursionError) as e:
            ld.error = str(e)
        return ld

    # ---- agentdeck's own view ------------------------------------------------------------------
    def adapter(self, target: str):
        """The target adapter, or None when this build has none for it."""
        from .. import targets as targets_mod
        if target not in targets_mod.available():
            return None
        return targets_mod.get(target)

    def plan(self, target: str) -> tuple[Any, Exception | None]:
        """(Plan for this one target, None) or (None, the error that stopped planning)."""
        if target not in self._plans:
            from .. import engine
            from ..errors import UserError
            from ..formats.errors import FormatError
            try:
                self._plans[target] = (engine.build_plan(self.host, self.profile, [target]), None)
            except (UserError, FormatError, HostError) as e:
                self._plans[target] = (None, e)
        return self._plans[target]

    def manifest(self, target: str) -> tuple[Any, Exception | None]:
        if target not in self._manifests:
            from ..errors import UserError
            from ..manifest import Manifest
            ad = self.adapter(target)
            if ad is None:
                self._manifests[target] = (None, None)
            else:
                try:
                    self._manifests[target] = (Manifest.load(self.host, target,
                                                             ad.manifest_path(self.host)), None)
                except UserError as e:
                    self._manifests[target] = (None, e)
        return self._manifests[target]

    def cli(self, target: str) -> CliInfo:
        if target not in self._clis:
            self._clis[target] = _cli_info(self.host, target, self.live)
        return self._clis[target]

    def target_home(self, target: str) -> Path:
        h = self.host
        return {"copilot": h.copilot_home, "codex": h.codex_home, "claude": h.claude_home}[target]


_TOMLLIB_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")


def read_toml(text: str, path: str) -> dict:
    """tomllib (light: no tomlkit on the doctor's path), errors as FormatError with 1-based
    line and column."""
    import tomllib
    from ..formats.errors import FormatError

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = _TOMLLIB_POSITION.search(msg)
        line = col = None
        if m:
            line, col, msg = int(m.group(1)), int(m.group(2)), msg[: m.start()]
        raise FormatError(path, line, col, msg) from None


def _strip_path(msg: str, path: Path) -> str:
    s = str(path)
    return msg[len(s) + 1:].lstrip() if msg.startswith(s + ":") else msg


# ---- versions ----------------------------------------------------------------------------------
_PATH_VERSION = re.compile(r"(?:^|[/@-])v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)(?:/|$)")


def _cli_info(host: Host, target: str, live: bool) -> CliInfo:
    from ..facts import FACTS_BY_TARGET
    from ..facts.versions import parse_cli_version

    facts = FACTS_BY_TARGET[target]
    info = CliInfo(target)
    info.exe = host.which(facts.binary)
    if info.exe is None:
        info.note = f"{facts.binary} is not installed (not found on PATH)"
        return info
    real = Path(os.path.realpath(info.exe))
    # 1. npm install: the package.json of the package the binary belongs to
    for d in list(real.parents)[:8]:
        pj = d / "package.json"
        try:
            raw = host.read_bytes(pj, limit=1024 * 1024)
        except HostError:
            raw = None
        if raw is None:
            continue
        try:
            obj = json.loads(raw)
        except ValueError:
            continue
        if isinstance(obj, dict) and obj.get("name") == facts.npm_package and isinstance(
                obj.get("version"), str):
            info.version, info.source = obj["version"], "package.json"
            return info
    # 2. a versioned install path (e.g. ~/.local/share/claude/versions/2.1.332)
    m = _PATH_VERSION.search(str(real))
    if m:
        info.version, info.source = m.group(1), "path"
        return info
    # 3. ask the CLI -- a process, so only under --live
    if not live:
        info.note = (f"the version of {host.display(info.exe)} is not readable without running it; "
                     "`agentdeck doctor --live` asks it")
        return info
    res = host.run([info.exe, "--version"], timeout=15,
                   env={"COPILOT_AUTO_UPDATE": "false"} if target == "copilot" else None)
    v = None if res.timed_out else parse_cli_version(target, f"{res.stdout}\n{res.stderr}")
    if v:
        info.version, info.source = v, "--version"
    else:
        info.note = f"`{facts.binary} --version` printed no version we recognise"
    return info
