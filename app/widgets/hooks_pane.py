"""The Hooks pane: each event's registered action, timeout, disable key / trust status, and what
apply would change about it; disableAllHooks; other hook sources. Renders the core's hooks view
of the target (core/views/hooks.py) and the plan's hook items; what the view does not say is
simply not shown."""
from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual import on
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Static

from agentdeck.core.disk import MISSING
from agentdeck.core.host import Host
from agentdeck.core.plan import KEPT_CLASSES, Plan, PlanItem
from agentdeck.core.views import hooks as hooks_view

from ..session import DECISION_LABEL, home_relative, key_title, show_value, symbol
from .style import MARK_STYLE, no_plan
from agentdeck.core.wording import count_of


def _hook_items(plan: Plan, target: str) -> list[PlanItem]:
    return [i for i in plan.for_target(target) if i.group == "hooks"]


def disable_all_words(host: Host, on_disk: Any, effect: str = "") -> str:
    """What the settings file says about disableAllHooks, in words: not set (the key absent, or
    a null the adapter reports for it), true (with what that does to this CLI's hooks, the
    adapter's ``effect``: the one wording core.targets.hook_events.disable_all_effect gives),
    false, or another value as it is."""
    if on_disk is True:
        return f"on disk: true ({effect})" if effect else "on disk: true"
    if on_disk is False:
        return "on disk: false (the hooks run)"
    if on_disk is None or on_disk is MISSING:
        return "on disk: not set (the hooks run)"
    return (f"on disk: {show_value(host, on_disk)}, neither true nor false (the doctor says "
            "what the CLI makes of it)")


def _disable_all_item(plan: Plan, target: str) -> PlanItem | None:
    for i in plan.for_target(target):
        if i.kind == "key" and i.key and i.key[-1] == "disableAllHooks":
            return i
    return None


def _short_key(k: Any) -> str:
    s = str(k or "")
    return s if len(s) <= 8 else s[:7] + "…"


def render_hooks(host: Host, plan: Plan, target: str) -> Group:
    hooks = hooks_view.of(plan, target)
    parts: list = []
    items = _hook_items(plan, target)
    if not hooks.present and not items:
        parts.append(Text("This target registers no hooks in this build.", style="dim"))
    head = Text()
    if hooks.shows_handler:
        head.append("handler  ", style="bold")
        head.append(hooks.handler or "(none: the profile names no [hooks] command)")
        hp = hooks.handler_path
        if hooks.handler:
            head.append(f"  ({home_relative(host, hp)})" if hp else "  (not found on PATH now)",
                        style="dim" if hp else "dark_orange3")
        head.append("\n")
    if hooks.wrapper:
        head.append("wrapper  ", style="bold")
        head.append(host.display(hooks.wrapper))
        head.append("\n")
    if hooks.file:
        head.append("file     ", style="bold")
        head.append(host.display(hooks.file))
        head.append("\n")
    if hooks.byte_stable:
        head.append(hooks.byte_stable.capitalize(), style="dim")
        head.append("\n")
    if head:
        parts.append(head)

    # what apply does to the registration itself
    for it in items:
        sym = symbol(plan, it)
        t = Text()
        t.append(f"{sym} ", style=MARK_STYLE.get(sym, ""))
        t.append(host.display(it.path))
        if it.kind == "key" and it.key:
            t.append(f"  {key_title(it)}", style="bold")
        act = plan.action(it)
        t.append(f"  apply will {'change nothing' if act == 'none' else act}", style="dim")
        if it.cls in KEPT_CLASSES:
            t.append(f"  ({it.cls}: {DECISION_LABEL.get(plan.decision(it))})", style="magenta3")
        for w in it.warnings:
            t.append("\n  ")
            t.append("warning: ", style="bold red3" if "re-enable" in w else "bold dark_orange3")
            t.append(home_relative(host, w), style="bold" if "re-enable" in w else "")
        parts.append(t)

    # disableAllHooks: one line near the top, it switches every hook off
    dah = _disable_all_item(plan, target)
    if dah is not None or hooks.disable_all_known:
        t = Text()
        t.append("disableAllHooks  ", style="bold")
        on_disk = dah.actual if dah is not None else hooks.disable_all_on_disk
        t.append(disable_all_words(host, on_disk, hooks.disable_all_effect))
        if dah is not None:
            t.append(f", pinned to {show_value(host, dah.desired)} by agentdeck")
            d = plan.decision(dah)
            act = plan.action(dah)
            if act == "write":
                t.append(" (apply writes it)", style="dim")
            elif dah.cls == "conflict" and dah.id not in plan.decisions:
                t.append(" (conflict: decide on the Keys tab)", style="bold red3")
            elif dah.cls in KEPT_CLASSES:
                t.append(f" ({dah.cls}: {DECISION_LABEL.get(d)})", style="magenta3")
        if on_disk is True and hooks.disable_all_stops:
            t.append("\nNo hook of this CLI runs while it is true.", style="bold red3")
        parts.append(t)

    events = hooks.events
    wrapper = hooks.wrapper
    trust_target = hooks.trust_gated
    if events:
        wname = wrapper.rsplit("/", 1)[-1] if wrapper else ""
        standard = all(ev.command.endswith(f"{wname} {ev.event}")
                       for ev in events) if wname else False
        # a key column only where the CLI keys its hooks (a trust hash, a disable key)
        keyed = any(ev.key for ev in events)
        if standard:
            parts.append(Text(f"\nEach event runs: {wname} <event>."
                              + ((" key: the " + ("trusted_hash that trusts it" if trust_target
                                                  else "disabledHooks key that turns it off"))
                                 if keyed else ""), style="dim"))
        tb = Table(box=None, header_style="bold", pad_edge=False)
        tb.add_column("event", no_wrap=True, overflow="ellipsis")
        if not standard:
            tb.add_column("action", no_wrap=True, overflow="ellipsis", ratio=2)
        tb.add_column("time", no_wrap=True)
        if keyed:
            tb.add_column("hash" if trust_target else "key", no_wrap=True)
        tb.add_column("trust" if trust_target else "state", no_wrap=True)
        tb.add_column("apply", no_wrap=True, overflow="ellipsis", min_width=12)
        for ev in events:
            if trust_target:
                state = ev.trust or "untrusted"
                if not ev.enabled:
                    state += ", off"
            else:
                state = ev.state or ("active" if ev.registered_now else "new")
            if ev.operator_groups:
                state += f" +{ev.operator_groups} yours"
            command = ev.command
            if wrapper and wrapper in command:
                command = command.replace(wrapper, wname)
            change = Text()
            if ev.reenables_disabled:
                change = Text("re-enables your disabled hook", style="bold reverse red3")
            elif ev.registered_now is False:
                change = Text("registers it", style="#2f9e44")
            elif ev.changes_key:
                change = Text("new action, new key", style="dark_orange3")
            if trust_target:
                if ev.will_trust:
                    change.append(("; " if change else "") + "trusts it", style="bold #2f9e44")
                elif ev.not_trusted:
                    change.append(("; " if change else "") + f"stays {ev.trust}",
                                  style="dark_orange3")
            if not change:
                change = Text("no change", style="dim")
            bad = any(w in state for w in ("disabled", "untrusted", "modified", "off"))
            if trust_target and not bad and ev.trust_now != ev.trust:
                state += " after apply"
            cells = [ev.event]
            if not standard:
                cells.append(home_relative(host, command))
            cells.append(f"{ev.timeout}s" if ev.timeout is not None else "")
            if keyed:
                cells.append(Text(_short_key(ev.key.removeprefix("sha256:")), style="dim"))
            cells += [Text(state, style="dark_orange3" if bad else "#2f9e44"), change]
            tb.add_row(*cells)
        parts.append(tb)
    for sk in hooks.skipped:
        parts.append(Text(f"not registered: {sk.canonical}: {sk.reason}", style="dim"))

    others = hooks.other_sources
    parts.append(Text("\nOther hook sources", style="bold"))
    if not others:
        parts.append(Text("none found", style="dim"))
    for src in others:
        t = Text("• ")
        t.append(host.display(src.path))
        if src.events:
            t.append(f"  ({', '.join(src.events)})", style="dim")
        if src.note:
            t.append(f"\n  {src.note}", style="dim")
        parts.append(t)
    return Group(*parts)


def trust_text(target: str) -> str:
    """Why hooks left untrusted do not run, in the target's words."""
    from agentdeck.core.views import targets

    t = targets.of(target).trust
    return t.left_untrusted if t is not None else \
        "This CLI runs only hooks you trust; you chose to leave agentdeck's own untrusted."


class HooksPane(VerticalScroll):
    """Posts TrustHooks when the operator asks agentdeck to trust its own hooks (a CLI that
    gates hooks on trust)."""

    class TrustHooks(Message):
        def __init__(self, trust: bool) -> None:
            super().__init__()
            self.trust = trust

    def compose(self) -> ComposeResult:
        with Horizontal(id="hooks-trust-bar", classes="decision-bar"):
            yield Static("", id="hooks-trust-text")
            yield Button("Trust agentdeck's hooks", id="hooks-trust", compact=True)
        yield Static(Text("Computing the plan…", style="dim"), id="hooks-body")

    def on_mount(self) -> None:
        self.query_one("#hooks-trust-bar").display = False

    def load(self, host: Host, plan: Plan | None, target: str | None,
             error: str | None = None) -> None:
        body = self.query_one("#hooks-body", Static)
        bar = self.query_one("#hooks-trust-bar")
        bar.display = False
        if plan is None or target is None:
            body.update(no_plan(error))
            return
        if target not in plan.targets:
            body.update(Text("This target is not part of the plan.", style="dim"))
            return
        hooks = hooks_view.of(plan, target)
        if hooks.trust_gated:
            requested = hooks.trust_requested
            untrusted = hooks.untrusted
            text = Text()
            if requested:
                text.append("Trusting agentdeck's hooks is part of this plan ", style="bold")
                text.append("(their trusted_hash is written on apply).", style="dim")
            else:
                text.append(f"{count_of(len(untrusted), 'hook')} will not run until trusted. ",
                            style="bold dark_orange3" if untrusted else "")
                text.append(trust_text(target), style="dim")
            self.query_one("#hooks-trust-text", Static).update(text)
            btn = self.query_one("#hooks-trust", Button)
            btn.label = "Don't trust them" if requested else "Trust agentdeck's hooks"
            btn.disabled = not requested and not untrusted
            bar.display = True
        body.update(render_hooks(host, plan, target))

    @on(Button.Pressed, "#hooks-trust")
    def _trust(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.TrustHooks(str(event.button.label) != "Don't trust them"))
