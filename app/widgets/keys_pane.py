"""Managed keys: key, profile value, last written, on disk, class, and the operator's choice per
row (keep mine / take the profile's; apply / skip for plain changes). Posts Decided."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Static

from agentdeck.core.host import Host
from agentdeck.core.plan import KEPT_CLASSES, Plan, PlanItem

from ..messages import Decided
from ..session import CLASS_LABEL, DECISION_LABEL, home_relative, key_title, show_value, symbol
from .diff_view import DEFAULT_WORD
from .style import MARK_STYLE, no_plan

HAND = KEPT_CLASSES
#: the choice column's words when the pane is narrow
SHORT_DECISION = {"apply": "apply", "skip": "skip", "keep": "keep", "take": "take"}   # the bar says which


class KeysPane(Vertical):
    """A table of every key item of one target, and a decision bar for the highlighted row."""

    """Decision keys (k, t, s) are bound by the screen, which calls these actions."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.host: Host | None = None
        self.plan: Plan | None = None
        self.items: list[PlanItem] = []

    def compose(self) -> ComposeResult:
        yield Static("", id="keys-empty", classes="empty-note")
        table = DataTable(id="keys-table", cursor_type="row", zebra_stripes=True)
        yield table
        # the key and its buttons on one row; its three values and the reason below, across
        # the whole pane (beside the buttons the reason had a third of the width at 80 columns)
        with Vertical(id="keys-bar", classes="decision-bar"):
            with Horizontal(id="keys-head"):
                yield Static("", id="keys-title")
                yield Button("Keep mine", id="keys-keep", compact=True)
                yield Button("Take profile's", id="keys-take", compact=True)
            yield Static("", id="keys-detail")

    COLUMNS = (("mark", " "), ("key", "key"), ("decision", "choice"), ("desired", "profile wants"),
               ("recorded", "last written"), ("actual", "on disk"), ("cls", "class"))
    #: narrower than WIDE the table leaves out "class" (the mark says it); narrower than NARROW
    #: the value columns get short names ("want", "last", "disk") and little room: the bar below
    #: the table shows the highlighted row's three values whole, one line each, so the keys keep
    #: room for their names
    WIDE, NARROW = 110, 90

    def on_mount(self) -> None:
        self._widths: tuple = ()
        self._columns()
        self._sync_bar()

    def _fit(self) -> tuple:
        """((column key, label, width), ...) that fit the pane without a horizontal scroll:
        every label whole, the values sharing what the key and choice columns leave."""
        width = self.size.width or 120
        narrow = width < self.NARROW
        drop: tuple[str, ...] = ("cls",) if width < self.WIDE else ()
        short = {"desired": "want", "recorded": "last", "actual": "disk"} if narrow else {}
        cols = [(k, short.get(k, label)) for k, label in self.COLUMNS if k not in drop]
        avail = width - 2 * len(cols) - 2          # cell padding and the scrollbar
        choice, cls = (6 if narrow else 14), 11
        fixed = 1 + choice + (cls if "cls" not in drop else 0)
        values = [label for k, label in cols if k in ("desired", "recorded", "actual")]
        if narrow:      # the values are whole in the bar below: the key names get the room
            value = max(5, max(len(v) for v in values))     # "false" whole
            key = max(12, avail - 1 - choice - value * len(values))
            width_of = {"mark": 1, "key": key, "decision": choice}
            return tuple((k, label, width_of.get(k, value)) for k, label in cols)
        least = max(len(v) for v in values)
        value = max(least, int((avail - fixed) * 0.62) // len(values))
        key = max(12, avail - fixed - value * len(values))
        width_of = {"mark": 1, "key": key, "decision": choice, "cls": cls}
        return tuple((k, label, width_of.get(k, value)) for k, label in cols)

    def _columns(self) -> None:
        spec = self._fit()
        if spec == self._widths:
            return
        self._widths = spec
        table = self.query_one(DataTable)
        table.clear(columns=True)
        for key, label, w in spec:
            table.add_column(label, key=key, width=w)
        if self.plan is not None and self.items:
            for it in self.items:
                table.add_row(*self._cells(it), key=it.id)

    def on_resize(self, event) -> None:
        if self._widths and self._fit() != self._widths:
            keep = self.current.id if self.current else None
            self._columns()
            if keep and keep in [i.id for i in self.items]:
                self.query_one(DataTable).move_cursor(row=[i.id for i in self.items].index(keep))

    # ---- data ---------------------------------------------------------------------------------
    def load(self, host: Host, plan: Plan | None, target: str | None,
             error: str | None = None) -> None:
        self.host, self.plan = host, plan
        table = self.query_one(DataTable)
        keep = self.current.id if self.current else None
        table.clear()
        self.items = [i for i in plan.for_target(target) if i.kind == "key"] \
            if plan is not None and target else []
        note = self.query_one("#keys-empty", Static)
        if plan is None:
            note.update(no_plan(error))
        elif not self.items:
            note.update("This target manages no keys in settings files.")
        else:
            note.update("")
        note.display = not self.items
        table.display = bool(self.items)
        row_to = 0
        for n, it in enumerate(self.items):
            table.add_row(*self._cells(it), key=it.id)
            if it.id == keep:
                row_to = n
        if self.items:
            table.move_cursor(row=row_to)
        self._sync_bar()

    def _cells(self, it: PlanItem) -> list:
        plan, host = self.plan, self.host
        sym = symbol(plan, it)
        d = plan.decision(it)
        spec = dict((k, w) for k, _, w in self._widths) if self._widths else {}
        short = spec.get("decision", 14) < 14
        choice = Text(SHORT_DECISION.get(d, d) if short else DECISION_LABEL.get(d, d))
        if it.cls in HAND:
            choice.stylize("bold magenta3" if d == "take" else "magenta3")
            if it.cls == "conflict" and it.id not in plan.decisions:
                choice = Text("decide" if short else "decide (k/t)", style="bold red3")
        elif d == "skip":
            choice.stylize("grey50 italic")
        vw = spec.get("desired", 24)
        key = Text(key_title(it), no_wrap=True, overflow="ellipsis")
        fname = host.display(it.path).rsplit('/', 1)[-1]
        if len(key) + 2 + len(fname) <= spec.get("key", 40):
            key.append(f"  {fname}", style="dim")
        cells = {
            "mark": Text(sym, style=MARK_STYLE.get(sym, "")),
            "key": key,
            "decision": choice,
            "desired": show_value(host, it.desired, vw) if it.wanted
            else Text("(not wanted)", style="italic"),
            "recorded": show_value(host, it.recorded, vw),
            "actual": show_value(host, it.actual, vw),
            "cls": CLASS_LABEL.get(it.cls, it.cls),
        }
        keys = [k for k, _, _ in self._widths] if self._widths else [c[0] for c in self.COLUMNS]
        return [cells[k] for k in keys]

    @property
    def current(self) -> PlanItem | None:
        if not self.items:
            return None
        table = self.query_one(DataTable)
        row = table.cursor_row
        if row is None or not (0 <= row < len(self.items)):
            return None
        return self.items[row]

    def _sync_bar(self) -> None:
        it = self.current
        detail = self.query_one("#keys-detail", Static)
        keep = self.query_one("#keys-keep", Button)
        take = self.query_one("#keys-take", Button)
        bar = self.query_one("#keys-bar")
        bar.display = it is not None
        if it is None or self.plan is None:
            return
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(key_title(it), style="bold")
        title.append(f"  {CLASS_LABEL.get(it.cls, it.cls)}")
        self.query_one("#keys-title", Static).update(title)
        t = Text(no_wrap=False)
        host = self.host
        room = max(20, (detail.size.width or self.size.width or 60) - 15)
        for n, (label, value) in enumerate((
                ("profile wants", show_value(host, it.desired, room) if it.wanted
                 else "(not wanted)"),
                ("last written", show_value(host, it.recorded, room)),
                ("on disk", show_value(host, it.actual, room)))):
            t.append(f"{'' if n == 0 else chr(10)}{label:<14}", style="dim")
            t.append(value)
        d = self.plan.decision(it)
        # the reason wraps, up to three lines of the pane (at 80 columns one line cut it
        # after a few words); a longer one ends with "…" and the Plan tab has it all
        why = Text(no_wrap=False)
        reason = self.plan.reason_of(it)
        if reason:
            lead = ""
            if d != it.default_decision:
                lead = f"why it was {DEFAULT_WORD.get(it.default_decision, 'left')} by default: "
                why.append(lead, style="dim italic")
            words = home_relative(host, reason)
            cells = max(20, (detail.size.width or self.size.width or 60)) * 3 - len(lead) - 8
            if len(words) > cells:
                words = words[:max(cells - 1, 1)].rstrip() + "…"
            why.append(words, style="dim")
        from rich.console import Group

        detail.update(Group(t, why) if reason else t)
        if it.cls in HAND:
            keep.label, take.label = "Keep mine", "Take profile's"
        else:
            keep.label, take.label = "Apply", "Skip"
        single = len(it.choices) < 2
        keep.display = take.display = not single   # nothing to choose for this row
        for b, choice in ((keep, "keep" if it.cls in HAND else "apply"),
                          (take, "take" if it.cls in HAND else "skip")):
            b.disabled = choice not in it.choices
            b.variant = "primary" if d == choice and (it.id in self.plan.decisions
                                                      or it.cls != "conflict") else "default"
        self.app.bindings_changed()

    def refresh_rows(self) -> None:
        """Redraw the cells after a decision (the plan object is the same)."""
        table = self.query_one(DataTable)
        keys = [k for k, _, _ in self._widths]
        for it in self.items:
            for col, val in zip(keys, self._cells(it)):
                table.update_cell(it.id, col, val)
        self._sync_bar()

    # ---- events -------------------------------------------------------------------------------
    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._sync_bar()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click on the highlighted row) flips the row's choice."""
        event.stop()
        it = self.current
        if it is None or self.plan is None:
            return
        choices = it.choices
        if len(choices) < 2:
            return
        d = self.plan.decision(it)
        nxt = choices[(choices.index(d) + 1) % len(choices)] if d in choices else choices[0]
        self.post_message(Decided(it.id, nxt))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        it = self.current
        if it is None:
            return
        hand = it.cls in HAND
        if event.button.id == "keys-keep":
            self.post_message(Decided(it.id, "keep" if hand else "apply"))
        elif event.button.id == "keys-take":
            self.post_message(Decided(it.id, "take" if hand else "skip"))

    # ---- bindings -----------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        it = self.current
        if action in ("keep", "take"):
            return bool(it and action in it.choices) or None
        if action == "skip":
            return bool(it and "skip" in it.choices) or None
        return True

    def action_keep(self) -> None:
        it = self.current
        if it and "keep" in it.choices:
            self.post_message(Decided(it.id, "keep"))

    def action_take(self) -> None:
        it = self.current
        if it and "take" in it.choices:
            self.post_message(Decided(it.id, "take"))

    def action_skip(self) -> None:
        it = self.current
        if it and "skip" in it.choices and self.plan is not None:
            d = self.plan.decision(it)
            self.post_message(Decided(it.id, "apply" if d == "skip" else "skip"))
