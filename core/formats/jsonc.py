"""JSON and JSONC documents, edited in place so that everything outside the edited span survives.

Why our own parser (evaluated Nov 2026). ``jsonc-edit`` 0.2.1 wraps Microsoft's jsonc-parser, but
runs it in a Node daemon that ``npm install``s the parser into ``~/.jsonc-edit`` on first use
(Node and the network at run time: not acceptable for an installer); its edits re-format the
neighbouring members (``{"x": [1,2,]}`` came back spread over five lines), deleting a key with its
own ``MISSING`` sentinel crashes, and duplicate keys pass silently. ``json-five`` 1.1.2 (last
release 2024-06) does round-trip text exactly through its model API, but it parses JSON5 (single
quotes, hex, ``NaN``, bare keys) with no strict mode and no duplicate-key check, adding a key means
building model nodes and their whitespace by hand, its errors come as a cascade, and it took 1.1 s
on a 128 kB file (stdlib ``json``: 1.5 ms; this module: about 50 ms). So this is a small
span-based editor in the manner of jsonc-parser's ``modify``: a recursive-descent parser records
where every value and member sits, ``set``/``delete`` splice text at those spans, and the text is
parsed again after each edit, so ``data`` and the spans always describe ``text()``.

Edits follow one rule that makes ``set`` of a new key then ``delete`` of it give back the original
bytes, with nothing remembered in between: in an object written over several lines a new member
goes on a new line after the end of the last member's line (after its trailing comments), with a
comma put right after the last member's value (or, when the object ends with a trailing comma, one
after the new member too); in a one-line object it goes right after the last value as
``, "k": v``; an empty ``{}`` opens into lines. ``delete`` removes exactly those shapes, never
removes a comment, and closes an object it empties back to ``{}`` -- so the one shape that does not
come back byte for byte is an empty object written ``{<newline>}``.
"""

from __future__ import annotations

import builtins
import copy
import json
import re
from collections import deque
from contextlib import contextmanager
from typing import Any, Iterator

from .errors import FormatError, position

__all__ = ["MISSING", "JsonDoc", "same_value", "MAX_DEPTH"]

_DELETE: Any = object()  # a pending ``delete`` in a batch


class _Missing:
    """The one "nothing there" marker of the core (disk, plan, manifest priors, adapters): one
    object, kept one by copies and pickles."""
    def __repr__(self) -> str:
        return "MISSING"

    def __copy__(self) -> "_Missing":
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Missing":
        return self

    def __reduce__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()  # "no such key" sentinel, shared with tomldoc
MAX_DEPTH = 200

_WS = re.compile(r"[ \t\r\n]*")
_BLANKS = re.compile(r"[ \t]*")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]+|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
_STRING_PREFIX = re.compile(r'"(?:[^"\\\x00-\x1f]+|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_LINE_BREAK = re.compile(r"[\r\n]")
_WORD = re.compile(r"[A-Za-z0-9_.+-]+")


def same_value(a: Any, b: Any) -> bool:
    """Equality that tells ``True`` from ``1`` and ``1`` from ``1.0`` (dict order ignored)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True   # nan is nan (TOML's `n = nan`): an unchanged value, not an edit
    return type(a) is type(b) and a == b


class _Node:
    """A parsed value: its span, its Python value and, for objects and arrays, its entries."""

    __slots__ = ("kind", "start", "end", "value", "entries", "members")

    def __init__(self, kind: str, start: int) -> None:
        self.kind = kind  # "object" | "array" | "scalar"
        self.start = start
        self.end = start
        self.value: Any = None
        self.entries: list[_Entry] = []  # members or items, in file order
        self.members: dict[str, _Entry] = {}  # objects: key -> member


class _Entry:
    """An object member (``"key": value``) or an array item (``value``; key None)."""

    __slots__ = ("key", "start", "key_end", "value", "comma")

    def __init__(self, key: str | None, start: int, key_end: int, value: _Node) -> None:
        self.key = key
        self.start = start  # of the key, or of the item's value
        self.key_end = key_end
        self.value = value
        self.comma: int | None = None  # offset of the comma after the entry, if any


class _Parser:
    def __init__(self, text: str, path: str, jsonc: bool) -> None:
        self.text = text
        self.path = path
        self.jsonc = jsonc
        self.line_comment_ends: set[int] = set()  # offsets of the line break ending a // comment

    def error(self, offset: int, msg: str) -> FormatError:
        return FormatError.at_offset(self.path, self.text, offset, msg)

    def parse(self) -> _Node:
        text = self.text
        if text.startswith("\ufeff"):
            raise FormatError(self.path, 1, 1, "starts with a byte-order mark (save it as UTF-8 without BOM)")
        if not text.strip(" \t\r\n"):
            raise FormatError(self.path, 1, 1, "empty file")
        pos = self.skip(0)
        if text[pos : pos + 1] != "{":
            raise self.error(pos, "expected a JSON object at the top level")
        root = self.value(pos, 0)
        pos = self.skip(root.end)
        if pos < len(text):
            raise self.error(pos, "unexpected content after the top-level object")
        return root

    def unclosed(self, start: int) -> str:
        line, col = position(self.text, start)
        kind = "object" if self.text[start] == "{" else "array"
        return f"unexpected end of file: the {kind} opened at {line}:{col} is not closed"

    def skip(self, pos: int) -> int:
        """Skip whitespace and (in JSONC) comments."""
        text = self.text
        while True:
            ws = _WS.match(text, pos)
            assert ws is not None   # [ \t\r\n]* matches anywhere
            pos = ws.end()
            if text.startswith("//", pos) or text.startswith("/*", pos):
                if not self.jsonc:
                    raise self.error(pos, "comments are not allowed in strict JSON")
                if text[pos + 1] == "/":
                    m = _LINE_BREAK.search(text, pos)
                    pos = m.start() if m else len(text)
                    self.line_comment_ends.add(pos)
                else:
                    end = text.find("*/", pos + 2)
                    if end < 0:
                        raise self.error(pos, "unterminated /* comment")
                    pos = end + 2
            else:
                return pos

    def value(self, pos: int, depth: int) -> _Node:
        text = self.text
        c = text[pos : pos + 1]
        if c == "{":
            return self.object(pos, depth + 1)
        if c == "[":
            return self.array(pos, depth + 1)
        node = _Node("scalar", pos)
        if c == '"':
            node.value, node.end = self.string(pos)
            return node
        m = _NUMBER.match(text, pos)
        if m:
            w = _WORD.match(text, pos)
            assert w is not None    # a number's first character is a word character
            word = w.group()
            if word != m.group():
                raise self.error(pos, f"invalid number {word!r}")
            node.end = m.end()
            node.value = self.number(pos, m)
            return node
        word_match = _WORD.match(text, pos)
        word = word_match.group() if word_match else ""
        literals = {"true": True, "false": False, "null": None}
        if word in literals:
            node.value, node.end = literals[word], pos + len(word)
            return node
        if word in ("NaN", "Infinity", "-Infinity", "+Infinity"):
            raise self.error(pos, f"{word} is not valid JSON")
        if not c:
            raise self.error(pos, "unexpected end of file")
        shown = word if word else c
        raise self.error(pos, f"unexpected {shown!r}, expected a value")

    def number(self, pos: int, m: re.Match[str]) -> int | float:
        token = m.group()
        try:
            if m.group(1) or m.group(2):
                return float(token)   # 1e400 is valid JSON: inf, as json.loads reads it (kept as written)
            return int(token)
        except ValueError:
            raise self.error(pos, "number has too many digits") from None

    def string(self, pos: int) -> tuple[str, int]:
        text = self.text
        m = _STRING.match(text, pos)
        if m is None:
            prefix = _STRING_PREFIX.match(text, pos)
            assert prefix is not None   # text[pos] is the opening quote
            bad = prefix.end()
            c = text[bad : bad + 1]
            if not c or c in "\r\n":
                raise self.error(pos, "unterminated string")
            if c == "\\":
                raise self.error(bad, "invalid escape in string")
            raise self.error(bad, f"control character {c!r} in string (escape it)")
        token = m.group()
        value = json.loads(token) if "\\" in token else token[1:-1]
        return value, m.end()

    def object(self, start: int, depth: int) -> _Node:
        if depth > MAX_DEPTH:
            raise self.error(start, f"nesting deeper than {MAX_DEPTH} levels")
        text = self.text
        node = _Node("object", start)
        pos = self.skip(start + 1)
        last: _Entry | None = None
        while text[pos : pos + 1] != "}":
            if last is not None and last.comma is None:
                raise self.error(pos, "expected ',' or '}' after a member" if pos < len(text) else self.unclosed(start))
            if text[pos : pos + 1] != '"':
                raise self.error(pos, "expected a string key" if pos < len(text) else self.unclosed(start))
            key, key_end = self.string(pos)
            if key in node.members:
                first = node.members[key].start
                line, col = position(text, first)
                raise self.error(pos, f"duplicate key {json.dumps(key, ensure_ascii=False)} (first at {line}:{col})")
            colon = self.skip(key_end)
            if text[colon : colon + 1] != ":":
                raise self.error(colon, "expected ':' after the key")
            value = self.value(self.skip(colon + 1), depth)
            last = node.members[key] = _Entry(key, pos, key_end, value)
            node.entries.append(last)
            pos = self.skip(value.end)
            if text[pos : pos + 1] == ",":
                last.comma = pos
                pos = self.skip(pos + 1)
                if text[pos : pos + 1] == "}" and not self.jsonc:
                    raise self.error(last.comma, "trailing comma is not allowed in strict JSON")
        node.end = pos + 1
        node.value = {k: m.value.value for k, m in node.members.items()}
        return node

    def array(self, start: int, depth: int) -> _Node:
        if depth > MAX_DEPTH:
            raise self.error(start, f"nesting deeper than {MAX_DEPTH} levels")
        text = self.text
        node = _Node("array", start)
        pos = self.skip(start + 1)
        last: _Entry | None = None
        while text[pos : pos + 1] != "]":
            if last is not None and last.comma is None:
                raise self.error(pos, "expected ',' or ']' after an item" if pos < len(text) else self.unclosed(start))
            if pos >= len(text):
                raise self.error(pos, self.unclosed(start))
            item = self.value(pos, depth)
            last = _Entry(None, pos, pos, item)
            node.entries.append(last)
            pos = self.skip(item.end)
            if text[pos : pos + 1] == ",":
                last.comma = pos
                pos = self.skip(pos + 1)
                if text[pos : pos + 1] == "]" and not self.jsonc:
                    raise self.error(last.comma, "trailing comma is not allowed in strict JSON")
        node.end = pos + 1
        node.value = [e.value.value for e in node.entries]
        return node


class JsonDoc:
    """A JSON/JSONC document; ``data`` is the plain value (read it, change it only through ``set``)."""

    def __init__(self, text: str, *, path: str = "<string>", jsonc: bool = True) -> None:
        self._path = path
        self._jsonc = jsonc
        self._load(text)

    @classmethod
    def parse(cls, text: str, *, path: str = "<string>", jsonc: bool = True) -> "JsonDoc":
        """Parse ``text``; ``jsonc=False`` makes comments and trailing commas errors."""
        return cls(text, path=path, jsonc=jsonc)

    @classmethod
    def new(cls, data: dict[str, Any], *, indent: int = 2) -> "JsonDoc":
        """A fresh document holding ``data``, its text ending with a newline."""
        if not isinstance(data, dict):
            raise TypeError("a JSON document's top level must be a dict")
        return cls(json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False) + "\n", path="<new>")

    # -- reading -------------------------------------------------------------------------------

    @property
    def data(self) -> Any:
        return self._shadow if self._pending is not None else self._value

    def text(self) -> str:
        self._flush()
        return self._text

    def get(self, keypath: tuple[str, ...], default: Any = MISSING) -> Any:
        """The value at ``keypath``, or ``default`` (``MISSING`` unless given) when absent."""
        value: Any = self.data
        for key in _keypath(keypath, allow_empty=True):
            if not isinstance(value, dict) or key not in value:
                return default
            value = value[key]
        return value

    def line_of(self, keypath: tuple[str, ...]) -> int | None:
        """1-based line of the key at ``keypath`` (None when absent)."""
        self._flush()
        keypath = _keypath(keypath)
        parent = self._node_at(keypath[:-1])
        entry = None if parent is None else parent.members.get(keypath[-1])
        return None if entry is None else self._text.count("\n", 0, entry.start) + 1

    def position_of(self, keypath: tuple[str, ...]) -> tuple[int | None, int | None]:
        """1-based (line, column) of the key at ``keypath``; (None, None) when absent."""
        self._flush()
        keypath = _keypath(keypath)
        parent = self._node_at(keypath[:-1])
        entry = None if parent is None else parent.members.get(keypath[-1])
        if entry is None:
            return None, None
        return position(self._text, entry.start)

    # -- editing -------------------------------------------------------------------------------

    @contextmanager
    def batch(self) -> Iterator["JsonDoc"]:
        """Edits inside the ``with`` are collected (``get`` and ``data`` see them at once) and
        applied together when it ends: consecutive new members of one object are inserted in one
        splice and consecutive removals from one object in another, so the text is parsed once
        per run of edits, not once per edit (1,000 MCP servers: one parse, not 1,000). The bytes
        are those the same edits made one by one give (tests/unit/test_formats_batch.py)."""
        if self._pending is not None:  # nested: the outer batch applies
            yield self
            return
        self._pending, self._shadow = [], copy.deepcopy(self._value)
        try:
            yield self
        finally:
            self._flush()

    def set(self, keypath: tuple[str, ...], value: Any) -> None:
        """Set ``keypath`` to ``value``, creating missing intermediate objects."""
        keypath = _keypath(keypath)
        json.dumps(value, allow_nan=False)  # TypeError/ValueError for what JSON cannot hold
        if self._pending is not None:
            if _shadow_set(self._shadow, keypath, value):
                self._pending.append((keypath, copy.deepcopy(value)))
                return
            self._flush()  # walks into a non-object: the edit below says where
        node = self._root
        for depth, key in enumerate(keypath):
            entry = node.members.get(key)
            if entry is None:  # add the rest as one nested value
                for inner in reversed(keypath[depth + 1 :]):
                    value = {inner: value}
                return self._add(keypath[:depth], key, value)
            if depth < len(keypath) - 1 and entry.value.kind != "object":
                raise self._error_at(entry.start, f"cannot set {_dotted(keypath)}: {key!r} is not an object")
            node = entry.value
        self._replace(keypath, value)

    def delete(self, keypath: tuple[str, ...], *, keep_table: bool = False) -> None:
        """Remove the member at ``keypath`` and its separating comma; no-op when absent. (An
        emptied object always stays: ``keep_table`` is for TOML's headers.)"""
        keypath = _keypath(keypath)
        if self._pending is not None:
            if _shadow_delete(self._shadow, keypath):
                self._pending.append((keypath, _DELETE))
            return
        parent = self._node_at(keypath[:-1])
        if parent is not None and keypath[-1] in parent.members:
            self._remove(keypath)

    # -- batches -------------------------------------------------------------------------------

    def _flush(self) -> None:
        """Apply the edits a batch collected, a run of them at a time (see ``batch``)."""
        ops = self._pending
        if ops is None:
            return
        self._pending = self._shadow = None
        i = 0
        while i < len(ops):
            keypath, value = ops[i]
            parent_path, key = keypath[:-1], keypath[-1]
            parent = self._node_at(parent_path)
            run = [(key, value)]
            if parent is not None and parent.kind == "object":
                adding = value is not _DELETE and key not in parent.members
                removing = value is _DELETE and key in parent.members
                seen = {key}
                j = i + 1
                while (adding or removing) and j < len(ops):
                    k2, v2 = ops[j]
                    if (k2[:-1] != parent_path or k2[-1] in seen or (v2 is _DELETE) != removing
                            or (k2[-1] in parent.members) != removing):
                        break
                    run.append((k2[-1], v2))
                    seen.add(k2[-1])
                    j += 1
                if len(run) > 1:
                    if adding:
                        self._add_many(parent_path, run)
                    else:
                        self._remove_many(parent_path, [k for k, _ in run])
                    i = j
                    continue
            if value is _DELETE:
                self.delete(keypath)
            else:
                self.set(keypath, value)
            i += 1

    def _add_many(self, path: tuple[str, ...], items: list[tuple[str, Any]]) -> None:
        """Add new members to the object at ``path`` in one splice: the text ``_add`` gives when
        called once per member. Checked by reading the result; one by one if it does not read
        as the intended object."""
        node = self._existing(path)
        old_text, old_value = self._text, node.value
        text, nl = self._text, self._newline
        entries = node.entries
        last = entries[-1] if entries else None
        open_, close = node.start, node.end - 1
        outer = self._line_indent(open_)
        edits: list[tuple[int, int, str]]
        if not entries and open_ + 1 == close and (node is self._root or self._multiline(self._root)):
            indent = outer + self._unit
            bodies = [self._entry_text(node, k, v, indent, compact=False) for k, v in items]
            edits = [(open_ + 1, open_ + 1, nl + indent + ("," + nl + indent).join(bodies) + nl + outer)]
        elif self._multiline(node):
            if last is None:
                anchor, indent = open_ + 1, outer + self._unit
            else:
                anchor = last.comma + 1 if last.comma is not None else last.value.end
                start = self._line_start_if_first(last.start)
                indent = text[start : last.start] if start is not None else outer + self._unit
            at = self._end_of_line(anchor, close)
            bodies = [self._entry_text(node, k, v, indent, compact=False) for k, v in items]
            if last is not None and last.comma is not None:
                edits = [(at, at, "".join(nl + indent + b + "," for b in bodies))]
            else:
                edits = [(at, at, nl + indent + ("," + nl + indent).join(bodies))]
                if last is not None:
                    edits.append((last.value.end, last.value.end, ","))
        else:
            bodies = [self._entry_text(node, k, v, "", compact=True) for k, v in items]
            if last is None:
                edits = [(open_ + 1, open_ + 1, ", ".join(bodies))]
            elif last.comma is not None:
                edits = [(last.comma + 1, last.comma + 1, "".join(" " + b + "," for b in bodies))]
            else:
                edits = [(last.value.end, last.value.end, "".join(", " + b for b in bodies))]
        want = dict(old_value)
        want.update(items)
        if not self._try_apply(edits, path, want):
            for k, v in items:
                self._add(path, k, v)

    def _remove_many(self, path: tuple[str, ...], keys: list[str]) -> None:
        """Remove members of the object at ``path``, in file order, in one splice: those that
        fill their own lines (what ``_remove`` takes out whole); the object's last member, if it
        goes, by ``_remove`` after them. One by one otherwise."""
        node = self._existing(path)
        text = self._text
        order = {id(e): n for n, e in enumerate(node.entries)}
        idx = [order[id(node.members[k])] for k in keys]
        final = len(node.entries) - 1
        middle = [n for n in idx if n != final]
        edits: list[tuple[int, int, str]] = []
        whole_lines = True
        for n in middle:
            entry = node.entries[n]
            comma = entry.comma
            line_start = self._line_start_if_first(entry.start)
            tail = _blanks_end(text, comma + 1) if comma is not None else -1
            if (comma is None or text[entry.value.end : comma].strip(" \t\r\n") or line_start is None
                    or text[tail : tail + 1] not in ("\r", "\n")):
                whole_lines = False
                break
            edits.append((line_start, _after_newline(text, tail), ""))
        if not whole_lines or idx != sorted(idx):
            for k in keys:
                self._remove(path + (k,))
            return
        want = {k: v for k, v in node.value.items() if k not in set(keys[: len(middle)])}
        if middle and not self._try_apply(edits, path, want):
            for k in keys[: len(middle)]:
                self._remove(path + (k,))
        if len(middle) < len(keys):
            self._remove(path + (keys[-1],))

    def _try_apply(self, edits: list[tuple[int, int, str]], path: tuple[str, ...], want: dict[str, Any]) -> bool:
        """Apply ``edits`` if the object at ``path`` then reads as ``want`` (key order too);
        otherwise leave the text as it was and say so."""
        old = self._text
        try:
            self._apply(edits)
        except FormatError:
            self._load(old)
            return False
        value = self.get(path, None)   # the data as read (no spans needed)
        if not isinstance(value, dict) or list(value) != list(want) or not same_value(value, want):
            self._load(old)
            return False
        return True

    # -- edits at a path of keys (str) and array indexes (int) ------------------------------------

    def _replace(self, path: tuple[str | int, ...], value: Any) -> None:
        """Give the existing value at ``path`` the new ``value``, touching as little text as can be."""
        node = self._existing(path)
        if same_value(node.value, value):
            return
        if node.kind == "object" and isinstance(value, dict):  # member by member: comments survive
            for gone in [k for k in node.value if k not in value]:
                self._remove(path + (gone,))
            for k, v in value.items():
                if k in self._existing(path).members:
                    self._replace(path + (k,), v)
                else:
                    self._add(path, k, v)
            return
        if node.kind == "array" and isinstance(value, (list, tuple)):
            return self._splice_items(path, list(value))
        parent = self._existing(path[:-1])
        # one-line arrays and objects stay on one line; anything else follows the parent's layout
        compact = not self._multiline(parent) or (node.kind != "scalar" and not self._multiline(node))
        self._apply([(node.start, node.end, self._render(value, self._line_indent(node.start), compact))])

    def _splice_items(self, path: tuple[str | int, ...], new: list[Any]) -> None:
        """Turn the array at ``path`` into ``new``, keeping the items they share at both ends."""
        old = self._existing(path).value
        n = min(len(old), len(new))
        head = 0
        while head < n and same_value(old[head], new[head]):
            head += 1
        tail = 0
        while tail < n - head and same_value(old[-1 - tail], new[-1 - tail]):
            tail += 1
        removed, added = range(head, len(old) - tail), new[head : len(new) - tail]
        if len(removed) == 1 and len(added) == 1:  # one item changed: edit inside it
            return self._replace(path + (head,), added[0])
        for index in reversed(removed):
            self._remove(path + (index,))
        for offset, value in enumerate(added):
            self._add(path, None, value, index=head + offset)

    def _remove(self, path: tuple[str | int, ...]) -> None:
        """Remove the entry at ``path`` (it exists) with the comma and line break that separate it."""
        parent = self._existing(path[:-1])
        entries = parent.entries
        index = path[-1] if isinstance(path[-1], int) else entries.index(parent.members[path[-1]])
        entry, text = entries[index], self._text
        close = parent.end - 1
        end = entry.value.end
        edits: list[tuple[int, int, str]] = []
        if entry.comma is not None:
            if text[end : entry.comma].strip(" \t\r\n"):  # a comment sits before the comma
                edits.append((entry.comma, entry.comma + 1, ""))
            else:
                end = entry.comma + 1
        tail = _blanks_end(text, end)
        line_start = self._line_start_if_first(entry.start)
        at_eol = text[tail : tail + 1] in ("\r", "\n")
        if index < len(entries) - 1:
            if line_start is not None and at_eol:
                edits.append((line_start, _after_newline(text, tail), ""))
            else:
                edits.append((entry.start, tail, ""))
        else:
            previous = entries[index - 1] if index > 0 else None
            if entry.comma is None and previous is not None and previous.comma is not None:
                edits.append((previous.comma, previous.comma + 1, ""))
            if line_start is not None and (at_eol or tail == close):
                newline = line_start - (2 if text[line_start - 2 : line_start] == "\r\n" else 1)
                if newline in self._line_comment_ends and not at_eol:
                    edits.append((line_start, tail, ""))  # keep the break that ends a // comment
                else:
                    edits.append((newline, tail, ""))
            elif line_start is not None:
                edits.append((entry.start, tail, ""))
            else:
                before = entry.start
                while text[before - 1] in " \t":
                    before -= 1
                edits.append((before, end, ""))
            if len(entries) == 1 and self._inner_after(edits, parent) == self._newline + self._line_indent(parent.start):
                edits = [(parent.start + 1, close, "")]  # back to the "{}" / "[]" that _add opens up
        self._apply(edits)

    def _add(self, path: tuple[str | int, ...], key: str | None, value: Any, index: int | None = None) -> None:
        """Add a member ``key`` (or, key None, an item before ``index``) to the container at ``path``."""
        node = self._existing(path)
        text, nl = self._text, self._newline
        entries = node.entries
        if index is not None and index < len(entries):
            return self._add_before(node, entries[index], key, value)
        last = entries[-1] if entries else None
        open_, close = node.start, node.end - 1
        outer = self._line_indent(open_)
        opens_up = node.kind == "object" or isinstance(value, (dict, list))
        if not entries and open_ + 1 == close and opens_up and (node is self._root or self._multiline(self._root)):
            indent = outer + self._unit
            body = self._entry_text(node, key, value, indent, compact=False)
            return self._apply([(open_ + 1, open_ + 1, nl + indent + body + nl + outer)])
        if self._multiline(node):
            if last is None:
                anchor, indent = open_ + 1, outer + self._unit
            else:
                anchor = last.comma + 1 if last.comma is not None else last.value.end
                start = self._line_start_if_first(last.start)
                indent = text[start : last.start] if start is not None else outer + self._unit
            at = self._end_of_line(anchor, close)
            body = self._entry_text(node, key, value, indent, compact=False)
            edits = [(at, at, nl + indent + body + ("," if last is not None and last.comma is not None else ""))]
            if last is not None and last.comma is None:
                edits.append((last.value.end, last.value.end, ","))
            return self._apply(edits)
        body = self._entry_text(node, key, value, "", compact=True)
        if last is None:
            return self._apply([(open_ + 1, open_ + 1, body)])
        if last.comma is not None:
            return self._apply([(last.comma + 1, last.comma + 1, " " + body + ",")])
        return self._apply([(last.value.end, last.value.end, ", " + body)])

    def _add_before(self, node: _Node, target: _Entry, key: str | None, value: Any) -> None:
        line_start = self._line_start_if_first(target.start)
        if self._multiline(node) and line_start is not None:
            indent = self._text[line_start : target.start]
            body = self._entry_text(node, key, value, indent, compact=False)
            return self._apply([(line_start, line_start, indent + body + "," + self._newline)])
        body = self._entry_text(node, key, value, self._line_indent(target.start), compact=not self._multiline(node))
        self._apply([(target.start, target.start, body + ", ")])

    # -- internals -----------------------------------------------------------------------------

    _pending: list[tuple[tuple[str, ...], Any]] | None = None  # a batch's edits (see ``batch``)
    _shadow: Any = None           # the data as those edits make it

    _root_node: _Node | None = None
    _unit_found: str | None = None
    _unit_before = "  "   # the unit of the text before the last edit, for a text that shows none

    def _load(self, text: str) -> None:
        """Read ``text``. The stdlib reads it first (C speed) when it is plain JSON with nothing
        this module refuses (duplicate keys, NaN, deep nesting, a BOM...); the span parser then
        runs only when an edit needs the spans. Anything else goes to the span parser at once,
        which gives the one error message with its position."""
        if self._root_node is not None:
            self._unit_before = self._unit
        value = _stdlib_value(text)
        self._root_node = self._unit_found = None
        self._text = text
        if value is None:
            self._parse_spans()
        else:
            self._value = value
        if "\n" in text or not hasattr(self, "_newline"):  # a text without line breaks keeps the style
            self._newline = "\r\n" if "\r\n" in text else "\n"

    def _parse_spans(self) -> None:
        parser = _Parser(self._text, self._path, self._jsonc)
        self._root_node = parser.parse()
        self._value = self._root_node.value
        self._comment_ends = parser.line_comment_ends

    @property
    def _root(self) -> _Node:
        if self._root_node is None:
            self._parse_spans()
        assert self._root_node is not None
        return self._root_node

    @property
    def _line_comment_ends(self) -> builtins.set[int]:   # (`set` here is JsonDoc.set)
        self._root  # noqa: B018 -- parsed with the spans
        return self._comment_ends

    @property
    def _unit(self) -> str:
        if self._unit_found is None:
            self._unit_found = self._detect_unit() or self._unit_before
        return self._unit_found

    def _apply(self, edits: list[tuple[int, int, str]]) -> None:
        self._load(_splice(self._text, edits))

    def _error_at(self, offset: int, msg: str) -> FormatError:
        return FormatError.at_offset(self._path, self._text, offset, msg)

    def _existing(self, path: tuple[str | int, ...]) -> _Node:
        """The node at ``path``, which the edit knows is there (it read the data first)."""
        node = self._node_at(path)
        if node is None:
            raise KeyError(path)
        return node

    def _node_at(self, path: tuple[str | int, ...]) -> _Node | None:
        node = self._root
        for step in path:
            if isinstance(step, int):
                if node.kind != "array" or step >= len(node.entries):
                    return None
                node = node.entries[step].value
            else:
                if step not in node.members:
                    return None
                node = node.members[step].value
        return node

    def _containers(self) -> Iterator[_Node]:
        queue = deque([self._root])
        while queue:
            node = queue.popleft()
            yield node
            queue.extend(e.value for e in node.entries if e.value.kind != "scalar")

    def _detect_unit(self) -> str | None:
        """The indentation step the file uses: first member on its own line, less its object's indent."""
        for node in self._containers():
            outer = self._line_indent(node.start)
            for entry in node.entries:
                start = self._line_start_if_first(entry.start)
                if start is not None:
                    indent = self._text[start : entry.start]
                    if indent.startswith(outer) and len(indent) > len(outer):
                        return indent[len(outer) :]
        return None

    def _line_indent(self, offset: int) -> str:
        start = self._text.rfind("\n", 0, offset) + 1
        m = _BLANKS.match(self._text, start)
        assert m is not None    # [ \t]* matches anywhere
        return m.group()

    def _line_start_if_first(self, offset: int) -> int | None:
        """Start of the line holding ``offset`` when only blanks precede it on that line."""
        start = self._text.rfind("\n", 0, offset) + 1
        return start if start > 0 and _blanks_end(self._text, start) == offset else None

    def _multiline(self, node: _Node) -> bool:
        return "\n" in self._text[node.start : node.end]

    def _inner_after(self, edits: list[tuple[int, int, str]], parent: _Node) -> str:
        """The text between ``parent``'s braces once ``edits`` (all inside them) are applied."""
        inner_edits = [(s - parent.start - 1, e - parent.start - 1, r) for s, e, r in edits]
        return _splice(self._text[parent.start + 1 : parent.end - 1], inner_edits)

    def _render(self, value: Any, indent: str, compact: bool) -> str:
        if compact:
            return json.dumps(value, ensure_ascii=False, allow_nan=False)
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, indent=self._unit)
        return text.replace("\n", self._newline + indent)

    def _entry_text(self, node: _Node, key: str | None, value: Any, indent: str, compact: bool) -> str:
        """``"key": value`` in the object's own colon spacing, or the bare value for an array item."""
        rendered = self._render(value, indent, compact)
        if key is None:
            return rendered
        colon = ": "
        if node.entries:
            last = node.entries[-1]
            between = self._text[last.key_end : last.value.start]
            if between.strip(" \t") == ":":
                colon = between
        return json.dumps(key, ensure_ascii=False) + colon + rendered

    def _end_of_line(self, pos: int, limit: int) -> int:
        """From ``pos``, skip blanks and comments on the same line; stop at a line break or ``limit``."""
        text = self._text
        while pos < limit:
            if text[pos] in " \t":
                pos += 1
            elif text.startswith("/*", pos):
                pos = text.index("*/", pos) + 2
            elif text.startswith("//", pos):
                pos = min(i for i in (text.find("\r", pos), text.find("\n", pos), limit) if i >= 0)
            else:
                break
        return pos


class _Refused(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d = dict(pairs)
    if len(d) != len(pairs):
        raise _Refused("duplicate key")
    return d


def _refuse(word: str) -> Any:
    raise _Refused(word)


def _stdlib_value(text: str) -> Any:
    """``text`` read by json.loads when it holds nothing the span parser refuses; else None."""
    if not text or text[0] not in "{ \t\r\n":
        return None
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_constant=_refuse)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    stack: list[tuple[dict[str, Any] | list[Any], int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return None
        for child in (node.values() if isinstance(node, dict) else node):
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
    return value


def _shadow_set(data: dict[str, Any], keypath: tuple[str, ...], value: Any) -> bool:
    """``set`` on plain data; False (nothing changed) where a step is not an object (a table:
    tomldoc's batches use these two as well)."""
    node = data
    for key in keypath[:-1]:
        child = node.get(key, MISSING)
        if child is MISSING:
            child = node[key] = {}
        elif not isinstance(child, dict):
            return False
        node = child
    node[keypath[-1]] = copy.deepcopy(value)
    return True


def _shadow_delete(data: dict[str, Any], keypath: tuple[str, ...]) -> bool:
    node: Any = data
    for key in keypath[:-1]:
        node = node.get(key) if isinstance(node, dict) else None
    if isinstance(node, dict) and keypath[-1] in node:
        del node[keypath[-1]]
        return True
    return False


def _splice(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, replacement in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _blanks_end(text: str, pos: int) -> int:
    """The offset after the spaces and tabs at ``pos``."""
    m = _BLANKS.match(text, pos)
    assert m is not None    # [ \t]* matches anywhere
    return m.end()


def _after_newline(text: str, pos: int) -> int:
    if text.startswith("\r\n", pos):
        return pos + 2
    return pos + 1 if text.startswith("\n", pos) or text.startswith("\r", pos) else pos


def _keypath(keypath: Any, allow_empty: bool = False) -> tuple[str, ...]:
    if isinstance(keypath, str) or not all(isinstance(k, str) for k in keypath):
        raise TypeError(f"a keypath is a tuple of str, not {keypath!r}")
    path: tuple[str, ...] = tuple(keypath)
    if not path and not allow_empty:
        raise ValueError("empty keypath")
    return path


def _dotted(keypath: tuple[str, ...]) -> str:
    return ".".join(keypath)
