"""A tree brought into a folder whose name is also a folder of the home's path (a user alice
with a repository ~/src/alice, a home under /work with a project folder `work`): what the tree
may hold is not known, so the call is asked, as in any other folder; the home's own
`~/.claude/settings.json` is not thought to lie below it by its folder names."""
from __future__ import annotations

import json

import pytest

from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

H = "/home/alice"


@pytest.mark.parametrize("folder", [f"{H}/src/alice", f"{H}/project/home", f"{H}/src/other"])
@pytest.mark.parametrize("command", ["git pull", "git checkout main", "tar -xf /tmp/x.tar",
                                     "unzip -o /tmp/x.zip"])
def test_a_tree_brought_in_is_asked_whatever_the_folder_is_named(folder, command):
    doc = json.loads(compile_policy({"unresolved": "ask"}, "claude", home=H,
                                    protect=["~/.claude/settings.json", "**/.claude/settings.json"]))
    fs = MemoryFS({folder: None, "/tmp/x.tar": "x", "/tmp/x.zip": "x"})
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    v = evaluate_doc(doc, calls, Context(H, folder, {"HOME": H}, fs))
    assert v.decision == "ask", (folder, command, v.reason)
