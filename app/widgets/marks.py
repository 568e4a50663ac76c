"""Choice widgets whose state reads without colour: a chosen entry carries a mark (X or ●), an
unchosen one an empty box. Textual draws the same X or ● for both states and tells them apart
by colour alone, which NO_COLOR, a monochrome terminal or a colour-blind operator loses."""
from __future__ import annotations

from rich.segment import Segment
from textual.content import Content
from textual.strip import Strip
from textual.style import Style
from textual.widgets import RadioButton, SelectionList
from textual.widgets._toggle_button import ToggleButton


class MarkedRadioButton(RadioButton):
    """● when chosen, an empty box when not."""

    @property
    def _button(self) -> Content:
        button_style = self.get_visual_style("toggle--button")
        side_style = Style(foreground=button_style.background,
                           background=self.background_colors[1])
        return Content.assemble(
            (self.BUTTON_LEFT, side_style),
            (self.BUTTON_INNER if self.value else " ", button_style),
            (self.BUTTON_RIGHT, side_style),
        )


class MarkedSelectionList(SelectionList):
    """X when selected, an empty box when not; the first entry is highlighted from the start,
    so the first space toggles it."""

    def on_focus(self) -> None:
        if self.highlighted is None and self.option_count:
            self.highlighted = 0

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        segments = list(strip)
        if len(segments) < 3 or segments[1].text != ToggleButton.BUTTON_INNER:
            return strip
        try:
            selection = self.get_option_at_index(self.scroll_offset.y + y)
        except Exception:  # noqa: BLE001 - past the last option
            return strip
        if selection.value in self._selected:
            return strip
        segments[1] = Segment(" ", segments[1].style)
        return Strip(segments, strip.cell_length)
