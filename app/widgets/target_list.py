"""The target list: one entry per CLI with its status badge. Posts TargetList.Chosen."""
from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

BADGE_STYLE = {
    "in sync": "#2f9e44", "not selected": "grey50", "computing…": "grey50",
    "not in this build": "grey50", "plan failed": "bold red3",
}


@dataclass
class TargetEntry:
    name: str
    title: str
    badge: str = "computing…"
    installed: bool | None = None       # None: not checked yet
    available: bool = True              # the adapter exists in this build

    def prompt(self, width: int = 0) -> Text:
        """The entry's lines; at `width` cells (0: any), a badge part too wide for one line
        puts its "+ N shared" on a line of its own instead of wrapping mid-phrase."""
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append(self.title, style="bold")
        t.append("\n")
        if not self.available:
            t.append("not in this build", style="grey50")
            return t
        parts = [p.strip() for p in self.badge.split(",")] or [self.badge]
        for n, part in enumerate(parts):
            if n:
                t.append("\n")
            style = BADGE_STYLE.get(part)
            if style is None:
                style = "bold magenta3" if "hand-edit" in part or "conflict" in part \
                    else "bold dark_orange3"
            dot = "● " if part == "in sync" else ("✗ " if part == "plan failed" else
                                                 ("◆ " if style.startswith("bold") else "○ "))
            head, plus, tail = part.partition(" + ")
            if plus and width and len(dot + part) > width:
                t.append(dot + head + "\n", style=style)
                t.append(" " * len(dot) + "+ " + tail, style=style)
            else:
                t.append(dot + part, style=style)
        if self.installed is False:
            t.append("\nnot installed", style="grey50 italic")
        return t


class TargetList(OptionList):
    """Targets with badges (in sync, N changes, N hand-edits, not installed)."""

    class Chosen(Message):
        def __init__(self, target: str) -> None:
            super().__init__()
            self.target = target

    def __init__(self, entries: list[TargetEntry], **kw) -> None:
        self.entries = {e.name: e for e in entries}
        super().__init__(*[Option(e.prompt(), id=e.name, disabled=not e.available)
                           for e in entries], **kw)

    def update_entry(self, name: str, **changes) -> None:
        e = self.entries.get(name)
        if e is None:
            return
        for k, v in changes.items():
            setattr(e, k, v)
        self.replace_option_prompt(name, e.prompt(self._prompt_width()))

    def _prompt_width(self) -> int:
        """The cells an option's line has (the options' padding left out); 0 before layout."""
        return max(0, self.scrollable_content_region.width - 2)

    def on_resize(self) -> None:
        width = self._prompt_width()
        for e in self.entries.values():
            self.replace_option_prompt(e.name, e.prompt(width))

    @property
    def current(self) -> str | None:
        opt = self.highlighted_option
        return opt.id if opt is not None else None

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.Chosen(event.option.id))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.Chosen(event.option.id))
