"""Find, load, validate and resolve profiles.

A profile is a directory with a profile.toml and optional content (see docs/architecture.md).
Bundled profiles ship in the repository's profiles/ folder; an operator's own live under
<config dir>/profiles and override a bundled one of the same name. `extends` chains are resolved
base first; cycles are an error. Every error is one line naming file:line:col and the field.
Validation is pydantic's (core/schema.py); resolve() loads an unchanged profile from the cache
(core/profilecache.py) without importing it.
"""
from __future__ import annotations

import json
import re
import shlex
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from . import profile_dirs, profilecache
from .errors import UserError
from .formats.errors import FormatError
from .formats.jsonc import JsonDoc
from .host import Host, HostError
from .names import check_name
from .targets import registry
from .output_guard import check_profile_source

if TYPE_CHECKING:
    import tomllib

    from pydantic import ValidationError

    from . import schema
    from .model import Profile

DIRECTIVE_KEYS = ("_agentdeck", "_agentihooks")
NATIVE_FILES = registry.PROFILE_FILES    # each target's own files a profile may carry


def bundled_dir() -> Path:
    """The bundled profiles' folder (core/profile_dirs.py, where a test replaces it)."""
    return profile_dirs.bundled_dir()


@dataclass
class ProfileRef:
    name: str
    path: Path
    origin: str          # "bundled" | "operator"
    description: str = ""
    shadows_bundled: bool = False
    error: str | None = None   # describe=True: why it cannot be used (one line), None when it can


def operator_dir(host: Host) -> Path:
    """The operator's profiles' folder (core/profile_dirs.py)."""
    return profile_dirs.operator_dir(host)


def available(host: Host, describe: bool = True) -> dict[str, ProfileRef]:
    """Every profile by name; an operator profile overrides a bundled one of the same name.
    `describe`: read each profile.toml for its description (resolve() does not need them)."""
    found: dict[str, ProfileRef] = {}
    for origin, root in (("bundled", bundled_dir()), ("operator", operator_dir(host))):
        for name in host.listdir(root):
            d = root / name
            if host.exists(d / "profile.toml"):   # a broken one too: its error is shown when used
                shadows = name in found
                found[name] = ProfileRef(name, d, origin, shadows_bundled=shadows)
    for ref in found.values() if describe else ():
        try:
            meta = _load_profile_toml(host, ref.path / "profile.toml")
            ref.description = meta.profile.description
            resolve(host, ref.name)        # its chain, mcp.json, native files (cached when unchanged)
        except UserError as e:
            ref.error = str(e)
    return found


# ---- errors with positions ----------------------------------------------------------------------

def _line_of_key(text: str, key: str) -> int | None:
    for i, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s.startswith(key) and s[len(key):].lstrip().startswith("="):
            return i
        if s in (f"[{key}]", f"[[{key}]]"):
            return i
    return None


def _toml_line(text: str, loc: list) -> int | None:
    """The line of `loc` (pydantic's error location) in a TOML text: inside the N-th
    `[[a.b]]` table for a location a.b.N.key, else the last key of the location found."""
    for i, part in enumerate(loc):
        if isinstance(part, int) and i:
            header = "[[" + ".".join(str(p) for p in loc[:i]) + "]]"
            lines = text.splitlines()
            starts = [n for n, ln in enumerate(lines) if ln.strip() == header]
            if part >= len(starts):
                break
            start = starts[part]
            rest = [str(p) for p in loc[i + 1:] if not isinstance(p, int)]
            for n in range(start + 1, len(lines)):
                s = lines[n].strip()
                if s.startswith("["):
                    break
                if rest and s.startswith(rest[0]) and s[len(rest[0]):].lstrip().startswith("="):
                    return n + 1
            return start + 1
    for part in reversed(loc):
        if isinstance(part, int):
            continue
        line = _line_of_key(text, str(part))
        if line:
            return line
    return None


def _validation_error(path: Path, text: str, e: ValidationError, *, locate=None) -> UserError:
    """One line for pydantic's first error; an unknown field comes first (a typo'd `decison`
    is also a missing `decision`) and is named with the closest known field."""
    import difflib   # local: only a wrong field name asks for the closest one

    from . import schema as schema_mod   # local: pydantic (an error of validation: loaded already)

    errs = e.errors()
    err = next((x for x in errs if x.get("type") == "extra_forbidden"), errs[0])
    raw = list(err.get("loc", ()))
    loc = [str(p) for p in raw]
    field = ".".join(loc) or "(top level)"
    line = locate(loc) if locate is not None else _toml_line(text, raw)
    msg = err.get("msg", "invalid value")
    if err.get("type") == "extra_forbidden":
        msg = "unknown field"
        known = _known_fields(getattr(schema_mod, e.title, None), raw[:-1])
        close = difflib.get_close_matches(str(raw[-1]), known, n=1, cutoff=0.6) if raw else []
        if close:
            msg += f" (did you mean `{close[0]}`?)"
    return UserError(f"{field}: {msg}", path=str(path), line=line)


def _known_fields(model, loc: list) -> list[str]:
    """The field names the schema allows at `loc` (pydantic's location of the object holding an
    unknown field), walking `model`'s annotations; [] where they cannot be told."""
    from pydantic import BaseModel   # local: pydantic (an error of validation: loaded already)

    def plain(t):
        args = [a for a in typing.get_args(t) if a is not type(None)]
        return args[0] if typing.get_origin(t) in (typing.Union, types.UnionType) \
            and len(args) == 1 else t

    t = model
    for part in loc:
        t = plain(t)
        if isinstance(part, int) and typing.get_origin(t) is list:
            t = typing.get_args(t)[0]
        elif isinstance(t, type) and issubclass(t, BaseModel) and part in t.model_fields:
            t = t.model_fields[part].annotation
        elif typing.get_origin(t) is dict:
            t = typing.get_args(t)[1]
        else:
            return []
    t = plain(t)
    return list(t.model_fields) if isinstance(t, type) and issubclass(t, BaseModel) else []


def _read(host: Host, path: Path) -> str | None:
    try:
        return host.read_text(path)
    except HostError as e:
        raise UserError(str(e)) from None


def _load_profile_toml(host: Host, path: Path) -> schema.ProfileFile:
    from pydantic import ValidationError   # local: pydantic loads only when a profile is validated (a cached one is not)

    from .schema import ProfileFile   # local: as pydantic

    text = _read(host, path)
    if text is None:
        raise UserError("missing profile.toml", path=str(path))
    data = _loads_toml(text, path)
    try:
        pf = ProfileFile.model_validate(data)
    except ValidationError as e:
        raise _validation_error(path, text, e) from None
    if pf.policy is not None:
        seen: set[str] = set()
        for i, rule in enumerate(pf.policy.rules):
            if rule.id in seen:
                raise UserError(f"policy.rules.{i}.id: duplicate policy rule id {rule.id!r} "
                                "(ids are unique; a profile that extends this one replaces a "
                                "rule by giving its id)", path=str(path),
                                line=_toml_line(text, ["policy", "rules", i, "id"]))
            seen.add(rule.id)
        for i, path_rule in enumerate(pf.policy.paths):
            if path_rule.id in seen:
                raise UserError(f"policy.paths.{i}.id: duplicate policy rule id {path_rule.id!r} "
                                "(rules and paths share one set of ids)", path=str(path),
                                line=_toml_line(text, ["policy", "paths", i, "id"]))
            seen.add(path_rule.id)
    return pf


_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOML_AT_END = re.compile(r"\s*\(at end of document\)\s*$")


def _loads_toml(text: str, path: Path) -> dict:
    if text.startswith("\ufeff"):
        raise UserError("starts with a byte-order mark (save it as UTF-8 without BOM)",
                        path=str(path), line=1, col=1)
    import tomllib   # local: ~45 M instructions, and a profile read from the cache parses no TOML

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise _toml_error(e, path) from None


def _toml_error(e: tomllib.TOMLDecodeError, path: Path) -> UserError:
    """tomllib's error as one line with file:line:col. Python < 3.14 has no lineno/colno
    attributes: the position is only in the message, "... (at line 3, column 7)"."""
    msg, line, col = str(e), getattr(e, "lineno", None), getattr(e, "colno", None)
    m = _TOML_AT.search(msg)
    if m:
        msg, line, col = msg[: m.start()], line or int(m.group(1)), col or int(m.group(2))
    elif _TOML_AT_END.search(msg):
        msg = _TOML_AT_END.sub("", msg) + " (at the end of the file)"
    return UserError(msg, path=str(path), line=line, col=col)


def _load_json(host: Host, path: Path) -> tuple[Any, Any] | None:
    """(data, doc) for a JSONC file in a profile, or None when absent."""

    text = _read(host, path)
    if text is None:
        return None
    try:
        doc = JsonDoc.parse(text, path=str(path))
    except FormatError as e:
        raise UserError(e.msg, path=str(path), line=e.line, col=e.col) from None
    return doc.data, doc


def _load_toml(host: Host, path: Path) -> dict | None:
    text = _read(host, path)
    if text is None:
        return None
    return _loads_toml(text, path)


def _is_file_or_refused(host: Host, p: Path) -> bool:
    """True for a (link to a) regular file, False when nothing is there or it is a directory.
    A FIFO, a device or a socket is refused with the reader's one-line error instead of being
    skipped: a rules/x.md that is a pipe would otherwise be a rule silently not installed."""
    if host.is_file(p):
        return True
    if host.is_dir(p) or not host.exists(p):
        return False
    _read(host, p)        # a dangling link reads as None; a FIFO raises "<path>: is a FIFO ..."
    return False


def _md_files(host: Host, d: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for fn in host.listdir(d):
        p = d / fn
        if fn.endswith(".md") and not fn.startswith(".") and _is_file_or_refused(host, p):
            name = fn[:-3]
            try:
                check_name(name)
            except ValueError as e:
                raise UserError(str(e), path=str(p)) from None
            check_profile_source(host, p)
            out[name] = _read(host, p) or ""
    return out


def _check_hooks(host: Host, prof: schema.Profile, hooks_from: dict[str, Path]) -> None:
    """[hooks] after the extends chain is merged: events with no handler anywhere in the chain,
    or a handler command that is not a command line, are mistakes to fix, not to install.
    (command = "" is how a profile turns inherited hooks off; a handler not on PATH yet is a
    warning in the plan: the wrapper then does nothing until it is installed.)"""

    def where(fld: str) -> tuple[str | None, int | None]:
        p = hooks_from.get(fld)
        if p is None:
            return None, None
        return str(p), _line_of_key(_read(host, p) or "", fld)

    h = prof.hooks
    if h.events and h.command is None:
        path, line = where("events")
        raise UserError("hooks.events: events to register but no handler ([hooks] command) "
                        "anywhere in the profile chain", path=path, line=line)
    if h.command:
        try:
            shlex.split(h.command)
        except ValueError as e:
            path, line = where("command")
            raise UserError(f"hooks.command: not a valid command line ({e})", path=path,
                            line=line) from None


def _merge_policy(into: schema.Policy, layer: schema.PolicyFile, path: Path) -> None:
    """One profile's [policy] over the chain so far: on_error when set; each rule by id (a rule
    with an id already there replaces it in place, a new one is appended)."""
    for key in ("on_error", "unresolved", "inline_code", "protect_agentdeck"):
        if getattr(layer, key, None) is not None:
            setattr(into, key, getattr(layer, key))
    for kind, other in (("rules", "paths"), ("paths", "rules")):
        given = {r.id for r in getattr(layer, kind)}
        setattr(into, other, [r for r in getattr(into, other) if r.id not in given])
    for kind in ("rules", "paths"):
        have = getattr(into, kind)
        at = {r.id: i for i, r in enumerate(have)}
        for rule in getattr(layer, kind):
            if rule.id in at:
                have[at[rule.id]] = rule
            else:
                at[rule.id] = len(have)
                have.append(rule)
            into.sources[rule.id] = str(path)


def deep_merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = v
    return out


def resolve(host: Host, name: str) -> Profile:
    """Load `name` and its extends chain (base first) into one Profile: from the cache when
    none of the files it was built from changed (no pydantic import), else validated by
    pydantic (core/schema.py) and kept for the cache (see core/profilecache.py)."""
    try:
        check_name(name, "profile name")
    except ValueError as e:
        raise UserError(str(e)) from None
    cached = profilecache.load(host, name)
    if cached is not None:
        return cached
    rec = profilecache.Recorder(host)
    # a Recorder stands in for the Host: it answers resolve's reads (logging them) and hands
    # everything else to the host
    return profilecache.remember(host, name, resolve_validated(cast(Host, rec), name), rec)


MAX_EXTENDS_DEPTH = 64   # profiles in one extends chain


def resolve_validated(host: Host, name: str) -> schema.Profile:
    """resolve() without the cache: every file read and validated by pydantic; the result is
    pydantic's schema.Profile. `host` may be a profilecache.Recorder."""
    from pydantic import ValidationError   # local: pydantic loads only when a profile is validated (a cached one is not)

    from .schema import Directives, McpFile, Profile, ProfileFile   # local: as pydantic

    check_name(name, "profile name")
    refs = available(host, describe=False)
    chain: list[str] = []
    metas: dict[Path, ProfileFile] = {}    # each profile.toml read and validated once

    def meta_of(ref: ProfileRef) -> ProfileFile:
        path = ref.path / "profile.toml"
        if path not in metas:
            metas[path] = _load_profile_toml(host, path)
        return metas[path]

    def visit(n: str, stack: list[str], via: Path | None) -> None:
        if n in stack:
            cycle = " -> ".join(stack[stack.index(n):] + [n])
            raise UserError(f"profile extends cycle: {cycle}", path=str(via) if via else None)
        if len(stack) >= MAX_EXTENDS_DEPTH:    # one line, not a RecursionError
            raise UserError(f"profile extends chain is deeper than {MAX_EXTENDS_DEPTH} profiles "
                            f"({' -> '.join(stack[:3])} -> ...)", path=str(via) if via else None)
        if n in chain:
            return
        ref = refs.get(n)
        if ref is None:
            known = ", ".join(sorted(refs)) or "none"
            raise UserError(f"unknown profile {n!r} (known: {known})", path=str(via) if via else None)
        meta = meta_of(ref)
        for parent in meta.profile.extends:
            visit(parent, stack + [n], ref.path / "profile.toml")
        chain.append(n)

    visit(name, [], None)

    prof = Profile(name=name, chain=chain)
    hooks_from: dict[str, Path] = {}     # hooks field -> the profile.toml that set it last
    native: dict[str, dict] = {}
    directives_raw: dict[str, Any] = {}
    for n in chain:
        ref = refs[n]
        d = ref.path
        prof.origins[n] = f"{ref.origin}:{d}"
        meta = meta_of(ref)
        if n == name:
            prof.description = meta.profile.description
        if meta.profile.targets is not None:
            prof.targets = list(meta.profile.targets)
        if meta.policy is not None:
            _merge_policy(prof.policy, meta.policy, d / "profile.toml")
        if meta.org is not None:       # each [org] key a later profile sets replaces it
            org = prof.org.model_dump(exclude_unset=True)
            org.update(meta.org.model_dump(exclude_unset=True))
            prof.org = type(prof.org).model_validate(org)
        if meta.hooks is not None:
            merged = prof.hooks.model_dump()
            merged.update(meta.hooks.model_dump(exclude_unset=True))
            prof.hooks = type(prof.hooks).model_validate(merged)
            for fld in meta.hooks.model_dump(exclude_unset=True):
                hooks_from[fld] = d / "profile.toml"
        check_profile_source(host, d / "AGENTS.md")
        persona = _read(host, d / "AGENTS.md")
        if persona is not None:
            prof.personas.append((n, persona))
        prof.rules.update(_md_files(host, d / "rules"))
        prof.agents.update(_md_files(host, d / "agents"))
        prof.commands.update(_md_files(host, d / "commands"))
        for sk in host.listdir(d / "skills"):
            if _is_file_or_refused(host, d / "skills" / sk / "SKILL.md"):
                try:
                    check_name(sk, "skill name")
                except ValueError as e:
                    raise UserError(str(e), path=str(d / "skills" / sk)) from None
                check_profile_source(host, d / "skills" / sk / "SKILL.md")
                prof.skills[sk] = str(d / "skills" / sk)
        loaded = _load_json(host, d / "mcp.json")
        if loaded is not None:
            data, doc = loaded
            try:
                mf = McpFile.model_validate(data)
            except ValidationError as e:
                def locate(loc, doc=doc):
                    for i in range(len(loc), 0, -1):
                        ln = doc.line_of(tuple(loc[:i]))
                        if ln:
                            return ln
                    return None
                raise _validation_error(d / "mcp.json", "", e, locate=locate) from None
            for sname, srv in mf.mcpServers.items():
                try:
                    check_name(sname, "MCP server name")
                except ValueError as e:
                    raise UserError(str(e), path=str(d / "mcp.json"),
                                    line=doc.line_of(("mcpServers", sname))) from None
                prof.mcp_servers[sname] = srv
        for rel in NATIVE_FILES:
            p = d / rel
            if rel.endswith(".toml"):
                data = _load_toml(host, p)
            else:
                got = _load_json(host, p)
                data = got[0] if got else None
            if data is None:
                continue
            if not isinstance(data, dict):
                raise UserError("expected an object at the top level", path=str(p))
            if rel == registry.DIRECTIVES_FILE:
                for key in DIRECTIVE_KEYS:
                    if key in data:
                        block = data[key]
                        if not isinstance(block, dict):
                            raise UserError(f"{key}: expected an object", path=str(p))
                        directives_raw.update(block)
                data = {k: v for k, v in data.items() if k not in DIRECTIVE_KEYS}
            native[rel] = deep_merge(native.get(rel, {}), data)
    prof.native = native
    _check_hooks(host, prof, hooks_from)
    try:
        prof.directives = Directives.model_validate(directives_raw)
    except ValidationError as e:
        err = e.errors()[0]
        field = ".".join(str(p) for p in err.get("loc", ()))
        raise UserError(f"_agentdeck.{field}: {err.get('msg')}",
                        path=str(refs[name].path / registry.DIRECTIVES_FILE)) from None
    return prof


# ---- the shipped cache: profiles/_resolved.json ---------------------------------------------
def build_shipped_cache(host: Host) -> dict[str, Any]:
    """Cache entries for every bundled profile, resolved as on a home with no operator profiles
    (core/profilecache.py: what `load` finds in profilecache.shipped_path())."""
    out: dict[str, dict[str, Any]] = {}
    for ref in available(host, describe=False).values():
        if ref.origin != "bundled":
            continue
        rec = profilecache.Recorder(host)
        validated = resolve_validated(cast(Host, rec), ref.name)   # (as in resolve)
        entry = profilecache.make_entry(host, ref.name, validated, rec)
        if entry is not None:
            out[ref.name] = entry
    return {"format": profilecache.FORMAT, "entries": dict(sorted(out.items()))}


def shipped_cache_text(host: Host) -> str:
    return json.dumps(build_shipped_cache(host), indent=1, ensure_ascii=False) + "\n"


def main() -> int:
    """Regenerate profiles/_resolved.json (on an empty temporary home):
    `python -m agentdeck.core.profiles`."""
    import tempfile   # local: a maintainer's command, not on any run's path

    with tempfile.TemporaryDirectory() as home:
        host = Host.from_environment(home, env={"PATH": "/usr/bin:/bin"})
        text = shipped_cache_text(host)
    path = profilecache.shipped_path()
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
