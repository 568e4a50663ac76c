"""The tool vocabulary comes from the dialect parts: each registered target's TOOLS (and its
dialects' own `tools`) are well formed, the hook handler classifies a call with the calling
target's tools, and a target known only by its package (a stand-in dialect module here) is
classified by its own TOOLS and MCP_NAMES without any table of core/policy naming it."""
from __future__ import annotations

import types

import pytest

from agentdeck.core import hookhandler
from agentdeck.core.policy import vocabulary as V
from agentdeck.core.targets import dialects, registry
from agentdeck.core.targets.dialects import Dialect, McpNaming, Speaker

CLASSES = {"shell", "read", "write", "web", "other"}
KINDS = {"", "search", "glob", "list", "editor", "delegate", "dispatch", "session"}


def _tables():
    for name in registry.BUILTIN:
        m = dialects.module(name)
        if m is None:
            continue
        yield f"{name}.TOOLS", getattr(m, "TOOLS", {})
        for d in m.DIALECTS:
            yield f"{name}: {d.label}.tools", d.tools
    yield "SHARED", V.SHARED


@pytest.mark.parametrize("where,table", list(_tables()), ids=lambda x: x if isinstance(x, str)
                         else "")
def test_every_tools_table_is_folded_names_to_a_class_and_kind(where, table):
    for name, entry in table.items():
        assert V.fold(name) == name, f"{where}: {name!r} is not folded"
        cls, kind = entry
        assert cls in CLASSES and kind in KINDS, f"{where}: {name!r} -> {entry!r}"
        if kind in ("search", "glob", "list"):
            assert cls == "read", f"{where}: {name!r}: {kind} refines a read"
        if kind in ("delegate", "dispatch"):
            assert cls == "other", f"{where}: {name!r}: {kind} refines an other tool"
        if kind == "session":
            assert cls == "shell", f"{where}: {name!r}: a session is a shell tool's"


def test_every_registered_target_declares_tools_and_mcp_names():
    for name in registry.BUILTIN:
        m = dialects.module(name)
        assert isinstance(getattr(m, "TOOLS", None), dict), name
        assert m.MCP_NAMES is None or isinstance(m.MCP_NAMES, McpNaming), name


def test_a_known_caller_is_classified_with_its_own_tools():
    # `view` is Copilot's read tool; Codex names no such tool, so under Codex it is another tool
    copilot = V.vocabulary(dialects.readers("copilot", "copilot-camel"))
    codex = V.vocabulary(dialects.readers("codex", "codex"))
    assert V.classify("view", {"path": "/etc/passwd"}, vocab=copilot).cls == "read"
    assert V.classify("view", {"path": "/etc/passwd"}, vocab=codex).cls == "other"
    # the shared names are every caller's
    assert V.classify("Bash", {"command": "ls"}, vocab=codex).cls == "shell"


def test_an_unknown_caller_or_another_clis_payload_gets_every_dialects_tools():
    every = V.names(V.every_dialect())
    assert V.names(V.vocabulary(dialects.readers(None, "codex"))) == every
    assert V.names(V.vocabulary(dialects.readers("codex", "copilot-camel"))) == every
    assert V.names(V.vocabulary(dialects.readers("no_such_caller", "unknown"))) == every
    for name in registry.BUILTIN:
        m = dialects.module(name)
        assert set(m.TOOLS) <= set(every)


def test_the_repository_scope_is_classified_by_the_target_that_speaks_for_it():
    [owner] = dialects.readers("repo", "vscode")
    assert "repo" in owner.SPEAKERS
    vocab = V.vocabulary([owner])
    assert V.classify("run_in_terminal", {"command": "ls"}, vocab=vocab).cls == "shell"


# ---- a target known only by its package --------------------------------------------------------
NEW = Dialect("newcli", "newcli", "1.0",
              pre_tool={"deny_exit": 2, "shape": "specific", "crash_denies": False, "ask": "ask",
                        "ask_note": "", "source": "observed"},
              prompt={"exit": 2, "shape": "block", "source": "observed"})


def _new_module() -> types.ModuleType:
    m = types.ModuleType("newcli_dialect")
    m.DIALECTS = (NEW,)
    m.SPEAKERS = {"newcli": Speaker((NEW,), lambda p: NEW)}
    m.TOOLS = {"runshellcommand": ("shell", ""), "listdirectory": ("read", "list"),
               "searchfilecontent": ("read", "search")}
    m.MCP_NAMES = McpNaming("tool~", "~", "A-Za-z0-9", "_", "sure")
    m.recognise = lambda p: (90, NEW) if "newcli" in p else None
    return m


@pytest.fixture
def new_target(monkeypatch):
    m = _new_module()
    real = dialects.module
    monkeypatch.setattr(registry, "BUILTIN", (*registry.BUILTIN, "newcli"))
    monkeypatch.setattr(dialects, "module", lambda name: m if name == "newcli" else real(name))
    monkeypatch.setattr(V, "_EVERY", [])
    return m


def test_a_new_targets_tools_and_mcp_names_come_from_its_dialect_part(new_target):
    vocab = V.vocabulary(dialects.readers("newcli", "newcli"))
    [call] = V.tool_calls({"tool_name": "list_directory", "tool_input": {"path": "/srv"}},
                          vocab=vocab)
    assert (call.cls, call.kind, call.subjects) == ("read", "list", ["/srv"])
    [call] = V.tool_calls({"tool_name": "tool~my_srv~get", "tool_input": {}}, ["my.srv"], vocab)
    assert (call.cls, call.subjects) == ("mcp", ["my.srv/get"])
    # nobody else's payload knows these names, but an unknown caller gets every dialect's
    assert "listdirectory" in V.names(V.every_dialect())


def test_the_handler_denies_a_new_targets_shell_call_by_its_own_tool_name(new_target):
    doc = {"format": 2, "on_error": "deny", "rules": [
        {"id": "no-push", "tool": "shell", "match": r"\bgit push\b", "decision": "deny",
         "reason": "no pushing"}]}
    payload = {"newcli": 1, "session_id": "s", "tool_name": "run_shell_command",
               "tool_input": {"command": "git push --force"}}
    env = {"AGENTDECK_TARGET": "newcli", "HOME": "/home/x"}
    record = hookhandler.build_record(payload, "PreToolUse", env)
    assert record["dialect"] == "newcli"
    code, out, err = hookhandler.decide(payload, record, env, None, 0.0, policy=(doc, None))
    assert (record["decision"], record["rule"], record["tool_class"], code) == (
        "deny", "no-push", "shell", 2)


def test_the_event_index_holds_the_fold_of_every_spelling():
    for canon, names in hookhandler.EVENTS.items():
        for n in (canon, *names):
            assert hookhandler._EVENT_INDEX[hookhandler._fold(n)] == canon
            assert hookhandler.canonical_event(n) == canon
