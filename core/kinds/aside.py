"""Another tool's file agentdeck takes out of the way (value: None; it must be absent): its
bytes are kept in the state dir's originals and put back by uninstall (core/targets/takeover.py).
Its rows of the three-state table are plan.classify's `aside` ones."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..formats.jsonc import MISSING
from ..ops import DeleteOp, WriteOp
from .base import ASIDE_FP, REAL_IN_THE_WAY, ItemKind, OpContext, entry_of

if TYPE_CHECKING:
    from ..desired import Desired
    from ..disk import DiskView
    from ..manifest import Entry
    from ..plan import PlanItem


class AsideKind(ItemKind):
    name = "aside"
    sets_aside = True
    prior_in_originals = True

    def fingerprint(self, value: Any, mode: int | None = None) -> str:
        return ASIDE_FP

    def read_actual(self, disk: "DiskView", spec: "Desired | Entry") -> tuple[Any, str | None]:
        path = Path(spec.path)
        st = disk.state(path)
        if st.error is not None:
            raise st.error
        if st.exists:
            return disk.text(path), "sha:" + str(st.sha)
        if st.is_link or st.is_dir:
            return REAL_IN_THE_WAY, "real"
        return MISSING, ASIDE_FP

    def reason(self, spec: "Desired", cls: str, why: str, disk: "DiskView") -> str:
        if cls != "create":
            return why      # the adapter's reason tells the set-aside, not what came after
        return super().reason(spec, cls, why, disk)

    def apply(self, ctx: OpContext, it: "PlanItem") -> None:
        """Set aside: keep its bytes in the originals, then delete it."""
        st = ctx.st
        prior_sha = ctx.keep(st.data or b"")
        ctx.ops.append(DeleteOp(ctx.path, display=ctx.path_s))
        ctx.facts[it.id] = {"prior_sha": prior_sha, "prior_mode": st.mode, "created_file": False,
                            "created_dirs": []}

    def undo(self, ctx: OpContext, it: "PlanItem") -> None:
        """Put those bytes back, mode too."""
        e = entry_of(it)
        if not e.prior_sha:
            raise ValueError(f"{it.id}: the set-aside file's bytes were not recorded")
        ctx.ops.append(WriteOp(ctx.path, ctx.original(e.prior_sha), e.prior_mode, display=ctx.path_s))
