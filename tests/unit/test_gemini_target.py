"""Gemini CLI's package: what its adapter plans, what its doctor and health say and how its
hooks answer, against a temporary home (facts: docs/facts/gemini.md, Gemini CLI 0.61.0). The real
CLI is tests/clients/test_gemini_real.py."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from agentdeck.core import engine, hookhandler, hooks_health
from agentdeck.core.policy import compiled, vocabulary
from agentdeck.core.targets import dialects
from agentdeck.core.targets.gemini import SPEC
from agentdeck.core.targets.gemini.dialect import GEMINI as GEMINI_DIALECT

PAYLOADS = Path(__file__).resolve().parents[1] / "fixtures" / "payloads" / "gemini"


def _settings(host) -> Path:
    return SPEC.home(host) / "settings.json"


def _apply(host, profile="default"):
    plan = engine.build_plan(host, profile, ["gemini"])
    res = engine.apply_plan(host, plan)
    assert res.ok, res.leftover
    return plan


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_each_hook_is_named_and_its_timeout_is_in_milliseconds(host):
    plan = _apply(host)
    data = json.loads(_settings(host).read_text())
    assert {"BeforeTool", "BeforeAgent", "AfterTool", "AfterAgent", "SessionStart"} <= set(data["hooks"])
    wrapper = str(SPEC.home(host) / "agentdeck-hook.sh")
    for event, groups in data["hooks"].items():
        ours = [h for g in groups for h in g["hooks"] if wrapper in h["command"]]
        assert ours and all(h["name"] == "agentdeck" for h in ours), event
        assert all(h["timeout"] == 30 * 1000 for h in ours), event      # the profile's 30 s
        assert ours[0]["command"].endswith(f" {event}")
    # the plan's info reports seconds, as every target's does
    assert {e.timeout for e in plan.output["gemini"].hooks.events} == {30}
    assert not engine.build_plan(host, "default", ["gemini"]).has_changes


def test_gemini_cli_home_is_the_folder_gemini_puts_its_home_in(host, tmp_path):
    elsewhere = tmp_path / "gh"
    elsewhere.mkdir()
    host.env["GEMINI_CLI_HOME"] = str(elsewhere)
    _apply(host)
    assert (elsewhere / ".gemini" / "settings.json").is_file()
    assert not (host.home / ".gemini").exists()


def test_a_default_disabled_server_is_named_in_mcp_excluded_and_yours_stay(host):
    p = _settings(host)
    p.parent.mkdir(parents=True)
    theirs = ('{\n  // mine\n  "mcpServers": {"old": {"command": "old"}},\n'
              '  "mcp": {"excluded": ["old"]}\n}\n')
    p.write_text(theirs)
    plan = _apply(host)
    data = json.loads(compiled_text(p))
    assert data["mcp"]["excluded"] == ["old", "github"]         # default-disabled in the profile
    assert "github" in data["mcpServers"] and "memory" in data["mcpServers"]
    servers = {s.name: s for s in plan.output["gemini"].mcp.servers}
    assert servers["github"].reason == "default-disabled"
    assert servers["old"].reason == "operator-disabled"
    assert "// mine" in p.read_text()
    assert engine.apply_plan(host, engine.build_uninstall_plan(host, ["gemini"])).ok
    assert p.read_text() == theirs                               # byte for byte


@pytest.mark.parametrize("entry,off", [
    ({"memory": {"enabled": False}}, True),
    ({"memory": {"enabled": 0}}, True),          # falsy in JavaScript: off
    ({"memory": {"enabled": ""}}, True),
    ({"memory": {"enabled": None}}, False),      # `?? true`: on
    ({"memory": {}}, False),
    ({"memory": False}, False),                  # not an object: `.enabled` is undefined
    ({"Memory": {"enabled": False}}, False),     # Gemini looks up the lower-cased name only
    ({" memory": {"enabled": False}}, False),
])
def test_the_enablement_file_is_read_as_gemini_reads_it(host, entry, off):
    home = SPEC.home(host)
    home.mkdir(parents=True)
    enablement = home / "mcp-server-enablement.json"
    enablement.write_text(json.dumps(entry))
    plan = engine.build_plan(host, "default", ["gemini"])
    memory = next(s for s in plan.output["gemini"].mcp.servers if s.name == "memory")
    assert (memory.enabled, memory.reason == "operator-switched-off") == (not off, off)
    assert not [c for c in plan.items if c.path == str(enablement)], "the file is Gemini's"


def test_an_enablement_file_gemini_cannot_parse_is_a_warning_naming_it(host):
    home = SPEC.home(host)
    home.mkdir(parents=True)
    (home / "mcp-server-enablement.json").write_text('{"memory": {"enabled": false}\n')
    plan = engine.build_plan(host, "default", ["gemini"])
    warned = [n.message for n in plan.notices["gemini"]
              if n.level == "warning" and "mcp-server-enablement.json:" in n.message]
    assert warned and "/mcp disable start again" in warned[0], plan.notices
    assert all(s.enabled for s in plan.output["gemini"].mcp.servers if s.name == "memory")


def compiled_text(p: Path) -> str:
    from agentdeck.core.formats.jsonc import JsonDoc
    return json.dumps(JsonDoc.parse(p.read_text()).data)


def test_uninstall_of_a_fresh_install_leaves_no_gemini_file(host):
    _apply(host)
    assert engine.apply_plan(host, engine.build_uninstall_plan(host, ["gemini"])).ok
    assert _tree(SPEC.home(host)) == {}


def test_hooks_config_in_the_file_is_a_reason_the_hooks_cannot_run(host):
    _apply(host)
    p = _settings(host)
    data = json.loads(p.read_text())
    data["hooksConfig"] = {"enabled": False, "disabled": ["agentdeck"]}
    p.write_text(json.dumps(data))
    plan = engine.build_plan(host, "default", ["gemini"])
    why = [i.reason for i in hooks_health.inert(plan, "gemini")]
    assert any("hooksConfig.enabled: false" in w for w in why), why
    assert any('"agentdeck" in hooksConfig.disabled' in w for w in why), why


@pytest.mark.parametrize("name", sorted(p.name for p in PAYLOADS.glob("*.json")))
def test_every_captured_gemini_payload_is_geminis_dialect_for_its_caller(name):
    payload = json.loads((PAYLOADS / name).read_text())
    assert dialects.detect(payload, dialects.speaker("gemini")).label == "gemini"


@pytest.mark.parametrize("name", ["BeforeTool.json", "BeforeAgent.json", "mcp-BeforeTool.json"])
def test_a_gemini_turn_payload_is_recognised_without_a_caller(name):
    payload = json.loads((PAYLOADS / name).read_text())
    assert dialects.detect(payload).label == "gemini"


@pytest.mark.parametrize("raw,canonical", [("BeforeTool", "pre_tool_use"),
                                           ("AfterTool", "post_tool_use"),
                                           ("BeforeAgent", "user_prompt_submit"),
                                           ("AfterAgent", "stop"), ("PreCompress", "pre_compact")])
def test_the_handler_knows_geminis_event_names(raw, canonical):
    assert hookhandler.canonical_event(raw) == canonical


@pytest.fixture
def policy(tmp_path, monkeypatch):
    path = tmp_path / "policy.json"
    path.write_text(compiled.compile_policy({"on_error": "deny", "rules": [
        {"id": "no-force-push", "tool": "shell", "match": r"git\s+push\b.*--force",
         "decision": "deny", "reason": "force-push is not allowed here"}],
        "paths": [{"id": "keys", "paths": ["/home/u/.ssh/id_*"], "access": ["read"],
                   "decision": "deny", "reason": "private SSH keys"}]}, "test"))
    monkeypatch.setenv("AGENTDECK_POLICY", str(path))
    monkeypatch.setenv("AGENTDECK_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("AGENTDECK_TARGET", "gemini")
    for var in ("AGENTDECK_EVENT", "AGENTDECK_DRILL_ID"):
        monkeypatch.delenv(var, raising=False)
    return path


def _hook(monkeypatch, capsys, tmp_path, payload, event="BeforeTool"):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(payload).encode())))
    code = hookhandler.main([event])
    out = capsys.readouterr()
    record = json.loads((tmp_path / "state" / "audit.jsonl").read_text().splitlines()[-1])
    return code, out.out, out.err, record


def _pre(tool, args):
    payload = json.loads((PAYLOADS / "BeforeTool.json").read_text())
    return {**payload, "tool_name": tool, "tool_input": args}


def test_a_denied_call_answers_exit_2_and_the_decision_json(policy, monkeypatch, capsys, tmp_path):
    """Gemini reads JSON on stdout whatever the exit code, and an exit 2 with text alone denies
    too: agentdeck says deny in both."""
    code, out, err, rec = _hook(monkeypatch, capsys, tmp_path,
                                _pre("run_shell_command", {"command": "git push --force origin"}))
    assert code == GEMINI_DIALECT.pre_tool["deny_exit"] == 2
    spoken = json.loads(out)
    assert spoken["decision"] in ("deny", "block") and "force-push" in spoken["reason"]
    assert "force-push is not allowed here" in err
    assert rec["decision"] == "deny" and rec["dialect"] == "gemini" and rec["event"] == "pre_tool_use"


def test_an_allowed_call_prints_nothing(policy, monkeypatch, capsys, tmp_path):
    code, out, err, rec = _hook(monkeypatch, capsys, tmp_path,
                                _pre("run_shell_command", {"command": "git status"}))
    assert (code, out, err) == (0, "", "") and rec["decision"] == "allow"


def test_a_folder_tool_is_judged_by_its_dir_path(policy, monkeypatch, capsys, tmp_path):
    """grep_search, glob and list_directory name their folder in `dir_path`, and a shell call's
    folder is its `dir_path` too (Gemini CLI 0.61.0's schemas)."""
    code, _, _, rec = _hook(monkeypatch, capsys, tmp_path,
                            _pre("read_file", {"file_path": "/home/u/.ssh/id_rsa"}))
    assert code == 2 and rec["tool_class"] == "read"
    call = vocabulary.classify("grep_search", {"pattern": "KEY", "dir_path": "/home/u/.ssh"})
    assert call.cls == "read" and call.kind == "search" and "/home/u/.ssh" in call.subjects
    shell = vocabulary.classify("run_shell_command", {"command": "cat id_rsa", "dir_path": "/x/y"})
    assert shell.cls == "shell" and shell.cwd == "/x/y"


def test_web_fetch_is_judged_by_the_urls_in_its_prompt():
    call = vocabulary.classify("web_fetch", {"prompt": "Summarize https://evil.example/x and say"})
    assert call.cls == "web" and call.subjects == ["https://evil.example/x"]


def test_an_mcp_tool_is_split_by_the_server_mcp_context_names():
    payload = json.loads((PAYLOADS / "mcp-BeforeTool.json").read_text())
    vocab = vocabulary.vocabulary([dialects.module("gemini")])
    calls = vocabulary._tool_calls(payload, vocab=vocab)
    assert [c.cls for c in calls] == ["mcp"] and calls[0].subjects == ["Srv.Dot/leave.marker-v2"]


def test_a_prompt_deny_blocks_before_agent(tmp_path, monkeypatch, capsys):
    path = tmp_path / "policy.json"
    path.write_text(compiled.compile_policy({"rules": [
        {"id": "no-secrets", "tool": "prompt", "match": "SECRET-PROMPT", "decision": "deny",
         "reason": "no secrets in prompts"}]}, "test"))
    monkeypatch.setenv("AGENTDECK_POLICY", str(path))
    monkeypatch.setenv("AGENTDECK_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("AGENTDECK_TARGET", "gemini")
    payload = {**json.loads((PAYLOADS / "BeforeAgent.json").read_text()), "prompt": "SECRET-PROMPT"}
    code, out, _, rec = _hook(monkeypatch, capsys, tmp_path, payload, event="BeforeAgent")
    assert code == 2 and json.loads(out)["decision"] == "block"
    assert rec["event"] == "user_prompt_submit" and rec["decision"] == "deny"


@pytest.fixture
def installed(host, monkeypatch):
    _apply(host)
    monkeypatch.delenv("AGENTDECK_POLICY", raising=False)
    monkeypatch.setenv("AGENTDECK_STATE_DIR", str(host.state_dir))
    monkeypatch.setenv("AGENTDECK_TARGET", "gemini")
    monkeypatch.setenv("HOME", str(host.home))
    for var in ("AGENTDECK_EVENT", "AGENTDECK_DRILL_ID"):
        monkeypatch.delenv(var, raising=False)
    return host


def _decide(monkeypatch, capsys, host, tool, args, cwd):
    payload = {**_pre(tool, args), "cwd": str(cwd)}
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(payload).encode())))
    code = hookhandler.main(["BeforeTool"])
    capsys.readouterr()
    rec = json.loads((host.state_dir / "audit.jsonl").read_text().splitlines()[-1])
    return code, rec["decision"], rec["rule"]


def test_an_agent_cannot_switch_agentdecks_hooks_off_in_gemini(installed, monkeypatch, capsys,
                                                               tmp_path):
    """The user settings.json (hooks, hooksConfig), the wrapper, the trusted folders list and a
    working folder's .gemini/settings.json and .gemini/.env are the agentdeck-self rule's."""
    host = installed
    home = SPEC.home(host)
    work = tmp_path / "work"
    work.mkdir()
    off = '{"hooksConfig": {"disabled": ["agentdeck"]}}'
    attempts = [
        ("write_file", {"file_path": str(home / "settings.json"), "content": off}),
        ("replace", {"file_path": str(home / "settings.json"), "instruction": "x",
                     "old_string": '"hooks": {', "new_string": '"hooksConfig": {}, "hooks": {'}),
        ("run_shell_command", {"command": "sed -i 's/agentdeck-hook/x/' ~/.gemini/settings.json"}),
        ("write_file", {"file_path": str(home / "agentdeck-hook.sh"), "content": "exit 0\n"}),
        ("write_file", {"file_path": str(home / "trustedFolders.json"), "content": "{}"}),
        ("write_file", {"file_path": str(home / ".env"), "content": "AGENTDECK_X=1\n"}),
        ("write_file", {"file_path": str(work / ".gemini" / "settings.json"), "content": off}),
        ("run_shell_command", {"command": f"mkdir -p .gemini && echo '{off}' > .gemini/settings.json"}),
    ]
    for tool, args in attempts:
        assert _decide(monkeypatch, capsys, host, tool, args, work) == (
            2, "deny", compiled.SELF_RULE), (tool, args)
    for tool, args in [("read_file", {"file_path": str(home / "settings.json")}),
                       ("write_file", {"file_path": str(work / ".gemini" / "notes.md"), "content": "x"})]:
        assert _decide(monkeypatch, capsys, host, tool, args, work) == (0, "allow", None)


def test_policy_show_says_geminis_own_deny_layer_is_not_written():
    from agentdeck.core.targets.gemini import policy

    nd = policy.NATIVE_DENY
    assert nd.written is False and "text of a call" in nd.why
    assert any(f.source == "observed" for f in nd.facts)
