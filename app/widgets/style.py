"""Colours shared by the widgets. Mid-tone colours that read on both the dark and the light
theme; every coloured thing also carries a symbol or a word, so NO_COLOR loses nothing."""
from __future__ import annotations

from rich.text import Text

MARK_STYLE = {
    "+": "bold #2f9e44", "~": "bold dark_orange3", "-": "bold red3", "!": "bold magenta3",
    ">": "deep_sky_blue3", "*": "bold magenta3", " ": "",
}
MARK_MEANING = {
    "+": "create", "~": "update", "-": "remove",
    "!": "hand-edited, not ours, or conflict: yours is kept unless you take the profile's",
    ">": "record only (agentdeck's manifest; your files do not change)",
    "*": "not removed: something that stays still calls it",
}
RESULT_STYLE = {
    "ok": "#2f9e44", "info": "deep_sky_blue3", "warning": "dark_orange3", "error": "bold red3",
    "skipped": "grey50",
}
LEVEL_STYLE = {"info": "deep_sky_blue3", "warning": "dark_orange3", "error": "bold red3"}


def mark(sym: str) -> Text:
    return Text(sym or " ", style=MARK_STYLE.get(sym, ""))


def result_text(result: str) -> Text:
    return Text(result, style=RESULT_STYLE.get(result, ""))


def level_prefix(level: str) -> Text:
    return Text(f"{level}: ", style=LEVEL_STYLE.get(level, ""))


def no_plan(error: str | None = None) -> Text:
    """What a pane shows while there is no plan: computing, or that it could not be computed."""
    if error:
        return Text("Could not compute the plan: see the Plan tab.", style="bold red3")
    return Text("Computing the plan…", style="dim")
