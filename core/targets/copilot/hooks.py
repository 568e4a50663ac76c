"""Copilot hook registration and hook trust.

Registration: `$COPILOT_HOME/hooks/agentdeck.json` (one "file" item, the whole file is ours):

    {"version": 1, "hooks": {"<event>": [{"type": "command",
                                          "bash": "<abs path>/agentdeck-hook.sh <event>",
                                          "timeoutSec": 30}]}}

one action per event, the events of docs/facts/copilot.md section 10 in Copilot's camelCase
spelling (or only those named in the profile's [hooks] events, canonical names such as
`pre_tool_use`). The action names the wrapper (`core.targets.wrapper`), never the handler, so it
is byte-stable when the handler changes. Timeout key `timeoutSec` (docs/facts/copilot.md:
`timeoutSeconds` is silently ignored).
Nothing is ever written into settings.json's inline `hooks` key.

Trust: Copilot's settings.json `disabledHooks` lists content-hash keys
(`core.targets.copilot.facts.copilot_disable_key`). Each of our hooks is `active` or
`disabled-by-operator`; when this apply changes a registered action whose current key the
operator disabled, the new action has a new key and the hook silently comes back -- the hooks
item carries a warning saying so.

Other hook sources are reported (never changed): an inline `hooks` key in settings.json (both
fire: every hook twice if they duplicate ours), other files in $COPILOT_HOME/hooks, repo hooks
(`.github/hooks/*.json`, and Claude-format hooks in `.claude/settings*.json`) in each folder
Copilot trusts (config.json `trustedFolders`, the only thing read from that file), and admin policy
hooks in /etc/github-copilot/policy.d (root-owned; disableAllHooks cannot turn them off).
"""
from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...host import Host
from ...model import Profile

if TYPE_CHECKING:  # pragma: no cover
    from ...disk import DiskView
from .. import wrapper as wrapper_mod
from ..hook_events import disable_all_effect
from ..output import HookEventInfo, HookSourceInfo, HooksInfo
from . import SPEC

HOOKS_FILE = "agentdeck.json"
WRAPPER_NAME = "agentdeck-hook.sh"
POLICY_DIR = Path("/etc/github-copilot/policy.d")


def _facts():
    from . import facts
    return facts


def registered_events(profile: Profile) -> tuple[list[str], list[str]]:
    """(Copilot event names to register, warnings). All of the reference's 12 when the profile
    names no events; otherwise the named canonical events that Copilot accepts in a hook file."""
    facts = _facts()
    default = list(facts.COPILOT.register_events)
    if profile.hooks.events is None:
        return default, []
    out, warnings = [], []
    for canon in profile.hooks.events:
        try:
            ev = facts.COPILOT.event_name(canon)
        except KeyError:
            ev = None
        if ev is None or ev not in facts.COPILOT.hook_events:
            warnings.append(f"[hooks] events: {canon!r} has no Copilot hook event; not registered")
            continue
        if ev not in out:
            out.append(ev)
    # registration order follows the reference list, then any extra accepted events
    order = {e: i for i, e in enumerate(default)}
    out.sort(key=lambda e: (order.get(e, len(order)), e))
    return out, warnings


def action_for(wrapper_path: Path, event: str, timeout: int) -> dict:
    return {"type": "command", "bash": f"{shlex.quote(str(wrapper_path))} {event}",
            "timeoutSec": int(timeout)}


def render_hooks_file(actions: dict[str, dict]) -> str:
    obj = {"version": 1, "hooks": {ev: [act] for ev, act in actions.items()}}
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def _current_actions(view: "DiskView", path: Path) -> dict[str, list]:
    """The actions registered in our hooks file on disk now (tolerant: a broken file is simply
    'nothing registered', the file item itself shows the difference)."""
    ld = view.load(path, "json")
    obj = ld.data if ld.ok else None
    hooks = obj.get("hooks") if isinstance(obj, dict) else None
    if not isinstance(hooks, dict):
        return {}
    return {k: v for k, v in hooks.items() if isinstance(v, list)}


@dataclass
class HookPlan:
    """Copilot's wrapper and hooks file as the plan wants them, and what is there."""
    wrapper_text: str | None = None
    hooks_text: str | None = None
    item_warnings: list[str] = field(default_factory=list)     # on the hooks file item
    notices: list[str] = field(default_factory=list)           # target-level warnings
    info: HooksInfo = field(default_factory=lambda: HooksInfo(file="", wrapper="", handler=None))


def plan_hooks(profile: Profile, view: "DiskView", settings_data: dict | None) -> HookPlan:
    host = view.host
    facts = _facts()
    home = SPEC.home(host)
    wrapper_path = home / WRAPPER_NAME
    hooks_path = home / "hooks" / HOOKS_FILE
    hp = HookPlan()
    disabled = settings_data.get("disabledHooks") if isinstance(settings_data, dict) else None
    disabled_set = {k for k in disabled if isinstance(k, str)} if isinstance(disabled, list) else set()
    disable_all = settings_data.get("disableAllHooks") if isinstance(settings_data, dict) else None
    hp.info = HooksInfo(
        file=str(hooks_path), wrapper=str(wrapper_path), handler=profile.hooks.command,
        timeout=profile.hooks.timeout,
        byte_stable=("the registered action names the wrapper, not the handler: changing the "
                     "handler leaves every action and its disable key unchanged"),
        disable_all_on_disk=disable_all,
        disable_all_stops=facts.COPILOT.disable_all_stops_user_hooks,
        disable_all_effect=disable_all_effect("Copilot CLI",
                                              facts.COPILOT.disable_all_stops_user_hooks,
                                              facts.COPILOT.verified_versions[1]),
        other_sources=tuple(other_hook_sources(view, settings_data)))
    if not profile.hooks.command:
        hp.notices.append("the profile names no hook handler ([hooks] command); no hooks are registered")
        return hp
    handler = wrapper_mod.resolve_handler(host, profile.hooks.command, wrapper_path,
                                          read=view.text)
    hp.info.handler_path = handler.resolved
    hp.notices.extend(handler.warnings)
    if not handler.argv:
        return hp
    events, warns = registered_events(profile)
    hp.notices.extend(warns)
    if not events:
        hp.notices.append("no hook events left to register")
        return hp
    hp.wrapper_text = wrapper_mod.render_wrapper("copilot", handler, host.state_dir)
    current = _current_actions(view, hooks_path)
    actions: dict[str, dict] = {}
    for ev in events:
        act = action_for(wrapper_path, ev, profile.hooks.timeout)
        actions[ev] = act
        key = facts.copilot_disable_key(ev, act)
        old = current.get(ev) or []
        old_keys = [facts.copilot_disable_key(ev, a) for a in old if isinstance(a, dict)]
        changes = bool(old) and old != [act]
        old_disabled = [k for k in old_keys if k in disabled_set and k != key]
        reenables = changes and bool(old_disabled)
        if reenables:
            hp.item_warnings.append(
                f"this change re-enables the hook you disabled ({ev}): its registered action "
                "changes, so its disable key in settings.json disabledHooks no longer matches")
        hp.info.events += (HookEventInfo(
            event=ev, entry=act, command=act["bash"], timeout=act["timeoutSec"],
            disable_key=key,
            state="disabled-by-operator" if key in disabled_set else "active",
            registered_now=bool(old),
            changes_key=changes and key not in old_keys,
            reenables_disabled=reenables,
            previous_disable_keys=tuple(old_keys) if changes else ()),)
    hp.hooks_text = render_hooks_file(actions)
    if disable_all is True:
        hp.notices.append(f"settings.json has disableAllHooks: true: {hp.info.disable_all_effect} "
                          "(agentdeck pins it to false; decide on that item)")
    return hp


def _hook_events_of(obj: Any) -> tuple[str, ...]:
    hooks = obj.get("hooks") if isinstance(obj, dict) else None
    return tuple(sorted(hooks)) if isinstance(hooks, dict) else ()


def _json_quiet(view: "DiskView", path: Path) -> Any:
    ld = view.load(path, "jsonc")
    if not ld.exists and ld.error is None:
        return None
    return ld.data if ld.ok else {"__unreadable__": True}


def trusted_folders(view: "DiskView") -> list[str]:
    """config.json `trustedFolders` (the only thing agentdeck ever reads from that file)."""
    data = _json_quiet(view, SPEC.home(view.host) / "config.json")
    tf = data.get("trustedFolders") if isinstance(data, dict) else None
    return [t for t in tf if isinstance(t, str)] if isinstance(tf, list) else []


def other_hook_sources(view: "DiskView", settings_data: dict | None) -> list[HookSourceInfo]:
    host = view.host
    out: list[HookSourceInfo] = []
    home = SPEC.home(host)
    if isinstance(settings_data, dict) and "hooks" in settings_data:
        out.append(HookSourceInfo(kind="inline-settings", path=str(home / "settings.json"),
                    events=_hook_events_of(settings_data),
                    note="inline settings.json hooks run in addition to hooks/*.json: a hook "
                         "defined in both fires twice"))
    for fn in host.listdir(home / "hooks"):
        if fn.endswith(".json") and fn != HOOKS_FILE:
            p = home / "hooks" / fn
            data = _json_quiet(view, p)
            out.append(HookSourceInfo(kind="user-hooks-file", path=str(p), events=_hook_events_of(data),
                        note="another user hook file; loaded alongside agentdeck's"))
    for folder in trusted_folders(view):
        root = Path(folder)
        for fn in host.listdir(root / ".github" / "hooks"):
            if fn.endswith(".json"):
                p = root / ".github" / "hooks" / fn
                out.append(HookSourceInfo(kind="repo-hooks", path=str(p),
                            events=_hook_events_of(_json_quiet(view, p)),
                            note="repo hooks of a trusted folder; they run in sessions there"))
        for fn in ("settings.json", "settings.local.json"):
            p = root / ".claude" / fn
            if view.state(p).exists:
                ev = _hook_events_of(_json_quiet(view, p))
                if ev:
                    out.append(HookSourceInfo(kind="repo-claude-hooks", path=str(p), events=ev,
                                note="Claude-format hooks of a trusted repo; Copilot loads them too"))
    for fn in host.listdir(POLICY_DIR):
        if fn.endswith(".json"):
            p = POLICY_DIR / fn
            out.append(HookSourceInfo(kind="policy", path=str(p),
                        events=_hook_events_of(_json_quiet(view, p)),
                        note="admin policy hooks: always run, disableAllHooks cannot turn them off"))
    return out
