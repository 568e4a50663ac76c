"""The app's view of one agentdeck session: the host, the chosen profile and targets, the
operator's decisions and overrides, and helpers that turn plan data into display text.

Plain Python (no textual import): screens call these from workers and tests call them directly.
Everything here goes through the core's public functions (agentdeck.core.engine, core.profiles,
core.targets, core.render) and never reads a file itself.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from agentdeck.core import engine, overlay, profiles, targets
from agentdeck.core.disk import MISSING
from agentdeck.core.host import Host
from agentdeck.core.plan import KEPT_CLASSES, Plan, PlanItem
from agentdeck.core.render import symbol as _symbol
from agentdeck.core.views import targets as target_views
from agentdeck.core.views.status import TargetStatus, of as target_status

__all__ = ["Session", "TargetStatus", "target_status"]   # with the display helpers below

#: (target) -> version string, or None when the CLI is not installed
VersionProbe = Callable[[Host, str], "str | None"]

CLASS_LABEL = {
    "create": "create", "update": "update", "noop": "in sync", "hand-edited": "hand-edited",
    "conflict": "conflict", "remove": "remove", "foreign": "not ours",
}
DECISION_LABEL = {
    "apply": "apply", "skip": "skip", "keep": "keep mine", "take": "take profile's",
}


#: the status line's word on undecided conflicts: what to press (the summary counts them; short,
#: so a plan summary and this fit one line at 120 columns)
DECIDE_HINT = "! item: k = yours, t = profile's"


def symbol(plan: Plan, item: PlanItem) -> str:
    """The terraform-style mark of an item: + ~ - ! (or > for record only, blank for in sync)."""
    return _symbol(plan, item)


def target_title(name: str) -> str:
    try:
        return targets.get(name).title
    except (KeyError, ImportError):
        return name


def target_binary(name: str) -> str:
    try:
        return targets.get(name).binary
    except (KeyError, ImportError):
        return name


def available_targets() -> list[str]:
    return targets.available()


def all_targets() -> list[str]:
    return list(targets.ORDER)


def trust_names() -> str:
    """The CLIs that gate hooks on trust, by their short names (the registry's)."""
    return and_list([target_views.short(t) for t in target_views.trust_targets()]) or "the CLI's"


def and_list(names: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def available_profiles(host: Host) -> dict:
    return profiles.available(host)


# ---- CLI versions ---------------------------------------------------------------------------------

def detect_version(host: Host, target: str) -> str | None:
    """The installed CLI's version, or None when it is not on the host's PATH. Read from the
    CLI's npm package.json (or its versioned install path), the way the doctor reads it: the CLI
    is never run (running one can unpack a bundle into the home)."""
    installed, version = engine.cli_version(host, target)
    if not installed:
        return None
    return version or "installed (version unknown)"


def upgrade_words(host: Host, target: str) -> str | None:
    """A few words for the header when the installed CLI differs from the version agentdeck's
    facts were verified on, or from the last drill that held here (core/upgrade.py; `status`
    and the doctor print the whole line): "facts 1.0.102, not drilled"; None when it does not."""
    from agentdeck.core import upgrade   # local: read once per CLI, in the versions worker

    up = upgrade.check(host, target)
    if up is None or not up.differs:
        return None
    words = [] if up.facts_match else [f"facts {up.facts}"]
    if up.drilled is None:
        words.append("not drilled")
    elif up.drilled != up.installed:
        words.append(f"drilled {up.drilled}")
    return ", ".join(words)


# ---- display helpers ----------------------------------------------------------------------------

def home_relative(host: Host, text: str) -> str:
    """Show the home as ~ everywhere in a string (paths inside values, error messages)."""
    h = str(host.home)
    if not h or h == "/":
        return text
    return text.replace(h + "/", "~/").replace(h, "~")


def show_value(host: Host, value: Any, width: int | None = None) -> str:
    """One-line display of a plan value: (absent) for MISSING, JSON for structures."""
    if value is MISSING:
        s = "(absent)"
    elif value is None:
        s = "null"
    elif isinstance(value, str):
        s = json.dumps(value, ensure_ascii=False)
    else:
        s = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    s = home_relative(host, s)
    if width is not None and len(s) > width:
        s = s[: max(1, width - 1)] + "…"
    return s


def pretty_value(host: Host, value: Any) -> str:
    """Multi-line display of a value (indented JSON for structures)."""
    if value is MISSING:
        return "(absent)"
    if isinstance(value, (dict, list)):
        return home_relative(host, json.dumps(value, ensure_ascii=False, indent=2))
    return show_value(host, value)


def key_title(item: PlanItem) -> str:
    """A key item's name: its key path, or its label when a part of the key is a path (hook trust
    keys such as `hooks.state."<hooks file path>:<event>:0:0"` all look alike; the label names
    the hook's event)."""
    if item.label and any("/" in str(k) or "\\" in str(k) for k in item.key):
        return item.label
    return ".".join(str(k) for k in item.key)


def item_title(host: Host, item: PlanItem) -> str:
    """What to call an item in a list: the key path for keys, else the label or the path."""
    if item.kind == "key" and item.key:
        return key_title(item)
    if item.kind == "block":
        return f"{item.label or 'managed block'} (block)"
    if item.kind == "link":
        return f"{host.display(item.path)} (link)"
    return item.label or host.display(item.path)


def decided(plan: Plan) -> list[tuple[PlanItem, str]]:
    """The items whose outcome is the operator's choice, with the decision in force: every
    hand-edit, foreign value and conflict, and every change the operator chose to skip."""
    out = []
    for it in plan.items:
        d = plan.decision(it)
        if it.cls in KEPT_CLASSES or d != it.default_decision:
            out.append((it, d))
    return out


# ---- the session --------------------------------------------------------------------------------

@dataclass
class Session:
    """What the operator has chosen so far. Decisions survive a recomputed plan (by item id,
    while the choice is still valid for the item's new class).

    Choices that are not per-item decisions (onboarding's options, MCP switches) are written to
    the operator's layer (core.overlay: `<config dir>/profiles/<profile>.local/choices.json`)
    by the next apply, as plan items like any other write; until then they are pending here,
    and every plan the app computes -- the main screen's, the one after an apply, the doctor's
    view of pending changes -- plans the layer as it will be. After the apply the saved layer
    is what every plan (`agentdeck plan` too) uses, so nothing plans to undo them. Trusting
    agentdeck's own hooks, where a CLI gates hooks on trust, is part of every plan by default;
    saying no (onboarding's option, the Hooks tab's button) is such a choice too (`set_trust`:
    `"trust_hooks": {"<target>": false}` in the layer); `trust_hooks` True/False decides for this run only, as
    `--trust-hooks` / `--no-trust-hooks` do."""
    host: Host
    profile: str = engine.DEFAULT_PROFILE
    targets: list[str] | None = None
    decisions: dict[str, str] = field(default_factory=dict)
    #: pending directive choices (onboarding's options): {"directives": {...}}, and trusting
    #: agentdeck's hooks: {"trust_hooks": {"<target>": False}} (None: drop the saved choice)
    overrides: dict[str, Any] = field(default_factory=dict)
    #: pending MCP switches per target: {"<target>": {"github": True}}
    mcp_enabled: dict[str, dict[str, bool]] = field(default_factory=dict)
    #: this run only: trust agentdeck's own hooks where the CLI gates hooks on trust, or
    #: not (None: the layer's choice, else the default, trusted)
    trust_hooks: bool | None = None
    #: items the app decided "take" for because an MCP switch changed them (see main screen)
    auto_taken: set[str] = field(default_factory=set)
    #: switches flipped since the last apply (for "quit without applying?")
    unapplied_switches: int = 0
    #: the operator's layer as saved on disk, read with the last plan
    saved: dict[str, Any] = field(default_factory=dict)

    def _kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {}
        if self.trust_hooks is not None:
            kwargs["trust_hooks"] = self.trust_hooks

        self.saved = overlay.load(self.host, self.profile)
        if self.pending():
            kwargs["choices"] = self.choices()
        return kwargs

    def build_plan(self) -> Plan:
        plan = engine.build_plan(self.host, self.profile, self.targets, **self._kwargs())
        self.reapply(plan)
        return plan

    def covered_targets(self) -> list[str]:
        """The targets a command covers without --target (core.scopes.COVERAGE), as the CLI's."""
        return engine.select_targets(None, profiles.resolve(self.host, self.profile).targets,
                                     self.host)

    def fresh_plan(self) -> Plan:
        """The plan with this session's choices and no decisions: what is left after an apply,
        what the doctor compares the disk with."""
        return engine.build_plan(self.host, self.profile, self.targets, **self._kwargs())

    def pending(self) -> dict[str, Any]:
        """The choices made since the last apply (not written yet), in core.overlay's shape."""
        return overlay.layer(directives=overlay.directives_of(self.overrides),
                             mcp_enabled=self.mcp_enabled,      # None: drop the saved
                             trust_hooks=overlay.trust_of(self.overrides))

    def choices(self) -> dict[str, Any]:
        """The layer as the next apply writes it: the saved choices, the pending ones on top;
        a directive back at the profile's own value is no choice any more and is left out."""
        merged = overlay.merge(self.saved, self.pending())
        d = overlay.directives_of(merged)
        if d:
            try:
                base = profiles.resolve(self.host, overlay.base_of(self.profile)).directives
            except Exception:  # noqa: BLE001 - the plan says what is wrong with the profile
                base = None
            if base is not None:
                d = {k: v for k, v in d.items() if getattr(base, k, object()) != v}
            if d:
                merged["directives"] = d
            else:
                merged.pop("directives")
        return merged

    def core_overrides(self) -> dict[str, Any]:
        """The pending choices (kept for callers of the old name)."""
        return self.pending()

    @property
    def has_overrides(self) -> bool:
        """Whether this session plans differently from `agentdeck plan` right now."""
        return bool(self.pending()) or self.trust_hooks is not None

    def reapply(self, plan: Plan) -> None:
        ids = {i.id: i for i in plan.items}
        for item_id, d in list(self.decisions.items()):
            it = ids.get(item_id)
            if it is None or d not in it.choices:
                continue
            plan.decide(item_id, d)

    def decide(self, plan: Plan, item_id: str, decision: str) -> None:
        plan.decide(item_id, decision)
        self.decisions[item_id] = decision
        self.auto_taken.discard(item_id)     # the operator's own choice from now on

    def set_mcp(self, target: str, server: str, enabled: bool) -> None:
        """A switch flipped. Flipping it back before an apply is no choice at all; flipping a
        saved choice drops it (None: back to what the profile says; the main screen makes it
        an explicit choice when the profile says otherwise, see `mcp_explicit`)."""
        pend = self.mcp_enabled.setdefault(target, {})
        if server in pend:
            del pend[server]
            self.unapplied_switches = max(0, self.unapplied_switches - 1)
            return
        saved = self.saved_mcp(target).get(server)
        pend[server] = None if saved is not None and saved != enabled else enabled
        self.unapplied_switches += 1

    def mcp_explicit(self, target: str, server: str, enabled: bool) -> bool:
        """Dropping the saved choice left the server the other way: make the switch an explicit
        choice instead. True when it changed something (the plan is then computed again)."""
        pend = self.mcp_enabled.get(target, {})
        if server in pend and pend[server] is None:
            pend[server] = enabled
            return True
        return False

    def set_trust(self, target: str, on: bool) -> None:
        """Leave agentdeck's own hooks for `target` untrusted on every plan (off: false in the
        operator's layer, written by the next apply), or drop that no (on: trusted, the
        default). Setting it back to what the layer says is no choice at all."""
        pend = dict(overlay.trust_of(self.overrides))
        if on == self.saved_trust(target):
            pend.pop(target, None)
        else:
            pend[target] = None if on else False
        if pend:
            self.overrides["trust_hooks"] = pend
        else:
            self.overrides.pop("trust_hooks", None)

    def saved_trust(self, target: str) -> bool:
        """Whether the layer saved on disk trusts agentdeck's hooks for `target` (it does unless
        it says no)."""
        return overlay.trust_of(self.saved).get(target) is not False

    def trusts(self, target: str) -> bool:
        """Whether the plan this session computes trusts agentdeck's hooks for `target`."""
        if self.trust_hooks is not None:
            return self.trust_hooks
        return overlay.trust_of(self.choices()).get(target) is not False

    def saved_mcp(self, target: str) -> dict[str, bool]:
        """The MCP switches saved in the layer for `target`."""
        return overlay.mcp_of(self.saved, target)

    def unsaved(self, plan: Plan | None) -> int:
        """How many choices an exit now would lose: decisions that differ from the item's
        default, and switches flipped since the last apply."""
        n = self.unapplied_switches
        if plan is not None:
            ids = {i.id: i for i in plan.items}
            n += sum(1 for k, d in self.decisions.items()
                     if k in ids and d != ids[k].default_decision and k not in self.auto_taken)
        return n

    def applied(self) -> None:
        """After an apply: the decisions were for the plan that was applied, and the pending
        choices are in the layer now (or were skipped by the operator: the next plan, read
        from the disk, then says so)."""
        self.decisions.clear()
        self.auto_taken.clear()
        self.unapplied_switches = 0
        self.overrides = {}
        self.mcp_enabled.clear()

    # ---- saying where choices go ----------------------------------------------------------
    def run_only(self) -> list[str]:
        """The pending choices in words ("mcpDefaultDisabled off", "MCP server memory off
        (<the CLI's title>)", "trust agentdeck's hooks (<the CLI's title>)"), and trusting
        hooks for this run alone (`trust_hooks` without the layer's choice)."""
        out = overlay.describe(self.pending())
        if self.trust_only_for_this_run():
            out.append(f"trust agentdeck's {trust_names()} hooks")
        return out

    def trust_only_for_this_run(self) -> bool:
        """`trust_hooks` decides this run otherwise than the layer (as this plan writes it)."""
        if self.trust_hooks is None:
            return False

        layer_on = all(v is not False for v in overlay.trust_of(self.choices()).values())
        return self.trust_hooks != layer_on

    def layer_path(self) -> str:
        """Where the choices are written, as shown (~/.config/agentdeck/profiles/...)."""
        return self.host.display(overlay.choices_path(self.host, self.profile))

    def keep_hint(self) -> str:
        """Where the pending choices are written, in one sentence (empty when none)."""
        if not self.pending():
            return ""
        return (f"apply writes them to {self.layer_path()}, your layer on profile "
                f"{overlay.base_of(self.profile)}: every later plan with this profile (the app, "
                "`agentdeck plan`, the doctor) keeps them")
