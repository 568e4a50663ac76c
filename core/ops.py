"""What apply does to one path, as types: write a file, delete it, make a symlink, remove one.

The item kinds (core/kinds) turn a plan's items into these; the applier (core/apply.py) checks,
journals and runs them without asking which one it holds: each op says whether it removes
something, what it leaves behind (the journal's `wrote`, what a roll-back compares with), and
how it runs through the Host. `kind` is the op's name in the journal ("op") and in the preview
(`plan --diff`'s "action"); those forms are unchanged.
"""
from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from .digest import sha256
from .host import Host, HostError, write_through_hint

if TYPE_CHECKING:
    from .apply import ApplyResult


@dataclass
class Op:
    """One step of an apply on one path (core/apply.py runs them in order)."""
    path: Path                    # the real path written (symlinks resolved) or the link itself
    _: KW_ONLY
    rmdirs: list[str] = field(default_factory=list)   # dirs to remove if empty afterwards
    display: str = ""
    #: new content from the profile (the operator saw the path in the plan): it may go through a
    #: folder the operator symlinked elsewhere (a shared ~/.agents/skills). Restores and removals
    #: that a manifest or journal asks for stay inside the home, resolved
    planned: bool = False

    kind: ClassVar[str] = ""
    #: it takes something away (delete, unlink): never through a symlink out of the home
    removes: ClassVar[bool] = False
    #: it replaces or removes a file's bytes (write, delete): checked again right before
    #: against what the plan read
    replaces_file: ClassVar[bool] = False
    #: it acts on a symlink (symlink, unlink): the journal records the link it replaces
    on_link: ClassVar[bool] = False

    def wrote(self) -> str | None:
        """What the op leaves at its path, as the journal records it (a sha, a link target;
        None: nothing)."""
        return None

    @classmethod
    def leaves(cls, wrote: str | None) -> tuple[str, str | None]:
        """What a journal record of this op finds at its path when the op was done (compared
        with what is there now, as core.apply._now reads it)."""
        return ("absent", None)

    def check(self, host: Host) -> None:
        """Refuse (HostError) before anything is written what the Host would refuse anyway."""

    def run(self, host: Host, result: "ApplyResult") -> None:
        raise NotImplementedError

    def after(self) -> str | None:
        """The path's text after the op (the preview's "after"; None: absent)."""
        return None


@dataclass
class WriteOp(Op):
    """Write `data` to the path atomically (Host.write_atomic), with `mode`."""
    data: bytes
    mode: int | None = None
    kind: ClassVar[str] = "write"
    replaces_file: ClassVar[bool] = True

    def wrote(self) -> str | None:
        return sha256(self.data)

    @classmethod
    def leaves(cls, wrote: str | None) -> tuple[str, str | None]:
        return ("file", wrote)

    def check(self, host: Host) -> None:
        # named as planned (self.path: where its links lead)
        host.check_writable(Path(self.display or self.path), real=self.path, confine=not self.planned)

    def run(self, host: Host, result: "ApplyResult") -> None:
        host.write_atomic(self.path, self.data, mode=self.mode, confine=not self.planned)
        result.written.append(str(self.path))

    def after(self) -> str | None:
        return self.data.decode("utf-8", errors="replace")


@dataclass
class DeleteOp(Op):
    """Remove the file at the path, then the folders of `rmdirs` that are left empty."""
    kind: ClassVar[str] = "delete"
    removes: ClassVar[bool] = True
    replaces_file: ClassVar[bool] = True

    def run(self, host: Host, result: "ApplyResult") -> None:
        host.remove(self.path)
        for d in self.rmdirs:
            host.rmdir_if_empty(Path(d))
        result.removed.append(str(self.path))


@dataclass
class SymlinkOp(Op):
    """Make the path a symbolic link to `link_target`."""
    link_target: str
    kind: ClassVar[str] = "symlink"
    on_link: ClassVar[bool] = True

    def wrote(self) -> str | None:
        return self.link_target

    @classmethod
    def leaves(cls, wrote: str | None) -> tuple[str, str | None]:
        return ("link", wrote)

    def check(self, host: Host) -> None:
        if (not self.planned and not host.real_confined(self.path)) or host.never_written(self.path):
            raise HostError(f"{self.path}: not written: it leads out of the home; "
                            + write_through_hint(self.path))

    def run(self, host: Host, result: "ApplyResult") -> None:
        host.symlink(self.link_target, self.path, confine=not self.planned)
        result.written.append(str(self.path))

    def after(self) -> str | None:
        return f"symbolic link to {self.link_target}\n"


@dataclass
class UnlinkOp(Op):
    """Remove the symbolic link at the path (never what it points to)."""
    kind: ClassVar[str] = "unlink"
    removes: ClassVar[bool] = True
    on_link: ClassVar[bool] = True

    def run(self, host: Host, result: "ApplyResult") -> None:
        if host.is_symlink(self.path):
            host.remove(self.path)
        for d in self.rmdirs:
            host.rmdir_if_empty(Path(d))
        result.removed.append(str(self.path))


#: the op types by their journal name
OPS: dict[str, type[Op]] = {o.kind: o for o in (WriteOp, DeleteOp, SymlinkOp, UnlinkOp)}


def delete_op(path: Path, is_link: bool, rmdirs: list[str], display: str) -> Op:
    """Deleting never follows a symlink: a symlinked file is unlinked, its target keeps its bytes."""
    return (UnlinkOp if is_link else DeleteOp)(path, rmdirs=rmdirs, display=display)


def missing_dirs(host: Host, path: Path) -> list[str]:
    """The directories above `path` that are not there (a write makes them), deepest first."""
    out = []
    p = path.parent
    while not host.exists(p, follow=True) and p != p.parent:
        out.append(str(p))
        p = p.parent
    return out
