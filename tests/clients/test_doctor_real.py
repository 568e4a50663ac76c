"""`agentdeck doctor --live` against the real CLIs (pinned versions from npm, scratch homes, no
credentials): on a deliberately broken home they report the planted problems, and they agree with
the static checks (no "the facts may be out of date" finding); on a fresh agentdeck install of
the default profile nothing is above info."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from agentdeck.core import doctor, engine
from agentdeck.core.doctor.report import exit_code, render_text
from agentdeck.core.targets import registry
from tests.target_homes import claude_json

pytestmark = pytest.mark.clients

MESSY = Path(__file__).resolve().parents[1] / "fixtures" / "doctor" / "messy"
#: every registered target (the fresh-install tests)
ALL = tuple(registry.NAMES)
#: the targets the broken fixture home plants files for (its CLI home folder is in it)
PLANTED = tuple(s.name for s in registry.TARGETS if (MESSY / s.home_dirname).is_dir())


def with_handler(host, tmp_path):
    """Put a stub `agentdeck-hook` (the default profile's handler) on the scratch PATH, as an
    operator who installed agentdeck has it."""
    bin_dir = tmp_path / "handler-bin"
    bin_dir.mkdir(exist_ok=True)
    stub = bin_dir / "agentdeck-hook"
    stub.write_text("#!/bin/sh\nexit 0\n")
    stub.chmod(0o755)
    host.env["PATH"] = f"{bin_dir}{os.pathsep}{host.env['PATH']}"
    return host


def plant(host, src: Path) -> None:
    """Copy a fixture home into the scratch home; .claude.json goes where this host's Claude
    reads it (inside CLAUDE_CONFIG_DIR when that is set)."""
    shutil.copytree(src, host.home, dirs_exist_ok=True)
    (host.home / "README.md").unlink(missing_ok=True)
    cj = host.home / ".claude.json"
    if cj.exists() and claude_json(host) != cj:
        claude_json(host).parent.mkdir(parents=True, exist_ok=True)
        cj.replace(claude_json(host))


def rows(findings, check, result=None):
    return [f for f in findings if f.check == check and (result is None or f.result == result)]


def show(findings) -> str:
    return "\n" + render_text(findings, profile="default", live=True, verbose=True)


def test_broken_home_live_reports_the_planted_problems(scratch_env, need, tmp_path):
    need(*PLANTED)
    host = scratch_env
    plant(host, MESSY)
    fs = doctor.run(host, "default", list(PLANTED), live=True)
    text = show(fs)
    assert exit_code(fs) == 1
    assert all(f.result != "skipped" for f in fs if f.live), text
    # Copilot: the rejected hook file, the skipped action, the unknown settings key
    hooks = rows(fs, "copilot.live.hooks", "error")
    assert any("Invalid hook config version" in f.message and "~/.copilot/hooks/v2.json" in f.message
               for f in hooks), text
    assert any("timeoutSec must be positive" in f.message for f in hooks), text
    assert any("colour" in f.message for f in rows(fs, "copilot.live.settings", "warning")), text
    # Codex: strict config refuses the unknown key / the type key; hooks.json with "version"
    assert rows(fs, "codex.live.config", "error"), text
    assert any("unknown field `version`" in f.message for f in rows(fs, "codex.live.hooks", "warning")), text
    assert any("experimental_instructions_file" in f.message or "mcp_servers.db.type" in f.message
               for f in rows(fs, "codex.live.hooks")), text
    # Claude: the camelCase event, the flat action, the MCP server of an unknown type
    claude = rows(fs, "claude.live.doctor", "error")
    assert any("preToolUse" in f.message for f in claude), text
    assert any("remote" in f.message for f in claude), text
    # the static checks and the CLIs agree
    assert not [f for f in fs if "facts may be out of date" in f.message], text
    assert not [f for f in fs if "the check itself failed" in f.message
                or "comparison failed" in f.message], text
    assert str(host.home) not in text


def test_static_findings_match_what_copilot_drops(scratch_env, need):
    """Every MCP server the static check calls dropped is missing from `copilot mcp list`, and
    every server it keeps is listed."""
    need("copilot")
    host = scratch_env
    plant(host, MESSY)
    fs = doctor.run(host, "default", ["copilot"], live=True)
    dropped = {f.message.split("'")[1] for f in rows(fs, "copilot.mcp.dropped", "error")}
    assert dropped == {"bad-type", "no-url", "bad-args"}
    assert [f.result for f in rows(fs, "copilot.live.mcp")] == ["ok"], show(fs)


def test_fresh_install_nothing_above_info(scratch_env, need, tmp_path):
    need(*ALL)
    host = with_handler(scratch_env, tmp_path)
    # no GITHUB_TOKEN: the default profile's github server is off, so nothing warns about it
    host.env.pop("GITHUB_TOKEN", None)
    # trusted, as with the drill (test_fresh_install_drill_ok)
    plan = engine.build_plan(host, "default", list(ALL), trust_hooks=True)
    res = engine.apply_plan(host, plan)
    assert not res.leftover
    fs = doctor.run(host, "default", list(ALL), live=True)
    text = show(fs)
    assert not [f for f in fs if f.check.endswith(".live.drill")], text   # --drill runs it
    above = [f for f in fs if f.result in ("warning", "error")]
    assert not above, text
    assert exit_code(fs) == 0
    live = [f for f in fs if f.live]
    assert {f.check for f in live} >= {"copilot.live.hooks", "copilot.live.mcp", "codex.live.config",
                                       "codex.live.hooks", "codex.live.mcp", "claude.live.doctor"}
    assert rows(fs, "copilot.live.hooks", "ok"), text
    for t in ALL:
        assert rows(fs, f"{t}.version", "ok"), text


def test_fresh_install_drill_ok(scratch_env, need, tmp_path):
    """`doctor --drill`: the live checks and, beside them, the drill's real offline turn of each
    CLI (`<target>.live.drill`), on a fresh install: every CLI ok, nothing above info."""
    need(*ALL)
    host = with_handler(scratch_env, tmp_path)
    host.env.pop("GITHUB_TOKEN", None)
    # trusted: untrusted Codex hooks never run, which the drill rightly warns of
    plan = engine.build_plan(host, "default", list(ALL), trust_hooks=True)
    assert not engine.apply_plan(host, plan).leftover
    fs = doctor.run(host, "default", list(ALL), drill=True)
    text = show(fs)
    assert [f.result for f in fs if f.check.endswith(".live.drill")] == ["ok"] * len(ALL), text
    assert not [f for f in fs if f.result in ("warning", "error")], text
    assert exit_code(fs) == 0
    assert rows(fs, "copilot.live.hooks", "ok"), text


def test_fresh_empty_home_nothing_above_info(scratch_env, need):
    need(*ALL)
    fs = doctor.run(scratch_env, "default", list(ALL), live=True)
    assert not [f for f in fs if f.result in ("warning", "error")], show(fs)
