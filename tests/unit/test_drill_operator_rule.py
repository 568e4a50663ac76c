"""Issue 14.7: the drill's operator-rule turn without the real CLIs -- which rule and command are
chosen, that the command is inert, and how the report judges and prints it. The real turns are
in tests/clients/test_drill_real.py (test_operator_rule_deny_holds_in_all_three)."""
from __future__ import annotations

import json

from agentdeck.core import engine
from agentdeck.core.drill import operator_rule, report, runners
from agentdeck.core.drill.operator_rule import MARKER_FILE, NONE, Trial, choose, inert

from tests.unit.test_drill import RUN_OK, SIDE_OK, _records


def rule(id_, match, examples, tool="shell", decision="deny"):
    return {"id": id_, "tool": tool, "match": match, "decision": decision, "reason": "",
            "examples": {"deny": examples, "allow": []}}


def test_choose_prefers_the_later_rule_and_checks_the_inert_form():
    rules = [rule("shipped", r"\.ssh/id_rsa", ["cat ~/.ssh/id_rsa"]),
             rule("mine", r"git\s+push\b.*--force", ["git push --force origin main"])]
    t, why = choose(rules)
    assert why == "" and t == Trial("mine", "git push --force origin main",
                                    f": 'git push --force origin main' ; touch {MARKER_FILE}")


def test_choose_skips_what_cannot_be_tried_inert():
    anchored = rule("anchored", r"^rm\s+-rf", ["rm -rf /"])      # ^ no longer matches
    ask = rule("asks", r"curl", ["curl x"], decision="ask")
    read = rule("reads", r"secret", ["secret"], tool="read")
    no_example = rule("bare", r"sudo", [])
    t, why = choose([anchored, ask, read, no_example])
    assert t is None and why.startswith(NONE) and "anchored" in why and "bare" not in why
    assert choose([ask, read, no_example]) == (None, NONE)
    assert choose([]) == (None, NONE)


def test_choose_needs_the_rule_itself_to_decide():
    # an earlier deny rule matching the marker part would be the one the audit names
    first = rule("no-touch", r"\btouch\b", ["touch x"])
    mine = rule("mine", r"make\s+deploy", ["make deploy"])
    t, _ = choose([first, mine])
    assert t is not None and t.rule == "no-touch"        # its own example, it decides it
    t, why = choose([rule("no-touch", r"\btouch\b", []), mine])
    assert t is None and "mine" in why


def test_any_tool_rule_qualifies():
    t, _ = choose([rule("everything", r"danger", ["run danger now"], tool="any")])
    assert t is not None and t.rule == "everything"


def test_the_default_profile_has_no_shell_regex_rule_to_try(host):
    # its guardrails are [[policy.paths]] rules now (the drill tries those with a decoy file)
    t, why = operator_rule.for_profile(host, "default")
    assert t is None and why == operator_rule.NONE


def test_the_inert_command_runs_only_the_marker(host, tmp_path):
    example = "touch pwned; echo 'quoted' > also-pwned"
    cmd = inert(example)
    work = tmp_path / "work"
    work.mkdir()
    r = host.run(["sh", "-c", cmd], timeout=10, cwd=work)
    assert r.returncode == 0
    assert sorted(p.name for p in work.iterdir()) == [MARKER_FILE]


def _judge(ghost, recs_extra, side, run=RUN_OK, trial=Trial("mine", "git push --force", "x")):
    engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["claude"]))
    plan = engine.build_plan(ghost, "default", ["claude"])
    recs = _records("claude", plan, "d") + recs_extra
    return report.judge(ghost, "claude", plan, runners.CLAUDE, "2.1.332", run, recs, side, 1.0,
                        "isolated", trial=trial)


RUN3 = {**RUN_OK, "requests": [{"command": 0}, {"command": 1}, {"command": 2}]}
DENIED = [{"event": "pre_tool_use", "drill_id": "d", "decision": "deny", "rule": "mine",
           "tools": [{"args": {"command": "x"}}]}]


def test_report_rule_held(ghost):
    rep = _judge(ghost, DENIED, {**SIDE_OK, "rule_marker": False}, RUN3)
    assert rep.ok, rep.problems
    assert rep.rule["id"] == "mine" and rep.rule["held"] is True and rep.rule["called"] is True
    assert rep.deny["held"] is True             # the canary is judged apart from the rule
    d = report.DrillReport("d", {"claude": rep}, 1.0, "isolated")
    data = json.loads(report.dumps(d))
    assert data["ok"] is True and data["targets"]["claude"]["rule"]["held"] is True
    assert "rule mine (example 'git push --force', tried inert): held" in report.render(d, ghost)


def test_report_rule_not_held_fails(ghost):
    rep = _judge(ghost, [], {**SIDE_OK, "rule_marker": True}, RUN3)
    assert not rep.ok and rep.rule["held"] is False and rep.rule["marker_side_effect"] is True
    assert any("rule mine did NOT hold" in p for p in rep.problems)
    d = report.DrillReport("d", {"claude": rep}, 1.0, "isolated")
    assert json.loads(report.dumps(d))["ok"] is False
    assert "tried inert): NOT held" in report.render(d, ghost)
    # denied by another rule is not this rule's deny
    other = [{**DENIED[0], "rule": "someone-else"}]
    rep = _judge(ghost, other, {**SIDE_OK, "rule_marker": False}, RUN_OK)
    assert not rep.ok and any("is not proven" in p and "never called it" in p
                              for p in rep.problems)


def test_report_without_a_rule_is_not_a_failure(ghost):
    rep = _judge(ghost, [], SIDE_OK, trial=None)
    assert rep.ok, rep.problems
    assert rep.rule == {"id": None, "note": NONE}
    d = report.DrillReport("d", {"claude": rep}, 1.0, "isolated")
    assert f"rule: {NONE}" in report.render(d, ghost)
