"""Each CLI's tool vocabulary (core/targets/<name>/dialect.py TOOLS): every role is one the
policy judges, with the version it was checked on, and the roles that are not plain classes act
as docs/policy.md says: a tool typing into a shell session is a shell call on what it types, a
sub-agent's prompt is seen by prompt rules and its paths are read and written, a dispatcher is
judged as the tool it names, and an unknown tool's path arguments are read and written."""
from __future__ import annotations

import pytest

from agentdeck.core.policy import vocabulary as V
from agentdeck.core.policy.rules import Context, evaluate_call, evaluate_doc
from agentdeck.core.policy.fs import MemoryFS
from agentdeck.core.targets import dialects

MODULES = list(dialects.modules())
HOME = "/home/u"
KEY = f"{HOME}/.ssh/id_rsa"
DOC = {"rules": [{"id": "no-rm", "tool": "shell", "command": ["rm"], "args": ["-r", "-f"],
                  "decision": "deny"},
                 {"id": "no-secret-prompts", "tool": "prompt", "match": "sekrit",
                  "decision": "deny"}],
       "paths": [{"id": "keys", "paths": ["~/.ssh/id_*"], "access": ["read", "write"],
                  "decision": "deny"}]}


def _ids(m) -> str:
    return m.__name__.rsplit(".", 2)[-2]


def _of(module, kind: str, cls: str | None = None) -> list[str]:
    return [n for n, (c, k) in (getattr(module, "TOOLS", None) or {}).items()
            if k == kind and (cls is None or c == cls)]


def _decide(call: V.Call, cwd: str = f"{HOME}/work"):
    return evaluate_doc(DOC, [call], Context(HOME, cwd, {}, MemoryFS({KEY: "x"})))


@pytest.mark.parametrize("module", MODULES, ids=_ids)
def test_every_vocabulary_says_the_version_it_was_checked_on(module):
    """(test_dialect_tools.py checks each entry's class and kind.)"""
    assert getattr(module, "TOOLS", None), f"{module.__name__} declares no tools"
    assert isinstance(getattr(module, "TOOLS_VERIFIED", None), str) and module.TOOLS_VERIFIED


def test_the_special_roles_are_used():
    """Every role below is held by some CLI's tool (else the tests below test nothing)."""
    for kind, cls in (("delegate", "other"), ("dispatch", "other")):
        assert any(_of(m, kind, cls) for m in MODULES), kind


@pytest.mark.parametrize("module", MODULES, ids=_ids)
def test_a_delegate_prompt_is_a_prompt_and_its_paths_are_read_and_written(module):
    vocab = V.vocabulary([module])
    for name in _of(module, "delegate"):
        call = V.classify(name, {"prompt": "use the sekrit token", "message": "x"}, vocab=vocab)
        assert (call.cls, call.kind) == ("other", "delegate"), name
        assert evaluate_call(DOC["rules"], call).rule == "no-secret-prompts", name
        v = _decide(V.classify(name, {"prompt": f"summarize {KEY}"}, vocab=vocab))
        assert (v.decision, v.rule) == ("deny", "keys"), name
        assert _decide(V.classify(name, {"prompt": "run the tests"}, vocab=vocab)).rule is None
    # a prompt rule does not see an other tool that hands nothing to a model
    plain = V.Call("other", "list_things", ["list_things", "sekrit"], texts=["sekrit"])
    assert evaluate_call(DOC["rules"], plain).rule is None


@pytest.mark.parametrize("module", MODULES, ids=_ids)
def test_a_dispatcher_is_judged_as_the_tool_it_names(module):
    vocab = V.vocabulary([module])
    shell = next((n for n, (c, _) in V.names(vocab).items() if c == "shell"), None)
    for name in _of(module, "dispatch"):
        call = V.classify(name, {"name": shell, "arguments": {"command": "rm -rf x"}},
                          vocab=vocab)
        assert (call.cls, call.subjects) == ("shell", ["rm -rf x"]), name
        assert _decide(call).rule == "no-rm"
        # naming itself, or nothing: an unknown tool (its path arguments still count)
        me = V.classify(name, {"name": name, "arguments": {}, "path": KEY}, vocab=vocab)
        assert (me.cls, me.kind) == ("other", "unknown")
        assert _decide(me).rule == "keys"


@pytest.mark.parametrize("module", MODULES, ids=_ids)
def test_a_tool_typing_into_a_session_is_judged_as_a_command_line(module):
    """The shell tools whose argument is what is typed into a running session (Codex's
    write_stdin `chars`, Copilot's write_bash `input`)."""
    vocab = V.vocabulary([module])
    for name in _of(module, "", "shell"):
        for key in ("chars", "input"):
            call = V.classify(name, {"session_id": 3, "shellId": "s1", key: "rm -rf x\n"},
                              vocab=vocab)
            assert call.cls == "shell" and _decide(call).rule == "no-rm", (name, key)


def test_an_unknown_tool_given_a_path_reads_and_writes_it_relative_to_the_cwd():
    call = V.classify("BrandNewTool9", {"path": "../.ssh/id_rsa", "mode": "a"})
    assert (call.cls, call.kind, call.paths) == ("other", "unknown", ["../.ssh/id_rsa"])
    v = _decide(call, cwd=f"{HOME}/work")
    assert (v.decision, v.rule) == ("deny", "keys")
    assert _decide(V.classify("BrandNewTool9", {"path": "src/app.py"})).rule is None
    # a list of paths, and every path key (not only the first)
    many = V.classify("BrandNewTool9", {"paths": ["a", "b"], "file_path": "c"})
    assert many.paths == ["c", "a", "b"]
    # a declared tool keeps its declared role: not "unknown"
    known = next(n for m in MODULES for n in _of(m, "", "other"))
    assert V.classify(known, {}).kind == ""


@pytest.mark.parametrize("module", MODULES, ids=_ids)
def test_a_session_tool_starting_a_program_that_takes_typed_commands_is_unresolved(module):
    """A shell tool whose process takes input later that no hook sees (kind "session":
    Codex's exec_command, which its PreToolUse names Bash): a shell or REPL given nothing to
    run, an editor, is unresolved; the same programs given something to run are judged as
    usual, and so is every command of a shell tool that is not a session's."""
    vocab = V.vocabulary([module])
    for name in _of(module, "session", "shell"):
        for line in ("bash", "python3", "vim notes.txt", "sudo -s", "bash -i", "sh -s"):
            v = _decide(V.classify(name, {"command": line, "cmd": line}, vocab=vocab))
            assert (v.decision, v.rule) == ("ask", "unresolved"), (name, line)
        for line in ("bash -c 'ls'", "python3 x.py", "python3 -m http.server", "git status",
                     "echo ls | bash"):
            v = _decide(V.classify(name, {"command": line, "cmd": line}, vocab=vocab))
            assert v.rule != "unresolved" or "pipe" in v.reason, (name, line, v.reason)
    plain = V.Call("shell", "Bash", ["bash"])
    assert _decide(plain).rule is None


def test_session_kinds_are_declared_somewhere():
    assert any(_of(m, "session", "shell") for m in MODULES)


def test_an_unknown_tool_given_a_command_under_any_command_key_is_a_shell_call():
    for key in ("command", "cmd", "commandLine", "script", "shell_command"):
        call = V.classify("BrandNewTool9", {key: "rm -rf x", "mode": "run"})
        assert (call.cls, call.subjects) == ("shell", ["rm -rf x"]), key
        assert _decide(call).rule == "no-rm"
    # a declared other tool's `script` is its own program, not a shell line
    for m in MODULES:
        vocab = V.vocabulary([m])
        for name in _of(m, "") + _of(m, "delegate"):
            if V.names(vocab)[name][0] == "other":
                assert V.classify(name, {"script": "rm -rf x"}, vocab=vocab).cls == "other"


def test_an_unknown_tool_value_that_looks_like_a_path_is_read_and_written():
    call = V.classify("BrandNewTool9", {"target": "../.ssh/id_rsa", "note": "a b/c"})
    assert call.paths == ["../.ssh/id_rsa"]
    assert _decide(call).rule == "keys"
    # a declared tool's other values are not taken for paths
    known = next(n for m in MODULES for n in _of(m, "", "other"))
    assert V.classify(known, {"target": "../.ssh/id_rsa"}).paths == []
