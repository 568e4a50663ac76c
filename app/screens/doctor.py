"""The doctor screen: the findings table coloured by result, filters by target and by result,
the fix hint of the highlighted finding, live checks in a worker with progress, and export to a
text or JSON file and to an SVG screenshot."""
from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import (Button, DataTable, Footer, Input, Label, ProgressBar, RadioButton,
                             RadioSet, Select, Static)

from ..session import home_relative
from ..widgets.style import RESULT_STYLE
from agentdeck.core.wording import count_of

ALL = "all"
#: the result filter's default: every row but the ok ones (as `agentdeck doctor` without
#: --verbose); "all" shows them
NOT_OK = "not ok"
RESULT_ORDER = ("error", "warning", "info", "ok", "skipped")


def load_doctor():
    """agentdeck.core.doctor.run, or None when this build has no doctor."""
    try:
        from agentdeck.core.doctor import run  # type: ignore[attr-defined]
    except ImportError:
        return None
    return run


def run_for_session(run, session, live: bool = False, progress=None) -> list:
    """The doctor for `session`. Its check of pending changes (`<target>.plan`) compares the
    disk with the profile alone; when this run has overrides (onboarding options, MCP switches,
    trusting hooks) that check is run again on the session's plan, so the doctor agrees
    with the main screen and with what apply wrote."""
    findings = list(run(session.host, session.profile, session.targets, live=live,
                        progress=progress))
    if not session.has_overrides:
        return findings
    try:
        from agentdeck.core.doctor.context import Ctx
        from agentdeck.core.doctor.registry import CHECKS
        from agentdeck.core.doctor.runner import run_check
    except ImportError:
        return findings
    plan = session.fresh_plan()

    class SessionCtx(Ctx):
        def plan(self, target):            # the session's plan, overrides included
            return plan, None

    note = " (with this run's choices: " + "; ".join(session.run_only()) + ")"
    out = []
    done = set()
    for f in findings:
        check = f"{f.target}.plan"
        if f.check != check or f.target not in plan.targets:
            out.append(f)
            continue
        if check in done:
            continue
        done.add(check)
        chk = next((c for c in CHECKS if c.id == check), None)
        if chk is None:
            out.append(f)
            continue
        ctx = SessionCtx(host=session.host, profile=session.profile, targets=[f.target])
        for g in run_check(ctx, chk):
            out.append(dataclasses.replace(g, message=g.message + note))
    return out


def verdicts_for_session(session, findings: list) -> list:
    """The doctor's verdict per CLI (core/doctor/verdict.py) for the session's findings, read
    from the session's plan when this run has overrides (as run_for_session's plan check);
    [] when this build has no verdicts."""
    try:   # local: a build without the doctor has no verdicts
        from agentdeck.core.doctor.context import Ctx   # local: as above
        from agentdeck.core.doctor.verdict import verdicts   # local: as above
        from agentdeck.core.targets import registry   # local: as above
    except ImportError:
        return []
    plan = session.fresh_plan() if session.has_overrides else None

    class SessionCtx(Ctx):
        def plan(self, target):            # the session's plan, overrides included
            if plan is not None and target in plan.targets:
                return plan, None
            return super().plan(target)

    targets = [t for t in registry.NAMES if any(f.target == t for f in findings)]
    return verdicts(SessionCtx(host=session.host, profile=session.profile, targets=targets),
                    findings)


def layers_for_session(session, targets: list[str]) -> dict:
    """Each CLI's layers, strongest first (core/doctor/layers_view.py); {} in a build without."""
    try:   # local: a build without the doctor has no layer view
        from agentdeck.core.doctor.context import Ctx   # local: as above
        from agentdeck.core.doctor.layers_view import by_target   # local: as above
    except ImportError:
        return {}
    return by_target(Ctx(host=session.host, profile=session.profile, targets=targets))


LAYER_STYLE = {"org": "on #1c3d5a", "env": "on #3b2f4a", "project": "on #4a3b1c",
               "home": "on #1f3a2a"}


def layers_text(layers: dict[str, list], titles: dict) -> Text:
    """The layers drawn: per CLI a stack of bands, strongest on top, the band that decides the
    hooks now marked, a band that undoes agentdeck's in red."""
    t = Text(no_wrap=True, overflow="ellipsis")
    for n, (target, rows) in enumerate(layers.items()):
        if n:
            t.append("\n\n")
        t.append(f"{titles.get(target, target)}", style="bold")
        t.append("  strongest on top", style="dim")
        pw = max((len(r.path) for r in rows), default=0)
        for r in rows:
            t.append("\n")
            t.append(f" {r.layer:<8} ", style=f"bold {LAYER_STYLE.get(r.layer, '')}")
            t.append(f" {r.path:<{pw}}  ")
            if r.undoes:
                t.append(f"UNDOES agentdeck: {r.undoes}", style="bold red3")
            else:
                t.append(r.state, style="" if r.state not in ("none", "not set") else "dim")
                if r.decides:
                    t.append(f"  {r.decides}", style="dim")
            if r.wins:
                t.append("  ◀ decides the hooks now", style="bold #2f9e44")
    return t


MARK_STYLE = {"ok": "bold #2f9e44", "warning": "bold #e8590c", "error": "bold red3",
              "absent": "dim"}


#: a fact's closing hint in parentheses, left out where a verdict has no room for it
_HINT = re.compile(r"\s*\([^()]*\)$")


def verdicts_text(verdicts: list, host, columns: int = 0, lines: int = 1) -> Text:
    """Per CLI: its mark, its name and version, the facts that matter; the upgrade notice under
    it. Given the `columns` there are, a fact that does not fit on the line starts the next one,
    under the first fact, up to `lines` lines per CLI (at 80 columns "guard: NONE installed" was
    cut to "guard: …"); the last line's end is cut."""
    from agentdeck.core.doctor.verdict import MARKS   # local: only with verdicts to show

    t = Text(no_wrap=True, overflow="ellipsis")
    width = max((len(v.title) + len(v.version or "") + 1 for v in verdicts), default=0)
    indent = 2 + width + 2
    for n, v in enumerate(verdicts):
        if n:
            t.append("\n")
        t.append(f"{MARKS[v.mark]} ", style=MARK_STYLE[v.mark])
        name = f"{v.title} {v.version or ''}".rstrip()
        t.append(f"{name:<{width}}  ", style="bold")
        col, line = indent, 1
        facts = [home_relative(host, f) for f in v.facts]
        if columns and indent + sum(len(f) + 3 for f in facts) > columns * lines:
            # short of room: a fact's closing hint in parentheses goes ("hooks not installed
            # yet (`agentdeck apply`)": the findings below give the fix), so the guard's state
            # that follows is read whole
            facts = [_HINT.sub("", f) for f in facts]
        for i, (fact, words) in enumerate(zip(v.facts, facts)):
            if i and columns and col + 3 + len(words) > columns and line < lines:
                t.append("\n" + " " * indent)
                col, line = indent, line + 1
            elif i:
                t.append(" · ", style="dim")
                col += 3
            bad = "INERT" in fact or "NONE" in fact or "FAILED" in fact
            t.append(words, style="bold red3" if bad else "")
            col += len(words)
        if v.upgrade:
            t.append(f"\n{'':<{width + 4}}{home_relative(host, v.upgrade)}", style="#e8590c")
    return t


def findings_text(findings: list, host) -> str:
    lines = []
    for f in findings:
        where = ""
        if f.path:
            where = f"  ({host.display(f.path)}{':' + str(f.line) if f.line else ''})"
        lines.append(f"{f.result.upper():<8} {f.target:<9} {f.check}: "
                     f"{home_relative(host, f.message)}{where}")
        if f.fix:
            lines.append(f"{'':<18} fix: {home_relative(host, f.fix)}")
    counts = {r: sum(1 for f in findings if f.result == r) for r in RESULT_ORDER}
    lines.append("")
    lines.append(", ".join(f"{n} {r}" for r, n in counts.items() if n) or "no findings")
    return "\n".join(lines) + "\n"


def findings_json(findings: list) -> str:
    return json.dumps([f.to_json() for f in findings], indent=2, ensure_ascii=False) + "\n"


class DoctorProgress(Message):
    def __init__(self, done: int | None, total: int | None, text: str, generation: int) -> None:
        super().__init__()
        self.done, self.total, self.text, self.generation = done, total, text, generation


class DoctorDone(Message):
    def __init__(self, findings: list | None, error: str | None, live: bool,
                 generation: int, verdicts: list | None = None) -> None:
        super().__init__()
        self.findings, self.error, self.live, self.generation = findings, error, live, generation
        self.verdicts = verdicts or []


class DrillProgress(Message):
    def __init__(self, target: str, status: str, generation: int) -> None:
        super().__init__()
        self.target, self.status, self.generation = target, status, generation


class DrillDone(Message):
    def __init__(self, report, error: str | None, generation: int) -> None:
        super().__init__()
        self.report, self.error, self.generation = report, error, generation


def drill_rows(rep, host) -> list[tuple[str, str, str, str, str, str]]:
    """The receipts of a drill as table rows: (target, mark, event, fired, latency, note); one
    row per registered event, then one for the canary's deny, then one per rule of the profile
    (held, not held or not tried), the core's drill view (core/views/drill.py)."""
    from agentdeck.core.views.drill import rows

    return [r.cells() for r in rows(rep, lambda text: home_relative(host, text))]


class ExportScreen(ModalScreen[tuple[str, str] | None]):
    """Where to export and in which format. Dismisses with (path, "text"|"json") or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    PALETTE = [("Cancel", "Close without exporting", "cancel")]

    def __init__(self, default_dir: str) -> None:
        super().__init__(id="export")
        self.default_dir = default_dir

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="export-box"):
            yield Static(Text("Export the findings", style="bold"), classes="dialog-title")
            with RadioSet(id="export-format"):
                yield RadioButton("Text (RESULT / CHECK / MESSAGE)", value=True, id="fmt-text")
                yield RadioButton("JSON (one object per finding)", id="fmt-json")
                yield RadioButton("HTML (one page: verdicts, problems, every check)",
                                  id="fmt-html")
            yield Label("File")
            yield Input(str(Path(self.default_dir) / "agentdeck-doctor.txt"), id="export-path")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Export", id="export-yes", variant="primary")
                yield Button("Cancel", id="export-no")

    @on(RadioSet.Changed)
    def _fmt(self, event: RadioSet.Changed) -> None:
        inp = self.query_one("#export-path", Input)
        ext = {"fmt-json": ".json", "fmt-html": ".html"}.get(event.pressed.id or "", ".txt")
        stem, _ = os.path.splitext(inp.value)
        inp.value = stem + ext

    def _fmt_value(self) -> str:
        pressed = self.query_one(RadioSet).pressed_button
        return {"fmt-json": "json", "fmt-html": "html"}.get(
            pressed.id if pressed is not None and pressed.id else "", "text")

    @on(Button.Pressed, "#export-yes")
    @on(Input.Submitted)
    def _yes(self) -> None:
        path = self.query_one("#export-path", Input).value.strip()
        if path:
            self.dismiss((path, self._fmt_value()))

    @on(Button.Pressed, "#export-no")
    def action_cancel(self) -> None:
        self.dismiss(None)


class DoctorScreen(Screen):
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("l", "live", "Live checks"),
        Binding("d", "drill", "Drill"),
        Binding("r", "rerun", "Re-run"),
        Binding("e", "export", "Export"),
        Binding("y", "layers", "Layers"),
        # in the palette (ctrl+p) and on its key; the footer keeps its room at 80 columns
        Binding("s", "screenshot", "Screenshot", show=False),
    ]
    PALETTE = [
        ("Run live checks", "Ask each installed CLI what it really loaded", "live"),
        ("Run drill", "One real offline turn of each CLI against a local scripted model: do "
                      "the hooks run, does a deny hold?", "drill"),
        ("Re-run the doctor", "Run the static checks again", "rerun"),
        ("Export findings", "Save the findings as a text, JSON or HTML file", "export"),
        ("Show the layers", "Each CLI's layers (org, environment, project, home), strongest "
                            "first: which decides its hooks now", "layers"),
        ("Screenshot", "Save this screen as an SVG", "screenshot"),
        ("Back", "Back to the plan", "back"),
    ]

    def __init__(self, session, export_dir: str | None = None) -> None:
        super().__init__(id="doctor")
        self.session = session
        self.run_doctor = load_doctor()
        self.findings: list = []
        self.running = False
        self.live_done = False
        self.generation = 0
        self.error: str | None = None
        self.export_dir = export_dir or os.getcwd()
        self.drill_report = None
        self.drill_status: dict[str, str] = {}
        self.verdicts: list = []

    def compose(self) -> ComposeResult:
        yield Static("", id="doctor-head", classes="screen-head")
        yield Static("", id="doctor-verdicts")
        yield Static("", id="doctor-layers")
        with Horizontal(id="doctor-filters"):
            yield Label("target")
            yield Select([(ALL, ALL)], value=ALL, allow_blank=False, id="filter-target",
                         compact=True)
            yield Label("result")
            yield Select([(NOT_OK, NOT_OK), (ALL, ALL)] + [(r, r) for r in RESULT_ORDER],
                         value=NOT_OK, allow_blank=False, id="filter-result", compact=True)
        with Horizontal(id="doctor-progress-row"):
            yield ProgressBar(total=None, show_eta=False, id="doctor-progress")
            yield Static("", id="doctor-progress-text")
        yield DataTable(id="doctor-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="drill-head")
        yield DataTable(id="drill-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="doctor-fix")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        t = self.query_one(DataTable)
        t.add_column("result", key="result")
        t.add_column("target", key="target")
        t.add_column("check", key="check")
        t.add_column("message", key="message")
        self.query_one("#doctor-progress-row").display = False
        self.query_one("#doctor-layers").display = False
        d = self.query_one("#drill-table", DataTable)
        for col in ("target", "", "event", "fired", "latency / timeout", "note"):
            d.add_column(col, key=col or "mark")
        d.display = False
        self.query_one("#drill-head").display = False
        if self.run_doctor is None:
            self._head(Text("The doctor is not available in this build.", style="bold"))
            self.query_one("#doctor-fix", Static).update(
                Text("This agentdeck has no core.doctor module yet; the plan's panes still "
                     "show each target's notices.", style="dim"))
            self.app.bindings_changed()
            return
        cached = getattr(self.app, "doctor_findings", None)
        if cached is not None:
            self.findings, self.live_done = cached
            self.verdicts = list(getattr(self.app, "doctor_verdicts", None) or [])
            self._fill()
        else:
            self._start(live=False)

    # ---- running ------------------------------------------------------------------------------
    def _start(self, live: bool) -> None:
        self.generation += 1
        self.running = True
        self.error = None
        row = self.query_one("#doctor-progress-row")
        row.display = True
        bar = self.query_one(ProgressBar)
        bar.update(total=None, progress=0)
        self.query_one("#doctor-progress-text", Static).update(
            "running live checks…" if live else "running checks…")
        self._head(Text("Running the live checks…" if live else "Running the checks…",
                        style="italic"))
        self.app.bindings_changed()
        self._worker(live, self.generation)

    @work(thread=True, exclusive=True, group="doctor")
    def _worker(self, live: bool, generation: int) -> None:
        s = self.session

        def progress(*args: Any) -> None:
            done = total = None
            text = ""
            for a in args:
                if isinstance(a, str):
                    text = a
                elif isinstance(a, int) and done is None:
                    done = a
                elif isinstance(a, int):
                    total = a
            self.post_message(DoctorProgress(done, total, text, generation))

        try:
            findings = run_for_session(self.run_doctor, s, live=live, progress=progress)
        except Exception as e:  # noqa: BLE001 - shown on screen, one line
            self.post_message(DoctorDone(None, home_relative(s.host, f"{e}"), live, generation))
            return
        try:
            verdicts = verdicts_for_session(s, list(findings))
        except Exception:  # noqa: BLE001 - the table is the report; the verdicts summarise it
            verdicts = []
        self.post_message(DoctorDone(list(findings), None, live, generation, verdicts))

    def on_doctor_progress(self, event: DoctorProgress) -> None:
        if event.generation != self.generation:
            return
        bar = self.query_one(ProgressBar)
        if event.total:
            bar.update(total=event.total, progress=event.done or 0)
        elif event.done is not None:
            bar.update(progress=event.done)
        if event.text:
            self.query_one("#doctor-progress-text", Static).update(
                home_relative(self.session.host, event.text))

    def on_doctor_done(self, event: DoctorDone) -> None:
        if event.generation != self.generation:
            return
        self.running = False
        self.query_one("#doctor-progress-row").display = False
        if event.error is not None:
            self.error = event.error
            self._head(Text("The doctor failed: ", style="bold red3") + Text(event.error))
        else:
            self.findings = event.findings or []
            self.live_done = event.live
            self.verdicts = event.verdicts
            self.app.doctor_findings = (self.findings, self.live_done)
            self.app.doctor_verdicts = self.verdicts
            self._fill()
        self.app.bindings_changed()

    # ---- the drill ----------------------------------------------------------------------------
    def _start_drill(self) -> None:
        from agentdeck.core import engine, profiles

        s = self.session
        try:
            targets = engine.select_targets(s.targets, profiles.resolve(s.host, s.profile).targets, s.host)
        except Exception as e:  # noqa: BLE001 - shown on screen, one line
            self.notify(f"Cannot run the drill: {e}", severity="error")
            return
        self.generation += 1
        self.running = True
        self.drill_status = {t: "waiting" for t in targets}
        self.query_one("#doctor-progress-row").display = True
        self.query_one(ProgressBar).update(total=len(targets), progress=0)
        self._drill_progress_text()
        self._head(Text("Running the drill: one real offline turn of each CLI…", style="italic"))
        self.app.bindings_changed()
        self._drill_worker(targets, self.generation)

    def _drill_progress_text(self) -> None:
        self.query_one("#doctor-progress-text", Static).update(
            "drill: " + ", ".join(f"{t} {st}" for t, st in self.drill_status.items()))

    @work(thread=True, exclusive=True, group="doctor")
    def _drill_worker(self, targets: list[str], generation: int) -> None:
        from agentdeck.core.drill.run import drill

        s = self.session
        try:
            rep = drill(s.host, s.profile, targets,
                        progress=lambda t, st: self.post_message(DrillProgress(t, st, generation)))
        except Exception as e:  # noqa: BLE001 - shown on screen, one line
            self.post_message(DrillDone(None, home_relative(s.host, f"{e}"), generation))
            return
        self.post_message(DrillDone(rep, None, generation))

    def on_drill_progress(self, event: DrillProgress) -> None:
        if event.generation != self.generation:
            return
        self.drill_status[event.target] = event.status
        done = sum(1 for st in self.drill_status.values() if st not in ("waiting", "running"))
        self.query_one(ProgressBar).update(progress=done)
        self._drill_progress_text()

    def on_drill_done(self, event: DrillDone) -> None:
        if event.generation != self.generation:
            return
        self.running = False
        self.query_one("#doctor-progress-row").display = False
        if event.error is not None:
            self._head(Text("The drill failed: ", style="bold red3") + Text(event.error))
            self.app.bindings_changed()
            return
        from agentdeck.core.drill.findings import findings as drill_findings

        rep = self.drill_report = event.report
        self.findings = [f for f in self.findings if not f.check.endswith(".live.drill")] \
            + drill_findings(rep)
        self.app.doctor_findings = (self.findings, self.live_done)
        self._fill()
        head = self.query_one("#drill-head", Static)
        n_ok = sum(1 for t in rep.targets.values() if t.ok)
        skipped = [t.target for t in rep.targets.values() if t.status == "skipped"]
        how = (f"network {rep.network} · {rep.seconds:.1f} s" if rep.turns else "no turn was run")
        head.update(Text(f"Drill {rep.drill_id}: {n_ok} of {count_of(len(rep.targets), 'CLI')} ok · "
                         + (f"skipped (not ok): {', '.join(skipped)} · " if skipped else "")
                         + how, style="bold #2f9e44" if rep.ok else "bold red3"))
        head.display = True
        table = self.query_one("#drill-table", DataTable)
        table.clear()
        for n, row in enumerate(drill_rows(rep, self.session.host)):
            mark = Text(row[1], style="#2f9e44" if row[1] == "✓" else
                        ("bold red3" if row[1] == "✗" else "dim"))
            table.add_row(Text(row[0]), mark, Text(row[2]), Text(row[3]), Text(row[4], style="dim"),
                          Text(row[5]), key=f"drill-{n}")
        table.display = True
        self.app.bindings_changed()

    # ---- table --------------------------------------------------------------------------------
    def _head(self, text: Text) -> None:
        self.query_one("#doctor-head", Static).update(text)

    def _summary(self) -> Text:
        t = Text()
        t.append("Doctor", style="bold")
        t.append(f"  profile {self.session.profile}", style="dim")
        t.append("  live checks " + ("done" if self.live_done else "not run (press l)"),
                 style="dim")
        t.append("\n")
        if not self.findings:
            t.append("No findings.", style="dim")
        for n, r in enumerate(RESULT_ORDER):
            c = sum(1 for f in self.findings if f.result == r)
            if c:
                t.append(f"{c} {r}", style=RESULT_STYLE.get(r, ""))
                t.append("  ")
        return t

    def visible(self) -> list:
        tgt = self.query_one("#filter-target", Select).value
        res = self.query_one("#filter-result", Select).value
        out = [f for f in self.findings if (tgt == ALL or f.target == tgt)
               and (res == ALL or f.result == res or (res == NOT_OK and f.result != "ok"))]
        order = {r: i for i, r in enumerate(RESULT_ORDER)}
        return sorted(out, key=lambda f: (order.get(f.result, 9), f.target, f.check))

    def _fill_verdicts(self) -> None:
        box = self.query_one("#doctor-verdicts", Static)
        # the box's padding (2) and its left border (2) take 4 of the screen's columns
        columns = max(box.content_size.width, 0) or max(self.app.size.width - 4, 40)
        # the verdicts take at most a third of the screen's rows (one line per CLI at least):
        # the findings table below is the report
        lines = max(1, (self.app.size.height // 3) // max(len(self.verdicts), 1))
        box.update(verdicts_text(self.verdicts, self.session.host, columns, lines)
                   if self.verdicts else "")
        box.display = bool(self.verdicts)

    def on_resize(self, event) -> None:
        if self.verdicts:
            self._fill_verdicts()

    def _fill(self) -> None:
        self._head(self._summary())
        self._fill_verdicts()
        sel = self.query_one("#filter-target", Select)
        targets = sorted({f.target for f in self.findings})
        current = sel.value
        with sel.prevent(Select.Changed):
            sel.set_options([(ALL, ALL)] + [(t, t) for t in targets])
            sel.value = current if current in targets else ALL
        self._rows()

    def _rows(self) -> None:
        host = self.session.host
        table = self.query_one(DataTable)
        table.clear()
        for n, f in enumerate(self.visible()):
            style = RESULT_STYLE.get(f.result, "")
            msg = home_relative(host, f.message)
            table.add_row(Text(f.result, style=style), Text(f.target),
                          Text(f.check, style="dim"), Text(msg, style=style
                                                           if f.result == "error" else ""),
                          key=str(n))
        self._show_fix()

    def _show_fix(self) -> None:
        fix = self.query_one("#doctor-fix", Static)
        rows = self.visible()
        table = self.query_one(DataTable)
        if not rows:
            none = ("No problems: every check is ok (result: all shows them)."
                    if self.findings and self.query_one("#filter-result", Select).value == NOT_OK
                    and self.query_one("#filter-target", Select).value == ALL
                    else "No findings match the filters." if self.findings else "")
            fix.update(Text(none, style="dim"))
            return
        row = table.cursor_row if table.cursor_row is not None else 0
        f = rows[min(max(row, 0), len(rows) - 1)]
        host = self.session.host
        t = Text()
        t.append(f"{f.result} ", style=RESULT_STYLE.get(f.result, ""))
        t.append(f.check, style="bold")
        if f.live:
            t.append(" (live)", style="dim")
        if f.path:
            t.append(f"  {host.display(f.path)}{':' + str(f.line) if f.line else ''}",
                     style="dim")
        t.append("\n")
        t.append(home_relative(host, f.message))
        if f.fix:
            t.append("\nfix: ", style="bold #2f9e44")
            t.append(home_relative(host, f.fix))
        fix.update(t)

    @on(Select.Changed)
    def _filter(self, event: Select.Changed) -> None:
        self._rows()

    @on(DataTable.RowHighlighted)
    def _highlight(self, event: DataTable.RowHighlighted) -> None:
        self._show_fix()

    # ---- actions ------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("live", "rerun"):
            return (self.run_doctor is not None and not self.running) or None
        if action == "drill":
            return (not self.running) or None
        if action == "export":
            return (bool(self.findings) and not self.running) or None
        return True

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_layers(self) -> None:
        """Show or hide each CLI's layers (read when shown: the files as they are now)."""
        box = self.query_one("#doctor-layers", Static)
        if box.display:
            box.display = False
            return
        from agentdeck.core.targets import registry   # local: the titles, once shown

        targets = [v.target for v in self.verdicts] or list(registry.NAMES)
        try:
            layers = layers_for_session(self.session, targets)
        except Exception as e:  # noqa: BLE001 - shown on screen, one line
            self.notify(f"Cannot read the layers: {home_relative(self.session.host, str(e))}",
                        severity="error")
            return
        box.update(layers_text(layers, {s.name: s.title for s in registry.TARGETS}))
        box.display = True

    def action_live(self) -> None:
        if self.check_action("live", ()):
            self._start(live=True)

    def action_drill(self) -> None:
        if self.check_action("drill", ()):
            self._start_drill()

    def action_rerun(self) -> None:
        if self.check_action("rerun", ()):
            self._start(live=False)

    def action_export(self) -> None:
        if not self.check_action("export", ()):
            return

        def chosen(answer: tuple[str, str] | None) -> None:
            if not answer:
                return
            path, fmt = answer
            self.export(path, fmt)

        self.app.push_screen(ExportScreen(self.export_dir), chosen)

    def export(self, path: str, fmt: str) -> str | None:
        """Write the findings (all of them, not just the filtered rows) to `path`."""
        p = Path(os.path.expanduser(path))
        if fmt == "html":         # the same page as `agentdeck doctor --export FILE`
            return self._export_html(p)
        data = findings_json(self.findings) if fmt == "json" else \
            findings_text(self.findings, self.session.host)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(data, encoding="utf-8")
        except OSError as e:
            self.notify(f"Could not write {p}: {e.strerror or e}", severity="error")
            return None
        self.notify(f"Exported {count_of(len(self.findings), 'finding')} to {p}", title="Export")
        return str(p)

    def _export_html(self, p: Path) -> str | None:
        from agentdeck.core.doctor import export as export_mod   # local: only for an HTML export
        from agentdeck.core.errors import UserError   # local: as above
        from agentdeck.core.host import HostError   # local: as above

        host = self.session.host
        page = export_mod.render(host, self.findings, self.verdicts,
                                 profile=self.session.profile, live=self.live_done)
        p = Path(os.path.abspath(p))
        try:
            export_mod.write(host, p, page)
        except (UserError, HostError) as e:
            self.notify(f"Could not write {p}: {e}", severity="error")
            return None
        self.notify(f"Exported the report (HTML, self-contained) to {p}", title="Export")
        return str(p)

    def action_screenshot(self) -> None:
        path = self.app.save_screenshot("agentdeck-doctor.svg", path=self.export_dir)
        self.notify(f"Screenshot saved to {path}", title="Screenshot")
