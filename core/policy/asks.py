"""What an `ask` rule of the profile's [policy] becomes in each CLI, and the Dialects a target's
hooks receive: both read from the targets' dialect parts (core/targets/<name>/dialect.py).

The compiled policy (core/policy/compiled.py) turns these into plan notices when it joins a
target's plan; the Policy tab's data (core/policy/enforcement.py) lists the same channels.
"""
from __future__ import annotations

from agentdeck.core.targets import dialects


def spoken(target: str) -> tuple:
    """The Dialects `target`'s hooks receive (none for a caller no target speaks for)."""
    s = dialects.speaker(target)
    return tuple(s.spoken) if s is not None else ()


def ask_notices(policy: dict | None, target: str) -> list[str]:
    """Plan notices: what each ask rule becomes where the target cannot ask."""
    out = []
    for r in (policy or {}).get("rules") or []:
        if r.get("decision") != "ask":
            continue
        for d in spoken(target):
            row = d.pre_tool
            if r.get("tool") == "prompt":
                out.append(f"policy rule {r.get('id')}: a prompt cannot be asked about; ask "
                           "blocks it")
            elif row["ask"] != "ask" or row.get("ask_note"):
                becomes = "deny" if row["ask"] != "ask" else "ask"
                out.append(f"policy rule {r.get('id')} (ask) in {d.cli}: becomes "
                           f"{becomes}; {row['ask_note']}")
    return out
