"""Rule evaluation: which decision a tool call (or a prompt) gets.

A rule is plain data (the compiled policy's form of a profile's [[policy.rules]]):

    {"id": "no-force-push", "tool": "shell", "match": "git\\s+push\\b.*--force",
     "decision": "deny", "reason": "force-push is not allowed here"}

`tool` is a class of core.policy.vocabulary (shell | read | write | mcp | web | prompt) or
"any"; `match` is searched (re.search) in each subject of the call. Deny wins over ask, ask
over allow; no match allows. A batch gets the strongest decision of its calls.

A rule's regex is compiled the first time a call of its class is seen, so a hook call pays only
for the rules of the tool it is about. Standard library only.
"""
from __future__ import annotations

import re

from .vocabulary import Call

DECISIONS = ("allow", "ask", "deny")
_RANK = {"allow": 0, "ask": 1, "deny": 2}
TOOLS = ("shell", "read", "write", "mcp", "web", "prompt", "any")

_COMPILED: dict[str, re.Pattern] = {}


def _rx(pattern: str) -> re.Pattern:
    p = _COMPILED.get(pattern)
    if p is None:
        p = _COMPILED[pattern] = re.compile(pattern)
    return p


class Verdict:
    """A decision with the rule that made it (rule None: nothing matched, or no policy)."""
    __slots__ = ("decision", "rule", "reason", "call")

    def __init__(self, decision: str = "allow", rule: str | None = None, reason: str = "",
                 call: Call | None = None):
        self.decision, self.rule, self.reason, self.call = decision, rule, reason, call

    def stronger(self, other: "Verdict") -> "Verdict":
        return other if _RANK[other.decision] > _RANK[self.decision] else self

    def __repr__(self) -> str:  # pragma: no cover
        return f"Verdict({self.decision!r}, {self.rule!r})"


def _applies(rule: dict, cls: str) -> bool:
    tool = rule.get("tool", "any")
    if cls == "prompt":
        return tool == "prompt"
    return tool == cls or (tool == "any" and cls != "prompt")


def evaluate_call(rules: list[dict], call: Call) -> Verdict:
    best = Verdict(call=call)
    for rule in rules:
        if not _applies(rule, call.cls):
            continue
        rx = _rx(rule["match"])
        if any(rx.search(s) for s in call.subjects if isinstance(s, str)):
            v = Verdict(rule["decision"], rule.get("id"), rule.get("reason") or "", call)
            if best.rule is None or _RANK[v.decision] > _RANK[best.decision]:
                best = v
            if v.decision == "deny":
                break
    return best


def evaluate(rules: list[dict], calls: list[Call]) -> Verdict:
    """The decision for a whole pre-tool event: the strongest over its calls (a batch is
    denied when any call in it is)."""
    best = Verdict(call=calls[0] if calls else None)
    for call in calls:
        v = evaluate_call(rules, call)
        if v.rule is not None and (best.rule is None or _RANK[v.decision] > _RANK[best.decision]):
            best = v
        if best.decision == "deny":
            break
    return best


def evaluate_prompt(rules: list[dict], prompt: str) -> Verdict:
    return evaluate_call(rules, Call("prompt", "prompt", [prompt]))


def check_rule(rule: dict) -> str | None:
    """Why a rule (as data) cannot be used, or None."""
    if not isinstance(rule, dict):
        return "a rule must be a table"
    if not isinstance(rule.get("id"), str) or not rule["id"]:
        return "a rule needs an id"
    if rule.get("tool", "any") not in TOOLS:
        return f"tool {rule.get('tool')!r} is not one of {', '.join(TOOLS)}"
    if rule.get("decision") not in DECISIONS:
        return f"decision {rule.get('decision')!r} is not one of {', '.join(DECISIONS)}"
    if not isinstance(rule.get("match"), str):
        return "match must be a regular expression (a string)"
    try:
        re.compile(rule["match"])
    except re.error as e:
        return f"match {rule['match']!r} is not a valid regular expression: {e}"
    return None
