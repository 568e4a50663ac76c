"""The `health` part: why agentdeck's registered hooks cannot run in one CLI, beyond what every
target shares (core/hooks_health.py decides "in sync" may be said: the wrapper or the handler
missing, agentdeck's hooks file kept as another's).

A target whose CLI has reasons of its own has `core/targets/<name>/health.py` providing:

    DISABLE_ALL_STOPS           optional: True when `disableAllHooks: true` in the CLI's settings
                                really stops its user hooks (facts, as observed)
    disable_all(host)           with DISABLE_ALL_STOPS: (the settings file that holds it, shown
                                with ~; the fix)
    reasons(host, hooks, events)
                                the CLI's own reasons, from the adapter's hooks report
                                (`hooks`: a HooksInfo, plan.output[target].hooks) for the
                                events of agentdeck's that are registered on disk now
                                (`events`): hooks the operator disabled, hooks the CLI has
                                not trusted

A target without the module has no reasons beyond the shared ones. `Inert` is a frozen
dataclass declared with the adapter's output (core/targets/output.py), kept in
plan.output[target].hooks_inert.
"""
from __future__ import annotations

from ...inert import Inert

__all__ = ["Inert"]
