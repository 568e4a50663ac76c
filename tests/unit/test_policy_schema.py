"""[policy] in profile.toml: validated with file:line errors, extends-merged (rules by
id, a later profile's rule replaces the earlier one), exposed as plain data on the resolved
profile (profile.policy.on_error, profile.policy.rules), and kept by the profile cache."""
from __future__ import annotations

from pathlib import Path

import pytest

from agentdeck.core import model, profilecache, profiles
from agentdeck.core.errors import UserError

BASE = '''[profile]
extends = ["_base"]     # not default: its own rules would come first
description = "team rules"

[policy]
on_error = "allow"

[[policy.rules]]
id = "no-force-push"
tool = "shell"
match = 'git\\s+push\\b.*--force'
decision = "deny"
reason = "force-push is not allowed here"
examples = { deny = ["git push --force origin main"], allow = ["git push origin topic"] }

[[policy.rules]]
id = "ssh-keys"
tool = "read"
match = '\\.ssh/id_[a-z0-9]+$'
decision = "ask"
'''

CHILD = '''[profile]
extends = ["team"]

[policy]
on_error = "deny"

[[policy.rules]]
id = "ssh-keys"
tool = "read"
match = '\\.ssh/id_'
decision = "deny"
reason = "private keys stay private"

[[policy.rules]]
id = "no-curl-pipe"
tool = "shell"
match = 'curl .*\\|\\s*sh'
decision = "deny"
'''


def write_profile(host, name: str, text: str) -> Path:
    d = host.config_dir / "profiles" / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "profile.toml").write_text(text)
    return d / "profile.toml"


def test_rules_are_plain_data_on_the_resolved_profile(host):
    path = write_profile(host, "team", BASE)
    prof = profiles.resolve(host, "team")
    pol = prof.policy
    assert pol.on_error == "allow"
    assert [r.id for r in pol.rules] == ["no-force-push", "ssh-keys"]
    r = pol.rules[0]
    assert (r.tool, r.match, r.decision, r.reason) == (
        "shell", r"git\s+push\b.*--force", "deny", "force-push is not allowed here")
    assert r.examples.deny == ["git push --force origin main"]
    assert r.examples.allow == ["git push origin topic"] and r.examples.ask == []
    assert pol.rules[1].reason == "" and pol.sources["ssh-keys"] == str(path)
    assert pol.model_dump()["rules"][0] == {
        "id": "no-force-push", "tool": "shell", "match": r"git\s+push\b.*--force",
        "command": None, "args": [],
        "decision": "deny", "reason": "force-push is not allowed here",
        "examples": {"deny": ["git push --force origin main"], "ask": [],
                     "allow": ["git push origin topic"]}}


def test_no_policy_section_is_an_empty_policy_that_denies_on_error(host):
    write_profile(host, "plain", '[profile]\nextends = ["_base"]\n')
    pol = profiles.resolve(host, "plain").policy
    assert pol.on_error == "deny" and pol.rules == []


def test_extends_merges_rules_by_id(host):
    write_profile(host, "team", BASE)
    child = write_profile(host, "mine", CHILD)
    pol = profiles.resolve(host, "mine").policy
    assert pol.on_error == "deny"
    assert [r.id for r in pol.rules] == ["no-force-push", "ssh-keys", "no-curl-pipe"]
    ssh = pol.rules[1]
    assert (ssh.match, ssh.decision, ssh.reason) == (r"\.ssh/id_", "deny", "private keys stay private")
    assert pol.sources["ssh-keys"] == str(child) and pol.sources["no-curl-pipe"] == str(child)
    assert pol.sources["no-force-push"].endswith("team/profile.toml")


def test_policy_survives_the_cache(host):
    write_profile(host, "team", BASE)
    write_profile(host, "mine", CHILD)
    first = profiles.resolve(host, "mine")
    profilecache.save(host)
    cached = profilecache.load(host, "mine")
    assert cached is not None and cached == first
    assert cached.policy.rules[0].examples.deny == ["git push --force origin main"]
    assert cached.policy.model_dump() == first.policy.model_dump()


@pytest.mark.parametrize("body, expect, line", [
    ('[[policy.rules]]\nid = "a"\ntool = "shell"\nmatch = "ok"\ndecision = "deny"\n'
     '[[policy.rules]]\nid = "b"\ntool = "shell"\nmatch = "(unclosed"\ndecision = "deny"\n',
     "policy.rules.1.match: Value error, not a valid regular expression", 11),
    ('[[policy.rules]]\nid = "a"\ntool = "shell"\nmatch = "x"\ndecision = "deny"\n'
     '[[policy.rules]]\nid = "a"\ntool = "read"\nmatch = "y"\ndecision = "deny"\n',
     "policy.rules.1.id: duplicate policy rule id 'a'", 9),
    ('[[policy.rules]]\nid = "a"\ntool = "browser"\nmatch = "x"\ndecision = "deny"\n',
     "policy.rules.0.tool: Input should be 'shell', 'read', 'write', 'mcp', 'web', 'prompt' or 'any'", 5),
    ('[[policy.rules]]\nid = "a"\ntool = "shell"\nmatch = "x"\ndecision = "block"\n',
     "policy.rules.0.decision: Input should be 'deny', 'ask' or 'allow'", 7),
    ('[[policy.rules]]\nid = "../a"\ntool = "shell"\nmatch = "x"\ndecision = "deny"\n',
     "policy.rules.0.id: Value error, invalid policy rule id", 4),
    ('[[policy.rules]]\nid = "a"\ntool = "shell"\nmatch = "x"\ndecision = "deny"\n'
     'examples = { deny = "not a list" }\n', "policy.rules.0.examples.deny: Input should be a valid list", 8),
    ('[policy]\non_error = "ask"\n', "policy.on_error: Input should be 'deny' or 'allow'", 4),
    ('[policy]\nmode = "strict"\n', "policy.mode: unknown field", 4),
    ('[[policy.rules]]\nid = "a"\ntool = "shell"\ndecision = "deny"\n',
     "policy.rules.0: Value error, a rule needs match (a regex on the raw subject) or command", 3),
])
def test_each_policy_mistake_is_one_line_with_file_and_line(host, body, expect, line):
    path = write_profile(host, "evil", '[profile]\nextends = ["default"]\n' + body)
    with pytest.raises(UserError) as e:
        profiles.resolve(host, "evil")
    msg = str(e.value)
    assert msg.startswith(f"{path}:{line}:"), msg
    assert expect in msg, msg
    assert "\n" not in msg


def test_the_runtime_rule_class_is_named_for_the_schema():
    from agentdeck.core import schema
    rule = model.decode(model.encode(schema.PolicyRule(id="a", tool="any", match=".", decision="allow")))
    assert type(rule).__name__ == "PolicyRule" and rule.examples.deny == []
