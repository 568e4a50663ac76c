"""Taking over an agentihooks install, as the real Copilot sees it (issue 16.4).

A home made by the real agentihooks 2.17.0 (`agentihooks init --target copilot`, from PyPI via
agentihooks_kit.py), then agentdeck's plan applied with the persona taken. The installed Copilot
is asked what it loaded (`hooks.discover`, `mcp list --json`): before, agentihooks' hooks; after,
each event once and only agentdeck's, the agentihooks MCP server still enabled; after
`agentdeck uninstall`, agentihooks' hooks again, each once, and the home byte for byte as
agentihooks left it (agentdeck's state dir aside).
"""
from __future__ import annotations

import os
from collections import Counter

import pytest

from agentdeck.core import engine
from agentdeck.core.doctor.probes import copilot_hooks_discover, copilot_mcp_list
from agentdeck.core.facts.copilot import COPILOT
from agentihooks_kit import init_home, snapshot

pytestmark = pytest.mark.clients


def discovered(host) -> Counter:
    res = copilot_hooks_discover(host)
    assert res.ok, res.error
    assert res.data["errors"] == [], res.data["errors"]
    return Counter((h["source"], h["hookType"]) for h in res.data["hooks"])


def home_files(host, state: str) -> dict:
    """The home's files but agentdeck's state dir and what Copilot writes for itself as it runs
    (its logs folder and lock files)."""
    return {k: v for k, v in snapshot(host.home, skip=(state, ".copilot/logs")).items()
            if not k.endswith(".lock")}


def test_take_over_runs_each_event_once_and_uninstall_gives_agentihooks_back(scratch_env, need):
    need("copilot")
    host = scratch_env
    why = init_home(host.home, "copilot")
    if why:
        pytest.skip(why)
    state = os.path.relpath(host.state_dir, host.home)
    theirs = discovered(host)
    before = home_files(host, state)     # after Copilot's first start made its own files
    assert {src for src, _ in theirs} == {"hooks/agentihooks.json"}
    assert set(theirs.values()) == {1}

    plan = engine.build_plan(host, "default", ["copilot"])
    plan.decide(f"{host.copilot_home / 'copilot-instructions.md'}#block", "take")
    assert engine.apply_plan(host, plan).ok
    assert not engine.build_plan(host, "default", ["copilot"]).has_work

    ours = discovered(host)
    assert {src for src, _ in ours} == {"hooks/agentdeck.json"}
    events = Counter(ev for _, ev in ours.elements())
    assert sorted(events) == sorted(COPILOT.register_events) and set(events.values()) == {1}
    listed = copilot_mcp_list(host)
    assert listed.ok, listed.error
    assert listed.data["mcpServers"]["agentihooks"]["enabled"] is True   # not quietly disabled

    assert engine.apply_plan(host, engine.build_uninstall_plan(host, ["copilot"])).ok
    assert home_files(host, state) == before
    assert discovered(host) == theirs
