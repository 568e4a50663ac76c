"""The installed profile is remembered per home, in the manifests: plain plan, apply, status,
drill and tui use it; --profile changes it, and the plan says "profile: a -> b"."""
from __future__ import annotations

import json
import os

from agentdeck.core import cli, engine
from agentdeck.core.manifest import Manifest
from tests.target_homes import target_home


def _mine(host, timeout=17):
    d = host.home / ".config" / "agentdeck" / "profiles" / "mine"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text('[profile]\ndescription = "mine"\nextends = ["default"]\n\n'
                                    f"[hooks]\ntimeout = {timeout}\n")


def _run(host, capsys, monkeypatch, *argv):
    monkeypatch.setenv("PATH", host.env["PATH"])
    rc = cli.main([*argv, "--home", str(host.home)])
    return rc, capsys.readouterr()


def test_apply_with_a_profile_is_remembered_and_plain_commands_use_it(ghost, capsys, monkeypatch):
    _mine(ghost)
    rc, _ = _run(ghost, capsys, monkeypatch, "apply", "--yes", "--profile", "mine",
                 "--target", "claude")
    assert rc == 0
    man = json.loads((target_home(ghost, "claude") / ".agentdeck-managed.json").read_text())
    assert man["profile"] == "mine"
    assert engine.installed_profile(ghost) == "mine"
    # plain status and plan judge against it: in sync, nothing to do
    rc, out = _run(ghost, capsys, monkeypatch, "status", "--target", "claude")
    assert rc == 0 and out.out.split() == ["claude", "in", "sync"], out.out
    rc, out = _run(ghost, capsys, monkeypatch, "plan", "--target", "claude")
    assert rc == 0 and "profile mine," in out.out and "->" not in out.out
    # a plain apply stays on it (nothing to do), it does not go back to default
    rc, out = _run(ghost, capsys, monkeypatch, "apply", "--yes", "--target", "claude")
    assert rc == 0 and "profile mine," in out.out
    assert '"timeout": 17' in (target_home(ghost, "claude") / "settings.json").read_text()
    # a target not installed yet joins the home's profile
    assert engine.build_plan(ghost, None, ["codex"]).profile == "mine"


def test_profile_flag_switches_and_the_plan_says_so(ghost, capsys, monkeypatch):
    _mine(ghost)
    assert engine.apply_plan(ghost, engine.build_plan(ghost, "mine", ["claude"])).ok
    rc, out = _run(ghost, capsys, monkeypatch, "plan", "--profile", "default", "--target", "claude")
    assert rc == 2
    assert "agentdeck plan: profile mine -> default," in out.out
    assert "  profile: mine -> default" in out.out
    rc, out = _run(ghost, capsys, monkeypatch, "plan", "--json", "--profile", "default",
                   "--target", "claude")
    doc = json.loads(out.out)
    assert doc["profile"] == "default" and doc["installed_profile"] == {"claude": "mine"}
    rc, _ = _run(ghost, capsys, monkeypatch, "apply", "--yes", "--profile", "default",
                 "--target", "claude")
    assert rc == 0
    assert engine.installed_profile(ghost, ["claude"]) == "default"
    rc, out = _run(ghost, capsys, monkeypatch, "status", "--target", "claude")
    assert rc == 0 and "in sync" in out.out


def test_a_manifest_without_a_profile_means_default(ghost):
    assert engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["claude"])).ok
    p = target_home(ghost, "claude") / ".agentdeck-managed.json"
    data = json.loads(p.read_text())
    data.pop("profile")
    p.write_text(json.dumps(data))
    assert Manifest.load(ghost, "claude", p).profile is None
    assert engine.installed_profile(ghost) == "default"
    plan = engine.build_plan(ghost, None, ["claude"])
    assert not plan.has_changes and plan.has_work   # the record of the profile is apply's work


def test_drill_and_tui_use_the_installed_profile(ghost, capsys, monkeypatch):
    _mine(ghost)
    assert engine.apply_plan(ghost, engine.build_plan(ghost, "mine", ["claude"])).ok
    seen = {}
    from agentdeck.core.drill import command

    monkeypatch.setattr(command, "main", lambda args, host: seen.setdefault("drill", args.profile) and 0)
    monkeypatch.setattr(cli, "_open_app", lambda host, args, onboard=False:
                        seen.setdefault("tui", args.profile) and 0)
    _run(ghost, capsys, monkeypatch, "drill")
    _run(ghost, capsys, monkeypatch, "tui")
    assert seen == {"drill": "mine", "tui": "mine"}
