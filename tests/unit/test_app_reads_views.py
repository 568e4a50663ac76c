"""The app reads typed views, not the core's plain data, and names no target.

Scans the syntax tree of every module of app/ (and core/demo.py, core/views/): the app's panes
read the core's frozen views (core/views/) by attribute, so

- no `.info` attribute is read (the adapters' `DesiredState.info` / `plan.info`, plain data the
  core's own features read);
- no `.get("<literal>")` call and no `x["<literal>"]` read: that is how a dict of core data is
  read; the few dicts of the app's own that are read so are listed in ALLOWED, each with why;
- no target is named: no string constant equal to a registry name, no identifier (variable,
  attribute, function, class, argument, keyword, module) containing one. The app loops over the
  registry and asks each target's `views` part (core/targets/parts/views.py).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from agentdeck.core.targets import registry

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"

#: (file, receiver) -> why reading it with a literal key is no read of core data
ALLOWED = {
    ("app/app.py", "os.environ"): "the process environment (is the home the real one?)",
    ("app/widgets/keys_pane.py", "spec"): "the pane's own column widths, by column",
    ("app/widgets/plan_pane.py", "kw"): "the widget's own keyword arguments (classes)",
    ("app/widgets/org_pane.py", "RESULT_STYLE"): "the app's own colours, by result",
}


def _rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


def dict_reads(tree: ast.AST, rel: str) -> list[str]:
    """Each read of core data as a dict in `tree` (file `rel`), as "line: code"."""
    out = []
    for node in ast.walk(tree):
        what = None
        if isinstance(node, ast.Attribute) and node.attr == "info":
            what = ast.unparse(node)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "get" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            if (rel, ast.unparse(node.func.value)) not in ALLOWED:
                what = ast.unparse(node)
        elif (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
              and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            if (rel, ast.unparse(node.value)) not in ALLOWED:
                what = ast.unparse(node)
        if what is not None:
            out.append(f"{node.lineno}: {what}")
    return out


def target_names(tree: ast.AST, names: tuple[str, ...]) -> list[str]:
    """Each place `tree` names one of `names`, as "line: name"."""
    out = []
    for node in ast.walk(tree):
        idents: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value.lower() in names:
            out.append(f"{node.lineno}: {node.value!r}")
        elif isinstance(node, ast.Name):
            idents.append(node.id)
        elif isinstance(node, ast.Attribute):
            idents.append(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            idents.append(node.name)
        elif isinstance(node, ast.arg):
            idents.append(node.arg)
        elif isinstance(node, ast.keyword) and node.arg:
            idents.append(node.arg)
        elif isinstance(node, ast.alias):
            idents += [node.name, node.asname or ""]
        elif isinstance(node, ast.ImportFrom):
            idents.append(node.module or "")
        out += [f"{node.lineno}: {i}" for i in idents if any(n in i.lower() for n in names)]
    return out


def _modules(*roots: Path) -> list[Path]:
    out: list[Path] = []
    for r in roots:
        out += sorted(r.rglob("*.py")) if r.is_dir() else [r]
    return out


@pytest.mark.parametrize("path", _modules(APP), ids=_rel)
def test_the_app_reads_no_core_data_as_dicts(path):
    found = dict_reads(ast.parse(path.read_text(encoding="utf-8")), _rel(path))
    assert not found, (f"{_rel(path)} reads core data as a dict (read a view of core/views/ "
                       f"instead, or list the app's own dict in ALLOWED): {found}")


@pytest.mark.parametrize("path", _modules(APP, ROOT / "core" / "demo.py", ROOT / "core" / "views"),
                         ids=_rel)
def test_the_app_names_no_target(path):
    found = target_names(ast.parse(path.read_text(encoding="utf-8")), registry.NAMES)
    assert not found, (f"{_rel(path)} names a target (loop over the registry and ask the "
                       f"target's views part instead): {found}")


def test_the_allow_list_is_used():
    """Every ALLOWED entry still matches a read (a stale entry would let a new one through)."""
    used = set()
    for path in _modules(APP):
        rel = _rel(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            recv = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "get":
                recv = ast.unparse(node.func.value)
            elif isinstance(node, ast.Subscript):
                recv = ast.unparse(node.value)
            if (rel, recv) in ALLOWED:
                used.add((rel, recv))
    assert used == set(ALLOWED)


def test_the_checks_find_what_they_ban():
    src = ('x = plan.info\ny = data.get("hooks")\nz = row["name"]\nos.environ.get("HOME")\n'
           'd["k"] = 1\nw = m.get(key)\n')
    assert sorted(dict_reads(ast.parse(src), "app/x.py")) == [
        "1: plan.info", '2: data.get(\'hooks\')', "3: row['name']", "4: os.environ.get('HOME')"]
    assert dict_reads(ast.parse('os.environ.get("HOME")'), "app/app.py") == []
    src = ('if t == "codex": pass\ndef copilot_hint(): pass\nfrom x import claude_mcp\n'
           'f(codex=1)\nt = "Codex runs"\n')
    names = tuple("copilot codex claude".split())    # not a literal list (test_target_lists_in_tests)
    assert sorted(target_names(ast.parse(src), names)) == [
        "1: 'codex'", "2: copilot_hint", "3: claude_mcp", "4: codex"]
