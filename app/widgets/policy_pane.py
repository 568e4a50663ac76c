"""The Policy tab: the profile's guardrail rules for one target and how that CLI enforces each
(the channel, what ask becomes, caveats). Renders the core's policy view (core/views/policy.py,
from core.policy.enforcement.describe()), computed with the plan; reads nothing."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from agentdeck.core.host import Host
from agentdeck.core.views.policy import PolicyView, cli_name, verified_line

__all__ = ["PolicyPane", "cli_name", "policy_text", "verified_line"]

from .style import no_plan

DECISION_STYLE = {"deny": "bold red3", "ask": "bold dark_orange3", "allow": "#2f9e44"}


def policy_text(host: Host, data: PolicyView | None, target: str | None) -> Text:
    t = Text()
    if data is None:
        t.append("This build has no guardrail policy (core.policy).", style="dim")
        return t
    t.append("on_error ", style="bold")
    t.append(data.on_error, style=DECISION_STYLE.get(data.on_error, "bold"))
    if data.on_error_exit is not None:
        t.append(f" (exit {data.on_error_exit})")
    if data.on_error_meaning:
        t.append(f": {data.on_error_meaning}", style="dim")
    if data.verified:
        t.append("\nverified with ", style="dim")
        t.append(data.verified, style="dim")
    rules, paths = data.rules, data.paths
    if not rules and not paths:
        t.append("\n\nThis profile has no [policy] rules: the handler records each decision "
                 "and lets every tool call run. docs/policy.md shows how to add one.",
                 style="dim")
    for r in paths:
        t.append("\n\n")
        t.append(f"{r.decision:<5} ", style=DECISION_STYLE.get(r.decision, "bold"))
        t.append(r.id, style="bold")
        t.append(f"   {' and '.join(r.access)} of ")
        t.append(", ".join(r.paths), style="italic")
        if r.excepted:
            t.append(f" (not {', '.join(r.excepted)})", style="dim")
        if r.reason:
            t.append(f"\n      {r.reason}", style="dim")
        for e in r.enforced_by:
            t.append(f"\n  {e.cli} hook ", style="bold")
            t.append(e.tools)
            t.append(f"\n  {e.cli} own layer ", style="bold")
            t.append(e.native, style="dim")
            if e.floor:
                t.append(f"\n  {e.cli} sandbox ", style="bold")
                t.append(e.floor, style="dim")
    for c in rules:
        t.append("\n\n")
        t.append(f"{c.decision:<5} ", style=DECISION_STYLE.get(c.decision, "bold"))
        t.append(c.id, style="bold")
        t.append(f"  {c.tool}")
        if c.command:
            t.append(f" argv: {'|'.join(c.command)} {' '.join(c.args)}".rstrip(),
                     style="italic")
        elif c.match:
            t.append(f" /{c.match}/", style="italic")
        if c.covers:
            t.append(f"\n      covers {c.covers}", style="dim")
        if c.reason:
            t.append(f"\n      {c.reason}", style="dim")
        for ch in c.channels:
            t.append(f"\n  {ch.cli} ", style="bold")
            t.append(f"{ch.event}: ", style="dim")
            t.append(ch.how)
            if ch.ask_becomes and ch.ask_becomes != "ask":
                t.append(f"  (ask becomes {ch.ask_becomes})", style="bold dark_orange3")
            if ch.note:
                t.append(f"\n      {ch.note}", style="dim")
    if rules or paths:
        t.append("\n\nA command agentdeck cannot resolve: ", style="bold")
        t.append(data.unresolved)
    if data.self_protection:
        t.append("\n\nBuilt in: ", style="bold")
        t.append(data.self_protection)
    if data.caveats:
        t.append("\n\nCaveats", style="bold")
        for cv in data.caveats:
            t.append("\n· ")
            t.append(cv)
    if data.limits and (rules or paths):
        t.append("\n\nWhat a hook cannot stop", style="bold")
        for cv in data.limits:
            t.append("\n· ")
            t.append(cv)
    return t


class PolicyPane(VerticalScroll):
    def compose(self) -> ComposeResult:
        yield Static(Text("Computing the plan…", style="dim"), id="policy-body")

    def load(self, host: Host, data: PolicyView | None, target: str | None, *, ready: bool,
             error: str | None = None, available: bool = True,
             failed: str | None = None) -> None:
        """`data`: describe() for `target`; `ready`: the plan (and this data) is computed;
        `failed`: why the policy could not be described."""
        body = self.query_one("#policy-body", Static)
        if not ready:
            body.update(no_plan(error))
            return
        if failed:
            body.update(Text(f"Could not read the profile's policy: {failed}", style="bold red3"))
            return
        body.update(policy_text(host, data if available else None, target))
