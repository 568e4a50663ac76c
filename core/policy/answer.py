"""A decision -> what the handler prints and exits with, in the calling dialect's channel.

    code, stdout, stderr = answer("pre_tool_use", dialect, "deny", "force-push is not allowed")

`dialect` is a core.targets.dialects.Dialect (the dialect part, core/targets/parts/dialect.py): the channel facts (exit codes, JSON shapes,
what ask becomes, with the version and the source of each) are each target's
(core/targets/<name>/dialect.py). This module is imported only when a call is denied, asked,
blocked or failed: an allowed call prints nothing and exits 0.
"""
from __future__ import annotations

import json

from agentdeck.core.targets.dialects import SPECIFIC_EVENT, UNKNOWN


def _shape(shape: str | None, event: str, decision: str, reason: str) -> str:
    if shape == "flat":
        return json.dumps({"permissionDecision": decision, "permissionDecisionReason": reason})
    if shape == "specific":
        return json.dumps({"hookSpecificOutput": {
            "hookEventName": SPECIFIC_EVENT.get(event, "PreToolUse"),
            "permissionDecision": decision, "permissionDecisionReason": reason}})
    if shape == "block":
        return json.dumps({"decision": "block", "reason": reason})
    return ""


def effective(dialect, decision: str, raw_event: str | None = None) -> str:
    """The decision the CLI will act on: ask becomes deny where the dialect has no ask, or at
    an event where it cannot wait for the user (the dialect's pre_tool "ask_at": `raw_event`,
    as the CLI names it -> what ask becomes there)."""
    if decision == "ask":
        row = (dialect or UNKNOWN).pre_tool
        return (row.get("ask_at") or {}).get(raw_event, row["ask"])
    return decision


def answer(event: str, dialect, decision: str, reason: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) for `decision` at `event` ("pre_tool_use" or
    "user_prompt_submit") in `dialect`. allow -> (0, "", "")."""
    dialect = dialect or UNKNOWN
    reason = reason or "blocked by agentdeck policy"
    if event == "user_prompt_submit":
        if decision == "allow":
            return 0, "", ""
        row = dialect.prompt
        return row["exit"], _shape(row["shape"], event, "block", reason), reason
    row = dialect.pre_tool
    decision = effective(dialect, decision)
    if decision == "deny":
        return row["deny_exit"], _shape(row["shape"], event, "deny", reason), reason
    if decision == "ask":
        return 0, _shape(row["shape"], event, "ask", reason), ""
    return 0, "", ""


def on_error(event: str, dialect, on_error_value: str, why: str) -> tuple[int, str, str]:
    """The answer when the handler cannot decide: "deny" denies (exit 2 everywhere: a crash's
    exit 1 would let the tool run in most CLIs), "allow" lets it run."""
    if on_error_value == "deny":
        return answer(event, dialect, "deny", f"agentdeck policy could not decide ({why}); "
                                              "denied (on_error = deny)")
    return 0, "", ""
