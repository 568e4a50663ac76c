"""The drill's parts without the real CLIs -- the scripted model server's three wire
formats, receipts parsing, double-firing attribution and the reasons an event did not fire.
The real turns are in tests/clients/test_drill_real.py."""
from __future__ import annotations

import json
import urllib.request

import pytest

from agentdeck.core import engine, hookhandler
from agentdeck.core.drill import receipts, report, runners
from agentdeck.core.drill.server import Script, ScriptedServer, schema_value
from agentdeck.core.targets import registry
from tests.target_homes import target_home

CMDS = ["echo one > a.txt", "echo agentdeck-drill-canary > c.txt"]


def _post(port: int, path: str, body: dict) -> list[tuple[str | None, object]]:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        assert r.headers["Content-Type"] == "text/event-stream"
        text = r.read().decode()
    out = []
    for block in text.strip().split("\n\n"):
        name, data = None, None
        for line in block.splitlines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
        out.append((name, data if data == "[DONE]" else json.loads(data)))
    return out


def test_chat_completions_calls_each_command_then_answers():
    script = Script(list(CMDS))
    tools = [{"type": "function", "function": {"name": "view"}},
             {"type": "function", "function": {"name": "bash"}}]
    with ScriptedServer(script) as srv:
        msgs = [{"role": "user", "content": "go"}]
        for i, cmd in enumerate(CMDS):
            ev = _post(srv.port, "/v1/chat/completions", {"model": "gpt-5.4", "stream": True,
                                                          "messages": msgs, "tools": tools})
            calls = [c for _, d in ev if isinstance(d, dict) for ch in d.get("choices", [])
                     for c in ch["delta"].get("tool_calls", [])]
            assert len(calls) == 1 and calls[0]["function"]["name"] == "bash"
            assert json.loads(calls[0]["function"]["arguments"])["command"] == cmd
            assert ev[-1] == (None, "[DONE]")
            msgs += [{"role": "assistant", "tool_calls": calls},
                     {"role": "tool", "tool_call_id": calls[0]["id"], "content": "ok"}]
        ev = _post(srv.port, "/v1/chat/completions", {"messages": msgs, "tools": tools})
        text = "".join(ch["delta"].get("content", "") for _, d in ev if isinstance(d, dict)
                       for ch in d.get("choices", []))
        assert text == "agentdeck drill: done."
    assert [s["command"] for s in script.seen] == [0, 1, None]


def test_responses_stream_for_codex():
    script = Script(list(CMDS))
    with ScriptedServer(script) as srv:
        body = {"model": "gpt-5.4", "stream": True, "input": [{"type": "message", "role": "user"}],
                "tools": [{"type": "function", "name": "exec_command"}]}
        ev = _post(srv.port, "/v1/responses", body)
        names = [n for n, _ in ev]
        assert names[0] == "response.created" and names[-1] == "response.completed"
        item = next(d["item"] for n, d in ev if n == "response.output_item.done")
        assert item["type"] == "function_call" and item["name"] == "exec_command"
        assert json.loads(item["arguments"]) == {"cmd": CMDS[0]}
        body["input"] += [item, {"type": "function_call_output", "call_id": item["call_id"]}]
        item = next(d["item"] for n, d in _post(srv.port, "/v1/responses", body)
                    if n == "response.output_item.done")
        assert json.loads(item["arguments"]) == {"cmd": CMDS[1]}


def test_messages_stream_for_claude():
    script = Script(list(CMDS))
    with ScriptedServer(script) as srv:
        body = {"model": "claude-sonnet-5-5", "stream": True,
                "messages": [{"role": "user", "content": "go"}], "tools": [{"name": "Bash"}]}
        ev = _post(srv.port, "/v1/messages?beta=true", body)
        assert [n for n, _ in ev] == ["message_start", "content_block_start",
                                      "content_block_delta", "content_block_stop",
                                      "message_delta", "message_stop"]
        assert ev[1][1]["content_block"]["name"] == "Bash"
        assert json.loads(ev[2][1]["delta"]["partial_json"])["command"] == CMDS[0]
        assert ev[4][1]["delta"]["stop_reason"] == "tool_use"
        body["messages"] += [{"role": "user", "content": [{"type": "tool_result"}]}] * 2
        ev = _post(srv.port, "/v1/messages", body)
        assert ev[2][1]["delta"] == {"type": "text_delta", "text": "agentdeck drill: done."}


def test_gemini_stream_for_gemini_cli_and_its_router_gets_schema_shaped_json():
    script = Script(list(CMDS), shell_tools=(("run_shell_command", "command"),))
    tools = [{"functionDeclarations": [{"name": "read_file"}, {"name": "run_shell_command"}]}]
    path = "/v1beta/models/gemini-3.8-flash:streamGenerateContent?alt=sse"
    with ScriptedServer(script) as srv:
        contents = [{"role": "user", "parts": [{"text": "go"}]}]
        for cmd in CMDS:
            ev = _post(srv.port, path, {"contents": contents, "tools": tools})
            part = ev[0][1]["candidates"][0]["content"]["parts"][0]
            assert part["functionCall"] == {"name": "run_shell_command", "args": {"command": cmd}}
            contents += [{"role": "model", "parts": [part]},
                         {"role": "user", "parts": [{"functionResponse": {
                             "name": "run_shell_command", "response": {"output": "ok"}}}]}]
        ev = _post(srv.port, path, {"contents": contents, "tools": tools})
        assert ev[0][1]["candidates"][0]["content"]["parts"] == [{"text": "agentdeck drill: done."}]
        # the model router's side call: JSON of its response schema, not text (else it retries)
        schema = {"type": "OBJECT", "properties": {"complexity_reasoning": {"type": "STRING"},
                                                   "complexity_score": {"type": "INTEGER"}}}
        req = urllib.request.Request(
            f"http://127.0.0.1:{srv.port}/v1beta/models/gemini-3.5-flash-lite:generateContent",
            data=json.dumps({"contents": contents, "generationConfig": {
                "responseMimeType": "application/json", "responseJsonSchema": schema}}).encode(),
            headers={"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(req, timeout=10) as r:
            answer = json.loads(r.read())
        text = answer["candidates"][0]["content"]["parts"][0]["text"]
        assert set(json.loads(text)) == {"complexity_reasoning", "complexity_score"}
        assert isinstance(json.loads(text)["complexity_score"], int)
    assert [s.get("command") for s in script.seen if s.get("wire") == "genai"] == [0, 1, None]


def test_a_request_without_tools_gets_text():
    script = Script(list(CMDS))
    with ScriptedServer(script) as srv:
        ev = _post(srv.port, "/v1/chat/completions", {"messages": [{"role": "user"}]})
        assert not any(ch["delta"].get("tool_calls") for _, d in ev if isinstance(d, dict)
                       for ch in d.get("choices", []))


# ---- the handler's side of the contract ---------------------------------------------------------

def test_handler_tags_drill_records_and_denies_only_the_canary():
    env = {"AGENTDECK_DRILL_ID": "d-1", "AGENTDECK_TARGET": "claude"}
    canary = {"hook_event_name": "PreToolUse", "tool_name": "Bash",
              "tool_input": {"command": "echo agentdeck-drill-canary > c.txt"}}
    rec = hookhandler.build_record(canary, "PreToolUse", env)
    assert hookhandler.drill_tag(rec, env) is True
    assert rec["drill_id"] == "d-1" and rec["decision"] == "deny"
    harmless = dict(canary, tool_input={"command": "echo ok"})
    rec = hookhandler.build_record(harmless, "PreToolUse", env)
    assert hookhandler.drill_tag(rec, env) is False and "decision" not in rec
    # outside a drill the canary token is nothing special
    rec = hookhandler.build_record(canary, "PreToolUse", {})
    assert hookhandler.drill_tag(rec, {}) is False and "drill_id" not in rec


# ---- receipts -----------------------------------------------------------------------------------

def _line(**kw) -> bytes:
    return (json.dumps(kw) + "\n").encode()


def test_receipts_keep_only_this_drill():
    data = (_line(event="session_start", drill_id="d-1", handler_ms=40)
            + b"not json\n" + _line(event="session_start")             # a real session
            + _line(event="session_start", drill_id="d-2")            # another drill
            + _line(event="pre_tool_use", drill_id="d-1", handler_ms=90,
                    tools=[{"name": "bash", "args": {"command": "echo one"}}])
            + _line(event="pre_tool_use", drill_id="d-1", handler_ms=70, decision="deny",
                    tools=[{"name": "bash", "args": {"command": "echo agentdeck-drill-canary"}}]))
    recs = receipts.parse(data, "d-1")
    assert [r["event"] for r in recs] == ["session_start", "pre_tool_use", "pre_tool_use"]
    t = receipts.tally(recs)
    assert t.fired("session_start") == 1 and t.fired("pre_tool_use") == 2
    assert t.events["pre_tool_use"].latency_ms == 90
    assert t.events["pre_tool_use"].repeats == {}          # two calls, two commands: no repeat
    assert len(t.denied) == 1


def test_receipts_find_the_same_occurrence_twice():
    recs = [{"event": "session_start", "drill_id": "d"}] * 2 + [
        {"event": "pre_tool_use", "drill_id": "d", "tools": [{"args": {"cmd": "echo one"}}]}] * 2 + [
        {"event": "pre_model_request", "drill_id": "d"}] * 3
    t = receipts.tally(recs, per_request=("pre_model_request",))
    assert t.events["session_start"].repeats == {None: 2}
    assert t.events["pre_tool_use"].repeats == {"echo one": 2}
    assert t.events["pre_model_request"].repeats == {}


# ---- judging ------------------------------------------------------------------------------------

def _records(target: str, plan, drill_id: str, twice: set[str] = frozenset()) -> list[dict]:
    """What a healthy turn writes for the registered events a one-tool turn fires."""
    r = runners.RUNNERS[target]
    out = []
    for row in plan.output[target].hooks.events:
        canon = hookhandler.canonical_event(row.event)
        if canon not in r.fires or row.also:     # also_events: not in a one-tool turn
            continue
        raw = row.event
        if canon == "pre_tool_use":
            out.append({"event": canon, "raw_event": raw, "drill_id": drill_id, "handler_ms": 80,
                        "tools": [{"args": {"command": "echo agentdeck-drill-ok"}}]})
            out.append({"event": canon, "raw_event": raw, "drill_id": drill_id,
                        "decision": "deny",
                        "tools": [{"args": {"command": "echo agentdeck-drill-canary"}}]})
            continue
        out += [{"event": canon, "raw_event": raw, "drill_id": drill_id,
                 "handler_ms": 80}] * (2 if canon in twice else 1)
    return out


RUN_OK = {"returncode": 0, "timed_out": False, "requests": [{"command": 0}, {"command": 1}]}
SIDE_OK = {"harmless": True, "canary": False}


def test_judge_a_healthy_turn(ghost):
    engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["claude"]))
    plan = engine.build_plan(ghost, "default", ["claude"])
    rep = report.judge(ghost, "claude", plan, runners.runner("claude"), "2.1.332", RUN_OK,
                       _records("claude", plan, "d"), SIDE_OK, 1.0, "isolated")
    assert rep.ok, rep.problems
    assert rep.deny["held"] is True
    pre = next(e for e in rep.events if e.event == "PreToolUse")
    assert pre.fired == 2 and pre.latency_ms == 80 and pre.timeout_s == 30


def test_an_event_decided_as_pre_tool_use_is_counted_by_its_own_spelling(ghost):
    """Claude's PreSkillShellCommand (facts: also_events) is registered beside PreToolUse and its
    records carry event pre_tool_use: the drill counts it by its raw spelling, so PreToolUse's
    calls do not make it look fired, and the one-tool turn not firing it is no failure."""
    engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["claude"]))
    plan = engine.build_plan(ghost, "default", ["claude"])
    runner = runners.runner("claude")
    rep = report.judge(ghost, "claude", plan, runner, "2.1.332", RUN_OK,
                       _records("claude", plan, "d"), SIDE_OK, 1.0, "isolated")
    assert rep.ok, rep.problems
    skill = next(e for e in rep.events if e.event == "PreSkillShellCommand")
    assert (skill.canonical, skill.fired, skill.ok) == ("pre_tool_use", 0, True)
    assert "loads no skill" in skill.note
    ran = {"event": "pre_tool_use", "raw_event": "PreSkillShellCommand", "drill_id": "d",
           "handler_ms": 80, "tools": [{"args": {"command": "ls"}}]}
    rep = report.judge(ghost, "claude", plan, runner, "2.1.332", RUN_OK,
                       [*_records("claude", plan, "d"), ran], SIDE_OK, 1.0, "isolated")
    fired = {e.event: e.fired for e in rep.events}
    assert (fired["PreSkillShellCommand"], fired["PreToolUse"]) == (1, 2)


def test_double_firing_names_the_other_copilot_hooks_file(ghost):
    engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["copilot"]))
    copy = target_home(ghost, "copilot") / "hooks" / "copy.json"
    copy.write_text((target_home(ghost, "copilot") / "hooks" / "agentdeck.json").read_text())
    plan = engine.build_plan(ghost, "default", ["copilot"])
    recs = _records("copilot", plan, "d", twice={"session_start"})
    rep = report.judge(ghost, "copilot", plan, runners.runner("copilot"), "1.0.102", RUN_OK, recs, SIDE_OK,
                       1.0, "isolated")
    assert not rep.ok
    ss = next(e for e in rep.events if e.event == "sessionStart")
    assert not ss.ok and ss.other_sources == [f"{copy} (user-hooks-file)"]
    assert "fired 2 times for one occurrence: also registered by" in ss.note


def test_codex_untrusted_is_why_nothing_fired(ghost):
    engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["codex"], trust_hooks=False))
    plan = engine.build_plan(ghost, "default", ["codex"], trust_hooks=False)
    rep = report.judge(ghost, "codex", plan, runners.runner("codex"), "0.171.0", RUN_OK, [],
                       {"harmless": True, "canary": True}, 1.0, "isolated")
    assert not rep.ok
    ss = next(e for e in rep.events if e.event == "SessionStart")
    assert ss.note.startswith("hooks inert: Codex skips untrusted hooks")
    assert any("the deny did NOT hold" in p for p in rep.problems)


def test_not_reachable_events_do_not_fail(ghost):
    engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["codex"], trust_hooks=True))
    plan = engine.build_plan(ghost, "default", ["codex"])
    rep = report.judge(ghost, "codex", plan, runners.runner("codex"), "0.171.0", RUN_OK,
                       _records("codex", plan, "d"), SIDE_OK, 1.0, "isolated")
    assert rep.ok, rep.problems
    perm = next(e for e in rep.events if e.event == "PermissionRequest")
    assert perm.fired == 0 and perm.ok and "cannot fire under `codex exec`" in perm.note


def test_a_reachable_event_that_did_not_fire_fails(ghost):
    engine.apply_plan(ghost, engine.build_plan(ghost, "default", ["claude"]))
    plan = engine.build_plan(ghost, "default", ["claude"])
    recs = [r for r in _records("claude", plan, "d") if r["event"] != "stop"]
    rep = report.judge(ghost, "claude", plan, runners.runner("claude"), "2.1.332", RUN_OK, recs, SIDE_OK,
                       1.0, "isolated")
    assert not rep.ok and "Stop: did not fire, although a one-tool turn fires it" in rep.problems


@pytest.mark.parametrize("target", registry.NAMES)
def test_runner_versions_are_the_verified_facts(target):
    from agentdeck.core.facts import FACTS_BY_TARGET
    assert runners.RUNNERS[target].verified == FACTS_BY_TARGET[target].verified_versions[1]


def test_a_scratch_folder_outside_the_home_is_removed_only_when_asked(tmp_path):
    """The org drill's scratch folder lives under /tmp (the unprivileged user must reach it):
    removing it says so (confine=False); anything else outside the home is refused as before."""
    from agentdeck.core.drill.scratch import remove
    from agentdeck.core.host import Host

    home = tmp_path / "home"
    home.mkdir()
    host = Host(home=home, env={"HOME": str(home), "PATH": "/usr/bin:/bin"})
    outside = tmp_path / "scratch"
    (outside / "a" / "b").mkdir(parents=True)
    (outside / "a" / "b" / "f").write_text("x")
    (outside / "link").symlink_to(home)
    remove(host, outside)
    assert (outside / "a" / "b" / "f").exists()          # confined: nothing removed
    remove(host, outside, confine=False)
    assert not outside.exists() and home.is_dir()        # the link went, not what it points to


@pytest.mark.parametrize("schema, value", [
    ({"type": "INTEGER", "description": "Complexity score from 1-100."}, 1),  # Gemini's router
    ({"type": "number", "description": "A number between 0.0 and 1.0 representing ..."}, 0),
    ({"type": "number"}, 0),
    ({"type": "integer", "minimum": 3, "maximum": 9}, 3),
    ({"type": "integer", "exclusiveMinimum": 3}, 4),
    ({"type": "number", "exclusiveMinimum": 3, "maximum": 3.5}, 3.25),
    ({"type": "number", "exclusiveMinimum": 3}, 4),
    ({"type": "integer", "minimum": 2, "exclusiveMinimum": True}, 3),    # draft 4's flag
    ({"type": "integer", "minimum": 0.5}, 1),
    ({"type": "number", "maximum": -2}, -2),
    ({"type": "integer", "exclusiveMaximum": 0}, -1),
    ({"type": "number", "minimum": 5, "description": "from 1-100"}, 5),   # the schema's own wins
])
def test_a_number_is_answered_inside_its_schema_s_bounds(schema, value):
    got = schema_value(schema)
    assert got == value
    if schema["type"].lower() == "integer":
        assert isinstance(got, int)


def test_gemini_s_router_gets_a_complexity_score_its_check_accepts():
    schema = {"type": "OBJECT", "properties": {
        "complexity_reasoning": {"type": "STRING", "description": "Brief explanation."},
        "complexity_score": {"type": "INTEGER", "description": "Complexity score from 1-100."}},
        "required": ["complexity_reasoning", "complexity_score"]}
    assert 1 <= schema_value(schema)["complexity_score"] <= 100
