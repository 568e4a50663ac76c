"""Secrets in outputs: a literal credential in a profile never reaches any rendering of
the plan (text or --json: headers, env, args, URLs, persona, hooks command), never lands whole
in a file others can read, and a profile file linked to a private file is not copied anywhere.

Credentials are assembled at run time (no literal token in the repository)."""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from agentdeck.core import cli, engine
from tests.target_homes import target_home

TOKEN = "ghp_" + "Ab1" * 12
URL_PW = "hunter2" * 2
BEARER = "Zz9" * 8


def profile(host, name: str, files: dict[str, str]) -> Path:
    d = host.config_dir / "profiles" / name
    for rel, text in files.items():
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text(text)
    return d


LEAKY_MCP = json.dumps({"mcpServers": {
    "web": {"type": "http", "url": f"https://u:{URL_PW}@api.example.com/mcp",
            "headers": {"Authorization": f"Bearer {BEARER}"}},
    "loc": {"type": "local", "command": "srv", "args": ["--token", TOKEN],
            "env": {"API_TOKEN": TOKEN}}}})


def _leaks(text: str) -> list[str]:
    return [s for s in (TOKEN, URL_PW, BEARER) if s in text]


def test_plan_text_and_json_redact_alike(ghost, capsys):
    profile(ghost, "leaky", {"profile.toml": '[profile]\nextends = ["default"]\n',
                             "mcp.json": LEAKY_MCP, "AGENTS.md": f"persona {TOKEN}\n"})
    home = str(ghost.home)
    assert cli.main(["plan", "--home", home, "--profile", "leaky"]) == 2
    text = capsys.readouterr().out
    assert cli.main(["plan", "--home", home, "--profile", "leaky", "--json"]) == 2
    out = capsys.readouterr().out
    data = json.loads(out)
    assert _leaks(text) == [] and _leaks(out) == []
    # the servers are there, redacted (not dropped)
    dumped = json.dumps([i["desired"] for i in data["items"]])
    assert "[REDACTED:" in dumped and "api.example.com" in dumped


def test_persona_with_a_token_is_written_redacted_and_flagged(ghost):
    profile(ghost, "leaky", {"profile.toml": '[profile]\nextends = ["default"]\n',
                             "AGENTS.md": f"Use {TOKEN} for the API.\n",
                             "rules/r.md": f"# rule\nexport GH_TOKEN={TOKEN}\n"})
    plan = engine.build_plan(ghost, "leaky", ["claude"])
    msgs = [n.message for n in plan.notices["claude"]]
    assert any("literal credential" in m and "written redacted" in m for m in msgs)
    engine.apply_plan(ghost, plan)
    claude_md = target_home(ghost, "claude") / "CLAUDE.md"
    body = claude_md.read_text()
    assert TOKEN not in body and "[REDACTED:github_token]" in body
    assert not engine.build_plan(ghost, "leaky", ["claude"]).has_changes


def test_a_token_in_the_hooks_command_makes_the_wrapper_private(ghost):
    profile(ghost, "leaky", {"profile.toml": '[profile]\nextends = ["default"]\n[hooks]\n'
                                             f'command = "agentdeck-hook --token {TOKEN}"\n'})
    plan = engine.build_plan(ghost, "leaky", ["copilot"])
    assert any("0700 instead of 0755" in n.message for n in plan.notices["copilot"])
    engine.apply_plan(ghost, plan)
    wrapper = target_home(ghost, "copilot") / "agentdeck-hook.sh"
    assert stat.S_IMODE(wrapper.stat().st_mode) == 0o700
    for p in ghost.home.rglob("*"):      # nowhere else, and nowhere readable by others
        if ghost.config_dir in p.parents:     # the operator's own profile
            continue
        if p.is_file() and not p.is_symlink() and TOKEN in p.read_text(errors="replace"):
            assert stat.S_IMODE(p.stat().st_mode) & 0o077 == 0, p


def test_a_token_in_a_repository_wrapper_is_redacted_and_an_error(ghost, tmp_path):
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    profile(ghost, "leaky", {"profile.toml": '[profile]\nextends = ["default"]\n[hooks]\n'
                                             f'command = "agentdeck-hook --token {TOKEN}"\n'})
    plan = engine.build_repo_plan(ghost, repo, "leaky")
    errors = [n.message for n in plan.notices["repo"] if n.level == "error"]
    assert errors and "literal credential" in errors[0]
    assert all(TOKEN not in json.dumps(i.desired) for i in plan.items)


def test_a_command_linked_to_a_private_file_is_refused(ghost, capsys):
    secret = ghost.home / "private.txt"
    secret.write_text("do not copy me\n")
    secret.chmod(0o600)
    d = profile(ghost, "leaky", {"profile.toml": '[profile]\nextends = ["default"]\n'})
    (d / "commands").mkdir()
    (d / "commands" / "steal.md").symlink_to(secret)
    before = sorted(str(p) for p in ghost.home.rglob("*"))
    assert cli.main(["apply", "--home", str(ghost.home), "--profile", "leaky", "--yes"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "steal.md" in err[0] and "private file" in err[0]
    assert sorted(str(p) for p in ghost.home.rglob("*")) == before


def test_a_command_linked_to_a_readable_file_is_fine(ghost):
    shared = ghost.home / "shared.md"
    shared.write_text("# a shared command\n")
    shared.chmod(0o644)
    d = profile(ghost, "linked", {"profile.toml": '[profile]\nextends = ["default"]\n'})
    (d / "commands").mkdir()
    (d / "commands" / "shared.md").symlink_to(shared)
    plan = engine.build_plan(ghost, "linked", ["claude"])   # no error, and the command is in it
    got = [i for i in plan.items if i.path.endswith("shared.md")]
    assert got and "# a shared command" in str(got[0].desired), [i.path for i in plan.items]
    assert not plan.errors


def test_a_header_under_a_secret_name_is_redacted_in_json_and_diff(ghost, capsys):
    """`X-Api-Key: <a value of no known shape>` is redacted by `plan --json --diff` (the name
    check knows the "-" spelling of API_KEY, not only "_")."""
    plain = "plain" + "secretvalue" + "123456"
    mcp = json.dumps({"mcpServers": {"web": {"type": "http", "url": "https://api.example.com/mcp",
                                             "headers": {"X-Api-Key": plain,
                                                         "Private-Token": plain}}}})
    profile(ghost, "hdr", {"profile.toml": '[profile]\nextends = ["default"]\n', "mcp.json": mcp})
    home = str(ghost.home)
    for args in (["--json"], ["--json", "--diff"], ["--verbose"], []):
        assert cli.main(["plan", "--home", home, "--profile", "hdr", *args]) == 2
        out = capsys.readouterr().out
        assert plain not in out, args
        assert "api.example.com" in out or "--json" not in args   # text names servers only
