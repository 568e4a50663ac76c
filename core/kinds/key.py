"""One key path inside a structured settings file (value: any JSON value; fmt json, jsonc or
toml), and the member: one element of the list at a key path, shared with the operator (Claude's
hooks.<Event> matcher groups), found by a marker in its JSON text. The three-state rule applies to
that element alone: the operator's elements are never compared, rewritten or removed.

All the key items of one file are edited in one pass (`batched`), in plan order: the file is
parsed once, written once, and removed only when agentdeck made it and nothing else is left."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..desired import Desired
from ..digest import canonical
from ..errors import UserError
from ..formats.documents import Doc, new_doc
from ..formats.jsonc import MISSING
from ..formats.jsonc import MISSING as ABSENT     # the manifest's "nothing there before"
from ..ops import WriteOp
from .base import ItemKind, OpContext, entry_of, spec_of

if TYPE_CHECKING:
    from ..disk import DiskView
    from ..manifest import Entry
    from ..plan import PlanItem


# ---- list members (Desired.member) ---------------------------------------------------------------

def _is_member(element: Any, marker: str) -> bool:
    """A string element is the member named `marker` exactly (Copilot's disabledMcpServers:
    "github" is not "github-mcp-server"); an object is found by the marker in its JSON text."""
    if isinstance(element, str):
        return element == marker
    return json.dumps(marker, ensure_ascii=False)[1:-1] in canonical(element)


def find_member(value: Any, marker: str) -> tuple[int, Any]:
    """(index, element) of the first element of the list `value` whose JSON text contains
    `marker`; (-1, MISSING) when there is none (or `value` is not a list)."""
    if isinstance(value, list):
        for i, el in enumerate(value):
            if _is_member(el, marker):
                return i, el
    return -1, MISSING


def with_member(value: Any, marker: str, element: Any) -> list[Any]:
    """The list with our element replaced in place, or appended when it is not there yet; the
    operator's elements keep their order and content. A value that is there but not a list is
    the operator's and is never replaced (UserError)."""
    if value is not None and not isinstance(value, list):
        raise UserError(f"expected a list to add agentdeck's entry to, found {type(value).__name__}; "
                        "nothing was written")
    out = list(value) if isinstance(value, list) else []
    i, _ = find_member(out, marker)
    if i < 0:
        out.append(element)
    else:
        out[i] = element
    return out


def without_member(value: Any, marker: str) -> list[Any]:
    out = list(value) if isinstance(value, list) else []
    i, _ = find_member(out, marker)
    if i >= 0:
        del out[i]
    return out


# ---- reading -------------------------------------------------------------------------------------

def _json_type(v: Any) -> str:
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    return "null" if v is None else type(v).__name__


def _check_containers(doc: Doc, key: tuple[str, ...], path: Path, member: str) -> None:
    """What a key item is written into must be an object (and a member item's value a list):
    otherwise the apply could only write it by replacing the operator's value. Said now, at plan
    time, naming the file and line, before anything is written."""
    def fail(at: tuple[str, ...], expected: str, found: Any) -> UserError:
        line, col = doc.position_of(at) if hasattr(doc, "position_of") else (None, None)
        return UserError(f"{'.'.join(at)}: expected {expected}, found {_json_type(found)} "
                         f"(agentdeck manages {'.'.join(key)}{' in it' if at != key else ''})",
                         path=str(path), line=line, col=col)

    for i in range(1, len(key)):
        v = doc.get(key[:i], MISSING)
        if v is MISSING:
            return
        if not isinstance(v, dict):
            raise fail(key[:i], "an object", v)
    if member:
        v = doc.get(key, MISSING)
        if v is not MISSING and not isinstance(v, list):
            raise fail(key, "a list", v)


class KeyKind(ItemKind):
    name = "key"
    edits_in_place = True
    may_call = True
    shows_values = True
    batched = True

    def entry_id(self, path: str, key: tuple[str, ...] | list[str], member: str = "") -> str:
        base = path + "#" + json.dumps(list(key), ensure_ascii=False)
        return base + "@" + member if member else base

    def fingerprint(self, value: Any, mode: int | None = None) -> str:
        return canonical(value)

    def read_actual(self, disk: "DiskView", spec: "Desired | Entry") -> tuple[Any, str | None]:
        path = Path(spec.path)
        doc = disk.doc(path, spec.fmt)
        if doc is None:
            return MISSING, None
        key = tuple(spec.key)
        if isinstance(spec, Desired):
            _check_containers(doc, key, path, spec.member)
        v = doc.get(key, MISSING)
        if v is MISSING:
            return MISSING, None
        v = self._ours(v, spec)
        if v is MISSING:
            return MISSING, None
        return v, canonical(v)

    def _ours(self, value: Any, spec: "Desired | Entry") -> Any:
        """What of the value at the key is agentdeck's: all of it."""
        return value

    def display_recorded(self, entry: "Entry | None") -> Any:
        return MISSING if entry is None else entry.value

    def recorded_fields(self, spec: "Desired", prior: Any) -> dict[str, Any]:
        return {"value": spec.value, "prior": prior}

    def uninstall_reason(self, entry: "Entry") -> str:
        return ("agentdeck changed it; uninstall puts back the value it replaced"
                if entry.prior is not ABSENT else "agentdeck added it; uninstall takes it out")

    # ---- one item's edit of the file (inside the file's batch) ---------------------------------
    def set(self, doc: Doc, it: "PlanItem") -> Any:
        """Write the item's value; returns the prior value to record."""
        doc.set(tuple(it.key), it.desired)
        return it.entry.prior if it.entry else (ABSENT if it.actual is MISSING else it.actual)

    def unset(self, doc: Doc, key: tuple[str, ...], e: "Entry | None") -> None:
        """Put back the value agentdeck replaced, or take its key out."""
        if e is not None and e.prior != ABSENT:
            doc.set(key, e.prior)
        else:
            doc.delete(key, keep_table=_table_was_there(key, e))

    # ---- the file's ops ------------------------------------------------------------------------
    def ops(self, ctx: OpContext, items: list["PlanItem"]) -> None:
        if not all(i.type.batched for i in items):
            raise ValueError(f"{ctx.path_s}: key items and other kinds of item in one file")
        first = items[0]
        fmt = first.spec.fmt if first.spec is not None else entry_of(first).fmt
        loaded = ctx.disk.doc(ctx.path, fmt) if ctx.text is not None else None
        doc = loaded if loaded is not None else new_doc(fmt)
        removed: list["Entry"] = []
        made = _made_keys(ctx, items, doc)
        with doc.batch():   # every edit of this file in one pass, checked once (linear apply)
            _edit_keys(ctx, items, doc, made, removed)
            _prune_made_keys(ctx, items, removed, doc)
        writes = [i for i in items if ctx.writes(i)]
        file_mode = None
        for it in writes:
            if spec_of(it).file_mode:
                file_mode = spec_of(it).file_mode
        file_mode = _prior_modes(ctx, writes, removed, file_mode)
        if (removed and doc.data == {} and all(e.created_file for e in removed) and not writes
                and _no_other_entries(ctx, {i.id for i in items})):
            rm = sorted({d for e in removed for d in (e.created_dirs or [])}, key=len, reverse=True)
            ctx.ops.append(ctx.delete(rm))
        else:
            ctx.ops.append(WriteOp(ctx.real, doc.text().encode("utf-8"), file_mode,
                                   display=ctx.path_s, planned=bool(writes)))


class MemberKind(KeyKind):
    """One element of the list at a key path (Desired.member)."""

    def __repr__(self) -> str:
        return "<item kind member (key)>"

    def _ours(self, value: Any, spec: "Desired | Entry") -> Any:
        _, v = find_member(value, spec.member)
        return v

    def recorded_fields(self, spec: "Desired", prior: Any) -> dict[str, Any]:
        return {"value": spec.value, "prior": ABSENT}     # the operator's elements are theirs

    def set(self, doc: Doc, it: "PlanItem") -> Any:
        key = tuple(it.key)
        doc.set(key, with_member(doc.get(key, None), spec_of(it).member, it.desired))
        return ABSENT

    def unset(self, doc: Doc, key: tuple[str, ...], e: "Entry | None") -> None:
        """Take our element out of the shared list at `key`; the operator's elements stay. An
        emptied list goes, and so do the objects that this leaves empty (agentdeck made them)."""
        if e is None:
            return super().unset(doc, key, e)
        rest = without_member(doc.get(key, None), e.member)
        if rest:
            doc.set(key, rest)
            return
        doc.delete(key)
        for i in range(len(key) - 1, 0, -1):
            if doc.get(key[:i], None) != {}:
                break
            doc.delete(key[:i])


def _table_was_there(key: tuple[str, ...], e: "Entry | None") -> bool:
    """Whether the object holding ``key`` was in the file before agentdeck added the key: it
    stays when the key goes, empty or not (Codex refuses a ``default_permissions`` naming a
    profile whose ``[permissions.x.filesystem]`` header is gone). An object agentdeck's write
    created is in the entry's made_keys and goes with the key."""
    if e is None or len(key) < 2:
        return False
    return list(key[:-1]) not in [list(k) for k in (e.made_keys or [])]


# ---- the file's batch ----------------------------------------------------------------------------

def _edit_keys(ctx: OpContext, items: list["PlanItem"], doc: Doc, made: dict[str, list[list[str]]],
               removed: list["Entry"]) -> None:
    """The key items' edits of one structured file, in plan order (inside the doc's batch)."""
    for it in items:
        kind = it.type
        if not isinstance(kind, KeyKind):   # KeyKind.ops checked: every item here is batched
            raise ValueError(f"{ctx.path_s}: {it.id} is not a key item")
        if ctx.writes(it):
            prior = kind.set(doc, it)
            if it.entry is None:
                created, cdirs = _creation_of(ctx)
            else:
                created, cdirs = it.entry.created_file, list(it.entry.created_dirs or [])
            ctx.facts[it.id] = {"prior": prior, "created_file": created, "created_dirs": cdirs,
                                "made_keys": made.get(it.id, [])}
        else:
            kind.unset(doc, tuple(it.key), it.entry)
            if it.entry is not None:
                removed.append(it.entry)


def _creation_of(ctx: OpContext) -> tuple[bool, list[str]]:
    """Whether agentdeck created the file a new entry lives in: either this apply creates it, or
    an earlier apply did (another entry for the same file says so). Without this, a key added by
    a second apply would make uninstall leave an emptied file behind."""
    if not ctx.existed:
        return True, ctx.dirs
    for e in ctx.entries_here():
        if e.created_file:
            return True, list(e.created_dirs or [])
    return False, []


def _made_keys(ctx: OpContext, items: list["PlanItem"], doc: Doc) -> dict[str, list[list[str]]]:
    """For each key item this apply writes for the first time: the enclosing objects (key-path
    prefixes) that agentdeck's writes created in this file -- missing from the file as it is now,
    or already recorded as made by one of our entries -- so removing our last key under one also
    removes the empty object we added (`{"mcpServers": {}}` must not outlive our servers)."""
    ours = {tuple(k) for e in ctx.entries_here() for k in (e.made_keys or [])}
    out: dict[str, list[list[str]]] = {}
    for it in items:
        if not ctx.writes(it) or it.entry is not None or it.spec is None or len(it.key) < 2:
            continue
        key = tuple(it.key)
        out[it.id] = [list(key[:i]) for i in range(1, len(key))
                      if key[:i] in ours or doc.get(key[:i], MISSING) is MISSING]
    return out


def _prune_made_keys(ctx: OpContext, items: list["PlanItem"], removed: list["Entry"], doc: Doc) -> None:
    """After our keys are removed: delete the objects our writes created that are now empty,
    deepest first, unless an entry that stays manages exactly that key."""
    made = {tuple(k) for e in removed for k in (e.made_keys or [])}
    if not made:
        return
    gone = {e.id for e in removed}
    kept_keys = {tuple(e.key) for e in ctx.entries_here() if e.id not in gone}
    kept_keys |= {tuple(i.key) for i in items if ctx.writes(i)}
    for key in sorted(made, key=len, reverse=True):
        if key not in kept_keys and doc.get(key, None) == {}:
            doc.delete(key)


def _prior_modes(ctx: OpContext, writes: list["PlanItem"], removed: list["Entry"],
                 file_mode: int | None) -> int | None:
    """A key file agentdeck tightened (0600 for a credential) gets its old mode back once no entry
    that needs 0600 is left in it. The entries that need it carry the old mode (prior_mode).
    Returns the mode to write the file with (None: keep its mode)."""
    st = ctx.st
    touched = {e.id for e in removed} | {i.id for i in writes}
    staying = [e.prior_mode for e in ctx.entries_here()
               if e.id not in touched and e.prior_mode is not None]
    known = staying + [e.prior_mode for e in removed if e.prior_mode is not None] + [
        i.entry.prior_mode for i in writes if i.entry is not None and i.entry.prior_mode is not None]
    prior = known[0] if known else None
    if prior is None and file_mode is not None and st.exists and st.mode != file_mode:
        prior = st.mode
    for it in writes:
        if it.spec is not None and it.spec.file_mode:
            ctx.facts[it.id]["prior_mode"] = prior
        elif it.id in ctx.facts:
            ctx.facts[it.id]["prior_mode"] = None
    if file_mode is None and not staying and prior is not None and prior != st.mode:
        return prior
    return file_mode


def _no_other_entries(ctx: OpContext, ids: set[str]) -> bool:
    return all(e.id in ids for e in ctx.entries_here())
