"""How each rule is enforced in each target: plain data for the app's Policy tab and the plan.

    describe(policy, "codex") -> {
        "target": "codex", "verified": "0.171.0", "on_error": {...},
        "caveats": [str, ...],
        "rules": [{"id", "tool", "match", "decision", "reason",
                   "channels": [{"dialect", "cli", "event", "how", "ask_becomes", "note",
                                 "source"}]}]}

Everything here comes from the calling target's parts: its dialect module's channel facts
(core/targets/<name>/dialect.py, with the version and whether each row was observed on the real
CLI) and its policy module's caveats (core/targets/<name>/policy.py); a scope (the repository's
hooks) is described by the target whose dialect speaks for it.
"""
from __future__ import annotations

from typing import Any

from agentdeck.core.facts import hook_channels as F
from agentdeck.core.policy.asks import spoken
from agentdeck.core.targets import dialects, registry

_SHAPE_TEXT = {"flat": 'stdout {"permissionDecision": "deny", "permissionDecisionReason": R}',
               "specific": 'stdout {"hookSpecificOutput": {"permissionDecision": "deny", ...}}',
               "block": 'stdout {"decision": "block", "reason": R}', None: "no JSON"}


def caveats(target: str) -> list[str]:
    name = dialects.owner(target)
    if name is None or not registry.has_part(name, "policy"):
        return []
    return list(registry.part(name, "policy").CAVEATS.get(target, []))


def _channel(d, tool: str, decision: str) -> dict:
    pre, prompt = d.events
    if tool == "prompt":
        row = d.prompt
        how = f"exit {row['exit']} + {_SHAPE_TEXT[row['shape']]} (the prompt is blocked)"
        if not prompt:         # a channel that sees no prompt (OpenCode's plugin): says so
            how = row.get("none") or "not enforced: this CLI's channel sees no prompt"
            return {"dialect": d.label, "cli": d.cli, "version": d.verified, "event": "",
                    "how": how, "ask_becomes": None, "note": "", "source": row["source"]}
        return {"dialect": d.label, "cli": d.cli, "version": d.verified, "event": prompt,
                "how": how if decision != "allow" else "exit 0 (recorded only)",
                "ask_becomes": "deny" if decision == "ask" else None,
                "note": "a prompt cannot be asked about: ask blocks it" if decision == "ask" else "",
                "source": row["source"]}
    row = d.pre_tool
    note = ""
    if decision == "deny":
        # a plugin channel (OpenCode) says in its own words how the handler's deny reaches it
        how = row.get("how") or (f"exit {row['deny_exit']} with the reason on stderr + "
                                 f"{_SHAPE_TEXT[row['shape']]}")
    elif decision == "ask":
        how = ("ask: " + _SHAPE_TEXT[row["shape"]].replace('"deny"', '"ask"') if row["ask"] == "ask"
               else f"denied (exit {row['deny_exit']}): this CLI has no ask")
        note = row["ask_note"]
    else:
        how = "exit 0 (recorded only)"
    return {"dialect": d.label, "cli": d.cli, "version": d.verified, "event": pre, "how": how,
            "ask_becomes": row["ask"] if decision == "ask" else None, "note": note,
            "source": row["source"]}


def _channel_word(target: str) -> str:
    """What the guard is in this CLI, in a word: "plugin" where agentdeck's guard is a plugin the
    CLI loads (TargetSpec.enforcement), else "hook"."""
    from ..targets.spec import PLUGIN   # local: policy show only

    spec = registry.BY_NAME.get(target)
    return "plugin" if spec is not None and spec.enforcement == PLUGIN else "hook"


def _runtime_floor(target: str) -> str:
    """What stops code that builds its own paths at run time in this CLI (its policy part's
    RUNTIME_FLOOR), or "nothing"."""
    from ..targets import registry   # local: policy show only

    if target not in registry.BUILTIN or not registry.has_part(target, "policy"):
        return "nothing"
    return getattr(registry.part(target, "policy"), "RUNTIME_FLOOR", "") or "nothing"


def _unguarded(target: str) -> str:
    """The sentence for a target agentdeck installs no guard in (TargetSpec.enforcement), or ""."""
    s = registry.BY_NAME.get(target)
    if s is None or s.guarded:
        return ""
    return (f"not guarded: agentdeck installs no hook and no plugin in {s.title}, so nothing "
            "sees its tool calls and no rule below holds there")


def describe(policy: dict | None, target: str) -> dict:
    """The Policy tab's data for one target."""
    unguarded = _unguarded(target)
    if unguarded:
        on_error = (policy or {}).get("on_error") or "allow"
        return {"target": target, "guarded": False, "dialects": [], "verified": {},
                "on_error": {"value": on_error, "exit": F.ON_ERROR_EXIT[on_error],
                             "meaning": unguarded},
                "caveats": [], "rules": [], "paths": [], "limits": [],
                "runtime_floor": "nothing", "self_protection": "", "unresolved": "",
                "self_real_turns": {}}
    heard = spoken(target)
    on_error = (policy or {}).get("on_error") or "allow"
    out: dict[str, Any] = {
        "target": target,
        "guarded": True,
        "dialects": [d.label for d in heard],
        "verified": {d.label: d.verified for d in heard},
        "on_error": {"value": on_error, "exit": F.ON_ERROR_EXIT[on_error],
                     "meaning": ("a payload the handler cannot read, an internal error, or a "
                                 "damaged guard (its compiled policy missing or changed since "
                                 "apply, its handler missing or crashing) "
                                 + ("denies, in the CLI's own deny channel" if on_error == "deny"
                                    else "lets the tool run; the line is still recorded"))},
        "caveats": caveats(target),
        "rules": [],
        "paths": [],
    }
    out["limits"] = list(F.LIMITS)
    out["runtime_floor"] = _runtime_floor(target)
    out["self_protection"] = (
        "agentdeck-self denies writes to agentdeck's own files (state, compiled policies, "
        "profiles, the handler where it lives in the home) and to each CLI's hook files and "
        "hook settings, and `agentdeck apply|uninstall` or uninstalling agentdeck through an "
        "agent; [policy] protect_agentdeck = false turns it off"
        if (policy or {}).get("rules") or (policy or {}).get("paths") else "")
    if policy is not None and policy.get("protect_agentdeck") is False:
        out["self_protection"] = "off ([policy] protect_agentdeck = false)"
    out["unresolved"] = (policy or {}).get("unresolved") or "ask"
    out["self_real_turns"] = _real_turns("self") if out.get("self_protection") else {}
    for r in (policy or {}).get("rules") or []:
        tool = r.get("tool", "any")
        kind = "argv" if r.get("command") else "regex"
        out["rules"].append({
            "id": r.get("id"), "kind": kind, "tool": tool, "match": r.get("match"),
            "command": r.get("command"), "args": r.get("args") or [],
            "decision": r.get("decision"), "reason": r.get("reason") or "",
            "covers": (f"every simple command the line runs, on argv (wrappers, shells, evals, "
                       f"$(...) resolved)" if kind == "argv" else
                       f"a regex searched in the raw {tool} subject"
                       + (" (evadable on a command line: quoting, variables, spellings)"
                          if tool in ("shell", "any") else "")),
            "channels": [_channel(d, tool, r.get("decision", "allow")) for d in heard],
            "real_turns": _real_turns("argv" if kind == "argv" else ""),
        })
    for r in (policy or {}).get("paths") or []:
        access = r.get("access") or ["read", "write"]
        per_cli = []
        for d in heard:
            tools = d.path_tools
            per_cli.append({"cli": d.cli, "dialect": d.label, "channel": _channel_word(target),
                            "tools": {a: tools.get(a, "") for a in access} | {
                                "shell": f"{tools.get('shell', '')}: operands and redirections"},
                            "native": _native(target, r),
                            "floor": _native(target, r, "FLOOR")})
        out["paths"].append({
            "id": r.get("id"), "paths": r.get("paths"), "except": r.get("except") or [],
            "access": access, "decision": r.get("decision", "deny"),
            "reason": r.get("reason") or "", "enforced_by": per_cli,
            "channels": [_channel(d, "read", r.get("decision", "deny")) for d in heard],
            "real_turns": _real_turns("path"),
        })
    return out


def _real_turns(kind: str) -> dict:
    """Where what held in real turns is published for a rule of this kind: the enforcement
    matrix's page and its classes (none for a regex rule: the corpus tries none)."""
    from . import corpus   # local: the corpus's class names, for policy show only

    classes = corpus.KIND_CLASSES.get(kind, ())
    return {"doc": corpus.ENFORCEMENT_DOC if classes else "", "classes": list(classes)}


def _native(target: str, rule: dict, layer_name: str = "NATIVE_DENY") -> str:
    """The CLI's own layer that also enforces a path rule, or why the hook is the only one
    (core/native_layers.py, from the facts observed with each CLI); for FLOOR, its sandbox as
    a layer of its own, or "" where the policy part names none."""
    from agentdeck.core import native_layers

    if layer_name != "NATIVE_DENY" and native_layers.native_deny(target, layer_name) is None:
        return ""
    d = native_layers.for_rule(rule, target, layer_name)
    if d.get("hook_only"):
        return d.get("why") or "the hook is the only layer"
    why = f"; {d['why']}" if d.get("why") else ""
    n = len(d.get("entries") or [])
    return f"{d.get('layer')}: {n} {'entry' if n == 1 else 'entries'}{why}"
