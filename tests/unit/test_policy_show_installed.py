"""`agentdeck policy show` without --profile describes the profile the home has installed
(engine.installed_profile), not the default one (core/policy/commands.py)."""
from __future__ import annotations

from agentdeck.core import cli, engine, profiles


def test_policy_show_without_profile_resolves_the_installed_one(tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    home.mkdir()
    asked: list[str] = []
    real = profiles.resolve

    def resolve(host, name, *a, **kw):
        asked.append(name)
        return real(host, engine.DEFAULT_PROFILE, *a, **kw)

    monkeypatch.setattr(engine, "installed_profile", lambda host, *a, **kw: "rt")
    monkeypatch.setattr(profiles, "resolve", resolve)
    assert cli.main(["policy", "show", "--home", str(home)]) == 0
    capsys.readouterr()
    assert asked and asked[0] == "rt"
    asked.clear()
    assert cli.main(["policy", "show", "--home", str(home), "--profile", "default"]) == 0
    assert asked[0] == "default"
