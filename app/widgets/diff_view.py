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


def effect(item: PlanItem, act: str) -> str:
    """What apply does with the item, in words: "set it aside", "add agentdeck's block"..."""
    if act == "none":
        return "change nothing"
    if item.kind == "aside":
        return {"write": "set it aside", "remove": "put it back"}.get(act, act)
    if item.kind == "block":
        return {"write": "add agentdeck's block" if item.cls == "create"
                else "rewrite agentdeck's block", "remove": "take agentdeck's block out"}.get(act, act)
    return {"write": "write it", "remove": "remove it", "record": "record it"}.get(act, act)


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
    if d != "apply":            # the operator's (or the default's) choice, then its effect
        t.append(f" · decision: {DECISION_LABEL.get(d, d)}")
    t.append(f" · apply will {effect(item, act)}")
    if act == "record":
        t.append(" (agentdeck's record only)", style="dim")
    reason = plan.reason_of(item)
    if reason:
        t.append("\n")
        if d != item.default_decision:
            # the reason explains the default; the operator chose otherwise
            t.append(f"why it was {DEFAULT_WORD.get(item.default_decision, 'left')} by default: ",
                     style="dim italic")
        t.append(home_relative(host, reason), style="dim")
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


def _lines(host: Host, value) -> list[str]:
    return (pretty_value(host, value) + "\n").splitlines(keepends=True)


def _structured(item: PlanItem) -> bool:
    """Whether the key's values are worth a line diff (an object or a list somewhere)."""
    return any(isinstance(v, (dict, list)) for v in (item.desired, item.recorded, item.actual))


def value_diff(host: Host, a, b, from_label: str, to_label: str) -> Text | None:
    """A unified diff of two values written as indented JSON; None when they are equal."""
    diff = list(difflib.unified_diff(_lines(host, a), _lines(host, b), fromfile=from_label,
                                     tofile=to_label, n=2))
    if not diff:
        return None
    return highlight_diff("".join(ln if ln.endswith("\n") else ln + "\n" for ln in diff))


def key_diff(host: Host, plan: Plan, item: PlanItem) -> RenderableType:
    """The three values of a structured key as diffs: what you changed since agentdeck wrote
    it (last written -> on disk), and what apply or "take profile's" would write (on disk ->
    profile). A value that is absent is said so, never drawn as an empty diff."""
    parts: list[RenderableType] = []
    if item.recorded is not MISSING and item.actual is not MISSING:
        yours = value_diff(host, item.recorded, item.actual, "last written", "on disk")
        parts.append(Text("Your change since agentdeck wrote it", style="bold"))
        parts.append(yours if yours is not None
                     else Text("none: on disk is what agentdeck last wrote", style="dim"))
        parts.append(Text(""))
    elif item.recorded is MISSING and item.actual is not MISSING:
        parts.append(Text("agentdeck never wrote this key: the value on disk is yours.",
                          style="dim"))
        parts.append(Text(""))
    elif item.actual is MISSING and item.recorded is not MISSING:
        parts.append(Text("The key is gone from the disk (agentdeck last wrote it).",
                          style="dim"))
        parts.append(Text(""))
    take = "What take profile's would write" if item.cls in ("hand-edited", "foreign",
                                                               "conflict") \
        else "What apply writes"
    if not item.wanted:
        parts.append(Text("The profile no longer wants this key.", style="italic"))
    else:
        wants = value_diff(host, item.actual, item.desired, "on disk", "profile")
        parts.append(Text(take, style="bold"))
        parts.append(wants if wants is not None
                     else Text("nothing: on disk is what the profile wants", style="dim"))
    return Group(*parts)


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
        if _structured(item):
            parts.append(key_diff(host, plan, item))
        else:
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
