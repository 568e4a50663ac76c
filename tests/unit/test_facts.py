"""agentdeck.core.facts: versions, the cross-target event table, and the two content hashes.

The literal hashes below were observed from the real CLIs (tests/clients re-derive them live)."""
from __future__ import annotations

import dataclasses

import pytest

from agentdeck.core.facts import FACTS_BY_TARGET, event_table
from agentdeck.core.targets import registry
from agentdeck.core.targets.codex.facts import CODEX, codex_hook_state_key, codex_trusted_hash, snake_event
from agentdeck.core.targets.copilot.facts import COPILOT, copilot_disable_key, normalize_action, resolve_event
from agentdeck.core.facts.versions import (CANONICAL_EVENTS, cli_version, in_verified_range,
                                 parse_cli_version, parse_version, verified_label)
from agentdeck.core.host import Host, RunResult


# ---- versions ----------------------------------------------------------------------------------
@pytest.mark.parametrize("target, output, version", [
    ("copilot", "GitHub Copilot CLI 1.0.102.\n", "1.0.102"),                       # trailing period
    ("copilot", "GitHub Copilot CLI 1.0.102.\nRun 'copilot update' to check for updates.\n",
     "1.0.102"),                                                                    # two lines
    ("copilot", "GitHub Copilot CLI 1.0.79\nRun 'copilot update' to check for updates.", "1.0.79"),
    ("copilot", "GitHub Copilot CLI 1.0.102", "1.0.102"),                          # `copilot version`
    ("codex", "codex-cli 0.171.0\n", "0.171.0"),
    ("codex", "WARNING: proceeding, even though ...\ncodex-cli 0.171.0", "0.171.0"),
    ("claude", "2.1.332 (Claude Code)\n", "2.1.332"),
    ("copilot", "something else 1.2.3", None),
    ("claude", "", None),
])
def test_parse_cli_version(target, output, version):
    assert parse_cli_version(target, output) == version


def test_parse_version():
    assert parse_version("1.0.102") == (1, 0, 102)
    assert parse_version("GitHub Copilot CLI 1.0.102.") == (1, 0, 102)
    assert parse_version("v0.171.0-alpha.2") == (0, 171, 0)
    assert parse_version("2.1.332 (Claude Code)") == (2, 1, 332)
    with pytest.raises(ValueError):
        parse_version("no digits")


def test_in_verified_range():
    assert in_verified_range("copilot", "1.0.102")
    assert not in_verified_range("copilot", "1.0.110")
    assert not in_verified_range("copilot", "1.0.83")
    assert in_verified_range("codex", "0.171.0") and not in_verified_range("codex", "0.171.1")
    assert in_verified_range("claude", "2.1.332") and not in_verified_range("claude", "2.1")
    assert not in_verified_range("claude", "garbage")
    assert verified_label("copilot") == "1.0.102"
    with pytest.raises(KeyError):
        in_verified_range("no-such-cli", "1.0")


def test_range_is_inclusive_both_ends(monkeypatch):
    import agentdeck.core.facts as facts
    wide = dataclasses.replace(CODEX, verified_versions=("0.170.0", "0.172"))
    monkeypatch.setitem(facts.FACTS_BY_TARGET, "codex", wide)
    assert in_verified_range("codex", "0.170.0") and in_verified_range("codex", "0.172.0")
    assert in_verified_range("codex", "0.171.5") and not in_verified_range("codex", "0.172.1")
    assert verified_label("codex") == "0.170.0–0.172"


class _FakeHost(Host):
    def __init__(self, tmp, found: bool, out: str = "", timed_out=False):
        super().__init__(home=tmp, env={})
        self.found, self.out, self.to, self.calls = found, out, timed_out, []

    def which(self, name):
        return f"/opt/{name}" if self.found else None

    def run(self, argv, *, timeout=10.0, input=None, env=None, cwd=None):
        self.calls.append((list(argv), timeout))
        return RunResult(list(argv), -1 if self.to else 0, self.out, "", timed_out=self.to)


def test_cli_version_runs_through_the_host(tmp_path):
    h = _FakeHost(tmp_path, True, "GitHub Copilot CLI 1.0.102.\nRun 'copilot update' ...\n")
    assert cli_version(h, "copilot", timeout=7) == "1.0.102"
    assert h.calls == [(["/opt/copilot", "--version"], 7)]
    assert cli_version(_FakeHost(tmp_path, False), "codex") is None
    assert cli_version(_FakeHost(tmp_path, True, timed_out=True), "claude") is None


# ---- facts as data ---------------------------------------------------------------------------
def test_facts_are_frozen_and_complete():
    for target, f in FACTS_BY_TARGET.items():
        assert f.target == target
        with pytest.raises(dataclasses.FrozenInstanceError):
            f.timeout_key = "x"  # type: ignore[misc]
        assert set(f.canonical_events) == set(CANONICAL_EVENTS)
        for name in f.canonical_events.values():
            assert name is None or name in f.hook_events
        assert set(f.matcher_events) <= set(f.hook_events)
        assert f.timeout_key not in f.wrong_timeout_keys
    assert COPILOT.timeout_key == "timeoutSec" and CODEX.timeout_key == "timeout"
    assert FACTS_BY_TARGET["claude"].timeout_key == "timeout"


def test_copilot_event_facts():
    assert len(COPILOT.hook_events) == 15
    assert len(COPILOT.register_events) == 12 and set(COPILOT.register_events) <= set(COPILOT.hook_events)
    assert set(COPILOT.pascal_aliases.values()) <= set(COPILOT.hook_events)
    assert COPILOT.pascal_aliases["Stop"] == "agentStop"
    assert COPILOT.pascal_aliases["UserPromptSubmit"] == "userPromptSubmitted"
    for dropped in COPILOT.dropped_event_names + COPILOT.callback_only_events:
        assert resolve_event(dropped) is None
    assert {"statusLine", "disableAllHooks", "disabledHooks", "disabledMcpServers",
            "enabledMcpServers", "hooks", "allowedUrls", "model", "theme"} <= COPILOT.settings_keys
    assert "trustedFolders" not in COPILOT.settings_keys
    assert len(COPILOT.settings_keys) == 105


@pytest.mark.parametrize("target", registry.NAMES)
def test_the_event_table_is_each_targets_facts(target):
    facts = FACTS_BY_TARGET[target]
    for ev, row in event_table().items():
        assert row.get(target) == facts.event_name(ev), (ev, target)


def test_event_table():
    """Each CLI's own spellings are pinned in its module (test_copilot_hooks.py,
    test_codex_trust.py, test_claude_hooks.py, test_qwen_target.py); here, Copilot's lookup."""
    assert COPILOT.event_name("pre_tool_use") == "preToolUse"
    with pytest.raises(KeyError):
        COPILOT.event_name("preToolUse")


# ---- Copilot disable keys ----------------------------------------------------------------------
def test_copilot_disable_key_facts_example():
    # docs/facts/copilot.md section 2:
    # sha256("sessionStart\0{"type":"command","bash":"echo hi"}") begins 48084ce6
    assert copilot_disable_key("sessionStart", {"type": "command", "bash": "echo hi"}).startswith(
        "48084ce6")


# Observed from `hooks.discover` on Copilot 1.0.102 (scratch home, hooks/*.json written by hand).
@pytest.mark.parametrize("event, action, key_prefix", [
    ("sessionStart", {"type": "command", "bash": "echo hi"}, "48084ce68f83952b"),
    ("preToolUse", {"type": "command", "command": "echo c"}, "469c0ec42f06bba6"),
    ("preToolUse", {"type": "command", "bash": "echo b", "timeoutSec": 5}, "f465a49ddeb828e1"),
    ("preToolUse", {"bash": "echo notype"}, "e58a951ac5bb8484"),
    ("preToolUse", {"type": "command", "bash": "echo e", "env": {"B": "2", "A": "1"}, "cwd": "/tmp",
                    "matcher": "bash|edit", "timeoutSec": 7, "powershell": "echo p"},
     "aeaa11727cb9310f"),
    ("preToolUse", {"type": "command", "bash": "echo t", "timeout": 9}, "4ed03a06066b0e9e"),
    ("preToolUse", {"type": "command", "bash": "echo ts", "timeoutSeconds": 9}, "1a63fcc1954675d0"),
    ("preToolUse", {"type": "command", "bash": "echo u", "unknownKey": 1}, "34475e604ca97610"),
    ("preToolUse", {"type": "command", "bash": "echo ü"}, "930927ccc8dcbe61"),
    ("preToolUse", {"type": "command", "exec": "/bin/echo", "args": ["a", "b"]}, "a18855d17d789ad4"),
    ("preToolUse", {"type": "command", "bash": "echo f", "timeoutSec": 2.5}, "6b0035cb34aaeeaa"),
    ("PreToolUse", {"type": "command", "bash": "echo P"}, "bede396ea311c509"),
    ("UserPromptSubmit", {"type": "command", "bash": "echo ups"}, "e9871d2dbfcc605c"),
    ("sessionStart", {"type": "command", "bash": "s1", "matcher": "x"}, "e9bd84730f48704b"),
    ("preToolUse", {"type": "http", "url": "https://example.com/h", "timeoutSec": 2,
                    "matcher": "m4", "headers": {"A": "b"}}, "533e122bca75fe50"),
])
def test_copilot_disable_key_observed(event, action, key_prefix):
    assert copilot_disable_key(event, action).startswith(key_prefix)


def test_copilot_normalization_rules():
    n = normalize_action("preToolUse", {"matcher": "m", "timeoutSec": 4, "timeout": 3,
                                        "env": {"Z": "z"}, "cwd": "/w", "command": "c",
                                        "bash": "b", "type": "command", "extra": 1})
    assert list(n.items()) == [("type", "command"), ("bash", "b"), ("powershell", "c"),
                               ("cwd", "/w"), ("env", {"Z": "z"}), ("timeoutSec", 4),
                               ("matcher", "m")]
    assert "matcher" not in normalize_action("postToolUseFailure", {"bash": "x", "matcher": "m"})
    assert normalize_action("Stop", {"bash": "x"})["_vsCodeCompat"] == "Stop"
    # the file path is not part of the key; a changed timeout is a new key
    a = {"type": "command", "bash": "x"}
    assert copilot_disable_key("agentStop", a) != copilot_disable_key("agentStop", {**a, "timeoutSec": 1})
    assert copilot_disable_key("agentStop", a) != copilot_disable_key("Stop", a)
    for event, bad in [("AgentStop", a), ("preToolUse", {"type": "prompt", "prompt": "p"}),
                       ("preToolUse", {"type": "command", "bash": "x", "matcher": ""}),
                       ("preToolUse", {"type": "command"}), ("preToolUse", {"type": "http"})]:
        with pytest.raises(ValueError):
            copilot_disable_key(event, bad)


# ---- Codex trust hashes and state keys ---------------------------------------------------------
def test_codex_trusted_hash_facts_example():
    # the JSON of docs/facts/codex.md section 3, and the currentHash Codex 0.171.0
    # `hooks/list` reported for
    # {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo pre", "timeout": 5}]}
    assert codex_trusted_hash("PreToolUse", "Bash",
                              [{"type": "command", "command": "echo pre", "timeout": 5}]) == (
        "sha256:8876532ed5cfbf29b6307eeff062611ab1cc552d6d70f02c071cb48702610773")


# Observed `currentHash` values from Codex 0.171.0 `hooks/list` (scratch CODEX_HOME, hooks.json).
@pytest.mark.parametrize("event, matcher, handler, observed", [
    # timeout absent: the event default (600) is hashed
    ("PreToolUse", "Bash", {"type": "command", "command": "echo pre2"},
     "sha256:72cd1536d1a1af0710b8d95ce403ebc8dbe94eab435383272b8097feba4cd700"),
    # SessionEnd: timeoutSec ignored, default 1 s hashed
    ("SessionEnd", None, {"type": "command", "command": "echo end", "timeoutSec": 3},
     "sha256:45850818ac37352c413a1b5998816007fb7be904214afb35e02f4b66d14c787a"),
    # matcher "" kept on a matcher event
    ("PreToolUse", "", {"type": "command", "command": "e1"},
     "sha256:ec7ab906497f8227f400e1d068dfe75d8645e7e783396d530bbe43700bd15166"),
    # additionalContextLimit is hashed when set
    ("PreToolUse", "*", {"type": "command", "command": "e2", "additionalContextLimit": 100},
     "sha256:f25f4faa814bf105179bb742b1ecc0b5cd18cbc5ded74c60a4e72ee49e5b1395"),
    # timeout 0 is raised to 1
    ("PreToolUse", None, {"type": "command", "command": "e3", "timeout": 0},
     "sha256:74888ef3fed072f9e3116d19d455ca29616864830ed1294ff39aa85de3cf3ac5"),
])
def test_codex_trusted_hash_observed(event, matcher, handler, observed):
    assert codex_trusted_hash(event, matcher, [handler]) == observed


def test_codex_hash_rules():
    h = {"type": "command", "command": "x"}
    # matcher dropped on events that ignore it
    assert codex_trusted_hash("UserPromptSubmit", "zzz", [h]) == codex_trusted_hash(
        "UserPromptSubmit", None, [h])
    assert codex_trusted_hash("PreToolUse", "Bash", [h]) != codex_trusted_hash("PreToolUse", None, [h])
    assert codex_trusted_hash("pre_tool_use", None, [h]) == codex_trusted_hash("PreToolUse", None, [h])
    assert codex_trusted_hash("PreToolUse", None, [{**h, "async": True}]) != codex_trusted_hash(
        "PreToolUse", None, [h])
    with pytest.raises(ValueError):
        codex_trusted_hash("Notification", None, [h])


def test_codex_hook_state_key():
    assert codex_hook_state_key("/h/.codex/hooks.json", "PreToolUse", 0, 1) == (
        "/h/.codex/hooks.json:pre_tool_use:0:1")
    assert codex_hook_state_key("/c.toml", "user_prompt_submit", 2, 0) == "/c.toml:user_prompt_submit:2:0"
    assert snake_event("PostModelRequest") == "post_model_request"
    with pytest.raises(ValueError):
        codex_hook_state_key("/x", "preToolUse", 0, 0)
