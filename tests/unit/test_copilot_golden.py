"""Golden tests: every file the Copilot target writes for the default profile, on a fresh home, on
a messy home (the demo home: comments, hand-set keys, an operator MCP server, an existing
instructions file, a symlinked skill) and on a WSL home with every directive set; plus the plan
as the operator reads it, the pane info, and idempotence (apply, then the plan is empty).

Regenerate after an intended change with:  AGENTDECK_UPDATE_GOLDEN=1 python -m pytest tests/unit/test_copilot_golden.py
and review the diff of tests/golden/copilot/.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agentdeck.core import engine, profiles
from agentdeck.core.demo import make_demo_home
from agentdeck.core.targets.copilot.facts import copilot_disable_key
from agentdeck.core.render import render_plan

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "copilot"
UPDATE = os.environ.get("AGENTDECK_UPDATE_GOLDEN") == "1"
SKIP = {".copilot/.agentdeck-managed.json"}
SKIP_STATE = ("lock", "backups", "originals", "journal.json", "audit.jsonl")


def normalize(text: str, host, tmp_path) -> str:
    return (text.replace(str(profiles.bundled_dir()), "<PROFILES>")
                .replace(str(host.home), "<HOME>")
                .replace(str(tmp_path / "bin"), "<BIN>"))


def tree(host) -> str:
    out = []
    state_rel = os.path.relpath(host.state_dir, host.home)
    for dirpath, dirnames, filenames in os.walk(host.home):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            p = Path(dirpath) / name
            rel = str(p.relative_to(host.home))
            if rel in SKIP or (rel.startswith(state_rel + "/")
                               and rel[len(state_rel) + 1:].split("/")[0] in SKIP_STATE):
                continue
            if p.is_symlink():
                out.append(f"--- {rel} -> {os.readlink(p)}")
            elif p.is_file():
                mode = os.stat(p).st_mode & 0o777
                out.append(f"--- {rel} ({mode:04o})\n{p.read_text()}")
    return "\n".join(out)


def stable_info(info: dict) -> dict:
    """The pane info with each disable key checked, then replaced by a placeholder (a key hashes
    the wrapper's absolute path, which differs per temp home)."""
    info = json.loads(json.dumps(info))
    for ev in info["hooks"]["events"]:
        assert ev["disable_key"] == copilot_disable_key(ev["event"], ev["action"])
        ev["disable_key"] = f"<copilot_disable_key({ev['event']}, action)>"
    return info


def run(host, tmp_path, profile="default") -> str:
    plan = engine.build_plan(host, profile, ["copilot"])
    parts = ["=== plan", render_plan(plan, host),
             "=== info", json.dumps(stable_info(plan.info["copilot"]), indent=1, sort_keys=True)]
    result = engine.apply_plan(host, plan)
    assert result.ok, result.leftover
    again = engine.build_plan(host, profile, ["copilot"])
    assert not again.has_work, [(i.label, i.cls) for i in again.items if again.action(i) != "none"]
    parts += ["=== files after apply", tree(host), "=== plan after apply",
              render_plan(again, host)]
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


def test_fresh_home(ghost, tmp_path):
    check("fresh_home", run(ghost, tmp_path))


def test_messy_home(ghost, tmp_path):
    make_demo_home(ghost.home)
    check("messy_home", run(ghost, tmp_path))


def test_wsl_home_with_every_directive(ghost, tmp_path, monkeypatch):
    ghost.env["WSL_DISTRO_NAME"] = "Ubuntu"
    real_which = ghost.which
    monkeypatch.setattr(ghost, "which", lambda n: "/usr/bin/wslview" if n == "wslview" else real_which(n))
    prof = ghost.config_dir / "profiles" / "wsl-everything"
    (prof / "copilot").mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\ndescription = "golden"\nextends = ["default"]\n')
    (prof / "copilot" / "settings.json").write_text(json.dumps({
        "statusLine": {"type": "command", "command": "agentdeck-statusline"},
        "theme": "dark",
        "_agentdeck": {"allowAll": True, "channels": ["brain", "amygdala"],
                       "suppressBrowserLaunch": True}}, indent=2))
    (ghost.home / ".bashrc").write_text("# mine\nalias ll='ls -la'\n")
    check("wsl_home", run(ghost, tmp_path, "wsl-everything"))
