"""The Org tab's view (core/views/org.py) of each CLI's org layer, read under a temporary root
prefix (AGENTDECK_ORG_ROOT; never the machine's /etc) after a real `agentdeck org apply --root`:
what it says agrees with the files written and with the doctor's `<target>.org.layer` row."""
from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest

from agentdeck.core import cli
from agentdeck.core.doctor.context import Ctx
from agentdeck.core.doctor.findings import Finding
from agentdeck.core.doctor.org_checks import findings as doctor_rows
from agentdeck.core.facts import org as F
from agentdeck.core.host import Host
from agentdeck.core.targets import registry
from agentdeck.core.views import org
from tests.conftest import snapshot_tree

SYSTEM = ("etc", "usr/local/lib", "var/lib")


@pytest.fixture
def root(tmp_path) -> Path:
    """An empty root prefix, its folders root's 0755 as / is (tmp_path's are 0700)."""
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
                                            "AGENTDECK_ORG_ROOT": str(root)})


def apply(home, root, *flags) -> None:
    assert cli.main(["org", "apply", "--yes", "--home", str(home), "--root", str(root),
                     *flags]) == 0


def test_before_any_apply_each_cli_with_an_org_part_says_not_installed(ohost, root):
    before = snapshot_tree(root)
    for t in F.names():
        v = org.of(ohost, t)
        assert v.has_layer and not v.installed and v.result == ""
        assert v.path == F.ORG[t].path and v.file == str(root / F.ORG[t].path.lstrip("/"))
        assert v.command == f"sudo agentdeck org apply --root {root}"
    assert snapshot_tree(root) == before                 # the view reads only


def test_after_apply_the_view_says_what_the_layer_files_hold(home, root, ohost):
    apply(home, root)
    pol_ids = None
    for t in F.names():
        v = org.of(ohost, t)
        assert v.installed and v.runs_hook and v.policy_found and v.ownership_ok
        assert v.result == "ok" and v.ownership == () and v.problems == ()
        assert v.verified == F.ORG[t].verified and v.hook_event == F.ORG[t].pre_tool_event
        compiled = json.loads((root / F.LIB_DIR.lstrip("/") / "policy" / f"{t}.json")
                              .read_text())
        assert [r.id for r in v.rules] == [p["id"] for p in compiled["paths"]] + \
            [r["id"] for r in compiled["rules"]]
        assert v.denies == sum(1 for r in compiled["paths"] + compiled["rules"]
                               if r["decision"] == "deny")
        assert v.rules and all(r.what for r in v.rules)
        pol_ids = pol_ids or [r.id for r in v.rules]
        # every key the target's org facts name is listed (set or not)
        assert [k.key for k in v.keys] == [".".join(k) for k in F.ORG[t].keys.values()]
        assert v.limits == tuple(F.ORG[t].limits)


def test_the_keys_a_flag_sets_are_shown_set(home, root, ohost):
    apply(home, root, "--managed-hooks-only", "--no-bypass")
    seen = {}
    for t in F.names():
        for k in org.of(ohost, t).keys:
            seen[(t, k.name)] = k
    mho = [k for (t, name), k in seen.items() if name == "managed hooks only"]
    nb = [k for (t, name), k in seen.items() if name == "no bypass"]
    assert mho and all(k.set and k.value == "true" for k in mho)
    assert nb and all(k.set and k.value == '"disable"' for k in nb)
    apply(home, root)                                    # without them: back to not set
    assert not any(k.set for t in F.names() for k in org.of(ohost, t).keys
                   if k.name in ("managed hooks only", "no bypass"))


def test_the_mcp_lists_are_read_where_each_cli_keeps_them(home, root, ohost):
    """The profile's [org] MCP lists (here from the flags): in the layer file, in another system
    file of the CLI's (FACTS.keys_path), or as a table of names ("<name>" in the key path)."""
    apply(home, root, "--mcp-deny", "github", "--mcp-allow", "memory")
    checked = 0
    for t in F.names():
        keys = {k.name: k for k in org.of(ohost, t).keys}
        for option, name in (("mcp_denied", "github"), ("mcp_allowed", "memory")):
            if option in F.ORG[t].keys:
                assert keys[option.replace("_", " ")].value == name, (t, keys)
                checked += 1
    assert checked >= 3
    elsewhere = [t for t in F.names() if F.ORG[t].keys_path]
    for t in elsewhere:                     # the keys' own file is on the ownership path too
        f = root / F.ORG[t].keys_path.lstrip("/")
        assert f.is_file()
        os.chown(f, 1000, 1000)
        v = org.of(ohost, t)
        assert v.keys_path == F.ORG[t].keys_path
        assert any(w.startswith(f"{f}: ") and "owned by uid 1000" in w for w in v.ownership)


def test_the_view_agrees_with_the_doctor_row_and_names_each_failing_file(home, root, ohost):
    apply(home, root)
    t = F.names()[-1]
    layer_dir = (root / F.ORG[t].path.lstrip("/")).parent
    os.chmod(layer_dir, 0o777)
    policy = root / F.LIB_DIR.lstrip("/") / "policy" / f"{t}.json"
    os.chown(policy, 1000, 1000)
    v = org.of(ohost, t)
    assert v.result == "error" and not v.ownership_ok
    assert any(w.startswith(f"{layer_dir}: ") and "group- or world-writable (mode 0777)" in w
               for w in v.ownership), v.ownership
    assert any(w.startswith(f"{policy}: ") and "owned by uid 1000" in w
               for w in v.ownership), v.ownership
    rows = doctor_rows(Ctx(host=ohost))
    for name in F.names():
        worst = {f.result for f in rows if f.target == name}
        assert org.of(ohost, name).result == ("error" if "error" in worst else "ok"), name
    errors = [f.message for f in rows if f.target == t and f.result == "error"]
    assert all(any(w in m for m in errors) for w in v.ownership)


def test_a_missing_compiled_policy_is_said(home, root, ohost):
    apply(home, root)
    t = F.names()[0]
    (root / F.LIB_DIR.lstrip("/") / "policy" / f"{t}.json").unlink()
    v = org.of(ohost, t)
    assert v.installed and not v.policy_found and v.rules == () and v.result == "error"


def test_a_layer_file_changed_by_hand_no_longer_runs_the_hook(home, root, ohost):
    apply(home, root)
    t = next(n for n in F.names() if F.ORG[n].path.endswith(".json"))
    f = root / F.ORG[t].path.lstrip("/")
    f.write_text("{}\n")
    v = org.of(ohost, t)
    assert v.installed and not v.runs_hook and v.result == "warning"


def test_a_target_without_an_org_part_has_no_org_layer(ohost, monkeypatch):
    first = registry.NAMES[0]
    real = registry.has_part
    monkeypatch.setattr(registry, "has_part",
                        lambda n, p: False if (n, p) == (first, "org") else real(n, p))
    v = org.of(ohost, first)
    assert not v.has_layer and not v.installed and v.title == registry.title(first)
    assert v.rules == () and v.path == ""


def test_the_live_row_is_the_doctors(ohost):
    t = F.names()[0]
    base = org.of(ohost, t)
    rows = [Finding(t, "ok", f"{t}.hooks.registered", "not this one"),
            Finding(t, "error", f"{t}.org.live", "the CLI does not see it", fix="check it",
                    live=True)]
    v = org.with_live(base, rows, True)
    assert v.live_checked and v.live == org.OrgLive("error", "the CLI does not see it",
                                                    "check it")
    assert org.with_live(base, rows[:1], True).live is None
    assert not org.with_live(base, None, False).live_checked


def test_the_views_are_frozen(ohost):
    v = org.of(ohost, F.names()[0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.installed = True  # type: ignore[misc]
