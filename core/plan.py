"""The planner: desired x recorded (manifest) x actual (disk) -> Plan, plain data.

The three-state rule, for every managed key, generated file, managed block and link:

  recorded  actual      desired        class        default
  --------  ----------  -------------  -----------  --------------------------------------------
  none      missing     D              create       write D
  none      == D        D              noop         record it (heal)
  none      != D        D              foreign      keep theirs, report (pinned: conflict)
  R         == R        == R           noop
  R         == R        != R           update       write D
  R         == D        != R           noop         record D (heal)
  R         missing     D              hand-edited  operator deleted it: report, do not re-add
  R         other       == R           hand-edited  keep theirs, report (pinned: conflict)
  R         other       != R           conflict     both changed: keep theirs until decided
  R         == R        not wanted     remove       restore what was there before us, or delete
  R         missing     not wanted     noop         forget the record
  R         other       not wanted     hand-edited  keep theirs, stop managing it

Each item's decision defaults per class; the operator may change it (keep / take, apply / skip).
A conflict must be decided before apply.

An `aside` item (another tool's file agentdeck takes out of the way, core/targets/takeover.py)
wants its path absent; "actual" is the file, or ASIDE_FP when it is not there:

  recorded  actual      desired        class        default
  --------  ----------  -------------  -----------  --------------------------------------------
  none      the file    absent         create       set it aside (its bytes kept for uninstall)
  R         absent      absent         noop
  R         the file    absent         hand-edited  written again since: kept (take: aside again)
  R         absent      not wanted     remove       put its bytes back
  R         the file    not wanted     hand-edited  it is back: left as is, record forgotten

A `block` item that `replaces` another tool's region (its persona) sees that region as "actual"
while our block is not there: a conflict (pinned) until the operator keeps theirs or takes ours.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Iterable

from .desired import Desired, DesiredState, Notice
from .disk import MISSING, DiskView
from .host import Host
from .manifest import ABSENT, Entry, Manifest, canonical, entry_id, sha256
from .output_guard import redact_output

class ItemClass(StrEnum):
    """An item's class by the three-state rule (the table above). str-valued: the JSON form and
    every comparison with the plain string are unchanged."""
    CREATE = "create"
    UPDATE = "update"
    NOOP = "noop"
    HAND_EDITED = "hand-edited"
    CONFLICT = "conflict"
    REMOVE = "remove"
    FOREIGN = "foreign"


class Decision(StrEnum):
    APPLY = "apply"       # create, update, remove: do it
    SKIP = "skip"         # ... leave it out of this apply
    KEEP = "keep"         # hand-edited, foreign, conflict: yours stays
    TAKE = "take"         # ... the profile's value is written


class Action(StrEnum):
    """What apply does to disk for an item, given its decision."""
    WRITE = "write"
    REMOVE = "remove"
    RECORD = "record"     # agentdeck's manifest only
    NONE = "none"


#: the classes where the operator's value is on disk and is kept unless they take the profile's
KEPT_CLASSES = frozenset({ItemClass.HAND_EDITED, ItemClass.FOREIGN, ItemClass.CONFLICT})
CLASSES = tuple(ItemClass)
SYMBOLS = {"create": "+", "update": "~", "remove": "-", "hand-edited": "!", "conflict": "!",
           "foreign": "!", "noop": " "}
REAL_IN_THE_WAY = "(a real file or directory)"
#: the fingerprint of "not there" for an aside item: what it wants, and what a set-aside leaves
ASIDE_FP = "aside:absent"
_APPLY_SKIP = (Decision.APPLY, Decision.SKIP)
_KEEP_TAKE = (Decision.KEEP, Decision.TAKE)
CHOICES = {
    ItemClass.CREATE: _APPLY_SKIP, ItemClass.UPDATE: _APPLY_SKIP, ItemClass.REMOVE: _APPLY_SKIP,
    ItemClass.HAND_EDITED: _KEEP_TAKE, ItemClass.FOREIGN: _KEEP_TAKE,
    ItemClass.CONFLICT: _KEEP_TAKE, ItemClass.NOOP: (Decision.APPLY,),
}


@dataclass
class PlanItem:
    id: str
    target: str
    path: str
    kind: str
    cls: str
    key: list[str] = field(default_factory=list)
    label: str = ""
    group: str = ""
    reason: str = ""
    warnings: list[str] = field(default_factory=list)
    secret: bool = False
    desired: Any = None
    recorded: Any = None
    actual: Any = None
    wanted: bool = True             # False: the profile no longer wants it (remove class)
    heal: bool = False              # noop that only updates our record
    also: list[str] = field(default_factory=list)   # other targets that want the same item
    release: bool = False           # remove only our record: another target still owns it
    follows: str = ""               # left out while that item is not written (Desired.follows)
    # internals (not part of the JSON form)
    spec: Desired | None = field(default=None, repr=False)
    entry: Entry | None = field(default=None, repr=False)
    actual_fp: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.cls = ItemClass(self.cls)

    @property
    def choices(self) -> tuple[Decision, ...]:
        if self.kind == "link" and self.actual == REAL_IN_THE_WAY:
            return (Decision.KEEP,)   # never replace a real file or directory with a link
        return CHOICES[self.cls]

    @property
    def default_decision(self) -> Decision:
        return self.choices[0]

    def to_json(self, decision: str, action: str | None = None, reason: str | None = None,
                held_by: list[str] | None = None) -> dict:
        return {
            "id": self.id, "target": self.target, "path": self.path, "kind": self.kind,
            "key": self.key, "label": self.label, "group": self.group, "class": self.cls,
            "decision": decision, "choices": list(self.choices),
            "action": action if action is not None else action_of(self, decision),
            "held_by": list(held_by or []),
            "reason": redact_output(self.reason if reason is None else reason),
            "warnings": redact_output(self.warnings),
            "secret": self.secret,
            # redacted exactly as the text plan shows values (core.output_guard.redact_output;
            # the text plan is rendered from this form)
            "desired": redact_output(_jsonable(self.desired)),
            "recorded": redact_output(_jsonable(self.recorded)),
            "actual": redact_output(_jsonable(self.actual)), "exists": self.actual is not MISSING,
            "also": self.also,
        }


def _jsonable(v: Any) -> Any:
    if v is MISSING:
        return None
    return v


def action_of(item: PlanItem, decision: str) -> Action:
    """What apply will do to disk: write, remove, record (manifest only) or none."""
    cls = item.cls
    if cls in (ItemClass.CREATE, ItemClass.UPDATE):
        return Action.WRITE if decision == Decision.APPLY else Action.NONE
    if cls == ItemClass.REMOVE:
        if decision != Decision.APPLY:
            return Action.NONE
        return Action.RECORD if item.release else Action.REMOVE
    if cls in KEPT_CLASSES:
        if decision == Decision.TAKE:
            return Action.WRITE if item.wanted else Action.REMOVE
        return Action.RECORD if not item.wanted else Action.NONE
    if cls == ItemClass.NOOP:
        return Action.RECORD if item.heal else Action.NONE
    return Action.NONE


def tally(rows: Iterable[tuple[str, str, str, bool]]) -> dict[str, int]:
    """The plan's one counter, over (class, decision, action, exists) rows: Plan.counts() feeds
    it the plan's items, the text renderer reads what it gave from the JSON form, the CLI's
    status and the app's badges call Plan.counts(target).
      add / change / remove  files or keys apply writes (absent before / present) or removes
      changes                add + change + remove (what "changes pending" counts)
      kept                   hand-edits and foreign values whose decision keeps them
      conflict               conflicts whose decision (so far) keeps yours
      record                 record-only updates of agentdeck's manifest
      held                   files kept although unwanted: something staying calls them
                             (core/held.py; a fifth, optional element of the row)
      review                 every item a renderer lists (anything but an unchanged item)"""
    c = {"add": 0, "change": 0, "remove": 0, "changes": 0, "kept": 0, "conflict": 0,
         "record": 0, "review": 0, "held": 0}
    for cls, decision, act, exists, *held in rows:
        if held and held[0]:
            c["held"] += 1
        if act == Action.WRITE:
            c["change" if exists else "add"] += 1
        elif act == Action.REMOVE:
            c["remove"] += 1
        elif act == Action.RECORD:
            c["record"] += 1
        if cls in (ItemClass.HAND_EDITED, ItemClass.FOREIGN) and decision == Decision.KEEP:
            c["kept"] += 1
        if cls == ItemClass.CONFLICT and decision == Decision.KEEP:
            c["conflict"] += 1
        if act != Action.NONE or cls in KEPT_CLASSES or (held and held[0]):
            c["review"] += 1
    c["changes"] = c["add"] + c["change"] + c["remove"]
    return c


@dataclass
class Plan:
    home: str
    profile: str
    targets: list[str]
    items: list[PlanItem] = field(default_factory=list)
    notices: dict[str, list[Notice]] = field(default_factory=dict)
    info: dict[str, dict] = field(default_factory=dict)
    inputs: dict[str, str | None] = field(default_factory=dict)
    manifests: dict[str, Manifest] = field(default_factory=dict)
    decisions: dict[str, str] = field(default_factory=dict)
    mode: str = "install"           # "install" | "uninstall"
    scope: dict = field(default_factory=lambda: {"kind": "home"})   # core.scopes: home | repo
    errors: dict[str, str] = field(default_factory=dict)  # target -> why it could not be planned
    #: this run's choice about trusting agentdeck's own hooks (None: the default / the layer's)
    trust_choice: bool | None = None
    _holds: Any = field(default=None, repr=False, compare=False)   # cache of holds()

    # ---- decisions ------------------------------------------------------------------------------
    def decision(self, item: PlanItem) -> str:
        d = self.decisions.get(item.id)
        if d is not None:
            return d
        if item.follows and Decision.SKIP in item.choices and not self._followed(item):
            return Decision.SKIP
        return item.default_decision

    def _followed(self, item: PlanItem) -> bool:
        """The item `item` follows is there after this apply: written by it, or agentdeck's
        already (unchanged), or not in the plan at all."""
        for it in self.items:
            if it.id == item.follows and it.target == item.target:
                if it.follows:        # no chains
                    return True
                act = self.action(it)
                return act == Action.WRITE or (it.cls == ItemClass.NOOP and act != Action.REMOVE)
        return True

    def decide(self, item_id: str, decision: str) -> None:
        item = self.get(item_id)
        if decision not in item.choices:
            raise ValueError(f"{decision!r} is not a choice for {item.label or item.id} "
                             f"(choose {' or '.join(item.choices)})")
        self.decisions[item_id] = Decision(decision)

    def get(self, item_id: str) -> PlanItem:
        for it in self.items:
            if it.id == item_id:
                return it
        raise KeyError(item_id)

    def action(self, item: PlanItem) -> str:
        act = action_of(item, self.decision(item))
        if act in (Action.REMOVE, Action.RECORD):
            h = self.holds()
            if item.id in h.held or (act == Action.RECORD and item.id in h.callers):
                return Action.NONE   # a file something staying calls; that caller's record
        return act

    def holds(self):
        """core.held: the files this plan would remove that an item staying on disk still
        names (kept, with the reason), for the decisions in force now."""
        from . import held

        key = (len(self.items), tuple(sorted(self.decisions.items())))
        if self._holds is None or self._holds[0] != key:
            self._holds = (key, held.compute(self))
        return self._holds[1]

    def held_by(self, item: PlanItem) -> list[str]:
        return self.holds().held.get(item.id, [])

    def reason_of(self, item: PlanItem) -> str:
        """The item's reason as the decisions in force make it (a held file says what holds
        it; its caller says its record stays)."""
        from . import held

        h = self.holds()
        if item.id in h.held:
            return held.held_reason(self, item, h.held[item.id])
        if item.id in h.callers:
            note = held.caller_note(self, h.callers[item.id])
            return f"{item.reason}; {note}" if item.reason else note
        return item.reason

    def profile_switches(self) -> list[str]:
        """The targets whose manifest records another profile than this plan's (or none yet,
        while agentdeck's items are there): apply records this plan's profile for them."""
        if self.mode != "install":
            return []
        return [t for t in self.targets if t not in self.errors and t in self.manifests
                and self.manifests[t].profile != self.profile
                and (self.manifests[t].entries or any(
                    self.action(i) in (Action.WRITE, Action.RECORD) for i in self.for_target(t)))]

    def installed_profiles(self) -> dict[str, str | None]:
        """target -> the profile its last apply installed (None: none recorded)."""
        return {t: (self.manifests[t].profile if t in self.manifests else None)
                for t in self.targets}

    def undecided_conflicts(self) -> list[PlanItem]:
        return [i for i in self.items if i.cls == ItemClass.CONFLICT and i.id not in self.decisions]

    # ---- summaries ------------------------------------------------------------------------------
    def counts(self, target: str | None = None) -> dict[str, int]:
        """The counts (see tally) of the whole plan, or of one target's items."""
        items = self.items if target is None else self.for_target(target)
        return tally((it.cls, self.decision(it), self.action(it), it.actual is not MISSING,
                      bool(self.held_by(it))) for it in items)

    @property
    def has_changes(self) -> bool:
        """Changes to files on disk (a manifest-only record update is not a change)."""
        return any(self.action(i) in (Action.WRITE, Action.REMOVE) for i in self.items)

    @property
    def has_work(self) -> bool:
        """Anything for apply to do: a file change, a record update, or a conflict the operator
        decided (remembered so it is not asked again)."""
        return bool(self.profile_switches()) or any(
            self.action(i) != Action.NONE
            or (i.cls == ItemClass.CONFLICT and i.id in self.decisions)
            for i in self.items)

    def summary(self, c: dict[str, int] | None = None) -> str:
        from .hooks_health import summary_text   # "in sync" only while the hooks can run

        c = c or self.counts()
        inert = summary_text(self)
        if not c["changes"] and not c["kept"] and not c["conflict"] and not c.get("held"):
            return f"No changes. {inert}" if inert else "No changes. Everything is in sync."
        parts = [f"{c['add']} to add", f"{c['change']} to change", f"{c['remove']} to remove"]
        if c["kept"]:
            parts.append(f"{c['kept']} hand-edit{'s' if c['kept'] != 1 else ''} kept")
        if c["conflict"]:
            parts.append(f"{c['conflict']} conflict{'s' if c['conflict'] != 1 else ''} to decide")
        if c.get("held"):
            parts.append(f"{c['held']} file{'s' if c['held'] != 1 else ''} kept for what calls "
                         f"{'them' if c['held'] != 1 else 'it'}")
        return "Plan: " + ", ".join(parts) + "." + (f" {inert}" if inert else "")

    def for_target(self, target: str) -> list[PlanItem]:
        return [i for i in self.items if i.target == target]

    def to_json(self) -> dict:
        from .hooks_health import state_text

        items = [i.to_json(self.decision(i), self.action(i), self.reason_of(i), self.held_by(i))
                 for i in self.items]
        c = tally((j["class"], j["decision"], j["action"], j["exists"], bool(j["held_by"]))
                  for j in items)
        return {
            "format": 1, "home": self.home, "profile": self.profile, "targets": self.targets,
            # per target, the profile the last apply installed (null: none recorded)
            "installed_profile": self.installed_profiles(),
            "mode": self.mode, "scope": self.scope,
            "summary": {"text": self.summary(c), **_summary_counts(c),
                        "changes_pending": c["changes"] > 0,
                        "by_target": {t: {**_summary_counts(tally(
                            (j["class"], j["decision"], j["action"], j["exists"],
                             bool(j["held_by"])) for j in items if j["target"] == t)),
                            "hooks_inert": state_text(self, t)} for t in self.targets}},
            "items": items,
            "notices": {t: [{"level": n.level, "message": redact_output(n.message), "path": n.path}
                            for n in ns]
                        for t, ns in self.notices.items()},
            "inputs": self.inputs,
            "errors": self.errors,
            # other tools' installs found per target and what this plan does with each part
            # (core/targets/takeover.py; docs/migrating.md)
            "found": {t: (self.info.get(t) or {}).get("found", []) for t in self.targets},
        }


def _summary_counts(c: dict[str, int]) -> dict[str, int]:
    """tally()'s counts under the JSON form's names (docs/plan-format.md)."""
    return {"add": c["add"], "change": c["change"], "remove": c["remove"],
            "hand_edits_kept": c["kept"], "conflicts": c["conflict"], "record_only": c["record"],
            "kept_for_callers": c["held"], "to_review": c["review"]}


# ---- computing ---------------------------------------------------------------------------------

def fingerprint_of_value(kind: str, value: Any, mode: int | None = None) -> str:
    if kind == "key":
        return canonical(value)
    if kind == "link":
        return "link:" + str(value)
    if kind == "aside":
        return ASIDE_FP
    fp = sha256(value if isinstance(value, (bytes, str)) else str(value))
    if kind == "file" and mode is not None:
        fp += f":{mode:o}"
    return fp


def _actual(disk: DiskView, d: Desired | Entry, kind: str, path: Path, key, fmt: str,
            markers, mode: int | None) -> tuple[Any, str | None]:
    """(display value, fingerprint) of what is on disk now; (MISSING, None) when absent."""
    from .formats.blocks import get_block
    from .formats.errors import FormatError
    from .errors import UserError

    st = disk.state(path)
    if kind == "aside":
        if st.error is not None:
            raise st.error
        if st.exists:
            return disk.text(path), "sha:" + str(st.sha)
        if st.is_link or st.is_dir:
            return REAL_IN_THE_WAY, "real"
        return MISSING, ASIDE_FP
    if kind == "link":
        if st.is_link:
            return st.link_target, "link:" + str(st.link_target)
        if st.is_dir or st.exists:
            return REAL_IN_THE_WAY, "real"
        return MISSING, None
    if kind == "file":
        text = disk.text(path)
        if text is None:
            return MISSING, None
        fp = st.sha
        if mode is not None:
            fp += f":{(st.mode or 0):o}"
        return text, fp
    if kind == "block":
        text = disk.text(path)
        if text is None:
            return MISSING, None
        try:
            body = get_block(text, markers[0], markers[1])
        except FormatError as e:
            raise UserError(e.msg, path=str(path), line=e.line, col=e.col) from None
        if body is None:
            theirs = _replaced_region(text, d, path)
            return (MISSING, None) if theirs is None else (theirs, sha256(theirs))
        return body, sha256(body)
    # key
    doc = disk.doc(path, fmt)
    if doc is None:
        return MISSING, None
    from .formats.jsonc import MISSING as DOC_MISSING
    if isinstance(d, Desired):
        _check_containers(doc, tuple(key), path, d.member)
    v = doc.get(tuple(key), DOC_MISSING)
    if v is DOC_MISSING:
        return MISSING, None
    member = getattr(d, "member", "")
    if member:
        _, v = find_member(v, member)
        if v is MISSING:
            return MISSING, None
    return v, canonical(v)


def _replaced_region(text: str, d, path: Path) -> str | None:
    """The body of the other tool's region a block item replaces (Desired.replaces), or None."""
    from .formats.blocks import get_block
    from .formats.errors import FormatError

    replaces = getattr(d, "replaces", None)
    if not replaces:
        return None
    try:
        return get_block(text, replaces[0], replaces[1])
    except FormatError:
        return None          # takeover.py offers a replacement only for a well-formed region


def _check_containers(doc, key: tuple[str, ...], path: Path, member: str) -> None:
    """What a key item is written into must be an object (and a member item's value a list):
    otherwise the apply could only write it by replacing the operator's value. Said now, at plan
    time, naming the file and line, before anything is written."""
    from .errors import UserError
    from .formats.jsonc import MISSING as DOC_MISSING

    def fail(at: tuple[str, ...], expected: str, found: Any) -> UserError:
        line, col = doc.position_of(at) if hasattr(doc, "position_of") else (None, None)
        return UserError(f"{'.'.join(at)}: expected {expected}, found {_json_type(found)} "
                         f"(agentdeck manages {'.'.join(key)}{' in it' if at != key else ''})",
                         path=str(path), line=line, col=col)

    for i in range(1, len(key)):
        v = doc.get(key[:i], DOC_MISSING)
        if v is DOC_MISSING:
            return
        if not isinstance(v, dict):
            raise fail(key[:i], "an object", v)
    if member:
        v = doc.get(key, DOC_MISSING)
        if v is not DOC_MISSING and not isinstance(v, list):
            raise fail(key, "a list", v)


def _check_original(host: Host, entry: Entry) -> None:
    """Removing a file agentdeck replaced means restoring what was there: that copy (kept in the
    state dir's originals) must be there and intact, or the plan cannot promise the restore."""
    from .errors import UserError
    from .host import HostError

    originals = host.state_dir / "originals"
    try:
        data = host.read_bytes(originals / entry.prior_sha)
    except HostError:
        data = None
    if data is None or sha256(data) != entry.prior_sha:
        raise UserError(f"the copy of what was here before agentdeck (kept in "
                        f"{host.display(originals)}) is missing or damaged, so it cannot be put "
                        "back; nothing was written", path=entry.path)


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


def with_member(value: Any, marker: str, element: Any) -> list:
    """The list with our element replaced in place, or appended when it is not there yet; the
    operator's elements keep their order and content. A value that is there but not a list is
    the operator's and is never replaced (UserError)."""
    if value is not None and not isinstance(value, list):
        from .errors import UserError
        raise UserError(f"expected a list to add agentdeck's entry to, found {type(value).__name__}; "
                        "nothing was written")
    out = list(value) if isinstance(value, list) else []
    i, _ = find_member(out, marker)
    if i < 0:
        out.append(element)
    else:
        out[i] = element
    return out


def without_member(value: Any, marker: str) -> list:
    out = list(value) if isinstance(value, list) else []
    i, _ = find_member(out, marker)
    if i >= 0:
        del out[i]
    return out


def _display_recorded(e: Entry | None) -> Any:
    if e is None:
        return MISSING
    if e.kind == "key":
        return e.value
    if e.kind == "link":
        return e.fingerprint.removeprefix("link:")
    return f"sha256:{e.fingerprint[:12]}"


NO_LONGER_WANTED = "the profile no longer wants it"   # (an uninstall plan says what it does instead)


def classify(desired_fp: str | None, recorded_fp: str | None, actual_fp: str | None,
             pinned: bool = False, aside: bool = False) -> tuple[str, bool, str]:
    """(class, heal, reason) by the three-state rule. desired_fp None = no longer wanted.
    aside: an aside item (its rows in the module docstring)."""
    if aside:
        return _classify_aside(desired_fp, recorded_fp, actual_fp)
    if desired_fp is None:
        if recorded_fp is None:
            return ItemClass.NOOP, False, ""
        if actual_fp is None:
            return ItemClass.NOOP, True, "already gone; forgetting our record"
        if actual_fp == recorded_fp:
            return "remove", False, NO_LONGER_WANTED
        return "hand-edited", False, "changed by you after we wrote it; left as is, no longer managed"
    if recorded_fp is None:
        if actual_fp is None:
            return "create", False, "the profile wants it"
        if actual_fp == desired_fp:
            return "noop", True, "already as the profile wants; adopting it"
        if pinned:
            return "conflict", False, "set by you to a value agentdeck pins; decide which wins"
        return "foreign", False, "exists and was not written by agentdeck; kept"
    if actual_fp is None:
        return "hand-edited", False, "deleted by you since the last apply; not re-added"
    if actual_fp == recorded_fp:
        if desired_fp == recorded_fp:
            return "noop", False, ""
        return "update", False, "what the profile asks for here changed since the last apply"
    if actual_fp == desired_fp:
        return "noop", True, "already as the profile wants; updating our record"
    if pinned:
        return "conflict", False, "changed by you, but agentdeck pins this value; decide which wins"
    if desired_fp == recorded_fp:
        return "hand-edited", False, "changed by you since the last apply; kept"
    return "conflict", False, "changed by you and by the profile; decide which wins"


def _mode_only(actual_fp: str, recorded_fp: str) -> bool:
    """A file's fingerprints ("sha:mode") differ in the mode alone."""
    a, sa, ma = actual_fp.rpartition(":")
    r, sr, mr = recorded_fp.rpartition(":")
    return bool(sa and sr) and a == r and ma != mr


def _classify_aside(desired_fp: str | None, recorded_fp: str | None,
                    actual_fp: str | None) -> tuple[str, bool, str]:
    there = actual_fp not in (None, ASIDE_FP)
    if desired_fp is None:
        if recorded_fp is None:
            return ItemClass.NOOP, False, ""
        if actual_fp == "real":       # a folder or a link where the file was
            return (ItemClass.HAND_EDITED, False,
                    "not put back: a folder or a link is there now; left as is (agentdeck's copy "
                    "of the file stays in its state dir, originals/)")
        if there:
            return (ItemClass.HAND_EDITED, False,
                    "it is back (written again since agentdeck set it aside); left as is")
        return ItemClass.REMOVE, False, "put back as it was before agentdeck set it aside"
    if recorded_fp is None:
        if there:
            return ItemClass.CREATE, False, "set aside"
        return ItemClass.NOOP, False, ""
    if there:
        return (ItemClass.HAND_EDITED, False,
                "it is back (written again since agentdeck set it aside); kept, so it runs beside "
                "agentdeck's: take sets it aside again")
    return ItemClass.NOOP, False, ""


def _ours_there(disk: DiskView, d) -> bool:
    """Our block is in the file (else "actual" is the region of the tool it replaces)."""
    from .formats.blocks import get_block
    from .formats.errors import FormatError

    text = disk.text(d.path)
    try:
        return text is not None and get_block(text, d.markers[0], d.markers[1]) is not None
    except FormatError:
        return False


def _aside_put_back(host: Host, disk: DiskView, entry: Entry) -> tuple[str, bool, str]:
    """Uninstall of a set-aside file: put it back -- unless what it runs is gone (its tool was
    uninstalled since: every event would fail) or agentdeck's copy of it is: then only the
    record is forgotten, and the reason says so."""
    meta = entry.meta if isinstance(entry.meta, dict) else {}
    calls = meta.get("calls")
    originals = host.state_dir / "originals"
    if isinstance(calls, str) and calls and not disk.present(Path(calls)):
        return (ItemClass.NOOP, True,
                f"not put back: its hooks run {host.display(calls)}, which is gone (its tool was "
                "uninstalled since?), so every event would fail; agentdeck's copy stays in "
                f"{host.display(originals)}/{entry.prior_sha}")
    try:
        data = host.read_bytes(originals / str(entry.prior_sha))
    except Exception:
        data = None
    if data is None or sha256(data) != entry.prior_sha:
        return (ItemClass.NOOP, True,
                f"not put back: agentdeck's copy of it in {host.display(originals)} is missing or "
                "damaged; only the record is forgotten")
    return ItemClass.REMOVE, False, "put back as it was before agentdeck set it aside"


def kept_path(host: Host):
    """Conflicts the operator decided to keep: item id -> fingerprint of the value kept. The
    same value is then a hand-edit kept by decision, not a conflict asked about on every run;
    a new value makes it a conflict again."""
    return host.state_dir / "kept-conflicts.json"


def load_kept(host: Host) -> dict[str, str]:
    try:
        data = host.read_bytes(kept_path(host))
        obj = json.loads(data) if data else {}
    except (ValueError, OSError, Exception):
        return {}
    return {k: v for k, v in obj.items() if isinstance(v, str)} if isinstance(obj, dict) else {}


def compute(host: Host, profile_name: str, states: list[DesiredState],
            manifests: dict[str, Manifest], *, disk: DiskView | None = None,
            selected: list[str] | None = None) -> Plan:
    """Build the plan for the given desired states. `manifests` holds every target's manifest
    (not just the selected ones) so an item another target also owns is released, not removed."""
    disk = disk or DiskView(host)
    selected = selected or [s.target for s in states]
    plan = Plan(home=str(host.home), profile=profile_name, targets=selected, manifests=manifests)
    by_id: dict[str, PlanItem] = {}
    kept = load_kept(host)

    # what each selected target wants: a recorded item that no selected owner wants any more is
    # removed in this plan, not merely released by one owner and left to the next run
    wants = {st.target: {entry_id(str(d.path), d.kind, d.key, d.member) for d in st.items}
             for st in states}
    for st in states:
        plan.notices[st.target] = list(st.notices)
        plan.info[st.target] = st.info
        man = manifests[st.target]
        wanted_ids: set[str] = set()
        for d in st.items:
            path = str(d.path)
            eid = entry_id(path, d.kind, d.key, d.member)
            wanted_ids.add(eid)
            dfp = fingerprint_of_value(d.kind, d.value, d.mode)
            if eid in by_id:
                prev = by_id[eid]
                if prev.spec is not None and fingerprint_of_value(
                        prev.spec.kind, prev.spec.value, prev.spec.mode) == dfp:
                    prev.also.append(st.target)
                    continue
                plan.notices[st.target].append(Notice(
                    "error", f"{prev.target} and {st.target} want different contents for "
                             f"{host.display(path)}; {prev.target}'s is planned"))
                continue
            entry = man.entries.get(eid)
            actual, afp = _actual(disk, d, d.kind, d.path, d.key, d.fmt, d.markers, d.mode)
            cls, heal, why = classify(dfp, entry.fingerprint if entry else None, afp, d.pinned,
                                      aside=d.kind == "aside")
            if (cls in (ItemClass.HAND_EDITED, ItemClass.CONFLICT) and d.kind == "file"
                    and d.mode is not None and entry is not None and afp is not None
                    and _mode_only(afp, entry.fingerprint)):
                # the same bytes with another mode (a wrapper that lost its exec bit): nothing of
                # the operator's is in it, and the hooks cannot run without it -- put it back
                cls, heal = ItemClass.UPDATE, False
                why = (f"its mode is now {afp.rpartition(':')[2]}, agentdeck wrote it "
                       f"{entry.fingerprint.rpartition(':')[2]} (the same content): apply puts the "
                       "mode back")
            if cls == "conflict" and afp is not None and kept.get(eid) == afp:
                cls, why = "hand-edited", "you chose to keep your value at an earlier apply; kept"
            elif d.kind == "aside" and cls == "create" and afp is not None and kept.get(eid) == afp:
                cls, why = "foreign", ("you left it in place at an earlier apply (skip); kept, so "
                                       "its hooks run beside agentdeck's: take sets it aside")
            elif cls == "conflict" and d.replaces and entry is None:
                why = ""     # the adapter's reason says whose region it is and what each choice does
            elif cls == "conflict" and d.replaces and actual is not MISSING and not _ours_there(disk, d):
                why = ("its tool wrote its region again since the profile's took its place: "
                       "decide again")
            reason = d.reason or why
            if d.kind == "aside" and cls != "create":
                reason = why     # the adapter's reason tells the set-aside, not what came after
            elif why and d.reason and cls != "create":
                reason = f"{d.reason}; {why}"
            if d.kind == "block" and cls == "create" and disk.state(d.path).exists:
                # "+" is the block, not the file (16.4: "shown as create although it exists")
                reason = f"a new block at the {d.placement} of the existing file: {reason}"
            item = PlanItem(
                id=eid, target=st.target, path=path, kind=d.kind, cls=cls, key=list(d.key),
                label=d.label or host.display(path), group=d.group, reason=reason,
                warnings=list(d.warnings), secret=d.secret, desired=d.value,
                recorded=_display_recorded(entry), actual=actual, heal=heal, spec=d, entry=entry,
                actual_fp=afp, follows=d.follows)
            by_id[eid] = item
            plan.items.append(item)
        # entries we recorded that the profile no longer wants
        for eid, entry in man.entries.items():
            if eid in wanted_ids:
                continue
            if eid in by_id:   # another selected target wants it now: it is recorded there
                by_id[eid].also.append(st.target)
                continue
            path = Path(entry.path)
            actual, afp = _actual(disk, entry, entry.kind, path, entry.key, entry.fmt,
                                  tuple(entry.markers) if entry.markers else ("", ""), None)
            if entry.kind == "file" and afp and ":" in entry.fingerprint:
                st_ = disk.state(path)
                afp = f"{st_.sha}:{(st_.mode or 0):o}"
            cls, heal, why = classify(None, entry.fingerprint, afp, aside=entry.kind == "aside")
            if entry.kind == "aside" and cls == "remove":
                cls, heal, why = _aside_put_back(host, disk, entry)
            if cls == "remove" and entry.kind in ("file", "aside", "block") and entry.prior_sha:
                _check_original(host, entry)
            others = [t for t, m in manifests.items() if t != st.target and eid in m.entries
                      and (t not in wants or eid in wants[t])]
            item = PlanItem(
                id=eid, target=st.target, path=entry.path, kind=entry.kind, cls=cls,
                key=list(entry.key), label=entry.label or host.display(entry.path),
                group="", reason=why, desired=MISSING, recorded=_display_recorded(entry),
                actual=actual, wanted=False, heal=heal, entry=entry,
                release=bool(others))
            if others and cls == "remove":
                item.reason = f"no longer wanted by {st.target}; still owned by {', '.join(others)}"
            if cls == "remove" and not others and not host.real_confined(path):
                item.warnings.append("not deleted: it is reached through a symlink that leads out "
                                     "of the home; agentdeck only forgets it")
            by_id[eid] = item
            plan.items.append(item)
    # read every manifest's sha so a concurrent apply makes this plan stale
    for t, m in manifests.items():
        disk.state(m.path)
    plan.inputs = disk.inputs()
    return plan


def dumps(plan: Plan) -> str:
    return json.dumps(plan.to_json(), indent=2, ensure_ascii=False, default=str)
