"""The default handler understands every dialect a repository's hook file makes its readers send.

Under the PascalCase keys agentdeck writes, Copilot CLI and the cloud agent send snake_case
fields with Claude tool names (reference: "A PascalCase key switches the payload to snake_case
fields and Claude tool names"); VS Code agent mode sends its own payload (hookEventName,
sessionId, VS Code tool ids). The committed wrapper sets AGENTDECK_TARGET=repo and passes the key
as argv[1].
"""
from __future__ import annotations

import pytest

from agentdeck.core import hookhandler
from agentdeck.core.targets import repo as R
from agentdeck.core.targets.copilot import repo as CR   # the carrier of the repository hook file

#: (key as registered, payload, dialect the handler must name, canonical event)
PAYLOADS = [
    # Copilot CLI / cloud agent, PascalCase keys
    ("PreToolUse", {"hook_event_name": "PreToolUse", "session_id": "s1", "cwd": "/workspace",
                    "timestamp": "2026-11-30T09:00:00.000Z", "tool_name": "Bash",
                    "tool_input": {"command": "git status"}}, "copilot-pascal", "pre_tool_use"),
    ("SessionStart", {"session_id": "s1", "cwd": "/workspace", "source": "startup"},
     "copilot-pascal", "session_start"),
    ("Stop", {"session_id": "s1", "cwd": "/w", "timestamp": "2026-11-30T09:00:01.000Z",
              "stop_reason": "end_turn"}, "copilot-pascal", "stop"),
    ("UserPromptSubmit", {"session_id": "s1", "cwd": "/w", "prompt": "fix the bug",
                          "timestamp": "2026-11-30T09:00:00.000Z"}, "copilot-pascal",
     "user_prompt_submit"),
    ("PermissionRequest", {"session_id": "s1", "tool_name": "Write",
                           "tool_input": {"file_path": "a"}}, "copilot-pascal",
     "permission_request"),
    # VS Code agent mode
    ("PreToolUse", {"timestamp": "2026-11-30T09:00:00.000Z", "hookEventName": "PreToolUse",
                    "sessionId": "v1", "transcript_path": "/tmp/t.json", "cwd": "/repo",
                    "tool_name": "run_in_terminal", "tool_input": {"command": "npm test"},
                    "tool_use_id": "tool-1"}, "vscode", "pre_tool_use"),
    ("Stop", {"timestamp": "2026-11-30T09:00:00.000Z", "hookEventName": "Stop",
              "sessionId": "v1", "cwd": "/repo", "stop_hook_active": False}, "vscode", "stop"),
    ("SubagentStart", {"timestamp": "2026-11-30T09:00:00.000Z", "hookEventName": "SubagentStart",
                       "sessionId": "v1", "cwd": "/repo", "agent_id": "a"}, "vscode",
     "subagent_start"),
]


@pytest.mark.parametrize("key,payload,dialect,canon", PAYLOADS)
def test_each_reader_payload_is_understood(key, payload, dialect, canon):
    rec = hookhandler.build_record(payload, key, {"AGENTDECK_TARGET": "repo"})
    assert (rec["target"], rec["event"], rec["raw_event"], rec["dialect"]) == (
        "repo", canon, key, dialect)
    assert rec["session_id"] == (payload.get("session_id") or payload.get("sessionId"))
    if "tool_name" in payload:
        assert rec["tools"] == [{"name": payload["tool_name"], "args": payload["tool_input"]}]


def test_every_key_agentdeck_writes_maps_to_a_handler_event():
    from agentdeck.core.targets.copilot.facts import COPILOT

    for event in COPILOT.register_events:
        assert hookhandler.canonical_event(R.event_key(event)) != "unknown"
        assert hookhandler.canonical_event(R.event_key(event)) == hookhandler.canonical_event(event)


def test_the_plan_names_the_handlers_dialect_labels():
    assert set(CR.READER_DIALECT.values()) <= set(R.DIALECTS)
    labels = {d for _, _, d, _ in PAYLOADS}
    assert labels == set(R.DIALECTS)
