"""The Hooks pane's view of one target: the handler and wrapper, each registered event with its
disable key or trust state, disableAllHooks as found, the events not registered, and the other
hook sources found (other tools, the operator's own hooks)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..targets import registry
from ..targets.spec import DISABLE_ALL, TRUST_HOOKS
from .info import rows, section, strs, target_info

#: the trust states in which a CLI that gates hooks on trust does not run the hook
NOT_TRUSTED = ("untrusted", "modified")


@dataclass(frozen=True)
class HookEvent:
    event: str                      # the CLI's own name of the event
    command: str                    # the registered command
    timeout: int | float | None
    #: the key shown: the disable key (disabledHooks) or the trusted_hash that trusts it
    key: str = ""
    #: a CLI without trust: active, disabled-by-operator (None: not said)
    state: str | None = None
    #: registered exactly so on disk now (None: not said)
    registered_now: bool | None = None
    changes_key: bool = False       # this apply changes the action, and so its key
    reenables_disabled: bool = False  # ... and the old key was disabled: the hook comes back
    operator_groups: int = 0        # the operator's own groups in this event
    #: a CLI that gates hooks on trust: what it reports after this plan, and today
    trust: str | None = None
    trust_now: str | None = None
    enabled: bool = True            # the CLI's own per-hook switch
    will_trust: bool = False        # this plan writes the trust

    @property
    def not_trusted(self) -> bool:
        return self.trust in NOT_TRUSTED


@dataclass(frozen=True)
class SkippedEvent:
    canonical: str                  # agentdeck's name of an event the CLI does not have
    reason: str


@dataclass(frozen=True)
class HookSource:
    """Another place hooks are loaded from (the operator's, another tool's)."""
    kind: str
    path: str
    events: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class HooksView:
    #: the adapter described the target's hooks at all
    present: bool = False
    #: the handler line is shown (the adapter says which handler the profile names, if any)
    shows_handler: bool = False
    handler: str | None = None
    handler_path: str | None = None
    wrapper: str = ""
    file: str = ""
    byte_stable: str = ""
    #: disableAllHooks as found on disk (`disable_all_known`: the adapter says)
    disable_all_known: bool = False
    disable_all_on_disk: Any = None
    #: what `disableAllHooks: true` does to this CLI's hooks, in words (the adapter's, from the
    #: target's facts), and whether it stops them
    disable_all_effect: str = ""
    disable_all_stops: bool = False
    #: the CLI gates hooks on trust; `trust_requested`: this plan trusts agentdeck's hooks
    trust_gated: bool = False
    trust_requested: bool = False
    events: tuple[HookEvent, ...] = ()
    skipped: tuple[SkippedEvent, ...] = ()
    other_sources: tuple[HookSource, ...] = ()

    @property
    def untrusted(self) -> tuple[HookEvent, ...]:
        return tuple(e for e in self.events if e.not_trusted)


def _event(ev: dict) -> HookEvent:
    timeout = ev.get("timeout")
    return HookEvent(
        event=str(ev.get("event", "")), command=str(ev.get("command", "")),
        timeout=timeout if isinstance(timeout, (int, float)) else None,
        key=str(ev.get("disable_key") or ev.get("hash") or ""),
        state=str(ev["state"]) if ev.get("state") else None,
        registered_now=bool(ev["registered_now"]) if "registered_now" in ev else None,
        changes_key=bool(ev.get("changes_key")),
        reenables_disabled=bool(ev.get("reenables_disabled")),
        operator_groups=int(ev.get("operator_groups") or 0),
        trust=str(ev["trust"]) if ev.get("trust") else None,
        trust_now=str(ev["trust_now"]) if ev.get("trust_now") else None,
        enabled=ev.get("enabled") is not False,
        will_trust=bool(ev.get("will_trust")))


def sources(value: Any) -> tuple[HookSource, ...]:
    return tuple(HookSource(kind=str(s.get("kind", "")), path=str(s.get("path", "")),
                            events=strs(s.get("events")), note=str(s.get("note") or ""))
                 for s in rows(value))


def _can(target: str, capability: str) -> bool:
    """Whether the target (not a scope such as the repository) declares `capability`."""
    s = registry.BY_NAME.get(target)
    return s is not None and s.can(capability)


def of(plan: Any, target: str) -> HooksView:
    h = section(plan, target, "hooks")
    others = target_info(plan, target).get("other_hook_sources") or h.get("other_sources")
    handler = h.get("handler")
    return HooksView(
        present=bool(h), shows_handler="handler" in h,
        handler=str(handler) if handler else None,
        handler_path=str(h["handler_path"]) if h.get("handler_path") else None,
        wrapper=str(h.get("wrapper") or ""), file=str(h.get("file") or ""),
        byte_stable=str(h.get("byte_stable") or ""),
        disable_all_known=_can(target, DISABLE_ALL),
        disable_all_on_disk=h.get("disableAllHooks_on_disk"),
        disable_all_effect=str(h.get("disableAllHooks_effect") or ""),
        disable_all_stops=h.get("disableAllHooks_stops") is True,
        trust_gated=_can(target, TRUST_HOOKS), trust_requested=bool(h.get("trust_requested")),
        events=tuple(_event(e) for e in rows(h.get("events"))),
        skipped=tuple(SkippedEvent(str(s.get("canonical")), str(s.get("reason", "")))
                      for s in rows(h.get("skipped_events"))),
        other_sources=sources(others))
