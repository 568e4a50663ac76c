"""agentdeck.core.model checks plainly valid input itself and hands the rest to pydantic (agentdeck.core.model_pydantic).
Whatever the input, the result must be pydantic's: the same values, fields_set and extras, or the
same ValidationError."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from agentdeck.core import model, model_pydantic

CLASSES = ["ProfileMeta", "HookSpec", "ProfileFile", "McpServer", "McpFile", "Directives", "Profile"]
REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", CLASSES)
def test_same_fields_defaults_and_extra_policy(name):
    ours, theirs = getattr(model, name), getattr(model_pydantic, name)
    assert list(ours._spec) == list(theirs.model_fields)
    assert ours._extra == theirs.model_config.get("extra", "ignore")
    for f, info in theirs.model_fields.items():
        default = ours._spec[f][1]
        if info.is_required():
            assert default is model._REQUIRED, f
        else:
            want = info.get_default(call_default_factory=True)
            got = default()
            assert (got.model_dump() if isinstance(got, model._Model) else got) == (
                want.model_dump() if hasattr(want, "model_dump") else want), f


def dump(m):
    return m.model_dump()


def same(data, name):
    ours, theirs = getattr(model, name), getattr(model_pydantic, name)
    try:
        want = theirs.model_validate(data)
    except ValidationError as e:
        with pytest.raises(ValidationError) as got:
            ours.model_validate(data)
        assert got.value.errors(include_context=False) == e.errors(include_context=False)
        assert str(got.value) == str(e)
        return
    got = ours.model_validate(data)
    assert got.model_dump() == want.model_dump()
    assert got.model_dump(exclude_none=True) == want.model_dump(exclude_none=True)
    assert got.model_dump(exclude_unset=True) == want.model_dump(exclude_unset=True)
    assert got.model_fields_set == want.model_fields_set
    assert got.model_extra == want.model_extra
    assert list(got.model_dump()) == list(want.model_dump())    # key order: files are written from it


scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 5000), st.floats(allow_nan=False),
                    st.sampled_from(["", "x", "stdio", "http", "sse", "local", "copilot", "codex",
                                     "claude", "a/b", "..", "ok-name", "30", "true"]))
values = st.recursive(scalars, lambda c: st.one_of(st.lists(c, max_size=3),
                                                   st.dictionaries(st.sampled_from(["a", "b", "k"]), c,
                                                                   max_size=3)), max_leaves=6)
str_lists = st.lists(st.sampled_from(["a", "b", "ok", "x.y", "a/b", ".."]), max_size=3)
str_dicts = st.dictionaries(st.sampled_from(["A", "B"]), st.sampled_from(["1", "v"]), max_size=2)


def fields(spec: dict) -> st.SearchStrategy:
    """Dicts of some of the fields (good-looking values, or anything) plus maybe an unknown key."""
    parts = {k: st.one_of(v, values) for k, v in spec.items()}
    parts["zz_unknown"] = values
    return st.fixed_dictionaries({}, optional=parts)


META = {"name": st.one_of(st.none(), st.text(max_size=3)), "description": st.text(max_size=3),
        "extends": str_lists,
        "targets": st.one_of(st.none(), st.lists(st.sampled_from(["copilot", "codex", "x"]), max_size=2))}
HOOKS = {"command": st.one_of(st.none(), st.just("agentdeck-hook")), "events": st.one_of(st.none(), str_lists),
         "timeout": st.integers(-1, 4000)}
SERVER = {"type": st.sampled_from([None, "stdio", "local", "http", "sse", "streamable-http", "ws"]),
          "command": st.one_of(st.none(), st.just("npx")), "args": str_lists, "env": str_dicts,
          "url": st.one_of(st.none(), st.just("https://x")), "headers": str_dicts,
          "tools": st.one_of(st.none(), str_lists), "timeout": st.one_of(st.none(), st.integers(0, 9)),
          "auth": st.one_of(st.none(), st.booleans()), "oidc": st.one_of(st.none(), st.booleans())}
DIRECTIVES = {"mcpDefaultDisabled": st.booleans(), "mcpAlwaysEnabled": str_lists,
              "browserCommand": values, "suppressBrowserLaunch": st.booleans(), "allowAll": values,
              "channels": values}


@settings(max_examples=300, deadline=None)
@given(fields(META))
def test_profile_meta(data):
    same(data, "ProfileMeta")


@settings(max_examples=300, deadline=None)
@given(fields(HOOKS))
def test_hook_spec(data):
    same(data, "HookSpec")


@settings(max_examples=200, deadline=None)
@given(fields({"profile": fields(META), "hooks": st.one_of(st.none(), fields(HOOKS))}))
def test_profile_file(data):
    same(data, "ProfileFile")


@settings(max_examples=400, deadline=None)
@given(fields(SERVER))
def test_mcp_server(data):
    same(data, "McpServer")


@settings(max_examples=200, deadline=None)
@given(fields({"mcpServers": st.dictionaries(st.sampled_from(["s1", "s2"]), fields(SERVER), max_size=2)}))
def test_mcp_file(data):
    same(data, "McpFile")


@settings(max_examples=300, deadline=None)
@given(fields(DIRECTIVES))
def test_directives(data):
    same(data, "Directives")


@settings(max_examples=200, deadline=None)
@given(fields({"name": st.just("p"), "chain": str_lists, "origins": str_dicts,
               "personas": st.lists(st.tuples(st.just("p"), st.just("text")), max_size=2),
               "native": st.dictionaries(st.just("copilot/settings.json"),
                                         st.dictionaries(st.just("k"), values, max_size=2), max_size=1),
               "mcp_servers": st.dictionaries(st.just("s"), fields(SERVER), max_size=1),
               "directives": fields(DIRECTIVES), "hooks": fields(HOOKS)}))
def test_profile(data):
    same(data, "Profile")


def test_instances_inside_input_are_kept():
    srv = model.McpServer.model_validate({"command": "npx", "x-native": {"a": 1}})
    p = model.Profile(name="p", chain=["p"], mcp_servers={"s": srv})
    assert p.mcp_servers["s"] is srv
    # with a bad value elsewhere the input goes to pydantic, instances and all
    with pytest.raises(ValidationError):
        model.Profile(name="p", chain="p", mcp_servers={"s": srv})


def test_copy_assignment_and_extras():
    srv = model.McpServer.model_validate({"command": "npx", "args": ["-y"], "x-native": {"a": [1]}})
    assert srv.model_extra == {"x-native": {"a": [1]}}
    deep = srv.model_copy(deep=True)
    assert deep == srv and deep.model_extra["x-native"] is not srv.model_extra["x-native"]
    deep.args.append("more")
    assert srv.args == ["-y"]
    d = model.Directives()
    d.mcpAlwaysEnabled = ["memory"]
    assert "mcpAlwaysEnabled" in d.model_fields_set
    with pytest.raises(ValueError):
        d.nope = 1


def test_plan_path_does_not_import_pydantic():
    """The bundled default profile is plainly valid: planning it never loads pydantic."""
    code = ("import sys, tempfile, io, contextlib\n"
            "from core.cli import main\n"
            "with tempfile.TemporaryDirectory() as h, contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['plan', '--json', '--home', h])\n"
            "print([m for m in ('pydantic', 'textual', 'rich') if m in sys.modules])\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                       env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
