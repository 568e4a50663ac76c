"""A Python virtual environment's `bin/activate`, sourced (`source .venv/bin/activate && pytest`).

Read as shell, the script the venv generators write looks like much that the resolver must not
let through: it restores PATH and PYTHONHOME from saved copies whose values are not static, runs
`hash -r`, branches on `uname`. Its effect, though, is small and known: VIRTUAL_ENV is set to one
folder, that folder's bin/ is put first on PATH, PYTHONHOME is unset, the prompt changes, and a
`deactivate` function is defined that puts the saved values back.

`venv_dir(text)` recognises such a script by an allowlist of line forms, each with that known
effect (the forms CPython's venv, virtualenv and uv write): every line that is not a comment must
match one of them, exactly one static folder must be given to VIRTUAL_ENV, and PATH and PYTHONHOME
may only be set to that folder's bin/ first or back to their saved copies. Anything else (one extra
command, a redirection, a substitution the forms do not name, a line continued with a backslash)
and the script is resolved line by line as any other sourced file is. The caller then judges the
effect instead of the text: `PATH=<folder>/bin:$PATH`.
"""
from __future__ import annotations

import re

#: a parameter the forms read: $X ${X} ${X:-} ${X-} ${X+_} ${X:+_} ${X:+x} ${BASH_SOURCE[0]} ${1-} $0
_PARAM = r"\$(?:\{(?:[A-Za-z_][A-Za-z0-9_]*(?:\[0\])?|[0-9])(?::?[-+][A-Za-z_]*)?\}|[A-Za-z_][A-Za-z0-9_]*|[0-9@])"
_DQ = r'"(?:[^"\\`$\n]|\\[^\n]|' + _PARAM + r')*"'
_SQ = r"'[^'\n]*'"
_LIT = r"[A-Za-z0-9_./@%+=:,-]+"
_VAL = rf"(?:{_SQ}|{_DQ}|{_LIT})+"
#: variables whose value changes nothing that runs (the prompt, the venv's name, saved copies)
_PLAIN = r"(?:PS1|VIRTUAL_ENV_PROMPT|_OLD_VIRTUAL_[A-Z0-9_]+|SCRIPT_PATH|_OLD_SCRIPT_PATH)"
_NAMES = r"(?:PS1|VIRTUAL_ENV|VIRTUAL_ENV_PROMPT|PATH|PYTHONHOME|_OLD_VIRTUAL_[A-Z0-9_]+|SCRIPT_PATH|" \
         r"_OLD_SCRIPT_PATH)"
_QUIET = r"(?:\s*(?:2>\s*/dev/null|>\s*/dev/null|2>&1|&>\s*/dev/null))*"
_TEST = rf"!?\s*\[\s+(?:(?:{_VAL}|-[nz]|!?=|!)\s+)+\]"
_COND = rf"\(?{_TEST}(?:\s*(?:\|\||&&)\s*{_TEST})*\)?"

_FORM_TEXTS = (
    r"(?:deactivate|pydoc)\s*\(\)\s*\{", r"\}", r"fi", r"else", r";;", r"esac", r"then",
    rf"(?:if|elif)\s+{_COND}\s*;?\s*then",
    r'case\s+"\$\(uname(?:\s+-r)?\)"\s+in', r"[A-Za-z0-9*|]+\)",
    # assignments (one per line, possibly exported): what each may be set to is checked below
    rf"(?:export\s+)?{_PLAIN}={_VAL}",
    r'VIRTUAL_ENV_PROMPT=\$\(basename\s+"\$VIRTUAL_ENV"\)',
    rf"(?:export\s+)?VIRTUAL_ENV=(?:{_VAL}|\$\((?:cygpath|wslpath)(?:\s+-u)?\s+{_VAL}\))",
    r'PATH="\$VIRTUAL_ENV/"?bin"?:\$PATH"',
    r'(PATH|PYTHONHOME)="(?:\$\{_OLD_VIRTUAL_\1:-\}|\$_OLD_VIRTUAL_\1)"',
    rf"export(?:\s+{_NAMES})+", rf"unset(?:\s+{_NAMES})+",
    rf"unset\s+-f\s+(?:deactivate|pydoc){_QUIET}(?:\s*\|\|\s*true)?",
    rf"\\?hash\s+-r{_QUIET}(?:\s*\|\|\s*true)?",
    r"deactivate\s+nondestructive", rf"echo\s+{_DQ}\s*>&2", r"exit\s+[0-9]+", r"return(?:\s+[0-9]+)?",
    r'python\s+-m\s+pydoc\s+"\$@"',
    r"alias\s+pydoc\s+2>/dev/null\s+>/dev/null\s+&&\s+unalias\s+pydoc\s+\|\|\s+true",
    # uv's and virtualenv's other shells' spellings of the script's own path
    r'SCRIPT_PATH="\$\{\(%\):-%x\}"', r'SCRIPT_PATH="\$\{\.sh\.file\}"',
    r'if\s+\(\[\s+"\$OSTYPE"\s+=\s+"cygwin"\s+\]\s+\|\|\s+\[\s+"\$OSTYPE"\s+=\s+"msys"\s+\]\)\s+&&\s+'
    r'\$\(command\s+-v\s+cygpath\s+&>\s+/dev/null\)\s*;\s*then',
)
_STATIC_VENV = rf"(?:export\s+)?VIRTUAL_ENV=({_SQ}|\"[^\"\\`$\n]*\"|{_LIT})"
#: compiled on the first sourced script that may be one (the hook pays nothing otherwise)
_COMPILED: list = []
#: the most lines a generated script has (CPython's ~70, uv's ~110 with its licence)
MAX_LINES = 200


def venv_dir(text: str) -> str | None:
    """The folder a generated activate script makes the virtual environment (its bin/ first
    on PATH), or None when `text` is not one (then it is resolved as any sourced script)."""
    if "deactivate" not in text or "VIRTUAL_ENV" not in text:
        return None                     # the cheap test first: most sourced files are not one
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        return None
    if not _COMPILED:
        _COMPILED.append(re.compile("|".join(f"(?:{f})" for f in _FORM_TEXTS), re.S))
        _COMPILED.append(re.compile(_STATIC_VENV))
    forms, static_venv = _COMPILED
    folders: set[str] = set()
    prepends = 0
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not forms.fullmatch(line):
            return None
        m = static_venv.fullmatch(line)
        if m:
            folders.add(m.group(1).strip("'\""))
        prepends += line.startswith('PATH="$VIRTUAL_ENV/')
    if len(folders) != 1 or prepends != 1:
        return None
    folder = folders.pop()
    if not folder.startswith("/") or "\\" in folder:
        return None
    return folder.rstrip("/") or "/"
