"""Managed blocks: lines between a begin and an end marker line that agentdeck owns in a text file.

A block is ``begin NL body end NL`` where NL is the file's line break (CRLF when the file has
any) and ``body`` ends with exactly one NL (or is empty). Text outside the block is never
changed. ``set_block`` on a file without a block puts it at the top (``block + text``) or at the
bottom (``text + NL + block``: a blank line before it, or, when the text does not end with a line
break, the line break it lacks). The line break before the begin marker then belongs to the
block: ``remove_block`` takes it when a blank line precedes the block or the block ends the file,
so ``remove_block(set_block(t, ...)) == t`` for every text without markers, either placement.
A block added at the top brought no line break before it: told ``placement="top"``,
``remove_block`` keeps the blank line an operator put between their own text above and the
block. Told nothing, it takes a line break only when the block ends the file.
"""

from __future__ import annotations

import re

from .errors import FormatError

__all__ = ["BlockError", "find_block", "get_block", "set_block", "remove_block"]

_LINE = re.compile(r"[^\n]*\n|[^\n]+")


def _line(text: str, pos: int) -> str:
    """The line starting at ``pos``, with its line break ("" at the end of the text)."""
    m = _LINE.match(text, pos)
    return m.group() if m is not None else ""


class BlockError(FormatError):
    """The markers are broken: a begin without an end, an end first, or more than one block."""


def find_block(text: str, begin: str, end: str, *, path: str = "<string>") -> tuple[int, int] | None:
    """Character span of the block: from the begin marker's line to after the end marker's line break."""
    found = _markers(text, begin, end, path)
    return None if found is None else (found[0], found[3])


def get_block(text: str, begin: str, end: str, *, path: str = "<string>") -> str | None:
    """The body between the markers, with "\\n" line breaks (None when there is no block)."""
    found = _markers(text, begin, end, path)
    return None if found is None else text[found[1] : found[2]].replace("\r\n", "\n")


def set_block(text: str, begin: str, end: str, body: str, *, placement: str = "top", path: str = "<string>") -> str:
    """``text`` with the block holding ``body``: replaced in place, or added at ``placement``."""
    if placement not in ("top", "bottom"):
        raise ValueError(f"placement is 'top' or 'bottom', not {placement!r}")
    found = _markers(text, begin, end, path)
    if found is not None:  # keep the line break the block already uses
        nl = "\r\n" if text[found[0] : found[1]].endswith("\r\n") else "\n"
    else:
        nl = "\r\n" if "\r\n" in text else "\n"
    lines = body.replace("\r\n", "\n").rstrip("\n")
    for line in lines.split("\n"):
        if line.strip() in (begin.strip(), end.strip()):
            raise ValueError("the body contains a marker line")
    block = begin + nl + (lines.replace("\n", nl) + nl if lines else "") + end
    if found is not None:
        start, _, body_end, _ = found
        end_line_end = body_end + len(_line(text, body_end).rstrip("\r\n"))
        return text[:start] + block + text[end_line_end:]  # the end line keeps its own line break
    if placement == "top":
        return block + nl + text
    if not text:
        return block + nl
    return text + nl + block + nl


def remove_block(text: str, begin: str, end: str, *, placement: str = "", path: str = "<string>") -> str:
    """``text`` without the block (and the line break before it that the block brought).
    ``placement``: where set_block added it ("top", "bottom"; "" when not known)."""
    found = _markers(text, begin, end, path)
    if found is None:
        return text
    start, _, _, stop = found
    if start > 0 and placement != "top":
        begin_line = _line(text, start)
        nl = "\r\n" if begin_line.endswith("\r\n") else "\n"
        brought = nl if text.endswith(nl, 0, start) else "\n"
        before = start - len(brought)
        if stop == len(text) or (placement == "bottom" and text.endswith("\n", 0, before)):
            start = before
    return text[:start] + text[stop:]


def _markers(text: str, begin: str, end: str, path: str) -> tuple[int, int, int, int] | None:
    """(block start, body start, body end, block end) or None; BlockError when broken."""
    _check_markers(begin, end)
    begins: list[tuple[int, int, int]] = []  # (line number, line start, line end)
    ends: list[tuple[int, int, int]] = []
    for number, m in enumerate(_LINE.finditer(text), start=1):
        stripped = m.group().strip()
        if stripped == begin.strip():
            begins.append((number, m.start(), m.end()))
        elif stripped == end.strip():
            ends.append((number, m.start(), m.end()))
    if not begins and not ends:
        return None
    if len(begins) > 1 or len(ends) > 1:
        lines = ", ".join(str(n) for n, _, _ in sorted(begins + ends))
        second = (begins if len(begins) > 1 else ends)[1][0]
        raise BlockError(path, second, 1, f"more than one managed block (markers on lines {lines})")
    if not ends:
        raise BlockError(path, begins[0][0], 1, "begin marker has no end marker")
    if not begins:
        raise BlockError(path, ends[0][0], 1, "end marker has no begin marker")
    (_, start, body_start), (end_number, body_end, stop) = begins[0], ends[0]
    if body_end < start:
        raise BlockError(path, end_number, 1, f"end marker comes before the begin marker (line {begins[0][0]})")
    return start, body_start, body_end, stop


def _check_markers(begin: str, end: str) -> None:
    if not begin.strip() or not end.strip() or begin.strip() == end.strip():
        raise ValueError("markers must be two different non-empty lines")
    if any(c in marker for marker in (begin, end) for c in "\r\n"):
        raise ValueError("a marker is one line")
