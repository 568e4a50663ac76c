"""The body of a managed block between marker lines in a text file (value: its text). A block
that `replaces` another tool's region (its persona) sees that region as what is on disk while
ours is not there, takes its place, and puts it back on removal."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..digest import sha256
from ..errors import UserError
from ..formats.blocks import find_block, get_block, remove_block, set_block
from ..formats.errors import FormatError
from ..formats.jsonc import MISSING
from ..ops import WriteOp
from .base import ItemKind, OpContext, spec_of

if TYPE_CHECKING:
    from ..desired import Desired
    from ..disk import DiskView
    from ..manifest import Entry
    from ..plan import PlanItem


def markers_of(spec: "Desired | Entry") -> tuple[str, str]:
    m = tuple(spec.markers) if spec.markers else ("", "")
    return m[0], m[1]


def replaced_region(text: str, spec: "Desired | Entry") -> str | None:
    """The body of the other tool's region a block item replaces (Desired.replaces), or None."""
    replaces = getattr(spec, "replaces", None)
    if not replaces:
        return None
    try:
        return get_block(text, replaces[0], replaces[1])
    except FormatError:
        return None          # takeover.py offers a replacement only for a well-formed region


def ours_there(disk: "DiskView", spec: "Desired") -> bool:
    """Our block is in the file (else "actual" is the region of the tool it replaces)."""
    text = disk.text(spec.path)
    try:
        return text is not None and get_block(text, spec.markers[0], spec.markers[1]) is not None
    except FormatError:
        return False


def _replaced_span(text: str, it: "PlanItem") -> tuple[int, int] | None:
    """Where the other tool's region a block item takes the place of is (Desired.replaces):
    only while our block is not in the file. That holds with a record too: the other tool
    wrote its file again (agentihooks init rewrites the whole persona file, ours gone), and
    ours takes the place of the region written last (the entry's prior_sha follows it)."""
    spec = it.spec
    if spec is None or not spec.replaces:
        return None
    try:
        if find_block(text, spec.markers[0], spec.markers[1]) is not None:
            return None
        return find_block(text, spec.replaces[0], spec.replaces[1])
    except FormatError:
        return None


class BlockKind(ItemKind):
    name = "block"
    generated_text = True
    edits_in_place = True
    may_call = True
    prior_in_originals = True     # the region of another tool's ours replaced

    def entry_id(self, path: str, key: tuple[str, ...] | list[str], member: str = "") -> str:
        return path + "#block"

    def read_actual(self, disk: "DiskView", spec: "Desired | Entry") -> tuple[Any, str | None]:
        path = Path(spec.path)
        text = disk.text(path)
        if text is None:
            return MISSING, None
        begin, end = markers_of(spec)
        try:
            body = get_block(text, begin, end)
        except FormatError as e:
            raise UserError(e.msg, path=str(path), line=e.line, col=e.col) from None
        if body is None:
            theirs = replaced_region(text, spec)
            return (MISSING, None) if theirs is None else (theirs, sha256(theirs))
        return body, sha256(body)

    def recorded_fields(self, spec: "Desired", prior: Any) -> dict[str, Any]:
        return {"markers": list(spec.markers), "placement": spec.placement}

    def uninstall_reason(self, entry: "Entry") -> str:
        return "agentdeck's block; uninstall takes it out, your text around it stays"

    def reason(self, spec: "Desired", cls: str, why: str, disk: "DiskView") -> str:
        reason = super().reason(spec, cls, why, disk)
        if cls == "create" and disk.state(spec.path).exists:
            # "+" is the block, not the file
            reason = f"a new block at the {spec.placement} of the existing file: {reason}"
        return reason

    def apply(self, ctx: OpContext, it: "PlanItem") -> None:
        text = ctx.text or ""
        spec = spec_of(it)
        begin, end = markers_of(spec)
        region = _replaced_span(text, it)
        if region is not None:   # ours takes the place of the other tool's region
            start, stop = region
            theirs = text[start:stop].encode("utf-8")
            new = text[:start] + set_block("", begin, end, str(it.desired)) + text[stop:]
            prior_sha: str | None = ctx.keep(theirs)
        else:
            new = set_block(text, begin, end, str(it.desired), placement=spec.placement)
            prior_sha = it.entry.prior_sha if it.entry else None
        ctx.ops.append(WriteOp(ctx.real, new.encode("utf-8"), 0o600 if spec.secret else None,
                               planned=True, display=ctx.path_s))
        ctx.facts[it.id] = {"created_file": (not ctx.existed) if it.entry is None
                            else it.entry.created_file, "created_dirs": ctx.dirs,
                            "prior_sha": prior_sha}

    def undo(self, ctx: OpContext, it: "PlanItem") -> None:
        text = ctx.text or ""
        e = it.entry
        src = it.spec if it.spec is not None else e
        if src is None:
            raise ValueError(f"{it.id}: an undo with neither a desired item nor an entry")
        begin, end = markers_of(src)
        if e is not None and e.prior_sha:   # put the region ours replaced back in its place
            span = find_block(text, begin, end)
            if span is None:   # the plan saw ours there; it went since: nothing to swap back
                raise UserError("agentdeck's block is no longer in the file, so the region it "
                                "replaced cannot be put in its place; nothing was written",
                                path=ctx.path_s)
            start, stop = span
            theirs = ctx.original(e.prior_sha).decode("utf-8")
            new = text[:start] + theirs + text[stop:]
        else:
            new = remove_block(text, begin, end, placement=e.placement if e is not None else "")
        if new == "" and e is not None and e.created_file:
            ctx.ops.append(ctx.delete(list(e.created_dirs or [])))
        else:
            ctx.ops.append(WriteOp(ctx.real, new.encode("utf-8"), planned=True, display=ctx.path_s))
