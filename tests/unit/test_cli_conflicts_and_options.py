"""`apply --yes` with an undecided conflict applies the rest, names the conflicts left
and exits 2 (as `plan` does); --keep / --take decide them. The options commands
share are accepted before the command too (`agentdeck --home DIR plan`)."""
from __future__ import annotations

import re
import json

import pytest

from agentdeck.core.targets import registry

from agentdeck.core import cli, engine
from agentdeck.core.host import Host


@pytest.fixture
def pinned(home):
    """A home whose operator set a key agentdeck pins: disableAllHooks is a conflict."""
    (home / ".copilot").mkdir()
    (home / ".copilot" / "settings.json").write_text('{"disableAllHooks": true}\n')
    return home


def run(capsys, *argv):
    rc = cli.main([str(a) for a in argv])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_apply_yes_applies_the_rest_names_the_conflict_and_exits_2(pinned, capsys):
    rc, out, err = run(capsys, "apply", "--home", pinned, "--target", "copilot", "--yes")
    assert rc == 2
    assert "1 conflict left undecided" in err and "disableAllHooks" in err
    assert "--keep ID or --take ID" in err
    assert "The plan is now empty" not in out
    assert (pinned / ".copilot" / "hooks" / "agentdeck.json").exists()       # the rest applied
    assert json.loads((pinned / ".copilot" / "settings.json").read_text())["disableAllHooks"] is True
    # still undecided: not recorded as the operator's choice; plan and a second apply say so
    plan = engine.build_plan(Host.from_environment(pinned), "default", ["copilot"])
    assert [i.label for i in plan.undecided_conflicts()] == ["disableAllHooks"]
    assert not plan.has_changes
    rc, _, err = run(capsys, "plan", "--home", pinned, "--target", "copilot")
    assert rc == 2
    rc, _, err = run(capsys, "apply", "--home", pinned, "--target", "copilot", "--yes")
    assert rc == 2 and "disableAllHooks" in err


def test_apply_json_lists_the_conflicts_left(pinned, capsys):
    rc, out, err = run(capsys, "apply", "--home", pinned, "--target", "copilot", "--yes", "--json")
    assert rc == 2
    doc = json.loads(out)
    assert [i.endswith('#["disableAllHooks"]') for i in doc["result"]["conflicts_left"]] == [True]
    assert "disableAllHooks" in err


def test_keep_decides_the_conflict(pinned, capsys, handler_on_path):
    rc, _, err = run(capsys, "apply", "--home", pinned, "-t", "copilot", "--yes",
                     "--keep", "disableAllHooks")
    assert rc == 0, err
    assert json.loads((pinned / ".copilot" / "settings.json").read_text())["disableAllHooks"] is True
    plan = engine.build_plan(Host.from_environment(pinned), "default", ["copilot"])
    assert plan.undecided_conflicts() == []


def test_take_decides_the_conflict(pinned, capsys, handler_on_path):
    rc, _, err = run(capsys, "apply", "--home", pinned, "-t", "copilot", "--yes",
                     "--take", "disableAllHooks")
    assert rc == 0, err
    assert json.loads((pinned / ".copilot" / "settings.json").read_text())["disableAllHooks"] is False


def test_a_conflict_decided_after_a_partial_apply(pinned, capsys, handler_on_path):
    assert run(capsys, "apply", "--home", pinned, "-t", "copilot", "--yes")[0] == 2
    rc, _, err = run(capsys, "apply", "--home", pinned, "-t", "copilot", "--yes",
                     "--take", "disableAllHooks")
    assert rc == 0, err
    assert run(capsys, "plan", "--home", pinned, "-t", "copilot")[0] == 0


def test_home_before_the_command(home, capsys):
    after = run(capsys, "plan", "--home", home, "--target", "copilot", "--json")
    before = run(capsys, "--home", home, "--target", "copilot", "--json", "plan")
    assert before[0] == after[0] == 2
    assert json.loads(before[1]) == json.loads(after[1])
    assert json.loads(before[1])["home"] == str(home)


def test_after_the_command_wins_and_targets_add_up(home, tmp_path, capsys):
    other = tmp_path / "other"
    other.mkdir()
    rc, out, _ = run(capsys, "--home", other, "plan", "--home", home, "--json")
    assert json.loads(out)["home"] == str(home)
    a, b = registry.NAMES[:2]          # any two registered targets
    rc, out, _ = run(capsys, "--target", a, "plan", "--home", home, "--target", b, "--json")
    assert json.loads(out)["targets"] == [a, b]
    rc, out, _ = run(capsys, "-p", "_base", "--home", home, "plan", "--json")
    assert json.loads(out)["profile"] == "_base"


def test_an_option_the_command_does_not_have_is_refused(home, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--home", str(home), "demo"])
    assert e.value.code == 2
    assert "--home does not apply to demo" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.main(["--target", "copilot", "profiles"])
    assert "--target does not apply to profiles" in capsys.readouterr().err


def test_no_command_still_prints_help(capsys):
    assert cli.main([]) == 0
    assert "COMMAND" in capsys.readouterr().out


def test_the_doctor_says_how_to_decide_a_conflict_not_that_apply_asks(pinned):
    """A conflict's fix names --keep / --take (apply does not ask: issue 31.6)."""
    from agentdeck.core import doctor
    host = Host.from_environment(pinned)
    found = [f for f in doctor.run(host, "default", ["copilot"]) if re.search(r"\d+ conflicts?\b", f.message)]
    assert found, "the doctor reports no conflict on a home with one"
    assert "--keep ID" in found[0].fix and "--take ID" in found[0].fix
    assert "asks" not in found[0].fix
