"""MCP tool names per CLI: the payloads captured in real offline turns
(tests/fixtures/payloads/<cli>/mcp-*.json, `capture_payloads.py --mcp`: server `Srv.Dot`, tool
`leave.marker-v2`) are MCP calls on the profile's server, the facts (each target's dialect
part, MCP_NAMES)
reproduce the names the CLIs sent, a `tool = "mcp"` rule denies each in its CLI's channel, and
`policy test` builds the same names."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentdeck.core.facts import hook_channels as F
from agentdeck.core.policy import payloads
from agentdeck.core.policy.selftest import run_case, test_policy as policy_test
from agentdeck.core.policy.vocabulary import tool_calls
from agentdeck.core.targets import dialects
from tests.registry_kit import HOOKED, deny_exit, dialect, pre_event


def naming(target: str):
    return dialects.module(target).MCP_NAMES


def spell(target: str, name: str) -> str:
    return naming(target).spell(name)


def tool_name(target: str, server: str, tool: str) -> str:
    return naming(target).tool_name(server, tool)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "payloads"
SERVER, TOOL = "Srv.Dot", "leave.marker-v2"
#: every registered target with shell hooks; each has its MCP call captured
#: (tests/fixtures/payloads/<name>/mcp-<pre-tool event>.json)
TARGETS = HOOKED
PRE = {t: dialect(t).events[0] for t in TARGETS}
DIALECT = {t: dialect(t).label for t in TARGETS}
RULE = {"id": "no-marker", "tool": "mcp", "match": r"^Srv\.Dot/leave.marker.v2$",
        "decision": "deny", "reason": "marker server off limits"}


def fixture(target: str, event: str) -> dict:
    return json.loads((FIXTURES / target / f"mcp-{event}.json").read_text())


@pytest.mark.parametrize("target", TARGETS)
def test_the_facts_give_the_name_the_cli_sent(target):
    sent = fixture(target, PRE[target])
    assert tool_name(target, SERVER, TOOL) == sent.get("toolName", sent.get("tool_name"))
    assert naming(target).source == "observed"


@pytest.mark.parametrize("target", TARGETS)
def test_the_captured_mcp_call_names_the_profiles_server(target):
    [call] = tool_calls(fixture(target, PRE[target]), [SERVER, "other"])
    assert (call.cls, call.subjects) == ("mcp", [f"{SERVER}/{spell(target, TOOL)}"])
    assert call.texts == ["hello"]


def test_claude_names_the_server_itself():
    [call] = tool_calls(fixture("claude", "PreToolUse"))          # no server list needed
    assert call.subjects == ["Srv.Dot/leave_marker-v2"]


def test_without_the_server_list_the_spelling_is_all_there_is():
    [codex] = tool_calls(fixture("codex", "PreToolUse"))
    assert codex.subjects == ["Srv_Dot/leave_marker_v2"]
    [copilot] = tool_calls(fixture("copilot", "preToolUse"))
    assert copilot.cls == "other"        # <server>-<tool> is only known for installed servers


def test_copilot_pre_mcp_tool_call_carries_the_real_names():
    [call] = tool_calls(fixture("copilot", "preMcpToolCall"))
    assert (call.cls, call.subjects) == ("mcp", ["Srv.Dot/leave.marker-v2"])


@pytest.mark.parametrize("servers,name,subject", [
    (["a", "a-b"], "a-b-c", "a-b/c"),             # the longest server spelling wins
    (["a", "a-b"], "a-x-y", "a/x-y"),
    (["my-srv"], "my-srv-get_issue", "my-srv/get_issue"),
    (["srv.v1"], "srv-v1-t", "srv.v1/t"),         # Copilot spells '.' as '-'
])
def test_copilot_names_map_to_the_known_server(servers, name, subject):
    [call] = tool_calls({"toolName": name, "toolArgs": {}}, servers)
    assert (call.cls, call.subjects) == ("mcp", [subject])


@pytest.mark.parametrize("servers,name,subject", [
    (["my-srv"], "mcp__my_srv__get_issue", "my-srv/get_issue"),     # Codex: '-' -> '_'
    (["my-srv"], "mcp__my-srv__get_issue", "my-srv/get_issue"),     # Claude keeps '-'
    (["a", "a_b"], "mcp__a_b__c", "a_b/c"),
    (["github"], "mcp__other__x", "other/x"),                      # an unknown server
])
def test_mcp_double_underscore_names_map_to_the_known_server(servers, name, subject):
    [call] = tool_calls({"tool_name": name, "tool_input": {}}, servers)
    assert (call.cls, call.subjects) == ("mcp", [subject])


@pytest.mark.parametrize("target", TARGETS)
def test_a_rule_denies_the_captured_mcp_call_in_the_clis_channel(target):
    doc = {"format": 2, "target": target, "on_error": "deny", "rules": [RULE],
           "mcp_servers": [SERVER]}
    record, code, out, err = run_case(doc, target, pre_event(target), fixture(target, PRE[target]))
    assert (record["decision"], record["rule"], record["tool_class"], code) == (
        "deny", "no-marker", "mcp", deny_exit(target))
    shape = F.PRE_TOOL[DIALECT[target]]["shape"]
    if shape is None:                # a plugin's channel: the exit and stderr only
        assert out == "" and err
        return
    shown = json.loads(out)
    assert ("permissionDecision" in shown) == (shape == "flat")


@pytest.mark.parametrize("target", TARGETS)
def test_policy_test_templates_build_the_captured_mcp_payload(target):
    real = fixture(target, PRE[target])
    label = f"{DIALECT[target]}:{tool_name(target, SERVER, TOOL)}"
    [(_, _, event, made)] = [s for s in payloads.shapes("mcp", f"{SERVER}/{TOOL}") if s[0] == label]
    assert event == pre_event(target)
    assert set(made) <= set(real), set(made) - set(real)
    name_key = "toolName" if target == "copilot" else "tool_name"
    assert made[name_key] == real[name_key]
    if target == "claude":
        assert made["mcp_server"]["name"] == real["mcp_server"]["name"]


def test_policy_test_passes_a_rule_written_for_every_spelling():
    rule = {**RULE, "examples": {"deny": [f"{SERVER}/{TOOL}"], "allow": ["Srv.Dot/other"]}}
    res = policy_test({"on_error": "deny", "rules": [rule], "paths": []})
    assert res.ok, res.mismatches
    assert res.checked > 7


def test_policy_test_says_where_a_literal_tool_name_misses_a_cli():
    rule = {**RULE, "match": r"^Srv\.Dot/leave\.marker-v2$",
            "examples": {"deny": [f"{SERVER}/{TOOL}"]}}
    res = policy_test({"on_error": "deny", "rules": [rule], "paths": []})
    missed = {m.split(" in ")[1].split(":")[0] for m in res.mismatches}
    # every dialect whose spelling changes the tool's name (its `.`, or `-`): the literal misses
    spelled = {DIALECT[t] for t in TARGETS if spell(t, TOOL) != TOOL}
    assert spelled and spelled <= missed, res.mismatches
