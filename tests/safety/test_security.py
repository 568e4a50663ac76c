"""Security.

- deleting and reaping never follow a symlink out of the home (a symlinked managed file is
  unlinked, never its target; a file reached through a symlinked folder outside the home is kept
  and reported);
- secret-bearing files are written 0600 and the plan says so; backups and everything else in
  agentdeck's state dir are 0600 (folders 0700);
- no ${VAR} is ever resolved into a file: an environment variable's value never reaches the disk;
- Copilot's config.json is never written, and nothing but trustedFolders is read from it (its
  other values never appear in any output or file);
- the audit log (agentdeck.core.hookhandler) never stores a secret value from a hook payload.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentdeck.core import engine
from tests.safety.safety_helpers import (needs, HOMES, applied, REPO, available, clean_env, cli_inproc, cli_proc,
                                         home_snapshot, install, make_host, plan_json,
                                         target_args, uninstall)

TOKEN = "ghp_" + "Q7" * 18                       # a literal GitHub token (36 chars after ghp_)
needs_copilot = needs("copilot")


# ---- deleting never follows a symlink out of the home ------------------------------------------------

@needs_copilot
def test_uninstall_unlinks_a_symlinked_managed_file_never_its_target(tmp_path):
    """The operator moved agentdeck's agent file into a folder outside the home and left a
    symlink: uninstall removes the link; the file outside keeps its bytes."""
    home = HOMES["fresh"](tmp_path / "home")
    outside = tmp_path / "outside"
    outside.mkdir()
    install(home, ["copilot"])
    agent = home / ".copilot" / "agents" / "reviewer.md"
    moved = outside / "reviewer.md"
    moved.write_bytes(agent.read_bytes())
    agent.unlink()
    agent.symlink_to(moved)
    data = moved.read_bytes()
    uninstall(home, ["copilot"])
    assert moved.read_bytes() == data
    assert not os.path.lexists(agent)


@needs_copilot
def test_uninstall_never_deletes_through_a_symlinked_folder_out_of_the_home(tmp_path):
    """~/.copilot/agents replaced by a symlink to a folder outside the home: the plan warns, the
    apply keeps the file there and says so, and the outside folder is untouched."""
    home = HOMES["fresh"](tmp_path / "home")
    outside = tmp_path / "outside" / "agents"
    outside.mkdir(parents=True)
    install(home, ["copilot"])
    agents = home / ".copilot" / "agents"
    for f in agents.iterdir():
        (outside / f.name).write_bytes(f.read_bytes())
        f.unlink()
    agents.rmdir()
    agents.symlink_to(outside)
    before = {f.name: f.read_bytes() for f in outside.iterdir()}
    plan = plan_json(home, ["copilot"], uninstall=True)
    item = next(i for i in plan["items"] if i["path"].endswith("agents/reviewer.md"))
    assert any("symlink that leads out of the home" in w for w in item["warnings"])
    out, err = uninstall(home, ["copilot"])
    assert "Kept:" in out and "reviewer.md" in out
    assert {f.name: f.read_bytes() for f in outside.iterdir()} == before
    assert agents.is_symlink()


@needs_copilot
def test_reaping_a_removed_skill_never_deletes_through_a_symlinked_skills_folder(tmp_path):
    """~/.agents/skills is a symlink to a shared folder outside the home. When the profile drops
    a command skill, agentdeck forgets it but does not delete inside that folder."""
    home = HOMES["fresh"](tmp_path / "home")
    shared = tmp_path / "shared-skills"
    shared.mkdir()
    (home / ".agents").mkdir()
    (home / ".agents" / "skills").symlink_to(shared)
    install(home, ["copilot"])
    written = sorted(p.name for p in shared.iterdir())
    assert written, "the install should have written through the link (writes follow symlinks)"
    snap = {str(p.relative_to(shared)): p.read_bytes() for p in shared.rglob("*") if p.is_file()}
    prof = home / ".config" / "agentdeck" / "profiles" / "bare"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["_base"]\n')
    rc, out, err = cli_inproc("apply", "--home", home, "--yes", "--target", "copilot",
                              "--profile", "bare")
    assert rc == 0, out + err
    assert {str(p.relative_to(shared)): p.read_bytes() for p in shared.rglob("*") if p.is_file()} == snap
    assert "Kept:" in out


def test_host_refuses_to_remove_outside_the_home(tmp_path):
    from agentdeck.core.host import HostError
    home = HOMES["fresh"](tmp_path / "home")
    victim = tmp_path / "victim.txt"
    victim.write_text("mine")
    (home / "link").symlink_to(tmp_path)
    host = make_host(home)
    with pytest.raises(HostError):
        host.remove(home / "link" / "victim.txt")
    with pytest.raises(HostError):
        host.remove(victim)
    (tmp_path / "emptydir").mkdir()
    assert host.rmdir_if_empty(home / "link" / "emptydir") is False
    assert victim.read_text() == "mine" and (tmp_path / "emptydir").is_dir()


# ---- secrets: 0600, said in the plan, never resolved from the environment ------------------------------

def _secret_profile(home: Path) -> None:
    prof = home / ".config" / "agentdeck" / "profiles" / "sekrit"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
    (prof / "mcp.json").write_text(json.dumps({"mcpServers": {
        "tracker": {"type": "http", "url": "https://tracker.example/mcp",
                    "headers": {"Authorization": f"Bearer {TOKEN}"}},
        "db": {"command": "db-mcp", "env": {"DB_TOKEN": TOKEN}},
        "fromenv": {"type": "http", "url": "https://x.example/mcp",
                    "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}, "env": {"T": "${HOME}"}},
    }}))


def _files_holding(home: Path, needle: bytes) -> dict[str, int]:
    out = {}
    for d, _, fs in os.walk(home):
        for f in fs:
            p = Path(d) / f
            if p.is_symlink() or not p.is_file():
                continue
            if needle in p.read_bytes():
                out[str(p.relative_to(home))] = p.stat().st_mode & 0o777
    return out


def test_secret_bearing_files_are_0600_and_the_plan_says_so(tmp_path):
    home = HOMES["messy"](tmp_path / "home")
    _secret_profile(home)
    names = available()
    plan = plan_json(home, names, "--profile", "sekrit")
    # plan --json redacts as the text plan does: an item that writes the credential
    # shows it as [REDACTED:<kind>], and the credential itself is nowhere in the JSON
    assert TOKEN not in json.dumps(plan)
    secret_items = [i for i in plan["items"] if "[REDACTED:" in json.dumps(i["desired"])]
    assert secret_items, "no target writes the literal credential: the test proves nothing"
    for i in secret_items:
        assert i["secret"] is True, f"{i['label']} holds a credential but the plan does not say so"
    rc, text, err = cli_inproc("plan", "--home", home, "--profile", "sekrit", *target_args(names))
    assert "(secret: 0600)" in text
    install(home, names, "--profile", "sekrit")
    holders = _files_holding(home, TOKEN.encode())
    holders.pop(".config/agentdeck/profiles/sekrit/mcp.json")     # the operator's own profile
    assert holders, "the credential was written nowhere"
    assert all(mode == 0o600 for mode in holders.values()), holders


def test_backups_and_state_are_private(tmp_path):
    """An operator file holding a credential (0600) is replaced: its backup is 0600 too, and so
    is everything agentdeck keeps (folders 0700)."""
    home = HOMES["messy"](tmp_path / "home")
    _secret_profile(home)
    mcp = home / ".copilot" / "mcp-config.json"
    mcp.write_text(json.dumps({"mcpServers": {"mine": {"command": "x", "env": {"K": TOKEN}}}}))
    os.chmod(mcp, 0o600)
    install(home, available(), "--profile", "sekrit")
    uninstall(home, available())
    state = make_host(home).state_dir
    backups = [p for p in state.rglob("*") if p.is_file() and TOKEN.encode() in p.read_bytes()]
    assert backups, "no backup holds the replaced file: the test proves nothing"
    loose = [f"{p.relative_to(state)} {oct(p.lstat().st_mode & 0o777)}" for p in state.rglob("*")
             if not p.is_symlink() and p.lstat().st_mode & 0o077]
    assert loose == [], loose
    assert state.stat().st_mode & 0o777 == 0o700


def test_no_environment_value_is_ever_written(tmp_path):
    """${GITHUB_TOKEN} and ${HOME} in the profile, and secrets in the installing shell's
    environment: no value of the environment reaches any file (home and state dir)."""
    home = HOMES["messy"](tmp_path / "home")
    _secret_profile(home)
    env_secret = "envsecret-" + "Z9" * 12
    env = clean_env(home, GITHUB_TOKEN=env_secret, OPENAI_API_KEY=env_secret + "-2",
                    ANTHROPIC_API_KEY=env_secret + "-3", DB_TOKEN=env_secret + "-4")
    r = cli_proc("apply", "--home", home, "--yes", "--profile", "sekrit",
                 *target_args(available()), env=env)
    assert applied(r.returncode, r.stderr), r.stdout + r.stderr
    assert env_secret not in r.stdout + r.stderr
    assert _files_holding(home, env_secret.encode()) == {}
    # "${GITHUB_TOKEN}" either stays a reference or is dropped, never expanded
    holders = _files_holding(home, b"${GITHUB_TOKEN}")
    assert all(p.startswith(".config/") or mode in (0o600, 0o644) for p, mode in holders.items())


# ---- Copilot's config.json -------------------------------------------------------------------------------

@needs_copilot
def test_copilot_config_json_is_never_written_nor_read_beyond_trusted_folders(tmp_path):
    home = HOMES["messy"](tmp_path / "home")
    cfg = home / ".copilot" / "config.json"
    secret = "ghu_" + "C" * 36
    cfg.write_text(json.dumps({"trustedFolders": [str(home / "src")], "copilotTokens": {"x": secret},
                               "lastLoggedInUser": "secret-user-name"}, indent=2))
    os.chmod(cfg, 0o600)
    st = os.stat(cfg)
    data = cfg.read_bytes()
    outputs = []
    for args in (["plan", "--json"], ["plan", "-v"], ["apply", "--yes"], ["status"]):
        rc, out, err = cli_inproc(args[0], "--home", home, "--target", "copilot", *args[1:])
        outputs.append(out + err)
    uninstall(home, ["copilot"])
    rc, out, err = cli_inproc("apply", "--home", home, "--yes", "--target", "copilot")
    outputs.append(out + err)
    for text in outputs:
        assert secret not in text and "secret-user-name" not in text
    assert cfg.read_bytes() == data
    st2 = os.stat(cfg)
    assert (st2.st_ino, st2.st_mtime_ns, st2.st_mode) == (st.st_ino, st.st_mtime_ns, st.st_mode)
    for holder in _files_holding(home, secret.encode()):
        assert holder == ".copilot/config.json", f"config.json's token was copied into {holder}"
    # the one thing read: trustedFolders, reported through the adapter's output and the plan
    plan = engine.build_plan(make_host(home), "default", ["copilot"])
    assert secret not in json.dumps(plan.to_json(), default=str) + repr(plan.output)


# ---- the audit log ---------------------------------------------------------------------------------------

def _audit(tmp_path: Path, payload: dict, event: str = "PreToolUse", target: str = "claude") -> str:
    state = tmp_path / "state"
    env = clean_env(tmp_path, AGENTDECK_STATE_DIR=str(state), AGENTDECK_TARGET=target)
    r = subprocess.run([sys.executable, "-m", "agentdeck.core.hookhandler", event], input=json.dumps(payload),
                       capture_output=True, text=True, cwd=REPO, env=env, timeout=60)
    assert r.returncode == 0 and r.stdout == ""
    log = state / "audit.jsonl"
    assert log.exists() and (log.stat().st_mode & 0o777) == 0o600
    return log.read_text()


DETECTED = {
    "bearer in a command": ({"tool_name": "Bash", "tool_input": {
        "command": "curl -H 'Authorization: Bearer abcDEF1234567890xyzXYZ' https://x"}}, "abcDEF1234567890xyzXYZ"),
    "GitHub token in a prompt": ({"hook_event_name": "UserPromptSubmit", "prompt": f"use {TOKEN}"}, TOKEN),
    "credentials in a URL": ({"tool_name": "Bash", "tool_input": {
        "command": "git clone https://me:s3cr3tPa55@github.com/x"}}, "s3cr3tPa55"),
    "Copilot args as a JSON string": ({"toolName": "bash", "toolArgs": json.dumps(
        {"command": "echo sk-ant-" + "b" * 30})}, "sk-ant-" + "b" * 30),
    "AWS secret under its name": ({"tool_name": "Bash", "tool_input": {
        "aws_secret_access_key": "A" * 40}}, "A" * 40),
    "a private key": ({"tool_name": "Write", "tool_input": {
        "content": "-----BEGIN RSA PRIVATE KEY-----\nMIIsecretbody\n-----END RSA PRIVATE KEY-----"}},
        "MIIsecretbody"),
    "a token as a key": ({"tool_name": "Bash", "tool_input": {TOKEN: 1}}, TOKEN),
    "a tool's output": ({"tool_name": "Bash", "tool_input": {"command": "cat .env"},
                         "tool_response": {"stdout": f"T={TOKEN}"}}, TOKEN),
    "deep in nested args": ({"tool_name": "x", "tool_input": {"a": [{"b": {"c": [f"x {TOKEN}"]}}]}}, TOKEN),
}


@pytest.mark.parametrize("name", sorted(DETECTED))
def test_audit_log_never_stores_a_recognizable_secret(tmp_path, name):
    payload, secret = DETECTED[name]
    event = "UserPromptSubmit" if "prompt" in payload else "PreToolUse"
    log = _audit(tmp_path, payload, event)
    assert secret not in log
    assert json.loads(log.splitlines()[0])["event"] in ("pre_tool_use", "user_prompt_submit")


NAMED = {
    "password field": ({"tool_name": "Bash", "tool_input": {"password": "hunter2hunter2"}}, "hunter2hunter2"),
    "api_key field": ({"tool_name": "mcp__x", "tool_input": {"api_key": "zz9-plural-z-alpha"}},
                      "zz9-plural-z-alpha"),
    "env var named *_TOKEN": ({"tool_name": "Bash", "tool_input": {"env": {"GITHUB_TOKEN": "tok-plain-123456"}}},
                              "tok-plain-123456"),
    "X-Api-Key header": ({"tool_name": "WebFetch", "tool_input": {"headers": {"X-Api-Key": "abcdef0123456789"}}},
                         "abcdef0123456789"),
    "export *_API_KEY= in a command": ({"tool_name": "Bash", "tool_input": {
        "command": "export OPENAI_API_KEY=plainkeyvalue123 && run"}}, "plainkeyvalue123"),
}


@pytest.mark.parametrize("name", sorted(NAMED))
def test_audit_log_never_stores_a_value_named_as_a_secret(tmp_path, name):
    payload, secret = NAMED[name]
    assert secret not in _audit(tmp_path, payload)


@needs("claude")
def test_a_config_file_linked_into_a_dotfiles_checkout_outside_the_home(tmp_path, monkeypatch):
    """~/.claude/settings.json is a symlink into a dotfiles checkout outside the home. By
    default agentdeck does not edit it there (apply would write outside the home and uninstall
    could not undo it): the plan's one line names the way out, AGENTDECK_WRITE_THROUGH. With
    the folder named, apply writes through the link, the next plan is empty, and uninstall
    gives the checkout's file back byte for byte, the link still a link."""
    home = HOMES["fresh"](tmp_path / "home")
    dotfiles = tmp_path / "dotfiles" / "claude"
    dotfiles.mkdir(parents=True)
    theirs = b'{\n  "model": "opus"\n}\n'
    (dotfiles / "settings.json").write_bytes(theirs)
    (home / ".claude").mkdir()
    link = home / ".claude" / "settings.json"
    link.symlink_to(dotfiles / "settings.json")
    monkeypatch.delenv("AGENTDECK_WRITE_THROUGH", raising=False)
    before = home_snapshot(home)
    rc, out, err = cli_inproc("apply", "--home", home, "--yes", "--target", "claude")
    assert rc == 1
    assert f"~/.claude/settings.json is a symlink to {dotfiles / 'settings.json'}, outside the home" in err
    assert f"set AGENTDECK_WRITE_THROUGH={dotfiles}" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert home_snapshot(home) == before and (dotfiles / "settings.json").read_bytes() == theirs

    monkeypatch.setenv("AGENTDECK_WRITE_THROUGH", str(tmp_path / "dotfiles"))
    install(home, ["claude"])
    written = json.loads((dotfiles / "settings.json").read_text())
    assert written["model"] == "opus" and "PreToolUse" in written["hooks"]
    assert link.is_symlink()
    rc, out, err = cli_inproc("plan", "--home", home, "--target", "claude")
    assert rc == 0, out + err

    monkeypatch.delenv("AGENTDECK_WRITE_THROUGH")     # a shell without it: refused, way out named
    rc, out, err = cli_inproc("uninstall", "--home", home, "--yes", "--target", "claude")
    assert rc == 1 and "AGENTDECK_WRITE_THROUGH=" in err and "nothing was written" in err
    assert "PreToolUse" in (dotfiles / "settings.json").read_text()

    monkeypatch.setenv("AGENTDECK_WRITE_THROUGH", f"/nonexistent:{tmp_path / 'dotfiles'}")
    uninstall(home, ["claude"])
    assert (dotfiles / "settings.json").read_bytes() == theirs
    assert link.is_symlink() and home_snapshot(home) == before
