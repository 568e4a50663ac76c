"""The host header: home (as ~), profile, WSL yes or no, and each CLI's detected version."""
from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widgets import Static

CHECKING = "checking…"


class HostHeader(Static):
    """Where and what on the first line; then one entry per CLI with its version, on as many
    lines as the entries need at this width (an entry is never cut: at 80 columns six installed
    CLIs take two lines)."""

    home: reactive[str] = reactive("~", layout=True)
    home_path: reactive[str] = reactive("", layout=True)
    profile: reactive[str] = reactive("", layout=True)
    wsl: reactive[bool] = reactive(False, layout=True)
    #: target -> version, None (not installed) or CHECKING
    versions: reactive[dict] = reactive(dict, always_update=True, layout=True)
    targets: reactive[list] = reactive(list, always_update=True, layout=True)
    #: target -> a few words when the CLI moved since agentdeck's facts or its last drill here
    #: (core/upgrade.py; the doctor and `status` say the whole line)
    upgrades: reactive[dict] = reactive(dict, always_update=True, layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines(width))

    def render(self) -> Text:
        return Text("\n", no_wrap=True, overflow="ellipsis").join(
            self.lines(self.content_size.width or self.size.width))

    def lines(self, width: int) -> list[Text]:
        """The header's lines at `width` columns (the versions wrapped between entries)."""
        first = Text(no_wrap=True, overflow="ellipsis")
        first.append("agentdeck", style="bold")
        first.append("  home ", style="dim")
        first.append(self.home, style="bold")
        if self.home_path:
            first.append(f" ({self.home_path})", style="dim")
        if self.profile:
            first.append("  profile ", style="dim")
            first.append(self.profile, style="bold")
        first.append("  WSL ", style="dim")
        first.append("yes" if self.wsl else "no", style="bold")
        versions = [(target, self.versions.get(target, CHECKING)) for target in self.targets]
        missing = [target for target, v in versions if v is None]
        entries: list[Text] = []
        for target, v in versions:
            e = Text()
            e.append(f"{target} ", style="bold")
            if v is None:
                e.append("not installed", style="dim italic")
            elif v == CHECKING:
                e.append(CHECKING, style="dim")
            else:
                e.append(str(v))
                if self.upgrades.get(target):
                    e.append(f" ({self.upgrades[target]})", style="bold #e8590c")
            entries.append(e)
        # too wide for one line: the CLIs that are not installed on one entry of their own
        if len(missing) > 1 and sum(e.cell_len for e in entries) + 5 * (len(entries) - 1) > width:
            entries = [e for e, (_, v) in zip(entries, versions) if v is not None]
            grouped = Text()
            grouped.append("not installed: ", style="dim italic")
            grouped.append(", ".join(missing), style="bold")
            entries.append(grouped)
        out = [first]
        line = Text(no_wrap=True, overflow="ellipsis")
        for e in entries:
            if line.cell_len and line.cell_len + 5 + e.cell_len > width:
                out.append(line)
                line = Text(no_wrap=True, overflow="ellipsis")
            if line.cell_len:
                line.append("  ·  ", style="dim")
            line.append_text(e)
        out.append(line)
        return out
