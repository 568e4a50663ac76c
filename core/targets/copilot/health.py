"""Why agentdeck's hooks cannot run in GitHub Copilot CLI, beyond the shared reasons
(core/hooks_health.py): disableAllHooks (only where the facts say it stops user hooks; 1.0.102
still runs them) and hooks the operator disabled in settings.json `disabledHooks`."""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..output import HooksInfo
    from ...host import Host

from ..parts.health import Inert
from . import SPEC
from .facts import COPILOT

#: whether `disableAllHooks: true` stops Copilot's user hooks (observed in a real turn)
DISABLE_ALL_STOPS = COPILOT.disable_all_stops_user_hooks


def _settings(host: "Host") -> str:
    return host.display(SPEC.home(host) / "settings.json")


def disable_all(host: "Host") -> tuple[str, str]:
    return _settings(host), "`agentdeck apply --take disableAllHooks` (or set it to false yourself)"


def reasons(host: "Host", hooks: "HooksInfo", events: list[str]) -> list[Inert]:
    off = [e.event for e in hooks.registered() if e.state == "disabled-by-operator"]
    if not off:
        return []
    return [Inert("disabled-hooks", f"{', '.join(off)} disabled in {_settings(host)} "
                                    "disabledHooks",
                  "remove their keys from disabledHooks (the Hooks tab shows each key), or "
                  "re-enable them in Copilot's /hooks", off)]
