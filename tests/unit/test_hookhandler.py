"""agentdeck.core.hookhandler: every dialect normalizes to one redacted audit line; nothing ever fails.

Every test writes only under tmp_path (AGENTDECK_STATE_DIR and HOME point there).
"""
from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from agentdeck.core import hookhandler

REPO = Path(__file__).resolve().parents[2]
TOKEN = "ghp_" + "Ab1" * 12  # assembled, never a literal token in the repo


@pytest.fixture(autouse=True)
def _env(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("AGENTDECK_STATE_DIR", str(tmp_path / "state"))
    for var in ("AGENTDECK_EVENT", "AGENTDECK_TARGET"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def run(tmp_path, monkeypatch, capsys):
    """Run main() in-process; returns the last audit record."""
    def _run(stdin, *argv, target=None, event_env=None):
        if target:
            monkeypatch.setenv("AGENTDECK_TARGET", target)
        if event_env:
            monkeypatch.setenv("AGENTDECK_EVENT", event_env)
        data = stdin if isinstance(stdin, bytes) else (
            stdin.encode() if isinstance(stdin, str) else json.dumps(stdin).encode())
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        monkeypatch.setattr(sys, "argv", ["agentdeck-hook", *argv])
        assert hookhandler.main() == 0
        out = capsys.readouterr()
        assert out.out == "" and out.err == ""
        return audit_lines(tmp_path)[-1]
    return _run


def audit_lines(tmp_path) -> list[dict]:
    text = (tmp_path / "state" / "audit.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


# ---- payloads, one per dialect -------------------------------------------------------------
COPILOT_PRE = {
    "sessionId": "sess-camel", "timestamp": 1764493200000, "cwd": "/work/repo",
    "toolCalls": [
        {"id": "call_1", "name": "bash", "args": json.dumps({"command": "ls -la"})},
        {"id": "call_2", "name": "edit",
         "args": json.dumps({"path": "a.py", "old_str": "x", "new_str": "y"})},
    ],
}
COPILOT_POST = {
    "sessionId": "sess-camel", "timestamp": 1764493201000, "cwd": "/work/repo",
    "toolName": "bash", "toolArgs": json.dumps({"command": "ls"}),
    "toolResult": {"resultType": "success", "textResultForLlm": "a.py\n"},
}
COPILOT_PASCAL = {
    "hook_event_name": "PreToolUse", "session_id": "sess-pascal",
    "timestamp": "2026-11-30T09:00:00.000Z", "cwd": "/work/repo",
    "tool_name": "Bash", "tool_input": {"command": "git status"},
}
CLAUDE_PRE = {
    "session_id": "sess-claude", "transcript_path": "/home/u/.claude/projects/x/s.jsonl",
    "cwd": "/work/repo", "permission_mode": "default", "hook_event_name": "PreToolUse",
    "tool_name": "Write", "tool_input": {"file_path": "/work/repo/a.txt", "content": "hi"},
    "tool_use_id": "toolu_01",
}
CODEX_PRE = {
    "session_id": "sess-codex", "turn_id": "turn-3", "transcript_path": None,
    "cwd": "/work/repo", "hook_event_name": "PreToolUse", "model": "gpt-5-codex",
    "permission_mode": "default", "tool_name": "Bash",
    "tool_input": {"command": "cargo test"}, "tool_use_id": "call_9",
}
VSCODE_PRE = {
    "timestamp": "2026-11-30T09:00:00.000Z", "hookEventName": "PreToolUse",
    "sessionId": "sess-vscode", "transcript_path": "/tmp/t.json", "cwd": "/work/repo",
    "tool_name": "run_in_terminal", "tool_input": {"command": "npm test", "isBackground": False},
    "tool_use_id": "tool-123",
}


def test_copilot_camel_pre_tool_use_batch(run):
    rec = run(COPILOT_PRE, "preToolUse", target="copilot")
    assert rec["event"] == "pre_tool_use" and rec["raw_event"] == "preToolUse"
    assert rec["dialect"] == "copilot-camel" and rec["target"] == "copilot"
    assert rec["session_id"] == "sess-camel" and rec["cwd"] == "/work/repo"
    assert rec["tools"] == [
        {"name": "bash", "args": {"command": "ls -la"}},
        {"name": "edit", "args": {"path": "a.py", "old_str": "x", "new_str": "y"}},
    ]
    assert rec["ts"].endswith("Z") and "error" not in rec and "prompt" not in rec


def test_copilot_camel_post_tool_use(run):
    rec = run(COPILOT_POST, "postToolUse", target="copilot")
    assert (rec["event"], rec["dialect"]) == ("post_tool_use", "copilot-camel")
    assert rec["tools"] == [{"name": "bash", "args": {"command": "ls"}}]


def test_copilot_pascal_case(run):
    rec = run(COPILOT_PASCAL, "PreToolUse", target="copilot")
    assert (rec["event"], rec["raw_event"], rec["dialect"]) == (
        "pre_tool_use", "PreToolUse", "copilot-pascal")
    assert rec["session_id"] == "sess-pascal"
    assert rec["tools"] == [{"name": "Bash", "args": {"command": "git status"}}]


def test_claude_pre_tool_use(run):
    rec = run(CLAUDE_PRE, "PreToolUse", target="claude")
    assert (rec["event"], rec["dialect"], rec["session_id"]) == (
        "pre_tool_use", "claude", "sess-claude")
    assert rec["tools"] == [{"name": "Write",
                             "args": {"file_path": "/work/repo/a.txt", "content": "hi"}}]


def test_codex_pre_tool_use(run):
    rec = run(CODEX_PRE, "PreToolUse", target="codex")
    assert (rec["event"], rec["dialect"], rec["session_id"]) == (
        "pre_tool_use", "codex", "sess-codex")
    assert rec["tools"] == [{"name": "Bash", "args": {"command": "cargo test"}}]


def test_codex_is_recognized_without_the_target_hint(run):
    assert run(CODEX_PRE, "PreToolUse")["dialect"] == "codex"


def test_vscode_payload_names_its_own_event(run):
    rec = run(VSCODE_PRE, target="repo")  # no argv, no AGENTDECK_EVENT
    assert (rec["event"], rec["raw_event"], rec["dialect"]) == (
        "pre_tool_use", "PreToolUse", "vscode")
    assert rec["session_id"] == "sess-vscode"
    assert rec["tools"] == [{"name": "run_in_terminal",
                             "args": {"command": "npm test", "isBackground": False}}]


def test_garbage_stdin(run):
    rec = run("this is {not json", "preToolUse", target="copilot")
    assert rec["event"] == "pre_tool_use" and rec["dialect"] == "unknown"
    assert rec["error"].startswith("stdin is not JSON")
    assert rec["session_id"] is None and "tools" not in rec


def test_empty_stdin(run):
    rec = run(b"", "sessionEnd", target="copilot")
    assert (rec["event"], rec["error"]) == ("session_end", "empty stdin")


def test_invalid_utf8_that_is_not_json(run):
    rec = run(b"\xff\xfe\x00garbage", "agentStop")
    assert rec["event"] == "stop"
    assert "not valid UTF-8" in rec["error"] and "not JSON" in rec["error"]


def test_invalid_utf8_inside_json_is_kept_with_a_note(run):
    rec = run(b'{"sessionId": "s", "timestamp": 1, "prompt": "caf\xe9"}', "userPromptSubmitted")
    assert rec["event"] == "user_prompt_submit" and rec["dialect"] == "copilot-camel"
    assert rec["prompt"] == "caf\ufffd" and rec["error"] == "stdin is not valid UTF-8"


def test_json_that_is_not_an_object(run):
    rec = run("[1, 2]", "preToolUse")
    assert rec["error"] == "payload is a JSON list, not an object"


def test_github_token_in_a_bash_command_is_redacted(run, tmp_path):
    payload = {"sessionId": "s", "timestamp": 1, "cwd": "/r", "toolCalls": [
        {"id": "c", "name": "bash",
         "args": json.dumps({"command": f"curl -H 'Authorization: token {TOKEN}' https://api"})}]}
    rec = run(payload, "preToolUse", target="copilot")
    assert rec["tools"][0]["args"]["command"] == (
        "curl -H 'Authorization: token [REDACTED:github_token]' https://api")
    assert TOKEN not in (tmp_path / "state" / "audit.jsonl").read_text()


@pytest.mark.parametrize("payload,target,shown", [
    ({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": f"mcp__{TOKEN}__get_me",
      "tool_input": {}}, "claude", "mcp__[REDACTED:github_token]__get_me"),
    ({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": f"mcp__srv__{TOKEN}",
      "tool_input": {}}, "codex", "mcp__srv__[REDACTED:github_token]"),
    ({"sessionId": "s", "timestamp": 1, "toolCalls": [{"id": "c", "name": f"srv-{TOKEN}",
                                                       "args": "{}"}]},
     "copilot", "srv-[REDACTED:github_token]"),
])
def test_a_secret_inside_a_tools_name_is_redacted(run, tmp_path, payload, target, shown):
    """An MCP server named after a token (Claude's and Codex's `mcp__<server>__<tool>` glue it
    to word characters, which the patterns' boundaries alone do not see)."""
    rec = run(payload, "preToolUse", target=target)
    assert rec["tools"][0]["name"] == shown
    assert TOKEN not in (tmp_path / "state" / "audit.jsonl").read_text()


def test_prompt_is_redacted_then_truncated(run):
    rec = run({"timestamp": 1, "cwd": "/r", "prompt": f"use {TOKEN} " + "x" * 5000},
              "userPromptSubmitted", target="copilot")
    assert len(rec["prompt"]) <= 2000
    assert rec["prompt"].startswith("use [REDACTED:github_token] xxx")
    assert rec["prompt"].endswith("chars]")


def test_event_name_falls_back_to_env_then_payload(run, monkeypatch):
    assert run({"timestamp": 1}, event_env="agentStop")["event"] == "stop"
    assert run({"timestamp": 1}, "sessionEnd", event_env="agentStop")["event"] == "session_end"
    monkeypatch.delenv("AGENTDECK_EVENT")
    rec = run({"hook_event_name": "SubagentStop", "session_id": "s"})
    assert (rec["event"], rec["raw_event"], rec["dialect"]) == ("subagent_stop", "SubagentStop",
                                                                "claude")
    rec = run({"cwd": "/r"})
    assert (rec["event"], rec["raw_event"]) == ("unknown", None)


@pytest.mark.parametrize("raw,canonical", [
    ("sessionStart", "session_start"), ("SessionStart", "session_start"),
    ("session_start", "session_start"), ("sessionEnd", "session_end"),
    ("userPromptSubmitted", "user_prompt_submit"), ("UserPromptSubmit", "user_prompt_submit"),
    ("userPromptTransformed", "user_prompt_transformed"),
    ("preToolUse", "pre_tool_use"), ("PreToolUse", "pre_tool_use"),
    ("postToolUse", "post_tool_use"), ("PostToolUseFailure", "post_tool_use_failure"),
    ("preMcpToolCall", "pre_mcp_tool_call"), ("PermissionRequest", "permission_request"),
    ("agentStop", "stop"), ("Stop", "stop"), ("subagentStart", "subagent_start"),
    ("SubagentStop", "subagent_stop"), ("preCompact", "pre_compact"),
    ("notification", "notification"), ("errorOccurred", "error"), ("ErrorOccurred", "error"),
    ("StopFailure", "error"),
    ("PostCompact", "unknown"), ("Interrupt", "unknown"), ("postResult", "unknown"), ("", "unknown"),
])
def test_event_vocabulary(raw, canonical):
    assert hookhandler.canonical_event(raw) == canonical


def test_deep_and_wide_args_are_bounded(run):
    deep: object = "leaf"
    for _ in range(50):
        deep = {"d": deep}
    rec = run({"tool_name": "x", "tool_input": {"deep": deep, "wide": list(range(1000))},
               "session_id": "s"}, "PreToolUse")
    assert len(rec["tools"][0]["args"]["wide"]) == hookhandler.MAX_ITEMS
    assert "[nested too deep]" in json.dumps(rec)


def test_one_line_per_event_and_private_permissions(run, tmp_path):
    run(COPILOT_PRE, "preToolUse", target="copilot")
    run(COPILOT_POST, "postToolUse", target="copilot")
    assert [r["event"] for r in audit_lines(tmp_path)] == ["pre_tool_use", "post_tool_use"]
    state = tmp_path / "state"
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    assert stat.S_IMODE((state / "audit.jsonl").stat().st_mode) == 0o600


def test_internal_error_is_recorded_and_still_exits_0(run, monkeypatch, tmp_path):
    def boom(*a, **k):
        raise RuntimeError(f"kaboom {TOKEN}")
    monkeypatch.setattr(hookhandler, "build_record", boom)
    rec = run(COPILOT_PRE, "preToolUse", target="copilot")
    assert rec["event"] == "pre_tool_use"
    assert rec["error"] == "internal error: RuntimeError: kaboom [REDACTED:github_token]"


def test_unwritable_state_dir_is_silent(monkeypatch, tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("AGENTDECK_STATE_DIR", str(blocker / "state"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"{}")))
    assert hookhandler.main(["preToolUse"]) == 0
    assert capsys.readouterr() == ("", "")


# ---- as a real process -----------------------------------------------------------------------
def _subprocess(args, stdin: bytes, tmp_path, **env):
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTDECK_")}
    full_env.update(PYTHONPATH=str(REPO), HOME=str(tmp_path / "home"),
                    AGENTDECK_STATE_DIR=str(tmp_path / "state"), **env)
    return subprocess.run([sys.executable, *args], input=stdin, capture_output=True,
                          cwd=tmp_path, env=full_env, timeout=60)


def test_as_a_subprocess(tmp_path):
    payload = dict(COPILOT_PRE, toolCalls=[
        {"id": "c", "name": "bash", "args": json.dumps({"command": f"echo {TOKEN}"})}])
    proc = _subprocess(["-m", "agentdeck.core.hookhandler", "preToolUse"], json.dumps(payload).encode(),
                       tmp_path, AGENTDECK_TARGET="copilot", AGENTDECK_EVENT="preToolUse")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    [rec] = audit_lines(tmp_path)
    assert (rec["event"], rec["dialect"], rec["target"]) == (
        "pre_tool_use", "copilot-camel", "copilot")
    assert rec["tools"] == [{"name": "bash", "args": {"command": "echo [REDACTED:github_token]"}}]
    assert TOKEN not in (tmp_path / "state" / "audit.jsonl").read_text()


def test_a_complete_payload_is_enough_when_the_sender_leaves_stdin_open(tmp_path):
    """A sender that writes the payload and keeps its end of the pipe open: the handler answers
    at once instead of waiting for EOF (which would hold the CLI up to its hook timeout)."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTDECK_")}
    full_env.update(PYTHONPATH=str(REPO), HOME=str(tmp_path / "home"),
                    AGENTDECK_STATE_DIR=str(tmp_path / "state"), AGENTDECK_TARGET="copilot",
                    AGENTDECK_EVENT="preToolUse")
    proc = subprocess.Popen([sys.executable, "-m", "agentdeck.core.hookhandler", "preToolUse"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=tmp_path, env=full_env)
    try:
        proc.stdin.write(json.dumps(COPILOT_PRE).encode() + b"\n")
        proc.stdin.flush()
        assert proc.wait(timeout=30) == 0      # stdin is still open here
    finally:
        proc.kill()
        proc.wait()
        for f in (proc.stdin, proc.stdout, proc.stderr):
            f.close()
    [rec] = audit_lines(tmp_path)
    assert rec["event"] == "pre_tool_use" and "error" not in rec


def test_subprocess_with_oversized_stdin(tmp_path):
    big = b'{"prompt": "' + b"x" * (9 * 1024 * 1024) + b'"}'
    proc = _subprocess(["-m", "agentdeck.core.hookhandler", "userPromptSubmitted"], big, tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    [rec] = audit_lines(tmp_path)
    assert rec["error"] == "stdin larger than 8 MB, not parsed"


def test_loads_nothing_heavy(tmp_path):
    code = ("import sys, json\n"
            "from core import hookhandler\n"
            "hookhandler.main(['preToolUse'])\n"
            "heavy = ('pydantic', 'textual', 'rich', 'tomlkit')\n"
            "sys.stderr.write(json.dumps(sorted(m for m in sys.modules"
            " if m.split('.')[0] in heavy)))\n")
    proc = _subprocess(["-c", code], json.dumps(CLAUDE_PRE).encode(), tmp_path)
    assert (proc.returncode, proc.stdout) == (0, b"")
    assert json.loads(proc.stderr) == []
    assert audit_lines(tmp_path)[0]["event"] == "pre_tool_use"


def test_the_sealed_policy_check_loads_no_openssl(tmp_path):
    """Red team round 7: hashlib loads OpenSSL, which reads /etc/ssl/openssl.cnf (a file outside
    the home that a model running as root can write) and loads the modules it names, before the
    handler decides. The digest of a sealed policy is the interpreter's own SHA-256."""
    from agentdeck.core.digest import sha256
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps({"format": 2, "rules": [], "paths": []}))
    code = ("import sys, json\n"
            "from agentdeck.core import hookhandler\n"
            f"doc, problem = hookhandler.load_policy({str(policy)!r}, digest={sha256(policy.read_bytes())!r})\n"
            "assert doc is not None and problem is None, problem\n"
            "maps = open('/proc/self/maps').read()\n"
            "sys.stderr.write(json.dumps([m for m in ('_hashlib', '_ssl') if m in sys.modules]"
            " + (['libcrypto'] if 'libcrypto' in maps else [])))\n")
    proc = _subprocess(["-c", code], b"", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stderr) == []
