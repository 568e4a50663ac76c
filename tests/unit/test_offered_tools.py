"""The record of the tools each CLI offered its model (core/policy/offered.py): the drill's
server reads them from the requests, the drill records them per CLI version in the state dir and
notes the unknown ones, and the doctor's `<target>.tools.offered` row lists the tools of the
record that the CLI's vocabulary does not know."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentdeck.core import doctor
from agentdeck.core.doctor.runner import _load_checks
from agentdeck.core.drill import report, run as drill_run
from agentdeck.core.drill.server import deferred_names, offered_names
from agentdeck.core.host import Host
from agentdeck.core.policy import offered, vocabulary
from agentdeck.core.targets import dialects, registry

_load_checks()
TARGETS = [t for t in registry.NAMES if dialects.module(t) is not None]


def _host(tmp_path: Path) -> Host:
    home = tmp_path / "home"
    home.mkdir()
    h = Host.from_environment(home, env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    h.cwd = home
    return h


def _known(target: str) -> list[str]:
    return sorted(vocabulary.names(vocabulary.vocabulary([dialects.module(target)])))[:5]


def _rows(host: Host, target: str):
    return [f for f in doctor.run(host, "default", [target]) if f.check == f"{target}.tools.offered"]


def test_the_server_reads_every_offered_name_a_namespace_too():
    tools = [{"type": "function", "function": {"name": "bash"}},
             {"type": "function", "name": "exec_command"},
             {"type": "custom", "custom": {"name": "apply_patch"}},
             {"type": "namespace", "name": "multi_agent_v1",
              "tools": [{"type": "function", "name": "spawn_agent"}]},
             {"type": "namespace", "name": "mcp__files", "tools": [{"name": "read_file"}]},
             {"type": "web_search"}]
    assert offered_names(tools) == ["bash", "exec_command", "multi_agent_v1", "mcp__files",
                                    "spawn_agent", "mcp__files__read_file"]


def test_the_server_reads_the_deferred_tools_a_prompt_lists():
    """The two ways the CLIs list deferred tools in their prompt (core/drill/server.py)."""
    claude = {"system": [{"type": "text", "text": (
        "intro\n\nThe following deferred tools are now available via ToolSearch. Their schemas "
        "are NOT loaded: use ToolSearch with query \"select:<name>\":\nCronCreate\nSendMessage\n"
        "\nAvailable agent types ...")}], "tools": [{"name": "NotThis"}]}
    qwen = {"messages": [{"role": "user", "content": [{"type": "text", "text": (
        "<system-reminder>\nThe following tools are reachable through `tool_search` and "
        "`tool_call`. Review ...\n\n### Bundled\n- \"cron_create\": \"Schedule a prompt\"\n"
        "- \"monitor\": \"Starts a command\"\n</system-reminder>\n- \"not_this\": \"x\"")}]}]}
    assert deferred_names(claude) == ["CronCreate", "SendMessage"]
    assert deferred_names(qwen) == ["cron_create", "monitor"]
    assert deferred_names({"messages": [{"content": "- \"x\": \"no listing here\""}]}) == []


def test_a_record_is_kept_per_version_and_the_installed_one_is_read_first(tmp_path):
    host = _host(tmp_path)
    assert offered.entry(host, "x", "1.0") is None and offered.load(host) == ({}, None)
    offered.record(host, "x", "1.0", ["b", "a", "a", ""], "d1")
    offered.record(host, "x", "2.0", ["c"], "d2")
    offered.record(host, "y", None, ["z"], "d3")
    assert offered.entry(host, "x", "1.0")[1]["tools"] == ["a", "b"]
    assert offered.entry(host, "x", "2.0")[1]["drill"] == "d2"
    assert offered.entry(host, "y", "5")[0] == offered.UNKNOWN_VERSION
    assert oct(offered.path(host).stat().st_mode & 0o777) == "0o600"
    # nothing offered: nothing recorded
    offered.record(host, "w", "1", [], "d4")
    assert "w" not in offered.load(host)[0]


def test_an_unreadable_record_is_said_and_replaced_by_the_next_drill(tmp_path):
    host = _host(tmp_path)
    offered.path(host).parent.mkdir(parents=True)
    offered.path(host).write_text("{not json")
    targets, why = offered.load(host)
    assert targets == {} and "not JSON" in why
    offered.record(host, "x", "1.0", ["a"], "d")
    assert offered.load(host)[0]["x"]["1.0"]["tools"] == ["a"]


@pytest.mark.parametrize("target", TARGETS)
def test_the_doctor_lists_the_unknown_tools_of_the_record(tmp_path, target):
    host = _host(tmp_path)
    [row] = _rows(host, target)
    assert row.result == "ok" and "no drill has recorded" in row.message
    offered.record(host, target, "9.9.9", _known(target), "d")
    [row] = _rows(host, target)
    assert row.result == "ok" and "is in agentdeck's vocabulary" in row.message
    offered.record(host, target, "9.9.9", [*_known(target), "BrandNewTool9", "OtherNew"], "d")
    [row] = _rows(host, target)
    assert row.result == "warning"
    assert "2 tools agentdeck does not know: BrandNewTool9, OtherNew" in row.message
    assert str(tmp_path) not in row.message
    offered.path(host).write_text("[]")
    [row] = _rows(host, target)
    assert row.result == "warning" and "cannot read the record" in row.message


@pytest.mark.parametrize("target", TARGETS)
def test_the_drill_records_what_its_turn_offered_and_notes_the_unknown(tmp_path, target):
    host = _host(tmp_path)
    rep = report.TargetReport(target, "ok", True)
    drill_run._offered(host, rep, target, "9.9.9", [*_known(target), "BrandNewTool9"], "d-x")
    assert "BrandNewTool9" in offered.entry(host, target, "9.9.9")[1]["tools"]
    assert any("BrandNewTool9" in n and "does not know" in n for n in rep.notes)
    quiet = report.TargetReport(target, "ok", True)
    drill_run._offered(host, quiet, target, "9.9.9", _known(target), "d-y")
    assert quiet.notes == [] and offered.entry(host, target, "9.9.9")[1]["drill"] == "d-y"
