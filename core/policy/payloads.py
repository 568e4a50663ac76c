"""Each dialect's pre-tool and prompt payload shapes, as templates for `agentdeck policy test`.

A template builds the payload a CLI sends when it calls a tool of one class on one subject
(the command, path, "server/tool" or URL of a rule example). The field names follow the
payloads the real CLIs sent (docs/facts/<cli>.md "A real turn offline"; the captured fixtures in
tests/fixtures/payloads/ are checked against these templates by tests/unit/test_policy_payloads.py).

    for dialect, target, event, payload in shapes("shell", "git push --force"): ...
"""
from __future__ import annotations

import json



def mcp_tool_name(target: str, server: str, tool: str) -> str:
    """The name target's pre-tool hook sees for `tool` of `server` (its dialect part's
    MCP_NAMES, observed)."""
    from ..targets import dialects
    naming = dialects.module(target).MCP_NAMES
    return naming.tool_name(server, tool)

S = "policy-test"      # the session id every template carries
CWD = "/work/repo"     # the working folder every template carries (a virtual one)


def _copilot_camel(tool: str, args: dict) -> dict:
    return {"sessionId": S, "timestamp": 1764493200000, "cwd": CWD,
            "toolName": tool, "toolArgs": args}


def _copilot_camel_string(tool: str, args: dict) -> dict:      # builds before 1.0.102
    return {"sessionId": S, "timestamp": 1764493200000, "cwd": CWD,
            "toolName": tool, "toolArgs": json.dumps(args)}


def _copilot_batch(tool: str, args: dict) -> dict:              # 1.0.80: toolCalls[]
    return {"sessionId": S, "timestamp": 1764493200000, "cwd": CWD, "toolCalls": [
        {"id": "call_0", "name": "bash", "args": json.dumps({"command": "git status"})},
        {"id": "call_1", "name": tool, "args": json.dumps(args)}]}


def _snake(event: str, tool: str, args: dict, **extra) -> dict:
    return {"session_id": S, "hook_event_name": event, "cwd": CWD, "tool_name": tool,
            "tool_input": args, **extra}


def _copilot_pascal(tool: str, args: dict) -> dict:
    return _snake("PreToolUse", tool, args, timestamp="2026-12-01T09:00:00.000Z")


def _codex(tool: str, args: dict) -> dict:
    return _snake("PreToolUse", tool, args, turn_id="turn-1", tool_use_id="call_1",
                  model="gpt-5.4", permission_mode="bypassPermissions",
                  transcript_path="/tmp/rollout.jsonl")


def _claude(tool: str, args: dict) -> dict:
    return _snake("PreToolUse", tool, args, tool_use_id="toolu_01",
                  transcript_path="/tmp/t.jsonl", permission_mode="bypassPermissions")


def _vscode(tool: str, args: dict) -> dict:
    return {"timestamp": "2026-12-01T09:00:00.000Z", "hookEventName": "PreToolUse",
            "sessionId": S, "transcript_path": "/tmp/t.json", "cwd": CWD,
            "tool_name": tool, "tool_input": args, "tool_use_id": "tool-1"}


#: dialect -> (target whose wrapper sends it, event as registered, builder)
DIALECTS = {
    "copilot-camel": ("copilot", "preToolUse", _copilot_camel),
    "copilot-camel-string": ("copilot", "preToolUse", _copilot_camel_string),
    "copilot-batch": ("copilot", "preToolUse", _copilot_batch),
    "copilot-pascal": ("repo", "PreToolUse", _copilot_pascal),
    "vscode": ("repo", "PreToolUse", _vscode),
    "codex": ("codex", "PreToolUse", _codex),
    "claude": ("claude", "PreToolUse", _claude),
}


def _patch(path: str) -> str:
    return (f"*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n*** Add File: {path}\n"
            "+x\n*** End Patch\n")


def _mcp(subject: str) -> tuple[str, str]:
    server, _, tool = subject.partition("/")
    return server, tool or "tool"


#: class -> dialect -> [(tool name, args builder)]: every way that dialect expresses the class
TOOLS: dict[str, dict[str, list]] = {
    "shell": {
        "copilot": [("bash", lambda s: {"command": s, "description": "run"})],
        "pascal": [("Bash", lambda s: {"command": s})],
        "vscode": [("run_in_terminal", lambda s: {"command": s, "explanation": "run",
                                                  "isBackground": False})],
        "codex": [("Bash", lambda s: {"command": s}), ("exec_command", lambda s: {"cmd": s}),
                  ("shell", lambda s: {"command": ["bash", "-lc", s]})],
        "claude": [("Bash", lambda s: {"command": s})],
    },
    "read": {
        "copilot": [("view", lambda s: {"path": s}),
                    ("str_replace_editor", lambda s: {"command": "view", "path": s}),
                    ("rg", lambda s: {"pattern": ".", "paths": s, "output_mode": "content"})],
        "pascal": [("Read", lambda s: {"file_path": s})],
        "vscode": [("read_file", lambda s: {"filePath": s, "startLine": 1, "endLine": 50})],
        "codex": [],          # Codex reads through its shell tool
        "claude": [("Read", lambda s: {"file_path": s}), ("NotebookRead", lambda s: {"notebook_path": s}),
                   ("Grep", lambda s: {"pattern": ".", "path": s, "output_mode": "content"})],
    },
    "write": {
        "copilot": [("create", lambda s: {"path": s, "file_text": "x"}),
                    ("edit", lambda s: {"path": s, "old_str": "a", "new_str": "b"}),
                    ("str_replace_editor", lambda s: {"command": "create", "path": s,
                                                      "file_text": "x"})],
        "pascal": [("Write", lambda s: {"file_path": s, "content": "x"}),
                   ("Edit", lambda s: {"file_path": s, "old_string": "a", "new_string": "b"})],
        "vscode": [("create_file", lambda s: {"filePath": s, "content": "x"}),
                   ("replace_string_in_file", lambda s: {"filePath": s, "oldString": "a",
                                                         "newString": "b"}),
                   ("apply_patch", lambda s: {"input": _patch(s), "explanation": "edit"})],
        "codex": [("apply_patch", lambda s: {"command": _patch(s)})],
        "claude": [("Write", lambda s: {"file_path": s, "content": "x"}),
                   ("Edit", lambda s: {"file_path": s, "old_string": "a", "new_string": "b"}),
                   ("MultiEdit", lambda s: {"file_path": s, "edits": [{"old_string": "a",
                                                                       "new_string": "b"}]}),
                   ("NotebookEdit", lambda s: {"notebook_path": s, "new_source": "x"})],
    },
    "web": {
        "copilot": [("web_fetch", lambda s: {"url": s})],
        "pascal": [("WebFetch", lambda s: {"url": s, "prompt": "summarize"})],
        "vscode": [("fetch_webpage", lambda s: {"urls": [s], "query": "summarize"})],
        "codex": [],
        "claude": [("WebFetch", lambda s: {"url": s, "prompt": "summarize"})],
    },
    "mcp": {         # an MCP tool: the name carries server and tool (a callable: as that CLI
                     # spells them, its dialect part's MCP_NAMES, observed)
        "copilot": [(lambda srv, t: mcp_tool_name("copilot", srv, t), None)],
        "pascal": [("mcp__{server}__{tool}", None)],
        "vscode": [("mcp_{server}_{tool}", None)],
        "codex": [(lambda srv, t: mcp_tool_name("codex", srv, t), None)],
        "claude": [(lambda srv, t: mcp_tool_name("claude", srv, t), None)],
    },
}
_FAMILY = {"copilot-camel": "copilot", "copilot-camel-string": "copilot", "copilot-batch": "copilot",
           "copilot-pascal": "pascal", "vscode": "vscode", "codex": "codex", "claude": "claude"}

#: prompt events: dialect -> (target, event, payload builder)
PROMPTS = {
    "copilot-camel": ("copilot", "userPromptSubmitted",
                      lambda p: {"sessionId": S, "timestamp": 1764493200000, "cwd": "/w",
                                 "prompt": p}),
    "copilot-pascal": ("repo", "UserPromptSubmit",
                       lambda p: {"session_id": S, "hook_event_name": "UserPromptSubmit",
                                  "timestamp": "2026-12-01T09:00:00.000Z", "cwd": "/w",
                                  "prompt": p}),
    "vscode": ("repo", "UserPromptSubmit",
               lambda p: {"timestamp": "2026-12-01T09:00:00.000Z", "hookEventName":
                          "UserPromptSubmit", "sessionId": S, "cwd": "/w", "prompt": p}),
    "codex": ("codex", "UserPromptSubmit",
              lambda p: {"session_id": S, "turn_id": "turn-1", "hook_event_name":
                         "UserPromptSubmit", "cwd": "/w", "prompt": p}),
    "claude": ("claude", "UserPromptSubmit",
               lambda p: {"session_id": S, "hook_event_name": "UserPromptSubmit", "cwd": "/w",
                          "prompt": p, "permission_mode": "default"}),
}


def shapes(cls: str, subject: str):
    """(dialect label, target, event, payload) for every way each dialect sends a call of
    `cls` on `subject`; for cls "any", the shell shapes (an example is a command)."""
    if cls == "prompt":
        for dialect, (target, event, build) in PROMPTS.items():
            yield dialect, target, event, build(subject)
        return
    family_tools = TOOLS["shell" if cls == "any" else cls]
    for dialect, (target, event, build) in DIALECTS.items():
        for tool, args in family_tools.get(_FAMILY[dialect], []):
            extra = {}
            if args is None:                              # an MCP tool: the name carries it
                server, t = _mcp(subject)
                name = tool(server, t) if callable(tool) else tool.format(server=server, tool=t)
                payload_args = {}
                if _FAMILY[dialect] == "claude":          # Claude names the server (observed)
                    extra = {"mcp_server": {"name": server, "source": "user"}}
            else:
                name, payload_args = tool, args(subject)
            yield f"{dialect}:{name}", target, event, {**build(name, payload_args), **extra}
