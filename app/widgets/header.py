"""The host header: home (as ~), profile, WSL yes or no, and each CLI's detected version."""
from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

CHECKING = "checking…"


class HostHeader(Static):
    """Two lines: where and what; then one entry per CLI with its version."""

    home: reactive[str] = reactive("~")
    home_path: reactive[str] = reactive("")
    profile: reactive[str] = reactive("")
    wsl: reactive[bool] = reactive(False)
    #: target -> version, None (not installed) or CHECKING
    versions: reactive[dict] = reactive(dict, always_update=True)
    targets: reactive[list] = reactive(list, always_update=True)
    #: target -> a few words when the CLI moved since agentdeck's facts or its last drill here
    #: (core/upgrade.py; the doctor and `status` say the whole line)
    upgrades: reactive[dict] = reactive(dict, always_update=True)

    def render(self) -> Text:
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append("agentdeck", style="bold")
        t.append("  home ", style="dim")
        t.append(self.home, style="bold")
        if self.home_path:
            t.append(f" ({self.home_path})", style="dim")
        if self.profile:
            t.append("  profile ", style="dim")
            t.append(self.profile, style="bold")
        t.append("  WSL ", style="dim")
        t.append("yes" if self.wsl else "no", style="bold")
        t.append("\n")
        versions = [(target, self.versions.get(target, CHECKING)) for target in self.targets]
        missing = [target for target, v in versions if v is None]
        wide = sum(len(target) + 1 + len(str(v or "not installed")) for target, v in versions) \
            + 5 * max(0, len(versions) - 1)
        # too wide for the screen: the CLIs that are not installed on one entry of their own
        grouped = len(missing) > 1 and wide > max(0, self.size.width - 1)
        n = 0
        for target, v in versions:
            if grouped and v is None:
                continue
            if n:
                t.append("  ·  ", style="dim")
            n += 1
            t.append(f"{target} ", style="bold")
            if v is None:
                t.append("not installed", style="dim italic")
            elif v == CHECKING:
                t.append(CHECKING, style="dim")
            else:
                t.append(str(v))
                if self.upgrades.get(target):
                    t.append(f" ({self.upgrades[target]})", style="bold #e8590c")
        if grouped:
            if n:
                t.append("  ·  ", style="dim")
            t.append("not installed: ", style="dim italic")
            t.append(", ".join(missing), style="bold")
        return t
