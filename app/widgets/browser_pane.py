"""The Browser pane (Copilot): WSL detection, the browserCommand value, each candidate probed
with found / not found, the argv that will be written, the suppress sink. Renders
`plan.info[target]["browser"]`."""
from __future__ import annotations

import json

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from agentdeck.core.host import Host
from agentdeck.core.plan import Plan

from ..session import home_relative, target_title
from .style import no_plan


def render_browser(host: Host, plan: Plan, target: str) -> Group:
    info = (plan.info.get(target) or {}).get("browser")
    if not info:
        t = Text()
        t.append("No browser settings for this target.\n", style="bold")
        t.append("The Browser tab is about GitHub Copilot CLI: which browser opens when an MCP "
                 f"server asks you to sign in. {target_title(target)} has no browser setting "
                 "agentdeck manages. Choose GitHub Copilot CLI in the target list to see it.",
                 style="dim")
        return Group(t)
    parts: list = []
    t = Text()
    t.append("WSL              ", style="bold")
    t.append("yes" if info.get("wsl") else "no")
    t.append("\nbrowserCommand   ", style="bold")
    bc = info.get("browserCommand")
    t.append("(not set)" if bc is None else json.dumps(bc, ensure_ascii=False))
    t.append("\nsuppress launch  ", style="bold")
    t.append("yes" if info.get("suppressBrowserLaunch") else "no")
    parts.append(t)

    cands = info.get("candidates") or []
    if cands:
        tb = Table(expand=True, box=None, header_style="bold", pad_edge=False)
        tb.add_column("candidate", no_wrap=True)
        tb.add_column("probed", no_wrap=True)
        tb.add_column("path", overflow="fold")
        for c in cands:
            found = bool(c.get("found"))
            tb.add_row(str(c.get("name", "")),
                       Text("found" if found else "not found",
                            style="#2f9e44" if found else "grey50"),
                       home_relative(host, str(c.get("path", ""))))
        parts.append(Text(""))
        parts.append(tb)
    elif bc is not None:
        parts.append(Text("\nNo candidates were probed (see the notes below).", style="dim"))

    w = Text("\n")
    w.append("will write       ", style="bold")
    argv = info.get("argv")
    if argv:
        env = info.get("env") or {}
        name = next(iter(env), "COPILOT_DEBUG_BROWSER")
        w.append(f"{name}=")
        w.append(home_relative(host, json.dumps(argv, ensure_ascii=False)), style="#2f9e44")
        src = info.get("source")
        if src and src != "none":
            w.append(f"  (from {src})", style="dim")
    else:
        w.append("nothing (Copilot opens its own default browser)", style="dim")
    sink = info.get("suppress_sink")
    w.append("\nsuppress sink    ", style="bold")
    if sink:
        w.append(host.display(sink))
        w.append("  (OAuth URLs are appended here; no browser opens)", style="dim")
    else:
        w.append("none", style="dim")
    parts.append(w)
    for n in info.get("notes") or []:
        parts.append(Text("note: ", style="deep_sky_blue3") + Text(home_relative(host, n)))
    for n in info.get("warnings") or []:
        parts.append(Text("warning: ", style="bold dark_orange3") + Text(home_relative(host, n)))
    return Group(*parts)


class BrowserPane(VerticalScroll):
    def compose(self) -> ComposeResult:
        yield Static(Text("Computing the plan…", style="dim"), id="browser-body")

    def load(self, host: Host, plan: Plan | None, target: str | None,
             error: str | None = None) -> None:
        body = self.query_one("#browser-body", Static)
        if plan is None or target is None:
            body.update(no_plan(error))
            return
        body.update(render_browser(host, plan, target))
