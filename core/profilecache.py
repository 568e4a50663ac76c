"""The validated, resolved profile, kept so an unchanged profile loads without pydantic.

core.profiles resolves a profile through a `Recorder`: every read, directory listing and
existence test it makes is logged with its result (a file's sha256, a listing's names). That log
is the cache key. A cached profile is used only when replaying the log on the disk gives the
same answers, the code that validates and resolves (core/schema.py, profiles.py, model.py, this
file) has the same hash as when it was written, and the entry's own digest matches; otherwise
the profile is validated again by pydantic. A damaged, truncated or hand-made cache file is
never an error: it is a miss. Decoding checks the shape (every model has exactly its schema
fields, every leaf is a JSON scalar), not each value's type: an entry edited by hand with its
digest recomputed and its shape kept is used as it is. Only the owner of the state dir (0700,
entries 0600) can write one, and they can edit the profile itself; the plan shows the result
before anything is applied.

Where entries live:
- `<state dir>/profile-cache/<name>.json` (0600): written after an apply, by `save(host)`;
  planning never writes (nothing in the home changes until a plan is applied).
- `profiles/_resolved.json`, shipped with the bundled profiles, so `agentdeck plan` on a fresh
  home loads the bundled profiles without pydantic. Regenerate it after changing a bundled
  profile or the schema: `python -m agentdeck.core.profiles` (a test fails while it is stale;
  a stale entry is only slower, never wrong).
Paths under the bundled and the operator profile folders are kept relative to those folders
("\\0B/default/...", "\\0O/mine/..."), so an entry holds wherever agentdeck is installed.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import profile_dirs
from .digest import new_sha256
from .model import CorruptData, Profile, decode, encode

if TYPE_CHECKING:
    from .host import Host

FORMAT = 1
SHIPPED = "_resolved.json"
_CODE = ("schema.py", "model.py", "names.py", "profiles.py", "profilecache.py")
_BUNDLED, _OPERATOR = "\0B", "\0O"

#: entries resolved in this process and not yet saved: (state dir, profile name) -> entry
_pending: dict[tuple[str, str], dict] = {}


def _sha(text: str | None) -> str | None:
    return None if text is None else new_sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class Recorder:
    """The host as profiles.resolve sees it, logging each question and its answer."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.log: dict[tuple[str, str], Any] = {}

    def read_text(self, path: Path) -> str | None:
        text = self.host.read_text(path)
        self.log[("read", str(path))] = _sha(text)
        return text

    def listdir(self, path: Path) -> list[str]:
        names = self.host.listdir(path)
        self.log[("list", str(path))] = _listing(names)
        return names

    def is_file(self, path: Path) -> bool:
        got = self.host.is_file(path)
        self.log[("isfile", str(path))] = got
        return got

    def exists(self, path: Path) -> bool:
        got = self.host.exists(path)
        self.log[("exists", str(path))] = got
        return got

    def __getattr__(self, name: str):
        return getattr(self.host, name)


def _listing(names: list[str]) -> list[str]:
    """A listing as the key holds it: the shipped cache file beside the bundled profiles is not
    an input (it is not a profile, and writing it must not make it stale)."""
    return [n for n in names if n != SHIPPED]


def _answer(host: Host, op: str, path: Path) -> Any:
    if op == "read":
        return _sha(host.read_text(path))
    if op == "list":
        return _listing(host.listdir(path))
    if op == "isfile":
        return host.is_file(path)
    if op == "exists":
        return host.exists(path)
    raise CorruptData(f"unknown input {op!r}")


# ---- paths relative to the profile folders ----------------------------------------------------
def _roots(host: Host) -> tuple[tuple[str, str], ...]:
    return ((_BUNDLED, str(profile_dirs.bundled_dir())),
            (_OPERATOR, str(profile_dirs.operator_dir(host))))


def _relative(s: str, roots) -> str:
    """"[origin:]/abs/root/rest" -> "[origin:]\\0X/rest" for the two profile roots."""
    head, sep, tail = s.partition(":") if s[:1] != "/" else ("", "", s)
    body = tail if sep else s
    for token, root in roots:
        if body == root or body.startswith(root + "/"):
            return (head + sep if sep else "") + token + body[len(root):]
    return s


def _absolute(s: str, roots) -> str:
    if "\0" not in s:
        return s
    head, sep, tail = s.partition(":") if s[:1] != "\0" else ("", "", s)
    body = tail if sep else s
    for token, root in roots:
        if body == token or body.startswith(token + "/"):
            return (head + sep if sep else "") + root + body[len(token):]
    raise CorruptData("bad relative path")


def _map_strings(v: Any, fn) -> Any:
    if isinstance(v, str):
        return fn(v)
    if isinstance(v, dict):
        return {k: _map_strings(x, fn) for k, x in v.items()}
    if isinstance(v, list):
        return [_map_strings(x, fn) for x in v]
    return v


def _has_nul(v: Any) -> bool:
    if isinstance(v, str):
        return "\0" in v
    if isinstance(v, dict):
        return any(_has_nul(k) or _has_nul(x) for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return any(_has_nul(x) for x in v)
    return False


# ---- entries ----------------------------------------------------------------------------------
def _code_hash(host: Host) -> str:
    h = new_sha256()
    here = Path(__file__).resolve().parent
    for name in _CODE:
        h.update(name.encode() + b"\0" + (host.read_bytes(here / name) or b"") + b"\0")
    return h.hexdigest()


def _digest(entry: dict) -> str:
    body = {k: v for k, v in entry.items() if k != "digest"}
    return new_sha256(json.dumps(body, sort_keys=True, ensure_ascii=False,
                                     allow_nan=True).encode("utf-8", "surrogatepass")).hexdigest()


def _fields() -> dict[str, list[str]]:
    """Each schema class's fields, in order: a cached model must have exactly these."""
    from pydantic import BaseModel   # local: only when a validated profile is kept

    from . import schema             # local: as pydantic
    return {n: list(c.model_fields) for n, c in vars(schema).items()
            if isinstance(c, type) and issubclass(c, BaseModel) and c is not BaseModel
            and c.__module__ == schema.__name__}


def make_entry(host: Host, name: str, validated: Any, rec: Recorder) -> dict | None:
    """The cache entry for a profile pydantic just validated, or None when it cannot be kept
    (a value JSON cannot hold, such as a TOML datetime; a NUL in a string)."""
    payload = encode(validated)
    if _has_nul(payload) or any("\0" in p for _, p in rec.log):
        return None
    roots = _roots(host)
    entry = {"format": FORMAT, "name": name, "code": _code_hash(host),
             "inputs": [[op, _relative(p, roots), ans] for (op, p), ans in rec.log.items()],
             "fields": _fields(), "profile": _map_strings(payload, lambda s: _relative(s, roots))}
    try:
        entry["digest"] = _digest(entry)
    except (TypeError, ValueError):
        return None
    return entry


def _use(host: Host, entry: Any, name: str) -> Profile:
    """The profile in `entry` when it still holds for `host`'s disk; CorruptData otherwise."""
    if type(entry) is not dict or entry.get("format") != FORMAT or entry.get("name") != name:
        raise CorruptData("not an entry for this profile")
    if type(entry.get("digest")) is not str or entry["digest"] != _digest(entry):
        raise CorruptData("digest")
    if entry.get("code") != _code_hash(host):
        raise CorruptData("written by other code")
    inputs, fields = entry.get("inputs"), entry.get("fields")
    if type(inputs) is not list or not inputs or type(fields) is not dict:
        raise CorruptData("shape")
    roots = _roots(host)
    for rec in inputs:
        if type(rec) is not list or len(rec) != 3 or type(rec[0]) is not str or type(rec[1]) is not str:
            raise CorruptData("input record")
        if _answer(host, rec[0], Path(_absolute(rec[1], roots))) != rec[2]:
            raise CorruptData(f"changed: {rec[1]}")
    prof = decode(_map_strings(entry.get("profile"), lambda s: _absolute(s, roots)), fields,
                  strict=True)
    if type(prof) is not Profile:
        raise CorruptData("not a profile")
    return prof


def state_path(host: Host, name: str) -> Path:
    return host.state_dir / "profile-cache" / f"{name}.json"


def shipped_path() -> Path:
    return profile_dirs.bundled_dir() / SHIPPED


def load(host: Host, name: str) -> Profile | None:
    """The cached resolution of `name` when every file it came from is unchanged, else None.
    Never raises: whatever is wrong with a cache file makes it a miss."""
    for path, pick in ((state_path(host, name), lambda d: d),
                       (shipped_path(), lambda d: d.get("entries", {}).get(name)
                        if type(d) is dict and type(d.get("entries")) is dict else None)):
        try:
            text = host.read_text(path)
            if text is None:
                continue
            entry = pick(json.loads(text))
            if entry is None:
                continue
            return _use(host, entry, name)
        except Exception:   # noqa: BLE001 -- any damage at all is a miss, never a crash
            continue
    return None


def remember(host: Host, name: str, validated: Any, rec: Recorder) -> Profile:
    """The runtime form of a just-validated profile; its entry waits for save(host)."""
    entry = make_entry(host, name, validated, rec)
    if entry is not None:
        _pending[(str(host.state_dir), name)] = entry
    return decode(encode(validated))


def save(host: Host) -> None:
    """Write the entries resolved for this host's state dir (after an apply). A failure to
    write a cache is not an error of the apply: the next run validates again."""
    state = str(host.state_dir)
    for key in [k for k in _pending if k[0] == state]:
        entry = _pending.pop(key)
        try:
            path = state_path(host, key[1])
            if not host.is_dir(host.state_dir):
                host.mkdir(host.state_dir, mode=0o700)    # agentdeck's state is private
            host.mkdir(path.parent, mode=0o700)
            host.write_atomic(path, json.dumps(entry, ensure_ascii=False).encode(
                "utf-8", "surrogatepass"), mode=0o600)
        except Exception:   # noqa: BLE001
            continue
