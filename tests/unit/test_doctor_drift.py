"""`doctor --since FILE` (core/doctor/drift.py): what counts as enforcement weakened between two
doctor runs, per CLI of the registry, and the one-line refusals of a bad FILE."""
from __future__ import annotations

import copy

import pytest

from agentdeck.core.doctor import drift
from agentdeck.core.errors import UserError
from agentdeck.core.targets import registry

from test_doctor_checks import make_host

TARGETS = tuple(registry.NAMES)


def doc(**per_target) -> dict:
    base = {"target": "", "hooks": "live", "guard": ["hook"],
            "drill": {"version": "1", "rules": {"r": "held"}, "classes": {"c": "held"}}}
    out = {"verdicts": [], "layers": {}}
    for t in TARGETS:
        v = copy.deepcopy(base)
        v["target"] = t
        v.update(per_target.get(t, {}))
        out["verdicts"].append(v)
        out["layers"][t] = [{"path": "~/x", "undoes": ""}]
    return out


@pytest.mark.parametrize("target", TARGETS)
def test_each_kind_of_weakening_is_named(target):
    old = doc()
    assert drift.weakened(old, doc()) == {}
    assert "its hooks were live, now inert" in drift.weakened(old, doc(**{target: {"hooks": "inert"}}))[target]
    assert "no longer guarded by hook" in drift.weakened(old, doc(**{target: {"guard": []}}))[target]
    new = doc()
    new["layers"][target] = [{"path": "~/.x/settings.local.json", "undoes": "disableAllHooks: True"}]
    assert drift.weakened(old, new)[target] == [
        "a layer now undoes agentdeck's hooks: ~/.x/settings.local.json"]
    worse = doc(**{target: {"drill": {"version": "2", "rules": {"r": "not held"},
                                      "classes": {"c": "asked"}}}})
    assert drift.weakened(old, worse)[target] == [
        "rule r held on 1, now not held on 2", "evasion class c held on 1, now asked on 2"]
    # a rule no longer tried, a CLI gone from the report, stronger: nothing weakened
    fewer = doc(**{target: {"drill": {"version": "2", "rules": {}, "classes": {}}}})
    assert drift.weakened(old, fewer) == {}
    gone = doc()
    gone["verdicts"] = [v for v in gone["verdicts"] if v["target"] != target]
    assert drift.weakened(old, gone) == {}
    assert drift.weakened(doc(**{target: {"hooks": "inert"}}), old) == {}


@pytest.mark.parametrize("text,needle", [("{bad", ":1:2: not JSON"), ("[]", "not an `agentdeck doctor --json`"),
                                         ('{"verdicts": 1}', "not an `agentdeck doctor --json`")])
def test_a_bad_since_file_is_one_line_naming_it(tmp_path, text, needle):
    host = make_host(_home(tmp_path))
    p = tmp_path / "since.json"
    p.write_text(text)
    with pytest.raises(UserError) as e:
        drift.load(host, p)
    assert str(p) in str(e.value) and needle in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(UserError, match="no such file"):
        drift.load(host, tmp_path / "missing.json")


def _home(tmp_path):
    h = tmp_path / "home"
    h.mkdir()
    return h
