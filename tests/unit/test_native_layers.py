"""`policy show`'s answer to "what else enforces this paths rule": Claude's own permissions.deny
where the rule can be spelled there, the hook alone in Copilot and Codex (and why)."""
from __future__ import annotations

from agentdeck.core import native_layers
from agentdeck.core.targets import registry

KEYS = {"id": "private-keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
        "access": ["read", "write"], "decision": "deny", "reason": "r"}


def test_claude_names_its_layer_and_the_entries():
    row = native_layers.for_rule(KEYS, "claude")
    assert row["hook_only"] is False and "permissions.deny" in row["layer"]
    assert len(row["entries"]) == 8 and row["verified"] == registry.part("claude", "facts").PERMISSIONS_VERIFIED
    assert native_layers.line(row).startswith("also Claude Code permissions.deny")


def test_copilot_says_the_hook_is_the_only_layer_and_why():
    row = native_layers.for_rule(KEYS, "copilot")
    assert row["hook_only"] and not row["entries"]
    assert row["why"].startswith(native_layers.HOOK_ONLY) and "--deny-tool" in row["why"]


def test_codex_names_its_conditional_layer():
    row = native_layers.for_rule(KEYS, "codex")
    assert not row["hook_only"] and row["conditional"] and "permission profile" in row["layer"]
    assert ["~/.ssh/id_*[!b]", "none"] in row["entries"]
    assert "default_permissions names a profile you defined" in row["why"]
    assert "only layer" in row["why"]


def test_a_claude_rule_it_cannot_spell_is_hook_only_there_too():
    row = native_layers.for_rule({**KEYS, "paths": [".env"], "except": []}, "claude")
    assert row["hook_only"] and "not under ~/ or /" in row["why"]
    mixed = native_layers.for_rule({**KEYS, "paths": ["~/.ssh/id_*", ".env"]}, "claude")
    assert not mixed["hook_only"] and ".env" in mixed["why"]


def test_describe_lists_every_paths_rule():
    rows = native_layers.describe({"rules": [], "paths": [KEYS, {**KEYS, "id": "b"}]}, "claude")
    assert [r["rule"] for r in rows] == ["private-keys", "b"]
    assert native_layers.describe(None, "claude") == []


def test_each_targets_native_deny_is_data_with_the_version_verified():
    """Each target's policy part describes its CLI's own path deny (NATIVE_DENY): facts with the
    version verified, and a translation wherever agentdeck writes the layer; `policy show` asks
    the parts, never a table keyed by target name."""
    seen = {}
    for spec in registry.TARGETS:
        layer = native_layers.native_deny(spec.name)
        if layer is None:
            continue
        seen[spec.name] = layer.written
        assert layer.verified and layer.facts, spec.name
        assert {f.verified for f in layer.facts} == {layer.verified}, spec.name
        assert {f.source for f in layer.facts} <= {"observed", "documented"}, spec.name
        assert layer.written in (True, False, "conditional"), spec.name
        if layer.written:
            assert callable(layer.translate) and layer.layer, spec.name
        if layer.written is not True:
            assert layer.why, spec.name
        assert native_layers.for_rule(KEYS, spec.name)["verified"] == layer.verified
    assert seen, "no target describes its CLI's own path deny"    # each CLI's value: its module
    assert native_layers.native_deny("repo") is None


def test_policy_show_names_each_clis_runtime_floor_or_nothing(home, capsys):
    """Per CLI, what stops code that builds its own paths at run time: the layer its policy part
    names (RUNTIME_FLOOR), or "nothing" -- printed by `policy show`, asked of the parts."""
    from agentdeck.core import cli   # local: the CLI entry, for this one test

    assert cli.main(["policy", "show", "--home", str(home)]) == 0
    printed, current = {}, None
    for line in capsys.readouterr().out.splitlines():
        if line and not line.startswith(" "):
            current = line.split()[0]
        elif "code that builds its own paths at run time is stopped by: " in line:
            printed[current] = line.split("is stopped by: ", 1)[1]
    want = {spec.name: getattr(registry.part(spec.name, "policy"), "RUNTIME_FLOOR", "")
            or "nothing" for spec in registry.TARGETS if registry.has_part(spec.name, "policy")}
    assert want and {t: printed.get(t) for t in want} == want
    assert printed.get("repo") == "nothing"
    assert any(f != "nothing" for f in want.values())
    assert "sandbox.enabled" in want["claude"]


def test_a_sandbox_floor_is_data_too_and_policy_show_lists_its_entries_per_rule():
    """A policy part's FLOOR (the CLI's sandbox as a layer of its own) is a NativeDeny like
    NATIVE_DENY: facts with the version verified, conditional with the reason; per rule,
    `policy show` (enforcement.describe) gives its entries beside the own layer's."""
    from agentdeck.core.policy.enforcement import describe   # local: policy show's data

    seen = []
    for spec in registry.TARGETS:
        floor = native_layers.native_deny(spec.name, "FLOOR")
        if floor is None:
            continue
        seen.append(spec.name)
        assert floor.verified and {f.verified for f in floor.facts} == {floor.verified}
        assert floor.written == "conditional" and floor.why and callable(floor.translate)
        row = native_layers.for_rule(KEYS, spec.name, "FLOOR")
        assert row["conditional"] and row["entries"] and row["layer"] == floor.layer
        [path] = describe({"paths": [KEYS]}, spec.name)["paths"]
        [mine] = [e for e in path["enforced_by"] if e["cli"] == spec.name]
        assert f"{len(row['entries'])} entries" in mine["floor"], mine
    assert "claude" in seen
    assert native_layers.native_deny("repo", "FLOOR") is None
