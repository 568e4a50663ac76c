"""Why agentdeck's hooks cannot run in Qwen Code, beyond the shared reasons (core/hooks_health.py):
`disableAllHooks` set in ~/.qwen/settings.json stops every hook, the system file's too
(docs/facts/qwen.md section 2, "Switches")."""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ...host import Host

from . import SPEC

DISABLE_ALL_STOPS = True


def disable_all(host: "Host") -> tuple[str, str]:
    f = host.display(SPEC.home(host) / "settings.json")
    return f, f"set disableAllHooks to false in {f}"
