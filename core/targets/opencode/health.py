"""Why agentdeck's plugin cannot guard OpenCode, beyond the shared reasons (core/hooks_health.py):
OPENCODE_PURE in the environment agentdeck runs in loads no external plugin, agentdeck's among
them (docs/facts/opencode.md section 2, "Switching it off"). `opencode --pure` does the same
for one run; no file says so, so only the doctor's words name it."""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..output import HooksInfo
    from ...host import Host

from ..parts.health import Inert
from .facts import OPENCODE


def pure(host: "Host") -> str | None:
    """OPENCODE_PURE's value when it is set to anything but empty (OpenCode's flag reads it as
    true), else None."""
    value = host.env.get(OPENCODE.pure_env)
    return value if value not in (None, "", "0", "false") else None


def reasons(host: "Host", hooks: "HooksInfo", events: list[str]) -> list[Inert]:
    value = pure(host)
    if value is None:
        return []
    return [Inert("opencode-pure",
                  f"{OPENCODE.pure_env}={value} is set: OpenCode loads no external plugin, "
                  "agentdeck's guard among them",
                  f"unset {OPENCODE.pure_env} (and do not run opencode with {OPENCODE.pure_flag})",
                  events)]
