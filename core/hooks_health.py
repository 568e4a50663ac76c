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

from dataclasses import asdict, dataclass
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

    def line(self) -> str:
        return f"{self.reason} (fix: {self.fix})"


def _disable_all_stops(target: str) -> bool:
    """Whether `disableAllHooks: true` really stops this CLI's user hooks (facts as observed)."""
    if target == "claude":
        return True
    if target == "copilot":
        from .facts.copilot import COPILOT
        return COPILOT.disable_all_stops_user_hooks
    return False


def inert(plan, target: str) -> list[Inert]:
    """The reasons annotate() found for `target` (empty: every registered hook can run, or
    nothing is registered)."""
    info = plan.info.get(target) if isinstance(getattr(plan, "info", None), dict) else None
    rows = info.get(INFO_KEY) if isinstance(info, dict) else None
    return [Inert(**r) for r in rows] if isinstance(rows, list) else []


def state_text(plan, target: str) -> str:
    """"installed, hooks inert: <reason>; <reason>" (empty when the hooks can run)."""
    why = inert(plan, target)
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
        found = [asdict(r) for r in reasons(host, t, hooks, previous)]
        if found:          # absent when the hooks can run (plans and golden files stay as they were)
            info[INFO_KEY] = found


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
                         "`agentdeck apply` writes it again", events))
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
        # a hook this plan trusts (--trust-hooks) is not reported: applying the plan fixes it
        untrusted = [str(e.get("event")) for e in hooks.get("events") or []
                     if isinstance(e, dict) and e.get("registered_now")
                     and e.get("trust_now") not in ("trusted", "managed")
                     and not e.get("will_trust")]
        off = [str(e.get("event")) for e in hooks.get("events") or []
               if isinstance(e, dict) and e.get("registered_now") and e.get("enabled") is False]
        if untrusted:
            n, total = len(untrusted), len(events)
            which = (f"none of agentdeck's {total} hooks is trusted" if n == total else
                     f"{n} of agentdeck's {total} hooks are not trusted ({', '.join(untrusted)})")
            out.append(Inert("codex-untrusted", f"Codex skips untrusted hooks and {which}",
                             "`agentdeck apply --trust-hooks`", untrusted))
        if off:
            out.append(Inert("codex-disabled", f"{', '.join(off)} disabled in config.toml "
                                               "[hooks.state] (enabled = false)",
                             "remove enabled = false from those [hooks.state] entries", off))
    return out
