"""The repository screen's Readers view: for a repository plan (core/targets/repo.py), which of
its three readers runs each event with which payload, whether the folder is trusted, the other
hook sources found in it, and the cloud agent's setup step."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .info import mapping, rows, strs, target_info
from .hooks import HookSource

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


def _cell(r: str, v: dict) -> ReaderCell:
    note = str(v.get("note") or "")
    dialect = DIALECT.get(str(v.get("dialect")), str(v.get("dialect") or ""))
    listed = bool(note) and not note.startswith(_NEVER) and note not in _SAID.get(r, ())
    return ReaderCell(reader=SHORT.get(r, r), fires=bool(v.get("fires")), dialect=dialect,
                      note=note, listed=listed)


def of(plan: Any) -> RepoView:
    target = plan.targets[0] if getattr(plan, "targets", None) else ""
    info = target_info(plan, target)
    readers = mapping(info.get("readers"))
    trust = mapping(info.get("trust"))
    hooks = mapping(info.get("hooks"))
    cloud = mapping(info.get("cloud_setup"))
    events = []
    for ev in rows(hooks.get("events")):
        per = mapping(ev.get("readers"))
        events.append(RepoEvent(
            key=str(ev.get("key") or ev.get("event")),
            cells=tuple(_cell(r, mapping(per.get(r)))
                        for r in READER_ORDER)))
    return RepoView(
        target=target,
        readers=tuple(Reader(id=r, title=str((readers.get(r) or {}).get("title", r)),
                             short=SHORT.get(r, r),
                             loads=str((readers.get(r) or {}).get("loads", "")))
                      for r in READER_ORDER),
        allow_all=bool(trust.get("allow_all")), trusted=bool(trust.get("trusted")),
        trusted_via=str(trust.get("via") or ""),
        handler_missing=hooks.get("on_path") is False,
        events=tuple(events), other_sources=_sources(info.get("other_sources")),
        cloud_setup=bool(cloud), cloud_file=str(cloud.get("file", "")),
        cloud_note=str(cloud.get("note") or ""))




def _sources(value: Any) -> tuple[HookSource, ...]:
    return tuple(HookSource(kind=str(s.get("kind", "")), path=str(s.get("path", "")),
                            events=strs(s.get("events")), note=str(s.get("note") or ""))
                 for s in rows(value))
