"""The repository screen: open a repository folder and see the hooks it would carry for its
three readers (Copilot CLI in a trusted folder, VS Code agent mode, the Copilot cloud agent):
the plan (tree and diffs), which reader gets which payload for each event, and the doctor's
findings at repository scope. Apply goes through the same confirmation as the main screen.

Drives the core through engine.build_repo_plan, engine.build_repo_uninstall_plan,
engine.apply_plan and core.doctor.repo_checks.repo_findings; reads nothing itself."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import (Button, DataTable, Footer, Input, Label, Static, Switch,
                             TabbedContent, TabPane)

from agentdeck.core import engine
from agentdeck.core.host import Host
from agentdeck.core.plan import Plan
from agentdeck.core.views import repo as repo_view

from ..messages import Decided
from ..session import Session, DECIDE_HINT, home_relative
from ..widgets.plan_pane import PlanPane
from ..widgets.tabs import step_tab, switch_tab
from ..widgets.plan_tree import PlanTree
from ..widgets.style import RESULT_STYLE, level_prefix

DECIDE = Binding.Group("keep/take/skip")
TAB = Binding.Group("tab")
TABS = (("repo-tab-plan", "Plan"), ("repo-tab-readers", "Readers"),
        ("repo-tab-doctor", "Doctor"), ("repo-tab-notices", "Notices"))
RESULT_ORDER = ("error", "warning", "info", "ok", "skipped")


class RepoView:
    """The host as the repository screen shows paths: inside the repository relative to its
    root (.github/hooks/agentdeck.json), elsewhere with the home as ~. Display only."""

    def __init__(self, host: Host, root: str) -> None:
        self._host = host
        self.root = root.rstrip(os.sep) or os.sep

    def __getattr__(self, name: str) -> Any:
        return getattr(self._host, name)

    def display(self, path) -> str:
        s = str(path)
        if s == self.root:
            return "."
        if s.startswith(self.root + os.sep):
            return s[len(self.root) + 1:]
        return self._host.display(path)


class RepoReady(Message):
    def __init__(self, root: str, plan: Plan | None, findings: list | None, error: str | None,
                 generation: int) -> None:
        super().__init__()
        self.root, self.plan, self.findings, self.error = root, plan, findings, error
        self.generation = generation


class UninstallReady(Message):
    def __init__(self, plan: Plan | None, error: str | None) -> None:
        super().__init__()
        self.plan, self.error = plan, error


def readers_view(host, plan: Plan) -> Group:
    """Per event: which reader runs it and with which payload; the readers; trust; other hook
    sources; the cloud setup step (core/views/repo.py)."""
    view = repo_view.of(plan)
    parts: list = []
    head = Text()
    for rd in view.readers:
        head.append(rd.title, style="bold")
        head.append(f"  {rd.loads}\n", style="dim")
    head.append("\nThis folder in Copilot CLI: ", style="bold")
    if view.allow_all:
        head.append("every folder is trusted (allow-all)", style="#2f9e44")
    elif view.trusted:
        head.append("trusted", style="#2f9e44")
        if view.trusted_via:
            head.append(f" (via {host.display(view.trusted_via)})", style="dim")
    else:
        head.append("✗ not trusted", style="bold dark_orange3")
        head.append(": Copilot CLI loads none of these hooks until you trust the folder when it "
                    "asks at start-up (agentdeck never writes its config.json)", style="dim")
    if view.handler_missing:
        head.append("\nThis machine's handler: ", style="bold")
        head.append("⚠ not on PATH", style="bold dark_orange3")
        head.append(": hooks fire but enforce nothing here (the wrapper finds no handler "
                    "and exits 0); the fix is in the Notices and Doctor tabs", style="dim")
    parts.append(head)

    if view.events:
        parts.append(Text("\nWhich reader runs each event, and the payload it sends:",
                          style="bold"))
        tb = Table(box=None, header_style="bold", pad_edge=False, expand=True)
        tb.add_column("event", no_wrap=True)
        for rd in view.readers:
            tb.add_column(rd.short, no_wrap=True, overflow="ellipsis")
        notes: list[Text] = []
        for ev in view.events:
            cells = [Text(ev.key)]
            for c in ev.cells:
                if c.fires:
                    cells.append(Text(f"✓ {c.dialect}", style="#2f9e44"))
                else:
                    cells.append(Text("✗ never fires", style="grey50"))
                if c.listed:
                    n = Text()
                    n.append(ev.key, style="bold")
                    n.append(f" · {c.reader}: {c.note}", style="dim")
                    notes.append(n)
            tb.add_row(*cells)
        parts.append(tb)
        if notes:
            parts.append(Text(""))
            parts.extend(notes)
    for n in plan.notices.get(view.target, []):
        if n.message.startswith("payload dialects:"):
            parts.append(Text(""))
            parts.append(Text(home_relative(host, n.message), style="dim"))

    parts.append(Text("\nOther hook sources in this repository", style="bold"))
    if not view.other_sources:
        parts.append(Text("none found", style="dim"))
    for src in view.other_sources:
        t = Text("• ")
        t.append(host.display(src.path))
        if src.events:
            t.append(f"  ({', '.join(src.events)})", style="dim")
        if src.note:
            t.append(f"\n  {src.note}", style="dim")
        parts.append(t)

    if view.cloud_setup:
        t = Text("\nCloud agent setup step  ", style="bold")
        t.append(host.display(view.cloud_file))
        if view.cloud_note:
            t.append(f"\n{home_relative(host, view.cloud_note)}", style="dim")
        parts.append(t)
    return Group(*parts)


class RepoScreen(Screen):
    """Dismissed with escape (back to the main screen)."""

    BINDINGS = [
        Binding("a", "apply", "Apply"),
        Binding("k", "decide('keep')", "Keep mine", group=DECIDE),
        Binding("t", "decide('take')", "Take profile's", group=DECIDE),
        Binding("s", "decide('skip')", "Skip", group=DECIDE),
        Binding("left_square_bracket", "prev_tab", "Previous tab", group=TAB),
        Binding("right_square_bracket", "next_tab", "Next tab", group=TAB),
        *[Binding(str(n), f"tab('{tid}')", f"{title} tab", show=False)
          for n, (tid, title) in enumerate(TABS, 1)],
        Binding("f", "folder", "Folder"),
        Binding("r", "refresh", "Refresh", show=False),
        Binding("x", "uninstall", "Remove", show=False),
        Binding("u", "show_unchanged", "Show unchanged", show=False),
        Binding("escape", "back", "Back"),
    ]
    PALETTE = [
        ("Apply the repository plan", "Review the decisions and write the repository's hooks",
         "apply"),
        ("Open another folder", "Type the repository folder to open (f)", "folder"),
        ("Refresh the repository plan", "Compute the plan and the findings again (r)", "refresh"),
        ("Remove agentdeck's hooks from this repository",
         "Plan the removal of everything agentdeck wrote here, then confirm (x)", "uninstall"),
        ("Back", "Back to the main screen", "back"),
    ]

    def __init__(self, session: Session, path: str | None = None) -> None:
        super().__init__(id="repo")
        self.session = session
        self.path = path
        self.root: str | None = None
        self.plan: Plan | None = None
        self.findings: list = []
        self.error: str | None = None
        self.computing = False
        self.generation = 0
        self.decisions: dict[str, str] = {}

    @property
    def host(self) -> Host:
        return self.session.host

    @property
    def view(self):
        return RepoView(self.host, self.root) if self.root else self.host

    # ---- layout -------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="repo-bar"):
            yield Label("Repository", id="repo-label")
            yield Input(self.path or "", placeholder="a repository folder, e.g. ~/src/project",
                        id="repo-path")
            yield Button("Open", id="repo-open", compact=True, variant="primary")
        with Horizontal(id="repo-options", classes="option-row"):
            yield Switch(False, animate=False, id="repo-cloud")
            yield Static("", id="repo-cloud-text")
        with TabbedContent(id="repo-tabs"):
            with TabPane("Plan", id="repo-tab-plan"):
                yield PlanPane(id="repo-plan")
            with TabPane("Readers", id="repo-tab-readers"):
                with VerticalScroll(id="repo-readers"):
                    yield Static("", id="readers-body")
            with TabPane("Doctor", id="repo-tab-doctor"):
                with Vertical(id="repo-doctor"):
                    yield DataTable(id="repo-doctor-table", cursor_type="row", zebra_stripes=True)
                    yield Static("", id="repo-doctor-fix")
            with TabPane("Notices", id="repo-tab-notices"):
                with VerticalScroll(id="repo-notices"):
                    yield Static("", id="repo-notices-body")
        yield Static("", id="status")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.set_class(self.size.width < 110, "-narrow")
        t = self.query_one("#repo-doctor-table", DataTable)
        t.add_column("result", key="result")
        t.add_column("check", key="check")
        t.add_column("message", key="message")
        self._cloud_text()
        self._refresh()
        if self.path:
            self.open(self.path)
        else:
            self.query_one("#repo-path", Input).focus()

    def on_resize(self, event) -> None:
        self.set_class(event.size.width < 110, "-narrow")

    # ---- opening and planning -----------------------------------------------------------------
    def open(self, path: str) -> None:
        path = path.strip()
        if not path:
            self.notify("Type the repository's folder first.", severity="warning")
            return
        root = os.path.abspath(os.path.expanduser(path))
        if root != self.root:
            self.decisions.clear()
        self.root = root
        self.query_one("#repo-path", Input).value = self.host.display(root)
        self.compute()

    def compute(self) -> None:
        if self.root is None:
            return
        self.generation += 1
        self.computing = True
        self.plan = None
        self._refresh()
        self._worker(self.root, self.generation)

    def cloud_setup(self) -> bool:
        return self.query_one("#repo-cloud", Switch).value

    @work(thread=True, exclusive=True, group="repo")
    def _worker(self, root: str, generation: int) -> None:
        host, profile = self.host, self.session.profile
        try:
            plan = engine.build_repo_plan(host, root, profile, cloud_setup=self.cloud_setup())
        except Exception as e:  # noqa: BLE001 - one line on screen
            self.post_message(RepoReady(root, None, None, home_relative(host, str(e)),
                                        generation))
            return
        try:
            from agentdeck.core.doctor.repo_checks import repo_findings

            findings = list(repo_findings(host, root, profile=profile, live=False))
        except Exception as e:  # noqa: BLE001 - the plan still shows
            from agentdeck.core.doctor.findings import Finding

            findings = [Finding("repo", "error", "repo.doctor",
                                f"the repository doctor failed: {e}")]
        self.post_message(RepoReady(root, plan, findings, None, generation))

    def on_repo_ready(self, event: RepoReady) -> None:
        if event.generation != self.generation:
            return
        self.computing = False
        self.error = event.error
        self.plan = event.plan
        self.findings = event.findings or []
        if self.plan is not None:
            for item_id, d in list(self.decisions.items()):
                try:
                    self.plan.decide(item_id, d)
                except (KeyError, ValueError):
                    self.decisions.pop(item_id, None)
        self._refresh()
        path = self.query_one("#repo-path", Input)
        if self.error is not None:
            # the folder could not be planned: the field keeps the focus, to type another
            self.call_after_refresh(path.focus)
        elif self.focused is None or self.focused is path:
            self.call_after_refresh(self._focus_plan)

    def _focus_plan(self) -> None:
        tree = self.query_one(PlanTree)
        if tree.display:
            tree.focus()

    # ---- drawing ------------------------------------------------------------------------------
    def _refresh(self) -> None:
        view, plan = self.view, self.plan
        pane = self.query_one(PlanPane)
        if self.root is None:
            pane.load(view, None, None)
            pane.query_one("#plan-note", Static).update(Text(
                "Open a repository folder: type its path above and press Enter. agentdeck "
                "plans .github/hooks/agentdeck.json and its wrapper there, for Copilot CLI, "
                "VS Code agent mode and the Copilot cloud agent.", style="dim"))
        else:
            pane.load(view, plan, repo_view.of(plan).target if plan is not None else None,
                      error=self.error)
            if self.computing:
                pane.query_one("#plan-note", Static).update(
                    Text("Computing the repository's plan…", style="dim"))
        readers = self.query_one("#readers-body", Static)
        notices = self.query_one("#repo-notices-body", Static)
        if plan is None:
            msg = Text("Open a repository first." if self.root is None else
                       ("Could not compute the plan: see the Plan tab." if self.error
                        else "Computing…"), style="bold red3" if self.error else "dim")
            readers.update(msg)
            notices.update(msg)
        else:
            readers.update(readers_view(view, plan))
            body = Text()
            ns = plan.notices.get(repo_view.of(plan).target, [])
            if not ns:
                body.append("No notices.", style="dim")
            for n, notice in enumerate(ns):
                if n:
                    body.append("\n")
                body.append_text(level_prefix(notice.level))
                body.append(home_relative(self.host, notice.message))
            notices.update(body)
            tabs = self.query_one(TabbedContent)
            tabs.get_tab("repo-tab-notices").label = f"Notices ({len(ns)})" if ns else "Notices"
        self._fill_doctor()
        self._status()
        self.app.bindings_changed()

    def _status(self) -> None:
        st = self.query_one("#status", Static)
        if self.root is None:
            st.update(Text("No repository open.", style="dim"))
        elif self.computing:
            st.update(Text("Computing the repository's plan…", style="italic"))
        elif self.error:
            line = Text("Could not compute the plan: ", style="bold red3", no_wrap=True,
                        overflow="ellipsis")
            line.append(self.error.splitlines()[0])
            st.update(line)
        elif self.plan is not None:
            t = Text(self.plan.summary(), style="bold", no_wrap=True, overflow="ellipsis")
            und = self.plan.undecided_conflicts()
            if und:
                t.append("  " + DECIDE_HINT, style="bold red3")
            counts = {r: sum(1 for f in self.findings if f.result == r) for r in RESULT_ORDER}
            bad = [f"{n} {r}{'s' if n != 1 else ''}" for r, n in counts.items()
                   if n and r in ("error", "warning")]
            if bad:
                t.append(f"  doctor: {', '.join(bad)}", style="dark_orange3")
            st.update(t)
        st.set_class(bool(self.error), "-error")

    def _fill_doctor(self) -> None:
        table = self.query_one("#repo-doctor-table", DataTable)
        table.clear()
        order = {r: i for i, r in enumerate(RESULT_ORDER)}
        self._rows = sorted(self.findings, key=lambda f: (order.get(f.result, 9), f.check))
        for n, f in enumerate(self._rows):
            style = RESULT_STYLE.get(f.result, "")
            table.add_row(Text(f.result, style=style), Text(f.check, style="dim"),
                          Text(home_relative(self.host, f.message), no_wrap=True,
                               overflow="ellipsis"), key=str(n))
        self._show_fix()

    def _show_fix(self) -> None:
        fix = self.query_one("#repo-doctor-fix", Static)
        rows = getattr(self, "_rows", [])
        if not rows:
            fix.update(Text("No findings yet." if self.root is None or self.computing
                            else "No findings.", style="dim"))
            return
        table = self.query_one("#repo-doctor-table", DataTable)
        f = rows[min(max(table.cursor_row or 0, 0), len(rows) - 1)]
        t = Text()
        t.append(f"{f.result} ", style=RESULT_STYLE.get(f.result, ""))
        t.append(f.check, style="bold")
        if f.path:
            t.append(f"  {self.view.display(f.path)}{':' + str(f.line) if f.line else ''}",
                     style="dim")
        t.append("\n" + home_relative(self.host, f.message))
        if f.fix:
            t.append("\nfix: ", style="bold #2f9e44")
            t.append(home_relative(self.host, f.fix))
        fix.update(t)

    @on(DataTable.RowHighlighted, "#repo-doctor-table")
    def _highlight(self) -> None:
        self._show_fix()

    def _cloud_text(self) -> None:
        on_ = self.cloud_setup()
        t = Text()
        t.append("ON " if on_ else "OFF", style="bold #2f9e44" if on_ else "bold grey50")
        t.append("  cloud agent setup step ", style="bold")
        t.append("(copilot-setup-steps.yml installs the handler where the cloud agent runs)",
                 style="dim")
        self.query_one("#repo-cloud-text", Static).update(t)

    # ---- events -------------------------------------------------------------------------------
    @on(Input.Submitted, "#repo-path")
    @on(Button.Pressed, "#repo-open")
    def _open(self) -> None:
        self.open(self.query_one("#repo-path", Input).value)

    @on(Switch.Changed, "#repo-cloud")
    def _cloud(self) -> None:
        self._cloud_text()
        self.compute()

    @on(Decided)
    def _decided(self, event: Decided) -> None:
        if self.plan is None:
            return
        try:
            self.plan.decide(event.item_id, event.decision)
        except (KeyError, ValueError) as e:
            self.notify(str(e), severity="warning")
            return
        self.decisions[event.item_id] = event.decision
        self._refresh()

    @on(TabbedContent.TabActivated)
    def _tab_changed(self) -> None:
        self.app.bindings_changed()

    # ---- actions ------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "decide":
            if self.query_one(TabbedContent).active != "repo-tab-plan" or self.plan is None:
                return None
            return self.query_one(PlanPane).check_action(str(parameters[0]), ())
        if action == "apply":
            return bool(self.plan is not None and not self.computing and self.plan.has_work) \
                or None
        if action in ("refresh", "uninstall"):
            return (self.root is not None and not self.computing) or None
        return True

    def unsaved(self) -> int:
        if self.plan is None:
            return 0
        ids = {i.id: i for i in self.plan.items}
        return sum(1 for k, d in self.decisions.items()
                   if k in ids and d != ids[k].default_decision)

    def action_decide(self, what: str) -> None:
        pane = self.query_one(PlanPane)
        if pane.check_action(what, ()):
            getattr(pane, f"action_{what}")()

    def action_tab(self, tab_id: str) -> None:
        switch_tab(self.query_one(TabbedContent), tab_id)

    def _step_tab(self, step: int) -> None:
        step_tab(self.query_one(TabbedContent), [t for t, _ in TABS], step)

    def action_next_tab(self) -> None:
        self._step_tab(1)

    def action_prev_tab(self) -> None:
        self._step_tab(-1)

    def action_show_unchanged(self) -> None:
        switch_tab(self.query_one(TabbedContent), "repo-tab-plan")
        pane = self.query_one(PlanPane)
        pane.show_all = not pane.show_all

    def action_folder(self) -> None:
        inp = self.query_one("#repo-path", Input)
        inp.focus()
        inp.select_all()

    def action_refresh(self) -> None:
        if self.check_action("refresh", ()):
            self.compute()

    def action_back(self) -> None:
        if self.focused is self.query_one("#repo-path", Input) and self.root is not None:
            self.query_one(PlanTree).focus()     # escape leaves the folder field first
            return
        self.app.pop_screen()

    def action_apply(self) -> None:
        if not self.check_action("apply", ()):
            return
        self._confirm_and_apply(self.plan, "Apply the repository plan?",
                                "Applying the repository plan")

    def _confirm_and_apply(self, plan: Plan, title: str, progress_title: str) -> None:
        from .apply import ConfirmApplyScreen

        def applied(result) -> None:
            if result is not None:
                self.decisions.clear()
            self.compute()

        def confirmed(ok: bool | None) -> None:
            if ok:
                self.app.push_screen(self.app.make_apply_screen(plan, progress_title), applied)

        self.app.push_screen(ConfirmApplyScreen(self.host, plan, title=title), confirmed)

    def action_uninstall(self) -> None:
        if self.check_action("uninstall", ()):
            self._uninstall_worker(self.root)

    @work(thread=True, exclusive=True, group="repo-uninstall")
    def _uninstall_worker(self, root: str) -> None:
        try:
            plan = engine.build_repo_uninstall_plan(self.host, root)
        except Exception as e:  # noqa: BLE001
            self.post_message(UninstallReady(None, home_relative(self.host, str(e))))
            return
        self.post_message(UninstallReady(plan, None))

    def on_uninstall_ready(self, event: UninstallReady) -> None:
        if event.error:
            self.notify(f"Could not plan the removal: {event.error}", severity="error")
            return
        plan = event.plan
        if plan is None or not plan.has_work:
            self.notify("agentdeck has written nothing to this repository: nothing to remove.",
                        title="Remove")
            return
        self._confirm_and_apply(plan, "Remove agentdeck's hooks from this repository?",
                                "Removing agentdeck's hooks from the repository")
