"""Whether agentdeck's registered hooks can actually run: the one place that decides "in sync"
may be said.

A target whose files match the profile is not "in sync" when a hook it registers cannot run:
the wrapper or the handler it execs is missing or not executable, agentdeck's hooks file is kept
as another tool's, or -- the target's own reasons, its health part's
(core/targets/<name>/health.py; interface core/targets/parts/health.py) -- `disableAllHooks` is
true where that stops the CLI's hooks, the operator disabled our hooks, or the CLI has not
trusted them (and skips untrusted hooks without a word). `status`, the plan's summary and per-target headers, the
app's badges and onboarding's last step all read `inert(plan, target)` and say
"installed, hooks inert: <reason>" with the fix.

`annotate(host, plan)` runs once per plan (core.engine.build_plan), reads the installed wrappers
through the Host, and stores the result in the target's output,
plan.output[target].hooks_inert (typed: core/targets/output.py). It also makes a handler that
cannot be found an error-level notice and says in words when the resolved handler really
changes ("handler: /old -> /new").
"""
from __future__ import annotations

from pathlib import Path

from .desired import Notice
from .host import Host
from .inert import Inert, inert, state_text, summary_text
from .targets.output import HooksInfo, hooks_of
from .wording import noun_for

__all__ = ["Inert", "annotate", "inert", "not_registered", "reasons", "removed",
           "state_text", "summary_text"]


def _part(target: str):
    """The target's health part (core/targets/<name>/health.py), or None."""
    from .targets import registry

    if target not in registry.BY_NAME or not registry.has_part(target, "health"):
        return None
    return registry.part(target, "health")


def _disable_all_stops(target: str) -> bool:
    """Whether `disableAllHooks: true` really stops this CLI's user hooks (its health part says,
    from the facts as observed)."""
    p = _part(target)
    return bool(getattr(p, "DISABLE_ALL_STOPS", False)) if p is not None else False


# ---- computing ------------------------------------------------------------------------------------

def annotate(host: Host, plan, read=None) -> None:
    """Store each target's inert reasons in its output (hooks_inert) and fix the handler
    notices (see module)."""
    from .targets import wrapper

    for t in plan.targets:
        hooks = hooks_of(plan.output, t)
        if hooks is None:
            continue
        notices = plan.notices.setdefault(t, [])
        for n in notices:
            if n.level == "warning" and "cannot be found" in n.message \
                    and n.message.startswith("the hook handler "):
                n.level = "error"
        wpath = hooks.wrapper
        previous = wrapper.installed_handler(host, Path(wpath), read) if wpath else None
        now = hooks.handler_path
        if previous and now and previous != now:
            notices.append(Notice("info", f"handler: {previous} -> {now}", wpath))
        found = (reasons(host, t, hooks, previous) + not_registered(host, plan, t, hooks, read)
                 + removed(host, plan, t, hooks))
        if found:          # None when the hooks can run
            plan.output[t].hooks_inert = tuple(found)


def not_registered(host: Host, plan, target: str, hooks: HooksInfo,
                   read=None) -> list[Inert]:
    """agentdeck's hooks file is kept as another's (another tool's hooks there, agentihooks'
    `~/.codex/hooks.json`) and does not call agentdeck's wrapper: none of agentdeck's hooks
    run in that CLI until the operator takes it. The fix is that item, taken."""
    from .plan import KEPT_CLASSES

    hfile, wpath = hooks.file, hooks.wrapper
    if not hfile or not wpath:
        return []
    items = [i for i in plan.items if i.target == target and i.type.whole_file
             and i.path == str(hfile) and i.wanted and i.cls in KEPT_CLASSES]
    if not items:
        return []
    it = items[0]
    if not isinstance(it.actual, str):      # the file is gone: removed() says so
        return []
    text = it.actual
    if str(wpath) in text:       # an edited copy of ours: it still calls the wrapper
        return []
    whose = ""
    for f in plan.output[target].found if target in plan.output else ():
        if any(p.path == str(hfile) for p in f.parts):
            if f.tool:
                from .targets.takeover import possessive
                whose = possessive(f.tool) + " "
    shown = host.display(hfile)
    events = [e.event for e in hooks.events]
    return [Inert("not-registered",
                  f"agentdeck's hooks are not registered: {shown} holds {whose or 'other '}hooks, "
                  "kept", f"`agentdeck apply --take {shown}`", events, unless=[it.id])]


def removed(host: Host, plan, target: str, hooks: HooksInfo) -> list[Inert]:
    """agentdeck's hooks that are gone from the CLI's settings since the last apply and kept
    as the operator's edit (a plan keeps what was deleted by hand): they do not run, and when
    the pre-tool hook is among them the CLI's tool calls are not guarded. Taking the items
    (`apply --take`) registers them again."""
    from .plan import KEPT_CLASSES   # local: plan imports this module (inert reasons)
    from .targets import dialects, registry   # local: as in _part, once per plan

    hfile = hooks.file
    gone = {e.event: e for e in hooks.events if not e.registered_now}
    if not hfile or not gone:
        return []
    items = [i for i in plan.items if i.target == target and i.path == str(hfile) and i.wanted
             and i.cls in KEPT_CLASSES and (
                 (i.type.whole_file and not isinstance(i.actual, str))     # the file deleted
                 or any(str(k) in gone for k in i.key))]                   # its entries deleted
    if not items:
        return []
    events = list(gone) if any(i.type.whole_file for i in items) else \
        [str(k) for i in items for k in i.key if str(k) in gone]
    speaker = dialects.speaker(target)
    pre = str(speaker.default.events[0]) if speaker is not None else None   # its pre-tool event
    guard = any(gone[e].canonical == "pre_tool_use" or e == pre for e in events)
    takes = " ".join(f"--take '{i.label}'" for i in items)
    return [Inert("removed",
                  f"agentdeck's {', '.join(events)} {noun_for(len(events), 'hook')} "
                  f"{'was' if len(events) == 1 else 'were'} removed from "
                  f"{host.display(hfile)} since the last apply (kept as your edit)"
                  + (f"; {registry.title(target)}'s tool calls are not guarded" if guard else ""),
                  f"`agentdeck apply --target {target} {takes}`", events,
                  unless=[i.id for i in items])]


def _installed(target: str, hooks: HooksInfo) -> list[str]:
    """The events of ours that are registered on disk now."""
    return [e.event for e in hooks.registered()]


def reasons(host: Host, target: str, hooks: HooksInfo,
            handler_on_disk: str | None) -> list[Inert]:
    """Why the hooks of `target` registered on disk now cannot run (from the adapter's hooks
    info and the installed wrapper)."""
    events = _installed(target, hooks)
    if not events:
        return []
    out: list[Inert] = []
    wpath = hooks.wrapper
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
    p = _part(target)
    if _disable_all_stops(target) and hooks.disable_all_on_disk is True \
            and p is not None and hasattr(p, "disable_all"):
        where, fix = p.disable_all(host)
        out.append(Inert("disable-all", f"disableAllHooks is true in {where}", fix, events))
    if p is not None and hasattr(p, "reasons"):      # the CLI's own: disabled, not trusted
        out += p.reasons(host, hooks, events)
    return out + layer_switches(host, target, events)


def layer_switches(host: Host, target: str, events: list[str]) -> list[Inert]:
    """A settings or .env file the CLI reads (its home's, or the working folder's and its
    parents') that switches agentdeck's hooks off or redirects them (core/targets/layers.py)."""
    from .targets.layers import switches  # local: the layers load their targets' policy parts

    return [Inert("layer-switch", f"{host.display(path)} sets {', '.join(found)}: {layer.what}",
                  "remove it from that file", events)
            for path, layer, found in switches(host, target)]
