"""`agentdeck policy test`: every rule's examples, in every dialect's payload shape, in-process.

For each rule example (`examples = {deny = [...], ask = [...], allow = [...]}`) and each way a
dialect sends a call of the rule's class (core.policy.payloads), the hook handler's own decide()
runs on that payload with the compiled rules, and its answer is checked against the channel
facts (core.facts.hook_channels): the decision the CLI will act on (ask becomes deny where the
CLI has no ask), the exit code and the stdout shape. The drill canary is checked the same way.
A mismatch is one line; any mismatch makes the command exit 1.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agentdeck.core import hookhandler

from . import answer as A
from .canary import CANARY_TOKEN, DRILL_ENV
from .compiled import compile_policy
from .payloads import CWD, channel_label, shapes, tool_shapes

if TYPE_CHECKING:
    from agentdeck.core.targets.dialects import Dialect


@dataclass
class Result:
    checked: int = 0
    mismatches: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def to_json(self) -> dict:
        return {"ok": self.ok, "checked": self.checked, "mismatches": self.mismatches,
                "notes": self.notes}


def _channel(dialect_label: str):
    """The Dialect that answers a shape's label (its template's, core/policy/templates.py)."""
    from agentdeck.core.targets import dialects
    return dialects.by_label(channel_label(dialect_label))


#: the home `policy test` decides in (a virtual tree, MemoryFS: nothing on the disk is looked at)
TEST_HOME = "/home/policy-test"


def run_case(doc: dict, target: str, event: str, payload: dict, env_extra: dict | None = None,
             fs=None):
    """(record, exit code, stdout, stderr) of the handler deciding `payload` in-process."""
    env = {"AGENTDECK_TARGET": target, "AGENTDECK_EVENT": event, "HOME": TEST_HOME,
           **(env_extra or {})}
    record = hookhandler.build_record(payload, event, env)
    code, out, err = hookhandler.decide(payload, record, env, None, time.perf_counter(),
                                        policy=(doc, None), fs=fs if fs is not None else _fs([]))
    return record, code, out, err


def _fs(paths: list[str]):
    from .fs import MemoryFS
    from .shellparse import normalize

    return MemoryFS({normalize(p, CWD, TEST_HOME): "x" for p in paths})


def _path_forms(rule: dict, path: str):
    """(class, subject) pairs a path example is tried as: each file tool of the rule's access,
    and a shell command that reads (cat) or writes (a redirection) it."""
    access = rule.get("access") or ["read", "write"]
    if "read" in access:
        yield "read", path
        yield "shell", f"cat {path}"
    if "write" in access:
        yield "write", path
        yield "shell", f"echo x > {path}"


def _check_answer(where: str, event: str, channel: "Dialect", expected: str, record: dict, code: int,
                  out: str) -> str | None:
    """Why the answer is not what the facts say for `expected`, or None."""
    if event == "user_prompt_submit":
        want = "allow" if expected == "allow" else "deny"
        row = channel.prompt
        want_code = 0 if want == "allow" else row["exit"]
        got = "allow" if record.get("decision") == "allow" else "deny"
    else:
        want = A.effective(channel, expected)
        row = channel.pre_tool
        want_code = row["deny_exit"] if want == "deny" else 0
        got = str(record.get("effective") or record.get("decision"))
    if got != want:
        return f"{where}: expected {want}, got {got} (rule {record.get('rule') or '-'})"
    if code != want_code:
        return f"{where}: {want} must exit {want_code}, the handler exited {code}"
    if want == "allow":
        return None if not out else f"{where}: an allow must print nothing, printed {out[:80]!r}"
    try:
        shown = json.loads(out) if out else None
    except ValueError:
        return f"{where}: stdout is not JSON: {out[:80]!r}"
    shape = row.get("shape")
    if shape == "flat" and not (isinstance(shown, dict) and "permissionDecision" in shown):
        return f"{where}: Copilot camelCase needs the flat permissionDecision JSON"
    if shape == "specific" and not (isinstance(shown, dict) and "hookSpecificOutput" in shown
                                    and "permissionDecision" not in shown):
        return f"{where}: this CLI needs hookSpecificOutput alone"
    if shape == "block" and not (isinstance(shown, dict) and shown.get("decision") == "block"):
        return f"{where}: a prompt is blocked with {{\"decision\": \"block\"}}"
    return None


def test_policy(policy: dict) -> Result:
    """Every example of every rule of `policy` ({"on_error", "rules"}), plus the drill canary."""
    res = Result()
    servers = sorted({(ex.split("/", 1)[0]) for r in policy.get("rules") or []
                      if r.get("tool") == "mcp" for d in ("deny", "ask", "allow")
                      for ex in (r.get("examples") or {}).get(d) or [] if "/" in ex})
    doc = json.loads(compile_policy(policy, "test", mcp_servers=servers))
    for rule in policy.get("paths") or []:
        examples = rule.get("examples") or {}
        if not any(examples.get(d) for d in ("deny", "ask", "allow")):
            res.notes.append(f"rule {rule.get('id')}: no examples to test")
            continue
        fs = _fs([ex for d in ("deny", "ask", "allow") for ex in examples.get(d) or []])
        for expected in ("deny", "ask", "allow"):
            for ex in examples.get(expected) or []:
                for cls, subject in _path_forms(rule, ex):
                    for label, target, event, payload in shapes(cls, subject):
                        res.checked += 1
                        record, code, out, _ = run_case(doc, target, event, payload, fs=fs)
                        why = _check_answer(f"rule {rule.get('id')} example {ex!r} as {subject!r}"
                                            f" in {label}", "pre_tool_use", _channel(label),
                                            expected, record, code, out)
                        if why:
                            res.mismatches.append(why)
    for rule in policy.get("rules") or []:
        examples = rule.get("examples") or {}
        if not any(examples.get(d) for d in ("deny", "ask", "allow")):
            res.notes.append(f"rule {rule.get('id')}: no examples to test")
            continue
        cls = rule.get("tool", "any")
        for expected in ("deny", "ask", "allow"):
            for ex in examples.get(expected) or []:
                seen = 0
                for label, target, event, payload in shapes(cls, ex):
                    seen += 1
                    res.checked += 1
                    canon = hookhandler.canonical_event(event)
                    record, code, out, _ = run_case(doc, target, event, payload)
                    why = _check_answer(f"rule {rule.get('id')} example {ex!r} in {label}", canon,
                                        _channel(label), expected, record, code, out)
                    if why:
                        res.mismatches.append(why)
                if not seen:
                    res.notes.append(f"rule {rule.get('id')}: no dialect sends a {cls} call")
    for label, target, event, payload in shapes("shell", f"echo {CANARY_TOKEN} > /tmp/x"):
        res.checked += 1
        record, code, out, _ = run_case(doc, target, event, payload, {DRILL_ENV: "selftest"})
        why = _check_answer(f"drill canary in {label}", "pre_tool_use", _channel(label), "deny",
                            record, code, out)
        if why:
            res.mismatches.append(why)
    return res


# ---- the shipped evasion corpus (core/policy/corpus.py) ----------------------------------------
def test_corpus(only: frozenset[str] | None = None) -> tuple[Result, dict[str, int]]:
    """Every corpus case in every dialect (the classes `only` names, when given); (result,
    cases per class, every class counted)."""
    from . import corpus as C
    from .fs import MemoryFS

    res = Result()
    doc = json.loads(compile_policy(C.CORPUS_POLICY, "test", protect=C.PROTECT,
                                    mcp_servers=C.MCP_SERVERS))
    fs = MemoryFS(C.TREE)
    counts: dict[str, int] = {}
    for cls, case in C.cases():
        counts[cls] = counts.get(cls, 0) + 1
        if only is not None and cls not in only:
            continue
        if cls == "other tools":
            form, subject, expected = case
            forms = list(tool_shapes(form, subject))   # search, glob, mcp-path too
            cwd = C.CWD
        else:
            subject, cwd, expected = case
            forms = list(shapes("shell", subject))
        for label, target, event, payload in forms:
            payload = dict(payload)
            if "cwd" in payload:
                payload["cwd"] = cwd
            res.checked += 1
            record, code, out, _ = run_case(doc, target, event, payload,
                                            {"HOME": C.HOME}, fs=fs)
            why = _check_answer(f"corpus [{cls}] {subject!r} in {label}", "pre_tool_use",
                                _channel(label), expected, record, code, out)
            if why:
                res.mismatches.append(why + (f": {record.get('reason')}" if record.get('reason')
                                             else ""))
    return res, counts
