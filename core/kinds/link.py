"""A symlink (value: the link's target): skills linked into a CLI's folder."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..formats.jsonc import MISSING
from ..ops import SymlinkOp, UnlinkOp
from .base import REAL_IN_THE_WAY, ItemKind, OpContext

if TYPE_CHECKING:
    from ..desired import Desired
    from ..disk import DiskView
    from ..manifest import Entry
    from ..plan import PlanItem


class LinkKind(ItemKind):
    name = "link"
    keeps_real = True          # never replace a real file or directory with a link

    def fingerprint(self, value: Any, mode: int | None = None) -> str:
        return "link:" + str(value)

    def read_actual(self, disk: "DiskView", spec: "Desired | Entry") -> tuple[Any, str | None]:
        st = disk.state(Path(spec.path))
        if st.is_link:
            return st.link_target, "link:" + str(st.link_target)
        if st.is_dir or st.exists:
            return REAL_IN_THE_WAY, "real"
        return MISSING, None

    def display_recorded(self, entry: "Entry | None") -> Any:
        if entry is None:
            return MISSING
        return entry.fingerprint.removeprefix("link:")

    def apply(self, ctx: OpContext, it: "PlanItem") -> None:
        ctx.ops.append(SymlinkOp(ctx.path, str(it.desired), display=ctx.path_s, planned=True))
        ctx.facts[it.id] = {"created_dirs": ctx.dirs}

    def undo(self, ctx: OpContext, it: "PlanItem") -> None:
        rm = list(it.entry.created_dirs) if it.entry else []
        if ctx.st.is_link:
            ctx.ops.append(UnlinkOp(ctx.path, rmdirs=rm, display=ctx.path_s))
