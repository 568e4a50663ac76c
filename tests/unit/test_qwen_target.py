"""Qwen Code's package: what its adapter plans, what its doctor says and how its hooks answer,
against a temporary home (facts: docs/facts/qwen.md, Qwen Code 0.24.4). The real CLI is
tests/clients/test_qwen_real.py."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from agentdeck.core import doctor, engine, hookhandler
from agentdeck.core.policy import compiled
from agentdeck.core.targets import dialects
from agentdeck.core.targets.qwen import SPEC
from agentdeck.core.targets.qwen.dialect import QWEN as QWEN_DIALECT

PAYLOADS = Path(__file__).resolve().parents[1] / "fixtures" / "payloads" / "qwen"


def _settings(host) -> Path:
    return SPEC.home(host) / "settings.json"


def _apply(host, profile="default"):
    plan = engine.build_plan(host, profile, ["qwen"])
    res = engine.apply_plan(host, plan)
    assert res.ok, res.leftover
    return plan


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_a_fresh_install_writes_version_4_and_a_plan_after_it_is_empty(host):
    _apply(host)
    data = json.loads(_settings(host).read_text())
    assert data["$version"] == 4          # else Qwen rewrites the file on its next start
    assert {"PreToolUse", "UserPromptSubmit", "SessionStart"} <= set(data["hooks"])
    wrapper = str(SPEC.home(host) / "agentdeck-hook.sh")
    assert wrapper in json.dumps(data["hooks"]["PreToolUse"])
    assert not engine.build_plan(host, "default", ["qwen"]).has_changes


def test_qwen_home_moves_everything(host, tmp_path, monkeypatch):
    elsewhere = tmp_path / "qh"
    host.env["QWEN_HOME"] = str(elsewhere)
    _apply(host)
    assert (elsewhere / "settings.json").is_file() and (elsewhere / "QWEN.md").is_file()
    assert not (host.home / ".qwen").exists()


def test_a_file_that_has_its_version_keeps_it_and_its_comments(host):
    p = _settings(host)
    p.parent.mkdir(parents=True)
    text = '{\n  // mine\n  "$version": 4,\n  "general": {"vimMode": true}\n}\n'
    p.write_text(text)
    plan = engine.build_plan(host, "default", ["qwen"])
    assert not [i for i in plan.items if i.label == "$version"]
    engine.apply_plan(host, plan)
    after = p.read_text()
    assert "// mine" in after and after.count('"$version"') == 1


def test_a_default_disabled_server_is_named_in_mcp_excluded_and_yours_stay(host):
    p = _settings(host)
    p.parent.mkdir(parents=True)
    p.write_text(json.dumps({"mcpServers": {"old": {"command": "old"}},
                             "mcp": {"excluded": ["old"]}}, indent=2) + "\n")
    before = p.read_bytes()
    plan = _apply(host)
    data = json.loads(p.read_text())
    assert data["mcp"]["excluded"] == ["old", "github"]       # github: mcpDefaultDisabled
    assert "github" in data["mcpServers"] and "memory" in data["mcpServers"]
    servers = {s.name: s for s in plan.output["qwen"].mcp.servers}
    assert servers["github"].reason == "default-disabled" and not servers["github"].enabled
    assert servers["memory"].enabled
    assert servers["old"].origin == "operator" and servers["old"].reason == "operator-disabled"
    # switched on in the app: only agentdeck's name leaves the list
    on = engine.build_plan(host, "default", ["qwen"], choices={"mcp_enabled": {"qwen": {"github": True}}})
    assert engine.apply_plan(host, on).ok
    assert json.loads(p.read_text())["mcp"]["excluded"] == ["old"]
    res = engine.apply_plan(host, engine.build_uninstall_plan(host, ["qwen"]))
    assert res.ok
    assert p.read_bytes() == before                         # byte-exact


def test_uninstall_of_a_fresh_install_leaves_no_qwen_file(host):
    before = _tree(host.home)
    _apply(host)
    engine.apply_plan(host, engine.build_uninstall_plan(host, ["qwen"]))
    after = {k: v for k, v in _tree(host.home).items() if not k.startswith(".local/state")}
    assert after == {k: v for k, v in before.items() if not k.startswith(".local/state")}


def test_the_plan_says_when_qwen_would_not_read_the_persona(host):
    p = _settings(host)
    p.parent.mkdir(parents=True)
    p.write_text(json.dumps({"$version": 4, "context": {"fileName": "AGENTDECK.md"}}) + "\n")
    plan = engine.build_plan(host, "default", ["qwen"])
    assert any("does not read QWEN.md" in n.message for n in plan.notices["qwen"])


def _findings(host, check_id):
    return [f for f in doctor.run(host, "default", ["qwen"]) if f.check == check_id]


@pytest.mark.parametrize("settings,check_id,result,words", [
    ({"hooks": {}}, "qwen.settings.version", "warning", "rewrites the whole file"),
    ({"$version": 4, "disableAllHooks": "no"}, "qwen.hooks.disable-all", "warning",
     "any value but false"),
    ({"$version": 4, "hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "true", "timeout": 5000}]}]}},
     "qwen.hooks.timeout-unit", "warning", "read as milliseconds"),
    ({"$version": 4, "hooks": {"preToolUse": []}}, "qwen.hooks.events", "error", "PreToolUse"),
    ({"$version": 4, "mcpServers": {"s": {"command": "x", "disabled": True}}},
     "qwen.mcp.off-switch", "warning", "ignores: the server starts"),
    ({"$version": 4, "excludeMCPServers": ["s"]}, "qwen.mcp.off-switch", "warning", "legacy"),
    ({"$version": 4, "context": {"fileName": ["A.md"]}}, "qwen.persona.read", "warning",
     "not QWEN.md"),
])
def test_the_doctor_names_what_qwen_does_with_the_file(host, settings, check_id, result, words):
    p = _settings(host)
    p.parent.mkdir(parents=True)
    p.write_text(json.dumps(settings) + "\n")
    fs = _findings(host, check_id)
    assert any(f.result == result and words in f.message for f in fs), fs


def test_the_doctor_reads_comments_and_reports_a_broken_file_with_its_line(host):
    p = _settings(host)
    p.parent.mkdir(parents=True)
    p.write_text('{\n  // fine\n  "$version": 4\n}\n')
    assert [f.result for f in _findings(host, "qwen.settings.parse")] == ["ok"]
    p.write_text('{\n  "$version": 4,\n  "a": \n}\n')
    bad = _findings(host, "qwen.settings.parse")
    assert bad[0].result == "error" and bad[0].line == 4


@pytest.mark.parametrize("name", sorted(p.name for p in PAYLOADS.glob("*.json")))
def test_every_captured_qwen_payload_is_qwens_dialect_for_its_caller(name):
    payload = json.loads((PAYLOADS / name).read_text())
    assert dialects.detect(payload, dialects.speaker("qwen")).label == "qwen"


@pytest.mark.parametrize("name", ["PreToolUse.json", "PreToolUse.read_file.json",
                                  "UserPromptSubmit.json", "mcp-PreToolUse.json"])
def test_a_qwen_turn_payload_is_recognised_without_a_caller(name):
    payload = json.loads((PAYLOADS / name).read_text())
    assert dialects.detect(payload).label == "qwen"


@pytest.fixture
def policy(tmp_path, monkeypatch):
    path = tmp_path / "policy.json"
    path.write_text(compiled.compile_policy({"on_error": "deny", "rules": [
        {"id": "no-force-push", "tool": "shell", "match": r"git\s+push\b.*--force",
         "decision": "deny", "reason": "force-push is not allowed here"},
        {"id": "ssh-keys", "tool": "read", "match": r"(^|/)\.ssh/id_[A-Za-z0-9_]+$",
         "decision": "deny", "reason": "private SSH keys"}]}, "test"))
    monkeypatch.setenv("AGENTDECK_POLICY", str(path))
    monkeypatch.setenv("AGENTDECK_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("AGENTDECK_TARGET", "qwen")
    for var in ("AGENTDECK_EVENT", "AGENTDECK_DRILL_ID"):
        monkeypatch.delenv(var, raising=False)
    return path


def _hook(monkeypatch, capsys, tmp_path, payload):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(payload).encode())))
    code = hookhandler.main(["PreToolUse"])
    out = capsys.readouterr()
    record = json.loads((tmp_path / "state" / "audit.jsonl").read_text().splitlines()[-1])
    return code, out.out, out.err, record


def _pre(tool, args):
    payload = json.loads((PAYLOADS / "PreToolUse.json").read_text())
    return {**payload, "tool_name": tool, "tool_input": args}


def test_a_denied_shell_call_answers_a_hookspecificoutput_deny_on_stdout(policy, monkeypatch,
                                                                        capsys, tmp_path):
    """Qwen merges every PreToolUse hook's answer and a hookSpecificOutput permissionDecision
    outranks an exit 2's plain reason (observed: another hook's allow then let the call run):
    the deny is the JSON form, exit 0, with the reason on stderr too."""
    code, out, err, rec = _hook(monkeypatch, capsys, tmp_path,
                                _pre("run_shell_command", {"command": "git push --force origin"}))
    assert code == 0 and "force-push is not allowed here" in err
    spoken = json.loads(out)["hookSpecificOutput"]
    assert spoken["permissionDecision"] == "deny" and spoken["hookEventName"] == "PreToolUse"
    assert "force-push is not allowed here" in spoken["permissionDecisionReason"]
    assert rec["decision"] == "deny" and rec["tool_class"] == "shell"
    assert rec["dialect"] == "qwen"


def test_a_read_of_a_key_through_read_file_is_denied(policy, monkeypatch, capsys, tmp_path):
    code, out, err, rec = _hook(monkeypatch, capsys, tmp_path,
                                _pre("read_file", {"file_path": "/home/u/.ssh/id_ed25519"}))
    assert code == 0 and "private SSH keys" in err and rec["tool_class"] == "read"
    assert json.loads(out)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_an_allowed_call_prints_nothing(policy, monkeypatch, capsys, tmp_path):
    code, out, err, rec = _hook(monkeypatch, capsys, tmp_path,
                                _pre("run_shell_command", {"command": "git status"}))
    assert (code, out, err) == (0, "", "") and rec["decision"] == "allow"


def test_qwens_row_of_the_event_table():
    from agentdeck.core.facts import event_table

    t = event_table()
    assert t["stop"]["qwen"] == "Stop" and t["pre_tool_use"]["qwen"] == "PreToolUse"
    assert t["session_end"]["qwen"] == "SessionEnd" and t["error"]["qwen"] == "StopFailure"


@pytest.fixture
def installed(host, monkeypatch):
    """The default profile applied for Qwen, and the handler pointed at what it compiled."""
    _apply(host)
    monkeypatch.delenv("AGENTDECK_POLICY", raising=False)
    monkeypatch.setenv("AGENTDECK_STATE_DIR", str(host.state_dir))
    monkeypatch.setenv("AGENTDECK_TARGET", "qwen")
    monkeypatch.setenv("HOME", str(host.home))
    for var in ("AGENTDECK_EVENT", "AGENTDECK_DRILL_ID"):
        monkeypatch.delenv(var, raising=False)
    return host


def _decide(monkeypatch, capsys, host, tool, args, cwd):
    payload = {**_pre(tool, args), "cwd": str(cwd)}
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(payload).encode())))
    code = hookhandler.main(["PreToolUse"])
    capsys.readouterr()
    rec = json.loads((host.state_dir / "audit.jsonl").read_text().splitlines()[-1])
    return code, rec["decision"], rec["rule"]


def test_an_agent_cannot_switch_agentdecks_hooks_off_in_qwen(installed, monkeypatch, capsys,
                                                             tmp_path):
    """Qwen's user settings.json (its hooks, disableAllHooks), the wrapper they call and a working
    folder's .qwen/settings.json (disableAllHooks there turns the user's hooks off in the next
    session: folder trust is off by default) are the agentdeck-self rule's, through every tool
    that writes."""
    host = installed
    settings, wrapper = _settings(host), SPEC.home(host) / "agentdeck-hook.sh"
    work = tmp_path / "work"
    work.mkdir()
    off = '{"$version": 4, "disableAllHooks": true}'
    attempts = [
        ("write_file", {"file_path": str(settings), "content": off}),
        ("edit", {"file_path": str(settings), "old_string": '"hooks": {',
                  "new_string": '"disableAllHooks": true, "hooks": {'}),
        ("run_shell_command", {"command": "sed -i 's/\"hooks\"/\"x\"/' ~/.qwen/settings.json"}),
        ("write_file", {"file_path": str(wrapper), "content": "#!/bin/sh\nexit 0\n"}),
        ("run_shell_command", {"command": "printf 'exit 0' > ~/.qwen/agentdeck-hook.sh"}),
        ("write_file", {"file_path": str(work / ".qwen" / "settings.json"), "content": off}),
        ("run_shell_command", {"command": f"mkdir -p .qwen && echo '{off}' > .qwen/settings.json"}),
        ("run_shell_command", {"command": "cd .qwen; cp /tmp/x settings.json"}),
    ]
    for tool, args in attempts:
        # Qwen's deny: the hookSpecificOutput JSON on stdout with exit 0 (its dialect)
        assert _decide(monkeypatch, capsys, host, tool, args, work) == (
            QWEN_DIALECT.pre_tool["deny_exit"], "deny", compiled.SELF_RULE), (tool, args)
    # reading them, and writing next to them, stays allowed
    for tool, args in [("read_file", {"file_path": str(settings)}),
                       ("write_file", {"file_path": str(work / ".qwen" / "notes.md"), "content": "x"}),
                       ("run_shell_command", {"command": "cat .qwen/settings.json"})]:
        assert _decide(monkeypatch, capsys, host, tool, args, work) == (0, "allow", None)


def test_qwens_guarded_files_follow_qwen_home(host, tmp_path):
    host.env["QWEN_HOME"] = str(tmp_path / "qh")
    globs = compiled.self_protection(host, "qwen")
    assert str(tmp_path / "qh" / "settings.json") in globs
    assert str(tmp_path / "qh" / "agentdeck-hook.sh") in globs
    assert "**/.qwen/settings.json" in globs


def test_the_doctor_of_qwen_alone_looks_at_the_shared_skills_it_linked(host):
    """agentdeck links the profile's skills for Qwen into ~/.agents/skills: a doctor of Qwen
    alone reports that folder (a dangling link there is a skill Qwen silently misses)."""
    _apply(host)
    [row] = [f for f in doctor.run(host, "default", ["qwen"]) if f.check == "qwen.skills.links"]
    assert row.result == "ok" and "~/.agents/skills" in row.message and "1 skill link" in row.message
    (host.agents_skills_dir / "gone").symlink_to(host.home / "nowhere")
    rows = [f for f in doctor.run(host, "default", ["qwen"]) if f.check == "qwen.skills.links"]
    assert [f.result for f in rows] == ["warning"] and "gone" in rows[0].message


def test_policy_show_says_qwens_own_deny_layer_is_written():
    from agentdeck.core import native_layers

    row = native_layers.for_rule({"id": "k", "paths": ["~/.ssh/id_*"], "access": ["read"],
                                  "decision": "deny"}, "qwen")
    assert not row["hook_only"] and "no native layer is known" not in row["why"]
    assert "permissions.deny" in row["layer"] and row["entries"] == ["Read(~/.ssh/id_*)"]


def test_a_shell_call_is_decided_in_its_own_directory(installed, monkeypatch, capsys, tmp_path):
    """run_shell_command (and monitor) take `directory`, the absolute folder the command runs in
    (docs/facts/qwen.md section 2): a relative name in the command is that folder's, not the
    payload's cwd (seen in a real turn: a `directory` of the folder's .qwen and `echo ... >
    settings.json` wrote the project settings file before agentdeck read `directory`)."""
    host = installed
    work = tmp_path / "work"
    (work / ".qwen").mkdir(parents=True)
    off = '{"disableAllHooks": true}'
    for tool in ("run_shell_command", "monitor"):
        args = {"command": f"echo '{off}' > settings.json", "directory": str(work / ".qwen")}
        assert _decide(monkeypatch, capsys, host, tool, args, work) == (
            QWEN_DIALECT.pre_tool["deny_exit"], "deny", compiled.SELF_RULE), tool
        # the same command in the working folder itself writes no guarded file
        args = {"command": f"echo '{off}' > settings.json", "directory": str(work)}
        assert _decide(monkeypatch, capsys, host, tool, args, work) == (0, "allow", None), tool


def test_monitor_is_a_shell_tool(installed, monkeypatch, capsys, tmp_path):
    """Qwen's deferred monitor tool runs a command (seen in a real turn: `rm -rf` through it
    removed the folder while agentdeck classed the tool as other)."""
    from agentdeck.core.policy.vocabulary import tool_calls

    [call] = tool_calls(_pre("monitor", {"command": "tail -f log", "description": "d"}))
    assert (call.cls, call.subjects) == ("shell", ["tail -f log"])
    code, decision, rule = _decide(monkeypatch, capsys, installed, "monitor",
                                   {"command": "cat ~/.ssh/id_rsa", "description": "d"}, tmp_path)
    assert decision == "deny" and rule != compiled.SELF_RULE


def _project(host, tmp_path, text: str) -> Path:
    """A working folder with a .qwen/settings.json, agentdeck started in it."""
    work = tmp_path / "proj"
    (work / ".qwen").mkdir(parents=True)
    (work / ".qwen" / "settings.json").write_text(text)
    host.cwd = work
    return work


@pytest.mark.parametrize("value", ["true", '"no"', "1"])
def test_a_project_file_that_switches_the_hooks_off_is_reported(host, tmp_path, value):
    """A folder's .qwen/settings.json with a truthy disableAllHooks turns the user's hooks off
    in a session started there (docs/facts/qwen.md section 2, "Switches"): the doctor says so
    and status says agentdeck's hooks are inert there."""
    from agentdeck.core import hooks_health

    _apply(host)
    _project(host, tmp_path, '{"$version": 4, "disableAllHooks": %s}' % value)
    found = _findings(host, "qwen.hooks.project-disable-all")
    assert [f.result for f in found] == ["error"], found
    assert "runs none of the user's hooks" in found[0].message
    plan = engine.build_plan(host, "default", ["qwen"])
    reasons = hooks_health.inert(plan, "qwen", now=True)
    mine = [r for r in reasons if r.code == "qwen-project-disable-all"]
    assert len(mine) == 1 and "proj/.qwen/settings.json" in mine[0].reason, reasons


@pytest.mark.parametrize("text", ['{"$version": 4, "disableAllHooks": false}',
                                  '{"$version": 4, "hooks": {}}', "{ not json"])
def test_a_project_file_that_leaves_the_hooks_on_is_not_reported(host, tmp_path, text):
    """false, no key, and a file Qwen cannot parse (it replaces it with {"$version": 4})."""
    from agentdeck.core import hooks_health

    _apply(host)
    _project(host, tmp_path, text)
    assert [f.result for f in _findings(host, "qwen.hooks.project-disable-all")] == ["ok"]
    reasons = hooks_health.inert(engine.build_plan(host, "default", ["qwen"]), "qwen", now=True)
    assert "qwen-project-disable-all" not in [r.code for r in reasons]


def test_the_project_file_of_the_home_itself_is_not_qwens(host):
    """Qwen does not read <cwd>/.qwen/settings.json as a project file when cwd is the home: that
    file is the user's own settings."""
    _apply(host)
    host.cwd = host.home
    assert [f.result for f in _findings(host, "qwen.hooks.project-disable-all")] == ["ok"]


def test_mcp_tool_names_carry_qwens_hash_suffix():
    """Qwen Code 0.24.4 appends `_<FNV-1a hash>` to an MCP tool name it had to spell (or cut to
    63 characters): the naming reproduces the name the real CLI sent, and the vocabulary reads
    the tool back without it, so a rule naming the tool matches; a tool whose own name merely
    ends that way is not shortened (the hash does not check out)."""
    from agentdeck.core.policy.vocabulary import tool_calls
    from agentdeck.core.targets.qwen.dialect import MCP_NAMES

    assert MCP_NAMES.tool_name("Srv.Dot", "leave.marker-v2") == \
        "mcp__Srv_Dot__leave_marker-v2_1vmvmv7"            # tests/fixtures/payloads/qwen/mcp-*
    assert MCP_NAMES.tool_name("github", "get_issue") == "mcp__github__get_issue"
    long_name = MCP_NAMES.tool_name("s" * 40, "t" * 40)
    assert len(long_name) == 63 and long_name.startswith("mcp__" + "s" * 40 + "__t")

    def subjects(name, servers):
        [call] = tool_calls(_pre(name, {}), servers)
        return call.cls, call.subjects

    assert subjects("mcp__Srv_Dot__leave_marker-v2_1vmvmv7", ["Srv.Dot"]) == (
        "mcp", ["Srv.Dot/leave_marker-v2"])
    # without the profile's server list (the compiled policy carries it for Copilot only) the
    # hash itself gives the server's real name back
    assert subjects("mcp__Srv_Dot__leave_marker-v2_1vmvmv7", []) == (
        "mcp", ["Srv.Dot/leave_marker-v2"])
    assert subjects(MCP_NAMES.tool_name("srv", "read.file"), ["srv"]) == ("mcp", ["srv/read_file"])
    assert subjects("mcp__srv__foo_abc1234", ["srv"]) == ("mcp", ["srv/foo_abc1234"])
