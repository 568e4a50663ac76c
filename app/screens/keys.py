"""`?`: every key that works where the operator is -- the screen's own bindings (footer or not),
the app's, and the keys of each kind of widget on the screen (space on a switch, enter on a
table row, arrows in the plan tree), read from the bindings themselves so the list stays true."""
from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import (Button, DataTable, Footer, Input, OptionList, RadioSet,
                             SelectionList, Static, Switch, Tree)

#: widget kinds whose keys are listed, with where the operator meets them
WIDGETS: tuple[tuple[type, str], ...] = (
    (Switch, "On a switch"),
    (Tree, "In the plan tree"),
    (DataTable, "In a table"),
    (SelectionList, "In a list of choices"),
    (RadioSet, "In a set of options"),
    (OptionList, "In a list"),
    (Input, "In a text field"),
    (Button, "On a button"),
)
#: keys that move the focus or the view in any widget (the screen's own tab / shift+tab)
SKIP_ACTIONS = {"app.focus_next", "app.focus_previous", "focus_next", "focus_previous"}


def _rows(app, bindings) -> list[tuple[str, str]]:
    """(keys, what) with the keys of one action joined: "enter, space" -> Toggle."""
    by: dict[tuple[str, str], list[str]] = {}
    for b in bindings:
        if b.system or not b.description:
            continue
        k = (b.action, b.description)
        shown = app.get_key_display(b)
        by.setdefault(k, [])
        if shown not in by[k]:
            by[k].append(shown)
    return [(", ".join(keys), desc) for (_, desc), keys in by.items()]


def _bindings_of(cls) -> list[Binding]:
    m = getattr(cls, "_merged_bindings", None)
    if m is None:
        return []
    return [b for bs in m.key_to_bindings.values() for b in bs]


def key_sections(app, screen: Screen) -> list[tuple[str, list[tuple[str, str]]]]:
    """The sections `?` shows for `screen`: (title, [(keys, what)])."""
    out: list[tuple[str, list[tuple[str, str]]]] = []
    own = [b for b in _bindings_of(type(screen))
           if b.action not in SKIP_ACTIONS and screen.check_action(*_parse(b.action)) is not False]
    if own:
        out.append(("This screen", _rows(app, own)))
    present = {type(w) for w in screen.query("*")}
    extra = set(getattr(screen, "KEY_WIDGETS", ()))
    for cls, title in WIDGETS:
        here = [t for t in present | extra if issubclass(t, cls)]
        if not here:
            continue
        rows = _rows(app, [b for b in _bindings_of(cls) if b.action not in SKIP_ACTIONS])
        if cls is Tree:
            rows.insert(0, ("enter, space", "Open or close a file's items"))
        if cls is Button:
            rows = [("enter, space", "Press the button")]
        if cls is Input:        # the editing keys are the usual ones; these are ours
            rows = [("enter", "Go to the plan tree, filtered"),
                    ("escape", "Clear the filter and go back to the plan tree")]
        if rows:
            out.append((title, rows))
    everywhere = [b for b in _bindings_of(type(app)) if b.action not in SKIP_ACTIONS]
    rows = _rows(app, everywhere)
    rows.append((app.get_key_display(Binding(app.COMMAND_PALETTE_BINDING, "", "")),
                 "Command palette: every action of this screen, each target and tab"))
    rows.append(("tab, shift+tab", "Move the focus to the next or previous part"))
    out.append(("Everywhere", rows))
    return out


def _parse(action: str) -> tuple[str, tuple]:
    from textual.actions import parse

    _, name, params = parse(action)
    return name, params


def keys_table(app, screen: Screen) -> Table:
    tb = Table(box=None, show_header=False, pad_edge=False, expand=True)
    tb.add_column("key", style="bold", no_wrap=True, min_width=12)
    tb.add_column("what", overflow="fold", ratio=1)
    for n, (title, rows) in enumerate(key_sections(app, screen)):
        if n:
            tb.add_row("", "")
        tb.add_row(Text(title, style="bold underline"), "")
        for keys, what in rows:
            tb.add_row(keys, what)
    return tb


class KeysScreen(ModalScreen[None]):
    """Every key of the screen below; escape, q or ? closes it."""

    BINDINGS = [Binding("escape", "close", "Close"), Binding("q", "close", "Close", show=False),
                Binding("question_mark", "close", "Close", show=False)]

    def __init__(self, under: Screen) -> None:
        super().__init__(id="keys-help")
        self.under = under

    def compose(self) -> ComposeResult:
        with Vertical(id="keys-box", classes="dialog"):
            yield Static(Text("Keys", style="bold"), classes="dialog-title")
            with VerticalScroll(id="keys-scroll"):
                yield Static(keys_table(self.app, self.under), id="keys-list")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#keys-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)
