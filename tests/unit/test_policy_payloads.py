"""The payloads the real CLIs sent (tests/fixtures/payloads/, captured by
tests/clients/capture_payloads.py from real offline turns of Copilot 1.0.102, Codex 0.171.0 and
Claude Code 2.1.332) are understood by the vocabulary and the policy, and the templates `agentdeck
policy test` uses (core/policy/payloads.py) have the same fields."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentdeck.core import hookhandler
from agentdeck.core.facts import hook_channels as F
from agentdeck.core.policy import payloads
from agentdeck.core.policy.selftest import run_case
from agentdeck.core.policy.vocabulary import tool_calls
from agentdeck.core.targets import dialects, registry
from tests.registry_kit import PROMPTED, pre_event

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "payloads"
CAPTURED_COMMAND = "echo agentdeck-capture > captured.txt"
#: every registered target whose hooks speak a dialect (core/targets/<name>/dialect.py); each
#: must have its payloads captured under tests/fixtures/payloads/<name>/
TARGETS = [n for n in registry.NAMES if registry.has_part(n, "dialect")]


def _default(target: str):
    """The dialect the target's own hooks speak first (its Speaker's default)."""
    return dialects.speaker(target).default


#: the target's pre-tool and prompt events as its hooks are registered, and its dialect's label
PRE = {t: _default(t).events[0] for t in TARGETS}
PROMPT = {t: _default(t).events[1] for t in TARGETS}
PROMPTERS = PROMPTED
DIALECT = {t: _default(t).label for t in TARGETS}
DOC = {"format": 1, "target": "t", "on_error": "deny", "rules": [
    {"id": "no-capture", "tool": "shell", "match": r"agentdeck-capture", "decision": "deny",
     "reason": "captured"},
    {"id": "no-scripted-prompt", "tool": "prompt", "match": r"scripted command",
     "decision": "deny", "reason": "prompt blocked"}]}


def fixture(target: str, event: str) -> dict:
    return json.loads((FIXTURES / target / f"{event}.json").read_text())


@pytest.mark.parametrize("target", TARGETS)
def test_the_captured_pre_tool_payload_is_a_shell_call(target):
    [call] = tool_calls(fixture(target, PRE[target]))
    assert (call.cls, call.subjects) == ("shell", [CAPTURED_COMMAND])


@pytest.mark.parametrize("target", TARGETS)
def test_the_handler_names_the_captured_dialect(target):
    rec = hookhandler.build_record(fixture(target, PRE[target]), pre_event(target),
                                   {"AGENTDECK_TARGET": target})
    assert rec["dialect"] == DIALECT[target] and rec["event"] == "pre_tool_use"


@pytest.mark.parametrize("target", TARGETS)
def test_a_rule_denies_the_captured_call_in_the_clis_channel(target):
    record, code, out, err = run_case(DOC, target, pre_event(target), fixture(target, PRE[target]))
    row = F.PRE_TOOL[DIALECT[target]]
    assert (record["decision"], record["rule"], code, err) == (
        "deny", "no-capture", row["deny_exit"], "captured")
    if row["shape"] is None:         # a plugin's channel: the exit and stderr only
        assert out == ""
        return
    shown = json.loads(out)
    assert ("permissionDecision" in shown) == (row["shape"] == "flat")
    assert ("hookSpecificOutput" in shown) == (row["shape"] == "specific")


@pytest.mark.parametrize("target", sorted(set(TARGETS) - set(PROMPTERS)))
def test_a_target_without_a_prompt_event_says_its_prompts_are_not_enforced(target):
    assert "not enforced" in F.PROMPT[DIALECT[target]]["none"]


@pytest.mark.parametrize("target", PROMPTERS)
def test_a_prompt_rule_blocks_the_captured_prompt(target):
    record, code, out, _ = run_case(DOC, target, PROMPT[target], fixture(target, PROMPT[target]))
    assert (record["event"], record["decision"]) == ("user_prompt_submit", "deny")
    assert json.loads(out)["decision"] == "block" and code == F.PROMPT[DIALECT[target]]["exit"]


@pytest.mark.parametrize("target", TARGETS)
def test_policy_test_templates_carry_the_captured_fields(target):
    """The target's first shell template for `agentdeck policy test` (its main shell tool) has
    no payload field the captured payload lacks, and every argument the captured call carried
    (a template may carry more: the scripted model filled only the command, a real one fills
    what the tool's schema asks, e.g. Qwen's `description` and `is_background`)."""
    real = fixture(target, PRE[target])
    event, made = next((e, p) for lbl, caller, e, p in payloads.shapes("shell", CAPTURED_COMMAND)
                       if caller == target and lbl.startswith(f"{DIALECT[target]}:"))
    assert event == pre_event(target)
    assert set(made) <= set(real), set(made) - set(real)
    args = next(k for k in ("toolArgs", "tool_input") if k in real)
    assert set(real[args]) <= set(made[args])


@pytest.mark.parametrize("target", PROMPTERS)
def test_prompt_templates_carry_the_captured_fields(target):
    real = fixture(target, PROMPT[target])
    [made] = [p for d, t, e, p in payloads.shapes("prompt", "x") if t == target]
    assert set(made) <= set(real), set(made) - set(real)


# ---- file, search and MCP tools, as the real CLIs sent them (one real offline turn each, with
# agentdeck's handler behind a capturing wrapper; <base>/home is the CLI's HOME)
KEYS_DOC = {"format": 2, "target": "t", "on_error": "deny", "mcp_servers": ["files"], "rules": [],
            "paths": [{"id": "private-keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                       "access": ["read", "write"], "decision": "deny", "reason": "keys"}]}
TOOL_FIXTURES = [("copilot", "preToolUse", "rg", "read", "search"),
                 ("copilot", "preToolUse", "glob", "read", "glob"),
                 ("copilot", "preToolUse", "view", "read", ""),
                 ("copilot", "preToolUse", "mcp", "mcp", ""),
                 # a freeform tool: toolArgs is the patch text itself, not JSON
                 ("copilot", "preToolUse", "apply_patch", "write", ""),
                 ("codex", "PreToolUse", "mcp", "mcp", ""),
                 ("claude", "PreToolUse", "mcp", "mcp", "")]


def _tool_fixture(target: str, event: str, name: str, base: str) -> dict:
    text = (FIXTURES / target / f"{event}.{name}.json").read_text()
    return json.loads(text.replace("<base>", base))


@pytest.mark.parametrize("target,event,name,cls,kind", TOOL_FIXTURES)
def test_captured_file_and_mcp_tools_reach_the_protected_path(target, event, name, cls, kind):
    from agentdeck.core.policy.fs import MemoryFS

    base = "/b"
    payload = _tool_fixture(target, event, name, base)
    [call] = tool_calls(payload, ["files"])
    assert (call.cls, call.kind) == (cls, kind)
    if cls == "mcp":
        assert call.subjects == ["files/read_file"]
    else:                               # the directory or file is a subject (rg/glob: `paths`)
        assert any(s.startswith(f"{base}/home/.ssh") for s in call.subjects), call.subjects
    fs = MemoryFS({f"{base}/home/.ssh/id_rsa": "k", f"{base}/home/.ssh/id_rsa.pub": "p"})
    record, code, _, _ = run_case(KEYS_DOC, target, event, payload,
                                  {"HOME": f"{base}/home"}, fs=fs)
    assert (record["decision"], record["rule"], code) == ("deny", "private-keys", 2)


def test_copilot_rg_over_an_unprotected_directory_is_allowed():
    from agentdeck.core.policy.fs import MemoryFS

    payload = _tool_fixture("copilot", "preToolUse", "rg", "/b")
    payload["toolArgs"]["paths"] = ["/b/work", "/b/home/.ssh/id_rsa.pub"]
    fs = MemoryFS({"/b/home/.ssh/id_rsa": "k", "/b/work/a.py": "x"})
    record, code, _, _ = run_case(KEYS_DOC, "copilot", "preToolUse", payload,
                                  {"HOME": "/b/home"}, fs=fs)
    assert (record["decision"], record["rule"], code) == ("allow", None, 0)
    payload["toolArgs"]["paths"].append("/b/home/.ssh")       # one directory above the key
    record, code, _, _ = run_case(KEYS_DOC, "copilot", "preToolUse", payload,
                                  {"HOME": "/b/home"}, fs=fs)
    assert (record["decision"], record["rule"], code) == ("deny", "private-keys", 2)


# ---- Qwen Code 0.24.4: its templates carry the fields of the payloads it sent (its deny is
# exit 0 with the hookSpecificOutput on stdout, so it is not in PRE above)
QWEN_TOOLS = [("qwen:run_shell_command", "shell", "PreToolUse"),
              ("qwen:read_file", "read", "PreToolUse.read_file"),
              ("qwen:grep_search", "read", "PreToolUse.grep_search"),
              ("qwen:write_file", "write", "PreToolUse.write_file"),
              ("qwen:edit", "write", "PreToolUse.edit"),
              ("qwen:web_fetch", "web", "PreToolUse.web_fetch")]


@pytest.mark.parametrize("label,cls,name", QWEN_TOOLS)
def test_qwen_templates_carry_the_captured_fields(label, cls, name):
    real = fixture("qwen", name)
    made = [p for lbl, _, event, p in payloads.shapes(cls, "/w/a.txt") if lbl == label]
    assert made, f"no {label} template"
    assert set(made[0]) == set(real), set(made[0]) ^ set(real)
    assert set(real["tool_input"]) <= set(made[0]["tool_input"]) | {"content"}


def test_qwen_prompt_template_carries_the_captured_fields():
    real = fixture("qwen", "UserPromptSubmit")
    [made] = [p for d, t, e, p in payloads.shapes("prompt", "x") if t == "qwen"]
    assert set(made) == set(real), set(made) ^ set(real)


def test_policy_test_tries_every_rule_class_in_qwens_payloads():
    from agentdeck.core.policy.payloads import tool_shapes
    for form in ("shell", "read", "write", "web", "mcp", "search", "glob", "mcp-path",
                 "dir-read", "dir-write"):
        got = [lbl for lbl, caller, _, _ in tool_shapes(form, "github/x" if form == "mcp"
                                                         else "/w/a.txt") if caller == "qwen"]
        assert got, form
    assert "qwen:monitor" in [lbl for lbl, *_ in tool_shapes("shell", "ls")]
