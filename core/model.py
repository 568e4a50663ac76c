"""The profile as the rest of agentdeck holds it: validated data with pydantic's reading API.

The schema is declared once, with pydantic, in core/schema.py. These classes declare no fields:
an instance is built from data pydantic has already validated, either just now (a changed
profile: core/schema.py is imported and validates it) or earlier (an unchanged profile, loaded
from the cache in core/profilecache.py, with no pydantic import). Both go through the same
encoding (`encode` a validated pydantic model, `decode` it into these classes), so a profile
read from the cache is exactly the one validation produced.

The surface is the part of pydantic's API the code uses: attribute access, model_validate
(validates with core/schema.py), model_dump(exclude_none=, exclude_unset=), model_copy(deep=),
model_extra, model_fields_set. `ValidationError` here is pydantic's, imported on first use.
"""
from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Self

from .names import NAME_RE as NAME_RE, TARGETS as TARGETS, check_name as check_name  # re-exported: callers import them here


def __getattr__(name: str) -> Any:
    """`model.ValidationError` is pydantic's, imported only when an error is being matched."""
    if name == "ValidationError":
        from pydantic import ValidationError   # local: pydantic only when an error is matched
        return ValidationError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class CorruptData(ValueError):
    """Encoded profile data that is not what `encode` writes (a damaged or forged cache)."""


class Node:
    """One validated model instance: its fields (all of them, in declaration order), the names
    the input set (pydantic's model_fields_set) and its extra keys (None unless the schema
    allows extras)."""
    __slots__ = ("__dict__", "_fset", "_xtra")

    def __init__(self, **data: Any) -> None:
        got = type(self).model_validate(data)
        self._set(dict(got.__dict__), set(got._fset), got._xtra)

    @classmethod
    def model_validate(cls, obj: Any) -> Self:
        """Validate with the pydantic class of the same name (raises pydantic's ValidationError)."""
        if type(obj) is cls:
            return obj
        from . import schema   # local: pydantic only when a Node is validated
        node: Self = decode(encode(getattr(schema, cls.__name__).model_validate(_plain(obj))))
        return node

    @classmethod
    def _build(cls, values: dict[str, Any], fields_set: set[str], extra: dict[str, Any] | None) -> Self:
        obj = cls.__new__(cls)
        obj._set(values, fields_set, extra)
        return obj

    def _set(self, values: dict[str, Any], fields_set: set[str], extra: dict[str, Any] | None) -> None:
        self.__dict__.update(values)
        object.__setattr__(self, "_fset", fields_set)
        object.__setattr__(self, "_xtra", extra)

    # -- pydantic's reading surface
    @property
    def model_extra(self) -> dict[str, Any] | None:
        xtra: dict[str, Any] | None = self._xtra
        return xtra

    @property
    def model_fields_set(self) -> set[str]:
        fset: set[str] = self._fset
        return fset

    def model_dump(self, *, exclude_none: bool = False, exclude_unset: bool = False) -> dict[str, Any]:
        out = {}
        for k, v in self._items():
            if exclude_unset and k not in self._fset:
                continue
            if exclude_none and v is None:
                continue
            out[k] = _dump(v, exclude_none, exclude_unset)
        return out

    def model_copy(self, *, deep: bool = False) -> Self:
        return copy.deepcopy(self) if deep else copy.copy(self)

    def __copy__(self) -> Self:
        obj = type(self).__new__(type(self))
        obj._set(dict(self.__dict__), set(self._fset),
                 dict(self._xtra) if self._xtra is not None else None)
        return obj

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        obj = type(self).__new__(type(self))
        memo[id(self)] = obj
        obj._set(copy.deepcopy(self.__dict__, memo), set(self._fset),
                 copy.deepcopy(self._xtra, memo))
        return obj

    def _items(self) -> Iterator[tuple[str, Any]]:
        yield from self.__dict__.items()
        if self._xtra:
            yield from self._xtra.items()

    def __getattr__(self, name: str) -> Any:
        xtra = object.__getattribute__(self, "_xtra") if name != "_xtra" else None
        if xtra and name in xtra:
            return xtra[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("_fset", "_xtra"):
            object.__setattr__(self, name, value)
        elif name in self.__dict__:
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

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        yield from self._items()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self._items())})"


def _dump(v: Any, exclude_none: bool, exclude_unset: bool) -> Any:
    if isinstance(v, Node):
        return v.model_dump(exclude_none=exclude_none, exclude_unset=exclude_unset)
    if isinstance(v, dict):
        return {k: _dump(x, exclude_none, exclude_unset) for k, x in v.items()}
    if isinstance(v, list):
        return [_dump(x, exclude_none, exclude_unset) for x in v]
    if isinstance(v, tuple):
        return tuple(_dump(x, exclude_none, exclude_unset) for x in v)
    return v


def _plain(v: Any) -> Any:
    """Input for pydantic: our instances inside it become the dicts they were validated from."""
    if isinstance(v, Node):
        out = {k: _plain(x) for k, x in v.__dict__.items() if k in v._fset}
        out.update({k: _plain(x) for k, x in (v._xtra or {}).items()})
        return out
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


# ---- the runtime classes: one per class of core/schema.py, same name, no fields ---------------
class ProfileMeta(Node):
    __slots__ = ()


class HookSpec(Node):
    """The profile's hook handler: one command, run for each registered event."""
    __slots__ = ()


class ProfileFile(Node):
    __slots__ = ()


class McpServer(Node):
    """One target-neutral MCP server (the Claude / .mcp.json shape). Unknown native fields are
    kept (model_extra) and passed through to targets that understand them."""
    __slots__ = ()

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


class McpFile(Node):
    __slots__ = ()


class Directives(Node):
    """The reserved `_agentdeck` block (alias `_agentihooks`). Never written to disk."""
    __slots__ = ()


class Profile(Node):
    """A resolved profile: the extends chain merged, base first (fields: core/schema.py)."""
    __slots__ = ()


CLASSES: dict[str, type[Node]] = {c.__name__: c for c in (
    ProfileMeta, HookSpec, ProfileFile, McpServer, McpFile, Directives, Profile)}


def node_class(name: str) -> type[Node]:
    """The runtime class for schema class `name`: one above when it has methods or callers
    import it by name, else a plain Node subclass of that name made on first use."""
    cls = CLASSES.get(name)
    if cls is None:
        cls = CLASSES[name] = type(name, (Node,), {"__slots__": (), "__module__": __name__})
    return cls


# ---- encoding: a validated pydantic model <-> JSON-able data <-> these classes ------------------
# Every container is tagged, so no value the operator wrote can be mistaken for a model:
#   model {"m": class, "v": {field: value}, "s": [fields set], "x": {extra} | None}
#   dict {"d": {...}}, list {"l": [...]}, tuple {"t": [...]}; str, int, float, bool, None as is.
_SCALARS = (str, int, float, bool, type(None))


def encode(v: Any) -> Any:
    """A validated pydantic model (or a value inside one) as tagged data. Leaves that JSON cannot
    hold (a TOML datetime in a native config) are kept as they are: such a profile is used but
    not cached (json.dumps refuses it)."""
    fields = getattr(type(v), "model_fields", None)
    if isinstance(fields, dict) and hasattr(v, "model_fields_set"):
        extra = v.model_extra
        return {"m": type(v).__name__, "v": {f: encode(getattr(v, f)) for f in fields},
                "s": sorted(v.model_fields_set),
                "x": None if extra is None else {k: encode(x) for k, x in extra.items()}}
    if isinstance(v, dict):
        return {"d": {k: encode(x) for k, x in v.items()}}
    if isinstance(v, list):
        return {"l": [encode(x) for x in v]}
    if isinstance(v, tuple):
        return {"t": [encode(x) for x in v]}
    return v


def decode(v: Any, fields: dict[str, list[str]] | None = None, *, strict: bool = False) -> Any:
    """Tagged data back into values and these classes. `strict` (data read from a file): every
    leaf must be a JSON scalar and every model must have exactly the fields `fields` names for
    its class, else CorruptData."""
    if type(v) is dict:
        if len(v) == 1:
            tag, x = next(iter(v.items()))
            if tag == "d" and type(x) is dict:
                return {k: decode(y, fields, strict=strict) for k, y in x.items()}
            if tag == "l" and type(x) is list:
                return [decode(y, fields, strict=strict) for y in x]
            if tag == "t" and type(x) is list:
                return tuple(decode(y, fields, strict=strict) for y in x)
        elif len(v) == 4 and v.keys() == {"m", "v", "s", "x"}:
            return _decode_model(v, fields, strict)
        raise CorruptData(f"unexpected {sorted(v)[:4]!r}")
    if strict and not isinstance(v, _SCALARS):
        raise CorruptData(f"unexpected {type(v).__name__}")
    return v


def _decode_model(v: dict[str, Any], fields: dict[str, list[str]] | None, strict: bool) -> Node:
    name, values, fset, xtra = v["m"], v["v"], v["s"], v["x"]
    if type(name) is not str or not name.isidentifier() or (strict and name not in (fields or {})):
        raise CorruptData(f"bad model {name!r}")
    cls = node_class(name)
    if type(values) is not dict or type(fset) is not list \
            or not (xtra is None or type(xtra) is dict):
        raise CorruptData(f"bad model {v['m']!r}")
    if strict:
        want = (fields or {}).get(cls.__name__)
        if want is None or list(values) != want:
            raise CorruptData(f"{cls.__name__}: fields {list(values)!r}")
        if any(type(k) is not str or (k not in values and k not in (xtra or {})) for k in fset):
            raise CorruptData(f"{cls.__name__}: fields set {fset!r}")
    return cls._build({k: decode(x, fields, strict=strict) for k, x in values.items()}, set(fset),
                      None if xtra is None else
                      {k: decode(x, fields, strict=strict) for k, x in xtra.items()})
