"""core.policy: the tool vocabulary per dialect, rule evaluation, and the handler's answer in each
CLI's channel (exit code and stdout shape from core.facts.hook_channels), end to end through
hookhandler.main with a compiled policy file.

Every test writes only under tmp_path."""
from __future__ import annotations

import io
import json
import sys

import pytest

from agentdeck.core import hookhandler
from agentdeck.core.facts import hook_channels as F
from agentdeck.core.policy import compiled, payloads
from agentdeck.core.policy.rules import check_rule, evaluate, evaluate_prompt
from agentdeck.core.policy.selftest import test_policy as run_selftest
from agentdeck.core.policy.vocabulary import tool_calls
from agentdeck.core.targets import dialects
from tests.registry_kit import HOOKED, denied, dialect, shell_payload

POLICY = {"on_error": "deny", "rules": [
    {"id": "no-force-push", "tool": "shell", "match": r"git\s+push\b.*--force",
     "decision": "deny", "reason": "force-push is not allowed here",
     "examples": {"deny": ["git push --force origin main"], "allow": ["git push origin topic"]}},
    {"id": "ssh-keys", "tool": "read", "match": r"(^|/)\.ssh/id_[A-Za-z0-9_]+$",
     "decision": "deny", "reason": "private SSH keys",
     "examples": {"deny": ["/home/u/.ssh/id_ed25519"], "allow": ["/home/u/.ssh/id_ed25519.pub"]}},
    {"id": "protect-ci", "tool": "write", "match": r"(^|/)\.github/workflows/",
     "decision": "deny", "reason": "CI is protected",
     "examples": {"deny": [".github/workflows/ci.yml"], "allow": ["src/app.py"]}},
    {"id": "ask-rm", "tool": "shell", "match": r"\brm\s+-rf\b", "decision": "ask",
     "reason": "really delete?", "examples": {"ask": ["rm -rf build"]}},
    {"id": "no-delete-repo", "tool": "mcp", "match": r"^github/delete_", "decision": "deny",
     "reason": "no repository deletion",
     "examples": {"deny": ["github/delete_repository"], "allow": ["github/get_issue"]}},
    {"id": "no-pastebin", "tool": "web", "match": r"pastebin\.com", "decision": "deny",
     "reason": "no pastebins", "examples": {"deny": ["https://pastebin.com/raw/x"],
                                            "allow": ["https://docs.python.org/3/"]}},
    {"id": "no-pw-prompt", "tool": "prompt", "match": r"(?i)my password is", "decision": "deny",
     "reason": "do not paste passwords", "examples": {"deny": ["my password is x"],
                                                      "allow": ["fix the bug"]}},
]}


@pytest.fixture
def policy_file(tmp_path, monkeypatch):
    path = tmp_path / "policy.json"
    path.write_text(compiled.compile_policy(POLICY, "test"))
    monkeypatch.setenv("AGENTDECK_POLICY", str(path))
    monkeypatch.setenv("AGENTDECK_STATE_DIR", str(tmp_path / "state"))
    for var in ("AGENTDECK_EVENT", "AGENTDECK_TARGET", "AGENTDECK_DRILL_ID"):
        monkeypatch.delenv(var, raising=False)
    return path


def hook(monkeypatch, capsys, tmp_path, payload, event, target):
    """(exit code, stdout, stderr, audit record) of hookhandler.main in-process."""
    monkeypatch.setenv("AGENTDECK_TARGET", target)
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code = hookhandler.main([event])
    out = capsys.readouterr()
    lines = (tmp_path / "state" / "audit.jsonl").read_text().splitlines()
    return code, out.out.strip(), out.err.strip(), json.loads(lines[-1])


# ---- vocabulary ------------------------------------------------------------------------------
@pytest.mark.parametrize("payload,expected", [
    ({"toolName": "bash", "toolArgs": {"command": "ls"}}, [("shell", ["ls"])]),
    ({"toolName": "bash", "toolArgs": json.dumps({"command": "ls"})}, [("shell", ["ls"])]),
    ({"toolCalls": [{"name": "bash", "args": json.dumps({"command": "ls"})},
                    {"name": "view", "args": json.dumps({"path": "a.py"})}]},
     [("shell", ["ls"]), ("read", ["a.py"])]),
    ({"toolName": "create", "toolArgs": {"path": "n.py", "file_text": "x"}}, [("write", ["n.py"])]),
    ({"toolName": "edit", "toolArgs": {"path": "e.py", "old_str": "a", "new_str": "b"}},
     [("write", ["e.py"])]),
    ({"toolName": "view", "toolArgs": {"path": "v.py"}}, [("read", ["v.py"])]),
    ({"toolName": "str_replace_editor", "toolArgs": {"command": "view", "path": "s.py"}},
     [("read", ["s.py"])]),
    ({"toolName": "str_replace_editor", "toolArgs": {"command": "str_replace", "path": "s.py"}},
     [("write", ["s.py"])]),
    ({"serverName": "github", "toolName": "get_issue", "arguments": {}},
     [("mcp", ["github/get_issue"])]),
    ({"tool_name": "Bash", "tool_input": {"command": "make"}}, [("shell", ["make"])]),
    ({"tool_name": "exec_command", "tool_input": {"cmd": "make"}}, [("shell", ["make"])]),
    ({"tool_name": "shell", "tool_input": {"command": ["bash", "-lc", "make"]}},
     [("shell", ["make"])]),
    ({"tool_name": "apply_patch", "tool_input": {"command": "*** Begin Patch\n*** Update File: a.py\n"
                                                            "*** Add File: b/c.py\n*** Delete File: d.py\n"
                                                            "*** End Patch\n"}},
     [("write", ["a.py", "b/c.py", "d.py"])]),
    ({"tool_name": "mcp__github__create_issue", "tool_input": {}},
     [("mcp", ["github/create_issue"])]),
    ({"tool_name": "Read", "tool_input": {"file_path": "/r/a"}}, [("read", ["/r/a"])]),
    ({"tool_name": "Write", "tool_input": {"file_path": "/r/w", "content": ""}}, [("write", ["/r/w"])]),
    ({"tool_name": "Edit", "tool_input": {"file_path": "/r/e"}}, [("write", ["/r/e"])]),
    ({"tool_name": "MultiEdit", "tool_input": {"file_path": "/r/m", "edits": []}},
     [("write", ["/r/m"])]),
    ({"tool_name": "NotebookEdit", "tool_input": {"notebook_path": "/r/n.ipynb"}},
     [("write", ["/r/n.ipynb"])]),
    ({"tool_name": "WebFetch", "tool_input": {"url": "https://x.example"}},
     [("web", ["https://x.example"])]),
    ({"tool_name": "run_in_terminal", "tool_input": {"command": "npm test"}}, [("shell", ["npm test"])]),
    ({"tool_name": "create_file", "tool_input": {"filePath": "/r/c"}}, [("write", ["/r/c"])]),
    ({"tool_name": "replace_string_in_file", "tool_input": {"filePath": "/r/r"}},
     [("write", ["/r/r"])]),
    ({"tool_name": "read_file", "tool_input": {"filePath": "/r/f"}}, [("read", ["/r/f"])]),
    ({"tool_name": "fetch_webpage", "tool_input": {"urls": ["https://a", "https://b"]}},
     [("web", ["https://a", "https://b"])]),
    ({"tool_name": "mcp_github_get_issue", "tool_input": {}}, [("mcp", ["github/get_issue"])]),
    ({"tool_name": "TodoWrite", "tool_input": {"todos": ["x"]}}, [("other", ["TodoWrite", "x"])]),
])
def test_every_dialect_maps_onto_the_vocabulary(payload, expected):
    assert [(c.cls, c.subjects) for c in tool_calls(payload)] == expected


# ---- rules -------------------------------------------------------------------------------------
RULES = json.loads(compiled.compile_policy(POLICY, "test"))["rules"]


def test_deny_wins_over_ask_wins_over_allow():
    rules = [{"id": "a", "tool": "shell", "match": "x", "decision": "allow"},
             {"id": "q", "tool": "any", "match": "x", "decision": "ask"},
             {"id": "d", "tool": "shell", "match": "xx", "decision": "deny"}]
    assert evaluate(rules, tool_calls({"tool_name": "Bash", "tool_input": {"command": "x"}})).rule == "q"
    v = evaluate(rules, tool_calls({"tool_name": "Bash", "tool_input": {"command": "xx"}}))
    assert (v.decision, v.rule) == ("deny", "d")
    v = evaluate(rules, tool_calls({"tool_name": "Bash", "tool_input": {"command": "y"}}))
    assert (v.decision, v.rule) == ("allow", None)


def test_a_batch_is_denied_when_any_call_is():
    calls = tool_calls({"toolCalls": [
        {"name": "bash", "args": json.dumps({"command": "ls"})},
        {"name": "view", "args": json.dumps({"path": "/home/u/.ssh/id_rsa"})}]})
    v = evaluate(RULES, calls)
    assert (v.decision, v.rule, v.call.name) == ("deny", "ssh-keys", "view")


def test_apply_patch_with_one_protected_path_is_denied():
    patch = ("*** Begin Patch\n*** Update File: src/a.py\n@@\n-a\n+b\n"
             "*** Update File: .github/workflows/ci.yml\n@@\n-x\n+y\n*** End Patch\n")
    v = evaluate(RULES, tool_calls({"tool_name": "apply_patch", "tool_input": {"command": patch}}))
    assert (v.decision, v.rule) == ("deny", "protect-ci")


def test_prompt_rules_see_only_prompts():
    assert evaluate_prompt(RULES, "My password is hunter2").decision == "deny"
    calls = tool_calls({"tool_name": "Bash", "tool_input": {"command": "echo my password is x"}})
    assert evaluate(RULES, calls).decision == "allow"


@pytest.mark.parametrize("rule,why", [
    ({"id": "x", "tool": "shell", "match": "(", "decision": "deny"}, "not a valid regular"),
    ({"id": "x", "tool": "files", "match": "a", "decision": "deny"}, "tool 'files'"),
    ({"id": "x", "tool": "shell", "match": "a", "decision": "block"}, "decision 'block'"),
    ({"tool": "shell", "match": "a", "decision": "deny"}, "needs an id"),
])
def test_bad_rules_are_named(rule, why):
    assert why in check_rule(rule)


def test_duplicate_ids_are_refused():
    with pytest.raises(ValueError, match="used twice"):
        compiled.compile_policy({"rules": [RULES[0], RULES[0]]}, "copilot")


# ---- answers per CLI (exit code + stdout shape from the facts table) ---------------------------
#: every caller whose hooks agentdeck registers: each registered target with a dialect, and the
#: scopes one of them speaks for (a repository's hooks); its payloads from the policy-test
#: templates (core/policy/payloads.py), its channel from its dialect part
CALLERS = list(dialects.speakers())
PUSH = "git push --force origin main"
DENY_FORCE_PUSH = {c: shell_payload(c, PUSH)[::-1] for c in CALLERS}
CHANNEL = {c: dialect(c).label for c in CALLERS}


@pytest.mark.parametrize("target", CALLERS)
def test_deny_answers_in_the_clis_own_channel(policy_file, monkeypatch, capsys, tmp_path, target):
    payload, event = DENY_FORCE_PUSH[target]
    code, out, err, rec = hook(monkeypatch, capsys, tmp_path, payload, event, target)
    row = F.PRE_TOOL[CHANNEL[target]]
    assert code == row["deny_exit"]          # 2, or Qwen's 0 with the deny in its JSON
    assert err == "force-push is not allowed here"
    if row["shape"] is None:                 # a plugin's channel: the exit and stderr only
        assert out == ""
        shown = None
    else:
        shown = json.loads(out)
    if row["shape"] is None:
        pass
    elif row["shape"] == "flat":
        assert shown == {"permissionDecision": "deny",
                         "permissionDecisionReason": "force-push is not allowed here"}
    elif row["shape"] == "block":            # Gemini CLI's {"decision": "block", "reason": R}
        assert shown == {"decision": "block", "reason": "force-push is not allowed here"}
    else:
        assert shown == {"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "force-push is not allowed here"}}
    assert (rec["decision"], rec["rule"], rec["tool_class"], rec["tool_name"]) == (
        "deny", "no-force-push", "shell", payload.get("toolName") or payload.get("tool_name"))
    assert rec["summary"] == [PUSH]
    assert isinstance(rec["latency_ms"], float)
    assert rec["session_id"] == (payload.get("session_id") or payload.get("sessionId"))


@pytest.mark.parametrize("target", CALLERS)
def test_an_unmatched_call_is_allowed_silently(policy_file, monkeypatch, capsys, tmp_path, target):
    payload, event = DENY_FORCE_PUSH[target]
    payload = json.loads(json.dumps(payload).replace("--force ", ""))
    code, out, err, rec = hook(monkeypatch, capsys, tmp_path, payload, event, target)
    assert (code, out, err) == (0, "", "")
    assert (rec["decision"], rec["rule"]) == ("allow", None)


@pytest.mark.parametrize("target", CALLERS)
def test_ask_where_the_cli_has_it_deny_where_not(policy_file, monkeypatch, capsys, tmp_path,
                                                target):
    row = F.PRE_TOOL[CHANNEL[target]]
    want = row["ask"]                        # the dialect's fact: Codex has no ask at a hook
    payload, event = DENY_FORCE_PUSH[target]
    payload = json.loads(json.dumps(payload).replace(PUSH, "rm -rf build"))
    code, out, err, rec = hook(monkeypatch, capsys, tmp_path, payload, event, target)
    assert rec["decision"] == "ask" and rec["rule"] == "ask-rm"
    assert rec.get("effective") == want
    assert code == (row["deny_exit"] if want == "deny" else 0)
    if want == "ask":
        assert "ask" in out
    else:
        spelled = '"block"' if row["shape"] == "block" else '"deny"'
        assert (spelled in out) if row["shape"] else out == ""


def _prompt(caller: str, text: str) -> tuple[str, dict]:
    """(event, payload) of a prompt as `caller`'s hooks send it (its own dialect's template)."""
    label = dialect(caller).label
    return next((e, p) for lbl, c, e, p in payloads.shapes("prompt", text)
                if c == caller and lbl == label)


#: the callers whose CLI lets agentdeck see prompts (a plugin that sees tool calls only does not)
PROMPT_CALLERS = [c for c in CALLERS if not F.PROMPT[CHANNEL[c]].get("none")]


def test_a_cli_without_a_prompt_channel_says_so_and_has_no_prompt_template():
    for c in set(CALLERS) - set(PROMPT_CALLERS):
        assert "not enforced" in F.PROMPT[CHANNEL[c]]["none"]
        assert not [p for lbl, cc, e, p in payloads.shapes("prompt", "x") if cc == c]


@pytest.mark.parametrize("target", PROMPT_CALLERS)
def test_a_prompt_rule_blocks_through_the_prompt_channel(policy_file, monkeypatch, capsys, tmp_path,
                                                        target):
    event, payload = _prompt(target, "My password is x")
    code, out, err, rec = hook(monkeypatch, capsys, tmp_path, payload, event, target)
    assert code == F.PROMPT[CHANNEL[target]]["exit"]     # Copilot blocks with exit 0
    assert json.loads(out) == {"decision": "block", "reason": "do not paste passwords"}
    assert (rec["event"], rec["decision"], rec["rule"], rec["tool_class"]) == (
        "user_prompt_submit", "deny", "no-pw-prompt", "prompt")


@pytest.mark.parametrize("target", HOOKED)
def test_malformed_payload_follows_on_error_deny(policy_file, monkeypatch, capsys,
                                                 tmp_path, target):
    event = dialect(target).events[0]
    code, out, err, rec = hook(monkeypatch, capsys, tmp_path, b"{not json", event, target)
    # never 1 (Codex and Claude would run the tool): the deny in the CLI's own channel
    assert denied(target, code, out), (code, out)
    assert "on_error = deny" in err
    assert (rec["decision"], rec["rule"]) == ("deny", "on_error")


def test_on_error_allow_lets_it_run_and_records(tmp_path, monkeypatch, capsys, policy_file):
    policy_file.write_text(compiled.compile_policy({**POLICY, "on_error": "allow"}, "test"))
    code, out, err, rec = hook(monkeypatch, capsys, tmp_path, b"{not json", "PreToolUse", "claude")
    assert (code, out, err) == (0, "", "")
    assert (rec["decision"], rec["rule"]) == ("allow", "on_error") and "not JSON" in rec["error"]


def test_an_internal_error_follows_on_error(policy_file, monkeypatch, capsys, tmp_path):
    def boom(*a, **k):
        raise RuntimeError("kaboom")
    monkeypatch.setattr(hookhandler, "build_record", boom)
    code, out, err, rec = hook(monkeypatch, capsys, tmp_path, DENY_FORCE_PUSH["codex"][0],
                               "PreToolUse", "codex")
    assert code == 2 and "internal error" in err
    assert rec["decision"] == "deny" and rec["rule"] == "on_error"


def test_no_policy_file_allows_everything_as_before(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AGENTDECK_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("AGENTDECK_POLICY", raising=False)
    code, out, err, rec = hook(monkeypatch, capsys, tmp_path, DENY_FORCE_PUSH["claude"][0],
                               "PreToolUse", "claude")
    assert (code, out, err) == (0, "", "") and rec["decision"] == "allow"


def test_the_policy_is_found_in_the_state_dir_by_target(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("AGENTDECK_POLICY", raising=False)
    monkeypatch.setenv("AGENTDECK_STATE_DIR", str(tmp_path / "state"))
    (tmp_path / "state" / "policy").mkdir(parents=True)
    (tmp_path / "state" / "policy" / "codex.json").write_text(compiled.compile_policy(POLICY, "codex"))
    code, *_ = hook(monkeypatch, capsys, tmp_path, DENY_FORCE_PUSH["codex"][0], "PreToolUse", "codex")
    assert code == 2
    code, *_ = hook(monkeypatch, capsys, tmp_path, DENY_FORCE_PUSH["claude"][0], "PreToolUse", "claude")
    assert code == 0                                 # no claude.json: nothing to enforce


def test_a_fifo_policy_never_blocks(tmp_path, monkeypatch, capsys):
    import os
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    monkeypatch.setenv("AGENTDECK_POLICY", str(fifo))
    monkeypatch.setenv("AGENTDECK_STATE_DIR", str(tmp_path / "state"))
    code, out, err, rec = hook(monkeypatch, capsys, tmp_path, DENY_FORCE_PUSH["claude"][0],
                               "PreToolUse", "claude")
    assert code == 0 and rec["rule"] == "on_error" and "not a regular file" in rec["reason"]


# ---- the drill canary ----------------------------------------------------------------------
@pytest.mark.parametrize("target", CALLERS)
def test_the_canary_is_denied_only_during_a_drill(tmp_path, monkeypatch, capsys, target):
    monkeypatch.delenv("AGENTDECK_POLICY", raising=False)
    monkeypatch.setenv("AGENTDECK_STATE_DIR", str(tmp_path / "state"))
    payload, event = DENY_FORCE_PUSH[target]
    payload = json.loads(json.dumps(payload).replace(PUSH, "touch /tmp/agentdeck-drill-canary"))
    code, out, err, rec = hook(monkeypatch, capsys, tmp_path, payload, event, target)
    assert code == 0 and rec["decision"] == "allow" and "drill_id" not in rec
    monkeypatch.setenv("AGENTDECK_DRILL_ID", "drill-42")
    code, out, err, rec = hook(monkeypatch, capsys, tmp_path, payload, event, target)
    assert denied(target, code, out) and "drill-42" in err     # in the CLI's own channel
    assert (rec["decision"], rec["rule"], rec["drill_id"]) == ("deny", "drill-canary", "drill-42")


def test_every_line_of_a_drill_carries_its_id(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AGENTDECK_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("AGENTDECK_DRILL_ID", "drill-7")
    code, out, err, rec = hook(monkeypatch, capsys, tmp_path, {"session_id": "s"}, "SessionStart",
                               "claude")
    assert rec["drill_id"] == "drill-7" and "decision" not in rec


# ---- policy test ---------------------------------------------------------------------------
def test_policy_test_passes_on_a_good_policy():
    res = run_selftest(POLICY)
    assert res.ok, res.mismatches
    # every rule was tried in every dialect that has a tool of its class
    assert res.checked >= 60


def test_policy_test_reports_an_example_that_does_not_get_its_decision():
    bad = {"rules": [{"id": "typo", "tool": "shell", "match": r"git\s+psh", "decision": "deny",
                      "examples": {"deny": ["git push --force"]}}]}
    res = run_selftest(bad)
    assert not res.ok
    assert any("rule typo example 'git push --force' in codex:exec_command: expected deny, got allow"
               in m for m in res.mismatches)


def test_payload_templates_cover_each_dialect_and_class():
    labels = {lbl.split(":")[0] for cls in ("shell", "read", "write", "web", "mcp")
              for lbl, *_ in payloads.shapes(cls, "x/y")}
    assert labels == set(payloads.DIALECTS)


def test_an_allowed_call_loads_no_profile_machinery(tmp_path, policy_file):
    """The handler reads the compiled JSON only: no pydantic, tomlkit, profile model or facts
    package on the allow path (the channel facts load only for a deny or ask)."""
    import os
    import subprocess
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    code = ("import sys, json\n"
            "from agentdeck.core import hookhandler\n"
            "rc = hookhandler.main(['PreToolUse'])\n"
            "heavy = [m for m in sys.modules if m.split('.')[0] in ('pydantic', 'tomlkit', 'textual')"
            " or m.startswith(('agentdeck.core.facts', 'agentdeck.core.model', 'agentdeck.core.profiles'))]\n"
            "sys.stderr.write(json.dumps([rc, sorted(heavy)]))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTDECK_")}
    env.update(AGENTDECK_POLICY=str(policy_file), AGENTDECK_STATE_DIR=str(tmp_path / "state"),
               AGENTDECK_TARGET="claude", HOME=str(tmp_path))
    payload = {"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": "ls -la"}}
    proc = subprocess.run([sys.executable, "-c", code], input=json.dumps(payload).encode(),
                          capture_output=True, env=env, cwd=repo, timeout=60)
    assert json.loads(proc.stderr) == [0, []]
