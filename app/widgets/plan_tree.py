"""The plan as a tree of files with `+ ~ - !` marks. Posts PlanTree.ItemChosen when the
highlighted item changes; the screen shows its diff."""
from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import Tree

from agentdeck.core.host import Host
from agentdeck.core.plan import KEPT_CLASSES, Plan, PlanItem
from agentdeck.core.views import found as found_view

from ..session import item_title, symbol
from .style import MARK_STYLE

ORDER = {"!": 0, "*": 1, "-": 2, "~": 3, "+": 4, ">": 5, " ": 6}


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

    #: sentinel for load(): every target of the plan, grouped under a node per target
    ALL = "*"

    def load(self, host: Host, plan: Plan | None, target: str | None, show_all: bool = False,
             keep_id: str | None = None, match: str = "") -> int:
        """Fill the tree with `target`'s items (PlanTree.ALL: every target, one group each);
        returns how many items are shown. `match`: only items whose path, key or label
        contains it (case does not matter)."""
        self._match = match.lower()
        self._host = host
        self.clear()
        if plan is None or target is None:
            self.post_message(self.ItemChosen(None))
            return 0
        self._select = None
        total = 0
        if target == self.ALL:
            from ..session import target_status, target_title

            for t in plan.targets:
                shown = self._shown(plan, t, show_all)
                label = Text(no_wrap=True, overflow="ellipsis")
                label.append(target_title(t), style="bold")
                # the main screen's badge: one count everywhere
                label.append(f"  ({target_status(plan, t).badge()})", style="dim")
                group = self.root.add(label, data=None, expand=bool(shown))
                self._add_found(host, plan, t, group)
                self._add_files(host, plan, group, shown, keep_id)
                total += len(shown)
        else:
            shown = self._shown(plan, target, show_all)
            self._add_found(host, plan, target, self.root)
            self._add_files(host, plan, self.root, shown, keep_id)
            total = len(shown)
        # place the cursor now (lines are built on demand) and say which item is shown
        self._tree_lines
        node = self._select if self._select is not None else self._first_leaf(self.root)
        if node is not None:
            self.cursor_line = node.line
            if self._select is not None:
                self.scroll_to_node(node, animate=False)
            else:
                self.scroll_home(animate=False)
        self.post_message(self.ItemChosen(node.data if node is not None else None))
        return total

    def _add_found(self, host: Host, plan: Plan, target: str, under) -> None:
        """Another tool's install found in this home (core/targets/takeover.py): one node with
        each part and its fate; the parts a plan item carries out are listed with the files."""
        for f in found_view.of(plan, target):
            label = Text(no_wrap=True, overflow="ellipsis")
            label.append(f.title, style="bold")
            node = under.add(label, data=None, expand=True)
            for p in f.parts:
                lab = Text(no_wrap=True, overflow="ellipsis")
                item = self._item_of(plan, p.item)
                if item is not None:      # the part's plan item: k / t / s decide it here too
                    sym = _mark(plan, item)
                    lab.append(f"{sym} ", style=MARK_STYLE.get(sym, ""))
                else:
                    lab.append("  ")          # the fates line up with the marked rows
                lab.append(f"{p.fate:<9} ", style="dim" if p.fate == "kept" else "bold")
                lab.append(f"{p.title}  {host.display(p.path)}")
                node.add_leaf(lab, data=item)

    @staticmethod
    def _item_of(plan: Plan, item_id: str | None) -> PlanItem | None:
        if not item_id:
            return None
        try:
            return plan.get(item_id)
        except KeyError:
            return None

    def _shown(self, plan: Plan, target: str, show_all: bool) -> list[PlanItem]:
        out = [i for i in plan.for_target(target) if show_all or symbol(plan, i) != " "
               or plan.decision(i) == "skip"]     # a skipped change stays in view
        match = getattr(self, "_match", "")
        if match:
            host = self._host
            out = [i for i in out if match in " ".join((host.display(i.path), item_title(host, i),
                                                         i.label or "")).lower()]
        return out

    def _add_files(self, host: Host, plan: Plan, under, shown: list[PlanItem],
                   keep_id: str | None) -> None:
        by_path: dict[str, list[PlanItem]] = {}
        for it in shown:
            by_path.setdefault(it.path, []).append(it)
        for path, its in sorted(by_path.items(), key=lambda kv: host.display(kv[0])):
            sym = _worst([_mark(plan, i) for i in its])
            label = Text(no_wrap=True, overflow="ellipsis")
            label.append(f"{sym} ", style=MARK_STYLE.get(sym, ""))
            label.append(host.display(path))
            if len(its) == 1 and its[0].kind in ("file", "link", "block", "aside"):
                it = its[0]
                if it.kind in ("block", "aside"):
                    label.append(f"  {it.label or 'managed block'}", style="dim")
                label.append_text(self._tail(plan, it))
                node = under.add_leaf(label, data=it)
                if it.id == keep_id:
                    self._select = node
                continue
            label.append(f"  ({len(its)})", style="dim")
            parent = under.add(label, data=None, expand=True)
            for it in its:
                s = _mark(plan, it)
                lab = Text(no_wrap=True, overflow="ellipsis")
                lab.append(f"{s} ", style=MARK_STYLE.get(s, ""))
                lab.append(item_title(host, it))
                lab.append_text(self._tail(plan, it))
                node = parent.add_leaf(lab, data=it)
                if it.id == keep_id:
                    self._select = node

    def _first_leaf(self, node):
        for child in node.children:
            if child.data is not None:
                return child
            found = self._first_leaf(child)
            if found is not None:
                return found
        return None

    @staticmethod
    def _tail(plan: Plan, it: PlanItem) -> Text:
        t = Text()
        d = plan.decision(it)
        if it.cls == "conflict" and it.id not in plan.decisions:
            t.append("  decide", style="bold red3")
        elif it.cls in KEPT_CLASSES:
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
