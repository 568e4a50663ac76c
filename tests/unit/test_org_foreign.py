"""An administrator's own file where a CLI's org layer goes, the org commands' root prefix from
AGENTDECK_ORG_ROOT, and the org drill under a root prefix -- against a temporary root prefix,
never the machine's /etc.

A layer file at the CLI's own name (a requirements.toml agentdeck adds a block to, a system
settings file agentdeck writes whole) may be the administrator's alone: until agentdeck's block
or hook is in it, there is no org layer -- the doctor shows no row, the Org tab says not
installed and names the file, `org status` says the layer is not in effect when the plan keeps
the administrator's file."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agentdeck.core import cli
from agentdeck.core.doctor.context import Ctx
from agentdeck.core.doctor.org_checks import findings as doctor_rows
from agentdeck.core.facts import org as F
from agentdeck.core.host import Host
from agentdeck.core.org.found import ROOT_ENV, found
from agentdeck.core.views import org as org_view
from tests.conftest import snapshot_tree

SYSTEM = ("etc", "usr/local/lib", "var/lib")
SHARED = [t for t in F.names() if F.ORG[t].shared]
#: the administrator's own file, in the layer file's format
MINE = {".toml": "# the administrator's\nallowed_approval_policies = [\"never\"]\n",
        ".json": '{"general": {"vimMode": true}}\n'}


@pytest.fixture
def root(tmp_path) -> Path:
    r = tmp_path / "root"
    for d in SYSTEM:
        (r / d).mkdir(parents=True)
        p = r / d
        while p != r:
            os.chmod(p, 0o755)
            p = p.parent
    os.chmod(r, 0o755)
    return r


@pytest.fixture
def ohost(home, root) -> Host:
    return Host.from_environment(home, env={"HOME": str(home), "PATH": "/usr/bin:/bin",
                                            ROOT_ENV: str(root)})


def org(*args, home, root) -> int:
    return cli.main(["org", *args, "--home", str(home), "--root", str(root)])


def admin_file(root: Path, t: str) -> Path:
    p = root / F.ORG[t].path.lstrip("/")
    p.parent.mkdir(parents=True, exist_ok=True)
    for d in (p.parent, p.parent.parent):
        os.chmod(d, 0o755)
    p.write_text(MINE[p.suffix])
    os.chmod(p, 0o644)
    return p


def test_some_layer_files_are_shared_and_drop_ins_are_not():
    assert SHARED, "no CLI's layer file may be the administrator's: nothing to test here"
    assert any(not F.ORG[t].shared for t in F.names())
    for t in F.names():
        f = F.ORG[t]
        assert f.shared == (f.kind == "block" or f.shared_name)
        assert f.kind != "block" or f.marks          # a block is known by its marker


@pytest.mark.parametrize("t", SHARED)
def test_an_administrator_s_own_file_there_is_no_org_layer(ohost, root, t):
    p = admin_file(root, t)
    before = snapshot_tree(root)
    lay = found(ohost, t)
    assert not lay.present and lay.foreign and lay.rules is None and lay.ownership == ()
    v = org_view.of(ohost, t)
    assert not v.installed and v.foreign and v.result == "" and v.file == str(p)
    # no doctor row for it (before, two errors: no compiled policy, the hook not run)
    assert [f for f in doctor_rows(Ctx(host=ohost)) if f.target == t] == []
    assert snapshot_tree(root) == before


def test_nothing_there_is_not_foreign(ohost):
    for t in F.names():
        v = org_view.of(ohost, t)
        assert not v.installed and not v.foreign


@pytest.mark.parametrize("t", SHARED)
def test_after_apply_the_file_is_agentdeck_s_or_the_status_says_the_layer_is_not_in_effect(
        home, root, ohost, capsys, t):
    p = admin_file(root, t)
    assert org("apply", "--yes", "-t", t, home=home, root=root) == 0
    capsys.readouterr()
    code = org("status", "--json", "-t", t, home=home, root=root)
    [row] = json.loads(capsys.readouterr().out)
    v = org_view.of(ohost, t)
    if F.ORG[t].kind == "block":                     # the block added at the top: installed
        assert v.installed and v.runs_hook and not v.foreign and v.result == "ok"
        assert row["in_effect"] is True and row["state"] == "in sync" and code == 0
        return
    # a whole file of agentdeck's: the administrator's is kept, so no org hook runs
    assert p.read_text() == MINE[p.suffix]
    assert not v.installed and v.foreign
    assert row["installed"] is True and row["in_effect"] is False and code == 2
    assert row["state"].startswith(f"not in effect: {p} is kept as yours")
    assert f"--take {p}" in row["state"]
    assert org("apply", "--yes", "-t", t, "--take", str(p), home=home, root=root) == 0
    capsys.readouterr()
    assert org("status", "--json", "-t", t, home=home, root=root) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["in_effect"] is True and row["state"] == "in sync"
    v = org_view.of(ohost, t)
    assert v.installed and v.runs_hook and v.result == "ok"
    assert org("uninstall", "--yes", "-t", t, home=home, root=root) == 0
    assert p.read_text() == MINE[p.suffix]            # given back byte for byte


def test_the_org_commands_put_the_layer_under_agentdeck_org_root(home, root, capsys,
                                                                 monkeypatch):
    monkeypatch.setenv(ROOT_ENV, str(root))
    assert cli.main(["org", "plan", "--home", str(home)]) == 2
    assert capsys.readouterr().out.startswith(f"org layer under {root}\n")
    assert cli.main(["org", "apply", "--yes", "--home", str(home)]) == 0
    for t in F.names():
        assert (root / F.ORG[t].path.lstrip("/")).is_file(), t
    capsys.readouterr()
    assert cli.main(["org", "status", "--home", str(home)]) == 0
    got = capsys.readouterr()
    assert f"org layer under {root}" in got.err and got.out.split()[1:3] == ["in", "sync"]
    # --root given wins over the variable
    other = root.parent / "other"
    other.mkdir(mode=0o755)
    assert cli.main(["org", "plan", "--home", str(home), "--root", str(other)]) == 2
    assert capsys.readouterr().out.startswith(f"org layer under {other}\n")


def test_the_org_drill_runs_no_turn_under_a_root_prefix(home, root, capsys):
    assert org("apply", "--yes", home=home, root=root) == 0
    capsys.readouterr()
    assert org("drill", "--json", home=home, root=root) == 1
    doc = json.loads(capsys.readouterr().out)
    assert [r["target"] for r in doc["targets"]] == list(F.names())
    for r in doc["targets"]:
        assert r["status"] == "skipped" and r["attempts"] == [] and r["edits"] == {}
        assert r["problems"] == [f"no turn under the root prefix {root}: the CLIs read the "
                                 "machine's own /etc, so a turn would not test this layer "
                                 "(drill where the layer is at /: in the image, or a mount "
                                 "namespace)"]
