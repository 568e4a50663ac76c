"""The Org tab: the CLI's organisation layer -- the system file root owns, above the user's home
-- as found on this machine: installed or not, what it enforces (the compiled policy's rules,
the layer's keys), whether every file on its path passes the ownership rule (each failing file
named), and the doctor's live row when it ran. Renders the core's org view (core/views/org.py);
read-only: the app never writes the system layer, it names the command that does."""
from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from agentdeck.core.host import Host
from agentdeck.core.views.org import OrgView

from .style import RESULT_STYLE
from agentdeck.core.wording import count_of, noun_for

DECISION_STYLE = {"deny": "bold red3", "ask": "bold dark_orange3", "allow": "#2f9e44"}
KIND_WORDS = {"file": "a drop-in of agentdeck's own",
              "block": "agentdeck's managed block in a file the administrator may share"}
LABEL = 9                           # the width of the left-hand labels


def _grid() -> Table:
    """Label | value rows: a value that wraps stays in its column."""
    g = Table.grid(padding=(0, 1))
    g.add_column(width=LABEL, no_wrap=True, style="bold")
    g.add_column(ratio=1, overflow="fold")
    return g


def _live(view: OrgView) -> Text:
    if view.live is not None:
        style = RESULT_STYLE.get(view.live.result, "")
        t = Text()
        t.append(("✓ " if view.live.result == "ok" else "✗ ") + view.live.message, style=style)
        if view.live.fix:
            t.append(f"\nfix: {view.live.fix}", style="dim")
        return t
    if not view.live_probe:
        return Text(f"{view.title} has no offline report of its managed sources: no live "
                    "check", style="dim")
    if view.prefix != "/":
        return Text("the live check asks the CLI about the machine's own /etc only, not a "
                    "root prefix", style="dim")
    if view.live_checked:
        return Text("the live checks got no answer about the org hook (is the CLI "
                    "installed?)", style="dark_orange3")
    return Text(f"not run: does {view.title} itself see the org hook? The doctor (d) asks it "
                "with its live checks (l)", style="dim")


def _rules(view: OrgView) -> Text:
    """One line per rule, cut at the pane's width (the Policy tab has each rule in full)."""
    t = Text(no_wrap=True, overflow="ellipsis")
    wid = max((len(r.id) for r in view.rules), default=0)
    for n, r in enumerate(view.rules):
        if n:
            t.append("\n")
        t.append(f"{r.decision:<5} ", style=DECISION_STYLE.get(r.decision, "bold"))
        t.append(f"{r.id:<{wid}}  ", style="bold")
        if r.access:
            t.append(f"{', '.join(r.access)}: ", style="dim")
        t.append(r.what, style="italic")
    return t


def org_render(host: Host, view: OrgView | None) -> Group | Text:
    if view is None:
        return Text("Reading the system layer…", style="dim")
    if not view.has_layer:
        return Text(f"{view.title} has no org layer in this agentdeck: `agentdeck org` does not "
                    "manage it.", style="dim")
    if not view.installed:
        head = Text()
        head.append("Org layer not installed", style="bold")
        head.append(f"\n\n{view.title} reads a layer above the user's home that only root can "
                    f"write: {view.path}. agentdeck's org layer puts the profile's policy "
                    "there, where the user cannot switch it off.", style="dim")
        if view.prefix != "/":
            head.append(f"\nRead under the root prefix {view.prefix}.", style="dim")
        if view.foreign:
            head.append(f"\n\n{view.path} is there but is not agentdeck's (the "
                        "administrator's own): ", style=RESULT_STYLE["warning"])
            head.append("org apply adds agentdeck's block at its top and leaves the rest as it "
                        "is; uninstall takes the block out again." if view.kind == "block" else
                        "org apply keeps it unless you take it (--take "
                        f"{view.file}: agentdeck then writes the whole file; uninstall gives "
                        "yours back byte for byte).")
        head.append("\n\nTo install it: ")
        head.append(view.command, style="bold")
        head.append(" (docs/org.md)", style="dim")
        return head
    good, bad = RESULT_STYLE["ok"], RESULT_STYLE["error"]
    head = Text()
    head.append("Org layer installed", style="bold")
    head.append(" · ")
    head.append("ownership ok" if view.ownership_ok else
                f"{count_of(len(view.ownership), 'path')} {noun_for(len(view.ownership), 'fails', 'fail')} the ownership check",
                style=good if view.ownership_ok else bad)
    head.append(" · ")
    head.append(f"{count_of(len(view.rules), 'rule')}" if view.policy_found else "no compiled policy",
                style=good if view.policy_found else bad)
    if view.result != "ok":
        head.append(" · ")
        head.append(f"doctor: {view.result}", style=RESULT_STYLE.get(view.result, ""))
    head.append("\n")
    head.append(_enforces(view), style="dim")
    g = _grid()
    f = Text(view.path)
    f.append(f"\n{KIND_WORDS.get(view.kind, view.kind)}", style="dim")
    if view.prefix != "/":
        f.append(f"\nread under the root prefix {view.prefix}", style="dim")
    g.add_row("file", f)
    h = Text()
    if view.runs_hook:
        h.append(f"{view.hook_event} runs agentdeck's org hook", style=good)
    else:
        h.append("does not run agentdeck's org hook (changed by hand, or an older agentdeck)",
                 style=RESULT_STYLE["warning"])
    h.append(f"\nverified with {view.title} {view.verified}", style="dim")
    g.add_row("hook", h)
    if view.policy_found:
        p = Text(f"{count_of(len(view.rules), 'rule')}, {view.denies} deny")
        p.append(f"\n{view.policy_file}", style="dim")
        g.add_row("policy", Group(p, _rules(view)) if view.rules else p)
    else:
        g.add_row("policy", Text(f"{view.policy_file}: missing or not a compiled policy (the "
                                 "org hook denies every call it cannot decide)", style=bad))
    if view.keys:
        k = Text()
        for n, key in enumerate(view.keys):
            if n:
                k.append("\n")
            k.append(f"{key.name}: ")
            k.append(key.value if key.set else "not set", style=good if key.set else "dim")
            k.append(f"  ({key.key})", style="dim")
        if view.keys_path:
            k.append(f"\nin {view.keys_path}", style="dim")
        g.add_row("keys", k)
    o = Text()
    if not view.ownership:
        o.append("✓ every file on the path is root's and writable by no one else", style=good)
    for n, why in enumerate(view.ownership):
        o.append(("\n" if n else "") + "✗ " + why, style=bad)
    if view.ownership:
        o.append("\nthe user could change what the layer enforces", style="dim")
    for prob in view.problems:
        o.append("\n✗ " + prob, style=bad)
    g.add_row("ownership", o)
    g.add_row("live", _live(view))
    parts: list = [head, g, _next(view)]       # what to do before the layer's limits
    if view.limits:
        lim = Text()
        lim.append("\nWhat this layer cannot do", style="bold")
        for line in view.limits:
            lim.append("\n· ")
            lim.append(line)
        parts.append(lim)
    return Group(*parts)


def _enforces(view: OrgView) -> str:
    """What the installed layer enforces, in one line."""
    if not view.runs_hook:
        return (f"Enforces no hook: the file does not run agentdeck's org hook, so {view.title} "
                "decides tool calls without the org policy.")
    what = (f"the org hook decides each tool call ({view.hook_event}) with the compiled policy "
            f"({count_of(view.denies, 'deny rule')})" if view.policy_found else
            "the org hook denies every tool call (it has no compiled policy to decide with)")
    keys = [k.name for k in view.keys if k.set]
    return (f"For every user of this machine, whatever their own settings: {what}"
            + (f"; set: {', '.join(keys)}" if keys else "") + ".")


def _next(view: OrgView) -> Text:
    """What to do next, by what is wrong, then the command that changes the layer (the app
    never writes the system layer)."""
    end = Text("\nNext: ", style="bold")
    if view.ownership:
        end.append("as root, make each path marked ✗ root's and writable by no one else "
                   "(chown root:root, chmod go-w; a real folder, not a symlink), then ")
        end.append(view.org("plan"), style="bold")
        end.append(" (it refuses to write through a path that fails).")
    elif not view.policy_found or view.problems or not view.runs_hook:
        end.append(view.org("plan"), style="bold")
        end.append(" shows what differs from the profile; apply writes it again.")
    else:
        end.append(view.org("status"), style="bold")
        end.append(" says whether the layer is in sync with the profile (agentdeck's state for "
                   "it is root's alone).")
    end.append("\nTo change it: ")
    end.append(view.command, style="bold")
    end.append(" (the app only reads the system layer; docs/org.md)", style="dim")
    return end


class OrgPane(VerticalScroll):
    def compose(self) -> ComposeResult:
        yield Static(Text("Reading the system layer…", style="dim"), id="org-body")

    def load(self, host: Host, view: OrgView | None, error: str = "") -> None:
        """`view`: the target's org view (None: not read yet); `error`: why the system layer
        could not be read."""
        body = self.query_one("#org-body", Static)
        if error:
            body.update(Text(f"Could not read the system layer: {error}", style="bold red3"))
            return
        body.update(org_render(host, view))
