"""Activity: every decision the hook handler recorded (core.activity), as a live table. A thread
worker blocks on core.activity.Follower.wait (inotify where there is one, else a 0.5 s stat
poll), so new lines appear while the screen is open without the app polling; filters by CLI,
decision, session and drills (the records of `agentdeck drill` turns are hidden until the drills
filter shows them, marked [drill]); the highlighted row's full record below the table."""
from __future__ import annotations

import json

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Select, Static

from agentdeck.core.views.activity import ActivityLine, line

from ..session import all_targets, home_relative, target_title

MAX_ROWS = 5000
#: (key, label, width); the summary takes what is left. The table keeps time (month, day and
#: time of day: the year is in the record below), CLI, decision, rule and the summary, and adds
#: the tool, then the event, only while the summary keeps SUMMARY_ROOM columns (the tool and
#: the summary say what a call did; the event is in the record below)
BASE_COLUMNS = (("time", "time", 14), ("target", "CLI", 8), ("decision", "decision", 8),
                ("rule", "rule", 24))
EXTRA_COLUMNS = (("tool", "tool", 20), ("event", "event", 18))
ORDER = ("time", "target", "event", "decision", "rule", "tool", "summary")
SUMMARY_ROOM = 30
#: what a column takes besides its width (the table's cell padding, one each side)
PADDING = 2


def columns_for(width: int) -> list[tuple[str, str, int | None]]:
    """The columns at `width` cells (the table's own, scrollbar included): the base ones, the
    rule narrowed to 19 (the default rules' longest id) when the summary would be short, and the
    extras that leave the summary SUMMARY_ROOM cells."""
    room = width - 2                       # the vertical scrollbar
    cols = list(BASE_COLUMNS)

    def left(cs: list[tuple[str, str, int]]) -> int:
        return room - sum(w + PADDING for _, _, w in cs) - PADDING

    if left(cols) < SUMMARY_ROOM:
        cols[-1] = ("rule", "rule", 19)
    for extra in EXTRA_COLUMNS:
        if left([*cols, extra]) >= SUMMARY_ROOM:
            cols.append(extra)
    out: list[tuple[str, str, int | None]] = sorted(cols, key=lambda c: ORDER.index(c[0]))
    out.append(("summary", "summary", None))
    return out
DECISION_STYLE = {"deny": "bold red3", "ask": "bold dark_orange3", "allow": "#2f9e44"}


def load_activity():
    """core.activity, or None when this build has none."""
    try:
        from agentdeck.core import activity
    except ImportError:
        return None
    return activity


class NewRecords(Message):
    def __init__(self, records: list[ActivityLine], error: str | None = None) -> None:
        super().__init__()
        self.records = records
        self.error = error


class ActivityScreen(Screen):
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("f", "focus_filter", "Filters"),
        Binding("c", "clear_filters", "Clear filters"),
        Binding("d", "toggle_drills", "Drills"),
        Binding("q", "app.request_quit", "Quit"),
    ]
    PALETTE = [
        ("Back", "Back to the main screen", "close"),
        ("Clear the filters", "Show every decision again (c)", "clear_filters"),
        ("Show or hide drills", "The decisions of `agentdeck drill` turns (d)", "toggle_drills"),
    ]
    #: the drills filter: hidden (nothing chosen), shown too, or only them
    DRILLS = (("drills too", "show"), ("only drills", "only"))

    def __init__(self, session) -> None:
        super().__init__(id="activity")
        self.session = session
        self.records: list[ActivityLine] = []
        self.shown: list[ActivityLine] = []
        self.error: str | None = None
        self.module = load_activity()
        self.columns: list[tuple[str, str, int | None]] = []

    def compose(self) -> ComposeResult:
        yield Static("", id="activity-head")
        with Horizontal(id="activity-filters"):
            yield Select([(target_title(t), t) for t in all_targets()], prompt="every CLI",
                         id="activity-target", compact=True)
            yield Select([(d, d) for d in ("deny", "ask", "allow")], prompt="every decision",
                         id="activity-decision", compact=True)
            yield Input(placeholder="session id", id="activity-session",
                        compact=True)
            yield Select(self.DRILLS, prompt="no drills", id="activity-drills", compact=True)
        table = DataTable(id="activity-table", cursor_type="row", zebra_stripes=True)
        yield table
        with VerticalScroll(id="activity-detail-box"):
            yield Static("", id="activity-detail")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        self._set_columns(table)
        self._head()
        if self.module is not None:
            self._follow()
        table.focus()

    # ---- the follower -------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="activity")
    def _follow(self) -> None:
        from textual.worker import get_current_worker

        worker = get_current_worker()
        mod = self.module
        try:
            follower = mod.Follower(self.session.host, mod.Filter(drills=True))  # filtered here
        except Exception as e:  # noqa: BLE001 - one line on screen
            self.post_message(NewRecords([], str(e)))
            return
        try:
            first = True
            while not worker.is_cancelled:
                try:
                    got = follower.wait(timeout=0.5)       # blocks: inotify or a stat backoff
                except Exception as e:  # noqa: BLE001
                    self.post_message(NewRecords([], str(e)))
                    return
                if got or first:
                    self.post_message(NewRecords([line(r) for r in got]))
                    first = False
        finally:
            follower.close()

    def on_new_records(self, event: NewRecords) -> None:
        if event.error:
            self.error = home_relative(self.session.host, event.error)
        self.records.extend(event.records)
        if len(self.records) > MAX_ROWS:
            del self.records[: len(self.records) - MAX_ROWS]
        self._refilter(append=event.records)

    # ---- filters ------------------------------------------------------------------------------
    def _filters(self) -> tuple[str | None, str | None, str]:
        t = self.query_one("#activity-target", Select).value
        d = self.query_one("#activity-decision", Select).value
        s = self.query_one("#activity-session", Input).value.strip()
        none = (Select.NULL, Select.BLANK, None)        # nothing chosen: every CLI / decision
        return (None if t in none else str(t), None if d in none else str(d), s)

    def _drills(self) -> str | None:
        v = self.query_one("#activity-drills", Select).value
        return None if v in (Select.NULL, Select.BLANK, None) else str(v)

    def _hidden_drills(self) -> int:
        """Drill records the other filters would show, left out because drills are hidden."""
        if self._drills() is not None:
            return 0
        return sum(1 for r in self.records if r.drill and self._others(r))

    def _accepts(self, rec: ActivityLine) -> bool:
        drills = self._drills()
        if (drills is None and rec.drill) or (drills == "only" and not rec.drill):
            return False
        return self._others(rec)

    def _others(self, rec: ActivityLine) -> bool:
        t, d, s = self._filters()
        if t and rec.target != t:
            return False
        if d and rec.decision != d:
            return False
        if s and s not in rec.session:
            return False
        return True

    def _set_columns(self, table: DataTable) -> bool:
        """The columns for the table's width (columns_for); True when they changed."""
        cols = columns_for(table.size.width or self.size.width or 80)
        if cols == self.columns:
            return False
        self.columns = cols
        table.clear(columns=True)
        for key, label, width in cols:
            table.add_column(label, key=key, width=width)
        return True

    def on_resize(self) -> None:
        table = self.query_one(DataTable)
        if self._set_columns(table):
            self._refilter()

    def _cells(self, r: ActivityLine) -> list:
        # a drill's deny is not an attack: no alarm red
        dec = Text(r.decision, style="dim" if r.drill else DECISION_STYLE.get(r.decision, ""))
        host = self.session.host
        cell = {"time": r.time[5:] if len(r.time) == 19 else r.time, "target": r.target,
                "event": r.event, "decision": dec, "rule": r.rule, "tool": r.tool,
                "summary": Text(home_relative(host, r.summary), no_wrap=True, overflow="ellipsis")}
        return [cell[key] for key, _, _ in self.columns]

    def _refilter(self, append: list[ActivityLine] | None = None) -> None:
        table = self.query_one(DataTable)
        if append is not None and len(self.shown) + len(append) <= MAX_ROWS \
                and table.row_count == len(self.shown):
            new = [r for r in append if self._accepts(r)]
            at_end = table.cursor_row >= table.row_count - 1
            for rec in new:
                table.add_row(*self._cells(rec))
                self.shown.append(rec)
            if new and at_end:
                table.move_cursor(row=table.row_count - 1)   # follow the newest line
        else:
            table.clear()
            self.shown = [r for r in self.records if self._accepts(r)]
            for rec in self.shown:
                table.add_row(*self._cells(rec))
            if self.shown:
                table.move_cursor(row=len(self.shown) - 1)
        self._head()
        self._detail()

    @on(Select.Changed)
    def _select_changed(self) -> None:
        self._refilter()

    @on(Input.Changed, "#activity-session")
    def _session_changed(self) -> None:
        self._refilter()

    @on(Input.Submitted, "#activity-session")
    def _session_done(self) -> None:
        self.query_one(DataTable).focus()

    # ---- text ---------------------------------------------------------------------------------
    def _head(self) -> None:
        head = self.query_one("#activity-head", Static)
        t = Text()
        t.append("Activity", style="bold")
        if self.module is None:
            t.append("  this build records no decisions (no core.activity)", style="dim")
            head.update(t)
            return
        path = self.session.host.display(self.module.audit_path(self.session.host))
        n, total = len(self.shown), len(self.records)
        t.append(f"  {n} of {total} decision{'s' if total != 1 else ''}" if n != total
                 else f"  {total} decision{'s' if total != 1 else ''}")
        t.append(f"  ·  live from {path}", style="dim")
        hidden = self._hidden_drills()
        if hidden:
            t.append(f"  ·  {hidden} drill decision{'s' if hidden != 1 else ''} hidden "
                     f"(d shows {'them' if hidden != 1 else 'it'})", style="dim")
        if self.error:
            t.append(f"\n{self.error}", style="bold red3")
        elif not self.records:
            t.append("\nNo decisions recorded yet: they appear here as the CLIs run tools "
                     "(agentdeck's hooks record each pre-tool and prompt decision).", style="dim")
        head.update(t)

    def _detail(self) -> None:
        box = self.query_one("#activity-detail", Static)
        table = self.query_one(DataTable)
        row = table.cursor_row
        if not self.shown or row is None or not (0 <= row < len(self.shown)):
            box.update(Text("Select a row to see its full record.", style="dim"))
            return
        rec = self.shown[row].record
        text = json.dumps(rec, indent=2, ensure_ascii=False, default=str)
        box.update(Text(home_relative(self.session.host, text)))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._detail()

    # ---- actions ------------------------------------------------------------------------------
    def action_close(self) -> None:
        self.app.pop_screen()

    def action_focus_filter(self) -> None:
        self.query_one("#activity-target", Select).focus()

    def action_clear_filters(self) -> None:
        self.query_one("#activity-target", Select).clear()
        self.query_one("#activity-decision", Select).clear()
        self.query_one("#activity-session", Input).value = ""
        self.query_one("#activity-drills", Select).clear()
        self._refilter()

    def action_toggle_drills(self) -> None:
        sel = self.query_one("#activity-drills", Select)
        if self._drills() is None:
            sel.value = "show"
        else:
            sel.clear()
        self._refilter()
