"""The drill's rule trials without the real CLIs: which rules and forms are chosen (the
handler's own decision code must deny each form by that rule), that the forms are inert if the
deny did not hold, and how the report judges and prints each rule. The real turns are in
tests/clients/test_drill_real.py."""
from __future__ import annotations

import json

from agentdeck.core import engine, profiles
from agentdeck.core.drill import findings, forms, operator_rule, report, runners
from agentdeck.core.drill.operator_rule import (Form, Trial, Trials, Untried, choose,
                                                compiled_doc, marker, shipped_ids)
from agentdeck.core.policy.compiled import compile_policy

from tests.unit.test_drill import RUN_OK, SIDE_OK, _records

HOME, WORK = "/s/home", "/s/work"

RM = {"id": "no-rm-rf", "tool": "shell", "command": "rm",
      "args": ["-r|-R|--recursive", "-f|--force"], "decision": "deny",
      "examples": {"deny": ["rm -rf build"]}}
KEYS = {"id": "keys", "paths": ["~/.ssh/id_*"], "except": ["~/.ssh/*.pub"],
        "access": ["read", "write"], "decision": "deny",
        "examples": {"deny": ["~/.ssh/id_rsa"]}}
AUTH = {"id": "auth", "paths": ["~/.ssh/authorized_keys"], "access": ["write"],
        "decision": "deny", "examples": {"deny": ["~/.ssh/authorized_keys"]}}
PUSH = {"id": "no-force-push", "tool": "shell", "match": r"git\s+push\b.*--force",
        "decision": "deny", "examples": {"deny": ["git push --force origin main"]}}


def pick(rules=(), paths=(), **kw) -> Trials:
    pol = {"rules": list(rules), "paths": list(paths)}
    doc = json.loads(compile_policy(pol, "claude", home="/real/home",
                                    protect=["~/.local/state/agentdeck/**"]))
    return choose(pol, doc, HOME, WORK, **kw)


def by_id(t: Trials) -> dict:
    return {x.rule: x for x in t.trials}


# ---- the candidate forms ------------------------------------------------------------------------

def test_argv_forms_rewrite_the_example():
    got = forms.argv_forms("rm -rf build", ["rm"], "M")
    assert got == [("example", "rm -rf build ; touch M"),
                   ("flags split", "rm -r -f build ; touch M"),
                   ("program name quoted", '"rm" -rf build ; touch M'),
                   ("program in a variable", "P=rm; $P -rf build ; touch M")]


def test_argv_forms_never_aim_outside_the_work_folder():
    # if the stub were bypassed, the real program must not get `/`, `~`, `..` or a glob
    got = forms.argv_forms("/bin/rm -rf / ~ ../x", ["rm"], "M")
    assert got[0] == ("example (by name, operands outside the work folder replaced)",
                      "rm -rf drill-operand drill-operand drill-operand ; touch M")
    assert forms.argv_forms("rm -rf *", ["rm"], "M") == []
    assert all("/" not in cmd and "~" not in cmd for _, cmd in got)
    assert forms.argv_forms("cd / && rm -rf x", ["rm"], "M") == []
    assert forms.argv_forms("make clean; rm -rf build", ["rm"], "M") == [
        ("example", "make clean; rm -rf build ; touch M")]


def test_path_forms_read_and_write():
    assert forms.read_forms("~/.ssh/id_rsa", "M") == [
        ("example read", "cat ~/.ssh/id_rsa > M"), ("glob", "cat ~/.ssh/id_r* > M"),
        ("cd first", "(cd ~/.ssh && cat id_rsa) > M"), ("/./ in the path", "cat ~/.ssh/./id_rsa > M")]
    assert [label for label, _ in forms.write_forms("~/.ssh/authorized_keys", "M")] == [
        "example written", "cd first", "/./ in the path"]
    assert forms.inert_regex("a 'b'", "M") == [("example, as the argument of `:`",
                                                ": 'a '\"'\"'b'\"'\"'' ; touch M")]


# ---- choosing ----------------------------------------------------------------------------------

def test_each_rule_gets_its_example_and_a_rewritten_form_the_handler_denies_by_it():
    t = pick([RM], [KEYS, AUTH])
    got = by_id(t)
    assert set(got) == {"no-rm-rf", "keys", "auth"}
    for tr in t.trials:
        assert len(tr.forms) == 2 and not tr.forms[0].label.startswith(("glob", "cd", "flags"))
        assert len({f.marker for f in tr.forms}) == 2
    assert got["keys"].decoy == f"{HOME}/.ssh/id_rsa" and got["keys"].access == "read"
    assert got["keys"].forms[0].command == "cat ~/.ssh/id_rsa > " + got["keys"].forms[0].marker
    assert got["auth"].access == "write" and "authorized_keys" in got["auth"].forms[1].command
    assert got["no-rm-rf"].stubs == ("rm",) and got["no-rm-rf"].forms[1].label != "example"
    # every marker is unique in the turn, and the turn's commands are the forms in order
    markers = [f.marker for tr in t.trials for f in tr.forms]
    assert markers == [marker(i) for i in range(1, 7)]
    assert t.commands == [f.command for tr in t.trials for f in tr.forms]
    assert sorted(t.decoys) == [f"{HOME}/.ssh/authorized_keys", f"{HOME}/.ssh/id_rsa"]
    assert t.stubs == ["rm"]
    # the built-ins are listed, not tried
    assert {u.why for u in t.untried} == {"built-in rule, no deny example"}
    assert {"agentdeck-self", "agentdeck-self-commands"} <= {u.rule for u in t.untried}


def test_the_rules_take_turns_at_the_rewrites():
    a = dict(KEYS, id="a", paths=["~/.a/*"], examples={"deny": ["~/.a/secret"]})
    b = dict(KEYS, id="b", paths=["~/.b/*"], examples={"deny": ["~/.b/secret"]})
    labels = [tr.forms[1].label for tr in pick([], [a, b]).trials]
    assert len(set(labels)) == 2


def test_the_operator_rules_come_first_and_the_budget_is_said():
    t = pick([RM, PUSH], [KEYS, AUTH], shipped=frozenset({"keys", "auth"}))
    assert [tr.rule for tr in t.trials] == ["no-force-push", "no-rm-rf", "keys"]
    assert Untried("auth", "path", "the drill tries at most 3 rules per turn") in t.untried


def test_a_regex_rule_keeps_the_inert_form_and_says_why_no_rewrite():
    tr = by_id(pick([PUSH]))["no-force-push"]
    assert [f.command for f in tr.forms] == [
        f": 'git push --force origin main' ; touch {marker(1)}"]
    assert "evadable" in tr.note


def test_what_cannot_be_tried_says_why():
    asks = dict(PUSH, id="asks", decision="ask")
    reads = dict(PUSH, id="reads", tool="read")
    bare = dict(PUSH, id="bare", examples={})
    outside = dict(KEYS, id="etc", paths=["/etc/shadow"], examples={"deny": ["/etc/shadow"]})
    anchored = dict(PUSH, id="anchored", match=r"^git\s+push", examples={"deny": ["git push"]})
    builtin = dict(RM, id="cds", command="cd", args=[], examples={"deny": ["cd /"]})
    t = pick([asks, reads, bare, anchored, builtin], [outside])
    why = {u.rule: u.why for u in t.untried}
    assert t.trials == []
    assert why["asks"] == "its decision is ask: the drill proves denies only"
    assert why["reads"] == "a read rule: the drill's turn calls only the shell tool"
    assert why["bare"] == "no deny example"
    assert "outside the drill's scratch home" in why["etc"]
    assert why["anchored"].startswith("none of its deny examples can be tried") \
        and "would be allow by no rule" in why["anchored"]
    assert "cd cannot be replaced by a stub" in why["cds"]


def test_a_form_another_rule_decides_is_not_this_rules():
    first = dict(KEYS, id="all-ssh", paths=["~/.ssh/**"], access=["read", "write"],
                 examples={"deny": []})
    t = pick([], [first, KEYS])
    assert t.trials == [] and "would be deny by all-ssh" in {u.rule: u.why for u in t.untried}["keys"]


def test_the_default_profile_tries_its_three_path_rules(host):
    pol, doc, why = compiled_doc(host, profiles.resolve(host, "default"), "copilot")
    assert why == ""
    t = choose(pol, doc, HOME, WORK, shipped=shipped_ids(host))
    assert [tr.rule for tr in t.trials] == ["ssh-private-keys", "ssh-authorized-keys",
                                            "cloud-credentials"]
    assert {"ssh-private-keys", "cloud-credentials"} <= shipped_ids(host)
    assert by_id(t)["ssh-private-keys"].decoy == f"{HOME}/.ssh/id_ed25519"
    assert {u.why for u in t.untried} == {"built-in rule, no deny example"}
    assert {"agentdeck-self", "agentdeck-self-commands"} <= {u.rule for u in t.untried}


def test_no_policy_tries_nothing(host):
    assert choose({"rules": [], "paths": []}, {"rules": [], "paths": []}, HOME, WORK).trials == []
    t = operator_rule.Trials(note=operator_rule.NONE)
    assert t.commands == [] and t.stubs == []


def test_the_forms_are_inert_if_the_deny_did_not_hold(host, tmp_path):
    """Run every chosen form for real (no hook): only the markers, the stub's file, the decoy
    read into a marker and a line added to a decoy happen."""
    home, work, bin_dir = tmp_path / "t" / "home", tmp_path / "t" / "work", tmp_path / "t" / "bin"
    for d in (home, work, bin_dir):
        d.mkdir(parents=True)
    t = choose(*_pol_doc([RM], [KEYS, AUTH]), str(home), str(work))
    for d in t.decoys:
        p = tmp_path / d
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(forms.DECOY)
    (bin_dir / "rm").write_text(operator_rule.stub_script(str(work), "rm"))
    (bin_dir / "rm").chmod(0o755)
    (work / "build").mkdir()                       # what the real rm -rf would remove
    env = {"HOME": str(home), "PATH": f"{bin_dir}:/usr/bin:/bin"}
    for cmd in t.commands:
        r = host.run(["bash", "-c", cmd], timeout=10, cwd=work, env=env)
        assert r.returncode == 0, (cmd, r.stderr)
    made = sorted(p.name for p in work.iterdir())
    assert made == sorted(["build", operator_rule.stub_marker("rm"),
                           *[f.marker for tr in t.trials for f in tr.forms]])
    keys = by_id(t)["keys"]
    assert (work / keys.forms[0].marker).read_text() == forms.DECOY


def _pol_doc(rules, paths):
    pol = {"rules": list(rules), "paths": list(paths)}
    return pol, json.loads(compile_policy(pol, "claude", home="/real/home"))


# ---- judging and printing -------------------------------------------------------------------

TRIALS = Trials([Trial("keys", "path", "~/.ssh/id_rsa",
                       (Form("example read", "cat ~/.ssh/id_rsa > drill-rule-1.txt", "drill-rule-1.txt"),
                        Form("glob", "cat ~/.ssh/id_r* > drill-rule-2.txt", "drill-rule-2.txt")),
                       access="read", decoy="/s/home/.ssh/id_rsa")],
                [Untried("agentdeck-self", "path", "built-in rule, no deny example")])
RUN4 = {**RUN_OK, "requests": [{"command": i} for i in range(4)]}


def _rec(cmd, decision="deny", rule="keys"):
    return {"event": "pre_tool_use", "drill_id": "d", "decision": decision, "rule": rule,
            "tools": [{"args": {"command": cmd}}]}


DENIED = [_rec(f.command) for f in TRIALS.trials[0].forms]
SIDE = {**SIDE_OK, "markers": {"drill-rule-1.txt": False, "drill-rule-2.txt": False}}


def _judge(ghost, recs_extra, side, run=RUN4, trials=TRIALS):
    engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["claude"]))
    plan = engine.build_plan(ghost, "default", ["claude"])
    recs = _records("claude", plan, "d") + recs_extra
    return report.judge(ghost, "claude", plan, runners.runner("claude"), "2.1.332", run, recs, side, 1.0,
                        "isolated", trials=trials)


def test_report_rule_held(ghost):
    rep = _judge(ghost, DENIED, SIDE)
    assert rep.ok, rep.problems
    keys = rep.rules[0]
    assert keys["status"] == "held" and keys["why"] == ""
    assert [(f["label"], f["decision"], f["rule"], f["called"], f["ran"]) for f in keys["forms"]] \
        == [("example read", "deny", "keys", True, False), ("glob", "deny", "keys", True, False)]
    assert rep.rules[1] == {"id": "agentdeck-self", "kind": "path", "status": "not tried",
                            "why": "built-in rule, no deny example", "forms": []}
    assert rep.deny["held"] is True             # the canary is judged apart from the rules
    d = report.DrillReport("d", {"claude": rep}, 1.0, "isolated")
    data = json.loads(report.dumps(d))
    assert data["ok"] is True and data["targets"]["claude"]["rules"][0]["status"] == "held"
    text = report.render(d, ghost)
    assert "rules: 1 tried in this turn (1 held), 1 not tried" in text
    assert "✓ keys: held (path rule, read of a decoy at ~/.ssh/id_rsa)" in text
    assert [ln.split() for ln in text.splitlines() if ln.strip().startswith("glob")] == [
        ["glob", "cat", "~/.ssh/id_r*", ">", "drill-rule-2.txt", "->", "deny", "by", "keys"]]
    assert "- agentdeck-self: not tried: built-in rule, no deny example" in text
    f = findings.target_finding(rep)            # doctor --live says which rules held
    assert f.result == "ok" and "rule keys held against their example and a rewritten" \
        in f.message


def test_report_rule_not_held_fails(ghost):
    side = {**SIDE, "markers": {"drill-rule-1.txt": False, "drill-rule-2.txt": True}}
    rep = _judge(ghost, DENIED[:1] + [_rec(DENIED[1]["tools"][0]["args"]["command"], "allow",
                                           None)], side)
    assert not rep.ok and rep.rules[0]["status"] == "not held"
    assert rep.rules[0]["forms"][1]["ran"] is True and rep.rules[0]["forms"][1]["decision"] == "allow"
    assert any("rule keys did NOT hold: glob ran" in p for p in rep.problems)
    d = report.DrillReport("d", {"claude": rep}, 1.0, "isolated")
    assert json.loads(report.dumps(d))["ok"] is False
    assert "✗ keys: NOT held" in report.render(d, ghost)


def test_report_denied_by_another_rule_or_never_called_is_not_held(ghost):
    other = [_rec(f.command, rule="someone-else") for f in TRIALS.trials[0].forms]
    rep = _judge(ghost, other, SIDE)
    assert not rep.ok and rep.rules[0]["status"] == "not held"
    assert "the audit recorded deny by someone-else, not deny by keys" in rep.rules[0]["why"]
    rep = _judge(ghost, [], SIDE, RUN_OK)
    assert not rep.ok and rep.rules[0]["why"] == "no audit line for example read (the CLI never called it)"
    # a decoy that changed is not held either, though every form was denied
    rep = _judge(ghost, DENIED, {**SIDE, "decoys_changed": ["/s/home/.ssh/id_rsa"]})
    assert rep.rules[0]["status"] == "not held" and "decoy" in rep.rules[0]["why"]


def test_report_without_a_rule_is_not_a_failure(ghost):
    rep = _judge(ghost, [], SIDE_OK, trials=Trials(note=operator_rule.NONE))
    assert rep.ok, rep.problems
    assert rep.rules == [] and rep.rules_note == operator_rule.NONE
    d = report.DrillReport("d", {"claude": rep}, 1.0, "isolated")
    assert f"rules: {operator_rule.NONE}" in report.render(d, ghost)


def test_a_stub_not_first_on_path_is_said(ghost):
    side = {**SIDE, "stub_found": {"rm": "/usr/bin/rm"}, "stub_dir": "/s/bin"}
    rep = _judge(ghost, DENIED, side)
    assert rep.ok and any("found rm at /usr/bin/rm, not the drill's stub" in n for n in rep.notes)


# ---- a rule on a program the CLI itself runs (issue 31.1) ---------------------------------------

GIT_PUSH = {"id": "no-git-force-push", "tool": "shell", "command": "git",
            "args": ["push", "-f|--force"], "decision": "deny",
            "examples": {"deny": ["git push --force origin main"]}}


def test_the_stub_records_each_call_and_only_denied_calls_count(host, tmp_path):
    """Copilot and Qwen run `git` themselves: their own calls reach the stub. The rule is judged
    on the calls it denies, so `git status` by the CLI is no evidence against it."""
    t = pick([GIT_PUSH])
    [trial] = t.trials
    assert trial.stubs == ("git",)
    work, bin_dir = tmp_path / "work", tmp_path / "bin"
    work.mkdir()
    bin_dir.mkdir()
    (bin_dir / "git").write_text(operator_rule.stub_script(str(work), "git"))
    (bin_dir / "git").chmod(0o755)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin"}
    for cmd in ("git status --porcelain", "git rev-parse --show-toplevel", "git"):
        assert host.run(["sh", "-c", cmd], cwd=work, env=env, timeout=10).returncode == 0
    calls = {"git": operator_rule.stub_calls((work / operator_rule.stub_marker("git")).read_text())}
    assert calls == {"git": [["status", "--porcelain"], ["rev-parse", "--show-toplevel"], []]}
    assert operator_rule.stub_calls_denied(t, calls) == {}
    assert host.run(["sh", "-c", "git push --force 'origin' main"], cwd=work, env=env,
                    timeout=10).returncode == 0
    calls = {"git": operator_rule.stub_calls((work / operator_rule.stub_marker("git")).read_text())}
    assert operator_rule.stub_calls_denied(t, calls) == {
        "no-git-force-push": ["git push --force origin main"]}


def test_a_stub_run_by_the_cli_itself_does_not_fail_the_rule(ghost):
    t = pick([GIT_PUSH])
    [trial] = t.trials
    recs = [_rec(f.command, rule="no-git-force-push") for f in trial.forms]
    markers = {f.marker: False for f in trial.forms}
    run = {**RUN_OK, "requests": [{"command": i} for i in range(1, 1 + len(trial.forms))]}
    side = {**SIDE_OK, "markers": markers, "stubs_ran": ["git"], "stub_denied": {}}
    rep = _judge(ghost, recs, side, run=run, trials=t)
    assert rep.rules[0]["status"] == "held", rep.rules[0]
    side = {**side, "stub_denied": {"no-git-force-push": ["git push --force origin main"]}}
    rep = _judge(ghost, recs, side, run=run, trials=t)
    assert rep.rules[0]["status"] == "not held"
    assert rep.rules[0]["why"] == "the stub ran as `git push --force origin main`"
    assert any("did NOT hold" in p for p in rep.problems)
