"""Models for what an operator writes: profile.toml, mcp.json, the `_agentdeck` block.

Validation errors are turned into one-line messages naming the file, line and field by
core.profiles; these models only say what is allowed.

The authority is pydantic (agentdeck.core.model_pydantic holds the pydantic classes), but importing it and
building the schemas costs ~90 ms, more than everything else `agentdeck plan` does. So these
classes check the plainly valid input themselves -- exact types only: a str that is a str, a
list of str, an int in range, one of the Literal values -- and give anything else (a value to
coerce, a wrong type, a missing field, an unknown key) to pydantic, which coerces it exactly as
before or raises its ValidationError. For valid input the result is what pydantic would have
built (same values, same copies, same fields_set and extras); the API used by the rest of the
code is pydantic's: model_validate, model_dump(exclude_none=, exclude_unset=), model_copy(deep=),
model_extra, model_fields_set. `ValidationError` here is pydantic's, imported on first use.
"""
from __future__ import annotations

import copy
import re
from typing import Any, Callable

NAME_RE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")
TARGETS = ("copilot", "codex", "claude")


def check_name(value: str, what: str = "name") -> str:
    """Names become path components: refuse separators, `..` and anything odd."""
    if not isinstance(value, str) or not value or not NAME_RE.match(value) or ".." in value:
        raise ValueError(f"invalid {what} {value!r}: use letters, digits, '_', '-', '.' (no '/' or '..')")
    return value


def __getattr__(name: str):
    """`model.ValidationError` is pydantic's, imported only when an error is being matched."""
    if name == "ValidationError":
        from pydantic import ValidationError
        return ValidationError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---- fast checks: a checked (and, like pydantic, copied) value, or _BAD --------------------------
_BAD = object()
_REQUIRED = object()
Check = Callable[[Any], Any]


def _str(v):
    return v if type(v) is str else _BAD


def _bool(v):
    return v if type(v) is bool else _BAD


def _any(v):
    return v


def _int(lo: int | None = None, hi: int | None = None) -> Check:
    def check(v):
        if type(v) is not int or (lo is not None and v < lo) or (hi is not None and v > hi):
            return _BAD
        return v
    return check


def _opt(inner: Check) -> Check:
    def check(v):
        return None if v is None else inner(v)
    return check


def _lit(*values: str) -> Check:
    allowed = frozenset(values)

    def check(v):
        return v if type(v) is str and v in allowed else _BAD
    return check


def _list(item: Check) -> Check:
    def check(v):
        if type(v) is not list:
            return _BAD
        out = [item(x) for x in v]
        return _BAD if any(x is _BAD for x in out) else out
    return check


def _dict(value: Check) -> Check:
    def check(v):
        if type(v) is not dict:
            return _BAD
        out = {}
        for k, x in v.items():
            if type(k) is not str:
                return _BAD
            y = value(x)
            if y is _BAD:
                return _BAD
            out[k] = y
        return out
    return check


def _str_pair(v):
    if type(v) in (tuple, list) and len(v) == 2 and type(v[0]) is str and type(v[1]) is str:
        return (v[0], v[1])
    return _BAD


def _model(cls_name: str) -> Check:
    def check(v):
        cls = _CLASSES[cls_name]
        if type(v) is cls:
            return v                      # pydantic keeps an instance as it is
        if type(v) is dict:
            got = cls._fast(v)
            if got is not None:
                return cls._build(*got)
        return _BAD
    return check


# ---- the base class ----------------------------------------------------------------------------
class _Model:
    """A model with pydantic's surface; subclasses declare `_spec`: field -> (check, default),
    default being _REQUIRED or a zero-argument factory, in declaration order."""
    __slots__ = ("__dict__", "_fset", "_xtra")
    _spec: dict[str, tuple[Check, Any]] = {}
    _extra = "ignore"              # pydantic's extra=: "ignore" | "forbid" | "allow"

    def __init__(self, **data: Any) -> None:
        got = type(self)._fast(data) or type(self)._slow(data)
        self._set(*got)

    # -- validation
    @classmethod
    def _fast(cls, data: dict) -> tuple[dict, set, dict | None] | None:
        values: dict[str, Any] = {}
        n = 0
        for name, (check, default) in cls._spec.items():
            if name in data:
                v = check(data[name])
                if v is _BAD:
                    return None
                values[name] = v
                n += 1
            elif default is _REQUIRED:
                return None
            else:
                values[name] = default()
        fields_set = {k for k in data if k in cls._spec}
        extra = {} if cls._extra == "allow" else None
        if n < len(data):
            keys = [k for k in data if k not in cls._spec]
            if cls._extra == "forbid" or any(type(k) is not str for k in keys):
                return None
            if extra is not None:
                extra = {k: data[k] for k in keys}
                fields_set.update(keys)
        return values, fields_set, extra

    @classmethod
    def _slow(cls, data: Any) -> tuple[dict, set, dict | None]:
        """pydantic's own validation (raises its ValidationError)."""
        validated = _pydantic(cls).model_validate(_to_pydantic(data))
        return _from_pydantic_parts(cls, validated)

    @classmethod
    def _build(cls, values: dict, fields_set: set, extra: dict | None):
        obj = cls.__new__(cls)
        obj._set(values, fields_set, extra)
        return obj

    def _set(self, values: dict, fields_set: set, extra: dict | None) -> None:
        self.__dict__.update(values)
        object.__setattr__(self, "_fset", fields_set)
        object.__setattr__(self, "_xtra", extra)

    @classmethod
    def model_validate(cls, obj: Any):
        if type(obj) is cls:
            return obj
        if type(obj) is dict:
            got = cls._fast(obj)
            if got is not None:
                return cls._build(*got)
        return cls._build(*cls._slow(obj))

    # -- pydantic's surface
    @property
    def model_extra(self) -> dict | None:
        return self._xtra

    @property
    def model_fields_set(self) -> set[str]:
        return self._fset

    def model_dump(self, *, exclude_none: bool = False, exclude_unset: bool = False) -> dict:
        out = {}
        for k, v in self._items():
            if exclude_unset and k not in self._fset:
                continue
            if exclude_none and v is None:
                continue
            out[k] = _dump(v, exclude_none, exclude_unset)
        return out

    def model_copy(self, *, deep: bool = False):
        return copy.deepcopy(self) if deep else copy.copy(self)

    def __copy__(self):
        obj = type(self).__new__(type(self))
        obj._set(dict(self.__dict__), set(self._fset),
                 dict(self._xtra) if self._xtra is not None else None)
        return obj

    def __deepcopy__(self, memo: dict):
        obj = type(self).__new__(type(self))
        memo[id(self)] = obj
        obj._set(copy.deepcopy(self.__dict__, memo), set(self._fset),
                 copy.deepcopy(self._xtra, memo))
        return obj

    def _items(self):
        yield from self.__dict__.items()
        if self._xtra:
            yield from self._xtra.items()

    def __getattr__(self, name: str):
        xtra = object.__getattribute__(self, "_xtra") if name != "_xtra" else None
        if xtra and name in xtra:
            return xtra[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("_fset", "_xtra"):
            object.__setattr__(self, name, value)
        elif name in self._spec:
            self.__dict__[name] = value
            self._fset.add(name)
        elif self._xtra is not None:
            self._xtra[name] = value
        else:
            raise ValueError(f'"{type(self).__name__}" object has no field "{name}"')

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__ and self._xtra == other._xtra

    __hash__ = None  # type: ignore[assignment]

    def __iter__(self):
        yield from self._items()

    def __repr_args(self) -> str:
        return ", ".join(f"{k}={v!r}" for k, v in self._items())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.__repr_args()})"

    def __str__(self) -> str:
        return " ".join(f"{k}={v!r}" for k, v in self._items())


def _dump(v: Any, exclude_none: bool, exclude_unset: bool) -> Any:
    if isinstance(v, _Model):
        return v.model_dump(exclude_none=exclude_none, exclude_unset=exclude_unset)
    if isinstance(v, dict):
        return {k: _dump(x, exclude_none, exclude_unset) for k, x in v.items()}
    if isinstance(v, list):
        return [_dump(x, exclude_none, exclude_unset) for x in v]
    if isinstance(v, tuple):
        return tuple(_dump(x, exclude_none, exclude_unset) for x in v)
    return v


# ---- the slow path: pydantic ------------------------------------------------------------------
def _pydantic(cls: type[_Model]):
    from . import model_pydantic
    return getattr(model_pydantic, cls.__name__)


def _to_pydantic(v: Any) -> Any:
    """Our instances inside the input become pydantic ones (kept as they are, like before)."""
    if isinstance(v, _Model):
        values = {k: _to_pydantic(x) for k, x in v.__dict__.items()}
        return _pydantic(type(v)).model_construct(_fields_set=set(v._fset), **values,
                                                  **(v._xtra or {}))
    if isinstance(v, dict) and any(isinstance(x, _Model) for x in v.values()):
        return {k: _to_pydantic(x) for k, x in v.items()}
    return v


def _from_pydantic(v: Any) -> Any:
    from pydantic import BaseModel

    if isinstance(v, BaseModel):
        return _CLASSES[type(v).__name__]._build(*_from_pydantic_parts(_CLASSES[type(v).__name__], v))
    if isinstance(v, dict) and any(isinstance(x, BaseModel) for x in v.values()):
        return {k: _from_pydantic(x) for k, x in v.items()}
    return v


def _from_pydantic_parts(cls: type[_Model], m) -> tuple[dict, set, dict | None]:
    values = {name: _from_pydantic(getattr(m, name)) for name in cls._spec}
    extra = dict(m.model_extra) if m.model_extra is not None else None
    return values, set(m.model_fields_set), extra


# ---- the models (keep in step with core/model_pydantic.py) --------------------------------------
_TARGET_LIT = _lit(*TARGETS)
_STRS = _list(_str)
_STR_DICT = _dict(_str)


def _names(v):
    """ProfileMeta.extends: a list of valid profile names (the field_validator's rule)."""
    out = _STRS(v)
    if out is _BAD:
        return _BAD
    try:
        return [check_name(x, "profile name") for x in out]
    except ValueError:
        return _BAD


class ProfileMeta(_Model):
    __slots__ = ()
    _extra = "forbid"
    _spec = {
        "name": (_opt(_str), lambda: None),
        "description": (_str, lambda: ""),
        "extends": (_names, list),
        "targets": (_opt(_list(_TARGET_LIT)), lambda: None),
    }
    name: str | None
    description: str
    extends: list[str]
    targets: list[str] | None


class HookSpec(_Model):
    """The profile's hook handler: one command, run for each registered event."""
    __slots__ = ()
    _extra = "forbid"
    _spec = {
        "command": (_opt(_str), lambda: None),
        "events": (_opt(_STRS), lambda: None),  # canonical names (session_start, ...); None = all
        "timeout": (_int(1, 3600), lambda: 30),
    }
    command: str | None
    events: list[str] | None
    timeout: int


class ProfileFile(_Model):
    __slots__ = ()
    _extra = "forbid"
    _spec = {
        "profile": (_model("ProfileMeta"), lambda: ProfileMeta()),
        "hooks": (_opt(_model("HookSpec")), lambda: None),
    }
    profile: ProfileMeta
    hooks: HookSpec | None


class McpServer(_Model):
    """One target-neutral MCP server (the Claude / .mcp.json shape). Unknown native fields are
    kept and passed through to targets that understand them."""
    __slots__ = ()
    _extra = "allow"
    _spec = {
        "type": (_opt(_lit("stdio", "local", "http", "sse", "streamable-http")), lambda: None),
        "command": (_opt(_str), lambda: None),
        "args": (_STRS, list),
        "env": (_STR_DICT, dict),
        "url": (_opt(_str), lambda: None),
        "headers": (_STR_DICT, dict),
        "tools": (_opt(_STRS), lambda: None),
        "timeout": (_opt(_int()), lambda: None),
        "auth": (_opt(_bool), lambda: None),
        "oidc": (_opt(_bool), lambda: None),
    }
    type: str | None
    command: str | None
    args: list[str]
    env: dict[str, str]
    url: str | None
    headers: dict[str, str]
    tools: list[str] | None
    timeout: int | None
    auth: bool | None
    oidc: bool | None

    @property
    def transport(self) -> str:
        t = self.type
        if t in ("http", "streamable-http"):
            return "http"
        if t == "sse":
            return "sse"
        if t in ("stdio", "local"):
            return "stdio"
        return "http" if self.url and not self.command else "stdio"

    def check(self) -> str | None:
        """A problem that makes this server unusable, or None."""
        if self.transport == "stdio" and not self.command:
            return "a stdio server needs a 'command'"
        if self.transport in ("http", "sse") and not self.url:
            return f"an {self.transport} server needs a 'url'"
        return None


class McpFile(_Model):
    __slots__ = ()
    _extra = "forbid"
    _spec = {
        "mcpServers": (_dict(_model("McpServer")), dict),
    }
    mcpServers: dict[str, McpServer]


class Directives(_Model):
    """The reserved `_agentdeck` block (alias `_agentihooks`): directives with no settings key in
    the CLI. Never written to disk. Loosely typed on purpose: a bad value degrades with a warning
    in the plan (reference §11.5) rather than aborting the install."""
    __slots__ = ()
    _extra = "forbid"
    _spec = {
        "mcpDefaultDisabled": (_bool, lambda: False),
        "mcpAlwaysEnabled": (_STRS, list),
        "browserCommand": (_any, lambda: None),
        "suppressBrowserLaunch": (_bool, lambda: False),
        "allowAll": (_any, lambda: None),
        "channels": (_any, lambda: None),
    }
    mcpDefaultDisabled: bool
    mcpAlwaysEnabled: list[str]
    browserCommand: Any
    suppressBrowserLaunch: bool
    allowAll: Any
    channels: Any


class Profile(_Model):
    """A resolved profile: the extends chain merged, base first."""
    __slots__ = ()
    _spec = {
        "name": (_str, _REQUIRED),
        "description": (_str, lambda: ""),
        "chain": (_STRS, _REQUIRED),                     # base first, this profile last
        "origins": (_STR_DICT, dict),                    # profile name -> "bundled"/"operator" dir
        "targets": (_STRS, lambda: list(TARGETS)),
        "hooks": (_model("HookSpec"), lambda: HookSpec()),
        "personas": (_list(_str_pair), list),            # (profile name, AGENTS.md text)
        "rules": (_STR_DICT, dict),                      # rule name -> text (later wins)
        "agents": (_STR_DICT, dict),                     # agent name -> markdown text
        "commands": (_STR_DICT, dict),                   # command name -> markdown text
        "skills": (_STR_DICT, dict),                     # skill name -> absolute dir path
        "mcp_servers": (_dict(_model("McpServer")), dict),
        "native": (_dict(_dict(_any)), dict),            # "copilot/settings.json" -> data
        "directives": (_model("Directives"), lambda: Directives()),
        "directive_warnings": (_STRS, list),
    }
    name: str
    description: str
    chain: list[str]
    origins: dict[str, str]
    targets: list[str]
    hooks: HookSpec
    personas: list[tuple[str, str]]
    rules: dict[str, str]
    agents: dict[str, str]
    commands: dict[str, str]
    skills: dict[str, str]
    mcp_servers: dict[str, McpServer]
    native: dict[str, dict[str, Any]]
    directives: Directives
    directive_warnings: list[str]


_CLASSES: dict[str, type[_Model]] = {c.__name__: c for c in (
    ProfileMeta, HookSpec, ProfileFile, McpServer, McpFile, Directives, Profile)}
