"""The repository screen's Readers view: for a repository plan (core/targets/repo.py), which of
its three readers runs each event with which payload, whether the folder is trusted, the other
hook sources found in it, and the cloud agent's setup step."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..targets.output import RepoReaderCell
from .hooks import HookSource
from .info import output

#: the readers of a repository's hook file, in the order shown, with their short names
READER_ORDER = ("copilot-cli", "vscode", "cloud-agent")
SHORT = {"copilot-cli": "Copilot CLI", "vscode": "VS Code", "cloud-agent": "cloud agent"}
#: payload dialects (core.hookhandler's labels) as the table names them
DIALECT = {"copilot-pascal": "snake_case", "copilot-camel": "camelCase", "vscode": "VS Code's"}
#: reader notes the table itself says (a ✗, or the trust line above it): not listed again
_SAID = {"copilot-cli": ("in a trusted folder",)}
_NEVER = "not one of VS Code's events"


@dataclass(frozen=True)
class Reader:
    id: str
    title: str
    short: str
    loads: str                      # when and what it loads


@dataclass(frozen=True)
class ReaderCell:
    """One reader's part of one event: whether it fires, with which payload, and a note."""
    reader: str                     # the reader's short name
    fires: bool
    dialect: str = ""               # the payload as shown ("camelCase")
    note: str = ""
    listed: bool = False            # the note is listed below the table


@dataclass(frozen=True)
class RepoEvent:
    key: str                        # the key registered in the hook file
    cells: tuple[ReaderCell, ...] = ()


@dataclass(frozen=True)
class RepoView:
    target: str = ""
    readers: tuple[Reader, ...] = ()
    allow_all: bool = False         # every folder is trusted (COPILOT_ALLOW_ALL)
    trusted: bool = False
    trusted_via: str = ""           # the trusted folder that covers this one
    handler_missing: bool = False   # the handler is not on this machine's PATH
    events: tuple[RepoEvent, ...] = ()
    other_sources: tuple[HookSource, ...] = ()
    cloud_setup: bool = False
    cloud_file: str = ""
    cloud_note: str = ""


def _cell(r: str, v: RepoReaderCell | None) -> ReaderCell:
    if v is None:
        return ReaderCell(reader=SHORT.get(r, r), fires=False)
    note = v.note
    dialect = DIALECT.get(str(v.dialect), str(v.dialect or ""))
    listed = bool(note) and not note.startswith(_NEVER) and note not in _SAID.get(r, ())
    return ReaderCell(reader=SHORT.get(r, r), fires=v.fires, dialect=dialect,
                      note=note, listed=listed)


def of(plan: Any) -> RepoView:
    target = plan.targets[0] if getattr(plan, "targets", None) else ""
    report = output(plan, target).repo
    if report is None:              # not a repository plan (or it could not be planned)
        return RepoView(target=target,
                        readers=tuple(Reader(id=r, title=r, short=SHORT.get(r, r), loads="")
                                      for r in READER_ORDER))
    cloud = report.cloud_setup
    return RepoView(
        target=target,
        readers=tuple(Reader(id=r, title=report.readers[r].title if r in report.readers else r,
                             short=SHORT.get(r, r),
                             loads=report.readers[r].loads if r in report.readers else "")
                      for r in READER_ORDER),
        allow_all=report.trust.allow_all, trusted=report.trust.trusted,
        trusted_via=report.trust.via or "",
        handler_missing=report.hooks.on_path is False,
        events=tuple(RepoEvent(key=ev.key or ev.event,
                               cells=tuple(_cell(r, ev.readers.get(r)) for r in READER_ORDER))
                     for ev in report.hooks.events),
        other_sources=tuple(HookSource(kind=s.kind, path=s.path, events=s.events, note=s.note)
                            for s in report.other_sources),
        cloud_setup=cloud is not None, cloud_file=cloud.file if cloud is not None else "",
        cloud_note=cloud.note if cloud is not None else "")
