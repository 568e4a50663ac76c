"""Golden tests: every file the Claude Code target writes for the default profile on a fresh home
and on a messy home (the demo home plus the operator's own hooks in settings.json, a .claude.json
Claude has filled with its own state and an MCP server, and an existing CLAUDE.md); plus the plan
as the operator reads it, the pane info, and idempotence (apply, then the plan is empty).

Regenerate after an intended change with:
    AGENTDECK_UPDATE_GOLDEN=1 python -m pytest tests/unit/test_claude_golden.py
and review the diff of tests/golden/claude/.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agentdeck.core import engine, profiles
from agentdeck.core.demo import make_demo_home
from agentdeck.core.render import render_plan

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "claude"
UPDATE = os.environ.get("AGENTDECK_UPDATE_GOLDEN") == "1"
OWN = (".claude", ".claude.json")   # this target's files (the demo's others are not Claude's)


def normalize(text: str, host, tmp_path) -> str:
    return (text.replace(str(profiles.bundled_dir()), "<PROFILES>")
                .replace(str(host.home), "<HOME>")
                .replace(str(tmp_path / "bin"), "<BIN>"))


def tree(host) -> str:
    out = []
    for dirpath, dirnames, filenames in os.walk(host.home):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            p = Path(dirpath) / name
            rel = str(p.relative_to(host.home))
            if not rel.startswith(OWN) or rel == ".claude/.agentdeck-managed.json":
                continue
            if p.is_symlink():
                out.append(f"--- {rel} -> {os.readlink(p)}")
            elif p.is_file():
                mode = os.stat(p).st_mode & 0o777
                out.append(f"--- {rel} ({mode:04o})\n{p.read_text()}")
    return "\n".join(out)


def run(host, tmp_path) -> str:
    plan = engine.build_plan(host, "default", ["claude"])
    parts = ["=== plan", render_plan(plan, host),
             "=== info", json.dumps(plan.info["claude"], indent=1, sort_keys=True)]
    result = engine.apply_plan(host, plan)
    assert result.ok, result.leftover
    again = engine.build_plan(host, "default", ["claude"])
    assert not again.has_work, [(i.label, i.cls) for i in again.items if again.action(i) != "none"]
    parts += ["=== files after apply", tree(host), "=== plan after apply", render_plan(again, host)]
    return normalize("\n".join(parts) + "\n", host, tmp_path)


def check(name: str, text: str) -> None:
    path = GOLDEN / f"{name}.txt"
    if UPDATE or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        if not UPDATE:
            pytest.fail(f"golden file {path} was missing and has been written; review it and re-run")
        return
    assert text == path.read_text(), f"differs from {path}; see the docstring to regenerate"


def messy(host) -> None:
    make_demo_home(host.home)
    (host.claude_home / "settings.json").write_text(json.dumps({
        "model": "sonnet",
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "~/bin/bash-guard.sh", "timeout": 5}]}]},
    }, indent=2) + "\n")
    host.claude_json.write_text(json.dumps({
        "numStartups": 12, "firstStartTime": "2026-01-02T03:04:05.000Z",
        "mcpServers": {"notes": {"type": "stdio", "command": "node", "args": ["/home/me/notes.js"]}},
    }, indent=2) + "\n")
    os.chmod(host.claude_json, 0o600)
    (host.claude_home / "CLAUDE.md").write_text("# Mine\n\nUse British English.\n")


def test_fresh_home(ghost, tmp_path):
    check("fresh_home", run(ghost, tmp_path))


def test_messy_home(ghost, tmp_path):
    messy(ghost)
    check("messy_home", run(ghost, tmp_path))
