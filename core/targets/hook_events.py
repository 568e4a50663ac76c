"""Which hook events a profile registers, in a target's own spelling (shared by every adapter)."""
from __future__ import annotations

from typing import Mapping

from ..facts.versions import CANONICAL_EVENTS
from ..model import Profile

#: the events agentdeck registers when the profile names none (canonical names)
DEFAULT_EVENTS = ("session_start", "session_end", "user_prompt_submit", "pre_tool_use",
                  "post_tool_use", "post_tool_use_failure", "stop", "subagent_start",
                  "subagent_stop", "pre_compact", "permission_request", "notification")


def wanted_events(profile: Profile, vocabulary: Mapping[str, str | None],
                  also: Mapping[str, tuple[str, ...]] | None = None
                  ) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """([(canonical, target event)], [canonical events the target lacks], [warnings]) for the
    profile's [hooks] events (or DEFAULT_EVENTS); `vocabulary` is the target's facts'
    canonical_events, `also` its also_events: each of those follows its canonical event's own
    (a profile that wants pre_tool_use gets every event the handler decides as a pre-tool call)."""
    names = list(DEFAULT_EVENTS) if profile.hooks.events is None else list(profile.hooks.events)
    out: list[tuple[str, str]] = []
    lacking: list[str] = []
    warnings: list[str] = []
    for canon in names:
        if canon not in CANONICAL_EVENTS:
            warnings.append(f"[hooks] events: {canon!r} is not an event agentdeck knows "
                            f"(known: {', '.join(CANONICAL_EVENTS)}); not registered")
            continue
        ev = vocabulary.get(canon)
        if ev is None:
            if canon not in lacking:
                lacking.append(canon)
            continue
        for e in (ev, *(also or {}).get(canon, ())):
            if all(e != seen for _, seen in out):
                out.append((canon, e))
    return out, lacking, warnings


def disable_all_effect(cli: str, stops: bool, version: str) -> str:
    """What ``disableAllHooks: true`` does to a CLI's user hooks, in the one wording the plan,
    the app and status use (the doctor says the same with its fix). ``stops``: the target's fact
    as observed for ``version`` (a health part's DISABLE_ALL_STOPS)."""
    if stops:
        return f"{cli} runs none of these hooks while it is true"
    return (f"{cli} {version} still runs these hooks (observed in a real turn): the setting does "
            "not switch them off")


def disable_all_pin_reason(cli: str, stops: bool, version: str) -> str:
    """Why agentdeck pins ``disableAllHooks`` to false (the plan item's reason), true to the CLI's
    observed fact for ``version`` (see disable_all_effect)."""
    if stops:
        return "agentdeck keeps this false: true would silently turn off every hook, ours included"
    return ("agentdeck keeps this false: the settings schema says true turns off every hook, ours "
            f"included, though {cli} {version} still runs them (observed in a real turn)")
