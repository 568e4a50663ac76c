"""The command line: exit codes, refusal without a terminal, one-line errors, light imports."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentdeck.core import cli
from tests.conftest import CLI_HOME_VARS, snapshot_tree

REPO = Path(__file__).resolve().parents[2]


def run_cli(*args, env_extra=None, stdin=None):
    env = {k: v for k, v in os.environ.items()
           if k not in (*CLI_HOME_VARS, "AGENTDECK_STATE_DIR")}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "agentdeck.core.cli", *args], capture_output=True, text=True,
                          cwd=REPO, env=env, input=stdin, timeout=120)


def test_plan_exit_codes(home, capsys, handler_on_path):
    assert cli.main(["plan", "--home", str(home), "--target", "copilot"]) == 2
    out = capsys.readouterr().out
    assert "Plan:" in out and "to add" in out
    assert cli.main(["apply", "--home", str(home), "--target", "copilot", "--yes"]) == 0
    capsys.readouterr()
    assert cli.main(["plan", "--home", str(home), "--target", "copilot"]) == 0
    assert "No changes" in capsys.readouterr().out


def test_plan_json_is_the_documented_shape(home, capsys):
    assert cli.main(["plan", "--home", str(home), "--target", "copilot", "--json"]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == 1 and data["summary"]["changes_pending"] is True
    item = data["items"][0]
    for field in ("id", "target", "path", "kind", "class", "decision", "choices", "action",
                  "reason", "desired", "recorded", "actual"):
        assert field in item


def test_apply_without_terminal_or_yes_refuses_and_writes_nothing(home):
    before = snapshot_tree(home)
    r = run_cli("apply", "--home", str(home), "--target", "copilot", stdin="")
    assert r.returncode == 1
    assert "refusing to apply without a terminal" in r.stderr
    assert "Traceback" not in r.stderr
    assert snapshot_tree(home) == before


def test_plan_imports_no_textual():
    code = ("import sys, tempfile; from core import cli; d = tempfile.mkdtemp(); "
            "rc = cli.main(['plan', '--home', d, '--json']); "
            "heavy = [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')]; "
            "print('HEAVY=' + ','.join(heavy), file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                       timeout=120)
    assert "HEAVY=\n" in r.stderr or r.stderr.rstrip().endswith("HEAVY=")


@pytest.mark.parametrize("rel,text,expect", [
    (".copilot/settings.json", '{\n  "a": 1,,\n}\n', "settings.json:2:"),
    (".copilot/settings.json", '{"a": 1', "settings.json:1:"),
    (".codex/config.toml", 'model = "x"\n[broken\n', "config.toml:2:"),
])
def test_malformed_config_is_one_line_error_and_nothing_written(home, rel, text, expect):
    p = home / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    before = snapshot_tree(home)
    target = rel.split("/")[0].lstrip(".")
    from agentdeck.core import targets
    # a target gone from the registry fails this case (never a skip that keeps the run green)
    assert target in targets.available(), f"target {target} is not in the registry"
    r = run_cli("apply", "--home", str(home), "--target", target, "--yes")
    assert r.returncode == 1, r.stdout + r.stderr
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and expect in lines[0], r.stderr
    assert "Traceback" not in r.stderr
    assert snapshot_tree(home) == before


def test_malformed_profile_is_one_line_error(home):
    prof = home / ".config" / "agentdeck" / "profiles" / "mine"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["_base"]\ncolour = "red"\n')
    before = snapshot_tree(home)
    r = run_cli("plan", "--home", str(home), "--profile", "mine")
    assert r.returncode == 1
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and "profile.toml:3" in lines[0] and "colour" in lines[0], r.stderr
    assert snapshot_tree(home) == before


@pytest.mark.parametrize("text,line,shown", [
    ('[[policy.rules]]\nid = "no-rm"\ntool = "shell"\nmatch = "rm -rf"\ndecison = "deny"\n',
     7, "policy.rules.0.decison: unknown field (did you mean `decision`?)"),
    ('[hooks]\ntimout = 3\n', 4, "hooks.timout: unknown field (did you mean `timeout`?)"),
    ('[polcy]\non_error = "deny"\n', 3, "polcy: unknown field (did you mean `policy`?)"),
    ('[hooks]\nzzzz = 3\n', 4, "hooks.zzzz: unknown field"),       # nothing close: no guess
])
def test_a_typod_profile_key_is_named_with_a_suggestion(home, capsys, text, line, shown):
    """An unknown key comes before the missing field it also makes (`decison` is a missing
    `decision` too), and the closest field the schema allows there is suggested."""
    prof = home / ".config" / "agentdeck" / "profiles" / "mine"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n' + text)
    assert cli.main(["plan", "--home", str(home), "--profile", "mine"]) == 1
    err = capsys.readouterr().err
    assert err == f"agentdeck: error: {prof / 'profile.toml'}:{line}: {shown}\n"


def test_profiles_marks_an_invalid_profile(home, capsys):
    root = home / ".config" / "agentdeck" / "profiles"
    (root / "typo").mkdir(parents=True)
    (root / "typo" / "profile.toml").write_text('[profile]\nextneds = ["default"]\n')
    (root / "orphan").mkdir()
    (root / "orphan" / "profile.toml").write_text('[profile]\nextends = ["nosuch"]\n')
    (root / "fine").mkdir()
    (root / "fine" / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
    assert cli.main(["profiles", "--home", str(home)]) == 0
    out = capsys.readouterr().out
    rows = {ln.split()[0]: ln for ln in out.splitlines() if ln and not ln.startswith(" ")}
    assert rows["typo"].endswith("INVALID") and rows["orphan"].endswith("INVALID")
    assert "INVALID" not in rows["fine"] and "INVALID" not in rows["default"]
    assert "profile.extneds: unknown field (did you mean `extends`?)" in out
    assert "unknown profile 'nosuch'" in out
    assert cli.main(["profiles", "--home", str(home), "--json"]) == 0
    data = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert data["typo"]["valid"] is False and "extneds" in data["typo"]["error"]
    assert data["fine"]["valid"] is True and data["fine"]["error"] is None


def test_profile_cycle_and_bad_names(home):
    root = home / ".config" / "agentdeck" / "profiles"
    for a, b in (("a", "b"), ("b", "a")):
        (root / a).mkdir(parents=True)
        (root / a / "profile.toml").write_text(f'[profile]\nextends = ["{b}"]\n')
    r = run_cli("plan", "--home", str(home), "--profile", "a")
    assert r.returncode == 1 and "cycle" in r.stderr and "a -> b -> a" in r.stderr
    r = run_cli("plan", "--home", str(home), "--profile", "../etc")
    assert r.returncode == 1 and "invalid profile name" in r.stderr


def test_operator_profile_overrides_bundled(home, capsys):
    d = home / ".config" / "agentdeck" / "profiles" / "default"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text('[profile]\ndescription = "mine"\nextends = ["_base"]\n')
    assert cli.main(["profiles", "--home", str(home), "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["default"]["origin"] == "operator" and rows["default"]["overrides_bundled"]
    assert rows["_base"]["origin"] == "bundled"


def test_verbose_ids_are_the_home_form_and_are_accepted_back(home, capsys):
    """README: `--verbose` lists ids, the home as ~ (a key's member path too), and --keep /
    --take / --skip take them as printed."""
    assert cli.main(["plan", "--home", str(home), "--target", "claude", "--verbose"]) == 2
    out = capsys.readouterr().out
    ids = [ln.strip()[len("id: "):] for ln in out.splitlines() if ln.strip().startswith("id: ")]
    assert ids and all(i.startswith("~/") for i in ids), ids
    assert not any(str(home) in i for i in ids)
    hook = next(i for i in ids if '"PreToolUse"]@' in i)
    assert hook.endswith("]@~/.claude/agentdeck-hook.sh"), hook
    assert cli.main(["plan", "--home", str(home), "--target", "claude", "--json",
                     "--skip", hook]) == 2
    data = json.loads(capsys.readouterr().out)
    skipped = [i for i in data["items"] if i.get("decision") == "skip"]
    assert [i["id"] for i in skipped] == [hook.replace("~/", str(home) + "/")]
