"""Switching a TabbedContent's tab from a key binding, without the focus pulling it back."""
from __future__ import annotations

from textual.widgets import TabbedContent
from textual.widgets._tabbed_content import ContentTabs


def switch_tab(tabs: TabbedContent, tab_id: str) -> None:
    """Show `tab_id`. When the focus is inside the old pane it follows into the new one (a
    focused widget left in a hidden pane would move the focus to its neighbour there, and
    TabbedContent would switch back to that pane)."""
    screen = tabs.screen
    focused = screen.focused
    inside = focused is not None and tabs in focused.ancestors
    if inside:
        tabs.query_one(ContentTabs).focus(scroll_visible=False)
    tabs.active = tab_id
    if not inside:
        return

    def follow() -> None:
        pane = tabs.get_pane(tab_id)
        for w in pane.query("*"):
            if w.focusable and w.display and all(a.display for a in w.ancestors
                                                 if hasattr(a, "display")):
                w.focus(scroll_visible=False)
                return

    screen.call_after_refresh(follow)


def step_tab(tabs: TabbedContent, ids: list[str], step: int) -> None:
    cur = ids.index(tabs.active) if tabs.active in ids else 0
    switch_tab(tabs, ids[(cur + step) % len(ids)])
