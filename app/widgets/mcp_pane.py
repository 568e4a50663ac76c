"""The MCP servers pane: a row per server with transport, origin (profile or yours), a Switch
for enabled that edits the plan live, the reason for its state, tools, and warnings. Renders
the core's MCP view of the target (core/views/mcp.py); posts McpToggled."""
from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static, Switch

from agentdeck.core.host import Host
from agentdeck.core.plan import Plan
from agentdeck.core.views import mcp as mcp_view
from agentdeck.core.views.mcp import McpServer

from ..messages import McpToggled
from ..session import home_relative
from .style import no_plan


@dataclass(frozen=True)
class ServerRow:
    """One server as the pane shows it: the core's view, and the operator's switches."""
    server: McpServer
    switched: bool | None = None    # switched since the last apply (None: not, or back)
    saved: bool | None = None       # the switch saved in the operator's layer
    unsave: bool = False            # the switch drops the saved choice
    layer: str = ""                 # the layer's file, as shown

    @property
    def name(self) -> str:
        return self.server.name

    @property
    def enabled(self) -> bool:
        return self.server.enabled

    @property
    def reason(self) -> str:
        return self.server.reason


class McpRow(Horizontal):
    """One server: its switch and its facts."""

    def __init__(self, target: str, server: ServerRow, host: Host, **kw) -> None:
        super().__init__(classes="mcp-row", **kw)
        self.target = target
        self.server = server
        self.host = host

    def compose(self) -> ComposeResult:
        s = self.server
        yield Switch(s.enabled, animate=False, id=f"mcp-switch-{_safe(s.name)}",
                     disabled=not s.server.switchable,
                     tooltip=f"connect {s.name} when the CLI starts")
        yield Static(self._facts(), classes="mcp-facts")

    def _facts(self) -> Text:
        row = self.server
        s = row.server
        t = Text()
        on = s.enabled
        t.append("ON " if on else "OFF", style="bold #2f9e44" if on else "bold grey50")
        t.append("  ")
        t.append(s.name, style="bold")
        t.append(f"  {s.transport} · ")
        t.append("yours" if s.yours else s.origin, style="magenta3" if s.yours else "")
        now = s.enabled_now
        if s.configured is False:
            # not in the CLI's config yet: "now on" would describe a server that does not exist
            t.append(f" · new: apply adds it, {'on' if on else 'off'}", style="dim")
        elif now is not None and now != on:
            t.append(f" · now {'on' if now else 'off'}, apply turns it "
                     f"{'on' if on else 'off'}", style="bold dark_orange3")
        t.append("\n")
        switchable = s.reason in mcp_view.SWITCHABLE
        if row.switched is not None and switchable:
            # the operator's switch, not the profile's directive, decides it
            t.append(f"{'on' if on else 'off'}: you switched it {'on' if on else 'off'} here "
                     "(apply saves it in your layer)", style="dim")
        elif row.unsave and switchable:
            t.append(f"{'on' if on else 'off'}: as the profile has it (apply removes your "
                     "saved choice)", style="dim")
        elif row.saved is not None and switchable:
            t.append(f"{'on' if on else 'off'}: your choice, saved in "
                     f"{row.layer or 'your layer'}", style="dim")
        else:
            t.append(s.reason_text, style="dim")
        if s.tools is not None:
            t.append("\ntools: ")
            t.append(", ".join(s.tools) if s.tools else "(none)")
        if s.secret:
            t.append("\nholds literal credentials", style="bold dark_orange3")
        for w in s.warnings:
            t.append("\nwarning: ", style="bold dark_orange3")
            t.append(home_relative(self.host, w))
        return t

    def update_server(self, server: ServerRow) -> None:
        self.server = server
        sw = self.query_one(Switch)
        with sw.prevent(Switch.Changed):
            sw.value = server.enabled
        sw.disabled = not server.server.switchable
        self.query_one(".mcp-facts", Static).update(self._facts())

    def on_switch_changed(self, event: Switch.Changed) -> None:
        event.stop()
        self.post_message(McpToggled(self.target, self.server.name, event.value))


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)


class McpPane(VerticalScroll):
    def compose(self) -> ComposeResult:
        yield Static(Text("Computing the plan…", style="dim"), id="mcp-head")
        yield Vertical(id="mcp-rows")

    def load(self, host: Host, plan: Plan | None, target: str | None,
             error: str | None = None, switched: dict[str, bool] | None = None,
             saved: dict[str, bool] | None = None, layer: str = "") -> None:
        """`switched`: the servers the operator switched since the last apply (name -> on);
        `saved`: the switches saved in the operator's layer (`layer`, the file shown)."""
        head = self.query_one("#mcp-head", Static)
        rows = self.query_one("#mcp-rows", Vertical)
        if plan is None:
            head.update(no_plan(error))
            rows.remove_children()
            return
        view = mcp_view.of(plan, target) if target else mcp_view.McpView()
        if not view.present:
            head.update(Text("This target reports no MCP servers in this build.", style="dim"))
            rows.remove_children()
            return
        t = Text()
        t.append("mcpDefaultDisabled ", style="bold")
        t.append("yes" if view.default_disabled else "no")
        t.append("   mcpAlwaysEnabled ", style="bold")
        t.append(", ".join(view.always_enabled) if view.always_enabled else "(none)")
        if view.file:
            t.append(f"\n{host.display(view.file)}", style="dim")
            if view.settings:
                t.append(f" · disabledMcpServers in {host.display(view.settings)}", style="dim")
        switched = switched or {}
        saved = saved or {}
        servers = [ServerRow(s, switched=switched.get(s.name), saved=saved.get(s.name),
                             unsave=s.name in switched and switched[s.name] is None,
                             layer=layer)
                   for s in view.servers]
        if not servers:
            t.append("\nNo MCP servers are configured.", style="dim")
        head.update(t)
        existing = list(rows.query(McpRow))
        if [r.server.name for r in existing] == [s.name for s in servers] \
                and all(r.target == target for r in existing):
            for r, s in zip(existing, servers):
                r.update_server(s)
            return
        rows.remove_children()
        rows.mount_all([McpRow(target, s, host) for s in servers])

    def server(self, name: str) -> ServerRow | None:
        for r in self.query(McpRow):
            if r.server.name == name:
                return r.server
        return None
