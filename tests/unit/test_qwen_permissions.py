"""[[policy.paths]] rules as Qwen Code's own permissions.deny entries (its layer that holds
without the hook, docs/facts/qwen.md section 7): how a rule is spelled (`[^c]`, case-sensitive),
and the plan's member items in ~/.qwen/settings.json next to the operator's own entries --
added, kept, and removed (only ours) at uninstall, the file's comments kept."""
from __future__ import annotations

import json
import re

import pytest

from agentdeck.core import engine, native_layers
from agentdeck.core.targets.qwen import SPEC
from agentdeck.core.targets.qwen import permissions as qp
from agentdeck.core.targets.output import DenyEntry

KEYS = {"id": "private-keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
        "access": ["read", "write"], "decision": "deny", "reason": "private keys stay private"}
CLOUD = {"id": "cloud", "paths": ["~/.aws/credentials", "/etc/agentdeck-test/secret"],
         "except": [], "access": ["read"], "decision": "deny", "reason": "r"}


def _qwen_match(pattern: str, name: str) -> bool:
    """Qwen's observed matching of one name: case-sensitive, `*` within a name, `[^c]` negated,
    `[abc]` positive (picomatch in the bundle)."""
    rx = ""
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "*":
            rx += "[^/]*"
        elif c == "[":
            j = pattern.index("]", i)
            rx += "[" + pattern[i + 1:j] + "]"
            i = j
        else:
            rx += re.escape(c)
        i += 1
    return re.fullmatch(rx, name) is not None


def test_a_rule_without_except_is_written_as_it_is():
    t = qp.translate(CLOUD)
    assert t.entries == ["Read(~/.aws/credentials)", "Read(//etc/agentdeck-test/secret)"]
    assert [w[1] for w in t.written] == ["as it is", "as it is"] and not t.skipped


def test_write_access_is_an_edit_entry_and_read_write_is_both():
    assert qp.translate({**CLOUD, "access": ["write"]}).entries == [
        "Edit(~/.aws/credentials)", "Edit(//etc/agentdeck-test/secret)"]
    assert qp.translate({**CLOUD, "access": ["read", "write"]}).entries == [
        "Read(~/.aws/credentials)", "Edit(~/.aws/credentials)",
        "Read(//etc/agentdeck-test/secret)", "Edit(//etc/agentdeck-test/secret)"]


def test_an_except_suffix_is_spelled_with_qwens_negated_class():
    t = qp.translate(KEYS)
    reads = [e[len("Read("):-1] for e in t.entries if e.startswith("Read(")]
    assert reads == ["~/.ssh/id_*[^b]", "~/.ssh/id_*[^u]b", "~/.ssh/id_*[^p]ub",
                     "~/.ssh/id_*[^.]pub"]
    assert not any("[!" in e for e in t.entries)     # `[!c]` is no negation in Qwen
    names = {"id_rsa": True, "id_ed25519": True, "id_ecdsa_sk": True, "id_x.pubkey": True,
             "id_rsa.pub": False, "id_ed25519.pub": False, "known_hosts": False,
             "id_foo.PUB": True}          # case-sensitive, as the rule is: .PUB is not excepted
    for name, denied in names.items():
        assert any(_qwen_match(r, f"~/.ssh/{name}") for r in reads) == denied, name


@pytest.mark.parametrize("rule, why", [
    ({**KEYS, "paths": [".env"], "except": []}, "not under ~/ or /"),
    ({**KEYS, "paths": ["~/x/[!a]*"], "except": []}, "means something else"),
    ({**KEYS, "paths": ["~/x/[^a]*"], "except": []}, "means something else"),
    ({**KEYS, "paths": ["~/x/{a,b}"], "except": []}, "means something else"),
    ({**KEYS, "paths": ["~/x/@(a)"], "except": []}, "means something else"),
    ({**KEYS, "paths": ["~/.ssh/id_rsa.pub"]}, "covers it"),
    ({**KEYS, "decision": "ask"}, "only deny rules"),
])
def test_what_qwen_cannot_express_is_left_to_the_hook_and_says_why(rule, why):
    t = qp.translate(rule)
    assert not t.entries and t.skipped and why in t.skipped[0][1], t.skipped


def test_policy_show_names_qwens_layer_and_its_entries():
    row = native_layers.for_rule(KEYS, "qwen")
    assert not row["hook_only"] and "Qwen Code permissions.deny" in row["layer"]
    assert "Read(~/.ssh/id_*[^b])" in row["entries"] and row["verified"] == "0.24.4"
    assert native_layers.line(row).startswith(
        "also Qwen Code permissions.deny (~/.qwen/settings.json): 8 entries (verified 0.24.4)")


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


def _deny(path):
    text = "\n".join(ln for ln in path.read_text().splitlines() if not ln.strip().startswith("//"))
    return json.loads(text)["permissions"]["deny"]


def test_the_entries_join_the_operators_deny_list_and_uninstall_removes_only_ours(host, with_paths):
    s = SPEC.home(host) / "settings.json"
    s.parent.mkdir(parents=True)
    theirs = ["Bash(curl *)", "Read(~/.aws/credentials)"]       # the second is also one of ours
    original = ('{\n  // mine\n  "$version": 4,\n  "permissions": {"deny": '
                + json.dumps(theirs) + ', "allow": ["Bash(ls)"]}\n}\n')
    s.write_text(original)
    plan = engine.build_plan(host, with_paths, ["qwen"])
    items = [i for i in plan.items if i.label.startswith("permissions.deny ")]
    want = [e for t in qp.translations({"paths": [KEYS, CLOUD]}) for e in t.entries]
    assert sorted(i.label[len("permissions.deny "):] for i in items) == sorted(
        e for e in want if e != "Read(~/.aws/credentials)")
    info = plan.output["qwen"].permissions
    assert info is not None
    assert DenyEntry("Read(~/.aws/credentials)", "cloud", "yours") in info.entries
    assert engine.apply_plan(host, plan).ok
    deny = _deny(s)
    assert deny[:2] == theirs and set(deny[2:]) == set(want) - {"Read(~/.aws/credentials)"}
    assert "// mine" in s.read_text()
    again = engine.build_plan(host, with_paths, ["qwen"])
    assert not [i for i in again.items if again.action(i) in ("write", "remove")]
    assert engine.apply_plan(host, engine.build_uninstall_plan(host, ["qwen"])).ok
    assert s.read_text() == original


def test_a_permissions_value_that_is_not_an_object_is_left_alone(host, with_paths):
    s = SPEC.home(host) / "settings.json"
    s.parent.mkdir(parents=True)
    s.write_text(json.dumps({"$version": 4, "permissions": ["odd"]}))
    plan = engine.build_plan(host, with_paths, ["qwen"])
    assert not [i for i in plan.items if i.label.startswith("permissions.deny ")]
    assert any("\"permissions\" is not an object, so Qwen ignores it" in n.message
               for n in plan.notices["qwen"])


def test_a_profile_that_sets_permissions_itself_gets_no_member_items(host):
    d = host.config_dir / "profiles" / "own-perms"
    (d / "qwen").mkdir(parents=True)
    (d / "profile.toml").write_text(PROFILE)
    (d / "qwen" / "settings.json").write_text('{"permissions": {"deny": ["Bash(rm *)"]}}')
    plan = engine.build_plan(host, "own-perms", ["qwen"])
    assert not [i for i in plan.items if i.label.startswith("permissions.deny ")]
    assert [i for i in plan.items if i.label == "permissions"]
    assert any("sets \"permissions\" itself" in n.message for n in plan.notices["qwen"])
