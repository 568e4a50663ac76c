"""The Hooks pane: each event's registered action, timeout, disable key / trust status, and what
apply would change about it; disableAllHooks; other hook sources. Renders `plan.info[target]
["hooks"]` (see the target adapters) and the plan's hook items; keys that are missing are
simply not shown."""
from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from core.host import Host
from core.plan import Plan, PlanItem

from ..session import DECISION_LABEL, home_relative, show_value, symbol
from .style import MARK_STYLE


def _hook_items(plan: Plan, target: str) -> list[PlanItem]:
    return [i for i in plan.for_target(target) if i.group == "hooks"]


def _disable_all_item(plan: Plan, target: str) -> PlanItem | None:
    for i in plan.for_target(target):
        if i.kind == "key" and i.key and i.key[-1] == "disableAllHooks":
            return i
    return None


def _short_key(k: Any) -> str:
    s = str(k or "")
    return s if len(s) <= 10 else s[:9] + "…"


def render_hooks(host: Host, plan: Plan, target: str) -> Group:
    info = (plan.info.get(target) or {})
    hooks = info.get("hooks") or {}
    parts: list = []
    items = _hook_items(plan, target)
    if not hooks and not items:
        parts.append(Text("This target registers no hooks in this build.", style="dim"))
    head = Text()
    if hooks.get("handler") is not None or "handler" in hooks:
        head.append("handler  ", style="bold")
        head.append(str(hooks.get("handler") or "(none: the profile names no [hooks] command)"))
        hp = hooks.get("handler_path")
        if hooks.get("handler"):
            head.append(f"  ({home_relative(host, hp)})" if hp else "  (not found on PATH now)",
                        style="dim" if hp else "dark_orange3")
        head.append("\n")
    if hooks.get("wrapper"):
        head.append("wrapper  ", style="bold")
        head.append(host.display(hooks["wrapper"]))
        head.append("\n")
    if hooks.get("file"):
        head.append("file     ", style="bold")
        head.append(host.display(hooks["file"]))
        head.append("\n")
    if hooks.get("byte_stable"):
        head.append(str(hooks["byte_stable"]).capitalize(), style="dim")
        head.append("\n")
    if head:
        parts.append(head)

    # what apply does to the registration itself
    for it in items:
        sym = symbol(plan, it)
        t = Text()
        t.append(f"{sym} ", style=MARK_STYLE.get(sym, ""))
        t.append(host.display(it.path))
        act = plan.action(it)
        t.append(f"  apply will {'change nothing' if act == 'none' else act}", style="dim")
        if it.cls in ("hand-edited", "foreign", "conflict"):
            t.append(f"  ({it.cls}: {DECISION_LABEL.get(plan.decision(it))})", style="magenta3")
        for w in it.warnings:
            t.append("\n  ")
            t.append("warning: ", style="bold red3" if "re-enable" in w else "bold dark_orange3")
            t.append(home_relative(host, w), style="bold" if "re-enable" in w else "")
        parts.append(t)

    # disableAllHooks: one line near the top, it switches every hook off
    dah = _disable_all_item(plan, target)
    if dah is not None or "disableAllHooks_on_disk" in hooks:
        t = Text()
        t.append("disableAllHooks  ", style="bold")
        on_disk = dah.actual if dah is not None else hooks.get("disableAllHooks_on_disk")
        t.append(f"on disk {show_value(host, on_disk)}")
        if dah is not None:
            t.append(f", pinned to {show_value(host, dah.desired)} by agentdeck")
            d = plan.decision(dah)
            act = plan.action(dah)
            if act == "write":
                t.append(" (apply writes it)", style="dim")
            elif dah.cls == "conflict" and dah.id not in plan.decisions:
                t.append(" (conflict: decide on the Keys tab)", style="bold red3")
            elif dah.cls in ("hand-edited", "foreign", "conflict"):
                t.append(f" ({dah.cls}: {DECISION_LABEL.get(d)})", style="magenta3")
        if on_disk is True:
            t.append("\nEvery hook is off while it is true.", style="bold red3")
        parts.append(t)

    events = hooks.get("events") or []
    wrapper = str(hooks.get("wrapper") or "")
    if events:
        tb = Table(expand=True, box=None, header_style="bold", pad_edge=False)
        tb.add_column("event", no_wrap=True)
        tb.add_column("action", no_wrap=True, overflow="ellipsis", ratio=2)
        tb.add_column("timeout", no_wrap=True)
        tb.add_column("disable key", no_wrap=True)
        tb.add_column("state", no_wrap=True)
        tb.add_column("apply", no_wrap=True, overflow="ellipsis", ratio=1)
        for ev in events:
            state = str(ev.get("state") or ev.get("trust") or "")
            key = ev.get("disable_key") or ev.get("trust_hash") or ""
            command = str(ev.get("command", ""))
            if wrapper and wrapper in command:
                command = command.replace(wrapper, wrapper.rsplit("/", 1)[-1])
            if ev.get("reenables_disabled"):
                change = Text("re-enables your disabled hook", style="bold reverse red3")
            elif not ev.get("registered_now", True):
                change = Text("registers it", style="green3")
            elif ev.get("changes_key"):
                change = Text("new action, new key", style="dark_orange3")
            else:
                change = Text("no change", style="dim")
            tb.add_row(str(ev.get("event", "")), home_relative(host, command),
                       f"{ev.get('timeout', '')}s" if ev.get("timeout") is not None else "",
                       Text(_short_key(key), style="dim"),
                       Text(state, style="dark_orange3" if "disabled" in state
                            or "untrusted" in state else "green3"),
                       change)
        parts.append(Text(""))
        parts.append(tb)

    # Codex-style trust decisions (when a target reports them)
    trust = hooks.get("trust") or info.get("trust")
    if isinstance(trust, list) and trust:
        tb = Table(title="Hook trust", title_justify="left", expand=True, box=None,
                   header_style="bold")
        tb.add_column("hook", overflow="fold")
        tb.add_column("status", no_wrap=True)
        tb.add_column("decision", no_wrap=True)
        for tr in trust:
            tb.add_row(home_relative(host, str(tr.get("hook") or tr.get("command") or "")),
                       str(tr.get("status", "")), str(tr.get("decision", "")))
        parts.append(Text(""))
        parts.append(tb)

    others = hooks.get("other_sources") or info.get("hook_sources") or []
    parts.append(Text("\nOther hook sources", style="bold"))
    if not others:
        parts.append(Text("none found", style="dim"))
    for src in others:
        t = Text("• ")
        t.append(host.display(str(src.get("path", ""))))
        evs = src.get("events") or []
        if evs:
            t.append(f"  ({', '.join(evs)})", style="dim")
        if src.get("note"):
            t.append(f"\n  {src['note']}", style="dim")
        parts.append(t)
    return Group(*parts)


class HooksPane(VerticalScroll):
    def compose(self) -> ComposeResult:
        yield Static(Text("Computing the plan…", style="dim"), id="hooks-body")

    def load(self, host: Host, plan: Plan | None, target: str | None) -> None:
        body = self.query_one("#hooks-body", Static)
        if plan is None or target is None:
            body.update(Text("Computing the plan…", style="dim"))
            return
        if target not in plan.targets:
            body.update(Text("This target is not part of the plan.", style="dim"))
            return
        body.update(render_hooks(host, plan, target))
