"""One plan item in detail: a unified diff (syntax highlighted) for files and managed blocks, a
key table (profile wants / last written / on disk) for JSON and TOML keys. Renders only what the
plan holds; reads nothing."""
from __future__ import annotations

import difflib

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from agentdeck.core.disk import MISSING
from agentdeck.core.host import Host
from agentdeck.core.plan import Plan, PlanItem

from ..session import (CLASS_LABEL, DECISION_LABEL, home_relative, key_title, pretty_value,
                       symbol)
from .style import MARK_STYLE


def unified(host: Host, item: PlanItem) -> str:
    before = "" if item.actual is MISSING or item.actual is None else str(item.actual)
    after = "" if item.desired is MISSING or item.desired is None else str(item.desired)
    if item.kind == "link":
        before = f"-> {item.actual}\n" if item.actual is not MISSING else ""
        after = f"-> {item.desired}\n" if item.desired is not MISSING else ""
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                 fromfile="on disk", tofile="profile", n=3)
    out = []
    for ln in lines:
        out.append(ln if ln.endswith("\n") else ln + "\n")
    return home_relative(host, "".join(out))


#: how to say an item's default decision in "why it was … by default"
DEFAULT_WORD = {"keep": "kept", "apply": "planned", "skip": "skipped", "take": "taken"}


def item_header(host: Host, plan: Plan, item: PlanItem) -> Text:
    sym = symbol(plan, item)
    t = Text()
    t.append(f"{sym} ", style=MARK_STYLE.get(sym, ""))
    t.append(host.display(item.path), style="bold")
    if item.kind == "key":
        t.append("  " + key_title(item), style="bold")
    elif item.label and item.label != host.display(item.path):
        t.append(f"  {item.label}")
    t.append("\n")
    d = plan.decision(item)
    act = plan.action(item)
    t.append(f"{CLASS_LABEL.get(item.cls, item.cls)}", style="magenta3" if sym == "!" else "")
    t.append(f" · decision: {DECISION_LABEL.get(d, d)}")
    t.append(f" · apply will {'change nothing' if act == 'none' else act}")
    if act == "record":
        t.append(" (agentdeck's record only)", style="dim")
    if item.reason:
        t.append("\n")
        if d != item.default_decision:
            # the reason explains the default; the operator chose otherwise
            t.append(f"why it was {DEFAULT_WORD.get(item.default_decision, 'left')} by default: ",
                     style="dim italic")
        t.append(home_relative(host, item.reason), style="dim")
    if item.also:
        t.append(f"\nalso wanted by: {', '.join(item.also)}", style="dim")
    if item.secret:
        t.append("\nholds secrets: the file is written 0600", style="dark_orange3")
    for w in item.warnings:
        t.append("\nwarning: ", style="bold dark_orange3")
        t.append(home_relative(host, w))
    if item.cls == "conflict" and item.id not in plan.decisions:
        t.append("\nDecide: k keeps yours, t takes the profile's.", style="bold red3")
    return t


def key_table(host: Host, item: PlanItem) -> Table:
    tb = Table(show_header=False, box=None, pad_edge=False, expand=True)
    tb.add_column("state", style="bold", no_wrap=True, width=13)
    tb.add_column("value", overflow="fold")
    tb.add_row("profile wants", pretty_value(host, item.desired) if item.wanted
               else Text("(no longer wanted)", style="italic"))
    tb.add_row("last written", pretty_value(host, item.recorded))
    tb.add_row("on disk", pretty_value(host, item.actual))
    return tb


def render_item(host: Host, plan: Plan, item: PlanItem, dark: bool = True) -> RenderableType:
    parts: list[RenderableType] = [item_header(host, plan, item), Text("")]
    if item.kind == "key":
        parts.append(key_table(host, item))
        return Group(*parts)
    diff = unified(host, item)
    if not diff:
        parts.append(Text("No difference between the disk and the profile.", style="dim"))
        return Group(*parts)
    if item.kind == "block":
        parts.append(Text("Only the managed block changes; text outside it is yours and stays.",
                          style="dim"))
    parts.append(highlight_diff(diff))
    return Group(*parts)


DIFF_STYLES = (("+++", "bold"), ("---", "bold"), ("@@", "bold deep_sky_blue3"),
               ("+", "#2f9e44"), ("-", "red3"))


def highlight_diff(diff: str) -> Text:
    """A unified diff with its lines coloured: additions, removals, hunk headers. The signs
    stay in the text, so the diff reads the same without colour."""
    out = Text()
    for line in diff.splitlines(keepends=True):
        style = ""
        for prefix, st in DIFF_STYLES:
            if line.startswith(prefix):
                style = st
                break
        out.append(line, style=style)
    out.rstrip()
    return out


class DiffView(VerticalScroll):
    """The selected item's diff or key table."""

    def compose(self):
        yield Static(Text("Select an item in the plan to see what would change.", style="dim"),
                     id="diff-body")

    def show(self, host: Host | None, plan: Plan | None, item: PlanItem | None,
             dark: bool = True) -> None:
        body = self.query_one("#diff-body", Static)
        if item is None or plan is None or host is None:
            body.update(Text("Select an item in the plan to see what would change.", style="dim"))
        else:
            body.update(render_item(host, plan, item, dark))
        self.scroll_home(animate=False)
