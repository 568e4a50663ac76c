"""core.activity and `agentdeck activity`: the decisions in audit.jsonl, filtered, as a table or
JSON lines, and a follower that sees lines appended while it waits (no busy polling)."""
from __future__ import annotations

import json
import threading
import time

import pytest

from agentdeck.core.targets import registry

from agentdeck.core import activity, cli


def rec(ts: str, target: str, decision: str | None, **kw) -> dict:
    r = {"ts": ts, "target": target, "event": "pre_tool_use", "session_id": kw.pop("session", "s1"),
         "tool_class": "shell", "tool_name": "Bash", "summary": [kw.pop("cmd", "ls")]}
    if decision:
        r.update(decision=decision, rule=kw.pop("rule", None), reason=kw.pop("reason", ""),
                 latency_ms=1.5)
    r.update(kw)
    return r


def now_ts(offset: float = 0) -> str:
    t = time.time() + offset
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".000Z"


@pytest.fixture
def log(host):
    path = activity.audit_path(host)
    path.parent.mkdir(parents=True, exist_ok=True)

    def write(*recs, raw: str = ""):
        with open(path, "a") as f:
            for r in recs:
                f.write(json.dumps(r) + "\n")
            f.write(raw)
    return write


#: three registered targets' names, as the audit lines carry them (any three do)
A, B, C = registry.NAMES[:3]


def test_reads_only_decisions_and_filters(host, log):
    log(rec(now_ts(-7200), A, "allow"),
        rec(now_ts(-60), B, "deny", rule="no-force-push", cmd="git push --force"),
        {"ts": now_ts(), "target": C, "event": "session_start"},     # not a decision
        rec(now_ts(), C, "ask", session="s2"), raw="not json\n[1]\n")
    assert [r["target"] for r in activity.read(host)] == [A, B, C]
    assert [r["target"] for r in activity.read(host, activity.Filter(decision="deny"))] == [B]
    assert [r["target"] for r in activity.read(host, activity.Filter(target=C))] == [C]
    assert [r["target"] for r in activity.read(host, activity.Filter(session="s2"))] == [C]
    since = activity.Filter(since=activity.parse_duration("1h"))
    assert [r["target"] for r in activity.read(host, since)] == [B, C]


@pytest.mark.parametrize("text,secs", [("30s", 30), ("15m", 900), ("2h", 7200), ("1d", 86400),
                                       ("45", 45), ("1.5h", 5400)])
def test_durations(text, secs):
    assert activity.parse_duration(text) == secs


def test_bad_duration_and_decision_are_one_line_errors(host, capsys):
    assert cli.main(["activity", "--home", str(host.home), "--since", "soon"]) == 1
    assert capsys.readouterr().err.strip().count("\n") == 0
    assert cli.main(["activity", "--home", str(host.home), "--decision", "maybe"]) == 1
    capsys.readouterr()


def test_an_unknown_target_is_an_error_not_an_empty_list(host, log, capsys):
    log(rec(now_ts(), "codex", "deny", rule="no-force-push", cmd="git push --force origin main"))
    assert cli.main(["activity", "--home", str(host.home), "--target", "nosuch"]) == 1
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == ("agentdeck: error: --target 'nosuch': expected one of "
                       f"{', '.join(registry.NAMES)}, repo\n")
    for t in ("codex", "repo"):
        assert cli.main(["activity", "--home", str(host.home), "--target", t]) == 0


def test_cli_table_and_json(host, log, capsys):
    log(rec(now_ts(), "codex", "deny", rule="no-force-push", cmd="git push --force origin main"),
        rec(now_ts(), "copilot", "allow"))
    assert cli.main(["activity", "--home", str(host.home)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["TIME", "TARGET", "EVENT", "DECISION", "RULE", "TOOL", "SUMMARY"]
    assert "deny" in out[1] and "no-force-push" in out[1] and "git push --force" in out[1]
    assert cli.main(["activity", "--home", str(host.home), "--json", "--decision", "deny"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(x)["rule"] for x in lines] == ["no-force-push"]


def test_an_empty_home_says_so(host, capsys):
    assert cli.main(["activity", "--home", str(host.home)]) == 0
    assert "no decisions recorded" in capsys.readouterr().out


def test_the_follower_sees_appended_lines_and_partial_lines(host, log):
    log(rec(now_ts(), "codex", "allow"))
    f = activity.Follower(host)
    try:
        assert len(f.wait(0.1)) == 1
        assert f.wait(0.1) == []
        path = activity.audit_path(host)

        def later():
            time.sleep(0.3)
            line = json.dumps(rec(now_ts(), "claude", "deny"))
            with open(path, "a") as fh:
                fh.write(line[:10])
                fh.flush()
                time.sleep(0.1)
                fh.write(line[10:] + "\n")

        t = threading.Thread(target=later)
        t.start()
        got: list[dict] = []
        deadline = time.monotonic() + 10
        while not got and time.monotonic() < deadline:
            got = f.wait(5.0)
        t.join()
        assert [r["target"] for r in got] == ["claude"]
    finally:
        f.close()


def test_the_follower_starts_again_after_truncation(host, log):
    log(rec(now_ts(), "codex", "allow"), rec(now_ts(), "codex", "allow"))
    f = activity.Follower(host)
    assert len(f.wait(0.1)) == 2
    activity.audit_path(host).write_text(json.dumps(rec(now_ts(), "claude", "deny")) + "\n")
    assert [r["target"] for r in f.wait(1.0)] == ["claude"]
    f.close()


def test_follow_generator_stops(host, log):
    log(rec(now_ts(), "codex", "deny"))
    seen = []
    for r in activity.follow(host, stop=lambda: bool(seen), timeout=0.1):
        seen.append(r)
    assert [r["decision"] for r in seen] == ["deny"]


def test_drill_rows_are_marked_and_hidden_unless_asked_for(host, log, capsys):
    """A drill's canary deny is not an attack: `activity` hides the drill's records (and says
    how many), `--drills` shows them marked [drill], in the table and as JSON lines."""
    drill = "drill-20261201-120000-abc123-claude"
    log(rec(now_ts(), "claude", "allow", cmd="echo agentdeck-drill-harmless", drill_id=drill),
        rec(now_ts(), "claude", "deny", rule="drill-canary", cmd="touch agentdeck-drill-canary",
            drill_id=drill),
        rec(now_ts(), "codex", "deny", rule="no-force-push", cmd="git push --force"))
    flt = activity.Filter()
    assert [r["target"] for r in activity.read(host, flt)] == ["codex"]
    assert flt.hidden_drills == 2
    assert [activity.is_drill(r) for r in activity.read(host, activity.Filter(drills=True))] == \
        [True, True, False]
    assert cli.main(["activity", "--home", str(host.home)]) == 0
    out = capsys.readouterr().out
    assert "no-force-push" in out and "drill-canary" not in out
    assert "2 decisions of `agentdeck drill` turns not shown: --drills shows them" in out
    assert cli.main(["activity", "--home", str(host.home), "--drills"]) == 0
    lines = capsys.readouterr().out.splitlines()
    canary = next(ln for ln in lines if "drill-canary" in ln)
    assert "[drill] touch agentdeck-drill-canary" in canary
    assert "[drill]" not in next(ln for ln in lines if "no-force-push" in ln)
    assert "not shown" not in "\n".join(lines)
    assert cli.main(["activity", "--home", str(host.home), "--json"]) == 0
    assert [json.loads(x)["target"] for x in capsys.readouterr().out.splitlines()] == ["codex"]
    assert cli.main(["activity", "--home", str(host.home), "--json", "--drills"]) == 0
    assert [json.loads(x).get("drill_id") for x in capsys.readouterr().out.splitlines()] == \
        [drill, drill, None]


def test_only_drill_rows_say_so_not_that_nothing_was_recorded(host, log, capsys):
    log(rec(now_ts(), "copilot", "deny", rule="drill-canary", drill_id="drill-x-copilot"))
    assert cli.main(["activity", "--home", str(host.home)]) == 0
    out = capsys.readouterr().out
    assert "no decisions recorded" not in out
    assert "no decisions of a session" in out and "--drills" in out
