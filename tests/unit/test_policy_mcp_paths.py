"""An MCP tool's path arguments (a filesystem server's `path`, `paths`, `source`,
`destination`, a top-level value that looks like a path) are judged against the working folder
as a file tool's are (core/policy/vocabulary.py classify, core/policy/paths.py): relative ones,
through a link, read only when the tool's name says it reads, else read and written."""
from __future__ import annotations

import json

import pytest

from agentdeck.core.policy import corpus as C
from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import classify, tool_calls

_DOC = json.loads(compile_policy(C.CORPUS_POLICY, "test", protect=C.PROTECT,
                                 mcp_servers=["fs"]))


def _decide(tool: str, args: dict, cwd: str = C.CWD) -> tuple[str, str | None]:
    call = classify(f"mcp__fs__{tool}", args, ["fs"])
    assert call.cls == "mcp", call
    v = evaluate_doc(_DOC, [call], Context(C.HOME, cwd, {"HOME": C.HOME}, MemoryFS(C.TREE)))
    return v.decision, v.rule


@pytest.mark.parametrize("tool,args", [
    ("read_file", {"path": "../../.ssh/id_rsa"}), ("read_text_file", {"path": "sshdir/id_rsa"}),
    ("read_multiple_files", {"paths": ["README.md", "../../.aws/credentials"]}),
    ("getFileContents", {"file": "./keylink"}), ("copy", {"source": "../../.ssh/id_ed25519",
                                                        "destination": "/tmp/k"}),
    ("write_file", {"path": "../../.ssh/authorized_keys", "content": "x"}),
    ("move_file", {"source": "/tmp/k", "destination": "../../.ssh/config"}),
    ("edit_file", {"path": "../../protected/a.txt", "edits": []}),
])
def test_a_relative_path_to_a_protected_file_is_denied(tool, args):
    assert _decide(tool, args)[0] == "deny"


def test_a_path_is_resolved_from_the_working_folder():
    assert _decide("read_file", {"path": ".ssh/id_rsa"}, cwd=C.HOME)[0] == "deny"
    assert _decide("read_file", {"path": ".ssh/id_rsa"})[0] == "allow"


@pytest.mark.parametrize("tool,args,want", [
    ("write_file", {"path": ".claude/settings.local.json", "content": "{}"}, "deny"),
    ("create_directory", {"path": "../.github/hooks"}, "deny"),
    ("read_file", {"path": ".claude/settings.local.json"}, "allow"),
    ("list_directory", {"path": "../../.ssh"}, "allow"),
    ("read_file", {"path": "src/app.py"}, "allow"),
    ("write_file", {"path": "src/new.py", "content": "x"}, "allow"),
])
def test_a_tool_that_reads_is_judged_as_a_read_and_any_other_as_a_write(tool, args, want):
    assert _decide(tool, args)[0] == want


def _decide_payload(tool: str, args: dict) -> tuple[str, str | None]:
    calls = tool_calls({"tool_name": f"mcp__shell__{tool}", "tool_input": args}, ["shell"])
    v = evaluate_doc(_DOC, calls, Context(C.HOME, C.CWD, {"HOME": C.HOME}, MemoryFS(C.TREE)))
    return v.decision, v.rule


@pytest.mark.parametrize("tool,args", [
    ("run", {"command": "rm -rf build"}), ("run", {"command": "cat ../../.ssh/id_rsa"}),
    ("run", {"cmd": "cd ~/.claude; rm settings.json"}), ("exec", {"argv": ["rm", "-rf", "build"]}),
    ("start_process", {"command": "rm", "args": ["-rf", "build"]}),
])
def test_an_mcp_tool_given_a_command_is_judged_as_the_command_it_runs(tool, args):
    assert _decide_payload(tool, args)[0] == "deny"


@pytest.mark.parametrize("tool,args", [
    ("run", {"command": "ls"}), ("exec", {"argv": ["git", "status"]}), ("query", {"sql": "select 1"}),
])
def test_an_mcp_tool_given_a_harmless_command_or_none_runs(tool, args):
    assert _decide_payload(tool, args)[0] == "allow"
