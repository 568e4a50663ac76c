"""[[policy.paths]] rules as Claude Code's own permissions.deny entries (its layer that holds
without the hook): how a rule is spelled, and the plan's member items next to the operator's
own entries -- added, kept, and removed (only ours) at uninstall."""
from __future__ import annotations

import fnmatch
import json

import pytest

from agentdeck.core import engine
from agentdeck.core.targets.claude import permissions as cp
from agentdeck.core.targets.output import DenyEntry
from tests.target_homes import target_home

KEYS = {"id": "private-keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
        "access": ["read", "write"], "decision": "deny", "reason": "private keys stay private"}
CLOUD = {"id": "cloud", "paths": ["~/.aws/credentials", "/etc/agentdeck-test/secret"],
         "except": [], "access": ["read"], "decision": "deny", "reason": "r"}


def _claude_match(entry_pattern: str, name: str) -> bool:
    """Claude's observed matching of one name (case-insensitive glob, classes positive)."""
    return fnmatch.fnmatchcase(name.lower(), entry_pattern.lower())


def test_a_rule_without_except_is_written_as_it_is():
    t = cp.translate(CLOUD)
    assert t.entries == ["Read(~/.aws/credentials)", "Read(//etc/agentdeck-test/secret)"]
    assert [w[1] for w in t.written] == ["as it is", "as it is"] and not t.skipped
    assert any("also stops Claude's Edit and Write" in n for n in t.notes)


def test_write_access_is_an_edit_entry_and_read_write_is_both():
    t = cp.translate({**CLOUD, "access": ["write"]})
    assert t.entries == ["Edit(~/.aws/credentials)", "Edit(//etc/agentdeck-test/secret)"]
    both = cp.translate({**CLOUD, "access": ["read", "write"]})
    assert both.entries == ["Read(~/.aws/credentials)", "Edit(~/.aws/credentials)",
                            "Read(//etc/agentdeck-test/secret)", "Edit(//etc/agentdeck-test/secret)"]


def test_an_except_suffix_is_spelled_into_the_pattern_and_never_denies_what_it_excepts():
    t = cp.translate(KEYS)
    reads = [e[len("Read("):-1] for e in t.entries if e.startswith("Read(")]
    assert len(reads) == 4 and all(r.startswith("~/.ssh/id_*[") for r in reads)
    names = {"id_rsa": True, "id_ed25519": True, "id_ecdsa_sk": True, "id_x.pubkey": True,
             "id_rsa.pub": False, "id_ed25519.pub": False, "id_foo.PUB": False,
             "known_hosts": False, "authorized_keys": False}
    for name, denied in names.items():
        got = any(_claude_match(r, f"~/.ssh/{name}") for r in reads)
        assert got == denied, name
    assert "not ending in .pub" in t.written[0][1]


@pytest.mark.parametrize("rule, why", [
    ({**KEYS, "paths": [".env"], "except": []}, "not under ~/ or /"),
    ({**KEYS, "paths": ["~/x/[!a]*"], "except": []}, "means something else"),
    ({**KEYS, "paths": ["~/.ssh/id_rsa.pub"]}, "covers it"),
    ({**KEYS, "except": ["~/.ssh/id_test"]}, "no exceptions"),
    ({**KEYS, "except": ["~/.ssh/*.pub", "~/.ssh/*.bak"]}, "only one"),
    ({**KEYS, "paths": ["~/**/id_*"]}, "overlap"),
    ({**KEYS, "decision": "ask"}, "only deny rules"),
])
def test_what_claude_cannot_express_is_left_to_the_hook_and_says_why(rule, why):
    t = cp.translate(rule)
    assert not t.entries and t.skipped and why in t.skipped[0][1], t.skipped


def test_normalized_spelling():
    t = cp.translate({**CLOUD, "paths": ["~/./.aws//credentials", "///etc/x"]})
    assert t.entries == ["Read(~/.aws/credentials)", "Read(//etc/x)"]


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
    """A profile `guarded` whose [policy] has the two [[policy.paths]] rules above."""
    d = host.config_dir / "profiles" / "guarded"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text(PROFILE)
    return "guarded"


def _deny(host):
    return json.loads((target_home(host, "claude") / "settings.json").read_text())["permissions"]["deny"]


def test_the_entries_join_the_operators_deny_list_and_uninstall_removes_only_ours(host, with_paths):
    s = target_home(host, "claude") / "settings.json"
    s.parent.mkdir(parents=True)
    theirs = ["Bash(curl:*)", "Read(~/.aws/credentials)"]      # the second is also one of ours
    s.write_text(json.dumps({"model": "sonnet", "permissions": {"deny": theirs,
                                                                "allow": ["Bash(ls)"]}}))
    plan = engine.build_plan(host, with_paths, ["claude"])
    items = [i for i in plan.items if i.label.startswith("permissions.deny ")]
    want = [e for t in cp.translations({"paths": [KEYS, CLOUD]}) for e in t.entries]
    assert sorted(i.label[len("permissions.deny "):] for i in items) == sorted(
        e for e in want if e != "Read(~/.aws/credentials)")
    info = plan.output["claude"].permissions
    assert info is not None
    assert DenyEntry("Read(~/.aws/credentials)", "cloud", "yours") in info.entries
    assert engine.apply_plan(host, plan).ok
    deny = _deny(host)
    assert deny[:2] == theirs and set(deny[2:]) == set(want) - {"Read(~/.aws/credentials)"}
    assert json.loads(s.read_text())["permissions"]["allow"] == ["Bash(ls)"]
    again = engine.build_plan(host, with_paths, ["claude"])
    assert not [i for i in again.items if again.action(i) in ("write", "remove")]

    # the operator adds one of their own later: kept, and uninstall takes out exactly ours
    doc = json.loads(s.read_text())
    doc["permissions"]["deny"].append("Read(~/secrets/**)")
    s.write_text(json.dumps(doc))
    un = engine.build_uninstall_plan(host, ["claude"])
    assert engine.apply_plan(host, un).ok
    assert _deny(host) == theirs + ["Read(~/secrets/**)"]


def test_a_permissions_value_that_is_not_an_object_is_left_alone(host, with_paths):
    s = target_home(host, "claude") / "settings.json"
    s.parent.mkdir(parents=True)
    s.write_text(json.dumps({"permissions": ["odd"]}))
    plan = engine.build_plan(host, with_paths, ["claude"])
    assert not [i for i in plan.items if i.label.startswith("permissions.deny ")]
    assert any("\"permissions\" is not an object" in n.message for n in plan.notices["claude"])


def test_a_profile_that_sets_permissions_itself_gets_no_member_items(host, with_paths):
    d = host.config_dir / "profiles" / "own-perms"
    (d / "claude").mkdir(parents=True)
    (d / "profile.toml").write_text(PROFILE)
    (d / "claude" / "settings.json").write_text('{"permissions": {"deny": ["Bash(rm:*)"]}}')
    plan = engine.build_plan(host, "own-perms", ["claude"])
    assert not [i for i in plan.items if i.label.startswith("permissions.deny ")]
    assert [i for i in plan.items if i.label == "permissions"]
    assert any("sets \"permissions\" itself" in n.message for n in plan.notices["claude"])


@pytest.mark.parametrize("path, written, skipped", [
    ("~/.ssh/*_rsa", ["Read(~/.ssh/*_rsa)"], None),         # its ending rules *.pub out
    ("~/.ssh/*.pem", ["Read(~/.ssh/*.pem)"], None),
    ("~/.ssh/*.pub", [], "covers it"),
    ("~/.ssh/*.PUB", [], "only in case"),
    ("~/.ssh/*ub", [], "may overlap"),                      # x.pub ends in ub too
])
def test_a_glob_with_a_fixed_ending_is_compared_with_the_except(path, written, skipped):
    t = cp.translate({**KEYS, "paths": [path], "access": ["read"]})
    assert t.entries == written
    if skipped:
        assert skipped in t.skipped[0][1]


def test_claudes_own_deny_is_always_written():
    """Claude Code's permissions.deny holds with no hook (observed): agentdeck always writes it."""
    from agentdeck.core import native_layers
    assert native_layers.native_deny("claude").written is True
