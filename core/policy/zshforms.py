"""zsh's own forms, for a CLI that runs its commands in zsh (the operator's `SHELL` is zsh, as on
macOS by default; Claude Code and Codex run commands in the user's shell).

The resolver reads bash. zsh reads some lines differently in ways that reach files or programs
bash would not: `=rm` is /usr/bin/rm (equals expansion), `=(...)` a file made by a command,
`setopt`/`emulate` change how the rest is read (extendedglob makes `^*.pub` and `*~*.pub`
globs), glob qualifiers (`*(e:...:)`, `*(+fn)`) run code, `autoload`ed functions such as `zmv`
rename files by patterns. zsh does not split an unquoted variable's value into words, so the
resolver's reading is the stricter one there.

`zsh_only(text)` says why a line holds such a form ("" when it holds none): the rules make the
command unresolved when a rule could apply. It reads the line's text with quoted parts taken
out; it is a list of forms, so it fails closed (asks) for a form it names, never more.
"""
from __future__ import annotations

import posixpath
import re

_QUOTED = re.compile(r"'[^']*'|\"(?:[^\"\\\\]|\\\\.)*\"|\\\\.")
_FORMS = (
    (re.compile(r"(?:^|[\s;&|(`])=[\w./(-]"), "zsh's `=word` is a program's path or a file a command makes"),
    (re.compile(r"(?:^|[\s;&|(`])(?:setopt|unsetopt|emulate|autoload|zmodload|zmv|zcp|zln|"
                r"zstyle|noglob|bindkey)\b"), "zsh options, modules and functions change how the rest runs"),
    (re.compile(r"[*?\]]\([^)]*\)"), "a zsh glob qualifier can run code"),
    (re.compile(r"(?:^|[\s/=])\^[^\s/]"), "an extendedglob `^` pattern matches every other name"),
    (re.compile(r"\S*[*?[]\S*~\S|\S~\S*[*?[]"), "an extendedglob `~` excludes names from a glob"),
)


def is_zsh(env: dict) -> bool:
    """Whether the CLI runs commands in zsh: its environment's SHELL is zsh."""
    shell = str((env or {}).get("SHELL") or "")
    return posixpath.basename(shell).startswith("zsh")


def zsh_only(text: str) -> str:
    """Why `text` holds a form zsh reads in its own way, or ""."""
    bare = _QUOTED.sub(" ", text)
    for rx, why in _FORMS:
        if rx.search(bare):
            return why
    return ""
