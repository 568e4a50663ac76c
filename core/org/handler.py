"""The org hooks' handler: a copy of agentdeck's own hook handler (core.hookhandler and every
agentdeck module it imports, found by reading their import statements) under
/usr/local/lib/agentdeck/lib, and an entry script beside it that the hooks run as

    /usr/bin/python3 -I -S /usr/local/lib/agentdeck/org_hook.py <target> <event> || exit 2

-I -S: no PYTHON* variable, no user or site packages -- only the standard library and this
root-owned copy are importable, so no user venv is on the path. The entry fixes what the user's
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

from ..errors import UserError
from ..facts import org as F
from ..host import Host

ROOT_MODULE = "agentdeck.core.hookhandler"
ENTRY = "org_hook.py"
#: non-stdlib imports the copy may contain because the entry makes them unreachable:
#: hookhandler imports platformdirs only when AGENTDECK_STATE_DIR is unset (the entry sets it)
UNREACHABLE = {"platformdirs": "the entry always sets AGENTDECK_STATE_DIR"}

ENTRY_TEXT = '''"""agentdeck's organisation-layer hook entry, written by `agentdeck org apply` (root-owned;
do not edit: `agentdeck org plan` reports a hand-edit). Run as:
    {python} -I -S <this file> <target> <event>
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TARGETS = ("copilot", "codex", "claude")


def main():
    target = sys.argv[1] if len(sys.argv) > 1 else ""
    event = sys.argv[2] if len(sys.argv) > 2 else ""
    if target not in TARGETS:
        sys.stderr.write("agentdeck org hook: unknown target %r\\n" % target)
        return 2
    sys.path.insert(0, os.path.join(HERE, "lib"))
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


def _imports(tree: ast.AST, module: str, is_pkg: bool) -> list[tuple[str, list[str]]]:
    """(module, names) of every import in the tree, relative ones resolved."""
    package = module if is_pkg else module.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append((name, [a.name for a in node.names]))
    return out


def closure(host: Host) -> dict[str, bytes]:
    """Every file the handler needs: {path relative to lib/ ("agentdeck/core/..."): bytes}.
    Raises UserError when it imports something beyond the standard library."""
    core = core_dir(host)
    todo, seen, files, outside = [ROOT_MODULE], set(), {}, {}
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
        for name, names in _imports(ast.parse(data, str(path)), mod, is_pkg):
            top = name.split(".")[0]
            if top == "agentdeck":
                todo.append(name)
                todo += [f"{name}.{n}" for n in names if n != "*"]
            elif top and top != "__future__" and top not in sys.stdlib_module_names:
                outside.setdefault(top, mod)
    bad = {k: v for k, v in outside.items() if k not in UNREACHABLE}
    if bad:
        raise UserError("the org layer's hook handler must run on the standard library alone, "
                        "but " + ", ".join(f"{v} imports {k}" for k, v in sorted(bad.items())))
    return dict(sorted(files.items()))


def hook_command(target: str, event: str) -> str:
    return f"{F.PYTHON} -I -S {F.LIB_DIR}/{ENTRY} {target} {event} || exit 2"


def entry_text() -> str:
    return ENTRY_TEXT.format(python=F.PYTHON)
