"""The plan as a tree of files with `+ ~ - !` marks. Posts PlanTree.ItemChosen when the
highlighted item changes; the screen shows its diff."""
from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import Tree

from core.host import Host
from core.plan import Plan, PlanItem

from ..session import item_title, symbol
from .style import MARK_STYLE

ORDER = {"!": 0, "-": 1, "~": 2, "+": 3, ">": 4, " ": 5}


def _mark(plan: Plan, it: PlanItem) -> str:
    """The item's mark; a change the operator skipped keeps the mark it would have had."""
    sym = symbol(plan, it)
    if sym == " " and plan.decision(it) == "skip":
        return "+" if it.cls == "create" else "-" if it.cls == "remove" else "~"
    return sym


def _worst(marks: list[str]) -> str:
    return min(marks, key=lambda m: ORDER.get(m, 9)) if marks else " "


class PlanTree(Tree):
    """Files, then the items inside each file. Only items with something to show by default;
    `show_all` adds the unchanged ones."""

    class ItemChosen(Message):
        def __init__(self, item: PlanItem | None) -> None:
            super().__init__()
            self.item = item

    def __init__(self, **kw) -> None:
        super().__init__("plan", **kw)
        self.show_root = False
        self.guide_depth = 2
        self.auto_expand = False

    def load(self, host: Host, plan: Plan | None, target: str | None, show_all: bool = False,
             keep_id: str | None = None) -> int:
        """Fill the tree with `target`'s items; returns how many items are shown."""
        self.clear()
        if plan is None or target is None:
            self.post_message(self.ItemChosen(None))
            return 0
        items = plan.for_target(target)
        shown = [i for i in items if show_all or symbol(plan, i) != " "
                 or plan.decision(i) == "skip"]     # a skipped change stays in view
        by_path: dict[str, list[PlanItem]] = {}
        for it in shown:
            by_path.setdefault(it.path, []).append(it)
        select_line = None
        for path, its in sorted(by_path.items(), key=lambda kv: host.display(kv[0])):
            marks = [_mark(plan, i) for i in its]
            sym = _worst(marks)
            label = Text(no_wrap=True, overflow="ellipsis")
            label.append(f"{sym} ", style=MARK_STYLE.get(sym, ""))
            label.append(host.display(path))
            if len(its) == 1 and its[0].kind in ("file", "link", "block"):
                it = its[0]
                if it.kind == "block":
                    label.append(f"  {it.label or 'managed block'}", style="dim")
                label.append_text(self._tail(plan, it))
                node = self.root.add_leaf(label, data=it)
                if it.id == keep_id:
                    select_line = node
                continue
            label.append(f"  ({len(its)})", style="dim")
            parent = self.root.add(label, data=None, expand=True)
            for it in its:
                s = _mark(plan, it)
                lab = Text(no_wrap=True, overflow="ellipsis")
                lab.append(f"{s} ", style=MARK_STYLE.get(s, ""))
                lab.append(item_title(host, it))
                lab.append_text(self._tail(plan, it))
                node = parent.add_leaf(lab, data=it)
                if it.id == keep_id:
                    select_line = node
        # place the cursor now (lines are built on demand) and say which item is shown
        self._tree_lines
        target = select_line if select_line is not None else self._first_item()
        if target is not None:
            self.cursor_line = target.line
            self.scroll_to_node(target, animate=False)
        self.post_message(self.ItemChosen(target.data if target is not None else None))
        return len(shown)

    def _first_item(self):
        for node in self.root.children:
            if node.data is not None:
                return node
            if node.children:
                return node.children[0]
        return None

    @staticmethod
    def _tail(plan: Plan, it: PlanItem) -> Text:
        t = Text()
        d = plan.decision(it)
        if it.cls == "conflict" and it.id not in plan.decisions:
            t.append("  decide", style="bold red3")
        elif it.cls in ("hand-edited", "foreign", "conflict"):
            t.append("  yours kept" if d == "keep" else "  taking profile's",
                     style="magenta3" if d == "keep" else "bold magenta3")
        elif d == "skip":
            t.append("  skipped", style="grey50 italic")
        return t

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        event.stop()
        if event.node is not self.cursor_node:
            return      # a highlight from before the last reload
        self.post_message(self.ItemChosen(event.node.data))
