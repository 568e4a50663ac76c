"""Commands a program runs from files in its folder, written by an earlier call and read at
decision time (core/policy/runfiles.py through shellparse): npm's and its kin's package.json
scripts, git's aliases, config values and hooks, on a real disk (DiskFS) with a real git
repository, and the parsing rules git and npm follow."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.ci_rule import missing_tool

from agentdeck.core.policy import runfiles
from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import DiskFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

RULES = {"unresolved": "ask", "rules": [
    {"id": "no-rf", "tool": "shell", "command": "rm", "args": ["-r|-R|--recursive", "-f|--force"],
     "decision": "deny", "reason": "no rm -rf"}]}


def _decide(home, cwd, command):
    doc = json.loads(compile_policy(RULES, "claude", protect=[]))
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(doc, calls, Context(str(home), str(cwd), {"HOME": str(home)}, DiskFS()))


@pytest.fixture
def home(tmp_path):
    h = tmp_path / "home"
    h.mkdir()
    return h


def test_package_json_scripts_written_earlier_are_judged(home):
    proj = home / "app"
    (proj / "src").mkdir(parents=True)
    (proj / "package.json").write_text(json.dumps({"scripts": {
        "x": "rm -rf ../elsewhere", "pretest": "echo ready", "test": "node --test",
        "postinstall": "rm -r -f build"}}))
    expected = {"npm run x": "deny", "yarn x": "deny", "pnpm run x": "deny", "npm install": "deny",
                "npm test": "allow", "npm ls": "allow", f"npm --prefix {proj} run x": "deny"}
    for command, decision in expected.items():
        v = _decide(home, proj / "src", command)
        assert v.decision == decision, (command, v.reason)
    (proj / "package.json").write_text("{not json")
    assert _decide(home, proj, "npm test").decision == "ask"


def test_git_aliases_config_and_hooks_written_earlier_are_judged(home):
    if shutil.which("git") is None:
        missing_tool("git is not on PATH (this test makes a real repository)")
    repo = home / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)

    def config(*kv):
        subprocess.run(["git", "-C", str(repo), "config", *kv], check=True)

    config("alias.st", "status -sb")
    config("core.pager", "less -R")
    assert _decide(home, repo, "git st").decision == "allow"
    assert _decide(home, repo, "git log").decision == "allow"
    config("alias.x", "!rm -rf ../elsewhere")
    assert _decide(home, repo, "git x").decision == "deny"
    assert _decide(home, repo / ".git", "git st").decision == "allow"
    config("core.fsmonitor", "rm -rf ../elsewhere")
    assert _decide(home, repo, "git status").decision == "deny"
    config("--unset", "core.fsmonitor")
    hook = repo / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\nrm -rf ../elsewhere\n")
    hook.chmod(0o755)
    assert _decide(home, repo, "git commit -m wip").decision == "deny"
    hook.unlink()
    (home / ".gitconfig").write_text('[alias]\n\tgo = "!rm -rf ../elsewhere"\n')
    assert _decide(home, repo, "git go").decision == "deny", "the global config is read too"
    assert _decide(home, repo, "git commit -m wip").decision == "allow"


def test_git_config_is_read_as_git_reads_it():
    text = ('[core]\n\tpager = less ; a comment\n[alias]\n\tX = "!echo \\"a;b\\""\n'
            '[diff "Drv"]\n\ttextconv = ./conv\n[include]\n\tpath = ~/more\n'
            '[core]\n\tpager = "cat \\\n -v"\n')
    entries = runfiles.git_config(text)
    assert ("core.pager", "less") in entries
    assert ("alias.x", '!echo "a;b"') in entries
    assert ("diff.Drv.textconv", "./conv") in entries
    assert runfiles.git_includes(entries) == ["~/more"]
    assert runfiles.git_commands(entries) == [("diff.Drv.textconv", "./conv")], \
        "the last pager wins, and a plain known pager is not judged"
    assert runfiles.git_alias(entries, "x") == '!echo "a;b"'
    assert runfiles.git_alias(entries + [("alias.status", "!rm -rf x")], "status") is None, \
        "git never lets an alias replace its own command"


def test_which_scripts_a_call_runs():
    assert runfiles.package_scripts("npm", ["run", "build"]) == (None, (
        "prebuild", "build", "postbuild"), "")
    assert runfiles.package_scripts("npm", ["--prefix", "d", "t"])[0:2] == ("d", (
        "pretest", "test", "posttest"))
    assert runfiles.package_scripts("yarn", [])[1] == runfiles.INSTALL_SCRIPTS
    assert runfiles.package_scripts("pnpm", ["lint"])[1] == ("prelint", "lint", "postlint")
    assert runfiles.package_scripts("npm", ["ls"]) is None
    assert runfiles.package_scripts("bun", ["test"]) is None
    assert runfiles.package_scripts("npm", ["test", "--workspaces"])[2]
