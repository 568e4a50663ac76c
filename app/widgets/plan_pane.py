"""The Plan pane: the tree of files on one side, the selected item's diff on the other, and the
decision keys for the selected item. Posts Decided; the screen owns the plan."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Container
from textual.reactive import reactive
from textual.widgets import Input, Static

from agentdeck.core.host import Host
from agentdeck.core.plan import Plan, PlanItem

from ..messages import Decided
from .diff_view import DiffView
from .plan_tree import PlanTree


def error_text(error: str) -> Text:
    """Why there is no plan, in full (the status line has room for one line only)."""
    t = Text()
    t.append("Could not compute the plan\n", style="bold red3")
    t.append(error)
    t.append("\n\nFix the file named above (or choose another profile), then press r to compute "
             "the plan again. Nothing has been written.", style="dim")
    return t


class PlanPane(Container):
    """Decision keys (k, t, s, u) are bound by the screen, which calls these actions."""

    show_all: reactive[bool] = reactive(False)

    def __init__(self, **kw) -> None:
        kw["classes"] = (kw.get("classes", "") + " plan-pane").strip()
        super().__init__(**kw)
        self.host: Host | None = None
        self.plan: Plan | None = None
        self.target: str | None = None
        self.item: PlanItem | None = None

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter: part of a path or key (enter: to the tree, escape: clear)",
                    id="plan-filter", compact=True)
        yield Static("", id="plan-note", classes="empty-note")
        yield PlanTree(classes="plan-tree")
        yield DiffView(classes="plan-diff")

    def on_mount(self) -> None:
        box = self.query_one("#plan-filter", Input)
        box.display = False
        box.can_focus = False            # hidden: tab and the tab keys' focus skip it

    # ---- the filter (/ on the main screen) ------------------------------------------------------
    @property
    def filter_text(self) -> str:
        return self.query_one("#plan-filter", Input).value.strip()

    def open_filter(self) -> None:
        box = self.query_one("#plan-filter", Input)
        box.display = True
        box.can_focus = True
        box.focus()

    def close_filter(self) -> None:
        box = self.query_one("#plan-filter", Input)
        had = bool(box.value)
        box.value = ""
        box.display = False
        box.can_focus = False
        if not had and self.host is not None:
            self.load(self.host, self.plan, self.target)
        self.query_one(PlanTree).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "plan-filter":
            return
        event.stop()
        if self.host is not None:
            self.load(self.host, self.plan, self.target)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "plan-filter":
            return
        event.stop()
        if not event.value.strip():
            self.close_filter()
            return
        self.query_one(PlanTree).focus()

    def on_key(self, event) -> None:
        if event.key == "escape" and self.query_one("#plan-filter", Input).has_focus:
            event.stop()
            event.prevent_default()
            self.close_filter()

    def load(self, host: Host, plan: Plan | None, target: str | None,
             error: str | None = None) -> None:
        """Show `target`'s items (PlanTree.ALL: every target). With no plan: "computing", or
        `error` in full (the reason no plan could be computed)."""
        self.host, self.plan, self.target = host, plan, target
        keep = self.item.id if self.item else None
        tree = self.query_one(PlanTree)
        text = self.filter_text if self.is_mounted else ""
        n = tree.load(host, plan, target, show_all=self.show_all, keep_id=keep, match=text)
        note = self.query_one("#plan-note", Static)
        if plan is not None and text and n == 0:
            note.update(Text(f"Nothing in the plan matches {text!r}"
                             + ("" if self.show_all else " (u lists the unchanged items too)")
                             + ". Escape clears the filter.", style="dim"))
        elif plan is None and error:
            note.update(error_text(error))
        elif plan is None:
            note.update(Text("Computing the plan…", style="dim"))
        elif target != PlanTree.ALL and target not in plan.targets:
            note.update(Text("This target is not part of the plan (see the profile's targets "
                             "or --target).", style="dim"))
        elif n == 0:
            items = plan.items if target == PlanTree.ALL else plan.for_target(target)
            msg = "In sync: nothing to change." if items \
                else "The profile installs nothing for this target."
            if not self.show_all and items:
                msg += " Press u to list the unchanged items."
            note.update(Text(msg))
        else:
            note.update("")
        note.display = n == 0
        tree.display = n > 0
        self.query_one(DiffView).display = n > 0
        if n == 0:
            self.item = None
            self.query_one(DiffView).show(host, plan, None)
        elif self.item is not None and plan is not None:
            # same id, new plan object: show the fresh item
            try:
                self.item = plan.get(self.item.id)
            except KeyError:
                self.item = None
            self._show()

    def _show(self) -> None:
        dark = self.app.current_theme.dark if self.is_mounted else True
        self.query_one(DiffView).show(self.host, self.plan, self.item, dark)
        self.app.bindings_changed()

    def on_plan_tree_item_chosen(self, event: PlanTree.ItemChosen) -> None:
        event.stop()
        self.item = event.item
        self._show()

    def watch_show_all(self, value: bool) -> None:
        if self.host is not None:
            self.load(self.host, self.plan, self.target)

    # ---- decisions ----------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        it = self.item
        if action in ("keep", "take", "skip"):
            return bool(it is not None and action in it.choices) or None
        return True

    def action_keep(self) -> None:
        if self.item and "keep" in self.item.choices:
            self.post_message(Decided(self.item.id, "keep"))

    def action_take(self) -> None:
        if self.item and "take" in self.item.choices:
            self.post_message(Decided(self.item.id, "take"))

    def action_skip(self) -> None:
        if self.item and "skip" in self.item.choices and self.plan is not None:
            d = self.plan.decision(self.item)
            self.post_message(Decided(self.item.id, "apply" if d == "skip" else "skip"))

    def action_toggle_unchanged(self) -> None:
        self.show_all = not self.show_all
