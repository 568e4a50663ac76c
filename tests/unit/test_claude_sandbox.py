"""[[policy.paths]] rules as entries of Claude Code's command sandbox (sandbox.filesystem.denyRead /
denyWrite), the floor under code that builds its own paths: how a rule is spelled, and the plan's
member items -- written only while the operator's own settings turn the sandbox on, next to the
operator's own entries, and removed (only ours) at uninstall."""
from __future__ import annotations

import fnmatch
import json

import pytest

from agentdeck.core import engine
from agentdeck.core.policy.enforcement import describe
from agentdeck.core.targets.claude import sandbox as cs
from agentdeck.core.targets.output import SandboxEntry, SandboxInfo
from tests.target_homes import target_home

KEYS = {"id": "private-keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
        "access": ["read", "write"], "decision": "deny", "reason": "private keys stay private"}
CLOUD = {"id": "cloud", "paths": ["~/.aws/credentials", "/etc/agentdeck-test/secret"],
         "except": [], "access": ["read"], "decision": "deny", "reason": "r"}


def test_a_rule_is_a_deny_read_entry_per_path_and_write_access_a_deny_write_entry():
    t = cs.translate(CLOUD)
    assert t.entries == [("denyRead", "~/.aws/credentials"),
                         ("denyRead", "/etc/agentdeck-test/secret")]
    assert [w[1] for w in t.written] == ["as it is", "as it is"] and not t.skipped
    both = cs.translate({**CLOUD, "access": ["read", "write"], "paths": ["~/.aws/credentials"]})
    assert both.entries == [("denyRead", "~/.aws/credentials"), ("denyWrite", "~/.aws/credentials")]
    assert any("dangerouslyDisableSandbox" in n for n in t.notes)


def test_an_except_is_spelled_into_case_sensitive_patterns_that_never_deny_what_it_excepts():
    t = cs.translate({**KEYS, "access": ["read"]})
    pats = [p for k, p in t.entries]
    assert len(pats) == 4 and all(p.startswith("~/.ssh/id_*[") and "!" not in p and "^" not in p
                                  for p in pats)
    # the sandbox matches case-sensitively, with positive classes only (facts.py SANDBOX)
    names = {"id_rsa": True, "id_ed25519": True, "id_ecdsa_sk": True, "id_rsa.pub": False,
             "id_ed25519.pub": False, "known_hosts": False, "ID_RSA": False}
    for name, denied in names.items():
        assert any(fnmatch.fnmatchcase(f"~/.ssh/{name}", p) for p in pats) == denied, name


@pytest.mark.parametrize("rule, why", [
    ({**KEYS, "paths": [".env"], "except": []}, "not under ~/ or /"),
    ({**KEYS, "paths": ["~/x/[!a]*"], "except": []}, "means something else"),
    ({**KEYS, "except": ["~/.ssh/*.pub", "~/.ssh/*.bak"]}, "only one"),
    ({**KEYS, "decision": "ask"}, "only deny rules"),
])
def test_what_the_sandbox_cannot_express_is_left_to_the_hook_and_says_why(rule, why):
    t = cs.translate(rule)
    assert not t.entries and t.skipped and why in t.skipped[0][1], t.skipped


def test_policy_show_names_the_sandbox_as_claudes_floor():
    floor = describe({"paths": [KEYS]}, "claude")["runtime_floor"]
    assert "sandbox.filesystem.denyRead" in floor and "sandbox.enabled" in floor


# ---- the plan ------------------------------------------------------------------------------

PROFILE = """[profile]
extends = ["_base"]

[[policy.paths]]
id = "private-keys"
paths = ["~/.ssh/id_*"]
except = ["~/.ssh/*.pub"]
access = ["read", "write"]
decision = "deny"
reason = "private keys stay private"

[[policy.paths]]
id = "cloud"
paths = ["~/.aws/credentials", "/etc/agentdeck-test/secret"]
access = ["read"]
decision = "deny"
reason = "r"
"""


@pytest.fixture
def with_paths(host):
    d = host.config_dir / "profiles" / "guarded"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text(PROFILE)
    return "guarded"


def _settings(host, doc: dict | None = None) -> dict:
    s = target_home(host, "claude") / "settings.json"
    if doc is not None:
        s.parent.mkdir(parents=True, exist_ok=True)
        s.write_text(json.dumps(doc))
    return json.loads(s.read_text())


def _report(plan) -> SandboxInfo:
    """The plan's typed report of Claude's sandbox."""
    got = plan.output["claude"].sandbox
    assert got is not None
    return got


def _sandbox_items(plan):
    return [i for i in plan.items if i.label.startswith("sandbox.filesystem.")]


def test_nothing_is_written_unless_the_operator_turned_the_sandbox_on(host, with_paths):
    _settings(host, {"model": "sonnet", "sandbox": {"enabled": False}})
    plan = engine.build_plan(host, with_paths, ["claude"])
    assert not _sandbox_items(plan)
    info = _report(plan)
    assert not info.enabled and "does not switch" in info.why
    assert engine.apply_plan(host, plan).ok
    assert _settings(host)["sandbox"] == {"enabled": False}


def test_the_entries_join_the_operators_lists_and_uninstall_removes_only_ours(host, with_paths):
    theirs = ["~/.aws/credentials", "~/private"]        # the first is also one of ours
    _settings(host, {"sandbox": {"enabled": True, "allowUnsandboxedCommands": False,
                                 "failIfUnavailable": True,
                                 "filesystem": {"denyRead": theirs, "allowWrite": ["/tmp/x"]}}})
    plan = engine.build_plan(host, with_paths, ["claude"])
    want = [e for t in cs.translations({"paths": [KEYS, CLOUD]}) for e in t.entries]
    labels = sorted(i.label for i in _sandbox_items(plan))
    assert labels == sorted(f"sandbox.filesystem.{k} {p}" for k, p in want
                            if (k, p) != ("denyRead", "~/.aws/credentials"))
    info = _report(plan)
    assert info.enabled and info.escape is False and info.fail_open is False
    assert SandboxEntry("denyRead", "~/.aws/credentials", "cloud", "yours") in info.entries
    assert not any("do not hold for" in n.message for n in plan.notices["claude"])
    assert engine.apply_plan(host, plan).ok
    fs = _settings(host)["sandbox"]["filesystem"]
    assert fs["denyRead"][:2] == theirs
    assert set(fs["denyRead"][2:]) == {p for k, p in want if k == "denyRead"} - {theirs[0]}
    assert set(fs["denyWrite"]) == {p for k, p in want if k == "denyWrite"}
    assert fs["allowWrite"] == ["/tmp/x"]
    again = engine.build_plan(host, with_paths, ["claude"])
    assert not [i for i in again.items if again.action(i) in ("write", "remove")]

    un = engine.build_uninstall_plan(host, ["claude"])
    assert engine.apply_plan(host, un).ok
    sb = _settings(host)["sandbox"]
    assert sb == {"enabled": True, "allowUnsandboxedCommands": False, "failIfUnavailable": True,
                  "filesystem": {"denyRead": theirs, "allowWrite": ["/tmp/x"]}}


@pytest.mark.parametrize("sandbox, holes", [
    ({"enabled": True}, ["dangerouslyDisableSandbox", "bubblewrap or socat is missing"]),
    ({"enabled": True, "failIfUnavailable": True}, ["dangerouslyDisableSandbox"]),
    ({"enabled": True, "allowUnsandboxedCommands": False}, ["bubblewrap or socat is missing"]),
])
def test_each_way_around_the_sandbox_left_open_is_a_warning(host, with_paths, sandbox, holes):
    _settings(host, {"sandbox": sandbox})
    plan = engine.build_plan(host, with_paths, ["claude"])
    info = _report(plan)
    assert _sandbox_items(plan)
    assert info.escape is ("allowUnsandboxedCommands" not in sandbox)
    assert info.fail_open is ("failIfUnavailable" not in sandbox)
    [warning] = [n.message for n in plan.notices["claude"] if "do not hold for" in n.message]
    for hole in ("dangerouslyDisableSandbox", "bubblewrap or socat is missing"):
        assert (hole in warning) == (hole in holes), warning


def test_a_deny_read_that_is_not_a_list_is_left_alone(host, with_paths):
    _settings(host, {"sandbox": {"enabled": True, "filesystem": {"denyRead": "odd"}}})
    plan = engine.build_plan(host, with_paths, ["claude"])
    assert not _sandbox_items(plan)
    assert any("denyRead in settings.json is not a list" in n.message
               for n in plan.notices["claude"])


def test_a_profile_that_sets_sandbox_itself_gets_no_member_items(host):
    d = host.config_dir / "profiles" / "own-sandbox"
    (d / "claude").mkdir(parents=True)
    (d / "profile.toml").write_text(PROFILE)
    (d / "claude" / "settings.json").write_text('{"sandbox": {"enabled": true}}')
    plan = engine.build_plan(host, "own-sandbox", ["claude"])
    assert not _sandbox_items(plan)
    assert [i for i in plan.items if i.label == "sandbox"]
    assert any("sets \"sandbox\" itself" in n.message for n in plan.notices["claude"])
