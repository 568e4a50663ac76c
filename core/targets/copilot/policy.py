"""What `agentdeck policy show` / `policy test` say and try for GitHub Copilot CLI and for the
repository scope its dialect speaks for (core/targets/parts/policy.py).

The templates carry the fields Copilot CLI 1.0.102 sent in real offline turns (docs/facts/
copilot.md; tests/fixtures/payloads/copilot/): camelCase under the keys agentdeck registers in
the home (toolArgs an object; a JSON string in builds before 1.0.102; a toolCalls[] batch in
1.0.80), PascalCase with Claude's tool names under the repository hook file's keys; VS Code
agent mode reads the repository's hook file too (documented only).
"""
from __future__ import annotations

import json
from typing import Any

from ...policy.templates import (
    CWD, PROMPT_CWD, S, PreToolTemplate, PromptTemplate, named, patch, patch_moved, snake, snake_prompt,
    spelled)
from ..layers import Layer, guarded
from ..path_spelling import NativeDeny
from .dialect import MCP_NAMES

CAVEATS = {
    "copilot": ["preMcpToolCall cannot deny (the MCP tool still runs): rules on MCP tools are "
                "enforced at preToolUse",
                "a hook that times out lets the tool run (every CLI fails open on a timeout)"],
    "repo": ["VS Code ignores matchers: every hook sees every tool, the handler filters itself",
             "the Copilot cloud agent treats ask as deny",
             "Copilot CLI loads repository hooks only in a trusted folder"],
}

#: what the built-in rule agentdeck-self keeps an agent from writing: the hook files agentdeck
#: registers (~/.copilot/hooks/*.json) and their folder, settings.json (its disabledHooks list
#: switches single hooks off), and agentdeck's wrapper
#: -- and a repository's .github/copilot/settings*.json, whose disableAllHooks Copilot CLI
#: reads in that folder (core/targets/copilot/repo.py REPO_SETTINGS)
#: each such file as a fact with its version (core/targets/layers.py)
LAYERS = (
    Layer("**/.github/copilot/settings.json", "a repository's Copilot settings: its "
          "disabledHooks list can name hooks not to run", "1.0.102", "documented",
          keys=("disabledHooks",)),
    Layer("**/.github/copilot/settings.local.json", "a repository's local Copilot settings, as "
          "the repository file", "1.0.102", "documented", keys=("disabledHooks",)),
    Layer("config.json", "Copilot's tool-managed config: its trustedFolders list decides where a "
          "repository's hooks, .mcp.json and Claude-format hooks load (agentdeck never writes "
          "it)", "1.0.102", "documented", report=False),
)
#: files naming programs Copilot CLI 1.0.102 starts by itself: its MCP servers (home; a
#: repository's .mcp.json and .github/mcp.json in a trusted folder: docs/facts/copilot.md) -- a
#: server written into mcp-config.json ran at the next start in a real turn -- and the managed
#: folder; and a repository's hook files (.github/hooks/*.json, loaded in a trusted folder: their
#: commands run at the next hook event, beside agentdeck's)
STARTS = ("mcp-config.json", "**/.mcp.json", "**/.github/mcp.json", "**/.github/hooks/**",
          "**/.github/hooks", "/etc/github-copilot/**",
          # its LSP servers (home and a repository's), started when its `lsp` tool is used: a
          # command written there ran with no hook in a real turn of 1.0.102; and the plugins
          # it installs (their MCP servers and hooks)
          "lsp-config.json", "**/.github/lsp.json", "installed-plugins", "installed-plugins/**",
          # custom agents: their frontmatter's mcp-servers start when the agent runs
          "agents/**", "agents", "**/.github/agents/**")
GUARDED = guarded(("hooks/**", "settings.json", "hooks", "agentdeck-hook.sh",
                   "**/.github/copilot/settings.json", "**/.github/copilot/settings.local.json",
                   *STARTS), LAYERS)

#: no RUNTIME_FLOOR: Copilot CLI 1.0.102's sandbox holds for an exact path (facts.py SANDBOX), but
#: takes a rule's glob literally and makes a missing path on the host, so agentdeck writes no
#: rule there and `policy show` says "nothing"

#: Copilot's own path deny (facts.py PERMISSIONS): agentdeck cannot write it for every session
def _native_deny() -> NativeDeny:
    from . import facts

    return NativeDeny(
        verified=facts.PERMISSIONS_VERIFIED, facts=facts.PERMISSIONS, written=False,
        why=f"Copilot CLI {facts.PERMISSIONS_VERIFIED} takes path denies only as --deny-tool "
            "flags or from enterprise-managed settings; the hook is the only layer agentdeck "
            "installs")


def __getattr__(name: str) -> Any:
    # NATIVE_DENY is made when first asked for: every apply reads each target's GUARDED
    # (the compiled policy's agentdeck-self rule), and this target's facts and
    # translation need not load for that (~30 M instructions off a one-target apply)
    if name == "NATIVE_DENY":
        value = globals()[name] = _native_deny()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

_TS = 1764493200000                      # camelCase: a numeric timestamp
_ISO = "2026-12-01T09:00:00.000Z"        # PascalCase and VS Code: an ISO string


def _camel(tool: str, args: dict) -> dict:
    return {"sessionId": S, "timestamp": _TS, "cwd": CWD, "toolName": tool, "toolArgs": args}


def _camel_string(tool: str, args: dict) -> dict:      # builds before 1.0.102
    return {"sessionId": S, "timestamp": _TS, "cwd": CWD, "toolName": tool,
            "toolArgs": json.dumps(args)}


def _batch(tool: str, args: dict) -> dict:              # 1.0.80: toolCalls[]
    return {"sessionId": S, "timestamp": _TS, "cwd": CWD, "toolCalls": [
        {"id": "call_0", "name": "bash", "args": json.dumps({"command": "git status"})},
        {"id": "call_1", "name": tool, "args": json.dumps(args)}]}


def _pascal(tool: str, args: dict) -> dict:
    return snake("PreToolUse", tool, args, timestamp=_ISO)


def _vscode(tool: str, args: dict) -> dict:
    return {"timestamp": _ISO, "hookEventName": "PreToolUse", "sessionId": S,
            "transcript_path": "/tmp/t.json", "cwd": CWD, "tool_name": tool, "tool_input": args,
            "tool_use_id": "tool-1"}


#: Copilot CLI's own tools (camelCase payloads)
_CAMEL_TOOLS: dict = {
    "shell": [("bash", lambda s: {"command": s, "description": "run"})],
    "read": [("view", lambda s: {"path": s}),
             ("str_replace_editor", lambda s: {"command": "view", "path": s}),
             ("rg", lambda s: {"pattern": ".", "paths": s, "output_mode": "content"})],
    "write": [("apply_patch", lambda s: {"input": patch_moved(s)}),
              ("create", lambda s: {"path": s, "file_text": "x"}),
              ("edit", lambda s: {"path": s, "old_str": "a", "new_str": "b"}),
              ("str_replace_editor", lambda s: {"command": "create", "path": s,
                                                "file_text": "x"})],
    "web": [("web_fetch", lambda s: {"url": s})],
    "search": [("rg", lambda s: {"pattern": "KEY", "paths": s}),
               ("rg", lambda s: {"pattern": "KEY", "paths": ["/tmp", s]}),
               ("grep", lambda s: {"pattern": "KEY", "path": s})],
    "glob": [("glob", lambda s: {"pattern": s}),
             ("glob", lambda s: {"pattern": s.rsplit("/", 1)[-1],
                                 "paths": ["/tmp", s.rsplit("/", 1)[0] or "/"]})],
    "mcp-path": [("github-get_file", lambda s: {"path": s})],
    # a sub-agent's prompt: task starts one, write_agent's message is its next turn
    "delegate": [("task", lambda s: {"description": "look", "prompt": s, "agent_type": "task",
                                     "name": "look"}),
                 ("write_agent", lambda s: {"agent_id": "look-1", "message": s})],
    "unknown-path": [("future_file_tool", lambda s: {"path": s})],
}
_CAMEL_MCP = [spelled(MCP_NAMES)]

#: Claude's tool names, as the PascalCase payloads carry them
_PASCAL_TOOLS: dict = {
    "shell": [("Bash", lambda s: {"command": s})],
    "read": [("Read", lambda s: {"file_path": s})],
    "write": [("Write", lambda s: {"file_path": s, "content": "x"}),
              ("Edit", lambda s: {"file_path": s, "old_string": "a", "new_string": "b"})],
    "web": [("WebFetch", lambda s: {"url": s, "prompt": "summarize"})],
    "search": [("Grep", lambda s: {"pattern": "KEY", "path": s})],
    "glob": [("Glob", lambda s: {"pattern": s})],
    "mcp-path": [("mcp__github__get_file", lambda s: {"path": s})],
}

#: VS Code agent mode's tool ids (documented)
_VSCODE_TOOLS: dict = {
    "shell": [("run_in_terminal", lambda s: {"command": s, "explanation": "run",
                                             "isBackground": False})],
    "read": [("read_file", lambda s: {"filePath": s, "startLine": 1, "endLine": 50})],
    "write": [("create_file", lambda s: {"filePath": s, "content": "x"}),
              ("replace_string_in_file", lambda s: {"filePath": s, "oldString": "a",
                                                    "newString": "b"}),
              ("apply_patch", lambda s: {"input": patch(s), "explanation": "edit"})],
    "web": [("fetch_webpage", lambda s: {"urls": [s], "query": "summarize"})],
    "mcp-path": [("mcp_github_get_file", lambda s: {"path": s})],
}

PRE_TOOL = {
    "copilot-camel": PreToolTemplate("copilot-camel", "copilot", "preToolUse", _camel,
                                     _CAMEL_TOOLS, _CAMEL_MCP),
    "copilot-camel-string": PreToolTemplate("copilot-camel", "copilot", "preToolUse",
                                            _camel_string, _CAMEL_TOOLS, _CAMEL_MCP),
    "copilot-batch": PreToolTemplate("copilot-camel", "copilot", "preToolUse", _batch,
                                     _CAMEL_TOOLS, _CAMEL_MCP),
    "copilot-pascal": PreToolTemplate("copilot-pascal", "repo", "PreToolUse", _pascal,
                                      _PASCAL_TOOLS, [named("mcp__{server}__{tool}")]),
    "vscode": PreToolTemplate("vscode", "repo", "PreToolUse", _vscode, _VSCODE_TOOLS,
                              [named("mcp_{server}_{tool}")]),
}

PROMPTS = {
    "copilot-camel": PromptTemplate(
        "copilot-camel", "copilot", "userPromptSubmitted",
        lambda p: {"sessionId": S, "timestamp": _TS, "cwd": PROMPT_CWD, "prompt": p}),
    "copilot-pascal": PromptTemplate(
        "copilot-pascal", "repo", "UserPromptSubmit",
        lambda p: snake_prompt("UserPromptSubmit", p, timestamp=_ISO)),
    "vscode": PromptTemplate(
        "vscode", "repo", "UserPromptSubmit",
        lambda p: {"timestamp": _ISO, "hookEventName": "UserPromptSubmit", "sessionId": S,
                   "cwd": PROMPT_CWD, "prompt": p}),
}


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.policy import PolicyModule
    from . import policy as _this
    _conforms: PolicyModule = _this
