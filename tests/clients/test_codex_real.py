"""The Codex target against the real CLI (@openai/codex, the version core.facts pins).

agentdeck writes an install into a scratch home, then the installed CLI is asked what it loaded:
`codex app-server --strict-config --print-startup-config` must accept our config.toml (it
rejects unknown fields), `codex mcp list --json` must list our servers with the enabled flags the
plan intended, and `hooks/list` over `codex app-server` must show our hooks with no warnings and
the trust status the plan predicted: trusted after a plain `agentdeck apply` (agentdeck trusts its
own hooks by default), untrusted after `--no-trust-hooks`, and never a trusted_hash for another
tool's hooks (agentihooks'). Nothing here starts a session: no hook or MCP server runs.
"""
from __future__ import annotations

import json

import pytest

from agentdeck.core import engine
from agentdeck.core.demo import make_demo_home
from agentdeck.core.targets.codex.probes import hooks_list as codex_hooks_list
from agentdeck.core.targets.codex.probes import mcp_list as codex_mcp_list
from agentdeck.core.targets.codex.probes import startup_config as codex_startup_config
from tests.target_homes import target_home

pytestmark = pytest.mark.clients


def install(host, profile="default", trust=None):
    plan = engine.build_plan(host, profile, ["codex"], trust_hooks=trust)
    result = engine.apply_plan(host, plan)
    assert result.ok, result.leftover
    assert not engine.build_plan(host, profile, ["codex"], trust_hooks=trust).has_work
    return plan


def assert_config_valid(host):
    res = codex_startup_config(host)
    assert res.ok, res.error


def assert_mcp_as_planned(host, plan):
    res = codex_mcp_list(host)
    assert res.ok, res.error
    listed = {r["name"]: r for r in res.data}
    rows = {r.name: r for r in plan.output["codex"].mcp.servers if not r.dropped}
    assert set(listed) == set(rows)
    for name, row in rows.items():
        assert listed[name]["enabled"] is row.enabled, (name, listed[name], row)
    return listed


def assert_hooks_as_planned(host, plan, expect: str):
    res = codex_hooks_list(host, [str(host.home)])
    assert res.ok, res.error
    (entry,) = res.data["data"]
    assert entry["warnings"] == [] and entry["errors"] == [], entry
    # (the sandbox's "could not find bubblewrap" notice is about this machine, not our config)
    assert [w for w in res.data["configWarnings"] if "bubblewrap" not in (w or "")] == []
    ours = {h["key"]: h for h in entry["hooks"]
            if h["sourcePath"] == plan.output["codex"].hooks.trust_source}
    planned = {e.key: e for e in plan.output["codex"].hooks.events}
    assert set(ours) == set(planned)
    for key, h in ours.items():
        e = planned[key]
        assert h["currentHash"] == e.hash, (key, h, e)
        assert h["command"] == e.command and h["timeoutSec"] == e.timeout
        assert h["trustStatus"] == e.trust == expect, (key, h["trustStatus"], e.trust)
    return ours


def test_plain_cli_apply_is_trusted_by_codex_then_no_then_trust(scratch_env, need, monkeypatch):
    need("codex")
    host = scratch_env
    import sys
    from pathlib import Path

    from agentdeck.core import cli
    for k, v in host.env.items():       # the CLI's own Host is made from the environment
        monkeypatch.setenv(k, v)
    # the real handler (this agentdeck's agentdeck-hook) on PATH, as an installed agentdeck has
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}:{host.env['PATH']}")
    from agentdeck.core.host import Host
    host = Host.from_environment(host.home)     # as the CLI makes it
    # a plain `agentdeck apply`: Codex runs agentdeck's hooks, it reports them trusted
    assert cli.main(["apply", "--yes", "--home", str(host.home), "--target", "codex"]) == 0
    plan = engine.build_plan(host, "default", ["codex"])
    assert not plan.has_work, [(i.label, i.cls, i.reason) for i in plan.items
                               if plan.action(i) != "none"] + [plan.profile_switches()]
    assert_config_valid(host)
    listed = assert_mcp_as_planned(host, plan)
    assert listed["github"]["enabled"] is False and listed["memory"]["enabled"] is True
    assert listed["github"]["transport"]["bearer_token_env_var"] == "GITHUB_TOKEN"
    assert_hooks_as_planned(host, plan, "trusted")
    # the operator says no: agentdeck's trust goes, Codex skips them, the apply says so (exit 2)
    assert cli.main(["apply", "--yes", "--home", str(host.home), "--target", "codex",
                     "--no-trust-hooks"]) == 2
    plan = engine.build_plan(host, "default", ["codex"], trust_hooks=False)
    assert_config_valid(host)
    assert_hooks_as_planned(host, plan, "untrusted")
    # --trust-hooks: trusted again, and a later plain plan keeps predicting what Codex reports
    plan = install(host, trust=True)
    assert_config_valid(host)
    assert_hooks_as_planned(host, plan, "trusted")
    again = engine.build_plan(host, "default", ["codex"])
    assert_hooks_as_planned(host, again, "trusted")


def test_changed_hook_is_modified_as_predicted(scratch_env, need):
    """A hook the operator trusted themselves (not agentdeck: installed with --no-trust-hooks,
    then its hash written as Codex's /hooks would) that the profile then changes."""
    need("codex")
    host = scratch_env
    plan = install(host, trust=False)
    cfg = target_home(host, "codex") / "config.toml"
    cfg.write_text(cfg.read_text() + "".join(
        f'\n[hooks.state."{e.key}"]\ntrusted_hash = "{e.hash}"\n'
        for e in plan.output["codex"].hooks.events))
    prof = host.config_dir / "profiles" / "slow"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n[hooks]\ntimeout = 45\n')
    plan = install(host, "slow", trust=False)
    assert_config_valid(host)
    res = codex_hooks_list(host, [str(host.home)])
    statuses = {h["eventName"]: h["trustStatus"] for h in res.data["data"][0]["hooks"]}
    predicted = {e.event: e.trust for e in plan.output["codex"].hooks.events}
    # SessionEnd keeps Codex's 3 s cap, so its content (and trust) did not change
    assert predicted.pop("SessionEnd") == "trusted"
    assert set(predicted.values()) == {"modified"}
    assert statuses["sessionEnd"] == "trusted"
    assert {s for ev, s in statuses.items() if ev != "sessionEnd"} == {"modified"}
    # the operator's trust is theirs: --trust-hooks makes each a conflict; taken, Codex agrees
    plan = engine.build_plan(host, "slow", ["codex"], trust_hooks=True)
    for it in plan.undecided_conflicts():
        plan.decide(it.id, "take")
    assert engine.apply_plan(host, plan).ok
    assert_hooks_as_planned(host, engine.build_plan(host, "slow", ["codex"]), "trusted")


def test_messy_home_and_every_mcp_translation(scratch_env, need):
    need("codex")
    host = scratch_env
    make_demo_home(host.home)
    prof = host.config_dir / "profiles" / "wide"
    (prof / "codex").mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
    (prof / "mcp.json").write_text(json.dumps({"mcpServers": {
        "envs": {"command": "srv", "args": ["--x"], "env": {"MODE": "ro", "TOKEN": "${TOKEN}"},
                 "tools": ["read", "write"], "cwd": "/tmp"},
        "web": {"type": "http", "url": "https://example.invalid/mcp",
                "headers": {"Authorization": "Bearer ${WEB_TOKEN}", "X-Team": "core",
                            "X-Key": "${WEB_KEY}"}},
        "old": {"type": "sse", "url": "https://example.invalid/sse"},
    }}))
    (prof / "codex" / "config.toml").write_text(
        'notify = ["notify-send", "codex"]\n[mcp_servers.envs]\nstartup_timeout_sec = 20\n')
    plan = install(host, "wide")
    assert_config_valid(host)
    listed = assert_mcp_as_planned(host, plan)
    assert "local-db" in listed                          # the operator's own server
    assert listed["envs"]["transport"]["env_vars"] == ["TOKEN"]
    assert listed["envs"]["startup_timeout_sec"] == 20
    t = listed["web"]["transport"]
    assert t["bearer_token_env_var"] == "WEB_TOKEN"
    assert t["http_headers"] == {"X-Team": "core"} and t["env_http_headers"] == {"X-Key": "WEB_KEY"}
    assert "old" not in listed
    assert_hooks_as_planned(host, plan, "trusted")


def test_the_layers_trust_choice_is_trusted_by_codex_and_survives_a_hook_change(scratch_env,
                                                                               need):
    """Onboarding's "Trust agentdeck's Codex hooks" (the operator's layer, core.overlay:
    {"trust_hooks": {"codex": true}}): plans without --trust-hooks trust the hooks, the real
    Codex reports them trusted, and after the profile changes them (a new timeout) the next
    apply trusts them again -- where a one-run --trust-hooks leaves them "modified" (above)."""
    from agentdeck.core import overlay

    need("codex")
    host = scratch_env
    layer = overlay.choices_path(host, "slow")
    layer.parent.mkdir(parents=True)
    layer.write_text('{"trust_hooks": {"codex": true}}\n')
    prof = host.config_dir / "profiles" / "slow"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
    plan = install(host, "slow")
    assert plan.output["codex"].hooks.trust_requested is True
    assert_config_valid(host)
    assert_hooks_as_planned(host, plan, "trusted")
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n[hooks]\ntimeout = 45\n')
    plan = install(host, "slow")
    assert_config_valid(host)
    assert_hooks_as_planned(host, plan, "trusted")
