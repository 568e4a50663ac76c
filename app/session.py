"""The app's view of one agentdeck session: the host, the chosen profile and targets, the
operator's decisions and overrides, and helpers that turn plan data into display text.

Plain Python (no textual import): screens call these from workers and tests call them directly.
Everything here goes through the core's public functions (core.engine, core.profiles,
core.targets, core.render) and never reads a file itself.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from core import engine
from core.disk import MISSING
from core.host import Host
from core.plan import Plan, PlanItem

#: (target) -> version string, or None when the CLI is not installed
VersionProbe = Callable[[Host, str], "str | None"]

CLASS_LABEL = {
    "create": "create", "update": "update", "noop": "in sync", "hand-edited": "hand-edited",
    "conflict": "conflict", "remove": "remove", "foreign": "not ours",
}
DECISION_LABEL = {
    "apply": "apply", "skip": "skip", "keep": "keep mine", "take": "take profile's",
}


def symbol(plan: Plan, item: PlanItem) -> str:
    """The terraform-style mark of an item: + ~ - ! (or > for record only, blank for in sync)."""
    from core.render import symbol as _symbol

    return _symbol(plan, item)


def target_title(name: str) -> str:
    from core import targets

    try:
        return targets.get(name).title
    except (KeyError, ImportError):
        return name


def target_binary(name: str) -> str:
    from core import targets

    try:
        return targets.get(name).binary
    except (KeyError, ImportError):
        return name


def available_targets() -> list[str]:
    from core import targets

    return targets.available()


def all_targets() -> list[str]:
    from core import targets

    return list(targets.ORDER)


def available_profiles(host: Host) -> dict:
    from core import profiles

    return profiles.available(host)


# ---- CLI versions ---------------------------------------------------------------------------------

_VERSION_RE = re.compile(r"(\d+\.\d+(?:\.\d+)?(?:[-.][0-9A-Za-z]+)*)")


def detect_version(host: Host, target: str) -> str | None:
    """The installed CLI's version, or None when it is not on the host's PATH. Uses the core's
    facts module when it has one; otherwise asks the binary for --version (a short timeout)."""
    try:
        from core.facts.versions import cli_version  # type: ignore[import-not-found]
    except ImportError:
        cli_version = None
    if cli_version is not None:
        v = cli_version(host, target)
        if v is None:
            return None
        return str(getattr(v, "version", v))
    exe = host.which(target_binary(target))
    if not exe:
        return None
    res = host.run([exe, "--version"], timeout=10.0)
    if res.returncode != 0 and not res.stdout:
        return "installed (version unknown)"
    m = _VERSION_RE.search(res.stdout or res.stderr or "")
    return m.group(1).rstrip(".") if m else "installed (version unknown)"


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


def item_title(host: Host, item: PlanItem) -> str:
    """What to call an item in a list: the key path for keys, else the label or the path."""
    if item.kind == "key" and item.key:
        return ".".join(item.key)
    if item.kind == "block":
        return f"{item.label or 'managed block'} (block)"
    if item.kind == "link":
        return f"{host.display(item.path)} (link)"
    return item.label or host.display(item.path)


@dataclass
class TargetStatus:
    target: str
    changes: int = 0
    hand_edits: int = 0
    conflicts: int = 0
    selected: bool = True

    @property
    def in_sync(self) -> bool:
        return not (self.changes or self.hand_edits or self.conflicts)

    def badge(self) -> str:
        if not self.selected:
            return "not selected"
        if self.in_sync:
            return "in sync"
        parts = []
        if self.changes:
            parts.append(f"{self.changes} change{'s' if self.changes != 1 else ''}")
        if self.hand_edits:
            parts.append(f"{self.hand_edits} hand-edit{'s' if self.hand_edits != 1 else ''}")
        if self.conflicts:
            parts.append(f"{self.conflicts} conflict{'s' if self.conflicts != 1 else ''}")
        return ", ".join(parts)


def target_status(plan: Plan, target: str) -> TargetStatus:
    st = TargetStatus(target, selected=target in plan.targets)
    for it in plan.for_target(target):
        act = plan.action(it)
        if act in ("write", "remove"):
            st.changes += 1
        if it.cls in ("hand-edited", "foreign"):
            st.hand_edits += 1
        if it.cls == "conflict":
            st.conflicts += 1
    return st


def decided(plan: Plan) -> list[tuple[PlanItem, str]]:
    """The items whose outcome is the operator's choice, with the decision in force: every
    hand-edit, foreign value and conflict, and every change the operator chose to skip."""
    out = []
    for it in plan.items:
        d = plan.decision(it)
        if it.cls in ("hand-edited", "foreign", "conflict") or d != it.default_decision:
            out.append((it, d))
    return out


# ---- the session --------------------------------------------------------------------------------

@dataclass
class Session:
    """What the operator has chosen so far. Decisions survive a recomputed plan (by item id,
    while the choice is still valid for the item's new class)."""
    host: Host
    profile: str = engine.DEFAULT_PROFILE
    targets: list[str] | None = None
    decisions: dict[str, str] = field(default_factory=dict)
    #: per-run directive overrides passed to the core (see engine.build_plan's `overrides`)
    overrides: dict[str, Any] = field(default_factory=dict)
    #: per-target MCP enabled overrides: {"copilot": {"github": True}}
    mcp_enabled: dict[str, dict[str, bool]] = field(default_factory=dict)
    #: trust agentdeck's own hooks where the CLI gates hooks on trust (Codex)
    trust_hooks: bool = False

    def build_plan(self) -> Plan:
        kwargs: dict[str, Any] = {}
        if self.trust_hooks:
            kwargs["trust_hooks"] = True
        ov = self.core_overrides()
        if ov:
            kwargs["overrides"] = ov
        plan = engine.build_plan(self.host, self.profile, self.targets, **kwargs)
        self.reapply(plan)
        return plan

    def core_overrides(self) -> dict[str, Any]:
        ov: dict[str, Any] = dict(self.overrides)
        if any(self.mcp_enabled.values()):
            ov["mcp_enabled"] = {t: dict(v) for t, v in self.mcp_enabled.items() if v}
        return ov

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

    def set_mcp(self, target: str, server: str, enabled: bool) -> None:
        self.mcp_enabled.setdefault(target, {})[server] = enabled
