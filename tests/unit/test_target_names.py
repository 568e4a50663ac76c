"""A target's name appears nowhere in core/ or app/ outside its own package
(core/targets/<name>/): no string constant equal to a registered target's name, no identifier,
attribute, function or imported module containing one. Features ask the registry and each
target's parts instead. The registry entry itself (core/targets/registry.py BUILTIN) is the one
place that names them all.

PENDING lists the files that still name targets while the move into the packages goes on, with
the most names each may hold: a file may only go down, a file not listed may hold none. So the rule holds for every new line now, and the list says what is left.
"""
from __future__ import annotations

import ast
from pathlib import Path

from agentdeck.core.targets import registry

REPO = Path(__file__).resolve().parents[2]

#: file -> most target names it may still hold (the move is not finished there)
PENDING: dict[str, int] = {
    "core/targets/registry.py": len(registry.BUILTIN),      # the registry entry: always
}


def names_in(tree: ast.AST, names: tuple[str, ...]) -> list[int]:
    """Line numbers where `tree` names one of `names`."""
    low = tuple(n.lower() for n in names)
    found = []
    for node in ast.walk(tree):
        text = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value in names:
                found.append(node.lineno)
            continue
        if isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            text = node.name
        elif isinstance(node, ast.alias):
            text = f"{node.name} {node.asname or ''}"
        elif isinstance(node, ast.ImportFrom):
            text = node.module or ""
        if text and any(n in text.lower() for n in low):
            found.append(getattr(node, "lineno", 0))
    return found


def _scan() -> dict[str, list[int]]:
    names = registry.NAMES
    out: dict[str, list[int]] = {}
    for root in ("core", "app"):
        for path in sorted((REPO / root).rglob("*.py")):
            rel = path.relative_to(REPO)
            if rel.parts[:2] == ("core", "targets") and len(rel.parts) > 3 \
                    and rel.parts[2] in names:
                continue                  # the target's own package
            lines = names_in(ast.parse(path.read_text()), names)
            if lines:
                out[str(rel)] = lines
    return out


def test_no_target_name_outside_its_package():
    found = _scan()
    over = {f: (len(lines), PENDING.get(f, 0), lines[:8]) for f, lines in found.items()
            if len(lines) > PENDING.get(f, 0)}
    assert not over, ("target names outside the target packages (file: (found, allowed, lines)): "
                      f"{over}")


def test_the_scan_finds_what_it_must():
    tree = ast.parse('x = "codex"\nhost.claude_home\nfrom .copilot import y\ndef codex_checks(): pass\n'
                     'ok = "codexes are books"\n')
    # the names spelled out, not a literal list (tests/unit/test_target_lists_in_tests.py)
    assert sorted(names_in(tree, tuple("copilot codex claude".split()))) == [1, 2, 3, 4]
