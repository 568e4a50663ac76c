"""The interface every item kind implements, and what building one path's ops is given."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable

from ..digest import sha256
from ..formats.jsonc import MISSING
from ..host import Host
from ..ops import Op, delete_op
from .. import originals

if TYPE_CHECKING:
    from ..desired import Desired
    from ..disk import DiskView, FileState
    from ..manifest import Entry, Manifest
    from ..plan import PlanItem

#: what an item's "actual" is when a real file or directory stands where a link (or a file set
#: aside) should be
REAL_IN_THE_WAY = "(a real file or directory)"
#: the fingerprint of "not there" for an aside item: what it wants, and what a set-aside leaves
ASIDE_FP = "aside:absent"


def spec_of(it: "PlanItem") -> "Desired":
    """The profile's item behind a plan item that writes (a wanted item always has one)."""
    if it.spec is None:
        raise ValueError(f"{it.id}: a write with no desired item behind it")
    return it.spec


def entry_of(it: "PlanItem") -> "Entry":
    """The manifest entry behind a plan item that undoes agentdeck's write."""
    if it.entry is None:
        raise ValueError(f"{it.id}: an undo with no manifest entry behind it")
    return it.entry


@dataclass
class OpContext:
    """One path's share of an apply: the plan's items there are turned into ops (`ops`) and the
    facts the manifest records for each of them (`facts`, per item id)."""
    host: Host
    disk: "DiskView"
    path: Path
    st: "FileState"
    #: the item is written (its action is write); else it is removed
    writes: Callable[["PlanItem"], bool]
    manifests: Iterable["Manifest"]
    keep_originals: bool = True      # False: a preview; nothing is written, not even originals
    ops: list[Op] = field(default_factory=list)
    facts: dict[str, dict[str, Any]] = field(default_factory=dict)
    dirs: list[str] = field(default_factory=list)   # directories a write here makes

    @property
    def path_s(self) -> str:
        return str(self.path)

    @property
    def existed(self) -> bool:
        return self.st.exists or self.st.is_link

    @cached_property
    def real(self) -> Path:
        """Where a write of this path lands (a symlinked file is written through)."""
        return self.host.resolve_write_path(self.path) if self.st.is_link else self.path

    @cached_property
    def text(self) -> str | None:
        return self.disk.text(self.path)

    def keep(self, data: bytes) -> str:
        """The sha of bytes replaced for the first time, kept in the originals (not in a preview)."""
        return originals.save(self.host, data) if self.keep_originals else sha256(data)

    def original(self, sha: str) -> bytes:
        return originals.checked(self.host, sha, self.path_s)

    def delete(self, rmdirs: list[str]) -> Op:
        return delete_op(self.path, self.st.is_link, rmdirs, self.path_s)

    def entries_here(self) -> Iterable["Entry"]:
        """Every manifest's entries for this path."""
        for m in self.manifests:
            for e in m.entries.values():
                if e.path == self.path_s:
                    yield e


class ItemKind:
    """One kind of thing agentdeck manages (file, key, member, block, link, aside). A kind owns
    its fingerprint (what the three-state rule compares), how it reads what is on disk, what it
    records in the manifest and shows, and the ops that write it and take it out again.

    The flags below are what the rest of the engine asks instead of naming kinds."""
    #: its name in plan JSON, manifests and Desired.kind (a member is a "key" with member set)
    name: ClassVar[str] = ""
    #: a whole file agentdeck generates (its text is the value)
    whole_file: ClassVar[bool] = False
    #: text agentdeck writes into a file (a whole file or a block): scanned for credentials
    generated_text: ClassVar[bool] = False
    #: written into a file the operator shares (keys, a block): that file reached through a
    #: symlink out of the home is refused at plan time
    edits_in_place: ClassVar[bool] = False
    #: what it holds on disk can name a program (a hook command): core/held.py reads it
    may_call: ClassVar[bool] = False
    #: what was there before agentdeck is kept in the state dir's originals (prior_sha) and put
    #: back on removal: the plan checks that copy before it promises the restore
    prior_in_originals: ClassVar[bool] = False
    #: another tool's file taken out of the way: its own rows of the three-state table
    #: (plan.classify's aside), its path wanted absent
    sets_aside: ClassVar[bool] = False
    #: a real file or directory where it should be is only ever kept, never replaced
    keeps_real: ClassVar[bool] = False
    #: its values are shown (profile / last written / on disk) where it changed or was edited
    shows_values: ClassVar[bool] = False
    #: the items of one file are built together (all edits in one pass)
    batched: ClassVar[bool] = False

    # ---- identity and fingerprints -------------------------------------------------------------
    def entry_id(self, path: str, key: tuple[str, ...] | list[str], member: str = "") -> str:
        """The item's id (the manifest's and the plan's)."""
        return path

    def fingerprint(self, value: Any, mode: int | None = None) -> str:
        return sha256(value if isinstance(value, (bytes, str)) else str(value))

    def read_actual(self, disk: "DiskView", spec: "Desired | Entry") -> tuple[Any, str | None]:
        """(display value, fingerprint) of what is on disk for the item now; (MISSING, None)
        when it is not there. `spec`: what the profile wants, or what the manifest recorded (an
        item no longer wanted)."""
        raise NotImplementedError

    def mode_only(self, spec: "Desired", actual_fp: str, recorded_fp: str) -> bool:
        """The only difference from what agentdeck wrote is the file's mode."""
        return False

    def is_program(self, entry: "Entry | None") -> bool:
        """agentdeck wrote it executable (a hook wrapper: what a registered hook runs)."""
        return False

    # ---- what is recorded and shown ------------------------------------------------------------
    def display_recorded(self, entry: "Entry | None") -> Any:
        if entry is None:
            return MISSING
        return f"sha256:{entry.fingerprint[:12]}"

    def recorded_fields(self, spec: "Desired", prior: Any) -> dict[str, Any]:
        """The manifest entry's kind-specific fields (value, prior, markers, placement)."""
        return {}

    def uninstall_reason(self, entry: "Entry") -> str:
        if entry.prior_sha:
            return "agentdeck replaced it; uninstall puts back the file that was there before"
        return "agentdeck created it; uninstall removes it"

    def reason(self, spec: "Desired", cls: str, why: str, disk: "DiskView") -> str:
        """The reason the plan shows for a wanted item: the adapter's, and what the three-state
        rule found (`why`) where it is more than "create"."""
        if why and spec.reason and cls != "create":
            return f"{spec.reason}; {why}"
        return spec.reason or why

    # ---- apply and undo ------------------------------------------------------------------------
    def ops(self, ctx: OpContext, items: list["PlanItem"]) -> None:
        """The ops (and manifest facts) for the plan's items at one path."""
        (it,) = items
        if ctx.writes(it):
            self.apply(ctx, it)
        else:
            self.undo(ctx, it)

    def apply(self, ctx: OpContext, it: "PlanItem") -> None:
        """Write what the profile wants."""
        raise NotImplementedError

    def undo(self, ctx: OpContext, it: "PlanItem") -> None:
        """Take agentdeck's item out again: put back what was there before, or remove it."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<item kind {self.name}>"
