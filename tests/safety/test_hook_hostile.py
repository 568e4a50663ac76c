"""The hook handler: hostile payloads and a hostile audit.jsonl never hang it, never
make it write through a link, widen a mode or leave a raw control character in the log, and a
padded tool call still leaves its audit line.

Every test writes only under tmp_path (AGENTDECK_STATE_DIR and HOME point there). Nothing here is
timed (benchmarks/run.py row g measures the 1 MB payload); a subprocess gets a generous timeout
only so that a regression to a hang fails instead of blocking the suite.
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
    for var in ("AGENTDECK_EVENT", "AGENTDECK_TARGET", "AGENTDECK_DRILL_ID", "AGENTDECK_POLICY"):
        monkeypatch.delenv(var, raising=False)
    (tmp_path / "state").mkdir(mode=0o700)


def run_main(monkeypatch, payload: bytes | dict, *argv: str) -> tuple[int, str]:
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    return hookhandler.main(list(argv)), err.getvalue()


def audit(tmp_path) -> list[dict]:
    return [json.loads(x) for x in (tmp_path / "state" / "audit.jsonl").read_text().splitlines()]


def secret_words(n: int, sep: str) -> str:
    words = ("token", "password", "apikey", "secret", "api_key", "PASSWORD", "Bearer", "x")
    out, i = [], 0
    size = 0
    while size < n:
        w = words[i % len(words)] + sep
        out.append(w)
        size += len(w)
        i += 1
    return "".join(out)[:n]


@pytest.mark.parametrize("sep", ["_", " ", "=", ""])
def test_a_1mb_payload_of_secret_words_still_writes_its_line(tmp_path, monkeypatch, sep):
    """The words the old quadratic redactor choked on (13-27 s per 100 kB), 1 MB of them, plus a
    real token right at the start: the line is written, the token is redacted, the string is
    clipped with the number of characters it lost."""
    padding = secret_words(1_000_000, sep)
    cmd = f"echo {TOKEN} " + padding
    code, err = run_main(monkeypatch, {"session_id": "s", "hook_event_name": "PreToolUse",
                                       "tool_name": "Bash", "tool_input": {"command": cmd}},
                         "PreToolUse")
    assert (code, err) == (0, "")
    [rec] = audit(tmp_path)
    got = rec["tools"][0]["args"]["command"]
    assert got.startswith("echo [REDACTED:github_token] ")
    assert len(got) <= hookhandler.MAX_STR
    if sep == "=":      # token=password=...: one NAME=value whose value is all the rest
        assert got.startswith("echo [REDACTED:github_token] token=[REDACTED:named]")
        return
    dropped = int(got.rsplit("[+", 1)[1].split(" ")[0])
    shown = len(got) - len(got[got.rindex("…"):])
    # what was shown + what was dropped is the redacted command's length (the token shrank)
    assert shown + dropped == len(cmd) - len(TOKEN) + len("[REDACTED:github_token]")


def test_a_long_secret_assignment_is_still_redacted(tmp_path, monkeypatch):
    value = "Zz9" * 10
    cmd = "x" * 900 + f" export DB_PASSWORD={value} " + "password_" * 50_000
    code, _ = run_main(monkeypatch, {"session_id": "s", "tool_name": "Bash",
                                     "tool_input": {"command": cmd}}, "PreToolUse")
    [rec] = audit(tmp_path)
    assert "DB_PASSWORD=[REDACTED:named]" in rec["tools"][0]["args"]["command"]
    assert value not in (tmp_path / "state" / "audit.jsonl").read_text()


def test_a_secret_across_the_redaction_window_is_not_shown(tmp_path, monkeypatch):
    """A private key that starts before the clip and runs past the redaction window."""
    pem = "-----BEGIN " + "RSA PRIVATE KEY-----\n" + "MIIE" * 3000
    cmd = "y" * 1500 + pem
    run_main(monkeypatch, {"session_id": "s", "tool_name": "Bash", "tool_input": {"command": cmd}},
             "PreToolUse")
    [rec] = audit(tmp_path)
    assert "MIIE" not in rec["tools"][0]["args"]["command"]
    assert "[REDACTED:private_key]" in rec["tools"][0]["args"]["command"]


@pytest.mark.parametrize("ch", ["\u0085", "\u009b", "\u2028", "\u2029", "\u202e", "\x7f",
                                "\x1b", "\u0000"])
def test_control_characters_are_escaped_in_the_log(tmp_path, monkeypatch, ch):
    run_main(monkeypatch, {"session_id": "s", "timestamp": 1, "prompt": f"a{ch}[31mb{ch}"},
             "userPromptSubmitted")
    raw = (tmp_path / "state" / "audit.jsonl").read_bytes()
    assert ch.encode() not in raw
    assert raw.count(b"\n") == 1 and raw.endswith(b"\n")
    assert audit(tmp_path)[0]["prompt"] == f"a{ch}[31mb{ch}"   # escaped, not lost


def test_a_symlinked_audit_log_is_not_written_through(tmp_path, monkeypatch):
    outside = tmp_path / "outside.txt"
    outside.write_text("precious\n")
    outside.chmod(0o644)
    (tmp_path / "state" / "audit.jsonl").symlink_to(outside)
    code, _ = run_main(monkeypatch, {"session_id": "s"}, "sessionStart")
    assert code == 0
    assert outside.read_text() == "precious\n" and stat.S_IMODE(outside.stat().st_mode) == 0o644
    log = tmp_path / "state" / "audit.jsonl"
    assert not log.is_symlink() and stat.S_IMODE(log.stat().st_mode) == 0o600
    assert [r["event"] for r in audit(tmp_path)] == ["session_start"]


def test_a_dangling_symlink_is_not_followed(tmp_path, monkeypatch):
    target = tmp_path / "elsewhere" / "made-by-hook"
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "state" / "audit.jsonl").symlink_to(target)
    run_main(monkeypatch, {"session_id": "s"}, "sessionStart")
    assert not target.exists()
    assert len(audit(tmp_path)) == 1


def test_a_0644_log_is_tightened_to_0600(tmp_path, monkeypatch):
    log = tmp_path / "state" / "audit.jsonl"
    log.write_text('{"old": 1}\n')
    log.chmod(0o644)
    run_main(monkeypatch, {"session_id": "s"}, "sessionStart")
    assert stat.S_IMODE(log.stat().st_mode) == 0o600
    assert [list(r)[0] for r in audit(tmp_path)][0] == "old" and len(audit(tmp_path)) == 2


def test_a_fifo_audit_log_never_blocks(tmp_path):
    """As a real process (a blocking open of a FIFO without a reader would hang forever)."""
    os.mkfifo(tmp_path / "state" / "audit.jsonl")
    proc = _subprocess(json.dumps({"session_id": "s"}).encode(), tmp_path, "sessionStart")
    assert proc.returncode == 0 and proc.stdout == b""
    assert b"not a regular file" in proc.stderr or b"FIFO" in proc.stderr


def test_a_fifo_with_a_reader_is_not_written(tmp_path):
    fifo = tmp_path / "state" / "audit.jsonl"
    os.mkfifo(fifo)
    rfd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        proc = _subprocess(json.dumps({"session_id": "s"}).encode(), tmp_path, "sessionStart")
        assert proc.returncode == 0
        try:
            got = os.read(rfd, 100)
        except BlockingIOError:
            got = b""
        assert got == b""                           # nothing was written into the pipe
    finally:
        os.close(rfd)


def test_a_directory_at_the_log_path_is_refused(tmp_path, monkeypatch):
    (tmp_path / "state" / "audit.jsonl").mkdir()
    code, err = run_main(monkeypatch, {"session_id": "s"}, "sessionStart")
    assert code == 0   # no traceback, nothing written, the CLI is not failed


def _subprocess(stdin: bytes, tmp_path, *args, **env):
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTDECK_")}
    full_env.update(PYTHONPATH=str(REPO), HOME=str(tmp_path / "home"),
                    AGENTDECK_STATE_DIR=str(tmp_path / "state"), **env)
    return subprocess.run([sys.executable, "-m", "agentdeck.core.hookhandler", *args], input=stdin,
                          capture_output=True, cwd=tmp_path, env=full_env, timeout=60)
