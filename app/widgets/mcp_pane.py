"""The MCP servers pane: a row per server with transport, origin (profile or yours), a Switch
for enabled that edits the plan live, the reason for its state, tools, and warnings. Renders
`plan.info[target]["mcp"]`; posts McpToggled."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static, Switch

from agentdeck.core.disk import MISSING
from agentdeck.core.host import Host
from agentdeck.core.plan import Plan

from ..messages import McpToggled
from ..session import home_relative
from .style import no_plan

REASONS = {
    "default-disabled": "off: mcpDefaultDisabled (switch on to connect it)",
    "always-enabled": "on: listed in mcpAlwaysEnabled",
    "operator-enabled": "on: you enabled it in Copilot (/mcp enable); agentdeck never disables it",
    "operator-disabled": "off: you disabled it in Copilot (/mcp disable); run /mcp enable to connect",
    "enabled": "on",
    "profile-disabled": "off: the profile disables it (switch on to connect it)",
    "not-written": "not written: the profile's definition is invalid",
}
#: states the switch can change: the others are the operator's own (set in the CLI) or invalid
SWITCHABLE = ("default-disabled", "profile-disabled", "always-enabled", "enabled")


class McpRow(Horizontal):
    """One server: its switch and its facts."""

    def __init__(self, target: str, server: dict, host: Host, **kw) -> None:
        super().__init__(classes="mcp-row", **kw)
        self.target = target
        self.server = server
        self.host = host

    def compose(self) -> ComposeResult:
        s = self.server
        yield Switch(bool(s.get("enabled")), animate=False, id=f"mcp-switch-{_safe(s['name'])}",
                     disabled=not self._switchable(s),
                     tooltip=f"connect {s['name']} when the CLI starts")
        yield Static(self._facts(), classes="mcp-facts")

    def _switchable(self, s: dict) -> bool:
        return s.get("reason") in SWITCHABLE and not s.get("dropped")

    def _facts(self) -> Text:
        s = self.server
        t = Text()
        on = bool(s.get("enabled"))
        t.append("ON " if on else "OFF", style="bold #2f9e44" if on else "bold grey50")
        t.append("  ")
        t.append(s["name"], style="bold")
        t.append(f"  {s.get('transport', '?')} · ")
        origin = s.get("origin", "?")
        t.append("yours" if origin == "operator" else origin,
                 style="magenta3" if origin == "operator" else "")
        now = s.get("enabled_now")
        if s.get("configured") is False:
            # not in the CLI's config yet: "now on" would describe a server that does not exist
            t.append(f" · new: apply adds it, {'on' if on else 'off'}", style="dim")
        elif now is not None and bool(now) != bool(s.get("enabled")):
            t.append(f" · now {'on' if now else 'off'}, apply turns it "
                     f"{'on' if s.get('enabled') else 'off'}", style="bold dark_orange3")
        t.append("\n")
        reason = s.get("reason", "")
        if s.get("switched") is not None and reason in SWITCHABLE:
            # the operator's switch, not the profile's directive, decides it
            t.append(f"{'on' if on else 'off'}: you switched it {'on' if on else 'off'} here "
                     "(apply saves it in your layer)", style="dim")
        elif s.get("unsave") and reason in SWITCHABLE:
            t.append(f"{'on' if on else 'off'}: as the profile has it (apply removes your "
                     "saved choice)", style="dim")
        elif s.get("saved") is not None and reason in SWITCHABLE:
            t.append(f"{'on' if on else 'off'}: your choice, saved in "
                     f"{s.get('layer') or 'your layer'}", style="dim")
        else:
            t.append(REASONS.get(reason, reason), style="dim")
        tools = s.get("tools")
        if tools is not None:
            t.append("\ntools: ")
            t.append(", ".join(tools) if tools else "(none)")
        if s.get("secret"):
            t.append("\nholds literal credentials", style="bold dark_orange3")
        for w in s.get("warnings") or []:
            t.append("\nwarning: ", style="bold dark_orange3")
            t.append(home_relative(self.host, w))
        return t

    def update_server(self, server: dict) -> None:
        self.server = server
        sw = self.query_one(Switch)
        with sw.prevent(Switch.Changed):
            sw.value = bool(server.get("enabled"))
        sw.disabled = not self._switchable(server)
        self.query_one(".mcp-facts", Static).update(self._facts())

    def on_switch_changed(self, event: Switch.Changed) -> None:
        event.stop()
        self.post_message(McpToggled(self.target, self.server["name"], event.value))


def configured(plan: Plan, target: str, name: str) -> bool | None:
    """Whether the server is in the CLI's config on disk now (None: the plan does not say)."""
    for it in plan.for_target(target):
        if it.kind == "key" and len(it.key) == 2 and it.key[0] in ("mcpServers", "mcp_servers") \
                and it.key[1] == name:
            return it.actual is not MISSING
    return None


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
        info = (plan.info.get(target) or {}).get("mcp") if plan is not None and target else None
        if plan is None:
            head.update(no_plan(error))
            rows.remove_children()
            return
        if not info:
            head.update(Text("This target reports no MCP servers in this build.", style="dim"))
            rows.remove_children()
            return
        t = Text()
        t.append("mcpDefaultDisabled ", style="bold")
        t.append("yes" if info.get("mcpDefaultDisabled") else "no")
        always = info.get("mcpAlwaysEnabled") or []
        t.append("   mcpAlwaysEnabled ", style="bold")
        t.append(", ".join(always) if always else "(none)")
        if info.get("file"):
            t.append(f"\n{host.display(info['file'])}", style="dim")
            if info.get("settings"):
                t.append(f" · disabledMcpServers in {host.display(info['settings'])}", style="dim")
        switched = switched or {}
        saved = saved or {}
        servers = [dict(s, configured=configured(plan, target, s["name"]),
                        switched=switched.get(s["name"]), saved=saved.get(s["name"]),
                        unsave=s["name"] in switched and switched[s["name"]] is None,
                        layer=layer)
                   for s in info.get("servers") or []]
        if not servers:
            t.append("\nNo MCP servers are configured.", style="dim")
        head.update(t)
        existing = list(rows.query(McpRow))
        if [r.server["name"] for r in existing] == [s["name"] for s in servers] \
                and all(r.target == target for r in existing):
            for r, s in zip(existing, servers):
                r.update_server(s)
            return
        rows.remove_children()
        rows.mount_all([McpRow(target, s, host) for s in servers])

    def server(self, name: str) -> dict | None:
        for r in self.query(McpRow):
            if r.server["name"] == name:
                return r.server
        return None
