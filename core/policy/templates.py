"""The pieces of a payload template for `agentdeck policy test`: what each target's policy part
(core/targets/<name>/policy.py, interface core/targets/parts/policy.py) builds its templates
from, and the shapes of the templates themselves.

A template is how one dialect sends a pre-tool call (`PreToolTemplate`) or a prompt
(`PromptTemplate`), with the field names the real CLI sent (docs/facts/<cli>.md "A real turn
offline"; tests/fixtures/payloads/, checked by tests/unit/test_policy_payloads.py);
core/policy/payloads.py gathers every registered target's and core/policy/selftest.py runs the
hook handler on what they build.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

S = "policy-test"      # the session id every template carries
CWD = "/work/repo"     # the working folder every template carries (a virtual one)
#: the prompt templates' working folder
PROMPT_CWD = "/w"

#: (tool name, args): one way a dialect sends a call of a class; `args(subject)` builds the
#: tool's arguments from a rule example's subject (command, path, URL)
ToolForm = tuple[str, Callable[[str], dict[str, Any]]]
#: (server, tool) -> (tool name, payload fields beside the tool's): one way a dialect names an
#: MCP tool (the name as that CLI spells it, its dialect part's MCP_NAMES)
McpForm = Callable[[str, str], tuple[str, dict[str, Any]]]


@dataclass(frozen=True)
class PreToolTemplate:
    """How one dialect sends a pre-tool call.

    dialect  the label of the Dialect (core/targets/<name>/dialect.py) whose channel answers it
             (several templates may share one: Copilot's camelCase builds)
    caller   the AGENTDECK_TARGET its hooks run with: the target, or a scope its dialect module
             speaks for (SPEAKERS: the repository's hooks, "repo")
    event    the pre-tool event as the hooks are registered
    build    (tool name, args) -> the payload
    tools    form -> [ToolForm]: every way the dialect sends a call of that form; forms are the
             rule classes shell, read, write, web, and the evasion corpus's (core/policy/
             corpus.py) search (a recursive content search), glob (names matching a pattern),
             mcp-path (an MCP tool given a path argument), dir-read / dir-write (a shell tool
             run in a folder its own argument names, the command naming the file alone: the
             subject is the file's absolute path), session-write (characters typed into a
             running shell session: the subject is a command line), session (a command of a
             shell tool whose process takes later input no hook sees), delegate (a prompt handed
             to a sub-agent), unknown-path (a tool no vocabulary knows, given a path) and
             dispatch (a tool that calls the shell tool it names); a form it has no tool for:
             absent
    mcp      [McpForm]: how it names an MCP tool (the name carries server and tool)
    """
    dialect: str
    caller: str
    event: str
    build: Callable[[str, dict[str, Any]], dict[str, Any]]
    tools: dict[str, list[ToolForm]] = field(default_factory=dict)
    mcp: list[McpForm] = field(default_factory=list)


@dataclass(frozen=True)
class PromptTemplate:
    """How one dialect sends a prompt: `build(prompt)` is the payload of `event` (as registered)
    from the hooks of `caller`, answered in the channel of Dialect `dialect`."""
    dialect: str
    caller: str
    event: str
    build: Callable[[str], dict[str, Any]]


def snake(event: str, tool: str, args: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A pre-tool payload in Claude Code's hook schema (Claude, Codex, Copilot PascalCase):
    session_id, hook_event_name, cwd, tool_name + tool_input, and the dialect's own fields."""
    return {"session_id": S, "hook_event_name": event, "cwd": CWD, "tool_name": tool,
            "tool_input": args, **extra}


def snake_prompt(event: str, prompt: str, **extra: Any) -> dict[str, Any]:
    """A prompt payload in Claude Code's hook schema, with the dialect's own fields."""
    return {"session_id": S, "hook_event_name": event, **extra, "cwd": PROMPT_CWD,
            "prompt": prompt}


def patch(path: str) -> str:
    """An apply_patch text that updates one file and adds `path` (every path counts)."""
    return (f"*** Begin Patch\n*** Update File: src/app.py\n@@\n-a\n+b\n*** Add File: {path}\n"
            "+x\n*** End Patch\n")


def patch_moved(path: str) -> str:
    """An apply_patch text that moves a file to `path`, spelled with the extra spaces the
    CLIs accept (`***  Update File:   p`): the destination is a write too."""
    return (f"*** Begin Patch\n***  Update File:   src/app.py\n*** Move to:   {path}\n@@\n-a\n+b\n"
            "*** End Patch\n")


def named(form: str) -> McpForm:
    """An McpForm from a name pattern with {server} and {tool}, the names as they are."""
    return lambda server, tool: (form.format(server=server, tool=tool), {})


def spelled(naming: Any) -> McpForm:
    """An McpForm from a dialect part's McpNaming (core/targets/dialects.py): the CLI's
    spelling of both names."""
    return lambda server, tool: (naming.tool_name(server, tool), {})
