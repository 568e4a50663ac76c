"""Hooks inline in a settings.json, in Claude Code's nested schema (Claude Code, Qwen Code):

    {"hooks": {"<Event>": [{"hooks": [{"type": "command", "command": "<wrapper> <Event>",
                                       "timeout": <seconds>}]}, <the operator's groups>...]}}

Each event is a *member* item (core.desired.Desired.member): ONE element of the list at
("hooks", <Event>), the matcher group whose JSON contains the path of agentdeck's wrapper. The
three-state rule applies to that group alone: the operator's groups are never compared,
rewritten, reordered or removed; our group is appended on first install and replaced in place
later; the operator editing or deleting our group is a hand-edit (kept, reported, not re-added);
removing it takes out only our group, and the event key and `hooks` object only when that leaves
them empty. (A key item per event, or one for all of `hooks`, would make the operator's groups
part of agentdeck's value: their next group would be a conflict, and an uninstall restoring
"what was there before" would lose it.)

What it reports: `st.output.hooks`, a HooksInfo (core/targets/output.py) with one
HookEventInfo per event (`entry` the matcher group, `operator_groups` the operator's own groups
in that event, `also` for an also_events event of the facts) and the operator's own hooks in
the settings file as its other source.
"""
from __future__ import annotations

import shlex
from pathlib import Path
from typing import Callable

from ..desired import Desired, DesiredState
from ..disk import DiskView
from ..kinds.key import find_member
from ..model import Profile
from . import wrapper as wrapper_mod
from .hook_events import disable_all_effect, wanted_events
from .output import HookEventInfo, HookSourceInfo, HooksInfo, SkippedHookEvent
from ..wording import count_of, noun_for

WRAPPER_NAME = "agentdeck-hook.sh"


def hook_group(wrapper_path: Path, event: str, timeout: int) -> dict:
    return {"hooks": [{"type": "command", "command": f"{shlex.quote(str(wrapper_path))} {event}",
                       "timeout": int(timeout)}]}


def plan_settings_hooks(target: str, title: str, facts, profile: Profile, view: DiskView,
                        settings: dict | None, settings_path: Path, wrapper_path: Path,
                        st: DesiredState, add_policy: Callable[[], None],
                        fmt: str = "json",
                        group_of: Callable[[Path, str, int], dict] = hook_group) -> None:
    """Plan the wrapper and one member item per event into `st` (and its report,
    st.output.hooks). `facts`: the target's CliFacts; `add_policy`: adds the
    compiled policy next to the wrapper (called when the wrapper is wanted); `fmt`: how the
    settings file is read and edited ("json", or "jsonc" where the CLI allows comments);
    `group_of(wrapper, event, timeout in seconds)`: agentdeck's matcher group for one event
    (hook_group, unless the CLI wants more in it: Gemini CLI's name and milliseconds)."""

    host = view.host
    marker = str(wrapper_path)
    raw_hooks = (settings or {}).get("hooks")
    on_disk = raw_hooks if isinstance(raw_hooks, dict) else {}
    info = HooksInfo(
        file=str(settings_path), wrapper=str(wrapper_path), handler=profile.hooks.command,
        timeout=profile.hooks.timeout,
        byte_stable=("the registered command names the wrapper, not the handler: changing "
                     "the handler leaves every hook unchanged"),
        disable_all_on_disk=(settings or {}).get("disableAllHooks"),
        disable_all_stops=facts.disable_all_stops_user_hooks,
        disable_all_effect=disable_all_effect(title, facts.disable_all_stops_user_hooks,
                                              facts.verified_versions[1]))
    st.output.hooks = info
    # the operator's own hooks in settings.json (reported; never changed)
    theirs = {}
    for ev, groups in on_disk.items():
        if isinstance(groups, list):
            n = sum(1 for g in groups if find_member([g], marker)[0] < 0)
            if n:
                theirs[ev] = n
    info.other_sources = (HookSourceInfo(
        kind="operator-settings", path=str(settings_path), events=tuple(sorted(theirs)),
        note="your own hooks in settings.json; agentdeck adds its group next to them and "
             "never changes them"),) if theirs else ()
    if theirs:
        st.note(f"your own hooks in {host.display(settings_path)} "
                f"({', '.join(sorted(theirs))}) are kept; agentdeck's group goes next to them")
    if not profile.hooks.command:
        st.warn("the profile names no hook handler ([hooks] command); no hooks are registered")
        return
    handler = wrapper_mod.resolve_handler(host, profile.hooks.command, wrapper_path,
                                          read=view.text)
    info.handler_path = handler.resolved
    for w in handler.warnings:
        st.warn(w)
    if not handler.argv:
        return
    events, lacking, warns = wanted_events(profile, dict(facts.canonical_events),
                                           facts.also_events)
    for w in warns:
        st.warn(w)
    info.skipped = tuple(SkippedHookEvent(c, f"{title} has no such hook event")
                         for c in lacking)
    if lacking:
        st.note(f"{title} has no hook event for {', '.join(lacking)}; not registered")
    # an installed wrapper stays wanted while settings.json's hooks are unusable: removing
    # it because of the operator's typo would be a change the profile never asked for
    usable = raw_hooks is None or isinstance(raw_hooks, dict)
    if (usable and events) or view.present(wrapper_path):
        st.add(Desired(target, wrapper_path, "file",
                       wrapper_mod.render_wrapper(target, handler, host.state_dir),
                       mode=wrapper_mod.WRAPPER_MODE, label="hook wrapper", group="hooks",
                       reason=f"execs the profile's handler ({profile.hooks.command}) for "
                              "each event, so the registered hooks stay byte-stable"))
        add_policy()
    if raw_hooks is not None and not isinstance(raw_hooks, dict):
        st.warn(f"{host.display(settings_path)}: \"hooks\" is not an object, so {title} "
                "ignores it; agentdeck registers no hooks until you fix or remove it")
        return
    bad = sorted(ev for ev, v in on_disk.items() if not isinstance(v, list))
    if bad:
        st.warn(f"{host.display(settings_path)}: hooks {', '.join(bad)} not a list of matcher "
                "groups; agentdeck leaves "
                f"{'it' if len(bad) == 1 else 'them'} alone and registers nothing there")
        events = [(c, e) for c, e in events if e not in bad]
    if not events:
        return
    for canon, ev in events:
        group = group_of(wrapper_path, ev, profile.hooks.timeout)
        _, now = find_member(on_disk.get(ev), marker)
        others = theirs.get(ev, 0)
        reason = f"calls the wrapper for {ev} (timeout {profile.hooks.timeout} s)"
        if others:
            reason += f"; next to your {count_of(others, 'group')} in that event, {noun_for(others, 'which stays as it is', 'which stay as they are')}"
        st.add(Desired(target, settings_path, "key", group, key=("hooks", ev), fmt=fmt,
                       member=marker, label=f"hook {ev}", group="hooks", reason=reason))
        h = group["hooks"][0]
        info.events += (HookEventInfo(
            event=ev, canonical=canon, entry=group, command=h["command"], timeout=h["timeout"],
            registered_now=now == group, operator_groups=others,
            # one of the facts' also_events: decided as `canonical`
            also=ev != facts.canonical_events.get(canon)),)
    if (settings or {}).get("disableAllHooks") is True:
        st.warn(f"settings.json has disableAllHooks: true: {info.disable_all_effect}")
