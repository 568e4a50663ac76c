"""Sidecar manifests: what agentdeck last wrote, per key, file, block and link.

One manifest per target (its path is chosen by the adapter, e.g. $COPILOT_HOME/.agentdeck-managed.json),
never inside a CLI's own settings file. Each entry records the fingerprint of what we wrote (the
"recorded" state of the three-state rule), the value for keys (so panes can show "last written"),
and what was there before we first wrote (so uninstall can restore it). Manifests are written
0600: a recorded value may be a header the operator put in their profile.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .digest import canonical, sha256  # noqa: F401  (canonical: imported from here too)
from .errors import UserError
from .formats.jsonc import MISSING as ABSENT   # the one "nothing there" marker (core.disk.MISSING)
from .host import Host, HostError
from .kinds import KINDS

FORMAT = 1

#: how ABSENT is spelled in a manifest file (JSON has no such value)
ABSENT_JSON = "__agentdeck_absent__"


def entry_id(path: str, kind: str, key: tuple[str, ...] | list[str], member: str = "") -> str:
    """An item's id, as its kind makes it (core/kinds): the path, and a key's key path."""
    return KINDS[kind].entry_id(path, key, member)


@dataclass
class Entry:
    """What agentdeck recorded of one item it installed: where, what, its fingerprint, the prior."""
    path: str
    kind: str
    fingerprint: str
    key: list[str] = field(default_factory=list)
    fmt: str = ""
    value: Any = None            # key items: the value we wrote
    prior: Any = ABSENT          # key items: the value before our first write
    prior_sha: str | None = None  # file items: content before our first write (kept in state/originals)
    created_file: bool = False   # the file did not exist before we first wrote into it
    created_dirs: list[str] = field(default_factory=list)  # directories our first write made
    markers: list[str] = field(default_factory=list)
    label: str = ""
    meta: Any = None             # the adapter's bookkeeping for this item (Desired.meta)
    member: str = ""             # key items: one element of the list at key (Desired.member)
    made_keys: list[list[str]] = field(default_factory=list)  # key items: enclosing objects our writes created
    prior_mode: int | None = None  # the file's mode before agentdeck replaced it / tightened it to 0600
    placement: str = ""          # block items: where the block was added ("top" / "bottom"; "": not recorded)

    @property
    def id(self) -> str:
        return entry_id(self.path, self.kind, tuple(self.key), self.member)


@dataclass
class Manifest:
    """A target's record of what agentdeck installed in its files, one Entry per item."""
    target: str
    path: Path
    entries: dict[str, Entry] = field(default_factory=dict)
    raw_sha: str | None = None    # sha of the manifest file as read (None: absent)
    #: the profile the last apply installed for this target (None: a manifest from before
    #: agentdeck recorded it); plain plan/apply/status use it (engine.installed_profile)
    profile: str | None = None

    @classmethod
    def load(cls, host: Host, target: str, path: Path) -> "Manifest":
        try:
            data = host.read_bytes(path)
        except HostError as e:
            raise UserError(str(e)) from None
        return cls.parse(host, target, path, data)

    @classmethod
    def parse(cls, host: Host, target: str, path: Path, data: bytes | None) -> "Manifest":
        """The manifest from its bytes as read (None: absent); core.disk reads them."""
        m = cls(target=target, path=path)
        if data is None:
            return m
        m.raw_sha = sha256(data)
        try:
            obj = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            line = getattr(e, "lineno", None)
            col = getattr(e, "colno", None)
            raise UserError(f"agentdeck manifest is corrupt ({getattr(e, 'msg', e)}); move it aside and re-run",
                            path=str(path), line=line, col=col) from None
        if not isinstance(obj, dict) or not isinstance(obj.get("entries"), list):
            raise UserError("agentdeck manifest has an unexpected shape; move it aside and re-run",
                            path=str(path))
        if isinstance(obj.get("profile"), str) and obj["profile"]:
            m.profile = obj["profile"]
        roots = None
        checked: set[str] = set()   # paths already found inside the home (1,000 entries share one)
        for raw in obj["entries"]:
            try:
                entry = Entry(**raw)
                if entry.prior == ABSENT_JSON:
                    entry.prior = ABSENT
            except TypeError:
                raise UserError("agentdeck manifest has an unexpected entry; move it aside and re-run",
                                path=str(path)) from None
            if roots is None:
                roots = host.roots()      # once per manifest, not once per path
            problem = _entry_problem(host, entry, roots, checked)
            if problem:
                raise UserError(f"agentdeck manifest {problem}; move it aside and re-run", path=str(path))
            m.entries[entry.id] = entry
        return m

    def render(self) -> bytes:
        """The manifest's bytes: a small indented head, then one entry per line (json's C
        encoder: the indenting encoder is pure Python and took ~0.15 s per 1,000 entries)."""
        entries = sorted(self.entries.values(), key=lambda e: (e.path, e.kind, e.key))
        head = {"format": FORMAT, "tool": "agentdeck", "target": self.target,
                "note": "Written by agentdeck: what it manages here. Do not edit."}
        if self.profile:
            head["profile"] = self.profile
        text = json.dumps(head, indent=2, ensure_ascii=False)[:-2]
        if entries:
            lines = ",\n    ".join(json.dumps(_entry_json(e), ensure_ascii=False) for e in entries)
            text += f',\n  "entries": [\n    {lines}\n  ]\n}}\n'
        else:
            text += ',\n  "entries": []\n}\n'
        return text.encode("utf-8")

    def paths(self) -> set[str]:
        return {e.path for e in self.entries.values()}


_SHA_RE = re.compile(r"[0-9a-f]{64}")


def _entry_problem(host: Host, e: Entry, roots: list[str] | None = None,
                   checked: set[str] | None = None) -> str | None:
    """Why an entry cannot be acted on safely (uninstall deletes and restores what it names):
    every path must lie inside the home or a CLI home (and not be a never-written file,
    Host.never_written), and prior_sha must be a sha256. `checked`: paths already found fine (skipped)."""
    if not isinstance(e.path, str) or not os.path.isabs(e.path) or not isinstance(e.created_dirs, list):
        return "has an entry with an unexpected shape"
    kind = KINDS.get(e.kind) if isinstance(e.kind, str) else None
    if kind is None:
        return f"has an entry of an unknown kind ({str(e.kind)[:40]!r})"
    for p in [e.path, *e.created_dirs]:
        if checked is not None and p in checked:
            continue
        if not isinstance(p, str) or not host.confined(p, roots):
            return f"names a path outside the home ({p})"
        what = host.never_written_what(p) if p == e.path else ""
        if what:
            return f"names {what} ({e.path}), which agentdeck never writes"
        if checked is not None:
            checked.add(p)
    if e.prior_mode is not None and not (isinstance(e.prior_mode, int) and 0 <= e.prior_mode <= 0o1777):
        # agentdeck records modes without setuid/setgid (apply.update_manifests): a manifest
        # asking uninstall to write a setuid file is forged
        return f"has an invalid prior_mode ({e.prior_mode!r})"
    if e.prior_sha is not None and not (isinstance(e.prior_sha, str) and _SHA_RE.fullmatch(e.prior_sha)):
        return f"has an invalid prior_sha ({str(e.prior_sha)[:80]!r})"
    if kind.sets_aside and e.prior_sha is None:
        return "has an aside entry without the prior_sha of the file it set aside"
    if not isinstance(e.key, list) or not all(isinstance(k, str) for k in e.key):
        return "has an entry with an unexpected key"
    return None


_FIELDS = [f.name for f in fields(Entry)]


def _entry_json(e: Entry) -> dict[str, Any]:
    d = {name: getattr(e, name) for name in _FIELDS}   # values are JSON data: no deep copy
    if e.prior is ABSENT:
        d["prior"] = ABSENT_JSON
    if not d["member"]:
        del d["member"]          # only list-member entries carry it
    if not d["made_keys"]:
        del d["made_keys"]       # only keys whose enclosing objects agentdeck created carry it
    if d["prior_mode"] is None:
        del d["prior_mode"]      # only entries of a file whose mode agentdeck changed carry it
    if not d["placement"]:
        del d["placement"]       # only block entries carry it
    return d
