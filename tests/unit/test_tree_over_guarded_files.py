"""A tree brought into a folder that already holds a guarded file (a project under /tmp with
its own `.claude/settings.json`, /tmp holding another session's scratch home): what a branch,
a remote, a stash or an archive that cannot be listed brings is not known, so the call is
asked, as in any other folder; an archive whose members are known is judged by them; a
command that certainly deletes or overwrites what is there (`git clean`, `git stash`, a tree
brought into a protected tree) is denied."""
from __future__ import annotations

import json

import pytest

from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

H = "/home/alice"
TREE = {"/tmp/proj/.claude/settings.json": "{}", "/tmp/proj/README.md": "x",
        "/tmp/proj/rel.tgz": "archive:\nsrc/a.py", "/tmp/other/home/.codex/hooks.json": "{}",
        f"{H}/protected/a.txt": "x", "/tmp/x.tar": "x", "/tmp/x.zip": "x",
        "/tmp/docs.tgz": "archive:\ndocs/a.md"}


def _decide(command: str, folder: str):
    doc = json.loads(compile_policy(
        {"unresolved": "ask", "paths": [{"id": "tree", "paths": ["~/protected/**"],
                                         "access": ["write"], "decision": "deny"}]},
        "claude", home=H, protect=["**/.claude/settings.json", "**/.codex/hooks.json"]))
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(doc, calls, Context(H, folder, {"HOME": H}, MemoryFS(TREE)))


@pytest.mark.parametrize("folder", ["/tmp/proj", "/tmp"])
@pytest.mark.parametrize("command", ["git pull", "git checkout main", "git switch feature",
                                     "git stash pop", "git reset --hard", "tar -xzf /tmp/x.tar",
                                     "unzip -o /tmp/x.zip"])
def test_a_tree_not_known_over_a_guarded_file_is_asked(folder, command):
    v = _decide(command, folder)
    assert v.decision == "ask", (folder, command, v.reason)


def test_an_archive_whose_members_are_known_is_judged_by_them():
    assert _decide("tar -xzf rel.tgz", "/tmp/proj").decision == "allow"
    assert _decide("tar -xzf /tmp/docs.tgz -C /tmp/proj", "/tmp").decision == "allow"


@pytest.mark.parametrize("command,folder", [
    ("git clean -fdx", "/tmp/proj"), ("git stash -u", "/tmp/proj"),
    ("git pull", f"{H}/protected"), ("unzip -o /tmp/x.zip", f"{H}/protected"),
    ("tar -xzf /tmp/docs.tgz", f"{H}/protected"), ("tar -xf /tmp/x.tar -C ~/protected/sub", "/tmp")])
def test_a_certain_overwrite_is_denied(command, folder):
    v = _decide(command, folder)
    assert v.decision == "deny", (command, folder, v.reason)
