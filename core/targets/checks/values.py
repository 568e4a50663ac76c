"""A value in a CLI's file: whether it has the type a key wants (`type_ok`, `KIND_TEXT`), the
name it most likely meant (`suggest`), the line it is on (`find_line`)."""
from __future__ import annotations

import difflib
import re
from typing import Any, Iterable


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate `name` most likely meant: same letters ignoring case and `_`/`-`, else the
    closest spelling."""
    cands = list(candidates)

    def norm(s: str) -> str:
        return re.sub(r"[_\-\s]", "", s).lower()

    for c in cands:
        if norm(c) == norm(name):
            return c
    close = difflib.get_close_matches(name, cands, n=1, cutoff=0.75)
    return close[0] if close else None


def find_line(text: str | None, needle: str, start: int | None = None) -> int | None:
    """First 1-based line at or after `start` whose text contains `needle`."""
    if not text:
        return None
    for i, ln in enumerate(text.splitlines(), 1):
        if start is not None and i < start:
            continue
        if needle in ln:
            return i
    return None


def type_ok(value: Any, kind: str) -> bool:
    return {
        "str": lambda v: isinstance(v, str),
        "bool": lambda v: isinstance(v, bool),
        "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "table": lambda v: isinstance(v, dict),
        "str_list": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    }[kind](value)


KIND_TEXT = {"str": "a string", "bool": "true or false", "int": "a whole number",
              "number": "a number",
              "table": "a table", "str_list": "an array of strings"}
