"""Names that become path components (profiles, skills, rules, MCP servers) and the target names
a profile may list. Plain Python: imported on every start-up path."""
from __future__ import annotations

import re

from .targets.registry import NAMES

NAME_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
TARGETS = NAMES   # the one list of targets (core/targets/registry.py)


def check_name(value: str, what: str = "name") -> str:
    """Names become path components: refuse separators, `..` and anything odd."""
    if not isinstance(value, str) or not value or not NAME_RE.match(value) or ".." in value:
        raise ValueError(f"invalid {what} {value!r}: use letters, digits, '_', '-', '.' (no '/' or '..')")
    return value
