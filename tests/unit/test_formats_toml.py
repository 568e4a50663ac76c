"""agentdeck.core.formats.tomldoc: TOML edited through tomlkit with comments, order and unknown tables kept."""

from __future__ import annotations

import tomllib

import pytest
import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentdeck.core.formats.errors import FormatError
from agentdeck.core.formats.tomldoc import MISSING, TomlDoc

CODEX_CONFIG = """\
# Codex configuration (hand-written)
model = "o3"  # the team default
approval_policy = "on-request"

[projects."/home/u/src/app"]
trust_level = "trusted"

# an experimental table codex may not know yet
[unknown.section]
flag = true
"""

GITHUB = {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"GITHUB_TOKEN": "x"}}


def error_of(text: str) -> FormatError:
    with pytest.raises(FormatError) as info:
        TomlDoc.parse(text, path="config.toml")
    return info.value


# -- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "col"),
    [
        ('model = "o3"\napproval_policy = \n', 2, 19),  # the line break where a value belongs
        ('a = 1\n[t]\nk = "unterminated\n', 3, 18),
        ("a = 1\na = 2\n", 2, 6),
        ("[t]\nx = 1\n[t]\n", 3, 3),
        ("a = [1,\n", 2, 1),
        ("a = 1\nthis is not toml\n", 2, 6),
    ],
)
def test_malformed_toml_reports_line_and_column(text, line, col):
    error = error_of(text)
    assert (error.line, error.col) == (line, col)
    assert str(error).startswith(f"config.toml:{line}:{col}: ")
    assert "\n" not in str(error) and "(at line" not in error.msg


def test_byte_order_mark_is_an_error():
    error = error_of("\ufeffa = 1\n")
    assert (error.line, error.col) == (1, 1) and "byte-order mark" in error.msg


# -- reading -----------------------------------------------------------------------------------


def test_data_get_and_missing():
    doc = TomlDoc.parse(CODEX_CONFIG)
    assert doc.data == tomllib.loads(CODEX_CONFIG)
    assert type(doc.data) is dict and type(doc.data["projects"]) is dict
    assert doc.get(("projects", "/home/u/src/app", "trust_level")) == "trusted"
    assert doc.get(("mcp_servers", "github")) is MISSING
    assert doc.get(("model", "x"), "dflt") == "dflt"


# -- editing -----------------------------------------------------------------------------------


def test_update_keeps_comments_order_and_unknown_tables():
    doc = TomlDoc.parse(CODEX_CONFIG)
    doc.set(("model",), "o4-mini")
    assert doc.text() == CODEX_CONFIG.replace('"o3"', '"o4-mini"')
    doc.set(("projects", "/home/u/src/app", "trust_level"), "untrusted")
    assert doc.text() == CODEX_CONFIG.replace('"o3"', '"o4-mini"').replace('"trusted"', '"untrusted"')


def test_setting_the_current_value_changes_nothing():
    doc = TomlDoc.parse(CODEX_CONFIG)
    doc.set(("model",), "o3")
    doc.set(("unknown",), {"section": {"flag": True}})
    assert doc.text() == CODEX_CONFIG


def test_mcp_server_becomes_a_table_with_an_implicit_parent():
    doc = TomlDoc.parse(CODEX_CONFIG)
    doc.set(("mcp_servers", "github"), GITHUB)
    assert doc.text() == CODEX_CONFIG + (
        "\n[mcp_servers.github]\n"
        'command = "npx"\n'
        'args = ["-y", "@modelcontextprotocol/server-github"]\n'
        'env = {GITHUB_TOKEN = "x"}\n'
    )
    assert "[mcp_servers]" not in doc.text()
    assert tomllib.loads(doc.text())["mcp_servers"] == {"github": GITHUB}
    assert doc.data["mcp_servers"]["github"] == GITHUB


def test_keys_with_dots_and_quotes_are_quoted():
    key = "/home/u/.codex/hooks.json:pre_tool_use:0:0"
    doc = TomlDoc.parse(CODEX_CONFIG)
    doc.set(("hooks", "state", key, "trusted_hash"), "sha256:ab12")
    doc.set(("odd",), {'say "hi"': 1, "a.b": 2})
    assert '[hooks.state."/home/u/.codex/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "sha256:ab12"\n' in doc.text()
    parsed = tomllib.loads(doc.text())
    assert parsed["hooks"]["state"][key]["trusted_hash"] == "sha256:ab12"
    assert parsed["odd"] == {'say "hi"': 1, "a.b": 2}


def test_plain_key_added_to_a_table_goes_after_its_keys():
    text = "[a]\nx = 1\n\n[b]\ny = 2\n"
    doc = TomlDoc.parse(text)
    doc.set(("a", "z"), "new")
    assert doc.text() == '[a]\nx = 1\nz = "new"\n\n[b]\ny = 2\n'


def test_replacing_a_value_keeps_its_comment():
    doc = TomlDoc.parse('args = ["a"]  # why\n')
    doc.set(("args",), ["a", "b"])
    assert doc.text() == 'args = ["a", "b"]  # why\n'


def test_set_of_a_table_merges_so_its_comments_survive():
    text = '[mcp_servers.x]\n# pinned, see ticket 42\ncommand = "npx"\nargs = ["old"]\n'
    doc = TomlDoc.parse(text)
    doc.set(("mcp_servers", "x"), {"command": "npx", "args": ["new"]})
    assert doc.text() == text.replace('"old"', '"new"')


def test_nested_set_through_a_value_is_an_error():
    doc = TomlDoc.parse("model = 1\n")
    with pytest.raises(FormatError) as info:
        doc.set(("model", "x"), 1)
    assert "not a table" in info.value.msg
    with pytest.raises(TypeError):
        doc.set(("y",), None)
    assert doc.text() == "model = 1\n"


def test_delete_removes_the_implicit_parent_but_keeps_an_explicit_header():
    doc = TomlDoc.parse("a = 1\n")
    doc.set(("mcp_servers", "github"), GITHUB)
    doc.delete(("mcp_servers", "github"))
    assert doc.text() == "a = 1\n" and "mcp_servers" not in doc.data
    explicit = "[mcp_servers]\n\n[other]\nk = 1\n"
    doc = TomlDoc.parse(explicit)
    doc.set(("mcp_servers", "github"), GITHUB)
    doc.delete(("mcp_servers", "github"))
    assert doc.text() == explicit


def test_delete_of_a_leaf_removes_the_table_it_leaves_empty_unless_commented():
    doc = TomlDoc.parse('[hooks.state."k"]\ntrusted_hash = "x"\n\n[z]\nq = 1\n')
    doc.delete(("hooks", "state", "k", "trusted_hash"))
    assert doc.text() == "[z]\nq = 1\n"
    doc = TomlDoc.parse('[t]\n# keep me\nk = 1\n')
    doc.delete(("t", "k"))
    assert doc.text() == "[t]\n# keep me\n"
    doc.delete(("absent",))
    doc.delete(("t", "absent", "deeper"))
    assert doc.text() == "[t]\n# keep me\n"


SET_DELETE_SHAPES = [
    "",
    'model = "o3"\n',
    'model = "o3"\n\n',
    CODEX_CONFIG,
    "# only a comment\n",
    '[mcp_servers.a]\ncommand = "x"\n',
    '[mcp_servers]\n\n[mcp_servers.a]\ncommand = "x"\n',
    '[mcp_servers.a]\ncommand = "x"\n\n[other]\nk = 1  # c\n# tail comment\n',
    'mcp_servers = { a = { command = "x" } }\nt = { q = 1 }\n',
    'mcp_servers.a.command = "x"\nt.q = 1\n',
    '[[t]]\nk = 1\n\n[[t]]\nk = 2\n',
    'model = "o3"\r\n\r\n[t]\r\nk = 1\r\n',
]
SET_DELETE_OPS = [
    (("mcp_servers", "github"), GITHUB),
    (("model2",), "x"),
    (("projects", "/y", "trust_level"), "trusted"),
    (("hooks", "state", "/h/.codex/hooks.json:pre:0:0", "trusted_hash"), "sha256:1"),
    (("other", "new"), [1, 2]),
    (("features",), {"codex_hooks": True}),
]


@pytest.mark.parametrize("original", SET_DELETE_SHAPES)
@pytest.mark.parametrize(("keypath", "value"), SET_DELETE_OPS)
def test_set_then_delete_of_a_new_key_restores_the_bytes(original, keypath, value):
    doc = TomlDoc.parse(original)
    doc.set(keypath, value)
    assert doc.get(keypath) == value
    assert tomllib.loads(doc.text()) == doc.data
    reread = TomlDoc.parse(doc.text())
    reread.delete(keypath)
    assert reread.text() == original


def test_crlf_is_preserved():
    original = 'model = "o3"\r\n'
    doc = TomlDoc.parse(original)
    doc.set(("mcp_servers", "github"), GITHUB)
    doc.set(("model2",), "y")
    assert "\n" not in doc.text().replace("\r\n", "")


def test_a_missing_final_newline_stays_missing():
    # an added final newline would make uninstall not byte-exact: the file keeps its ending
    doc = TomlDoc.parse('model = "o3"')
    doc.set(("t", "k"), 1)
    assert doc.text() == 'model = "o3"\n[t]\nk = 1\n'
    doc.delete(("t", "k"))
    assert doc.text() == 'model = "o3"'


def test_new_document():
    doc = TomlDoc.new()
    assert doc.text() == "" and doc.data == {}
    doc.set(("model",), "o3")
    doc.set(("mcp_servers", "x"), {"command": "y"})
    assert doc.text() == 'model = "o3"\n\n[mcp_servers.x]\ncommand = "y"\n'


def test_regression_sub_table_of_a_split_table_stays_readable_by_tomlkit():
    # found by the random-edits property: appended at the end, [mcp.s2.b.a] made a text tomllib
    # reads but tomlkit rejects ('Key "b" already exists'): [mcp.s2] holds [mcp.s2.b.model] and a
    # later [mcp.s2.b], and [a] stands between them and the new sub-table
    doc = TomlDoc.parse(
        "a = false\nb = false\nmodel = false\n\n[mcp.s1]\na = false\nb = false\n\n[mcp.s2]\na = false\n"
    )
    doc.delete(("a",))
    doc.set(("mcp", "s2", "b", "model"), {})
    doc.set(("mcp", "s2", "b", "b"), False)
    doc.set(("a", "a"), False)
    before = doc.text()
    assert before.endswith("[mcp.s2.b.model]\n\n[mcp.s2.b]\nb = false\n\n[a]\na = false\n")
    doc.set(("mcp", "s2", "b", "a", "a"), False)
    # next to its parent's tables (the end of the file too, for a tomlkit that reads that)
    assert doc.text() in (
        before.replace("[a]\n", "[mcp.s2.b.a]\na = false\n\n[a]\n"),
        before + "\n[mcp.s2.b.a]\na = false\n",
    )
    assert tomlkit.parse(doc.text()).unwrap() == tomllib.loads(doc.text()) == doc.data
    assert doc.data["mcp"]["s2"] == {"a": False, "b": {"model": {}, "b": False, "a": {"a": False}}}
    assert doc.data["a"] == {"a": False}
    reread = TomlDoc.parse(doc.text())
    reread.delete(("mcp", "s2", "b", "a", "a"))
    assert reread.text() == before


def test_sub_table_of_a_table_with_dotted_keys_goes_next_to_it_when_tomlkit_needs_that():
    text = "[hooks]\nstate.x = 1\nstate.y = 2\n\n[other]\nk = 1\n"
    keypath = ("hooks", "state", "/p", "trusted_hash")
    doc = TomlDoc.parse(text)
    doc.set(keypath, "h")
    table = '[hooks.state."/p"]\ntrusted_hash = "h"\n'
    # tomlkit 0.15 rejects it at the end of the file, after [other]
    assert doc.text() in (text.replace("[other]", table + "\n[other]"), text + "\n" + table)
    assert tomlkit.parse(doc.text()).unwrap() == tomllib.loads(doc.text()) == doc.data
    reread = TomlDoc.parse(doc.text())
    reread.delete(keypath)
    assert reread.text() == text


def test_a_file_tomlkit_cannot_walk_gives_a_format_error_not_a_crash():
    try:  # valid TOML; tomlkit 0.15 parses it into a tree that fails inside table t, 0.12 rejects it
        doc = TomlDoc.parse("[[t.s]]\n[[s.s]]\n[[t.s.s]]\n")
        doc.set(("t", "x"), 1)
    except FormatError:  # not tomlkit's own KeyAlreadyPresent
        pass
    else:  # a tomlkit that handles it
        assert tomllib.loads(doc.text())["t"]["x"] == 1


# -- properties ----------------------------------------------------------------------------------

KEYS = st.sampled_from(["a", "b", "model", "x.y", "/p:0", "é", 'q"t'])
SCALARS = st.one_of(st.booleans(), st.integers(-1000, 1000), st.text(max_size=6), st.lists(st.integers(0, 9), max_size=3))
INLINE = st.dictionaries(KEYS, SCALARS, max_size=2)
VALUES = st.one_of(SCALARS, INLINE)


def key(k: str) -> str:
    return tomlkit.key(k).as_string()


def value(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + "}"
    return tomlkit.item(v).as_string()


@st.composite
def documents(draw):
    """A TOML text with comments: root keys, tables, and tables under an implicit parent."""
    comments: list[tuple[str, tuple[str, ...]]] = []

    def comment(path: tuple[str, ...], trailing: bool) -> str:
        if not draw(st.booleans()):
            return ""
        tag = f"<c{len(comments)}>"
        comments.append((tag, path))
        return f"  # {tag}" if trailing else f"# {tag}\n"

    data: dict = {}
    text = comment((), False)
    for k, v in draw(st.dictionaries(KEYS, VALUES, max_size=3)).items():
        data[k] = v
        text += comment((), False) + f"{key(k)} = {value(v)}{comment((k,), True)}\n"
    tables = draw(st.dictionaries(st.sampled_from(["t", "u", "sec.tion"]), st.dictionaries(KEYS, VALUES, max_size=3), max_size=2))
    servers = draw(st.dictionaries(st.sampled_from(["s1", "s2"]), st.dictionaries(KEYS, SCALARS, min_size=1, max_size=2), max_size=2))
    sections = [((name,), body) for name, body in tables.items() if name not in data]
    sections += [(("mcp", name), body) for name, body in servers.items()] if "mcp" not in data else []
    for path, body in sections:
        node = data
        for part in path:
            node = node.setdefault(part, {})
        node.update(body)
        text += "\n[" + ".".join(key(p) for p in path) + "]" + comment(path, True) + "\n"
        for k, v in body.items():
            text += comment(path, False) + f"{key(k)} = {value(v)}{comment(path + (k,), True)}\n"
    return data, text, comments, [path for path, body in sections if body]


def without_empty_tables(data):
    if not isinstance(data, dict):
        return data
    out = {k: without_empty_tables(v) for k, v in data.items()}
    return {k: v for k, v in out.items() if v != {}}


def tables_of(data: dict, path=()) -> list[tuple[str, ...]]:
    found = [path]
    for k, v in data.items():
        if isinstance(v, dict):
            found.extend(tables_of(v, path + (k,)))
    return found


def apply_to_model(data: dict, keypath, op: str, v=None) -> None:
    node = data
    for part in keypath[:-1]:
        if part not in node:
            if op == "delete":
                return
            node[part] = {}
        node = node[part]
    if op == "set":
        node[keypath[-1]] = v
    else:
        node.pop(keypath[-1], None)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.data())
def test_property_random_edits_keep_comments_and_unedited_values(document, data):
    expected, text, comments, _ = document
    doc = TomlDoc.parse(text)
    assert doc.data == expected
    touched = []
    for _ in range(data.draw(st.integers(1, 5))):
        parent = data.draw(st.sampled_from(tables_of(expected)))
        keypath = parent + tuple(data.draw(st.lists(KEYS, min_size=1, max_size=3)))
        node = expected
        for i, part in enumerate(keypath[:-1]):  # never go through a value
            if part not in node:
                break
            if not isinstance(node[part], dict):
                keypath = keypath[: i + 1]
                break
            node = node[part]
        if data.draw(st.booleans()):
            v = data.draw(st.one_of(VALUES, st.dictionaries(KEYS, VALUES, max_size=2)))
            doc.set(keypath, v)
            apply_to_model(expected, keypath, "set", v)
        else:
            doc.delete(keypath)
            apply_to_model(expected, keypath, "delete")
        touched.append(keypath)
        assert without_empty_tables(doc.data) == without_empty_tables(expected)
    assert tomllib.loads(doc.text()) == doc.data
    for tag, path in comments:
        if not any(path[: len(t)] == t for t in touched):
            assert doc.text().count(tag) == 1, (tag, doc.text())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.data())
def test_property_set_then_delete_of_a_new_key_restores_the_bytes(document, data):
    _, text, _, header_tables = document
    keypath = data.draw(
        st.sampled_from(
            [("agentdeck_key",), ("mcp_servers", "agentdeck"), ("hooks", "state", "/h/x.json:pre:0:0", "trusted_hash")]
            + [p + ("agentdeck_key",) for p in header_tables]
        )
    )
    doc = TomlDoc.parse(text)
    doc.set(keypath, data.draw(st.one_of(SCALARS, st.dictionaries(KEYS, SCALARS, min_size=1, max_size=2))))
    reread = TomlDoc.parse(doc.text())
    reread.delete(keypath)
    assert reread.text() == text


def test_tomllib_errors_name_keys_dotted_not_as_python_tuples():
    from agentdeck.core.formats.errors import FormatError
    from agentdeck.core.formats.tomldoc import TomlDoc
    with pytest.raises(FormatError) as e:
        TomlDoc.parse('[mcp_servers.memory]\na = 1\n[mcp_servers.memory\n', path="c.toml")
    assert "mcp_servers.memory" in str(e.value) and "('" not in str(e.value)
