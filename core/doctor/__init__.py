"""agentdeck doctor: will each CLI actually load what the operator intends?

    from agentdeck.core import doctor
    findings = doctor.run(host, "default", ["copilot"], live=False, progress=print)

Each Finding (agentdeck.core.doctor.findings) is one row of RESULT / CHECK / MESSAGE: result (ok, info,
warning, error, skipped), a stable check id, a one-line message with the home shown as `~`, a fix
hint, and the file (shown with `~`) and line when known. Static checks read files only; `live`
also asks each installed CLI what it loaded (concurrently, each under a timeout, never running an
operator hook or MCP server); `drill` also runs the drill (`agentdeck drill`: one real offline
turn of each CLI) beside the probes. Kept light: the checks are imported when run() is called.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # pragma: no cover
    from ..host import Host
    from .findings import Finding


def run(host: "Host", profile: str = "default", targets: list[str] | None = None,
        live: bool = False, progress: Callable[[str], None] | None = None,
        drill: bool = False) -> list["Finding"]:
    """All findings for `targets` (default: every target of the registry), in table order;
    `drill` adds the drill's rows (a real offline turn of each CLI; implies `live`)."""
    from .runner import run as _run
    return _run(host, profile, targets, live, progress, drill)
