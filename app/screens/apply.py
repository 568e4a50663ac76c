"""Apply: a confirmation screen (the summary line and the operator's decisions), then progress
while the core applies the plan in a worker, then the result with where the backups went."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, ProgressBar, RichLog, Static

from agentdeck.core import engine
from agentdeck.core.errors import UserError
from agentdeck.core.host import Host
from agentdeck.core.plan import Plan

from ..session import DECISION_LABEL, decided, home_relative, item_title, symbol
from ..widgets.style import MARK_STYLE
from agentdeck.core.wording import count_of, noun_for


def decisions_table(host: Host, plan: Plan) -> Table | Text:
    rows = decided(plan)
    if not rows:
        return Text("No decisions to review: every item follows the plan's default.", style="dim")
    tb = Table(box=None, expand=True, header_style="bold", pad_edge=False)
    tb.add_column(" ", width=1)
    tb.add_column("item", overflow="fold", ratio=3)
    tb.add_column("class", no_wrap=True)
    tb.add_column("your decision", no_wrap=True)
    for it, d in rows:
        sym = symbol(plan, it)
        label = f"{host.display(it.path)}"
        if it.kind == "key":
            label += f"  {item_title(host, it)}"
        dec = Text(DECISION_LABEL.get(d, d))
        if it.cls == "conflict" and it.id not in plan.decisions:
            dec = Text("undecided", style="bold red3")
        elif d == "take":
            dec.stylize("bold magenta3")
        tb.add_row(Text(sym, style=MARK_STYLE.get(sym, "")), label,
                   it.cls if it.cls != "foreign" else "not ours", dec)
    return tb


class ConfirmApplyScreen(ModalScreen[bool]):
    """The summary line and the decisions; Apply or Cancel. Dismisses with True to apply."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("y", "confirm", "Apply"),
    ]
    PALETTE = [
        ("Apply now", "Write exactly this plan", "confirm"),
        ("Cancel", "Go back without writing anything", "cancel"),
    ]

    def __init__(self, host: Host, plan: Plan, title: str = "Apply the plan?",
                 note: str = "") -> None:
        super().__init__(id="confirm-apply")
        self.host = host
        self.plan = plan
        self.title_text = title
        self.note = note

    def compose(self) -> ComposeResult:
        plan, host = self.plan, self.host
        undecided = plan.undecided_conflicts()
        with Vertical(id="confirm-box", classes="dialog"):
            yield Static(Text(self.title_text, style="bold"), classes="dialog-title")
            head = Text()
            head.append(plan.summary(), style="bold")
            repo = engine.repo_of(plan)
            if repo is not None:
                head.append(f"\nprofile {plan.profile} · repository {host.display(repo)}",
                            style="dim")
            else:
                head.append(f"\nprofile {plan.profile} · targets {', '.join(plan.targets)} · "
                            f"home {host.display(plan.home)}", style="dim")
            if self.note:
                head.append(f"\n{self.note}", style="dark_orange3")
            yield Static(head, id="confirm-summary")
            with VerticalScroll(id="confirm-decisions"):
                yield Static(decisions_table(host, plan))
            note = Text()
            if undecided:
                note.append(f"{count_of(len(undecided), 'conflict')} {noun_for(len(undecided), 'needs', 'need')} your decision first: "
                            + ", ".join(i.label or i.id for i in undecided[:3])
                            + ". Press esc, select the ! item in the plan, then k to keep "
                              "yours or t to take the profile's.", style="bold red3")
            else:
                note.append("Backups of every file replaced are kept in agentdeck's state folder. "
                            "Apply refuses if a file changed since the plan was computed.",
                            style="dim")
            yield Static(note, id="confirm-note")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Apply", id="confirm-yes", variant="primary",
                             disabled=bool(undecided))
                yield Button("Cancel", id="confirm-no")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        target = "#confirm-no" if self.plan.undecided_conflicts() else "#confirm-yes"
        self.query_one(target, Button).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "confirm":
            return not self.plan.undecided_conflicts() or None
        return True

    def action_confirm(self) -> None:
        if not self.plan.undecided_conflicts():
            self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)

    @on(Button.Pressed, "#confirm-yes")
    def _yes(self) -> None:
        self.action_confirm()

    @on(Button.Pressed, "#confirm-no")
    def _no(self) -> None:
        self.action_cancel()


class ApplyProgress(Message):
    def __init__(self, line: str) -> None:
        super().__init__()
        self.line = line


class ApplyDone(Message):
    def __init__(self, result=None, error: str | None = None, written_nothing: bool = True,
                 recovered: str | None = None, backed_up: bool = False) -> None:
        super().__init__()
        self.result = result
        self.error = error
        self.written_nothing = written_nothing
        self.recovered = recovered
        self.backed_up = backed_up


def leftover(applied: Plan, after: Plan) -> list[str]:
    """What the plan computed after an apply still wants to change, leaving out what the
    operator chose to skip or keep (the core's own rule, applied to the caller's plan)."""
    held = {k for k, v in applied.decisions.items() if v in ("skip", "keep")}
    held |= set(applied.holds().held)      # kept for what the operator kept (core/held.py)
    return [f"{i.cls} {i.label or i.id}" for i in after.items
            if after.action(i) in ("write", "remove") and i.id not in held]


def backed_up(host: Host, result) -> bool:
    """Whether the apply saved a copy of anything (the backup folder holds more than its
    index)."""
    if result is None or not result.backup_dir:
        return False
    try:
        return any(f != "index.json" for f in host.listdir(Path(result.backup_dir)))
    except Exception:  # noqa: BLE001
        return False


def expected_steps(plan: Plan) -> int:
    paths = {it.path for it in plan.items if plan.action(it) in ("write", "remove")}
    manifests = {it.target for it in plan.items if plan.action(it) != "none"}
    return max(1, len(paths) + len(manifests))


class ApplyScreen(Screen):
    """Runs engine.apply_plan in a worker; shows each step, then the result. Dismisses with the
    ApplyResult (or None when nothing was applied)."""

    BINDINGS = [Binding("escape", "done", "Done"), Binding("enter", "done", "Done", show=False)]
    PALETTE = [("Done", "Back to the plan", "done")]

    def __init__(self, host: Host, plan: Plan, title: str = "Applying the plan",
                 recompute: Callable[[], Plan] | None = None, note: str = "") -> None:
        """`recompute`: the plan to compare with afterwards (what is left over); the caller's
        own, so per-run overrides count. `note`: said under the result (e.g. which choices last
        for this run only)."""
        super().__init__(id="apply")
        self.host = host
        self.plan = plan
        self.title_text = title
        self.recompute = recompute
        self.note = note
        self.finished = False
        self.result = None
        self.steps = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="apply-box"):
            yield Static(Text(self.title_text, style="bold"), id="apply-title")
            yield Static(Text(self.plan.summary()), id="apply-summary")
            yield ProgressBar(total=expected_steps(self.plan), show_eta=False, id="apply-progress")
            yield RichLog(id="apply-log", wrap=True, markup=False, highlight=False)
            yield Static("", id="apply-result")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Done", id="apply-done", variant="primary", disabled=True)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self._run()

    @work(thread=True, exclusive=True, group="apply")
    def _run(self) -> None:
        host, plan = self.host, self.plan

        def progress(line: str) -> None:
            self.post_message(ApplyProgress(line))

        try:
            result = engine.apply_plan(host, plan, progress=progress)
        except UserError as e:
            # lock held, stale plan, undecided conflict: refused before the first write
            self.post_message(ApplyDone(error=home_relative(host, str(e)), written_nothing=True))
            return
        except Exception as e:  # noqa: BLE001 - an apply that broke midway is rolled back
            recovered = None
            try:
                recovered = engine.recover(host)
            except Exception as e2:  # noqa: BLE001
                recovered = f"rolling back failed too: {e2}"
            self.post_message(ApplyDone(error=home_relative(host, f"{type(e).__name__}: {e}"),
                                        written_nothing=False, recovered=recovered))
            return
        if self.recompute is not None:
            try:
                result.leftover = leftover(plan, self.recompute())
            except Exception as e:  # noqa: BLE001 - applied; only the check afterwards failed
                result.leftover = [f"(could not compute the plan again: {e})"]
        self.post_message(ApplyDone(result=result, backed_up=backed_up(host, result)))

    def on_apply_progress(self, event: ApplyProgress) -> None:
        self.steps += 1
        self.query_one(RichLog).write(Text(home_relative(self.host, event.line)))
        bar = self.query_one(ProgressBar)
        bar.update(progress=min(self.steps, bar.total or self.steps))

    def finished_title(self, failed: bool) -> str:
        """The title once the apply is over: "Applying the plan" is no longer true."""
        prefix = self.title_text.split(":", 1)[0] + ": " if ":" in self.title_text else ""
        return prefix + ("Apply failed" if failed else "Plan applied")

    def on_apply_done(self, event: ApplyDone) -> None:
        self.finished = True
        self.result = event.result
        self.query_one("#apply-title", Static).update(
            Text(self.finished_title(bool(event.error)), style="bold"))
        bar = self.query_one(ProgressBar)
        out = Text()
        if event.error:
            out.append("Apply failed: ", style="bold red3")
            out.append(event.error)
            if event.written_nothing:
                out.append("\nNothing was written.", style="bold")
            elif event.recovered:
                out.append(f"\n{home_relative(self.host, event.recovered)}", style="bold")
        else:
            r = event.result
            bar.update(total=max(self.steps, 1), progress=max(self.steps, 1))
            out.append(f"Applied: {count_of(len(r.written), 'file')} written, {len(r.removed)} removed.",
                       style="bold #2f9e44")
            if event.backed_up:
                out.append("\nBackups of what was replaced: ")
                out.append(self.host.display(r.backup_dir), style="bold")
            if r.leftover:
                out.append("\nAfter applying, the plan still has changes: ", style="bold red3")
                out.append(home_relative(self.host, "; ".join(r.leftover)))
            else:
                out.append(f"\n{self.plan.after_apply_words()}")
            for t, lines in (getattr(r, "inert", None) or {}).items():   # the effect, last
                out.append(f"\nBut {t}'s hooks are inert: ", style="bold red3")
                out.append(home_relative(self.host, "; ".join(lines)))
            if self.note:
                out.append(f"\n{self.note}", style="dark_orange3")
        self.query_one("#apply-result", Static).update(out)
        done = self.query_one("#apply-done", Button)
        done.disabled = False
        done.focus()
        self.app.bindings_changed()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "done":
            return self.finished or None
        return True

    def action_done(self) -> None:
        if self.finished:
            self.dismiss(self.result)

    @on(Button.Pressed, "#apply-done")
    def _done(self) -> None:
        self.action_done()


class QuitScreen(ModalScreen[bool]):
    """q with choices not yet applied: quit anyway, or stay. Dismisses with True to quit."""

    BINDINGS = [
        Binding("escape", "stay", "Stay"),
        Binding("n", "stay", "Stay", show=False),
        Binding("y", "quit_now", "Quit without applying"),
        Binding("q", "quit_now", "Quit", show=False),
    ]
    PALETTE = [
        ("Quit without applying", "Leave; the choices are lost, nothing is written", "quit_now"),
        ("Stay", "Back to where you were", "stay"),
    ]

    def __init__(self, unsaved: int) -> None:
        super().__init__(id="confirm-quit")
        self.unsaved = unsaved

    def compose(self) -> ComposeResult:
        n = self.unsaved
        with Vertical(classes="dialog", id="quit-box"):
            yield Static(Text("Quit without applying?", style="bold"), classes="dialog-title")
            yield Static(Text(f"{n} choice{'s' if n != 1 else ''} (decisions, switches) "
                              f"{'have' if n != 1 else 'has'} not been applied and will be lost. "
                              "Nothing has been written.", style=""), id="quit-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Quit", id="quit-yes", variant="error")
                yield Button("Stay", id="quit-no", variant="primary")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#quit-no", Button).focus()

    def action_quit_now(self) -> None:
        self.dismiss(True)

    def action_stay(self) -> None:
        self.dismiss(False)

    @on(Button.Pressed, "#quit-yes")
    def _yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#quit-no")
    def _no(self) -> None:
        self.dismiss(False)
