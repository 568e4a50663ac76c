"""The drill's operator-rule turn (issue 14.7): besides the canary, each drilled CLI's turn calls
one more shell command made from a deny example of the profile's own rules, so the drill proves
that a rule the operator wrote is denied end to end, not only the built-in canary.

The operator's command is never run. The command the turn calls is the example as the single
argument of `:` (the shell's no-op), then a marker:

    : '<example>' ; touch drill-rule-marker.txt

so if the deny did not hold, the only effect is the marker file. A rule is chosen only when its
regex still matches that inert form and the profile's rules, evaluated as the handler does
(core.policy.rules), deny it with that rule's id. Later rules are tried first: a profile's
rules follow the ones it extends, so the operator's own come before agentdeck's shipped ones.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass

MARKER_FILE = "drill-rule-marker.txt"
NONE = "no operator shell deny rule to try"


@dataclass(frozen=True)
class Trial:
    rule: str            # the rule's id
    example: str         # the deny example it came from (never run)
    command: str         # what the turn calls: the example inert, then the marker


def inert(example: str) -> str:
    return f": {shlex.quote(example)} ; touch {MARKER_FILE}"


def choose(rules: list[dict]) -> tuple[Trial | None, str]:
    """(the trial, "") or (None, why none): `rules` as core.policy.compiled.policy_of gives
    them (with their examples)."""
    from ..policy.canary import CANARY_TOKEN
    from ..policy.rules import check_rule, evaluate_call
    from ..policy.vocabulary import Call

    usable = [r for r in rules if check_rule(r) is None]
    candidates = [r for r in usable if r.get("tool", "any") in ("shell", "any")
                  and r.get("decision") == "deny"
                  and ((r.get("examples") or {}).get("deny") or [])]
    for rule in reversed(candidates):
        for ex in rule["examples"]["deny"]:
            if not isinstance(ex, str) or not ex or CANARY_TOKEN in ex:
                continue
            cmd = inert(ex)
            v = evaluate_call(usable, Call("shell", "bash", [cmd]))
            if v.decision == "deny" and v.rule == rule["id"]:
                return Trial(rule["id"], ex, cmd), ""
    if candidates:
        return None, (f"{NONE} (the shell deny rule(s) {', '.join(r['id'] for r in candidates)} "
                      "do not deny any of their examples in the drill's inert form "
                      f"{inert('<example>')!r})")
    return None, NONE


def for_profile(host, profile: str) -> tuple[Trial | None, str]:
    from .. import profiles
    from ..policy.compiled import policy_of

    pol = policy_of(profiles.resolve(host, profile))
    return choose((pol or {}).get("rules") or [])
