"""File tools' path arguments are judged as the paths they open (red team TE22, TE74, TE77-79):
a /proc view of a process's working folder or root, a file:// URL (a fetch tool's too), and a
glob pattern that matches a protected file below its folder, hidden folders included."""
from __future__ import annotations

import json

import pytest

from agentdeck.core import hookhandler
from agentdeck.core.policy.compiled import compile_policy

POLICY = {"on_error": "deny", "rules": [], "paths": [
    {"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"], "access": ["read", "write"],
     "decision": "deny"}]}


@pytest.fixture
def home(tmp_path):
    h = tmp_path / "home"
    (h / ".ssh").mkdir(parents=True)
    (h / ".ssh" / "id_rsa").write_text("PRIVATE")
    (h / ".ssh" / "id_rsa.pub").write_text("ssh-rsa")
    (h / "work").mkdir()
    (h / "work" / "a.py").write_text("x")
    return h


def _decide(home, target, payload):
    doc = json.loads(compile_policy(POLICY, target, home=str(home)))
    record = {"event": "pre_tool_use"}
    env = {"HOME": str(home), "AGENTDECK_TARGET": target}
    hookhandler.decide({**payload, "cwd": str(home / "work")}, record, env, None, 0.0,
                       policy=(doc, None))
    return record["decision"]


def _copilot(name, args):
    return {"toolName": name, "toolArgs": json.dumps(args)}


def _claude(name, args):
    return {"hook_event_name": "PreToolUse", "tool_name": name, "tool_input": args}


@pytest.mark.parametrize("target,payload,want", [
    ("copilot", lambda h: _copilot("view", {"path": "/proc/self/cwd/../.ssh/id_rsa"}), "deny"),
    ("copilot", lambda h: _copilot("view", {"path": "/proc/self/cwd/a.py"}), "allow"),
    ("copilot", lambda h: _copilot("glob", {"pattern": "**/id_rsa", "paths": [str(h)]}), "deny"),
    ("copilot", lambda h: _copilot("glob", {"pattern": "**/*.pub", "paths": [str(h)]}), "allow"),
    ("copilot", lambda h: _copilot("glob", {"pattern": "**/*.py", "paths": [str(h)]}), "allow"),
    ("claude", lambda h: _claude("Read", {"file_path": "/proc/self/cwd/../.ssh/id_rsa"}), "deny"),
    ("claude", lambda h: _claude("Read", {"file_path": f"/proc/self/root{h}/.ssh/id_rsa"}), "deny"),
    ("claude", lambda h: _claude("WebFetch", {"url": f"file://{h}/.ssh/id_rsa", "prompt": "x"}), "deny"),
    ("claude", lambda h: _claude("WebFetch", {"url": f"file://{h}/work/a.py", "prompt": "x"}), "allow"),
    ("claude", lambda h: _claude("WebFetch", {"url": "https://example.com/.ssh/id_rsa", "prompt": "x"}), "allow"),
    ("qwen", lambda h: _claude("read_file", {"file_path": "/proc/self/cwd/../.ssh/id_rsa"}), "deny"),
    # blanks around the path, `${HOME}`: judged as the path a trimming or expanding tool opens
    ("claude", lambda h: _claude("Read", {"file_path": f" {h}/.ssh/id_rsa"}), "deny"),
    ("claude", lambda h: _claude("Read", {"file_path": "${HOME}/.ssh/id_rsa"}), "deny"),
    ("copilot", lambda h: _copilot("view", {"path": "\t~/.ssh/id_rsa\n"}), "deny"),
    ("claude", lambda h: _claude("Read", {"file_path": f" {h}/work/a.py "}), "allow"),
    # a glob tool's `{a,b}` list (ripgrep's and node's globs expand it)
    ("claude", lambda h: _claude("Glob", {"pattern": f"{h}/.ssh/{{id_rsa,x}}"}), "deny"),
    ("copilot", lambda h: _copilot("glob", {"pattern": "{id_rsa,x}", "paths": [f"{h}/.ssh"]}), "deny"),
    ("claude", lambda h: _claude("Glob", {"pattern": f"{h}/work/{{a,b}}.py"}), "allow"),
])
def test_tool_path_forms(home, target, payload, want):
    assert _decide(home, target, payload(home)) == want
