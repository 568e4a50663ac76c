"""POSIX-sh environment files: ``export KEY='value'`` lines under a comment header."""

from __future__ import annotations

import re
import shlex

__all__ = ["render_env", "parse_env"]

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LINES = re.compile(r"[^\n]*\n|[^\n]+")


def render_env(items: dict[str, str], header: str, *, keep_existing: bool = False) -> str:
    """The file text: ``header`` as ``#`` comment lines, then one ``export`` per item, in order.
    keep_existing: each value is a default only -- a variable the operator already set (in
    ~/.bashrc above our block, or inherited) keeps the operator's value:
    ``[ -n "${NAME+x}" ] || NAME='value'`` then ``export NAME``."""
    lines = [line if line.startswith("#") else f"# {line}".rstrip() for line in header.splitlines()]
    for key, value in items.items():
        if not isinstance(key, str) or not _NAME.fullmatch(key):
            raise ValueError(f"not a shell variable name: {key!r}")
        if not isinstance(value, str):
            raise TypeError(f"the value of {key} is not a str: {value!r}")
        if "\0" in value:
            raise ValueError(f"the value of {key} contains a NUL character")
        if keep_existing:
            lines.append(f'[ -n "${{{key}+x}}" ] || {key}={_quote(value)}')
            lines.append(f"export {key}")
        else:
            lines.append(f"export {key}={_quote(value)}")
    return "".join(line + "\n" for line in lines)


def parse_env(text: str) -> dict[str, str]:
    """Read back what ``render_env`` writes; also plain ``KEY=value`` lines. Comments and other
    commands are skipped; a quoted value may span lines."""
    items: dict[str, str] = {}
    pending = ""
    for line in _LINES.findall(text):
        pending += line
        try:
            words = shlex.split(pending, comments=True)
        except ValueError:  # an open quote: the statement goes on on the next line
            continue
        pending = ""
        if "||" in words:   # render_env(keep_existing=True): `[ -n "${K+x}" ] || K='v'`
            words = words[words.index("||") + 1:]
        if words and words[0] == "export":
            words = words[1:]
            if all(_NAME.fullmatch(w) for w in words):   # a bare `export K`
                continue
        assignments = [w.partition("=") for w in words]
        if words and all(sep and _NAME.fullmatch(name) for name, sep, _ in assignments):
            items.update((name, value) for name, _, value in assignments)
    return items


def _quote(value: str) -> str:
    """Always single-quoted, with shlex.quote's escaping of single quotes."""
    return "'" + value.replace("'", "'\"'\"'") + "'"
