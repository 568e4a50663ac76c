"""The org hooks' handler: a copy of agentdeck's own hook handler (core.hookhandler and every
agentdeck module it imports, found by reading their import statements) under
/usr/local/lib/agentdeck/lib, and an entry script beside it that the hooks run as

    /usr/bin/env -u LD_PRELOAD ... /usr/bin/python3 -I -S /usr/local/lib/agentdeck/org_hook.py <target> <event> || exit 2

env -u: none of the dynamic loader's variables (facts LOADER_VARS: a CLI's .env can set them);
-I -S: no PYTHON* variable, no user or site packages -- only the standard library, this
root-owned copy and the shell parser's compiled packages (their root-owned install folder, added
to the path by the entry; PARSERS) are importable, so no user venv is on the path. The entry fixes what the user's
environment must not choose: the target, the compiled policy (policy/<target>.json beside it,
root-owned) and the layer name of the audit line ("org"); the audit line goes to the user's own
agentdeck state dir, as the user layer's do. `|| exit 2`: a handler that cannot even start
(interpreter gone, copy damaged) denies the call instead of letting it run (Claude Code and Codex
let a tool run on any exit but 2).
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path, PurePosixPath
from typing import Any

from ..errors import UserError
from ..facts import org as F
from ..host import Host

ROOT_MODULE = "agentdeck.core.hookhandler"
ENTRY = "org_hook.py"
#: the handler's own modules: an import inside a function is followed only into these (the
#: install-time helpers of core.policy.compiled -- desired, errors, targets -- are never run by
#: the handler); a module-level import is always followed
HANDLER_SCOPE = ("agentdeck.core.hookhandler", "agentdeck.core.secrets", "agentdeck.core.policy",
                 "agentdeck.core.facts", "agentdeck.core.targets.dialects",
                 "agentdeck.core.targets.registry")
#: non-stdlib imports allowed inside a function of the copy, and why each is safe
LAZY_OK = {"platformdirs": "unreachable: the entry always sets AGENTDECK_STATE_DIR",
           "tree_sitter": "the shell parser: loaded from its root-owned install (PARSERS)",
           "tree_sitter_bash": "the shell parser: loaded from its root-owned install (PARSERS)"}
#: the compiled packages the handler's shell parser loads (core/policy/shellparse.py)
PARSERS = ("tree_sitter", "tree_sitter_bash")

ENTRY_TEXT = '''"""agentdeck's organisation-layer hook entry, written by `agentdeck org apply` (root-owned;
do not edit: `agentdeck org plan` reports a hand-edit). Run as:
    {python} -I -S <this file> <target> <event>
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = {targets}
#: where the shell parser's compiled packages are installed (root-owned; checked by the plan)
PARSER_DIRS = {parser_dirs!r}


def main():
    target = sys.argv[1] if len(sys.argv) > 1 else ""
    event = sys.argv[2] if len(sys.argv) > 2 else ""
    if target not in TARGETS:
        sys.stderr.write("agentdeck org hook: unknown target %r\\n" % target)
        return 2
    sys.path.insert(0, os.path.join(HERE, "lib"))
    sys.path.extend(PARSER_DIRS)
    env = os.environ
    env["AGENTDECK_TARGET"] = target
    env["AGENTDECK_POLICY"] = os.path.join(HERE, "policy", target + ".json")
    env["AGENTDECK_LAYER"] = "org"
    state = env.get("AGENTDECK_STATE_DIR") or ""
    if not os.path.isabs(state):
        base = env.get("XDG_STATE_HOME") or ""
        if not os.path.isabs(base):
            base = os.path.join(os.path.expanduser("~"), ".local", "state")
        env["AGENTDECK_STATE_DIR"] = os.path.join(base, "agentdeck")
    from agentdeck.core import hookhandler
    return hookhandler.main([event])


if __name__ == "__main__":
    try:
        code = main()
    except BaseException:
        code = 2
    sys.exit(code)
'''


def core_dir(host: Host) -> Path:
    import agentdeck.core
    return Path(host.realpath(agentdeck.core.__file__)).parent


def _module_file(host: Host, core: Path, module: str) -> tuple[Path, bool] | None:
    """(file, is_package) of an agentdeck.core module, or None when there is none."""
    parts = module.split(".")
    if parts[:2] != ["agentdeck", "core"]:
        return None
    base = core.joinpath(*parts[2:])
    if host.is_file(base / "__init__.py"):
        return base / "__init__.py", True
    f = base.with_suffix(".py") if parts[2:] else core / "__init__.py"
    return (f, False) if host.is_file(f) else None


def _imports(tree: ast.AST, module: str, is_pkg: bool) -> list[tuple[str, list[str], bool]]:
    """(module, names, lazy) of every import in the tree, relative ones resolved; lazy: inside
    a function. What an `if TYPE_CHECKING:` holds never runs (its else branch is skipped too).
    One walk of the tree."""
    package = module if is_pkg else module.rpartition(".")[0]
    out: list[tuple[str, list[str], bool]] = []
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, lazy = stack.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            continue
        if isinstance(node, ast.Import):
            out += [(a.name, [], lazy) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append((name, [a.name for a in node.names], lazy))
        inner = lazy or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        stack += [(c, inner) for c in ast.iter_child_nodes(node)]
    return out


#: (module, its source) -> its imports: a plan of every target computes the closure once each
_IMPORTS: dict[tuple[str, bytes], list[tuple[str, list[str], bool]]] = {}


def _imports_of(data: bytes, path, module: str, is_pkg: bool) -> list[tuple[str, list[str], bool]]:
    key = (module, data)
    if key not in _IMPORTS:
        _IMPORTS[key] = _imports(ast.parse(data, str(path)), module, is_pkg)
    return _IMPORTS[key]


def _in_scope(name: str) -> bool:
    return any(name == s or name.startswith(s + ".") for s in HANDLER_SCOPE)


def closure(host: Host) -> dict[str, bytes]:
    """Every file the handler needs: {path relative to lib/ ("agentdeck/core/..."): bytes}.
    Raises UserError when it imports something beyond the standard library."""
    from ..targets.dialects import part_modules

    core = core_dir(host)
    # the handler imports the calling target's dialect by name (core/targets/dialects.py), which
    # no import statement shows: every registered target's dialect module is copied
    todo: list[str] = [ROOT_MODULE, *part_modules()]
    seen: set[str] = set()
    files: dict[str, Any] = {}
    outside: dict[str, Any] = {}
    while todo:
        mod = todo.pop()
        if mod in seen:
            continue
        seen.add(mod)
        found = _module_file(host, core, mod)
        if found is None:
            continue
        path, is_pkg = found
        data = host.read_bytes(path)
        if data is None:
            raise UserError(f"{path}: cannot read agentdeck's own source for the org handler")
        rel = PurePosixPath("agentdeck", "core", *path.relative_to(core).parts)
        files[str(rel)] = data
        parts = mod.split(".")
        for i in range(2, len(parts)):      # each package above it: its __init__ runs first
            todo.append(".".join(parts[:i]))
        for name, names, lazy in _imports_of(data, path, mod, is_pkg):
            top = name.split(".")[0]
            if top == "agentdeck":
                if lazy and not _in_scope(name):
                    continue          # an install-time helper the handler never calls
                todo.append(name)
                todo += [f"{name}.{n}" for n in names if n != "*"]
            elif top and top != "__future__" and top not in sys.stdlib_module_names:
                if not (lazy and top in LAZY_OK):
                    outside.setdefault(top, mod)
    bad = outside
    if bad:
        raise UserError("the org layer's hook handler must run on the standard library alone, "
                        "but " + ", ".join(f"{v} imports {k}" for k, v in sorted(bad.items())))
    return dict(sorted(files.items()))


def hook_command(target: str, event: str) -> str:
    unset = " ".join(f"-u {v}" for v in F.LOADER_VARS)
    return f"{F.ENV} {unset} {F.PYTHON} -I -S {F.LIB_DIR}/{ENTRY} {target} {event} || exit 2"


def parser_packages(host: Host) -> list[Path]:
    """The folders of the shell parser's installed packages (tree_sitter, tree_sitter_bash), as
    the running agentdeck finds them; [] when they are not installed."""
    import importlib.util

    out = []
    for pkg in PARSERS:
        try:
            spec = importlib.util.find_spec(pkg)
        except (ImportError, ValueError):
            spec = None
        if spec is not None and spec.origin:
            out.append(Path(host.realpath(spec.origin)).parent)
    return out


def parser_dirs(host: Host) -> list[str]:
    """The sys.path entries the org handler needs for the parser (each package's parent)."""
    return list(dict.fromkeys(str(p.parent) for p in parser_packages(host)))


def entry_text(parser: list[str] | None = None) -> str:
    """The entry script; TARGETS: the targets with an org layer (core.facts.org.names)."""
    names = F.names()
    targets = "(" + ", ".join(f'"{n}"' for n in names) + ("," if len(names) == 1 else "") + ")"
    return (ENTRY_TEXT.replace("{parser_dirs!r}", repr(list(parser or [])))
            .replace("{targets}", targets).format(python=F.PYTHON))
