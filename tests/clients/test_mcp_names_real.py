"""MCP rules in real offline turns of Copilot CLI, Codex and Claude Code: a stdio MCP server
(tests/clients/mcp_marker_server.py, its tool writes a marker file) installed and enabled
through an agentdeck profile, the scripted model calling its tool by the name the CLI offers
(each target's dialect part, MCP_NAMES, says how each CLI spells it), and a `tool = "mcp"` rule on
`^<server>/<tool>$`.

- test_a_mcp_rule_denies_the_tool: the denied server's marker stays absent, the model is told
  the rule's reason, an unmatched server's tool runs (its marker is written), and
  `agentdeck activity --json` records the decision with the rule id.
- test_spelled_names_are_mapped_back: a server `Srv.Dot` with a tool `leave.marker-v2`, which
  each CLI spells differently (`Srv-Dot-leave-marker-v2`, `mcp__Srv_Dot__leave_marker_v2`,
  `mcp__Srv_Dot__leave_marker-v2`), is still denied by `^Srv\\.Dot/leave.marker.v2$`.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from offline_turn import run_turn
from scripted_model import ScriptedModel

from agentdeck.core import engine
from agentdeck.core.targets import dialects

from tests.registry_kit import HOOKED

pytestmark = pytest.mark.clients


def tool_name(target: str, server: str, tool: str) -> str:
    """The name `target`'s pre-tool hook sees for `tool` of `server` (its dialect part's
    MCP_NAMES, core/targets/<name>/dialect.py)."""
    return dialects.module(target).MCP_NAMES.tool_name(server, tool)


SERVER_SCRIPT = Path(__file__).resolve().parent / "mcp_marker_server.py"
REASON = "the marker server is off limits"
TARGETS = HOOKED      # every registered target with hooks


def _install(host, base: Path, servers: dict[str, str], rule_match: str, target: str) -> None:
    """A profile (extends _base) with one stdio server per `servers` entry (name -> tool name),
    each writing <base>/marker-<name>, and one mcp deny rule; installed for `target`."""
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    d = host.config_dir / "profiles" / "mcp-names"
    d.mkdir(parents=True)
    (d / "profile.toml").write_text(f'''[profile]
extends = ["_base"]

[policy]
on_error = "deny"

[[policy.rules]]
id = "no-marker-server"
tool = "mcp"
match = '{rule_match}'
decision = "deny"
reason = "{REASON}"
''')
    (d / "mcp.json").write_text(json.dumps({"mcpServers": {
        name: {"command": sys.executable, "args": [str(SERVER_SCRIPT), str(base / f"marker-{name}"),
                                                   tool]}
        for name, tool in servers.items()}}))
    plan = engine.build_plan(host, "mcp-names", [target], trust_hooks=True)
    assert engine.apply_plan(host, plan).ok


def _activity(host) -> list[dict]:
    exe = Path(sys.executable).parent / "agentdeck"
    r = subprocess.run([str(exe), "activity", "--home", str(host.home), "--json"],
                       env=host.env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def _steps(target: str, names: list[str]) -> list:
    """The scripted model's calls of each MCP tool: itself when the request offers it, else
    through the CLI's dispatcher tool (one its vocabulary names "dispatch": Qwen's deferred
    tools are reached through `tool_call` {name, arguments})."""
    dispatch = {k for k, (_, kind) in dialects.module(target).TOOLS.items() if kind == "dispatch"}

    def step_for(name: str):
        def step(body: dict):
            offered = [t.get("name") or (t.get("function") or {}).get("name")
                       for t in body.get("tools") or [] if isinstance(t, dict)]
            if name in offered or not dispatch:
                return (name, {"note": "hello"})
            via = next((t for t in offered if t and dialects.fold(t) in dispatch), None)
            assert via, f"{target}: {name} is not offered and no dispatcher is: {offered}"
            return (via, {"name": name, "arguments": {"note": "hello"}})
        return step
    return [step_for(n) for n in names]


def _turn(host, target: str, work: Path, calls: list[tuple[str, str]]):
    """One turn calling each (server, tool) in order; (tool results, audit pre-tool lines)."""
    names = [tool_name(target, s, t) for s, t in calls]
    with ScriptedModel(command="", calls=_steps(target, names)) as m:
        r = run_turn(host, target, m.url, "call the marker tools", work,
                     {"ENABLE_TOOL_SEARCH": "false"} if target == "claude" else None,
                     timeout=180, allow=tuple(names))
        assert r.returncode == 0, r.stderr[-2000:]
        results = m.tool_results()
        offered = sorted({t.get("name") or (t.get("function") or {}).get("name")
                          for _, body in m.requests for t in body.get("tools") or []
                          if isinstance(t, dict)} - {None})
    assert len(results) == len(calls), f"{target}: {names} not all offered; offered {offered}"
    pre = [x for x in _activity(host) if x.get("event") == "pre_tool_use"]
    return results, pre


@pytest.mark.parametrize("target", TARGETS)
def test_a_mcp_rule_denies_the_tool(scratch_env, need, tmp_path, target):
    need(target)
    host, work = scratch_env, tmp_path / "work"
    work.mkdir()
    _install(host, tmp_path, {"marker": "leave_marker", "open": "leave_marker"},
             "^marker/leave_marker$", target)
    results, pre = _turn(host, target, work, [("marker", "leave_marker"), ("open", "leave_marker")])

    assert not (tmp_path / "marker-marker").exists(), f"{target}: the denied MCP tool ran"
    assert REASON in results[0], f"{target}: not refused: {results[0][:300]}"
    assert (tmp_path / "marker-open").read_text() == "hello\n", f"{target}: {results[1][:300]}"
    got = [(x.get("tool_class"), x.get("tool_name"), x.get("decision"), x.get("rule")) for x in pre]
    assert got == [("mcp", tool_name(target, "marker", "leave_marker"), "deny", "no-marker-server"),
                   ("mcp", tool_name(target, "open", "leave_marker"), "allow", None)], got
    assert all(x.get("target") == target for x in pre)


#: Codex's own limit (a fact of its naming: `_` for every other character, no server field, no
#: hash to read the name back from)
CODEX_UNMAPPED = pytest.mark.xfail(
    strict=True, reason="the compiled policy carries the profile's MCP server names only "
                        "for a CLI whose MCP tool names have no prefix, Copilot "
                        "(core/policy/compiled.py _names_mcp_by_server): Codex's "
                        "mcp__Srv_Dot__... cannot be mapped back to Srv.Dot")


@pytest.mark.parametrize("target", [pytest.param(t, marks=CODEX_UNMAPPED) if t == "codex" else t
                                    for t in TARGETS])
def test_spelled_names_are_mapped_back(scratch_env, need, tmp_path, target):
    need(target)
    host, work = scratch_env, tmp_path / "work"
    work.mkdir()
    _install(host, tmp_path, {"Srv.Dot": "leave.marker-v2"}, r"^Srv\.Dot/leave.marker.v2$",
             target)
    results, pre = _turn(host, target, work, [("Srv.Dot", "leave.marker-v2")])

    got = [(x.get("tool_name"), x.get("decision"), x.get("rule")) for x in pre]
    assert got == [(tool_name(target, "Srv.Dot", "leave.marker-v2"), "deny",
                    "no-marker-server")], got
    assert not (tmp_path / "marker-Srv.Dot").exists(), f"{target}: the denied MCP tool ran"
    assert REASON in results[0], f"{target}: not refused: {results[0][:300]}"
