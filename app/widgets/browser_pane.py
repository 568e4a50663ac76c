"""The Browser pane: WSL detection, the browserCommand value, each candidate probed with found /
not found, the argv that will be written, the suppress sink, for a target with a browser for
MCP sign-in. Renders the core's browser view (core/views/browser.py)."""
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
from agentdeck.core.views import browser as browser_view, targets

from ..session import home_relative, target_title
from .style import no_plan


def render_browser(host: Host, plan: Plan, target: str) -> Group:
    info = browser_view.of(plan, target)
    if info is None:
        names = " or ".join(target_title(t) for t in targets.browser_targets()) or "no CLI"
        t = Text()
        t.append("No browser settings for this target.\n", style="bold")
        t.append(f"The Browser tab is about {names}: which browser opens when an MCP "
                 f"server asks you to sign in. {target_title(target)} has no browser setting "
                 f"agentdeck manages. Choose {names} in the target list to see it.",
                 style="dim")
        return Group(t)
    parts: list = []
    t = Text()
    t.append("WSL              ", style="bold")
    t.append("yes" if info.wsl else "no")
    t.append("\nbrowserCommand   ", style="bold")
    bc = info.browser_command
    t.append("(not set)" if bc is None else json.dumps(bc, ensure_ascii=False))
    t.append("\nsuppress launch  ", style="bold")
    t.append("yes" if info.suppress_launch else "no")
    parts.append(t)

    if info.candidates:
        tb = Table(expand=True, box=None, header_style="bold", pad_edge=False)
        tb.add_column("candidate", no_wrap=True)
        tb.add_column("probed", no_wrap=True)
        tb.add_column("path", overflow="fold")
        for c in info.candidates:
            tb.add_row(c.name,
                       Text("found" if c.found else "not found",
                            style="#2f9e44" if c.found else "grey50"),
                       home_relative(host, c.path))
        parts.append(Text(""))
        parts.append(tb)
    elif bc is not None:
        parts.append(Text("\nNo candidates were probed (see the notes below).", style="dim"))

    w = Text("\n")
    w.append("will write       ", style="bold")
    if info.argv:
        w.append(f"{info.env_var}=")
        w.append(home_relative(host, json.dumps(list(info.argv), ensure_ascii=False)),
                 style="#2f9e44")
        if info.source and info.source != "none":
            w.append(f"  (from {info.source})", style="dim")
    else:
        w.append(info.writes_nothing, style="dim")
    w.append("\nsuppress sink    ", style="bold")
    if info.suppress_sink:
        w.append(host.display(info.suppress_sink))
        w.append("  (OAuth URLs are appended here; no browser opens)", style="dim")
    else:
        w.append("none", style="dim")
    parts.append(w)
    for n in info.notes:
        parts.append(Text("note: ", style="deep_sky_blue3") + Text(home_relative(host, n)))
    for n in info.warnings:
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
