"""A whole file agentdeck generates (value: its text), with the mode it must have."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..desired import Desired
from ..formats.jsonc import MISSING
from ..ops import WriteOp
from .base import ItemKind, OpContext, spec_of

if TYPE_CHECKING:
    from ..disk import DiskView
    from ..manifest import Entry
    from ..plan import PlanItem


def _mode_only(actual_fp: str, recorded_fp: str) -> bool:
    """A file's fingerprints ("sha:mode") differ in the mode alone."""
    a, sa, ma = actual_fp.rpartition(":")
    r, sr, mr = recorded_fp.rpartition(":")
    return bool(sa and sr) and a == r and ma != mr


class FileKind(ItemKind):
    name = "file"
    whole_file = True
    generated_text = True
    may_call = True
    prior_in_originals = True

    def fingerprint(self, value: Any, mode: int | None = None) -> str:
        fp = super().fingerprint(value)
        return fp + f":{mode:o}" if mode is not None else fp

    def read_actual(self, disk: "DiskView", spec: "Desired | Entry") -> tuple[Any, str | None]:
        path = Path(spec.path)
        text = disk.text(path)
        if text is None:
            return MISSING, None
        st = disk.state(path)
        # the mode is compared where it is part of what is wanted (or of what was recorded)
        with_mode = spec.mode is not None if isinstance(spec, Desired) else ":" in spec.fingerprint
        fp = str(st.sha)
        if with_mode:
            fp += f":{(st.mode or 0):o}"
        return text, fp

    def mode_only(self, spec: "Desired", actual_fp: str, recorded_fp: str) -> bool:
        return spec.mode is not None and _mode_only(actual_fp, recorded_fp)

    def is_program(self, entry: "Entry | None") -> bool:
        fp = entry.fingerprint if entry is not None else ""
        mode = fp.rpartition(":")[2] if ":" in fp else ""
        try:
            return bool(int(mode, 8) & 0o111) if mode else False
        except ValueError:
            return False

    def apply(self, ctx: OpContext, it: "PlanItem") -> None:
        spec, e, st = spec_of(it), it.entry, ctx.st
        prior_sha = e.prior_sha if e else None
        if e is None and st.data is not None:
            prior_sha = ctx.keep(st.data)
        mode = 0o600 if spec.secret else spec.mode
        ctx.ops.append(WriteOp(ctx.real, str(spec.value).encode("utf-8"), mode, planned=True,
                               display=ctx.path_s))
        ctx.facts[it.id] = {"prior_sha": prior_sha, "created_file": not ctx.existed
                            if e is None else e.created_file, "created_dirs": ctx.dirs}
        if e is None and st.exists:
            ctx.facts[it.id]["prior_mode"] = st.mode     # put back with the bytes

    def undo(self, ctx: OpContext, it: "PlanItem") -> None:
        e = it.entry
        if e and e.prior_sha:
            ctx.ops.append(WriteOp(ctx.real, ctx.original(e.prior_sha), e.prior_mode,
                                   display=ctx.path_s))
        else:
            ctx.ops.append(ctx.delete(list(e.created_dirs) if e else []))
