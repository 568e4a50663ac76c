"""The Policy tab: the profile's guardrail rules for one target and how that CLI enforces each
(the channel, what ask becomes, caveats). Renders core.policy.enforcement.describe()'s data,
computed with the plan; reads nothing."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from agentdeck.core.host import Host

from .style import no_plan

DECISION_STYLE = {"deny": "bold red3", "ask": "bold dark_orange3", "allow": "#2f9e44"}


def cli_name(name: str | None) -> str:
    """A CLI as the operator knows it ("GitHub Copilot CLI"), never a payload dialect's id."""
    from ..session import target_title

    if not name:
        return "?"
    return "VS Code" if name == "vscode" else target_title(name)


def verified_line(verified: dict) -> str:
    """`{"copilot-camel": "1.0.102", "copilot-pascal": "1.0.102"}` as "GitHub Copilot CLI
    1.0.102": one entry per CLI and version (the dialects are how one CLI sends its hooks)."""
    from agentdeck.core.facts.hook_channels import DIALECT_CLI

    shown = [f"{cli_name(DIALECT_CLI.get(d, (d, ''))[0])} {v}" for d, v in verified.items()]
    return ", ".join(dict.fromkeys(shown))


def policy_text(host: Host, data: dict | None, target: str | None) -> Text:
    t = Text()
    if data is None:
        t.append("This build has no guardrail policy (core.policy).", style="dim")
        return t
    on_error = data.get("on_error") or {}
    t.append("on_error ", style="bold")
    t.append(str(on_error.get("value", "?")),
             style=DECISION_STYLE.get(str(on_error.get("value")), "bold"))
    if on_error.get("exit") is not None:
        t.append(f" (exit {on_error['exit']})")
    if on_error.get("meaning"):
        t.append(f": {on_error['meaning']}", style="dim")
    verified = data.get("verified") or {}
    if verified:
        t.append("\nverified with ", style="dim")
        t.append(verified_line(verified), style="dim")
    rules = data.get("rules") or []
    paths = data.get("paths") or []
    if not rules and not paths:
        t.append("\n\nThis profile has no [policy] rules: the handler records each decision "
                 "and lets every tool call run. docs/policy.md shows how to add one.",
                 style="dim")
    for r in paths:
        t.append("\n\n")
        decision = str(r.get("decision") or "?")
        t.append(f"{decision:<5} ", style=DECISION_STYLE.get(decision, "bold"))
        t.append(str(r.get("id") or "?"), style="bold")
        t.append(f"   {' and '.join(r.get('access') or [])} of ")
        t.append(", ".join(r.get("paths") or []), style="italic")
        if r.get("except"):
            t.append(f" (not {', '.join(r['except'])})", style="dim")
        if r.get("reason"):
            t.append(f"\n      {r['reason']}", style="dim")
        for e in r.get("enforced_by") or []:
            tools = "; ".join(f"{k}: {v}" for k, v in (e.get("tools") or {}).items() if v)
            t.append(f"\n  {cli_name(e.get('cli'))} hook ", style="bold")
            t.append(tools)
            t.append(f"\n  {cli_name(e.get('cli'))} own layer ", style="bold")
            t.append(str(e.get("native") or ""), style="dim")
    for r in rules:
        t.append("\n\n")
        decision = str(r.get("decision") or "?")
        t.append(f"{decision:<5} ", style=DECISION_STYLE.get(decision, "bold"))
        t.append(str(r.get("id") or "?"), style="bold")
        t.append(f"  {r.get('tool', 'any')}")
        if r.get("command"):
            names = r["command"] if isinstance(r["command"], list) else [r["command"]]
            t.append(f" argv: {'|'.join(names)} {' '.join(r.get('args') or [])}".rstrip(),
                     style="italic")
        elif r.get("match"):
            t.append(f" /{r['match']}/", style="italic")
        if r.get("covers"):
            t.append(f"\n      covers {r['covers']}", style="dim")
        if r.get("reason"):
            t.append(f"\n      {r['reason']}", style="dim")
        for c in r.get("channels") or []:
            t.append(f"\n  {cli_name(c.get('cli') or c.get('dialect'))} ", style="bold")
            t.append(f"{c.get('event', '')}: ", style="dim")
            t.append(str(c.get("how") or ""))
            if c.get("ask_becomes") and c.get("ask_becomes") != "ask":
                t.append(f"  (ask becomes {c['ask_becomes']})", style="bold dark_orange3")
            if c.get("note"):
                t.append(f"\n      {c['note']}", style="dim")
    if rules or paths:
        t.append("\n\nA command agentdeck cannot resolve: ", style="bold")
        t.append(str(data.get("unresolved") or "ask"))
    if data.get("self_protection"):
        t.append("\n\nBuilt in: ", style="bold")
        t.append(str(data["self_protection"]))
    caveats = data.get("caveats") or []
    if caveats:
        t.append("\n\nCaveats", style="bold")
        for c in caveats:
            t.append("\n· ")
            t.append(str(c))
    limits = data.get("limits") or []
    if limits and (rules or paths):
        t.append("\n\nWhat a hook cannot stop", style="bold")
        for c in limits:
            t.append("\n· ")
            t.append(str(c))
    return t


class PolicyPane(VerticalScroll):
    def compose(self) -> ComposeResult:
        yield Static(Text("Computing the plan…", style="dim"), id="policy-body")

    def load(self, host: Host, data: dict | None, target: str | None, *, ready: bool,
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
