"""The files a CLI reads that can switch agentdeck's hooks off: settings and
environment files in every scope -- the CLI's home, and a working folder's project and local
files (and `.env` files) the CLI reads from wherever a session starts.

Each target's policy part (core/targets/<name>/policy.py) lists them as LAYERS, facts with the
version they were verified for and how (observed in a real offline turn, or documented by the
CLI's maker). Its GUARDED (the files the built-in rule agentdeck-self keeps an agent from
writing: core/policy/compiled.py self_protection) holds every layer's path, so a write there by
any tool, shell form or link is denied; `switches(host, target)` is what the doctor (check
`<target>.hooks.layers`) and `status` (core/hooks_health.py, reason "layer-switch") report:
such a file that exists now and holds a key or variable that undoes agentdeck's hooks.

This module is read at apply and doctor time, never by the hook handler.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..host import Host

#: every variable whose name starts with this points agentdeck's wrapper or handler somewhere
#: (AGENTDECK_POLICY, AGENTDECK_HOME, ...): set from a file the CLI loads, it redirects the guard
AGENTDECK_PREFIX = "AGENTDECK_"
#: variables that make every program a CLI starts (its hooks: agentdeck's wrapper, the
#: interpreter of its handler) load code of someone else's first: set from a file the CLI loads
#: into its environment (a .env, a settings file's `env`), they run code inside the guard
LOADER_VARS = ("LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES",
               "NODE_OPTIONS", "BASH_ENV", "ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")


@dataclass(frozen=True)
class Layer:
    """One file a CLI reads that can undo agentdeck's hooks.

    path      relative to the target's home, or `**/<rel>` for a file the CLI reads in the
              working folder (and, where `parents`, its parent folders)
    what      what it can do, in words (docs, the doctor's finding)
    verified  the CLI version this was verified for
    how       "observed" (a real offline turn) or "documented" (the CLI's own documentation or
              settings schema; not seen in a turn)
    kind      "json" (a settings file: `keys` truthy, or `env` naming a variable of `vars`) or
              "env" (a dotenv file: a variable of `vars` set)
    keys      the settings keys that switch the hooks off when truthy (kind json)
    vars      variable names (or prefixes ending in `_`) that redirect the CLI's home or
              agentdeck's handler
    parents   the CLI looks for the file in the working folder's parents too
    report    False when another check reports the file with more nuance (it is still guarded)
    """
    path: str
    what: str
    verified: str
    how: str
    kind: str = "json"
    keys: tuple[str, ...] = ()
    vars: tuple[str, ...] = (AGENTDECK_PREFIX,)
    parents: bool = False
    report: bool = True

    @property
    def project(self) -> bool:
        return self.path.startswith("**/")


def layers(target: str) -> tuple[Layer, ...]:
    """The target's LAYERS (its policy part), () when it has none."""
    # local: the registry imports every target package, whose policy part imports this module
    from . import registry

    if target not in registry.BY_NAME or not registry.has_part(target, "policy"):
        return ()
    return tuple(getattr(registry.part(target, "policy"), "LAYERS", ()))


def guarded(own: tuple[str, ...], found: tuple[Layer, ...]) -> tuple[str, ...]:
    """A policy part's GUARDED: its own files, then every layer's path not already there."""
    return own + tuple(l.path for l in found if l.path not in own)


def _candidates(host: "Host", target: str, layer: Layer) -> list[Path]:
    """Where the file of `layer` would be for a session started in the working folder."""
    from . import registry  # local: as in layers()

    if not layer.project:
        return [registry.BY_NAME[target].home(host) / layer.path]
    rel = layer.path[3:]
    cwd = host.working_dir()
    folders = [cwd]
    if layer.parents:
        home = host.home.absolute()
        for f in cwd.parents:         # up to the home when the folder is in it, else to the root
            if cwd.is_relative_to(home) and not f.is_relative_to(home):
                break
            folders.append(f)
    own = registry.BY_NAME[target].home(host).absolute()
    # the CLI's home itself is not a project folder: a file there is the home layer's
    return [f / rel for f in folders if not (f / rel).is_relative_to(own)]


def candidates(host: "Host", target: str, layer: Layer) -> list[Path]:
    """Where the file of `layer` would be for a session started in the working folder (the
    doctor's layer view lists them)."""
    return _candidates(host, target, layer)


def _matches(name: str, wanted: tuple[str, ...]) -> bool:
    return any(name.startswith(w) if w.endswith("_") else name == w for w in wanted)


def _json_switch(text: str, path: Path, layer: Layer) -> list[str]:
    from ..formats.errors import FormatError  # local: only when such a file exists
    from ..formats.jsonc import JsonDoc  # local: as above

    try:
        data: Any = JsonDoc.parse(text, path=str(path)).data
    except FormatError:
        return []
    if not isinstance(data, dict):
        return []
    out = [f"{k}: {data[k]!r}" for k in layer.keys if data.get(k) not in (None, False)]
    env = data.get("env")
    if isinstance(env, dict):
        out += [f"env {k}" for k in env if isinstance(k, str) and _matches(k, layer.vars)]
    return out


#: a dotenv assignment's name (`NAME=`, `export NAME=`): only the names matter here, so a line
#: is enough (a multi-line quoted value can only add a name, reporting more, never less)
_ASSIGN = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=", re.M)


def _env_switch(text: str, layer: Layer) -> list[str]:
    return [k for k in dict.fromkeys(_ASSIGN.findall(text)) if _matches(k, layer.vars)]


def holds(host: "Host", path: Path, layer: Layer) -> list[str]:
    """What the file of `layer` at `path` holds now that undoes agentdeck's hooks ([] when it
    is not there or holds nothing of the kind)."""
    text = host.read_text(path) if host.is_file(path) else None
    if not text:
        return []
    if layer.kind == "json":
        return _json_switch(text, path, layer)
    return _env_switch(text, layer) if layer.kind == "env" else []   # a TOML layer: not parsed


def switches(host: "Host", target: str) -> list[tuple[Path, Layer, list[str]]]:
    """Each layer file of `target` that exists now (in its home, or for a session started in
    the working folder) and holds what undoes agentdeck's hooks: (path, layer, what it sets)."""
    out: list[tuple[Path, Layer, list[str]]] = []
    seen: set[Path] = set()
    for layer in layers(target):
        if not layer.report:
            continue
        for path in _candidates(host, target, layer):
            if path in seen:
                continue
            seen.add(path)
            text = host.read_text(path) if host.is_file(path) else None
            if not text:
                continue
            found = (_json_switch(text, path, layer) if layer.kind == "json"
                     else _env_switch(text, layer))
            if found:
                out.append((path, layer, found))
    return out
