"""The CLI's flags for reviewing a plan first and applying it later (docs/plan-format.md,
docs/fleet.md): `plan --json --diff` (each file before/after, redacted), `plan --uninstall`, and
`apply/uninstall --plan FILE` (refused, nothing written, unless the plan is still that one)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agentdeck.core import cli
from tests.conftest import snapshot_tree
from tests.unit.test_cli import run_cli

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def _json(capsys, argv, expect_rc=(0, 2)):
    rc = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert rc in expect_rc, err
    return json.loads(out)


def test_plan_diff_gives_each_file_before_and_after_as_apply_writes_it(home, capsys, handler_on_path):
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{\n  "model": "sonnet"\n}\n')
    before = snapshot_tree(home)
    doc = _json(capsys, ["plan", "--home", home, "-t", "claude", "--json", "--diff"])
    assert snapshot_tree(home) == before, "plan --diff wrote something"
    files = {f["path"]: f for f in doc["files"]}
    f = files[str(settings)]
    assert f["action"] == "write" and f["before"] == '{\n  "model": "sonnet"\n}\n'
    assert '"model": "sonnet"' in f["after"] and "SessionStart" in f["after"]
    created = files[str(home / ".claude" / "CLAUDE.md")]
    assert created["before"] is None and "agentdeck:begin" in created["after"]
    # every file the plan writes is there, and nothing else
    planned = {i["path"] for i in doc["items"] if i["action"] in ("write", "remove")}
    assert set(files) == planned
    # the texts are what apply then writes
    assert cli.main(["apply", "--home", str(home), "-t", "claude", "--yes"]) == 0
    capsys.readouterr()
    for path, f in files.items():
        p = Path(path)
        if f["action"] == "write":
            assert p.read_text() == f["after"], path
        elif f["action"] == "symlink":
            assert f["after"] == f"symbolic link to {os.readlink(p)}\n"
    # without --diff the document has no files (plan --json stays as fast as it was)
    assert "files" not in _json(capsys, ["plan", "--home", home, "-t", "claude", "--json"])


def test_plan_diff_redacts_credentials_in_both_texts(home, capsys):
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{\n  "env": {"GH": "%s", "API_TOKEN": "plain"}\n}\n' % TOKEN)
    r = run_cli("plan", "--home", str(home), "-t", "claude", "--json", "--diff")
    assert r.returncode == 2, r.stderr
    f = next(f for f in json.loads(r.stdout)["files"] if f["path"] == str(settings))
    for text in (f["before"], f["after"]):
        assert TOKEN not in text and "[REDACTED:github_token]" in text
    assert TOKEN not in r.stdout.split('"files"')[1]


def test_diff_needs_json(home, capsys):
    assert cli.main(["plan", "--home", str(home), "--diff"]) == 1
    assert "--diff needs --json" in capsys.readouterr().err


def test_plan_uninstall_is_the_uninstall_s_plan_and_writes_nothing(home, capsys, handler_on_path):
    assert cli.main(["apply", "--home", str(home), "-t", "claude", "--yes"]) == 0
    capsys.readouterr()
    installed = snapshot_tree(home)
    r = run_cli("plan", "--uninstall", "--home", str(home), "-t", "claude", "--json", "--diff")
    assert r.returncode == 2, r.stderr
    doc = json.loads(r.stdout)
    assert doc["mode"] == "uninstall" and doc["summary"]["remove"] > 0
    assert snapshot_tree(home) == installed
    gone = {f["path"] for f in doc["files"] if f["after"] is None}
    assert str(home / ".claude" / "CLAUDE.md") in gone
    # the document is the one `uninstall --plan` accepts and applies
    planfile = home.parent / "uninstall-plan.json"
    planfile.write_text(r.stdout)
    r = run_cli("uninstall", "--home", str(home), "-t", "claude", "--yes", "--json", "--plan",
                str(planfile))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["result"]["removed"]
    r = run_cli("plan", "--uninstall", "--home", str(home), "-t", "claude")
    assert r.returncode == 0 and "No changes" in r.stdout


def test_apply_plan_file_applies_that_plan(home, capsys, tmp_path, handler_on_path):
    doc = _json(capsys, ["plan", "--home", home, "-t", "claude", "--json"])
    planfile = tmp_path / "plan.json"
    planfile.write_text(json.dumps(doc))
    out = _json(capsys, ["apply", "--home", home, "-t", "claude", "--yes", "--json", "--plan",
                         planfile], expect_rc=(0,))
    assert out["plan"]["items"] == doc["items"]
    assert out["result"]["written"]


@pytest.mark.parametrize("change", ["file", "profile", "decisions"])
def test_apply_plan_file_refuses_a_plan_that_is_no_longer_the_one_shown(home, tmp_path, change):
    """Between the plan and the apply: a file the plan read changed, the profile changed, or the
    apply was given other decisions. Refused with one line, nothing written."""
    (home / ".claude").mkdir()
    settings = home / ".claude" / "settings.json"
    settings.write_text('{"model": "sonnet"}\n')
    profiles = home / ".config" / "agentdeck" / "profiles" / "team"
    profiles.mkdir(parents=True)
    (profiles / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
    r = run_cli("plan", "--home", str(home), "-t", "claude", "-p", "team", "--json")
    assert r.returncode == 2, r.stderr
    planfile = tmp_path / "plan.json"
    planfile.write_text(r.stdout)
    flags = []
    if change == "file":
        settings.write_text('{"model": "opus"}\n')
    elif change == "profile":
        (profiles / "AGENTS.md").write_text("Be brief.\n")
    else:
        flags = ["--skip", "CLAUDE.md"]
    before = snapshot_tree(home)
    r = run_cli("apply", "--home", str(home), "-t", "claude", "-p", "team", "--yes", "--json",
                "--plan", str(planfile), *flags)
    assert r.returncode == 1
    err = r.stderr.strip()
    assert "\n" not in err and "Traceback" not in err, err
    assert err.startswith("agentdeck: error: the plan computed now is not the one in"), err
    assert "nothing was written" in err
    if change == "file":
        assert "~/.claude/settings.json changed on disk" in err
    assert snapshot_tree(home) == before


def test_apply_plan_from_stdin(home, handler_on_path):
    r = run_cli("plan", "--home", str(home), "-t", "codex", "--json")
    r2 = run_cli("apply", "--home", str(home), "-t", "codex", "--yes", "--json", "--plan", "-",
                 stdin=r.stdout)
    assert r2.returncode == 0, r2.stderr
    assert json.loads(r2.stdout)["result"]["written"]


@pytest.mark.parametrize("text,expect", [
    ("not json", "not a `plan --json` document (Expecting value at line 1:1)"),
    ('{"format": 2, "items": []}', "not a `plan --json` document (format 1)"),
])
def test_apply_plan_file_that_is_not_a_plan(home, tmp_path, text, expect):
    planfile = tmp_path / "plan.json"
    planfile.write_text(text)
    before = snapshot_tree(home)
    r = run_cli("apply", "--home", str(home), "--yes", "--plan", str(planfile))
    assert r.returncode == 1 and expect in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert snapshot_tree(home) == before
    r = run_cli("apply", "--home", str(home), "--yes", "--plan", str(tmp_path / "none.json"))
    assert r.returncode == 1 and "does not exist" in r.stderr


def test_bare_cli_drift_gate_exit_codes(home, capsys, handler_on_path):
    """The single-runner drift gate (docs/fleet.md): plan --json exits 0 in sync, 2 drifted
    (here: the team's profile gained a command the runner does not have yet), and a hand-edit
    kept shows in summary.hand_edits_kept."""
    team = home / ".config" / "agentdeck" / "profiles" / "team"
    team.mkdir(parents=True)
    (team / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
    gate = ["plan", "--home", str(home), "-t", "claude", "-p", "team", "--json"]
    assert cli.main(["apply", "--home", str(home), "-t", "claude", "-p", "team", "--yes"]) == 0
    capsys.readouterr()
    assert cli.main(gate) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["changes_pending"] is False
    (team / "commands").mkdir()
    (team / "commands" / "standup.md").write_text("Summarise yesterday.\n")
    assert cli.main(gate) == 2
    doc = json.loads(capsys.readouterr().out)
    assert doc["summary"]["add"] == 1 and doc["summary"]["changes_pending"] is True
    (team / "commands" / "standup.md").unlink()
    (home / ".claude" / "commands" / "review.md").unlink()       # a hand-edit: kept, reported
    assert cli.main(gate) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["hand_edits_kept"] == 1
