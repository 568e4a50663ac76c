"""Golden tests: every file the Codex target writes for the default profile on a fresh home, on a
messy home (the demo home: a commented config.toml with an operator MCP server, plus an existing
AGENTS.md and a symlinked skill) -- both trusting agentdeck's own hooks, the default -- and
`--trust-hooks` after an install with `--no-trust-hooks`; plus the plan as the operator reads
it, the pane info, and idempotence (apply, then the plan is empty).

Regenerate after an intended change with:
    AGENTDECK_UPDATE_GOLDEN=1 python -m pytest tests/unit/test_codex_golden.py
and review the diff of tests/golden/codex/.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agentdeck.core import engine, profiles
from agentdeck.core.demo import make_demo_home
from agentdeck.core.targets.codex.facts import codex_hook_state_key, codex_trusted_hash
from agentdeck.core.render import render_plan

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "codex"
UPDATE = os.environ.get("AGENTDECK_UPDATE_GOLDEN") == "1"
OWN = (".codex", ".agents")     # this target's files (the demo's others are not Codex's)


class Normalizer:
    """Home-dependent values (trust keys and hashes name the temp home) checked, then replaced."""

    def __init__(self, host, tmp_path):
        self.host, self.tmp_path = host, tmp_path
        self.subs: dict[str, str] = {}

    def info(self, info: dict) -> dict:
        info = json.loads(json.dumps(info))
        src = str(self.host.codex_home / "hooks.json")
        for ev in info["hooks"]["events"]:
            assert ev["hash"] == codex_trusted_hash(ev["event"], None, [ev["handler"]])
            assert ev["key"] == codex_hook_state_key(src, ev["event"], 0, 0)
            self.subs[ev["hash"]] = f"<codex_trusted_hash({ev['event']})>"
        return info

    def __call__(self, text: str) -> str:
        for k, v in self.subs.items():
            text = text.replace(k, v)
        return (text.replace(str(profiles.bundled_dir()), "<PROFILES>")
                    .replace(str(self.host.home), "<HOME>")
                    .replace(str(self.tmp_path / "bin"), "<BIN>"))


def tree(host) -> str:
    out = []
    for dirpath, dirnames, filenames in os.walk(host.home):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            p = Path(dirpath) / name
            rel = str(p.relative_to(host.home))
            if not rel.startswith(OWN) or rel == ".codex/.agentdeck-managed.json":
                continue
            if p.is_symlink():
                out.append(f"--- {rel} -> {os.readlink(p)}")
            elif p.is_file():
                mode = os.stat(p).st_mode & 0o777
                out.append(f"--- {rel} ({mode:04o})\n{p.read_text()}")
    return "\n".join(out)


def run(host, tmp_path, trust=None) -> str:
    norm = Normalizer(host, tmp_path)
    plan = engine.build_plan(host, "default", ["codex"], trust_hooks=trust)
    parts = ["=== plan", render_plan(plan, host),
             "=== info", json.dumps(norm.info(plan.info["codex"]), indent=1, sort_keys=True)]
    result = engine.apply_plan(host, plan)
    assert result.ok, result.leftover
    again = engine.build_plan(host, "default", ["codex"], trust_hooks=trust)
    assert not again.has_work, [(i.label, i.cls) for i in again.items if again.action(i) != "none"]
    parts += ["=== files after apply", tree(host), "=== plan after apply", render_plan(again, host)]
    return norm("\n".join(parts) + "\n")


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
    (host.codex_home / "AGENTS.md").write_text("# My Codex notes\n\nRun the tests before committing.\n")


def test_fresh_home(ghost, tmp_path):
    check("fresh_home", run(ghost, tmp_path))


def test_messy_home(ghost, tmp_path):
    messy(ghost)
    before = (ghost.codex_home / "config.toml").read_text()
    text = run(ghost, tmp_path)
    assert (ghost.codex_home / "config.toml").read_text().startswith(before)
    check("messy_home", text)


def test_messy_home_trusted(ghost, tmp_path):
    messy(ghost)      # installed untrusted first (--no-trust-hooks), then --trust-hooks
    engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["codex"], trust_hooks=False))
    check("messy_home_trusted", run(ghost, tmp_path, trust=True))
