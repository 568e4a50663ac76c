"""No test module outside a per-target one names a fixed list of targets: per-target tests are
parametrized from the registry (core/targets/registry.py NAMES, or a part or fact the registry's
targets declare), so a target added there is tested by every one of them, and a test cannot
leave one out because it was written before that target existed.

A fixed list is a tuple, list or set literal, or the keys of a dict literal, holding two or more
registered targets' names as strings (`("copilot", "codex")`, `{"claude": ..., "qwen": ...}`,
`parametrize("target", [...])`, `t in ("codex", "qwen")`). A per-target module (a file whose
name names exactly one target: test_claude_hooks.py, qwen_probe.py) concerns that CLI's own
facts and may name it; what it says of other targets it should say through the registry too.

PENDING lists the modules that still hold such lists while they are converted, with the most
each may hold: a module may only go down, a module not listed may hold none.
"""
from __future__ import annotations

import ast
from pathlib import Path

from agentdeck.core.targets import registry

TESTS = Path(__file__).resolve().parents[1]

#: module (relative to tests/) -> the most fixed target lists it may still hold: none is left
PENDING: dict[str, int] = {}


def fixed_lists(tree: ast.AST, names: tuple[str, ...]) -> list[int]:
    """Line numbers of the literals in `tree` that hold two or more of `names` as strings."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            elts = node.elts
        elif isinstance(node, ast.Dict):
            elts = [k for k in node.keys if k is not None]
        else:
            continue
        held = {e.value for e in elts if isinstance(e, ast.Constant) and e.value in names}
        if len(held) >= 2:
            found.append(node.lineno)
    return found


def per_target(path: Path, names: tuple[str, ...]) -> bool:
    """Whether the module's file name names exactly one target (test_<name>_....py)."""
    return len(set(path.stem.split("_")) & set(names)) == 1


def _scan() -> dict[str, list[int]]:
    names = tuple(registry.NAMES)
    out: dict[str, list[int]] = {}
    for path in sorted(TESTS.rglob("*.py")):
        if per_target(path, names):
            continue
        lines = fixed_lists(ast.parse(path.read_text()), names)
        if lines:
            out[str(path.relative_to(TESTS))] = lines
    return out


def test_no_test_module_names_a_fixed_list_of_targets():
    over = {f: (len(lines), PENDING.get(f, 0), lines[:8]) for f, lines in _scan().items()
            if len(lines) > PENDING.get(f, 0)}
    assert not over, ("fixed lists of targets in tests (module: (found, allowed, lines)); "
                      "parametrize from core.targets.registry instead: " f"{over}")


def test_pending_only_goes_down():
    """A module converted since is taken off PENDING (or its count lowered), so the list says
    what is left."""
    found = _scan()
    stale = {f: (n, len(found.get(f, []))) for f, n in PENDING.items()
             if len(found.get(f, [])) < n}
    assert not stale, f"PENDING allows more than these modules hold (allowed, found): {stale}"


def test_the_scan_finds_what_it_must():
    src = ('@pytest.mark.parametrize("target", ["copilot", "codex"])\ndef test_x(): pass\n'
           'ALL = ("claude", "qwen")\n'
           'X = {"codex": 1, "claude": 2}\n'
           'ok = t in ("codex", "x")\n'
           'y = {"copilot"} | {"codex"}\n'
           'if t in {"qwen", "codex"}: pass\n')
    names = tuple("copilot codex claude qwen".split())   # not a literal list: this module's own scan
    assert sorted(fixed_lists(ast.parse(src), names)) == [1, 3, 4, 7]
    assert per_target(Path("tests/unit/test_claude_hooks.py"), names)
    assert per_target(Path("tests/clients/qwen_probe.py"), names)
    assert not per_target(Path("tests/unit/test_policy_payloads.py"), names)
    assert not per_target(Path("tests/unit/test_copilot_codex_pair.py"), names)
