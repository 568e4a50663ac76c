"""Which targets a command covers without --target: one rule (core.scopes.COVERAGE) for plan,
apply, status, doctor, drill, policy show and the app -- the profile's `targets` when it names
them; else every CLI installed (on PATH) or with a home folder; else every CLI -- and `status`
says which and why (issue 31.3: with all four CLIs installed, Qwen was left out and the home
called "in sync")."""
from __future__ import annotations

import pytest

from agentdeck.core import cli, engine, targets
from agentdeck.core.scopes import found_targets
from agentdeck.core.targets import registry
from tests.target_homes import target_home

NAMES = [s.name for s in registry.TARGETS]


def test_the_bundled_profile_names_no_targets(host):
    from agentdeck.core import profiles
    assert not profiles.resolve(host, "default").targets


def test_nothing_found_covers_every_target(host):
    assert found_targets(host) == []
    assert engine.select_targets(None, None, host) == targets.available()
    assert engine.build_plan(host, "default").targets == targets.available()


@pytest.mark.parametrize("name", NAMES)
def test_a_home_folder_makes_a_target_covered_alone(host, name):
    target_home(host, name).mkdir(parents=True, exist_ok=True)
    assert found_targets(host) == [name]
    assert list(engine.build_plan(host, "default").targets) == [name]


@pytest.mark.parametrize("name", NAMES)
def test_a_cli_on_path_makes_a_target_covered(host, tmp_path, name):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / registry.spec(name).binary
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    host.env["PATH"] = f"{bin_dir}:{host.env.get('PATH', '')}"
    assert found_targets(host) == [name]
    assert engine.select_targets(None, None, host) == [name]


def test_a_profile_that_names_targets_covers_exactly_those(host):
    for name in NAMES:
        target_home(host, name).mkdir(parents=True, exist_ok=True)
    assert engine.select_targets(None, [NAMES[-1]], host) == [NAMES[-1]]
    assert engine.select_targets(None, None, host) == NAMES


def test_status_says_what_it_covers_and_why(home, host, capsys):
    last = NAMES[-1]
    target_home(host, last).mkdir(parents=True, exist_ok=True)
    cli.main(["status", "--home", str(home)])
    out = capsys.readouterr().out
    rows = [line.split()[0] for line in out.splitlines() if line and not line.startswith("covered:")]
    assert rows == [last]
    assert f"covered: {last}: every CLI installed (on PATH) or with a home folder here" in out
    cli.main(["status", "--home", str(home), "--target", NAMES[0]])
    assert "covered:" not in capsys.readouterr().out
