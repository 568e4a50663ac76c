"""Why agentdeck's hooks cannot run in Claude Code, beyond the shared reasons
(core/hooks_health.py): `disableAllHooks: true` in its settings.json stops every hook."""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ...host import Host

from . import SPEC

#: `disableAllHooks: true` stops Claude Code's hooks (and the status line)
DISABLE_ALL_STOPS = True


def disable_all(host: "Host") -> tuple[str, str]:
    f = host.display(SPEC.home(host) / "settings.json")
    return f, f"set disableAllHooks to false in {f}"
