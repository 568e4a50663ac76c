"""The roles of each CLI's own tools hold in real offline turns: every tool the CLI offers the
model directly whose role in its vocabulary (core/targets/<name>/dialect.py TOOLS) is a prompt
handed to a model (kind "delegate": a sub-agent's, a later turn's) or a shell call on what it
types into a running session (a shell tool with no command argument) is called with a text
that reads a protected key (`cat <home>/.ssh/id_rsa`), and the hook handler denies it by the
path rule, recording the tool's class; a skill tool names the skill the test's profile
installs. A session writer types that text (and `touch <marker>`) into a shell the CLI's own
shell tool starts in the same turn (`bash` on a terminal): Codex 0.171.0 shows write_stdin to
no hook, so the guard is the start of that session: it is unresolved (denied in Codex), no
session is left to type into, the key is never printed and the marker never made.

Two turns per CLI: the first reads the tools offered (their schemas), the second calls each one
(the scripted model makes one call after another; a denial goes back as the tool's result)."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from offline_turn import run_turn
from scripted_model import ScriptedModel

from agentdeck.core import engine
from agentdeck.core.policy import vocabulary
from agentdeck.core.targets import dialects, registry

pytestmark = pytest.mark.clients

NAMES = [s.name for s in registry.TARGETS]
SECRET = "agentdeck-decoy-private-key-material"
RULE = "private-keys"
PROFILE = f'''[profile]
extends = ["_base"]

[policy]
on_error = "deny"

[[policy.paths]]
id = "{RULE}"
paths = ["~/.ssh/id_*"]
except = ["~/.ssh/*.pub"]
access = ["read", "write"]
decision = "deny"
reason = "private keys stay private"
'''


SKILL = "agentdeck-demo"


def _install(host, target: str) -> None:
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    d = host.config_dir / "profiles" / "roles"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text(PROFILE)
    (d / "skills" / SKILL).mkdir(parents=True)
    (d / "skills" / SKILL / "SKILL.md").write_text(
        f"---\nname: {SKILL}\ndescription: say hello\n---\nSay hello.\n")
    plan = engine.build_plan(host, "roles", [target], trust_hooks=True)
    assert engine.apply_plan(host, plan).ok


def _offered(requests) -> dict[str, tuple[str, dict]]:
    """Tool name -> (the name the scripted model calls it by, its JSON schema): functions, and
    the tools of a Codex namespace that is not an MCP server's (called `<ns>__<tool>`)."""
    out: dict[str, tuple[str, dict]] = {}
    for _, body in requests:
        for t in ScriptedModel.tools_of(body):     # a Gemini request's declarations flattened
            if not isinstance(t, dict):
                continue
            fn = t.get("function") if isinstance(t.get("function"), dict) else t
            name = fn.get("name")
            schema = fn.get("parameters") or fn.get("input_schema") or {}
            if isinstance(name, str) and t.get("type") != "namespace":
                out.setdefault(name, (name, schema))
            if t.get("type") == "namespace" and not str(name).startswith("mcp__"):
                for x in t.get("tools") or []:
                    if isinstance(x, dict) and isinstance(x.get("name"), str):
                        out.setdefault(x["name"], (f"{name}__{x['name']}",
                                                   x.get("parameters") or {}))
    return out


#: the arguments that carry what a shell or delegate tool acts on (the rest stay unset unless
#: required): a command, what is typed into a session, a prompt or message, an objective
TEXT_KEYS = ("command", "cmd", "chars", "input", "prompt", "message", "objective", "script",
             "args")
#: the command argument of a shell tool: one without it types into a session another started
COMMAND_KEYS = ("command", "cmd")
SESSION_ID = re.compile(r"session ID (\d+)")


def _args(schema: dict, text: str) -> dict:
    """Arguments from a tool's schema: `text` in each of TEXT_KEYS it has and in every other
    required string (an enum's first value where one is listed), a plain value for each other
    required property."""
    props = (schema or {}).get("properties") or {}
    out: dict = {k: text for k in TEXT_KEYS if isinstance(props.get(k), dict)
                 and props[k].get("type") in ("string", None)}
    if "script" in out:             # a workflow script: its meta block, then the text
        out["script"] = ('export const meta = { name: "look", description: "look", '
                         f'phases: [] }}\nawait agent({json.dumps(text)})\n')
    for key in (schema or {}).get("required") or []:
        if key in out:
            continue
        p = props.get(key) or {}
        # Gemini CLI checks invoke_agent's agent_name before its hook: its general agent
        out[key] = (SKILL if key == "skill" else "generalist" if key == "agent_name" else
                    p["enum"][0] if p.get("enum") else
                    {"integer": 1, "number": 1, "boolean": False, "array": [],
                     "object": {}}.get(p.get("type"), text))
    return out


def _starter(offered: dict, names: dict) -> tuple[str, dict] | None:
    """A call of the CLI's own shell tool that leaves `cat` running on a terminal (its session
    is what a session writer types into), from the tool's schema."""
    for n, (call, schema) in sorted(offered.items()):
        props = (schema or {}).get("properties") or {}
        key = next((k for k in COMMAND_KEYS if k in props), None)
        if names.get(dialects.fold(n), ("",))[0] == "shell" and key and "tty" in props:
            return call, {key: "bash", "tty": True, "yield_time_ms": 500}
    return None


def _writer(call: str, schema: dict, text: str):
    """A session writer's step, made from the request: the session id the starter's result
    names goes in the writer's session argument."""
    props = (schema or {}).get("properties") or {}
    key = next((k for k in props if "session" in k.lower() or k == "shellId"), None)

    def step(body: dict) -> tuple[str, dict]:
        found = [m.group(1) for r in ScriptedModel.results_of(body)
                 for m in SESSION_ID.finditer(r)]
        args = _args(schema, text)
        if key and found:
            args[key] = int(found[-1]) if props[key].get("type") in ("number", "integer") \
                else found[-1]
        return call, args
    return step


def _activity(host) -> list[dict]:
    exe = Path(sys.executable).parent / "agentdeck"
    r = subprocess.run([str(exe), "activity", "--home", str(host.home), "--json"],
                       env=host.env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


@pytest.mark.parametrize("target", NAMES)
def test_shell_and_delegate_roles_are_denied_by_the_path_rule(scratch_env, need, tmp_path,
                                                               target):
    need(target)
    host = scratch_env
    _install(host, target)
    ssh = host.home / ".ssh"
    ssh.mkdir(mode=0o700)
    (ssh / "id_rsa").write_text(SECRET + "\n")
    work = tmp_path / "work"
    work.mkdir()
    etc = tmp_path / "etc"          # Qwen: no background memory requests after the turn
    etc.mkdir()
    (etc / "system-defaults.json").write_text(
        '{"$version": 4, "memory": {"enableManagedAutoMemory": false}}')
    env = {"QWEN_CODE_SYSTEM_SETTINGS_PATH": str(etc / "settings.json"),
           "QWEN_CODE_SYSTEM_DEFAULTS_PATH": str(etc / "system-defaults.json")}

    with ScriptedModel(command="true") as m:
        run_turn(host, target, m.url, "run the scripted command", work, env)
    offered = _offered(m.requests)
    mod = dialects.module(target)
    own = getattr(mod, "TOOLS", {}) or {}
    names = vocabulary.names(vocabulary.vocabulary([mod]))
    def writes_a_session(n: str) -> bool:
        props = (offered[n][1] or {}).get("properties") or {}
        return names[dialects.fold(n)][0] == "shell" and not any(k in props for k in COMMAND_KEYS)

    picked = sorted(n for n in offered if dialects.fold(n) in own
                    and (names[dialects.fold(n)][1] == "delegate" or writes_a_session(n)))
    # every registered CLI's vocabulary declares delegate tools of its own: a turn that offers
    # none of them directly means the CLI changed, a failure rather than a skip
    assert picked, f"{target} offered no tool of its own with a delegate or session role"
    text = f"cat {ssh}/id_rsa"
    marker = work / "typed-marker"
    calls: list = []
    writers = [n for n in picked if writes_a_session(n)]
    for n in picked:
        if n in writers:
            start = _starter(offered, names)
            assert start, f"{target}: no shell tool starts a session for {n}"
            calls += [start, _writer(offered[n][0], offered[n][1], f"{text}; touch {marker}\n")]
        else:
            calls.append((offered[n][0], _args(offered[n][1], text)))

    before = len([x for x in _activity(host) if x.get("event") == "pre_tool_use"])
    with ScriptedModel(command="", calls=calls) as m:
        r = run_turn(host, target, m.url, "run the scripted commands", work, env, timeout=300,
                     allow=tuple(picked))
        results = m.tool_results()
    pre = [x for x in _activity(host) if x.get("event") == "pre_tool_use"][before:]
    # the hook's name of a tool, folded (Codex names a namespace's tool <ns><tool>)
    seen = {dialects.fold(str(x.get("tool_name"))): x for x in pre}
    report = "\n".join(f"  {(c if isinstance(c, tuple) else ('(writer)',))[0]}: {res[:160]}"
                       for c, res in zip(calls, results))
    print(f"\n{target} (exit {r.returncode}):\n{report}")
    # a session writer: the session it would type into was never started (the start of a
    # shell on a terminal is unresolved), so nothing typed ran
    for n in writers:
        started = [x for x in pre if x.get("summary") == ["bash"]]
        assert started and all((x.get("rule"), x.get("effective") or x.get("decision"))
                               in (("unresolved", "deny"), ("unresolved", "ask"))
                               for x in started), (n, started)
        assert not marker.exists(), f"{target}: what {n} typed ran\n{report}"
    for n in (n for n in picked if n not in writers):
        key = next((k for k in seen if k == dialects.fold(n) or
                    k == dialects.fold(offered[n][0])), None)
        assert key, f"{target}: no hook decision for {n} (audit: {sorted(seen)})\n{report}"
        x = seen[key]
        assert (x.get("decision"), x.get("rule")) == ("deny", RULE), (n, x)
        # a call whose arguments carry a command (OpenCode's task has a `command` field, filled
        # here like every string) is judged as the shell command it may be (docs/policy.md:
        # command-like arguments are judged strictly); otherwise the tool's declared role
        args = next((c[1] for c in calls if isinstance(c, tuple) and c[0] == offered[n][0]), {})
        role = "shell" if any(k in args for k in COMMAND_KEYS) else names[dialects.fold(n)][0]
        assert x.get("tool_class") == role, (n, x)
        assert key in names, f"{target}: the hook names {n} {x.get('tool_name')!r}: not known"
    assert all(SECRET not in res for res in results), report
