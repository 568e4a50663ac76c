"""Whether agentdeck's registered hooks can actually run: the one place that decides "in sync"
may be said.

A target whose files match the profile is not "in sync" when a hook it registers cannot run:
the wrapper or the handler it execs is missing or not executable, Codex has not trusted the hooks
(it skips untrusted hooks without a word), `disableAllHooks` is true, or the operator disabled
our hooks in Copilot's `disabledHooks`. `status`, the plan's summary and per-target headers, the
app's badges and onboarding's last step all read `inert(plan, target)` and say
"installed, hooks inert: <reason>" with the fix.

`annotate(host, plan)` runs once per plan (core.engine.build_plan), reads the installed wrappers
through the Host, and stores the result in plan.info[target]["hooks_inert"] (plain data, so the
JSON plan carries it too). It also makes a handler that cannot be found an error-level notice and
says in words when the resolved handler really changes ("handler: /old -> /new").
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from .desired import Notice
from .host import Host

INFO_KEY = "hooks_inert"


@dataclass
class Inert:
    """One reason the installed hooks of a target cannot run."""
    code: str          # handler-missing | wrapper-missing | codex-untrusted | disable-all | disabled-hooks
    reason: str        # what is wrong, for people ("the handler ... is not found")
    fix: str           # what to do about it
    events: list[str]  # the registered events it concerns (all of ours: every one)
    #: the plan items that fix it when the plan writes them all (the wrapper, agentdeck's hooks
    #: file, the trust items): after this plan (inert(plan, t)) the reason holds only while the
    #: plan's decisions do not write them; now (inert(plan, t, now=True), `status`) it holds
    unless: list[str] = field(default_factory=list)

    def line(self) -> str:
        return f"{self.reason} (fix: {self.fix})"


def _disable_all_stops(target: str) -> bool:
    """Whether `disableAllHooks: true` really stops this CLI's user hooks (facts as observed)."""
    if target == "claude":
        return True
    if target == "copilot":
        from .targets.copilot.facts import COPILOT
        return COPILOT.disable_all_stops_user_hooks
    return False


def inert(plan, target: str, now: bool = False) -> list[Inert]:
    """The reasons annotate() found for `target` (empty: every registered hook can run, or
    nothing is registered): as the home is after this plan (a reason the plan fixes is left
    out), or `now`, as it is before it (what `status` says)."""
    info = plan.info.get(target) if isinstance(getattr(plan, "info", None), dict) else None
    rows = info.get(INFO_KEY) if isinstance(info, dict) else None
    out = [Inert(**r) for r in rows] if isinstance(rows, list) else []
    if now:
        return out
    return [i for i in out if not (i.unless and all(_written(plan, u) for u in i.unless))]


def _written(plan, item_id: str) -> bool:
    for it in getattr(plan, "items", ()):
        if it.id == item_id:
            return plan.action(it) == "write"
    return False


def state_text(plan, target: str, now: bool = False) -> str:
    """"installed, hooks inert: <reason>; <reason>" (empty when the hooks can run)."""
    why = inert(plan, target, now)
    if not why:
        return ""
    return "installed, hooks inert: " + "; ".join(i.line() for i in why)


def summary_text(plan) -> str:
    """One sentence for a plan summary naming every inert target (empty when none)."""
    parts = [f"{t}: " + "; ".join(i.reason for i in inert(plan, t)) for t in plan.targets
             if inert(plan, t)]
    return ("Installed, hooks inert: " + " | ".join(parts) + ".") if parts else ""


# ---- computing ------------------------------------------------------------------------------------

def annotate(host: Host, plan, read=None) -> None:
    """Store each target's inert reasons in plan.info and fix the handler notices (see module)."""
    from .targets import wrapper

    for t in plan.targets:
        info = plan.info.get(t)
        hooks = info.get("hooks") if isinstance(info, dict) else None
        if not isinstance(hooks, dict):
            continue
        notices = plan.notices.setdefault(t, [])
        for n in notices:
            if n.level == "warning" and "cannot be found" in n.message \
                    and n.message.startswith("the hook handler "):
                n.level = "error"
        wpath = hooks.get("wrapper")
        previous = wrapper.installed_handler(host, Path(wpath), read) if wpath else None
        now = hooks.get("handler_path")
        if previous and now and previous != now:
            notices.append(Notice("info", f"handler: {previous} -> {now}", wpath))
        found = [asdict(r) for r in reasons(host, t, hooks, previous)
                 + not_registered(host, plan, t, hooks, read)]
        if found:          # absent when the hooks can run (plans and golden files stay as they were)
            info[INFO_KEY] = found


def not_registered(host: Host, plan, target: str, hooks: dict, read=None) -> list[Inert]:
    """agentdeck's hooks file is kept as another's (another tool's hooks there, agentihooks'
    `~/.codex/hooks.json`) and does not call agentdeck's wrapper: none of agentdeck's hooks
    run in that CLI until the operator takes it. The fix is that item, taken."""
    from .plan import KEPT_CLASSES

    hfile, wpath = hooks.get("file"), hooks.get("wrapper")
    if not hfile or not wpath:
        return []
    items = [i for i in plan.items if i.target == target and i.type.whole_file
             and i.path == str(hfile) and i.wanted and i.cls in KEPT_CLASSES]
    if not items:
        return []
    it = items[0]
    text = it.actual if isinstance(it.actual, str) else ""
    if str(wpath) in text:       # an edited copy of ours: it still calls the wrapper
        return []
    whose = ""
    for f in (plan.info.get(target) or {}).get("found") or []:
        if any(p.get("path") == str(hfile) for p in f.get("parts") or []):
            if f.get("tool"):
                from .targets.takeover import possessive
                whose = possessive(str(f["tool"])) + " "
    shown = host.display(hfile)
    events = [str(e.get("event")) for e in hooks.get("events") or [] if isinstance(e, dict)]
    return [Inert("not-registered",
                  f"agentdeck's hooks are not registered: {shown} holds {whose or 'other '}hooks, "
                  "kept", f"`agentdeck apply --take {shown}`", events, unless=[it.id])]


def _installed(target: str, hooks: dict) -> list[str]:
    """The events of ours that are registered on disk now."""
    return [str(e.get("event")) for e in hooks.get("events") or []
            if isinstance(e, dict) and e.get("registered_now")]


def reasons(host: Host, target: str, hooks: dict, handler_on_disk: str | None) -> list[Inert]:
    """Why the hooks of `target` registered on disk now cannot run (from the adapter's hooks
    info and the installed wrapper)."""
    events = _installed(target, hooks)
    if not events:
        return []
    out: list[Inert] = []
    wpath = hooks.get("wrapper")
    w = Path(wpath) if wpath else None
    if w is not None and not host.is_executable(w):
        what = "is missing" if not host.exists(w) else "is not executable"
        out.append(Inert("wrapper-missing", f"the hook wrapper {host.display(w)} {what}",
                         "`agentdeck apply` writes it again", events, unless=[str(w)]))
    elif handler_on_disk is not None:
        p = Path(handler_on_disk)
        if not p.is_absolute():
            found = host.which(handler_on_disk)
            ok = found is not None
        else:
            ok = host.is_executable(p)
        if not ok:
            what = ("is not executable" if p.is_absolute() and host.exists(p) else "is not found")
            out.append(Inert(
                "handler-missing", f"the hook handler {handler_on_disk} {what}",
                "install agentdeck (its agentdeck-hook comes with it) and run `agentdeck apply` "
                "with that agentdeck, or set [hooks] command to the handler's absolute path",
                events))
    if _disable_all_stops(target) and hooks.get("disableAllHooks_on_disk") is True:
        f = host.display((host.copilot_home if target == "copilot" else host.claude_home)
                         / "settings.json")
        fix = ("`agentdeck apply --take disableAllHooks` (or set it to false yourself)"
               if target == "copilot" else f"set disableAllHooks to false in {f}")
        out.append(Inert("disable-all", f"disableAllHooks is true in {f}", fix, events))
    if target == "copilot":
        off = [str(e.get("event")) for e in hooks.get("events") or []
               if isinstance(e, dict) and e.get("registered_now")
               and e.get("state") == "disabled-by-operator"]
        if off:
            out.append(Inert(
                "disabled-hooks", f"{', '.join(off)} disabled in "
                                  f"{host.display(host.copilot_home / 'settings.json')} "
                                  "disabledHooks",
                "remove their keys from disabledHooks (the Hooks tab shows each key), or "
                "re-enable them in Copilot's /hooks", off))
    if target == "codex":
        # a hook this plan trusts is fixed by it: its trust item is in `unless`
        rows_ = [e for e in hooks.get("events") or [] if isinstance(e, dict)
                 and e.get("registered_now") and e.get("trust_now") not in ("trusted", "managed")]
        untrusted = [str(e.get("event")) for e in rows_]
        fixes = [_trust_item_id(hooks, e) for e in rows_ if e.get("will_trust")]
        off = [str(e.get("event")) for e in hooks.get("events") or []
               if isinstance(e, dict) and e.get("registered_now") and e.get("enabled") is False]
        if untrusted:
            n, total = len(untrusted), len(events)
            which = (f"none of agentdeck's {total} hooks is trusted" if n == total else
                     f"{n} of agentdeck's {total} hooks are not trusted ({', '.join(untrusted)})")
            out.append(Inert("codex-untrusted", f"Codex skips untrusted hooks and {which}",
                             "`agentdeck apply --trust-hooks`", untrusted,
                             unless=fixes if len(fixes) == len(rows_) else []))
        if off:
            out.append(Inert("codex-disabled", f"{', '.join(off)} disabled in config.toml "
                                               "[hooks.state] (enabled = false)",
                             "remove enabled = false from those [hooks.state] entries", off))
    return out


def _trust_item_id(hooks: dict, event: dict) -> str:
    """The plan item id of the trust item (config.toml [hooks.state."<key>"] trusted_hash)."""
    from .manifest import entry_id
    return entry_id(str(hooks.get("config")), "key",
                    ("hooks", "state", str(event.get("key")), "trusted_hash"))
