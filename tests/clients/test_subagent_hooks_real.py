"""A sub-agent's own tool calls reach agentdeck's handler: for every registered CLI, the tool it
offers to start a sub-agent (the one whose schema names the agent's type or fork: Claude's
Agent, Copilot's task, Codex's spawn_agent, Qwen's agent, Gemini's invoke_agent; its role in the vocabulary is
"delegate") is called with a harmless prompt, the sub-agent (its own requests to the scripted
model: the requests that do not offer that tool) calls its shell tool with an `rm -rf` the
profile's argv rule denies, and the audit records that deny; the directory is still there.

This is what docs/policy.md leans on when it judges a sub-agent's prompt as a prompt, not as
the commands the sub-agent will run."""
from __future__ import annotations

import json
import os
import re
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
RULE = "no-recursive-force-rm"
PROFILE = f'''[profile]
extends = ["_base"]

[policy]
on_error = "deny"

[[policy.rules]]
id = "{RULE}"
tool = "shell"
command = "rm"
args = ["-r|-R|--recursive", "-f|--force"]
decision = "deny"
reason = "no recursive force delete"
'''
#: a schema property only a sub-agent starter has
STARTS_AN_AGENT = ("subagent_type", "agent_type", "fork_context", "agent_name")
PROMPT = "clean up the build folder"


def _starter(requests, target: str) -> tuple[str, str, dict] | None:
    """(tool name, the name the scripted model calls it by, its schema) of the delegate tool
    that starts a sub-agent."""
    names = vocabulary.names(vocabulary.vocabulary([dialects.module(target)]))
    for _, body in requests:
        for t in ScriptedModel.tools_of(body):     # a Gemini request's declarations flattened
            if not isinstance(t, dict):
                continue
            inner = ([t] if t.get("type") != "namespace" else
                     [dict(x, _ns=t.get("name")) for x in t.get("tools") or []
                      if isinstance(x, dict)])
            for x in inner:
                fn = x.get("function") if isinstance(x.get("function"), dict) else x
                schema = fn.get("parameters") or fn.get("input_schema") or {}
                props = schema.get("properties") or {}
                name = fn.get("name")
                if (isinstance(name, str) and names.get(dialects.fold(name), ("", ""))[1]
                        == "delegate" and any(k in props for k in STARTS_AN_AGENT)):
                    call = f"{x['_ns']}__{name}" if x.get("_ns") else name
                    return name, call, schema
    return None


AGENT_ID = re.compile(r'agent_id\\?"\s*:\s*\\?"([^"\\]+)')


def _waiter(requests) -> str | None:
    """The name the scripted model calls a tool by that waits for sub-agents (a namespace tool
    whose schema takes `targets`), if the CLI offers one."""
    for _, body in requests:
        for t in body.get("tools") or []:
            if isinstance(t, dict) and t.get("type") == "namespace":
                for x in t.get("tools") or []:
                    props = ((x.get("parameters") or {}).get("properties") or {}) \
                        if isinstance(x, dict) else {}
                    if "targets" in props:
                        return f"{t.get('name')}__{x.get('name')}"
    return None


@pytest.mark.parametrize("target", NAMES)
def test_a_subagents_own_shell_call_is_denied_by_the_hook(scratch_env, need, tmp_path, target):
    need(target)
    host = scratch_env
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    d = host.config_dir / "profiles" / "subagent"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text(PROFILE)
    assert engine.apply_plan(host, engine.build_plan(host, "subagent", [target],
                                                      trust_hooks=True)).ok
    work = tmp_path / "work"
    victim = work / "victim"
    (victim / "sub").mkdir(parents=True)
    (victim / "sub" / "f.txt").write_text("x")
    etc = tmp_path / "etc"          # Qwen: no background memory requests after the turn
    etc.mkdir()
    (etc / "system-defaults.json").write_text(
        '{"$version": 4, "memory": {"enableManagedAutoMemory": false}}')
    env = {"QWEN_CODE_SYSTEM_SETTINGS_PATH": str(etc / "settings.json"),
           "QWEN_CODE_SYSTEM_DEFAULTS_PATH": str(etc / "system-defaults.json")}

    with ScriptedModel(command="true") as m:
        run_turn(host, target, m.url, "run the scripted command", work, env)
    found = _starter(m.requests, target)
    # every registered CLI's vocabulary declares a sub-agent starter (role "delegate"): a turn
    # that offers none means the CLI changed, which is a failure, not a case to skip
    assert found is not None, f"{target} offered no tool that starts a sub-agent this turn"
    name, call, schema = found
    props = schema.get("properties") or {}
    args: dict = {}
    for key in (schema.get("required") or []):
        p = props.get(key) or {}
        args[key] = p["enum"][0] if p.get("enum") else PROMPT
    for key in ("prompt", "message", "description"):
        if key in props:
            args[key] = PROMPT
    for key in ("run_in_background", "fork_context"):
        if key in props:
            args[key] = False
    if "agent_type" in props and "general-purpose" in (props["agent_type"].get("enum") or []):
        args["agent_type"] = "general-purpose"
    if "agent_name" in props:       # Gemini CLI's invoke_agent: its general-purpose agent
        args["agent_name"] = "generalist"
    if name == "task" and "subagent_type" in props:    # OpenCode's task: its built-in
        args["subagent_type"] = "general"              # general-purpose sub-agent

    def sub(body: dict) -> bool:
        """A request of the sub-agent: a user message of it is the sub-agent's prompt (the
        main agent's requests carry the prompt only inside its call of the starter)."""
        for msg in body.get("messages") or body.get("input") or body.get("contents") or []:
            if not isinstance(msg, dict) or msg.get("role") != "user":
                continue
            content = msg.get("content", msg.get("parts"))     # Gemini: parts [{text}]
            parts = content if isinstance(content, list) else [content]
            if any(PROMPT in (x if isinstance(x, str) else str(x.get("text") or ""))
                   for x in parts if isinstance(x, (str, dict))):
                return True
        return False

    def step(body: dict):
        # the sub-agent's own first request: its shell tool, on the victim; the main agent's:
        # start the sub-agent
        return f"rm -rf {victim}" if sub(body) else (call, args)

    calls: list = [step]
    waiter = _waiter(m.requests)
    if waiter is not None:
        # a CLI whose turn ends without waiting for its sub-agents (Codex's exec): the main
        # agent waits on the id the start returned
        def wait(body: dict):
            if sub(body):
                return None
            ids = [i for r in ScriptedModel.results_of(body) for i in AGENT_ID.findall(r)]
            return (waiter, {"targets": ids[-1:], "timeout_ms": 60000}) if ids else None
        calls.append(wait)

    before = (host.state_dir / "audit.jsonl").read_text().count("\n")
    with ScriptedModel(command="", calls=calls) as m:
        r = run_turn(host, target, m.url, "delegate the clean-up", work, env, timeout=300,
                     allow=(name,))
    lines = [json.loads(x) for x in
             (host.state_dir / "audit.jsonl").read_text().splitlines()[before:]]
    pre = [(x.get("tool_name"), x.get("decision"), x.get("rule")) for x in lines
           if x.get("event") == "pre_tool_use"]
    seen = f"{target} (exit {r.returncode}): requests {len(m.requests)}, pre-tool {pre}"
    print("\n" + seen + "\n" + "\n".join(x[:300] for x in m.tool_results()))
    assert any(dialects.fold(str(t)) in (dialects.fold(name), dialects.fold(call))
               and dec == "allow" for t, dec, _ in pre), f"the sub-agent was not started: {seen}"
    assert any(rule == RULE and dec == "deny" for _, dec, rule in pre), \
        f"no deny of the sub-agent's rm -rf: {seen}"
    assert (victim / "sub" / "f.txt").exists(), f"the sub-agent's rm -rf ran: {seen}"
