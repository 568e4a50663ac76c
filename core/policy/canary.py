"""The drill's canary: while a drill runs (AGENTDECK_DRILL_ID is set in the CLI's
environment, so in the hook's), a shell command containing the literal token below is always
denied, whatever the profile's rules say, so `agentdeck drill` proves the deny channel end to
end in each CLI. Outside a drill the token means nothing."""
from __future__ import annotations

from .rules import Verdict
from .vocabulary import Call

DRILL_ENV = "AGENTDECK_DRILL_ID"
CANARY_TOKEN = "agentdeck-drill-canary"
CANARY_RULE = "drill-canary"


def drill_canary_verdict(env, calls: list[Call]) -> Verdict | None:
    """A deny when a drill is running and a shell call names the canary, else None."""
    if not env.get(DRILL_ENV):
        return None
    for call in calls:
        if call.cls == "shell" and any(CANARY_TOKEN in s for s in call.subjects):
            return Verdict("deny", CANARY_RULE,
                           f"agentdeck drill canary (drill {env.get(DRILL_ENV)}): always denied",
                           call)
    return None
