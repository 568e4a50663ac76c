"""TOML documents edited through tomlkit, so comments, order and unknown tables survive.

``tomllib`` checks every text first (it is the reference reader and gives 1-based positions);
tomlkit reads it when an edit first needs its tree (a plan reads TOML and edits none). Every edit parses the current text again, edits the tomlkit
tree, renders it, and checks with ``tomllib`` that the new text reads back as the intended data
before accepting it, so an edit that tomlkit would render wrongly fails loudly instead of writing
a broken file. tomlkit must read the new text too, as the same data (unless it already misread
the file): it rejects some valid TOML, and a text it rejects could not be edited again.

Shapes of the edits, chosen so that ``set`` of a new key and then ``delete`` of it give back the
original text:

* A new table (``set`` of a dict, or of a key under missing tables) is appended as text at the
  end of the file, after one blank line, as ``[a.b."c"]`` with its missing parents implicit (no
  ``[a]`` header). Dicts inside it become inline tables. Deleting the last table of a file also
  removes the blank line before it. Only when tomlkit cannot read that text (it mishandles some
  tables split across the file, such as ``[s]`` ``[s.b.m]`` ``[s.b]`` ``[other]`` ``[s.b.a]``) does
  the table go elsewhere: followed by one blank line, at the line of the header that comes after
  the tables under its nearest ancestor that has headers (below the comments above that header),
  so that no table is split any further.
* A new plain key goes where tomlkit puts it (after the container's last key, before any
  sub-table); the blank line tomlkit would add before the next table header is not added.
* ``delete`` removes the key, then the tables the deletion left empty: implicit parent tables
  always, and the key's own table when the deleted key was a plain value (an empty
  ``[mcp_servers.x]`` would be a broken server entry), unless ``keep_table`` says the table was
  there before the key (the key kind passes it: an operator's empty ``[permissions.x.filesystem]``
  may be what ``default_permissions`` names). A table holding a comment is kept.

Where exactness does not hold: a file ending in blank
lines gets one more blank line before an appended table, which ``delete`` takes back; an empty
``[table]`` the operator wrote, then given its first plain key by us, is removed with that key; a
plain key set in an implicit table that has sub-tables gets a header of its own after them, which
``delete`` of that key leaves behind, empty; a key added to an inline table is rendered by tomlkit as ``{a = 1,new = 2}``; an array is replaced
whole (comments inside a multi-line array that changes are lost; unlike jsonc, no item splicing).
Some layouts of tables split across the file, valid TOML, are beyond tomlkit: an edit that would
need one, or that walks into one the operator wrote, is a FormatError.
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import tomlkit
from tomlkit.container import Container, OutOfOrderTableProxy
from tomlkit.exceptions import ParseError, TOMLKitError
from tomlkit.items import AoT, Comment, InlineTable, Item, Table, Whitespace

from .errors import FormatError
from .jsonc import MISSING, _shadow_delete, _shadow_set, same_value

__all__ = ["MISSING", "TomlDoc"]

_DELETE: Any = object()  # a pending ``delete`` in a batch
_DELETE_KEEP: Any = object()  # a pending ``delete(..., keep_table=True)``

_TABLES = (Container, Table, InlineTable, OutOfOrderTableProxy)  # what keys can be added under
_TOMLLIB_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOMLLIB_AT_END = re.compile(r"\s*\(at end of document\)\s*$")

#: a batch's edits: (keypath, value, or _DELETE)
_Ops = list[tuple[tuple[str, ...], Any]]


class TomlDoc:
    """A TOML document; ``data`` is the plain value, change it only through ``set``/``delete``."""

    def __init__(self, text: str, *, path: str = "<string>") -> None:
        self._path = path
        self._load(text)

    @classmethod
    def parse(cls, text: str, *, path: str = "<string>") -> "TomlDoc":
        return cls(text, path=path)

    @classmethod
    def new(cls) -> "TomlDoc":
        return cls("", path="<new>")

    # -- reading -------------------------------------------------------------------------------

    @property
    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = self._shadow if self._pending is not None else self._data
        return data

    def text(self) -> str:
        self._flush()
        return self._text

    def get(self, keypath: tuple[str, ...], default: Any = MISSING) -> Any:
        value: Any = self.data
        for key in _keypath(keypath, allow_empty=True):
            if not isinstance(value, dict) or key not in value:
                return default
            value = value[key]
        return value

    def position_of(self, keypath: tuple[str, ...]) -> tuple[int | None, int | None]:
        """1-based (line, column) where ``keypath`` is written -- its ``[table]`` header or its
        ``key =`` line -- or (None, None) when it is not written plainly (a dotted key, inside
        an inline table). For error messages only (it reads the text statement by statement)."""
        keypath = _keypath(keypath)
        text = self.text()
        headers = _headers(text)
        for start, path in headers:
            if path == keypath:
                return text.count("\n", 0, start) + 1, 1
        parent = keypath[:-1]
        if parent:
            starts = [i for i, (_, path) in enumerate(headers) if path == parent]
            if not starts:
                return None, None
            begin = headers[starts[0]][0]
            end = headers[starts[0] + 1][0] if starts[0] + 1 < len(headers) else len(text)
        else:
            begin, end = 0, headers[0][0] if headers else len(text)
        for m in _KEY_LINE.finditer(text, begin, end):
            if next(g for g in m.groups() if g is not None) == keypath[-1]:
                at = m.start(m.lastindex or 0)
                return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1 - (
                    0 if m.group(3) else 1)
        return None, None

    def line_of(self, keypath: tuple[str, ...]) -> int | None:
        return self.position_of(keypath)[0]

    # -- editing -------------------------------------------------------------------------------

    @contextmanager
    def batch(self) -> Iterator["TomlDoc"]:
        """Edits inside the ``with`` are collected (``get`` and ``data`` see them at once) and
        applied when it ends: a run of new tables is appended as one text and a run of removed
        tables under one parent is taken out of one tomlkit tree, each checked once (tomllib and
        tomlkit) instead of once per edit. A run that does not read back as intended is done
        one edit at a time. The bytes are those the same edits made one by one give."""
        if self._pending is not None:
            yield self
            return
        self._pending, self._shadow = [], copy.deepcopy(self._data)
        try:
            yield self
        finally:
            self._flush()

    def set(self, keypath: tuple[str, ...], value: Any) -> None:
        """Set ``keypath`` to ``value`` (dicts become tables), creating missing parent tables."""
        keypath = _keypath(keypath)
        _check_value(value)
        if self._pending is not None:
            if _shadow_set(self._shadow, keypath, value):
                self._pending.append((keypath, copy.deepcopy(value)))
                return
            self._flush()  # walks into a non-table: the edit below says so
        with self._tomlkit_errors(f"cannot set {_dotted(keypath)}"):
            self._set(keypath, value)

    def delete(self, keypath: tuple[str, ...], *, keep_table: bool = False) -> None:
        """Remove ``keypath`` and the tables this leaves empty (see the module doc); no-op if absent.
        ``keep_table``: the key's own table keeps its header even when left empty (it was there
        before the key was added: the operator's ``[permissions.x.filesystem]``)."""
        keypath = _keypath(keypath)
        if self._pending is not None:
            if _shadow_delete(self._shadow, keypath):
                self._pending.append((keypath, _DELETE_KEEP if keep_table else _DELETE))
            return
        with self._tomlkit_errors(f"cannot delete {_dotted(keypath)}"):
            self._delete(keypath, keep_table)

    # -- batches -------------------------------------------------------------------------------

    def _flush(self) -> None:
        ops = self._pending
        if ops is None:
            return
        self._pending = self._shadow = None
        i = 0
        while i < len(ops):
            run = self._new_tables_run(ops, i) or self._removed_tables_run(ops, i)
            if len(run) > 1:
                removal = run[0][1] is _DELETE or run[0][1] is _DELETE_KEEP
                done = self._remove_tables(run) if removal else self._append_tables(run)
                if done:
                    i += len(run)
                    continue
                for keypath, value in run:
                    self._one(keypath, value)
                i += len(run)
                continue
            self._one(*ops[i])
            i += 1

    def _one(self, keypath: tuple[str, ...], value: Any) -> None:
        if value is _DELETE or value is _DELETE_KEEP:
            self.delete(keypath, keep_table=value is _DELETE_KEEP)
        else:
            self.set(keypath, value)

    def _new_tables_run(self, ops: _Ops, i: int) -> _Ops:
        """The run of edits from ``i`` that each add a new table (a dict under tables, none
        inline) -- what ``_add_new`` appends at the end of the file."""
        run: _Ops = []
        seen: set[tuple[str, ...]] = set()
        tk = None
        for keypath, value in ops[i:]:
            if value is _DELETE or value is _DELETE_KEEP or not isinstance(value, dict) or keypath in seen:
                break
            if self.get(keypath, MISSING) is not MISSING or any(p in seen for p in _prefixes(keypath)):
                break
            if tk is None:
                tk = self._tomlkit_doc()
            container: Any = tk
            ok = True
            for key in keypath[:-1]:
                if container is None or key not in container:
                    container = None
                    continue
                child = container[key]
                if not isinstance(child, (Container, Table, OutOfOrderTableProxy)) or isinstance(child, InlineTable):
                    ok = False
                    break
                container = child
            if not ok:
                break
            run.append((keypath, value))
            seen.add(keypath)
        return run

    def _removed_tables_run(self, ops: _Ops, i: int) -> _Ops:
        """The run of edits from ``i`` that remove tables ``[parent.name]`` of one parent, in
        the order they stand in the file. ``keep_table`` or not: it keeps the header of the
        table a removed plain value leaves empty, and each removal here is of a whole table."""
        run: _Ops = []
        first = ops[i][0]
        deletes = (_DELETE, _DELETE_KEEP)
        if ops[i][1] not in deletes or len(first) != 2:
            return run
        try:
            tk = self._tomlkit_doc()
            parent = tk[first[0]] if first[0] in tk else None
        except TOMLKitError:
            return run
        if not isinstance(parent, Table):
            return run
        order = {k.key: n for n, (k, item) in enumerate(parent.value.body)
                 if k is not None and isinstance(item, Table)}
        last = -1
        for keypath, value in ops[i:]:
            if value not in deletes or len(keypath) != 2 or keypath[0] != first[0]:
                break
            n = order.get(keypath[1])
            if n is None or n <= last:
                break
            run.append((keypath, value))
            last = n
        return run

    def _append_tables(self, run: _Ops) -> bool:
        """Append each new table as ``_add_new`` does, one text, checked once."""
        parts = [self._text]
        ends_nl = self._text.endswith("\n")
        expected = self._data
        for keypath, value in run:
            fragment = self._fragment(keypath, value)
            if not "".join(parts[-1:]):
                separator = ""
            else:   # after a last line with no line break: the break only (see _tail_removed)
                separator = self._newline
            parts.append(separator + fragment)
            ends_nl = fragment.endswith("\n")
            expected = _with(expected, keypath, value)
        text = "".join(parts)
        if self._newline == "\r\n":
            text = re.sub(r"(?<!\r)\n", "\r\n", text)
        if self._tomlkit_agrees and all(
                self.get(p, MISSING) is MISSING for keypath, _ in run for p in _prefixes(keypath)):
            # new tables under parents the file does not have, one block at its end: no table
            # is split, so what tomlkit read before it reads with them (tomlkit takes ~0.6 s for
            # 1,000 tables; it reads the text when an edit next needs its tree)
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError:
                return False
            if not same_value(data, expected):
                return False
            self._load(text, None, data)
            self._agrees = True
            return True
        return self._accept_checked(text, expected)

    def _remove_tables(self, run: _Ops) -> bool:
        """Remove the run's tables from one tomlkit tree, as ``_delete`` does one by one."""
        doc = self._edit_tree()
        parent_key = run[0][0][0]
        parent = doc[parent_key]
        body = [(k, item) for k, item in parent.value.body if k is not None]
        # one by one, only the removal of the file's last table takes the file's tail (and then
        # the blank line before it): the run is in file order, so that is its last edit or none
        last_in_doc = [k.key for k, _ in doc.body if k is not None][-1:] == [parent_key]
        at_tail = last_in_doc and bool(body) and body[-1][0].key == run[-1][0][1]
        expected = self._data
        for keypath, _ in run:
            _delete_key(parent, keypath[1])
            expected = _without(expected, keypath)
        if parent.is_super_table() and _is_empty_table(parent):
            _delete_key(doc, parent_key)
            expected = _without(expected, (parent_key,))
        text = doc.as_string()
        if at_tail and self._text.startswith(text) and text != self._text:
            text = _tail_removed(self._text, text, self._newline)
        if self._newline == "\r\n":
            text = re.sub(r"(?<!\r)\n", "\r\n", text)
        return self._accept_checked(text, expected)

    def _accept_checked(self, text: str, expected: dict[str, Any]) -> bool:
        if self._problem(text, expected) is not None:
            return False
        self._load(text, *self._checked)
        return True

    def _tomlkit_doc(self) -> Any:
        """A tomlkit tree of the current text, to look at (not to edit)."""
        if self._tk is None or self._tk[0] is not self._text:
            self._tk = (self._text, tomlkit.parse(self._text))
        return self._tk[1]

    @contextmanager
    def _tomlkit_errors(self, what: str) -> Iterator[None]:
        """tomlkit's own errors as a FormatError: it parses some tables split across the file into a
        tree that fails when an edit walks into it (the operator's: ``_problem`` keeps an edit from
        making one)."""
        try:
            yield
        except TOMLKitError as e:
            raise FormatError(self._path, None, None, f"{what}: tomlkit cannot edit this file ({e})") from None

    def _set(self, keypath: tuple[str, ...], value: Any) -> None:
        current = self.get(keypath, MISSING)
        if current is not MISSING and same_value(current, value):
            return
        doc = self._edit_tree()
        container: Any = doc
        for depth, key in enumerate(keypath[:-1]):
            if key not in container:
                return self._add_new(doc, container, keypath, depth, value)
            child = container[key]
            if not isinstance(child, _TABLES):
                raise FormatError(self._path, None, None, f"cannot set {_dotted(keypath)}: {key!r} is not a table")
            container = child
        key = keypath[-1]
        if current is MISSING:
            return self._add_new(doc, container, keypath, len(keypath) - 1, value)
        existing = container[key]
        if isinstance(existing, (Table, InlineTable)) and isinstance(value, dict):
            for gone in [k for k in current if k not in value]:  # merge: keeps comments inside
                self.delete(keypath + (gone,))
            for k, v in value.items():
                self.set(keypath + (k,), v)
            return
        if isinstance(existing, (Table, AoT)):  # a header table turns into a value, or the reverse
            self.delete(keypath)
            return self.set(keypath, value)
        container[key] = _item(value, inline=True)
        self._commit(doc.as_string(), keypath, value)

    def _delete(self, keypath: tuple[str, ...], keep_table: bool = False) -> None:
        if self.get(keypath, MISSING) is MISSING:
            return
        doc = self._edit_tree()
        chain: list[Any] = [doc]
        for key in keypath[:-1]:
            chain.append(chain[-1][key])
        removed_plain = not isinstance(chain[-1][keypath[-1]], (Table, AoT)) and not keep_table
        inline = isinstance(chain[-1], InlineTable)
        _delete_key(chain[-1], keypath[-1])
        expected = _without(self._data, keypath)
        for depth in range(len(keypath) - 1, 0, -1):
            table = chain[depth]
            own_table = depth == len(keypath) - 1 and removed_plain
            if not (_is_empty_table(table) and (table.is_super_table() or own_table)):
                break
            _delete_key(chain[depth - 1], keypath[depth - 1])
            expected = _without(expected, keypath[:depth])
        text = doc.as_string()
        if self._text.startswith(text) and text != self._text:  # the file's tail was removed
            text = _tail_removed(self._text, text, self._newline)
        if inline:
            text = _one_space_at_the_cut(self._text, text)
        self._accept(text, expected, f"cannot delete {_dotted(keypath)}")

    # -- internals -----------------------------------------------------------------------------

    _pending: _Ops | None = None  # a batch's edits (see ``batch``)
    _shadow: Any = None           # the data as those edits make it
    _tk: Any = None               # (text, tomlkit tree of it) once something needed the tree
    _checked: Any = None          # the tree _problem read of the text it accepted
    _agrees: bool | None = None   # tomlkit reads the text as tomllib does (decided once)
    _newline: str                 # set by _load (absent until the first text)

    def _load(self, text: str, tk: Any = None, data: dict[str, Any] | None = None) -> None:
        """Read ``text`` (tomllib). tomlkit reads it only when an edit needs its tree (``tk``:
        one already parsed): a plan reads many TOML files and edits none, and tomlkit takes
        ~0.6 s where tomllib takes ~0.1 s for 1,000 MCP server tables."""
        self._data = data if data is not None else _read(text, self._path)
        self._text = text
        self._tk = (text, tk) if tk is not None else None
        self._agrees = None
        if "\n" in text or not hasattr(self, "_newline"):  # a text without line breaks keeps the style
            self._newline = "\r\n" if "\r\n" in text and "\n" not in text.replace("\r\n", "") else "\n"

    @property
    def _tomlkit_agrees(self) -> bool:
        """Whether tomlkit reads the current text as tomllib does. A text tomlkit rejects
        (tomllib accepted it) is a FormatError saying where tomlkit stumbled."""
        if self._agrees is None:
            try:
                doc = self._tomlkit_doc()
            except ParseError as e:
                raise FormatError(self._path, e.line, e.col + 1, _tomlkit_message(e)) from None
            except TOMLKitError as e:
                raise FormatError(self._path, None, None, str(e)) from None
            self._agrees = _tomlkit_reads_as(doc, self._data)
        return self._agrees

    def _edit_tree(self) -> Any:
        """A tomlkit tree of the current text to edit (the cached one is handed over)."""
        self._tomlkit_agrees  # noqa: B018 -- decided on the tree as read, before any edit
        tree = self._tomlkit_doc()
        self._tk = None
        return tree

    def _add_new(self, doc: Any, container: Any, keypath: tuple[str, ...], depth: int, value: Any) -> None:
        """Add ``keypath`` whose first missing key is ``keypath[depth]`` under ``container``."""
        rest = keypath[depth:]
        # tomlkit would give an implicit table (or one split over the file) a header copied from
        # its first sub-table, comment and all: write the key under a header of its own instead
        implicit = isinstance(container, OutOfOrderTableProxy) or (
            isinstance(container, Table) and container.is_super_table()
        )
        makes_table = isinstance(value, dict) or len(rest) > 1 or implicit
        if makes_table and not isinstance(container, InlineTable):
            table_path = keypath if isinstance(value, dict) else keypath[:-1]
            table_value = value if isinstance(value, dict) else {keypath[-1]: value}
            expected = _with(self._data, keypath, value)
            for text in self._new_table_texts(table_path, table_value):
                if self._problem(text, expected) is None:
                    return self._accept(text, expected, "")
        nested = value
        for inner in reversed(rest[1:]):
            nested = {inner: nested}
        _add_plain(container, rest[0], _item(nested, inline=True))
        self._commit(doc.as_string(), keypath, value)

    def _fragment(self, table_path: tuple[str, ...], table_value: dict[str, Any]) -> str:
        """``[table_path]`` and its keys as text, missing parents implicit."""
        fast = _plain_fragment(table_path, table_value)
        if fast is not None:
            return fast.replace("\n", self._newline)
        fragment_doc = tomlkit.document()
        parent: Any = fragment_doc
        for key in table_path[:-1]:
            implicit = tomlkit.table(is_super_table=True)
            parent.append(key, implicit)
            parent = implicit
        parent.append(table_path[-1], _item(table_value, inline=False))
        return fragment_doc.as_string().lstrip("\n").replace("\n", self._newline)

    def _new_table_texts(self, table_path: tuple[str, ...], table_value: dict[str, Any]) -> Iterator[str]:
        """The texts with ``[table_path]`` written in, best first: appended at the end of the file;
        then, for when tomlkit cannot read that (see the module doc), next to the tables under its
        nearest ancestor that has headers, so that no table is split any further."""
        text, nl = self._text, self._newline
        fragment = self._fragment(table_path, table_value)
        if not text:
            separator = ""
        else:   # a file whose last line has no line break gets the break only (_tail_removed)
            separator = nl
        yield text + separator + fragment
        at = _insertion_point(text, table_path)
        if at is not None:
            yield text[:at] + fragment + nl + text[at:]

    def _commit(self, text: str, keypath: tuple[str, ...], value: Any) -> None:
        self._accept(text, _with(self._data, keypath, value), f"cannot set {_dotted(keypath)}")

    def _accept(self, text: str, expected: dict[str, Any], what: str) -> None:
        if self._newline == "\r\n":
            text = re.sub(r"(?<!\r)\n", "\r\n", text)
        problem = self._problem(text, expected)
        if problem is not None:
            raise FormatError(self._path, None, None, f"{what}: {problem}")
        self._load(text, *self._checked)

    def _problem(self, text: str, expected: dict[str, Any]) -> str | None:
        """None when tomllib, the reference, reads ``text`` as ``expected`` and tomlkit, which the
        next edit starts from, accepts it (it rejects some valid TOML) and reads it as ``expected``
        too -- unless it already misread the current text: an edit must not make matters worse."""
        self._checked = None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            data = None
        if data is None or not same_value(data, expected):
            return "tomlkit rendered TOML that does not read back as intended"
        try:
            doc = tomlkit.parse(text)
        except TOMLKitError as e:
            return f"tomlkit could not read the result ({_tomlkit_message(e)})"
        if self._tomlkit_agrees and not _tomlkit_reads_as(doc, expected):
            return "tomlkit would read the result differently from tomllib"
        self._checked = (doc, data)   # the accepted text read: the next edit starts from them
        return None


def _read(text: str, path: str) -> dict[str, Any]:
    if text.startswith("\ufeff"):
        raise FormatError(path, 1, 1, "starts with a byte-order mark (save it as UTF-8 without BOM)")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        message = str(e)
        line, col = getattr(e, "lineno", None), getattr(e, "colno", None)
        m = _TOMLLIB_POSITION.search(message)
        if m:
            line, col = int(m.group(1)), int(m.group(2))
            message = message[: m.start()]
        elif _TOMLLIB_AT_END.search(message):
            message = _TOMLLIB_AT_END.sub("", message) + " (at end of file)"
            line = text.count("\n") + 1
            col = len(text) - (text.rfind("\n") + 1) + 1
        raise FormatError(path, line, col, _keys_dotted(getattr(e, "msg", None) or message)) from None


_TUPLE_KEY = re.compile(r"\(((?:'[^']*'(?:, )?)+),?\)")


def _keys_dotted(message: str) -> str:
    """tomllib names keys as Python tuples ("Cannot declare ('a', 'b') twice"); say a.b."""
    return _TUPLE_KEY.sub(lambda m: ".".join(re.findall(r"'([^']*)'", m.group(1))), message)


def _reads_as(text: str, expected: dict[str, Any]) -> bool:
    try:
        return same_value(tomllib.loads(text), expected)
    except tomllib.TOMLDecodeError:
        return False


def _tomlkit_reads_as(doc: Any, expected: dict[str, Any]) -> bool:
    try:
        data = doc.unwrap()
    except (TOMLKitError, ValueError, KeyError, TypeError):  # some tables split across the file
        return False
    return same_value(_crlf_as_lf(data), _crlf_as_lf(expected))


def _crlf_as_lf(value: Any) -> Any:
    """``value`` with CRLF line breaks in strings as LF: a CRLF file's multi-line string reads with
    LF in tomllib, with CRLF in tomlkit (TOML lets a reader normalize them)."""
    if isinstance(value, str):
        return value.replace("\r\n", "\n")
    if isinstance(value, dict):
        return {k: _crlf_as_lf(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_crlf_as_lf(v) for v in value]
    return value


def _headers(text: str) -> list[tuple[int, tuple[str, ...]]]:
    """The ``[table]`` and ``[[array]]`` headers of the valid TOML ``text``: where each one's line
    starts, and its keypath. A statement ends at the first line break where the text since the
    previous statement reads alone, so a line inside a multi-line string or array is no header."""
    headers: list[tuple[int, tuple[str, ...]]] = []
    start = 0
    while start < len(text):
        end = start
        while True:
            end = text.find("\n", end) + 1 or len(text)
            try:
                statement = tomllib.loads(text[start:end])
                break
            except tomllib.TOMLDecodeError:
                if end == len(text):
                    return headers
        if text[start:end].lstrip(" \t").startswith("["):
            path: list[str] = []
            node: Any = statement
            while isinstance(node, dict) and len(node) == 1:
                key, node = next(iter(node.items()))
                path.append(key)
            headers.append((start, tuple(path)))
        start = end
    return headers


def _insertion_point(text: str, table_path: tuple[str, ...]) -> int | None:
    """Where a new ``[table_path]`` goes so that no table is split across the file: at the line of
    the header after the tables under the longest prefix of ``table_path`` that has headers (after
    the comments above that header: tomlkit counts those in the table before, so that deleting
    ours gives the bytes back). None when no prefix has headers or its tables end the file."""
    headers = _headers(text)
    for size in range(len(table_path), 0, -1):
        under = [i for i, (_, path) in enumerate(headers) if path[:size] == table_path[:size]]
        if under:
            return headers[under[-1] + 1][0] if under[-1] + 1 < len(headers) else None
    return None


def _tomlkit_message(e: TOMLKitError) -> str:
    return re.sub(r"\s*at line \d+ col \d+\s*$", "", str(e))


def _add_plain(container: Any, key: str, item: Item) -> None:
    """Add ``key`` through tomlkit, undoing the blank line it puts before the following table."""
    if isinstance(container, Container):
        body = container.body
    elif isinstance(container, Table):
        body = container.value.body
    else:  # an inline table or a table split across the file: tomlkit adds no blank line there
        body = []
    indents = [(it, it.trivia.indent) for _, it in body if not isinstance(it, Whitespace) and hasattr(it, "trivia")]
    container[key] = item
    for it, indent in indents:
        it.trivia.indent = indent


def _delete_key(container: Any, key: str) -> None:
    """``del container[key]``, except that a table written in several places of the file loses the
    key in each place holding it and keeps the places left empty (tomlkit would drop those with
    their comments)."""
    fragments = getattr(container, "_tables", None)  # OutOfOrderTableProxy's parts
    if isinstance(container, OutOfOrderTableProxy) and isinstance(fragments, list):
        holders = [t for t in fragments if key in t]
        if holders:
            for table in holders:
                del table[key]
            return
    del container[key]


def _is_empty_table(table: Any) -> bool:
    if not isinstance(table, Table) or len(table) != 0 or table.trivia.comment:
        return False
    return not any(isinstance(item, Comment) for _, item in table.value.body)


def _tail_removed(before: str, after: str, nl: str) -> str:
    """``after`` is ``before`` with its last table taken off by tomlkit. A table appended to a
    file that ended in a line break came after one blank line: drop that blank line. One
    appended to a file whose last line had no break came right after that line (no blank line):
    drop the break, so the file ends as it did."""
    removed = before[len(after):]
    if removed.lstrip(" \t").startswith("[") and after.endswith(nl) and not after.endswith(nl + nl):
        return after[: -len(nl)]
    return _drop_one_trailing_blank_line(after)


def _one_space_at_the_cut(before: str, after: str) -> str:
    """tomlkit takes a key out of an inline table leaving the spaces on both sides of it
    (``{ a = 1,  c = 3 }``, ``{ a = 1  }``): where the cut left a run of spaces, keep one."""
    n = min(len(before), len(after))
    p = 0
    while p < n and before[p] == after[p]:
        p += 1
    q = 0
    while q < n - p and before[-1 - q] == after[-1 - q]:
        q += 1
    lo, hi = p, len(after) - q
    if after[lo:hi].strip(" "):
        return after
    while lo > 0 and after[lo - 1] == " ":
        lo -= 1
    while hi < len(after) and after[hi] == " ":
        hi += 1
    return after[:lo] + " " + after[hi:] if hi - lo >= 2 else after


def _drop_one_trailing_blank_line(text: str) -> str:
    for blank in ("\r\n\r\n", "\n\n"):
        if text.endswith(blank):
            return text[: -len(blank) // 2]
    return text


def _item(value: Any, *, inline: bool) -> Item:
    """A tomlkit item for ``value``: a dict is a table (inline when asked), deeper dicts inline."""
    if isinstance(value, dict):
        table = tomlkit.inline_table() if inline else tomlkit.table()
        for k, v in value.items():
            table.append(k, _item(v, inline=True))
        return table
    if isinstance(value, (list, tuple)):
        array = tomlkit.array()
        for v in value:
            array.append(_item(v, inline=True))
        return array
    item: Item = tomlkit.item(value)
    return item


def _check_value(value: Any) -> None:
    if value is None:
        raise TypeError("TOML has no null value")
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"TOML keys are strings, not {k!r}")
            _check_value(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _check_value(v)


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_KEY_LINE = re.compile(r"""^[ \t]*(?:"([^"\\\n]*)"|'([^'\n]*)'|([A-Za-z0-9_-]+))[ \t]*=""", re.M)
_ESCAPES = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}
_TO_ESCAPE = re.compile(r'[\x00-\x1f\x7f"\\]')


def _plain_string(s: str) -> str:
    return '"' + _TO_ESCAPE.sub(lambda m: _ESCAPES.get(m.group()) or f"\\u{ord(m.group()):04x}", s) + '"'


def _plain_key(k: str) -> str:
    return k if _BARE_KEY.fullmatch(k) else _plain_string(k)


def _plain_value(v: Any) -> str | None:
    """``v`` as tomlkit renders ``_item(v, inline=True)``, for strings, ints, bools and lists and
    dicts of them; None for anything else (tomlkit renders those). Pinned against tomlkit by
    tests/unit/test_formats_batch.py."""
    if isinstance(v, str):
        return _plain_string(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, (list, tuple)):
        items = [_plain_value(x) for x in v]
        if any(isinstance(x, (dict, list, tuple)) for x in v):
            return None
        parts = [r for r in items if r is not None]
        if len(parts) != len(items):
            return None
        return "[" + ", ".join(parts) + "]"
    if isinstance(v, dict):
        members: list[str] = []
        for k, x in v.items():
            r = _plain_value(x)
            if r is None or isinstance(x, (dict, list, tuple)):
                return None
            members.append(f"{_plain_key(k)} = {r}")
        return "{" + ", ".join(members) + "}"
    return None


def _plain_fragment(table_path: tuple[str, ...], table_value: dict[str, Any]) -> str | None:
    """The text tomlkit gives ``[table_path]`` with ``table_value``'s keys (see _fragment), made
    without building tomlkit items (~0.7 ms each); None when a value is not plain."""
    lines = ["[" + ".".join(_plain_key(k) for k in table_path) + "]\n"]
    for k, v in table_value.items():
        r = _plain_value(v)
        if r is None:
            return None
        lines.append(f"{_plain_key(k)} = {r}\n")
    return "".join(lines)


def _prefixes(keypath: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    return (keypath[:i] for i in range(1, len(keypath)))


def _with(data: dict[str, Any], keypath: tuple[str, ...], value: Any) -> dict[str, Any]:
    """A copy of ``data`` with ``keypath`` set (containers on the path copied, others shared)."""
    out = dict(data)
    node = out
    for key in keypath[:-1]:
        child = node.get(key)
        node[key] = dict(child) if isinstance(child, dict) else {}
        node = node[key]
    node[keypath[-1]] = value
    return out


def _without(data: dict[str, Any], keypath: tuple[str, ...]) -> dict[str, Any]:
    """A copy of ``data`` without ``keypath`` (containers on the path copied, others shared)."""
    out = dict(data)
    if len(keypath) == 1:
        del out[keypath[0]]
    else:
        out[keypath[0]] = _without(data[keypath[0]], keypath[1:])
    return out


def _keypath(keypath: Any, allow_empty: bool = False) -> tuple[str, ...]:
    if isinstance(keypath, str) or not all(isinstance(k, str) for k in keypath):
        raise TypeError(f"a keypath is a tuple of str, not {keypath!r}")
    path: tuple[str, ...] = tuple(keypath)
    if not path and not allow_empty:
        raise ValueError("empty keypath")
    return path


def _dotted(keypath: tuple[str, ...]) -> str:
    return ".".join(keypath)
