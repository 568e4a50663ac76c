"""[[policy.paths]] rules in the operator's own Codex permission profile (Codex's sandbox layer
that holds without the hook): how a rule is spelled, when agentdeck writes it (only into a
profile the operator defined and selected), and that uninstall removes only its keys."""
from __future__ import annotations

import fnmatch

import pytest
import tomllib

from agentdeck.core import engine
from agentdeck.core.targets.codex import permissions as cx
from agentdeck.core.targets.output import PermissionProfileInfo
from tests.target_homes import target_home

KEYS = {"id": "private-keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
        "access": ["read", "write"], "decision": "deny", "reason": "r"}
AUTH = {"id": "auth", "paths": ["~/.ssh/authorized_keys", "~/.ssh/*.conf"], "except": [],
        "access": ["write"], "decision": "deny", "reason": "r"}


def test_read_rules_are_none_and_the_except_is_a_negated_class():
    t = cx.translate(KEYS)
    assert t.entries == [("~/.ssh/id_*[!b]", "none"), ("~/.ssh/id_*[!u]b", "none"),
                         ("~/.ssh/id_*[!p]ub", "none"), ("~/.ssh/id_*[!.]pub", "none")]
    for name, denied in {"id_rsa": True, "id_ed25519": True, "id_x.pubkey": True,
                         "id_rsa.pub": False, "id_foo.PUB": True, "known_hosts": False}.items():
        # fnmatch has Codex's class syntax and, with fnmatchcase, its case-sensitivity
        assert any(fnmatch.fnmatchcase(f"~/.ssh/{name}", p) for p, _ in t.entries) == denied, name


def test_exact_paths_are_one_file_globs_and_write_only_rules_stay_with_the_hook():
    """An exact path that does not exist can stop Codex 0.171.0 from starting a session; a glob
    that matches nothing cannot."""
    t = cx.translate({**KEYS, "paths": ["~/.aws/credentials", "/etc/x.db"], "except": []})
    assert t.entries == [("~/.aws/credential[s]", "none"), ("/etc/x.d[b]", "none")]
    assert fnmatch.fnmatchcase("~/.aws/credentials", t.entries[0][0])
    assert [w[1] for w in t.written] == ["as a one-file glob"] * 2
    w = cx.translate(AUTH)
    assert not w.entries and all("write-only" in why for _, why in w.skipped)


@pytest.mark.parametrize("config, why", [
    ({}, "selects no permission profile"),
    ({"default_permissions": ":workspace"}, "built-in :workspace"),
    ({"default_permissions": "mine"}, "does not define"),
    ({"default_permissions": "mine", "permissions": {"mine": {"filesystem": "x"}}}, "not a table"),
])
def test_no_profile_of_the_operators_means_no_entry(config, why):
    name, reason = cx.profile_name(config)
    assert name is None and why in reason


PROFILE = """[profile]
extends = ["_base"]

[[policy.paths]]
id = "private-keys"
paths = ["~/.ssh/id_*"]
except = ["~/.ssh/*.pub"]
access = ["read", "write"]
decision = "deny"
reason = "private keys stay private"
"""


def _profile(plan) -> str | None:
    """The operator's permission profile the plan writes into (its typed report)."""
    perm = plan.output["codex"].permissions
    assert isinstance(perm, PermissionProfileInfo)
    return perm.profile


@pytest.fixture
def guarded(host):
    d = host.config_dir / "profiles" / "guarded"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text(PROFILE)
    return "guarded"


def test_entries_go_into_the_operators_profile_and_uninstall_removes_only_ours(host, guarded):
    (host.home / ".ssh").mkdir()
    cfg = target_home(host, "codex") / "config.toml"
    cfg.parent.mkdir(parents=True)
    before = ('# my sandbox\ndefault_permissions = "mine"\n\n[permissions.mine]\n'
              'extends = ":workspace"\n\n[permissions.mine.filesystem]\n'
              '"~/.ssh/id_*[!b]" = "none"\n"~/private" = "none"\n')
    cfg.write_text(before)
    plan = engine.build_plan(host, guarded, ["codex"])
    items = [i for i in plan.items if i.label.startswith("permissions.mine.filesystem ")]
    assert len(items) == 4
    assert _profile(plan) == "mine"
    assert engine.apply_plan(host, plan).ok
    fs = tomllib.loads(cfg.read_text())["permissions"]["mine"]["filesystem"]
    assert fs == {"~/.ssh/id_*[!b]": "none", "~/private": "none", "~/.ssh/id_*[!u]b": "none",
                  "~/.ssh/id_*[!p]ub": "none", "~/.ssh/id_*[!.]pub": "none"}
    assert "# my sandbox" in cfg.read_text()
    again = engine.build_plan(host, guarded, ["codex"])
    assert not [i for i in again.items if again.action(i) in ("write", "remove")]
    assert engine.apply_plan(host, engine.build_uninstall_plan(host, ["codex"])).ok
    fs = tomllib.loads(cfg.read_text())["permissions"]["mine"]["filesystem"]
    assert fs == {"~/.ssh/id_*[!b]": "none", "~/private": "none"}     # theirs, as they were


def test_without_a_profile_of_theirs_nothing_is_written_and_the_plan_says_so(host, guarded):
    plan = engine.build_plan(host, guarded, ["codex"])
    assert not [i for i in plan.items if ".filesystem " in i.label]
    assert _profile(plan) is None
    assert any("hook is the only layer in Codex" in n.message for n in plan.notices["codex"])


def test_an_empty_filesystem_table_of_theirs_survives_apply_and_uninstall(host, guarded):
    """Uninstall once dropped an empty [permissions.<name>.filesystem] header that
    default_permissions pointed at, and Codex then refused the whole config."""
    (host.home / ".ssh").mkdir()
    cfg = target_home(host, "codex") / "config.toml"
    cfg.parent.mkdir(parents=True)
    before = ('default_permissions = "mine"\n\n[permissions.mine]\nextends = ":workspace"\n\n'
              '[permissions.mine.filesystem]\n')
    cfg.write_text(before)
    plan = engine.build_plan(host, guarded, ["codex"])
    assert [i for i in plan.items if i.label.startswith("permissions.mine.filesystem ")]
    assert engine.apply_plan(host, plan).ok
    assert engine.apply_plan(host, engine.build_uninstall_plan(host, ["codex"])).ok
    assert cfg.read_text() == before


def test_codexs_own_deny_is_written_on_a_condition():
    """Codex's permission profile is written only where it holds (its policy part says when)."""
    from agentdeck.core import native_layers
    assert native_layers.native_deny("codex").written == "conditional"
