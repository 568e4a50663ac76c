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
from typing import TYPE_CHECKING, Any, Iterable

from . import originals
from .desired import Desired, DesiredState, Notice
from .disk import MISSING, DiskView
from .host import Host
from .inert import state_text, summary_text
from .kinds import ASIDE_FP, KINDS, REAL_IN_THE_WAY, ItemKind, kind_of
from .kinds.block import ours_there
# the list-member helpers live with the member kind; adapters and tests import them from here
from .kinds.key import find_member, with_member, without_member  # noqa: F401
from .manifest import Entry, Manifest
from .output_guard import redact_output
from .targets.output import TargetOutput
from .wording import count_of

if TYPE_CHECKING:   # the type only: core.held imports this module's Plan the same way
    from . import held

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
_APPLY_SKIP = (Decision.APPLY, Decision.SKIP)
_KEEP_TAKE = (Decision.KEEP, Decision.TAKE)
CHOICES: dict[str, tuple[Decision, ...]] = {
    ItemClass.CREATE: _APPLY_SKIP, ItemClass.UPDATE: _APPLY_SKIP, ItemClass.REMOVE: _APPLY_SKIP,
    ItemClass.HAND_EDITED: _KEEP_TAKE, ItemClass.FOREIGN: _KEEP_TAKE,
    ItemClass.CONFLICT: _KEEP_TAKE, ItemClass.NOOP: (Decision.APPLY,),
}


@dataclass
class PlanItem:
    """One item of a plan: where, its class (the three-state rule), what each side holds."""
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
    def type(self) -> ItemKind:
        """The item's kind (core/kinds), the member kind for one element of a shared list."""
        src = self.spec if self.spec is not None else self.entry
        return kind_of(src) if src is not None else KINDS[self.kind]

    @property
    def choices(self) -> tuple[Decision, ...]:
        if self.actual == REAL_IN_THE_WAY and self.type.keeps_real:
            return (Decision.KEEP,)   # never replace a real file or directory with a link
        return CHOICES[self.cls]

    @property
    def default_decision(self) -> Decision:
        return self.choices[0]

    def to_json(self, decision: str, action: str | None = None, reason: str | None = None,
                held_by: list[str] | None = None) -> dict[str, Any]:
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


def tally(rows: Iterable[tuple[str, str, str, bool] | tuple[str, str, str, bool, bool]]) -> dict[str, int]:
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
    """What an apply would do: the items, the decisions, the inputs' shas, the manifests."""
    home: str
    profile: str
    targets: list[str]
    items: list[PlanItem] = field(default_factory=list)
    notices: dict[str, list[Notice]] = field(default_factory=dict)
    #: each target's adapter output (typed facts: core/targets/output.py)
    output: dict[str, TargetOutput] = field(default_factory=dict)
    inputs: dict[str, str | None] = field(default_factory=dict)
    manifests: dict[str, Manifest] = field(default_factory=dict)
    decisions: dict[str, str] = field(default_factory=dict)
    mode: str = "install"           # "install" | "uninstall"
    scope: dict[str, Any] = field(default_factory=lambda: {"kind": "home"})   # core.scopes: home | repo
    errors: dict[str, str] = field(default_factory=dict)  # target -> why it could not be planned
    #: this run's choice about trusting agentdeck's own hooks (None: the default / the layer's)
    trust_choice: bool | None = None
    _holds: "tuple[tuple[int, tuple[tuple[str, str], ...]], held.Holds] | None" = field(default=None, repr=False, compare=False)   # cache of holds()

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

    def holds(self) -> "held.Holds":
        """core.held: the files this plan would remove that an item staying on disk still
        names (kept, with the reason), for the decisions in force now."""
        from . import held

        key = (len(self.items), tuple(sorted(self.decisions.items())))
        if self._holds is None or self._holds[0] != key:
            self._holds = (key, held.compute(
                self, {it.id: action_of(it, self.decision(it)) for it in self.items}))
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

    def after_apply_words(self) -> str:
        """What is left once this plan is applied, in the words `apply` and the app both say:
        nothing, or the items the operator skipped (they stay pending)."""
        held = [k for k, v in self.decisions.items() if v == "skip"]
        # an uninstall's plan, not the install plan `status` then counts again
        which = "The uninstall plan" if self.mode == "uninstall" else "The plan"
        return (f"{which} is now empty." if not held else
                f"{which} is now empty except for the {count_of(len(held), 'item')} you skipped.")

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

    def shared_changes(self, target: str) -> dict[str, int]:
        """The changes `target` wants that this plan counts under another target: a file several
        CLIs read (a skill in a folder they share) is one item, planned and counted for the first
        target that wants it, with the others in its `also`. Owner -> how many; a plan of
        `target` alone counts them as its own (the doctor's), so counts(target)["changes"] plus
        these is that number."""
        out: dict[str, int] = {}
        for i in self.items:
            if target in i.also and self.action(i) in (Action.WRITE, Action.REMOVE):
                out[i.target] = out.get(i.target, 0) + 1
        return out

    def to_json(self) -> dict[str, Any]:
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
            "found": {t: [f.as_json() for f in self.output[t].found] if t in self.output else []
                      for t in self.targets},
        }


def shared_words(changes: int, shared: dict[str, int]) -> str:
    """A target's pending changes in words, naming those another target's row counts
    (Plan.shared_changes): "16 changes pending, and 3 shared with copilot"; "3 changes
    pending, shared with copilot" when all of them are; "" when none."""
    n = sum(shared.values())
    with_ = f"shared with {', '.join(shared)}"
    if not n:
        return f"{count_of(changes, 'change')} pending" if changes else ""
    if not changes:
        return f"{count_of(n, 'change')} pending, {with_}"
    return f"{count_of(changes, 'change')} pending, and {n} {with_}"


def _summary_counts(c: dict[str, int]) -> dict[str, int]:
    """tally()'s counts under the JSON form's names (docs/plan-format.md)."""
    return {"add": c["add"], "change": c["change"], "remove": c["remove"],
            "hand_edits_kept": c["kept"], "conflicts": c["conflict"], "record_only": c["record"],
            "kept_for_callers": c["held"], "to_review": c["review"]}


# ---- computing ---------------------------------------------------------------------------------

def fingerprint_of_value(kind: str, value: Any, mode: int | None = None) -> str:
    """The fingerprint of a value of the kind named `kind` (core/kinds)."""
    return KINDS[kind].fingerprint(value, mode)


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


def _aside_put_back(host: Host, disk: DiskView, entry: Entry) -> tuple[str, bool, str]:
    """Uninstall of a set-aside file: put it back -- unless what it runs is gone (its tool was
    uninstalled since: every event would fail) or agentdeck's copy of it is: then only the
    record is forgotten, and the reason says so."""
    meta = entry.meta if isinstance(entry.meta, dict) else {}
    calls = meta.get("calls")
    kept_in = originals.originals_dir(host)
    if isinstance(calls, str) and calls and not disk.present(Path(calls)):
        return (ItemClass.NOOP, True,
                f"not put back: its hooks run {host.display(calls)}, which is gone (its tool was "
                "uninstalled since?), so every event would fail; agentdeck's copy stays in "
                f"{host.display(kept_in)}/{entry.prior_sha}")
    if originals.read(host, str(entry.prior_sha)) is None:
        return (ItemClass.NOOP, True,
                f"not put back: agentdeck's copy of it in {host.display(kept_in)} is missing or "
                "damaged; only the record is forgotten")
    return ItemClass.REMOVE, False, "put back as it was before agentdeck set it aside"


def _check_original(host: Host, entry: Entry) -> None:
    """Removing a file agentdeck replaced means restoring what was there: that copy (kept in the
    state dir's originals) must be there and intact, or the plan cannot promise the restore."""
    from .errors import UserError

    if originals.read(host, str(entry.prior_sha)) is None:
        raise UserError(f"the copy of what was here before agentdeck (kept in "
                        f"{host.display(originals.originals_dir(host))}) is missing or damaged, "
                        "so it cannot be put back; nothing was written", path=entry.path)


def kept_path(host: Host) -> Path:
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
    wants = {st.target: {kind_of(d).entry_id(str(d.path), d.key, d.member) for d in st.items}
             for st in states}
    for st in states:
        plan.notices[st.target] = list(st.notices)
        plan.output[st.target] = st.output
        man = manifests[st.target]
        wanted_ids: set[str] = set()
        for d in st.items:
            path = str(d.path)
            kind = kind_of(d)
            eid = kind.entry_id(path, d.key, d.member)
            wanted_ids.add(eid)
            dfp = kind.fingerprint(d.value, d.mode)
            if eid in by_id:
                prev = by_id[eid]
                if prev.spec is not None and prev.type.fingerprint(
                        prev.spec.value, prev.spec.mode) == dfp:
                    prev.also.append(st.target)
                    continue
                plan.notices[st.target].append(Notice(
                    "error", f"{prev.target} and {st.target} want different contents for "
                             f"{host.display(path)}; {prev.target}'s is planned"))
                continue
            entry = man.entries.get(eid)
            actual, afp = kind.read_actual(disk, d)
            cls, heal, why = classify(dfp, entry.fingerprint if entry else None, afp, d.pinned,
                                      aside=kind.sets_aside)
            if (cls in (ItemClass.HAND_EDITED, ItemClass.CONFLICT) and entry is not None
                    and afp is not None and kind.mode_only(d, afp, entry.fingerprint)):
                # the same bytes with another mode (a wrapper that lost its exec bit): nothing of
                # the operator's is in it, and the hooks cannot run without it -- put it back
                cls, heal = ItemClass.UPDATE, False
                why = (f"its mode is now {afp.rpartition(':')[2]}, agentdeck wrote it "
                       f"{entry.fingerprint.rpartition(':')[2]} (the same content): apply puts the "
                       "mode back")
            if d.own and cls in (ItemClass.HAND_EDITED, ItemClass.CONFLICT, ItemClass.FOREIGN):
                # agentdeck's own file (core/seal.py: the compiled policy, the hook wrapper):
                # nobody edits it by hand, so a change or removal is damage -- put it back
                cls, heal = ItemClass.UPDATE, False
                why = ("agentdeck's own file, changed or removed since the last apply (not an "
                       "edit to keep: the guard reads it): apply puts it back")
            if cls == "conflict" and afp is not None and kept.get(eid) == afp:
                cls, why = "hand-edited", "you chose to keep your value at an earlier apply; kept"
            elif kind.sets_aside and cls == "create" and afp is not None and kept.get(eid) == afp:
                cls, why = "foreign", ("you left it in place at an earlier apply (skip); kept, so "
                                       "its hooks run beside agentdeck's: take sets it aside")
            elif cls == "conflict" and d.replaces and entry is None:
                why = ""     # the adapter's reason says whose region it is and what each choice does
            elif cls == "conflict" and d.replaces and actual is not MISSING and not ours_there(disk, d):
                why = ("its tool wrote its region again since the profile's took its place: "
                       "decide again")
            item = PlanItem(
                id=eid, target=st.target, path=path, kind=d.kind, cls=cls, key=list(d.key),
                label=d.label or host.display(path), group=d.group,
                reason=kind.reason(d, cls, why, disk),
                warnings=list(d.warnings), secret=d.secret, desired=d.value,
                recorded=kind.display_recorded(entry), actual=actual, heal=heal, spec=d, entry=entry,
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
            entry_path = Path(entry.path)
            kind = kind_of(entry)
            actual, afp = kind.read_actual(disk, entry)
            cls, heal, why = classify(None, entry.fingerprint, afp, aside=kind.sets_aside)
            if kind.sets_aside and cls == "remove":
                cls, heal, why = _aside_put_back(host, disk, entry)
            if cls == "remove" and kind.prior_in_originals and entry.prior_sha:
                _check_original(host, entry)
            others = [t for t, m in manifests.items() if t != st.target and eid in m.entries
                      and (t not in wants or eid in wants[t])]
            item = PlanItem(
                id=eid, target=st.target, path=entry.path, kind=entry.kind, cls=cls,
                key=list(entry.key), label=entry.label or host.display(entry.path),
                group="", reason=why, desired=MISSING, recorded=kind.display_recorded(entry),
                actual=actual, wanted=False, heal=heal, entry=entry,
                release=bool(others))
            if others and cls == "remove":
                item.reason = f"no longer wanted by {st.target}; still owned by {', '.join(others)}"
            if cls == "remove" and not others and not host.real_confined(entry_path):
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
