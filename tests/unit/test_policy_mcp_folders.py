"""An MCP tool told which folder it acts in (a shell server's `cwd`, a file server's `root` or
`directory`, a git server's `repo_path`) acts there: its relative paths, its plain names and its
command are that folder's; a container tool's bind mount `SRC:DST` reaches all below SRC
(core/policy/vocabulary.py _MCP_FOLDER_KEYS, core/policy/paths.py for_call; red team round 6
class 17)."""
from __future__ import annotations

import pytest

from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

HOME = "/home/me"
DOC = {"unresolved": "ask", "rules": [],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
                  "access": ["read", "write"], "decision": "deny", "reason": "keys"}]}
FS = MemoryFS({f"{HOME}/.ssh/id_rsa": "k", f"{HOME}/proj/a.txt": "a"})
SERVERS = ("shell", "fs", "docker", "git")


def _decide(tool: str, args: dict):
    calls = tool_calls({"tool_name": tool, "tool_input": args}, mcp_servers=SERVERS)
    return evaluate_doc(DOC, calls, Context(HOME, f"{HOME}/proj", {"HOME": HOME}, FS))


@pytest.mark.parametrize("tool,args", [
    ("mcp__shell__run", {"command": "cat id_rsa", "cwd": f"{HOME}/.ssh"}),
    ("mcp__shell__run", {"command": "cat id_rsa", "working_directory": "~/.ssh"}),
    ("mcp__fs__read_file", {"path": "id_rsa", "root": f"{HOME}/.ssh"}),
    ("mcp__fs__read_file", {"name": "id_rsa", "directory": "~/.ssh"}),
    ("mcp__git__git_add", {"repo_path": f"{HOME}/.ssh", "files": ["id_rsa"]}),
    ("mcp__docker__run", {"image": "alpine", "volumes": [f"{HOME}:/h"]}),
])
def test_a_folder_an_mcp_tool_is_told_is_where_it_acts(tool, args):
    v = _decide(tool, args)
    assert (v.decision, v.rule) == ("deny", "keys"), v.reason


@pytest.mark.parametrize("tool,args", [
    ("mcp__fs__read_file", {"path": "a.txt", "root": f"{HOME}/proj"}),
    ("mcp__shell__run", {"command": "ls", "cwd": f"{HOME}/.ssh"}),
    ("mcp__docker__run", {"image": "alpine", "volumes": ["./data:/data"]}),
])
def test_the_same_tools_elsewhere_run(tool, args):
    assert _decide(tool, args).decision == "allow"
