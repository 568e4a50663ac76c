"""Codex hook registration and hook trust (docs/facts/codex.md, Codex 0.171.0).

Registration: `$CODEX_HOME/hooks.json`, one whole "file" item (the file is agentdeck's):

    {"description": "...",
     "hooks": {"PreToolUse": [{"hooks": [{"type": "command",
                                          "command": "<abs path>/agentdeck-hook.sh PreToolUse",
                                          "timeout": 30}]}],
               ...}}

- no `version` key (Codex rejects the whole file for it; only `description` and `hooks` are
  allowed at the top level);
- Claude-style matcher groups, one group with one handler per event and no matcher (it then
  applies to every tool);
- `timeout` in seconds (Codex ignores `timeoutSec` and would apply its 600 s default);
- event names mapped from the canonical vocabulary through core.targets.codex.facts; the events Codex
  lacks (post_tool_use_failure, notification, error) are skipped with an info line;
- the handler runs `<wrapper> <Event>` (agentdeck.core.targets.wrapper), so the registered command, and
  with it the trust hash, stays byte-stable when the profile's handler changes.

Trust: Codex runs a hook only when config.toml holds `[hooks.state."<key>"]` with a
`trusted_hash` equal to the hook's current hash. Both are computed by core.targets.codex.facts
(`codex_hook_state_key`, `codex_trusted_hash`, one hash per handler); the key names the hooks.json
path as Codex sees it, i.e. with CODEX_HOME's symlinks resolved (observed: Codex canonicalizes
CODEX_HOME). Each of our hooks is reported as `untrusted` (no trusted_hash), `trusted` (equal) or
`modified` (a trusted_hash for different content). Trusting is never silent: the codex adapter
adds trust items only when the operator asks (`apply --trust-hooks`, or the app's trust action),
and only for the hooks agentdeck itself registers; a trusted_hash is bound to the exact handler
content agentdeck writes, so it can never vouch for a hook someone else put at that key.
"""
from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...host import Host
from ...model import Profile
from ..hook_events import wanted_events
from ..output import HookEventInfo, HooksInfo, SkippedHookEvent
from . import SPEC
from ...wording import count_of

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence

    from ...disk import DiskView

HOOKS_FILE = "hooks.json"
WRAPPER_NAME = "agentdeck-hook.sh"
DESCRIPTION = ("Written by agentdeck: each hook runs agentdeck-hook.sh, which runs your profile's "
               "handler. Edit the agentdeck profile, not this file.")
TRUST_STATUSES = ("untrusted", "trusted", "modified")
#: observed on 0.171.0: hooks/list warns "clamping SessionEnd hook timeout to 3s" (Interrupt too)
#: and hashes the clamped value, so agentdeck writes the clamped value itself
EVENT_MAX_TIMEOUTS = {"SessionEnd": 3, "Interrupt": 3}


def max_timeout(event: str) -> int | None:
    facts = _facts().CODEX
    table = getattr(facts, "event_max_timeouts", None) or EVENT_MAX_TIMEOUTS
    return table.get(event)


def _facts():
    from . import facts as codex
    return codex


def handler_for(wrapper_path: Path, event: str, timeout: int) -> dict:
    cap = max_timeout(event)
    t = min(int(timeout), cap) if cap is not None else int(timeout)
    return {"type": "command", "command": f"{shlex.quote(str(wrapper_path))} {event}",
            "timeout": t}


def render_hooks_file(handlers: dict[str, dict]) -> str:
    obj = {"description": DESCRIPTION,
           "hooks": {ev: [{"hooks": [h]}] for ev, h in handlers.items()}}
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def source_path(host: Host) -> str:
    """hooks.json as Codex names it in trust keys: CODEX_HOME with its symlinks resolved."""
    return os.path.join(host.realpath(SPEC.home(host)), HOOKS_FILE)


def trust_status(current_hash: str, trusted_hash: Any) -> str:
    if not isinstance(trusted_hash, str) or not trusted_hash:
        return "untrusted"
    return "trusted" if trusted_hash == current_hash else "modified"


def hook_states(config: dict | None) -> dict[str, dict]:
    """config.toml `[hooks.state]`: key -> its table (trusted_hash, enabled)."""
    hooks = config.get("hooks") if isinstance(config, dict) else None
    state = hooks.get("state") if isinstance(hooks, dict) else None
    if not isinstance(state, dict):
        return {}
    return {k: v for k, v in state.items() if isinstance(v, dict)}


def inline_hook_events(config: dict | None) -> list[str]:
    """Events with `[[hooks.<Event>]]` in config.toml (a second hook source Codex also loads)."""
    hooks = config.get("hooks") if isinstance(config, dict) else None
    if not isinstance(hooks, dict):
        return []
    return sorted(k for k, v in hooks.items() if k != "state" and isinstance(v, list))


def _on_disk_handlers(view: "DiskView", path: Path) -> dict[str, dict]:
    """event -> the first handler of the first group in hooks.json on disk now (the hook at the
    key `:0:0`), for the trust status Codex would report today. Tolerant of a broken file."""
    ld = view.load(path, "json")
    obj = ld.data if ld.ok else None
    hooks = obj.get("hooks") if isinstance(obj, dict) else None
    out: dict[str, dict] = {}
    if not isinstance(hooks, dict):
        return out
    for ev, groups in hooks.items():
        try:
            g = groups[0]
            h = g["hooks"][0]
            if isinstance(h, dict) and isinstance(h.get("command"), str):
                out[ev] = {"handler": h, "matcher": g.get("matcher")}
        except (KeyError, IndexError, TypeError):
            continue
    return out


@dataclass
class CodexHook:
    canonical: str
    event: str
    handler: dict
    key: str
    hash: str
    trusted_hash_on_disk: str | None = None
    enabled_on_disk: bool | None = None
    status_now: str | None = None          # what Codex reports today for the hook at this key
    registered_now: bool = False            # hooks.json on disk has exactly this handler there

    def info(self, wants: str | None, recorded: str | None,
             removed: bool = False) -> HookEventInfo:
        """removed: agentdeck's recorded trust goes with this plan (the operator said no)."""
        after = wants if wants is not None else (None if removed else self.trusted_hash_on_disk)
        return HookEventInfo(
            event=self.event, canonical=self.canonical, entry=self.handler,
            command=self.handler["command"], timeout=self.handler["timeout"],
            key=self.key, hash=self.hash,
            trusted_hash_on_disk=self.trusted_hash_on_disk,
            trust=trust_status(self.hash, after),
            trust_now=self.status_now,
            enabled=self.enabled_on_disk is not False,
            registered_now=self.registered_now,
            will_trust=(wants is not None and wants == self.hash
                        and wants != self.trusted_hash_on_disk),
            trusted_by_agentdeck=recorded is not None)


@dataclass
class HookPlan:
    wrapper_text: str | None = None
    hooks_text: str | None = None
    hooks: list[CodexHook] = field(default_factory=list)
    lacking: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    info: HooksInfo = field(default_factory=lambda: HooksInfo(file="", wrapper="", handler=None))


def plan_hooks(profile: Profile, view: "DiskView", config: dict | None) -> HookPlan:
    host = view.host
    from .. import wrapper as wrapper_mod

    facts = _facts()
    home = SPEC.home(host)
    wrapper_path = home / WRAPPER_NAME
    hooks_path = home / HOOKS_FILE
    hp = HookPlan()
    hp.info = HooksInfo(
        file=str(hooks_path), wrapper=str(wrapper_path), config=str(home / "config.toml"),
        trust_source=source_path(host), handler=profile.hooks.command,
        timeout=profile.hooks.timeout,
        byte_stable=("the registered command names the wrapper, not the handler: changing the "
                     "handler leaves every hook and its trust hash unchanged"))
    if not profile.hooks.command:
        hp.warnings.append("the profile names no hook handler ([hooks] command); no hooks are registered")
        return hp
    handler = wrapper_mod.resolve_handler(host, profile.hooks.command, wrapper_path,
                                          read=view.text)
    hp.info.handler_path = handler.resolved
    hp.warnings.extend(handler.warnings)
    if not handler.argv:
        return hp
    events, lacking, warns = wanted_events(profile, dict(facts.CODEX.canonical_events))
    hp.lacking = lacking
    hp.warnings.extend(warns)
    hp.info.skipped = tuple(SkippedHookEvent(c, "Codex has no such hook event") for c in lacking)
    if not events:
        hp.warnings.append("no hook events left to register for Codex")
        return hp
    hp.wrapper_text = wrapper_mod.render_wrapper("codex", handler, host.state_dir)
    states = hook_states(config)
    on_disk = _on_disk_handlers(view, hooks_path)
    src = source_path(host)
    handlers: dict[str, dict] = {}
    for canon, ev in events:
        h = handler_for(wrapper_path, ev, profile.hooks.timeout)
        handlers[ev] = h
        key = facts.codex_hook_state_key(src, ev, 0, 0)
        digest = facts.codex_trusted_hash(ev, None, [h])
        st = states.get(key, {})
        th = st.get("trusted_hash") if isinstance(st.get("trusted_hash"), str) else None
        hook = CodexHook(canon, ev, h, key, digest, th,
                         st.get("enabled") if isinstance(st.get("enabled"), bool) else None)
        now = on_disk.get(ev)
        if now is not None:
            try:
                now_hash = facts.codex_trusted_hash(ev, now["matcher"], [now["handler"]])
            except (ValueError, KeyError, TypeError):
                now_hash = None
            if now_hash is not None:
                hook.status_now = trust_status(now_hash, th)
                hook.registered_now = now_hash == digest
        hp.hooks.append(hook)
    hp.hooks_text = render_hooks_file(handlers)
    capped = [ev for ev, h in handlers.items() if h["timeout"] < profile.hooks.timeout]
    if capped:
        what = ", ".join(f"{ev} timeout {handlers[ev]['timeout']} s" for ev in capped)
        hp.notes.append(f"{what}: Codex's maximum for that event (it would clamp a longer one "
                        "and warn)")
    return hp


def trust_summary(rows: "Sequence[HookEventInfo]") -> tuple[str, str]:
    """(level, one plan line) summing up the trust status Codex will report after this plan."""
    by: dict[str, list[str]] = {s: [] for s in TRUST_STATUSES}
    for r in rows:
        by[str(r.trust)].append(r.event)
    n = len(rows)
    if not n:
        return "info", ""
    newly = [r.event for r in rows if r.will_trust]
    if len(by["trusted"]) == n:
        if newly:
            return "info", (f"hook trust: this apply trusts {count_of(len(newly), 'agentdeck hook')} "
                            f"({', '.join(newly)}); then all {n} are trusted")
        return "info", f"hook trust: all {n} agentdeck hooks are trusted in config.toml"
    if len(by["untrusted"]) == n:
        return "info", (f"hook trust: Codex will not run agentdeck's {n} hooks until you trust them: "
                        "`agentdeck apply --trust-hooks` writes their content hashes into "
                        "config.toml")
    parts = []
    if by["untrusted"]:
        parts.append(f"{len(by['untrusted'])} untrusted ({', '.join(by['untrusted'])})")
    if by["modified"]:
        parts.append(f"{len(by['modified'])} modified since trusted ({', '.join(by['modified'])})")
    if by["trusted"]:
        parts.append(f"{len(by['trusted'])} trusted")
    return ("warning" if by["modified"] else "info",
            f"hook trust: {'; '.join(parts)}. Codex runs a hook only once config.toml trusts its "
            "exact content; to trust agentdeck's hooks run `agentdeck apply --trust-hooks`")
