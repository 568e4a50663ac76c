"""`agentdeck drill` with the real CLIs (pinned versions, scratch homes, no credentials, no
network but 127.0.0.1): ok for all three on a fresh install and on the messy (demo) home, the
right failing receipt for each planted fault, and the home left as it was; on a home where
agentdeck is not installed (or installed for one CLI only), no turn for the others."""
from __future__ import annotations

import json
import os
import shutil

import pytest

from agentdeck.core import cli, doctor, engine
from agentdeck.core.demo import make_demo_home
from agentdeck.core.drill import record
from agentdeck.core.drill.run import drill
from agentdeck.core.facts import FACTS_BY_TARGET
from agentdeck.core.policy import offered
from tests.conftest import snapshot_tree
from agentdeck.core.targets import registry
from tests.target_homes import target_home

from tests.registry_kit import HOOKED

pytestmark = pytest.mark.clients

ALL = [s.name for s in registry.TARGETS]   # every registered CLI (the drill covers each found)
FACTS_VERSIONS = {t: f.verified_versions[1] for t, f in FACTS_BY_TARGET.items()}


def install(host, targets=ALL, trust=True, profile="default"):
    plan = engine.build_plan(host, profile, targets, trust_hooks=trust)
    assert engine.apply_plan(host, plan).ok
    assert not engine.build_plan(host, profile, targets, trust_hooks=trust).has_changes


def outside_state(host) -> dict:
    state = str(host.state_dir.relative_to(host.home))
    return {k: v for k, v in snapshot_tree(host.home).items()
            if k != state and not k.startswith(state + os.sep)}


def event(rep, target, name):
    return next(e for e in rep.targets[target].events if e.event == name)


#: the default profile's guardrails ([[policy.paths]]), each tried with its example and a
#: rewritten form (core.drill.operator_rule): 2 + 3 x 2 pre-tool calls per turn
DEFAULT_PATH_RULES = ["ssh-private-keys", "ssh-authorized-keys", "cloud-credentials"]
PRE_CALLS = 2 + 2 * len(DEFAULT_PATH_RULES)


def statuses(r) -> dict:
    return {x["id"]: x["status"] for x in r.rules}


def assert_held(r, rule_id, kind):
    """The rule was exercised in the real turn: each form called, the audit line names the
    rule with deny, and nothing the form would do happened."""
    entry = next(x for x in r.rules if x["id"] == rule_id)
    assert entry["status"] == "held" and entry["kind"] == kind, entry
    assert len(entry["forms"]) >= 2 and entry["forms"][0]["label"].startswith("example")
    for f in entry["forms"]:
        assert (f["called"], f["decision"], f["rule"], f["ran"]) == (True, "deny", rule_id, False), f


def test_fresh_install_all_ok_and_the_home_is_unchanged(scratch_env, need):
    need(*ALL)
    host = scratch_env
    install(host)
    before = outside_state(host)
    rep = drill(host, "default", ALL)
    assert rep.ok, "\n".join(f"{t}: {r.problems}" for t, r in rep.targets.items())
    for t in ALL:
        r = rep.targets[t]
        assert r.deny["held"] and r.harmless_ran
        pre = next(e for e in r.events if e.canonical == "pre_tool_use")
        assert pre.fired == PRE_CALLS and pre.latency_ms is not None and pre.latency_ms < 30_000
        for rule_id in DEFAULT_PATH_RULES:             # each path rule, per CLI
            assert_held(r, rule_id, "path")
        assert statuses(r)["agentdeck-self"] == "not tried"
        # its session start, once (OpenCode's plugin has none: pre_tool_use only)
        start = next((e for e in r.events if e.canonical == "session_start"), None)
        assert start is None or start.fired == 1
    assert rep.targets["codex"].events and event(rep, "codex", "PermissionRequest").fired == 0
    assert outside_state(host) == before
    assert not (host.state_dir / "drill").exists()
    # the drill's record on this machine: per CLI version, held, with each rule's status
    # (core/drill/record.py; the doctor's verdicts and the upgrade notice read it)
    for t in ALL:
        last = record.latest(host, t, ok_only=True)
        assert last is not None and last.version == rep.targets[t].version, t
        assert all(last.rules[rule_id] == "held" for rule_id in DEFAULT_PATH_RULES), last
    # the receipts are real audit lines, told apart by the drill's id
    lines = [json.loads(ln) for ln in (host.state_dir / "audit.jsonl").read_text().splitlines()]
    assert {ln["target"] for ln in lines if str(ln.get("drill_id", "")).startswith(rep.drill_id)} \
        == set(ALL)
    for rule_id in DEFAULT_PATH_RULES:
        assert {ln["target"] for ln in lines
                if str(ln.get("drill_id", "")).startswith(rep.drill_id)
                and ln.get("rule") == rule_id and ln.get("decision") == "deny"} == set(ALL)
    # the drill recorded the tools each turn offered the model, at the CLI's version, and the
    # doctor finds every one of them in agentdeck's vocabulary
    for t in ALL:
        version, rec = offered.entry(host, t, rep.targets[t].version)
        assert version == rep.targets[t].version and rec["drill"].startswith(rep.drill_id)
        assert len(rec["tools"]) >= 3, rec
    rows = {f.check: f for f in doctor.run(host, "default", ALL)
            if f.check.endswith(".tools.offered")}
    assert {c: (f.result, "is in agentdeck's vocabulary" in f.message) for c, f in rows.items()} \
        == {f"{t}.tools.offered": ("ok", True) for t in ALL}, [f.message for f in rows.values()]


def test_messy_home_all_ok(scratch_env, need):
    need(*ALL)
    host = scratch_env
    make_demo_home(host.home)
    install(host)
    before = outside_state(host)
    rep = drill(host, "default", ALL)
    assert rep.ok, "\n".join(f"{t}: {r.problems}" for t, r in rep.targets.items())
    assert outside_state(host) == before


def test_cli_json_and_exit_code(scratch_env, need, capsys, monkeypatch):
    need("claude")
    host = scratch_env
    install(host, ["claude"])
    for k, v in host.env.items():
        monkeypatch.setenv(k, v)
    rc = cli.main(["drill", "--home", str(host.home), "--target", "claude", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 0 and data["targets"]["claude"]["ok"] is True
    assert data["targets"]["claude"]["events"]["PreToolUse"]["fired"] == PRE_CALLS
    rules = {x["id"]: x for x in data["targets"]["claude"]["rules"]}
    assert rules["ssh-private-keys"]["status"] == "held"
    assert [f["decision"] for f in rules["ssh-private-keys"]["forms"]] == ["deny", "deny"]
    assert rules["agentdeck-self"]["status"] == "not tried" and rules["agentdeck-self"]["why"]
    rc = cli.main(["drill", "--home", str(host.home), "--target", "claude"])
    text = capsys.readouterr().out
    assert rc == 0 and "✓ ssh-private-keys: held (path rule, read of a decoy at ~/.ssh/" in text
    assert "- agentdeck-self: not tried: built-in rule, no deny example" in text


def test_fault_handler_missing(scratch_env, need, tmp_path):
    need(*HOOKED)
    host = scratch_env
    own = tmp_path / "moved-bin"
    own.mkdir()
    real = shutil.which("agentdeck-hook", path=os.path.dirname(os.sys.executable))
    (own / "agentdeck-hook").write_text(f'#!/bin/sh\nexec {real} "$@"\n')
    (own / "agentdeck-hook").chmod(0o755)
    host.env["AGENTDECK_SCRIPTS_DIR"] = str(own)
    install(host, HOOKED)
    (own / "agentdeck-hook").unlink()                       # the install went away
    rep = drill(host, "default", HOOKED)
    for t in HOOKED:
        r = rep.targets[t]
        assert not r.ok
        # its session start, or its first event (OpenCode's plugin: pre_tool_use only)
        start = next((e for e in r.events if e.canonical == "session_start"), r.events[0])
        assert start.fired == 0
        assert start.note.startswith("hooks inert: the hook handler") and "is not found" in start.note
        assert not r.deny["held"]


def test_fault_codex_untrusted(scratch_env, need):
    need("codex")
    host = scratch_env
    install(host, ["codex"], trust=False)
    rep = drill(host, "default", ["codex"])
    r = rep.targets["codex"]
    assert not r.ok
    assert event(rep, "codex", "PreToolUse").fired == 0
    assert event(rep, "codex", "PreToolUse").note.startswith(
        "hooks inert: Codex skips untrusted hooks")
    assert r.deny["canary_side_effect"] is True and not r.deny["held"]
    # no hook ran: every form really ran (inert: decoys, markers) and no rule is "held"
    assert set(statuses(r).values()) == {"not held", "not tried"}
    for x in r.rules:
        if x["status"] == "not held":
            assert x["why"].endswith("ran (its marker file exists)") and \
                all(f["decision"] is None for f in x["forms"])
    assert any("rule ssh-private-keys did NOT hold" in p for p in r.problems)


def test_fault_second_copilot_hooks_file(scratch_env, need):
    need("copilot")
    host = scratch_env
    install(host, ["copilot"])
    second = target_home(host, "copilot") / "hooks" / "second.json"
    second.write_text((target_home(host, "copilot") / "hooks" / "agentdeck.json").read_text())
    rep = drill(host, "default", ["copilot"])
    r = rep.targets["copilot"]
    assert not r.ok
    ss = event(rep, "copilot", "sessionStart")
    assert ss.fired == 2 and not ss.ok
    assert ss.other_sources == [f"{second} (user-hooks-file)"], ss.note


def _disable_all(home) -> None:
    data = json.loads((home / "settings.json").read_text())
    data["disableAllHooks"] = True
    (home / "settings.json").write_text(json.dumps(data, indent=2))


def test_fault_disable_all_hooks_claude(scratch_env, need):
    need("claude")
    host = scratch_env
    install(host, ["claude"])
    _disable_all(target_home(host, "claude"))
    before = outside_state(host)
    rep = drill(host, "default", ["claude"])
    r = rep.targets["claude"]
    assert not r.ok and not any(e.fired for e in r.events)
    pre = event(rep, "claude", "PreToolUse")
    assert pre.note == "hooks inert: disableAllHooks is true in ~/.claude/settings.json"
    assert r.deny["canary_side_effect"] is True
    assert outside_state(host) == before


def test_copilot_runs_user_hooks_despite_disable_all_hooks(scratch_env, need):
    """Observed with Copilot 1.0.102 (2026-12-01): `disableAllHooks: true` in settings.json is
    read (`copilot config --list` shows it) but hooks.discover still reports agentdeck's hooks
    enabled and a `-p` turn runs them. The drill reports what ran; agentdeck's status, which
    follows facts.copilot.disable_all_stops_user_hooks, agrees with it."""
    need("copilot")
    host = scratch_env
    install(host, ["copilot"])
    _disable_all(target_home(host, "copilot"))
    rep = drill(host, "default", ["copilot"])
    r = rep.targets["copilot"]
    assert event(rep, "copilot", "preToolUse").fired == PRE_CALLS and r.deny["held"]
    # agentdeck's status follows what was observed here (core/facts: Copilot 1.0.102's
    # disableAllHooks does not stop user hooks), so it no longer contradicts the receipts
    assert not any("yet copilot" in n for n in r.notes), r.notes
    assert r.ok, r.problems


OPERATOR_PROFILE = """[profile]
extends = ["default"]

[[policy.rules]]
id = "operator-no-force-push"
tool = "shell"
match = 'git\\s+push\\b.*--force'
decision = "deny"
reason = "the operator's rule: no force-push"
examples = { deny = ["git push --force origin main"], allow = ["git push origin main"] }

[[policy.rules]]
id = "operator-no-rm-rf"
tool = "shell"
command = "rm"
args = ["-r|-R|--recursive", "-f|--force"]
decision = "deny"
reason = "the operator's rule: no recursive force delete"
examples = { deny = ["rm -rf build"], allow = ["rm build.log"] }
"""


def drill_with_profile(host, name: str, text: str):
    """Install the operator's profile `name` (its profile.toml is `text`), drill every CLI with
    it, and check the drill is ok."""
    d = host.config_dir / "profiles" / name
    d.mkdir(parents=True)
    (d / "profile.toml").write_text(text)
    install(host, profile=name)
    rep = drill(host, name, ALL)
    assert rep.ok, "\n".join(f"{t}: {r.problems}" for t, r in rep.targets.items())
    return rep


def test_operator_rules_deny_holds_in_all_three(scratch_env, need):
    """The operator's own rules (a regex and an argv rule, in a profile
    extending default) are tried first in each real CLI, then the shipped ones up to the
    drill's budget; each tried rule's forms are denied by that rule and nothing ran."""
    need(*ALL)
    host = scratch_env
    rep = drill_with_profile(host, "mine", OPERATOR_PROFILE)
    for t in ALL:
        r = rep.targets[t]
        assert [x["id"] for x in r.rules if x["status"] != "not tried"] == [
            "operator-no-rm-rf", "operator-no-force-push", "ssh-private-keys"]
        regex = next(x for x in r.rules if x["id"] == "operator-no-force-push")
        assert regex["status"] == "held" and regex["example"] == "git push --force origin main"
        assert [f["command"] for f in regex["forms"]] == [
            ": 'git push --force origin main' ; touch drill-rule-3.txt"]
        assert_held(r, "operator-no-rm-rf", "argv")
        argv = next(x for x in r.rules if x["id"] == "operator-no-rm-rf")
        assert argv["forms"][0]["command"] == "rm -rf build ; touch drill-rule-1.txt"
        assert argv["stubs"] == ["rm"]
        assert_held(r, "ssh-private-keys", "path")
        assert statuses(r)["cloud-credentials"] == "not tried"
        assert not any("not the drill's stub" in n for n in r.notes), r.notes   # stub first
        assert r.deny["held"]
    lines = [json.loads(ln) for ln in (host.state_dir / "audit.jsonl").read_text().splitlines()]
    for rule_id in ("operator-no-force-push", "operator-no-rm-rf"):
        denied = {ln["target"] for ln in lines
                  if str(ln.get("drill_id", "")).startswith(rep.drill_id)
                  and ln.get("rule") == rule_id and ln.get("decision") == "deny"}
        assert denied == set(ALL)


GIT_ARGV_PROFILE = """[profile]
extends = ["default"]

[[policy.rules]]
id = "operator-no-force-push-argv"
tool = "shell"
command = "git"
args = ["push", "--force|-f"]
decision = "deny"
reason = "the operator's rule: no force-push"
examples = { deny = ["git push --force origin main"], allow = ["git push origin main"] }
"""


def test_an_argv_rule_on_a_program_the_cli_runs_itself_is_held(scratch_env, need):
    """Copilot CLI and Qwen Code run `git` themselves, so the drill's stub of git runs without
    any call of the model's: a correct argv rule on git is judged on the calls it denies. It is
    held in every CLI and the drill is ok (it said "NOT held ... the stub of git ran")."""
    need(*ALL)
    rep = drill_with_profile(scratch_env, "gitargv", GIT_ARGV_PROFILE)
    for t in ALL:
        r = rep.targets[t]
        assert_held(r, "operator-no-force-push-argv", "argv")
        entry = next(x for x in r.rules if x["id"] == "operator-no-force-push-argv")
        assert entry["stubs"] == ["git"], entry
        assert not any("stub of git ran" in p for p in r.problems), r.problems


class _Recorded:
    """host.run, still really run, with each argv kept (to see which turns were started)."""

    def __init__(self, host, monkeypatch):
        self.real, self.calls = host.run, []
        monkeypatch.setattr(host, "run", self)

    def __call__(self, argv, **kw):
        self.calls.append(list(argv))
        return self.real(argv, **kw)

    def turns(self) -> list[dict]:
        return [a for a in self.calls if "agentdeck.core.drill.inside" in a]


def test_fresh_empty_home_says_not_installed_without_a_turn(scratch_env, need, capsys,
                                                            monkeypatch):
    """Nothing installed: every chosen CLI is skipped at once, in one line, and no CLI runs."""
    need(*ALL)
    host = scratch_env
    before = snapshot_tree(host.home)
    runs = _Recorded(host, monkeypatch)
    rep = drill(host, "default", ALL)
    assert runs.calls == [] and rep.turns == 0
    for t in ALL:
        r = rep.targets[t]
        assert (r.status, r.ok, r.skip) == ("skipped", False, "not-installed"), r.problems
        assert r.problems[0].startswith(f"agentdeck is not installed for {t} (no ~/")
        assert r.version == FACTS_VERSIONS[t]         # the CLI is there; agentdeck is not
    assert snapshot_tree(host.home) == before        # not even agentdeck's state dir changed
    for k, v in host.env.items():
        monkeypatch.setenv(k, v)
    rc = cli.main(["drill", "--home", str(host.home), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 1 and data["ok"] is False
    assert {t: d["skip"] for t, d in data["targets"].items()} == dict.fromkeys(ALL, "not-installed")
    rc = cli.main(["drill", "--home", str(host.home)])
    out = capsys.readouterr()
    assert rc == 1 and out.err == ""
    assert [ln.split(":")[0] for ln in out.out.splitlines() if "skipped: " in ln] \
        == [f"{t:<8} skipped" for t in ALL]


def test_only_the_installed_target_runs_a_turn(scratch_env, need, monkeypatch, capsys):
    need(*ALL)
    host = scratch_env
    install(host, ["claude"])
    runs = _Recorded(host, monkeypatch)
    rep = drill(host, "default", ALL)
    assert [t for t in ALL if rep.targets[t].skip == "not-installed"] == [t for t in ALL if t != "claude"]
    assert rep.targets["claude"].ok, rep.targets["claude"].problems
    assert event(rep, "claude", "PreToolUse").fired == PRE_CALLS
    assert len(runs.turns()) == 1
    lines = [json.loads(ln) for ln in (host.state_dir / "audit.jsonl").read_text().splitlines()]
    assert {ln["target"] for ln in lines
            if str(ln.get("drill_id", "")).startswith(rep.drill_id)} == {"claude"}
    assert not rep.ok                                # skipped is not ok: exit 1
    for k, v in host.env.items():
        monkeypatch.setenv(k, v)
    rc = cli.main(["drill", "--home", str(host.home), "--target", "claude"])
    assert rc == 0, capsys.readouterr().out
    rc = cli.main(["drill", "--home", str(host.home)])
    out = capsys.readouterr().out
    assert rc == 1 and "To drill only the ready one: `agentdeck drill --target claude`" in out
