"""git commands that bring files into the working tree (a branch's, a remote's, a stash's, a
mailbox's) are writes of the work tree they act on (-C, --work-tree, the working folder): judged
against write-protected trees and the project settings files self-protection guards
(core/policy/programs.py git_tree_write, core/policy/paths.py _git_brought)."""
from __future__ import annotations

import pytest

from agentdeck.core.policy import programs
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

H = "/home/me"
W = f"{H}/work"
FS = MemoryFS({f"{H}/protected/a.txt": "x", f"{W}/src/app.py": "x", f"{W}/README.md": "x"})
DOC = {"unresolved": "ask", "rules": [],
       "paths": [{"id": "tree", "paths": ["~/protected/**"], "access": ["write"],
                  "decision": "deny"},
                 {"id": "layer", "paths": ["**/.claude/settings.local.json"],
                  "access": ["write"], "decision": "deny"}]}


def decide(command: str, doc: dict = DOC):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    v = evaluate_doc(doc, calls, Context(H, W, {"HOME": H}, FS))
    return v.decision, v.rule


@pytest.mark.parametrize("command", [
    "git -C ~/protected pull", "cd ~/protected && git merge topic",
    "cd ~/protected && git stash pop", "cd ~/protected && git reset --hard origin/main",
    "git --work-tree=/home/me/protected checkout evil -- .",
    "git --work-tree /home/me/protected switch evil",
    "git -c core.worktree=/home/me/protected checkout evil",
    "cd ~/protected && git am /tmp/x.mbox", "cd ~/protected && git rebase origin/main",
    "cd ~/protected && git cherry-pick abc123", "git -C ~/protected restore --source=evil a.txt",
])
def test_bringing_files_into_a_write_protected_tree_is_denied(command):
    assert decide(command) == ("deny", "tree")


@pytest.mark.parametrize("command", [
    "git checkout main .claude/settings.local.json",
    "git restore --source=evil .claude/settings.local.json",
    "git checkout evil -- .claude/settings.local.json",
])
def test_a_pathspec_naming_a_guarded_settings_file_is_denied(command):
    assert decide(command) == ("deny", "layer")


@pytest.mark.parametrize("command", [
    "git checkout evil-branch", "git pull", "git merge topic", "git switch evil",
    "git stash pop", "git stash apply", "git reset --hard origin/main", "git am /tmp/x.mbox",
    "git checkout -b x origin/evil", "git switch -c x origin/evil", "git checkout -",
    "git worktree add /tmp/wt evil", "git read-tree -u -m evil",
    "GIT_WORK_TREE=/home/me/protected git checkout evil",
])
def test_files_a_branch_brings_are_not_known_so_the_call_is_unresolved(command):
    assert decide(command) == ("ask", "unresolved")


@pytest.mark.parametrize("command", [
    "git status", "git log --oneline", "git diff HEAD", "git add -A", "git commit -am msg",
    "git checkout -b feature", "git switch -c feature", "git restore --staged src/app.py",
    "git reset HEAD~1", "git reset --soft HEAD~1", "git stash list", "git stash show",
    "git checkout main src/app.py", "git checkout -- src/app.py", "git checkout src/app.py",
    "git -C ~/protected status", "git -C ~/protected log", "git fetch origin",
    "git branch -d old", "git show HEAD:README.md",
])
def test_git_that_reads_or_touches_only_the_index_and_branches_runs(command):
    assert decide(command)[0] == "allow"


def test_without_a_rule_that_could_apply_nothing_is_asked():
    """No protected path may lie under the tree: a branch's files are no one's concern."""
    doc = dict(DOC, paths=[DOC["paths"][0]])
    assert decide("git pull", doc)[0] == "allow"
    assert decide("git -C ~/protected pull", doc) == ("deny", "tree")


@pytest.mark.parametrize("words,expected", [
    (["checkout", "main"], (None, "maybe-paths", ["main"])),
    (["checkout", "main", "--", "a"], (None, "commit-paths", ["a"])),
    (["checkout", "--", "a"], (None, "paths", ["a"])),
    (["restore", "--source=main", "a"], (None, "commit-paths", ["a"])),
    (["restore", "-s", "main", "a"], (None, "commit-paths", ["a"])),
    (["--work-tree=/x", "pull"], ("/x", "tree", [])),
    (["-C", "d", "reset", "--hard"], (None, "tree", [])),
    (["reset", "HEAD"], None), (["stash"], None), (["stash", "pop"], (None, "tree", [])),
    (["restore", "--staged", "f"], None), (["restore", "-SW", "f"], (None, "paths", ["f"])),
    (["merge", "--abort"], None), (["status"], None),
])
def test_git_tree_write_reads_the_subcommand(words, expected):
    assert programs.git_tree_write(words) == expected
