"""A project with its own `.venv` (whose site-packages holds `.pth` start-up files, which
self-protection covers by name): everyday commands that touch the project as a whole run, and a
start-up file written by name is still denied (red team round 5's false positives: `git switch
-c`, `git stash list`, `find . -name '*.pyc' -delete` and `pip install` were all denied)."""
from __future__ import annotations

import json

import pytest

from agentdeck.core.policy import corpus as C
from agentdeck.core.policy.compiled import compile_policy
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.policy.rules import Context, evaluate_doc
from agentdeck.core.policy.vocabulary import tool_calls

DOC = json.loads(compile_policy(C.CORPUS_POLICY, "test", protect=C.PROTECT,
                                mcp_servers=C.MCP_SERVERS))
P = C.HOME + "/work/proj"
SITE = P + "/.venv/lib/python3.11/site-packages"
FS = MemoryFS({**C.TREE, P + "/.git/HEAD": "ref: refs/heads/main", P + "/.venv/pyvenv.cfg": "x",
               SITE + "/distutils-precedence.pth": "import os", P + "/src/a.py": "x"})


def decide(command: str):
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": command}})
    return evaluate_doc(DOC, calls, Context(C.HOME, P, {"HOME": C.HOME}, FS))


@pytest.mark.parametrize("command", [
    "git switch -c feat", "git stash list", "git stash", "git stash -u", "git clean -n",
    "git clean -fdx src", "git reset HEAD~1", "git restore --staged src/a.py",
    "git rm -r -f --cached src", "git rm -r src", "git mv src lib", "find . -name '*.pyc' -delete",
    ".venv/bin/pip install requests", "rm -r .venv", "rm -r build",
])
def test_everyday_commands_in_a_project_with_a_venv_run(command):
    v = decide(command)
    assert v.decision == "allow", v.reason


@pytest.mark.parametrize("command", [
    "echo 'import os' > .venv/lib/python3.11/site-packages/x.pth",
    "cp evil.pth .venv/lib/python3.11/site-packages/",
    "tee .venv/lib/python3.11/site-packages/sitecustomize.py < x.py",
    "sed -i 1d .venv/lib/python3.11/site-packages/distutils-precedence.pth",
])
def test_a_start_up_file_written_by_name_is_denied(command):
    v = decide(command)
    assert (v.decision, v.rule) == ("deny", "agentdeck-self"), v.reason
