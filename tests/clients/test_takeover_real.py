"""Taking over an agentihooks install, as the real Copilot sees it.

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
from agentdeck.core.targets.copilot.probes import hooks_discover as copilot_hooks_discover
from agentdeck.core.targets.copilot.probes import mcp_list as copilot_mcp_list
from agentdeck.core.targets.copilot.facts import COPILOT
from agentihooks_kit import init_home, snapshot
from tests.target_homes import target_home

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
    plan.decide(f"{target_home(host, 'copilot') / 'copilot-instructions.md'}#block", "take")
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


def _cli_env(host, monkeypatch):
    """The environment of `host` for in-process `agentdeck` commands, with this agentdeck's
    real handler (agentdeck-hook) on PATH, as an installed agentdeck has it."""
    import sys
    from pathlib import Path

    from agentdeck.core.host import Host
    for k, v in host.env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}:{host.env['PATH']}")
    return Host.from_environment(host.home)


def test_codex_take_over_plain_apply_names_the_fix_and_the_fix_makes_codex_run_agentdecks(
        scratch_env, need, monkeypatch, capsys):
    """agentihooks' ~/.codex/hooks.json is kept by a plain apply: the apply ends with exit 2 and
    the command that fixes it, status says the same (exit 2), --trust-hooks writes no
    trusted_hash for agentihooks' hooks, and the named command makes the real Codex list
    agentdeck's hooks, trusted."""
    from agentdeck.core import cli
    from agentdeck.core.targets.codex.probes import hooks_list as codex_hooks_list

    need("codex")
    why = init_home(scratch_env.home, "codex")
    if why:
        pytest.skip(why)
    host = _cli_env(scratch_env, monkeypatch)
    home = str(host.home)
    args = ["--home", home, "--target", "codex", "--yes"]
    persona = "--keep=~/.codex/AGENTS.md#block"        # agentihooks' persona stays (decided)
    assert cli.main(["apply", *args, persona]) == 2
    err = capsys.readouterr().err
    assert ("codex's hooks are inert: agentdeck's hooks are not registered: ~/.codex/hooks.json "
            "holds agentihooks' hooks, kept (fix: `agentdeck apply --take ~/.codex/hooks.json`)"
            in err), err
    assert cli.main(["status", "--home", home, "--target", "codex"]) == 2
    assert "fix: `agentdeck apply --take ~/.codex/hooks.json`" in capsys.readouterr().out
    # trusting is only ever for agentdeck's own hooks: none of agentihooks' gets a trusted_hash
    assert cli.main(["apply", *args, "--trust-hooks"]) == 2
    capsys.readouterr()
    cfg = (target_home(host, "codex") / "config.toml").read_text()
    assert "trusted_hash" not in cfg
    res = codex_hooks_list(host, [home])
    assert res.ok, res.error
    (entry,) = res.data["data"]
    assert entry["hooks"] and {h["trustStatus"] for h in entry["hooks"]} == {"untrusted"}
    assert not any("agentdeck-hook.sh" in h["command"] for h in entry["hooks"])
    # the command the apply named works: agentdeck's hooks, trusted, exit 0
    assert cli.main(["apply", "--home", home, "--target", "codex", "--yes",
                     "--take", "~/.codex/hooks.json"]) == 0, capsys.readouterr().err
    capsys.readouterr()
    res = codex_hooks_list(host, [home])
    (entry,) = res.data["data"]
    plan = engine.build_plan(host, None, ["codex"])
    planned = {e.key: e for e in plan.output["codex"].hooks.events}
    ours = {h["key"]: h for h in entry["hooks"] if "agentdeck-hook.sh" in h["command"]}
    assert set(ours) == set(planned) and entry["warnings"] == []
    assert {h["trustStatus"] for h in ours.values()} == {"trusted"}
    assert cli.main(["status", "--home", home, "--target", "codex"]) == 0
    assert capsys.readouterr().out.split() == ["codex", "1", "hand-edit"]   # the persona kept
