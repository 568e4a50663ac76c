"""Which of a CLI's own layers also enforces a [[policy.paths]] rule, besides agentdeck's hook.

    for_rule(rule, "claude") -> {"target": "claude", "layer": "Claude Code permissions.deny ...",
                                 "hook_only": False, "entries": ["Read(~/.ssh/id_*[...])", ...],
                                 "written": [[path, how]], "skipped": [[path, why]],
                                 "notes": [str], "verified": "2.1.332", "source": "observed"}
    for_rule(rule, "codex")   -> {..., "layer": "Codex permission profile ...", "conditional": True,
                                 "entries": [["~/.ssh/id_*[!b]", "none"], ...], "why": "only when ..."}
    for_rule(rule, "copilot") -> {..., "layer": None, "hook_only": True, "why": "..."}
    describe(policy, target) -> [for_rule(r, target) for each paths rule]

`policy show` and the Policy tab print this. Each target's policy part says what its CLI's own
layer is (NATIVE_DENY, a path_spelling.NativeDeny: the facts behind it with the version each was
observed for, whether agentdeck writes it, and the translation of a rule into its entries, the
package's permissions.py; a layer agentdeck does not write says why, written False).
A conditional layer is written only when the operator's own configuration allows it (Codex: a
permission profile the operator selected; the plan's TargetOutput.permissions says whether it
was). Plain data, no disk: what the plan writes is the same translation (the plan's
TargetOutput.permissions adds which entries were already the operator's).
"""
from __future__ import annotations

from typing import Any

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from .targets.path_spelling import NativeDeny

HOOK_ONLY = "the hook is the only layer"


def for_rule(rule: dict, target: str, layer_name: str = "NATIVE_DENY") -> dict:
    """`layer_name`: NATIVE_DENY (the CLI's own path deny) or FLOOR (its sandbox, where that is a
    layer of its own: the floor under code that builds its own paths)."""
    layer = native_deny(target, layer_name)
    out: dict[str, Any] = {"target": target, "rule": rule.get("id"), "layer": None, "hook_only": True,
           "conditional": False,
           "entries": [], "written": [], "skipped": [], "notes": [],
           "verified": layer.verified if layer else "", "source": "observed",
           "why": HOOK_ONLY}
    if layer is None:   # a target whose policy part names none, or a scope (repo)
        out["why"] = f"{HOOK_ONLY} (no native layer is known for {target})"
        return out
    if not layer.written or layer.translate is None:
        out["why"] = f"{HOOK_ONLY}: {layer.why}"
        return out
    t = layer.translate(rule)
    out.update(entries=[e if isinstance(e, str) else list(e) for e in t.entries],
               written=[list(x) for x in t.written], skipped=[list(x) for x in t.skipped],
               notes=list(t.notes))
    if not t.entries:
        out["why"] = f"{HOOK_ONLY}: " + ("; ".join(f"{p}: {w}" for p, w in t.skipped)
                                         or "the rule names no path")
        return out
    out.update(layer=layer.layer, hook_only=False, why="")
    parts = []
    if layer.written == "conditional":
        out["conditional"] = True
        parts.append(layer.why)
    if t.skipped:
        parts.append("some paths are left to the hook: " + "; ".join(
            f"{p}: {w}" for p, w in t.skipped))
    out["why"] = "; ".join(parts)
    return out


def native_deny(target: str, layer_name: str = "NATIVE_DENY") -> "NativeDeny | None":
    """The CLI's own path deny as the target's policy part's NATIVE_DENY (or FLOOR) describes it
    (core/targets/parts/policy.py), or None (no such record, or a scope such as repo)."""
    return getattr(_policy_part(target), layer_name, None)


def _policy_part(target: str):
    from .targets import registry

    if target not in registry.BUILTIN or not registry.has_part(target, "policy"):
        return None
    return registry.part(target, "policy")


def describe(policy: dict | None, target: str, layer_name: str = "NATIVE_DENY") -> list[dict]:
    return [for_rule(r, target, layer_name) for r in (policy or {}).get("paths") or []
            if isinstance(r, dict)]


def line(row: dict) -> str:
    """One line for a text listing: what else enforces the rule in that CLI."""
    if row["hook_only"]:
        return row["why"]
    n = len(row["entries"])
    text = f"also {row['layer']}: {n} entr{'y' if n == 1 else 'ies'} (verified {row['verified']})"
    return text + (f"; {row['why']}" if row["why"] else "")
