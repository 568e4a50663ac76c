"""The Hooks pane's view of one target: the handler and wrapper, each registered event with its
disable key or trust state, disableAllHooks as found, the events not registered, and the other
hook sources found (other tools, the operator's own hooks)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..targets import registry
from ..targets.spec import DISABLE_ALL, TRUST_HOOKS
from ..targets.output import HookEventInfo, HookSourceInfo
from .info import output

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


def _event(ev: HookEventInfo) -> HookEvent:
    return HookEvent(
        event=ev.event, command=ev.command, timeout=ev.timeout,
        key=ev.disable_key or ev.hash, state=ev.state or None,
        registered_now=ev.registered_now, changes_key=ev.changes_key,
        reenables_disabled=ev.reenables_disabled, operator_groups=ev.operator_groups,
        trust=ev.trust or None, trust_now=ev.trust_now or None, enabled=ev.enabled,
        will_trust=ev.will_trust)


def sources(found: tuple[HookSourceInfo, ...]) -> tuple[HookSource, ...]:
    return tuple(HookSource(kind=s.kind, path=s.path, events=s.events, note=s.note)
                 for s in found)


def _can(target: str, capability: str) -> bool:
    """Whether the target (not a scope such as the repository) declares `capability`."""
    s = registry.BY_NAME.get(target)
    return s is not None and s.can(capability)


def of(plan: Any, target: str) -> HooksView:
    h = output(plan, target).hooks
    if h is None:
        return HooksView()
    return HooksView(
        present=True, shows_handler=True, handler=h.handler or None,
        handler_path=h.handler_path or None, wrapper=h.wrapper, file=h.file,
        byte_stable=h.byte_stable,
        disable_all_known=_can(target, DISABLE_ALL),
        disable_all_on_disk=h.disable_all_on_disk,
        disable_all_effect=h.disable_all_effect,
        disable_all_stops=h.disable_all_stops,
        trust_gated=_can(target, TRUST_HOOKS), trust_requested=h.trust_requested,
        events=tuple(_event(e) for e in h.events),
        skipped=tuple(SkippedEvent(s.canonical, s.reason) for s in h.skipped),
        other_sources=sources(h.other_sources))
