"""Why agentdeck's hooks cannot run in Claude Code, beyond the shared reasons
(core/hooks_health.py): `disableAllHooks: true` in its settings.json stops every hook, and so
does the same key in a project's .claude/settings.json or .claude/settings.local.json in the
folder agentdeck was started in or a parent (Claude Code 2.1.332 reads them after the home's: a
real turn that wrote settings.local.json left the next turn there with no hook)."""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..output import HooksInfo
    from pathlib import Path

    from ...host import Host

from ...inert import Inert
from ..project_layers import switched_off
from . import SPEC

#: the project files that can switch every hook off in a session started in their folder
PROJECT_SETTINGS = (".claude/settings.json", ".claude/settings.local.json")

#: `disableAllHooks: true` stops Claude Code's hooks (and the status line)
DISABLE_ALL_STOPS = True


def disable_all(host: "Host") -> tuple[str, str]:
    f = host.display(SPEC.home(host) / "settings.json")
    return f, f"set disableAllHooks to false in {f}"


def project_reasons(host: "Host") -> list[tuple["Path", str, str]]:
    """(path, why, fix) for each project settings file that switches Claude Code's hooks off
    where agentdeck was started."""
    out = []
    for path, _ in switched_off(host, PROJECT_SETTINGS, "disableAllHooks"):
        shown = host.display(path)
        out.append((path, f"{shown} (in the folder agentdeck was started in, or a parent) has "
                    "disableAllHooks: true: a Claude Code session started there runs none of "
                    "the hooks, agentdeck's among them",
                    f"remove disableAllHooks from {shown}, or pin it with the organisation "
                    "layer (`agentdeck org`: managed settings win)"))
    return out


def reasons(host: "Host", hooks: "HooksInfo", events: list[str]) -> list[Inert]:
    return [Inert("claude-project-disable-all", why, fix, events)
            for _, why, fix in project_reasons(host)]
