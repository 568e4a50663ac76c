"""agentdeck.core.formats.jsonc: JSON/JSONC read and written back with everything outside edits kept."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentdeck.core.formats.errors import FormatError
from agentdeck.core.formats.jsonc import MISSING, JsonDoc

CLAUDE_SETTINGS = """\
{
  // permissions are reviewed by the security team
  "permissions": {
    "allow": ["Bash(git status)"], /* keep this list short */
    "deny": [],
  },
  "model": "sonnet", // pinned on purpose
  "env": {"FOO": "1"},
}
"""


def errors_of(text: str, **kwargs) -> FormatError:
    with pytest.raises(FormatError) as info:
        JsonDoc.parse(text, path="settings.json", **kwargs)
    return info.value


# -- reading -----------------------------------------------------------------------------------


def test_data_keeps_file_order_and_values():
    doc = JsonDoc.parse(CLAUDE_SETTINGS)
    assert list(doc.data) == ["permissions", "model", "env"]
    assert doc.data["permissions"] == {"allow": ["Bash(git status)"], "deny": []}
    assert doc.get(("env", "FOO")) == "1"
    assert doc.get(("env", "BAR")) is MISSING
    assert doc.get(("model", "x"), None) is None
    assert doc.line_of(("model",)) == 7
    assert doc.line_of(("permissions", "deny")) == 5
    assert doc.line_of(("nope",)) is None


def test_string_escapes_and_numbers():
    doc = JsonDoc.parse('{"a\\u0062": "\\u00e9\\n\\"", "i": -12, "f": 1.5e2, "z": 0, "t": true, "n": null}')
    assert doc.data == {"ab": 'é\n"', "i": -12, "f": 150.0, "z": 0, "t": True, "n": None}
    assert type(doc.data["f"]) is float and type(doc.data["i"]) is int


# -- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "col", "fragment"),
    [
        ('{\n  "a": 1,\n  "b" 2\n}', 3, 7, "expected ':'"),
        ('{\n  "a": 1\n  "b": 2\n}', 3, 3, "expected ',' or '}'"),
        ('{"a": [1, 2}', 1, 12, "expected ',' or ']'"),
        ('{\n  "a": "x\n"}', 2, 8, "unterminated string"),
        ('{"a": "\\q"}', 1, 8, "invalid escape"),
        ('{"a": 01}', 1, 7, "invalid number"),
        ('{"a": tru}', 1, 7, "expected a value"),
        ('{"a": 1}\n{"b": 2}', 2, 1, "after the top-level object"),
        ("{\n  /* open", 2, 3, "unterminated /* comment"),
        ('{"a": {\n', 2, 1, "the object opened at 1:7 is not closed"),
        ('{"a": NaN}', 1, 7, "NaN is not valid JSON"),
        ('{"a": -Infinity}', 1, 7, "-Infinity is not valid JSON"),
        ('{"a": Infinity}', 1, 7, "Infinity is not valid JSON"),
        ("[1, 2]", 1, 1, "expected a JSON object at the top level"),
        ('  "just a string"', 1, 3, "expected a JSON object at the top level"),
    ],
)
def test_malformed_json_reports_line_and_column(text, line, col, fragment):
    error = errors_of(text)
    assert (error.line, error.col) == (line, col)
    assert fragment in error.msg
    assert str(error) == f"settings.json:{line}:{col}: {error.msg}"
    assert "\n" not in str(error)


def test_malformed_jsonc_reports_line_and_column():
    text = '{\n  // a comment\n  "a": 1, /* another */\n  "b": [1,,2],\n}'
    error = errors_of(text)
    assert (error.line, error.col) == (4, 11)


def test_duplicate_key_names_the_key_and_both_places():
    error = errors_of('{\n  "mcpServers": {},\n  "model": "x",\n  "mcpServers": {}\n}')
    assert (error.line, error.col) == (4, 3)
    assert '"mcpServers"' in error.msg and "first at 2:3" in error.msg


def test_duplicate_keys_in_different_objects_are_fine():
    assert JsonDoc.parse('{"a": {"x": 1}, "b": {"x": 2}}').data == {"a": {"x": 1}, "b": {"x": 2}}


def test_byte_order_mark_is_an_error():
    error = errors_of('\ufeff{"a": 1}')
    assert (error.line, error.col) == (1, 1)
    assert "starts with a byte-order mark" in error.msg


@pytest.mark.parametrize("text", ["", "   ", "\n\n", "\r\n\t "])
def test_empty_file_is_an_error(text):
    error = errors_of(text)
    assert error.msg == "empty file" and error.line == 1


def test_deep_nesting_is_an_error_not_a_recursion_error():
    ok = '{"a": ' + "[" * 199 + "]" * 199 + "}"  # 200 levels
    assert JsonDoc.parse(ok).data["a"] is not None
    error = errors_of('{"a": ' + "[" * 200 + "]" * 200 + "}")
    assert "deeper than 200 levels" in error.msg
    assert (error.line, error.col) == (1, 6 + 200)
    error = errors_of('{"a":' * 100_000 + "1" + "}" * 100_000)
    assert "deeper than 200 levels" in error.msg


@pytest.mark.parametrize(
    ("text", "col"),
    [('{"a": 1 // c\n}', 9), ('{"a": 1 /* c */}', 9), ('{"a": 1,}', 8), ('{"a": [1,]}', 9)],
)
def test_strict_mode_rejects_comments_and_trailing_commas(text, col):
    assert JsonDoc.parse(text).data["a"] in (1, [1])  # fine as JSONC
    error = errors_of(text, jsonc=False)
    assert (error.line, error.col) == (1, col)


def test_strict_mode_accepts_plain_json_and_edits_it():
    doc = JsonDoc.parse('{\n  "a": 1\n}\n', jsonc=False)
    doc.set(("b",), [1, 2])
    assert json.loads(doc.text()) == {"a": 1, "b": [1, 2]}


# -- editing: what survives ----------------------------------------------------------------------


def test_comments_and_trailing_commas_survive_an_update_of_another_key():
    doc = JsonDoc.parse(CLAUDE_SETTINGS)
    doc.set(("model",), "opus")
    assert doc.text() == CLAUDE_SETTINGS.replace('"sonnet"', '"opus"')
    doc.set(("permissions", "deny"), ["Bash(rm -rf /)"])
    assert "// permissions are reviewed by the security team" in doc.text()
    assert "/* keep this list short */" in doc.text()
    assert "// pinned on purpose" in doc.text()
    assert doc.text().count(",\n}") == 1 and '"deny": ["Bash(rm -rf /)"],\n  },' in doc.text()
    assert JsonDoc.parse(doc.text()).data["permissions"]["deny"] == ["Bash(rm -rf /)"]


def test_setting_the_current_value_changes_nothing():
    doc = JsonDoc.parse(CLAUDE_SETTINGS)
    for keypath, value in [(("model",), "sonnet"), (("env",), {"FOO": "1"}), (("permissions", "deny"), [])]:
        doc.set(keypath, value)
        assert doc.text() == CLAUDE_SETTINGS


def test_set_tells_true_from_one():
    doc = JsonDoc.parse('{"a": 1}')
    doc.set(("a",), True)
    assert doc.text() == '{"a": true}'


def test_insertion_at_end_keeps_trailing_comma_style():
    doc = JsonDoc.parse(CLAUDE_SETTINGS)
    doc.set(("hooks",), {})
    assert doc.text().endswith('  "env": {"FOO": "1"},\n  "hooks": {},\n}\n')


def test_insertion_adds_the_comma_right_after_the_last_value_not_after_its_comment():
    doc = JsonDoc.parse('{\n  "a": 1 // note\n}\n')
    doc.set(("b",), 2)
    assert doc.text() == '{\n  "a": 1, // note\n  "b": 2\n}\n'


@pytest.mark.parametrize("unit", ["  ", "    ", "\t"])
def test_insertion_uses_the_files_indentation(unit):
    original = "{\n" + unit + '"a": {\n' + unit * 2 + '"b": 1\n' + unit + "}\n}\n"
    doc = JsonDoc.parse(original)
    doc.set(("a", "c"), {"d": [1]})
    expected_tail = (
        unit * 2 + '"b": 1,\n' + unit * 2 + '"c": {\n' + unit * 3 + '"d": [\n' + unit * 4 + "1\n"
        + unit * 3 + "]\n" + unit * 2 + "}\n" + unit + "}\n}\n"
    )
    assert doc.text().endswith(expected_tail), doc.text()
    doc.set(("z",), 1)
    assert doc.text().endswith(unit + "},\n" + unit + '"z": 1\n}\n')


def test_insertion_into_a_one_line_object_stays_on_one_line():
    doc = JsonDoc.parse('{\n  "env": {"A": "1"}\n}\n')
    doc.set(("env", "B"), "2")
    assert doc.text() == '{\n  "env": {"A": "1", "B": "2"}\n}\n'


def test_insertion_into_empty_objects():
    doc = JsonDoc.parse("{}\n")
    doc.set(("mcpServers", "github"), {"command": "npx"})
    assert doc.text() == '{\n  "mcpServers": {\n    "github": {\n      "command": "npx"\n    }\n  }\n}\n'
    doc = JsonDoc.parse('{\n  "mcpServers": {}\n}\n')
    doc.set(("mcpServers", "x"), 1)
    assert doc.text() == '{\n  "mcpServers": {\n    "x": 1\n  }\n}\n'


def test_nested_set_creates_intermediate_objects():
    doc = JsonDoc.parse('{\n  "a": {}\n}')
    doc.set(("a", "b", "c", "d"), True)
    assert doc.data == {"a": {"b": {"c": {"d": True}}}}
    assert doc.get(("a", "b", "c", "d")) is True
    with pytest.raises(FormatError) as info:
        JsonDoc.parse('{\n  "a": 5\n}').set(("a", "b"), 1)
    assert info.value.line == 2 and "not an object" in info.value.msg


def test_set_of_an_object_merges_so_inner_comments_survive():
    text = '{\n  "s": {\n    // why x\n    "x": 1,\n    "y": 2\n  }\n}\n'
    doc = JsonDoc.parse(text)
    doc.set(("s",), {"x": 1, "z": 3})
    assert doc.text() == '{\n  "s": {\n    // why x\n    "x": 1,\n    "z": 3\n  }\n}\n'


def test_replacing_a_one_line_array_keeps_it_on_one_line():
    doc = JsonDoc.parse('{\n  "args": ["-y", "pkg"]\n}\n')
    doc.set(("args",), ["-y", "pkg@2"])
    assert doc.text() == '{\n  "args": ["-y", "pkg@2"]\n}\n'


def test_delete_removes_member_and_comma_cleanly():
    doc = JsonDoc.parse('{\n  "a": 1,\n  "b": 2,\n  "c": 3\n}\n')
    doc.delete(("b",))
    assert doc.text() == '{\n  "a": 1,\n  "c": 3\n}\n'
    doc.delete(("c",))
    assert doc.text() == '{\n  "a": 1\n}\n'
    doc.delete(("a",))
    assert doc.text() == "{}\n"
    doc.delete(("a",))  # absent: no-op
    doc.delete(("x", "y"))
    assert doc.text() == "{}\n"


def test_delete_one_line_object_members():
    doc = JsonDoc.parse('{"a": 1, "b": 2, "c": 3}')
    doc.delete(("b",))
    assert doc.text() == '{"a": 1, "c": 3}'
    doc.delete(("c",))
    assert doc.text() == '{"a": 1}'


def test_delete_leaves_an_empty_parent_and_keeps_comments():
    doc = JsonDoc.parse('{\n  "s": {\n    "x": 1 // mine\n  },\n  "t": 1\n}\n')
    doc.delete(("s", "x"))
    assert doc.data == {"s": {}, "t": 1}
    assert "// mine" in doc.text()


def test_delete_keeps_a_line_comment_from_swallowing_the_brace():
    doc = JsonDoc.parse('{\n  "a": 1, // note\n  "b": 2}')
    doc.delete(("b",))
    assert doc.text() == '{\n  "a": 1 // note\n}'
    assert JsonDoc.parse(doc.text()).data == {"a": 1}


SET_DELETE_CASES = [
    "{}",
    "{}\n",
    "{ }",
    '{"a": 1}',
    '{"a": 1,}',
    '{ "a": 1 }',
    '{\n  "a": 1\n}\n',
    '{\n  "a": 1}',
    '{\n  "a": 1 }',
    '{\n  "a": 1   \n}\n',
    '{\n  "a": 1, // c\n}\n',
    '{\n  "a": 1 /* multi\n  line */\n}\n',
    '{\n  "a": 1\n  // "b": "commented out example"\n}\n',
    "{ // only a comment\n}\n",
    '{\n\t"a": {\n\t\t"x": 1\n\t}\n}',
    '{\r\n  "a": 1 // note\r\n}\r\n',
    '{\n    "a": 1 ,\n    "b": 2\n}',
    CLAUDE_SETTINGS,
]


@pytest.mark.parametrize("original", SET_DELETE_CASES)
@pytest.mark.parametrize("value", [1, "x", {"command": "npx", "args": ["-y"]}, [], {}])
def test_set_then_delete_of_a_new_key_restores_the_bytes(original, value):
    doc = JsonDoc.parse(original)
    doc.set(("agentdeck",), value)
    assert doc.get(("agentdeck",)) == value
    reread = JsonDoc.parse(doc.text())  # uninstall runs on a fresh read: nothing is remembered
    reread.delete(("agentdeck",))
    assert reread.text() == original


def test_set_then_delete_in_a_nested_object_restores_the_bytes():
    doc = JsonDoc.parse(CLAUDE_SETTINGS)
    doc.set(("permissions", "ask"), ["Bash(curl *)"])
    doc.set(("env", "AGENTDECK"), "1")
    doc.delete(("permissions", "ask"))
    doc.delete(("env", "AGENTDECK"))
    assert doc.text() == CLAUDE_SETTINGS


def test_crlf_is_preserved():
    original = '{\r\n    "a": 1\r\n}\r\n'
    doc = JsonDoc.parse(original)
    doc.set(("b",), {"c": [1, 2]})
    assert "\n" not in doc.text().replace("\r\n", "")
    assert doc.text() == '{\r\n    "a": 1,\r\n    "b": {\r\n        "c": [\r\n            1,\r\n            2\r\n        ]\r\n    }\r\n}\r\n'
    doc.delete(("b",))
    assert doc.text() == original


def test_new_document():
    doc = JsonDoc.new({"mcpServers": {"x": {"command": "npx"}}})
    assert doc.text() == '{\n  "mcpServers": {\n    "x": {\n      "command": "npx"\n    }\n  }\n}\n'
    assert JsonDoc.new({}, indent=4).text() == "{}\n"
    doc = JsonDoc.new({})
    doc.set(("a",), 1)
    assert doc.text() == '{\n  "a": 1\n}\n'


def test_values_json_cannot_hold_are_refused():
    doc = JsonDoc.parse("{}")
    with pytest.raises(ValueError):
        doc.set(("a",), float("nan"))
    with pytest.raises(TypeError):
        doc.set(("a",), object())
    with pytest.raises(TypeError):
        doc.set("a", 1)  # a str is not a keypath
    assert doc.text() == "{}"


HOOKS = """\
{
  "hooks": {
    "Stop": [
      {"hooks": [{"type": "command", "command": "notify-send done"}]}
    ]
  },
  "permissions": {"allow": ["Read", "Edit"]}
}
"""


def test_adding_then_removing_our_item_in_a_shared_array_restores_the_bytes():
    doc = JsonDoc.parse(HOOKS)
    theirs = doc.get(("hooks", "Stop"))
    ours = {"hooks": [{"type": "command", "command": "~/.claude/agentdeck-hook.sh Stop"}]}
    doc.set(("hooks", "Stop"), theirs + [ours])
    assert '      {"hooks": [{"type": "command", "command": "notify-send done"}]},\n      {\n' in doc.text()
    doc = JsonDoc.parse(doc.text())
    doc.set(("hooks", "Stop"), theirs)
    assert doc.text() == HOOKS
    doc.set(("permissions", "allow"), ["Read", "Bash(ls)", "Edit"])
    assert '"allow": ["Read", "Bash(ls)", "Edit"]' in doc.text()
    doc.set(("permissions", "allow"), ["Read", "Edit"])
    assert doc.text() == HOOKS


def test_the_operator_adds_after_our_item_and_we_remove_ours():
    original = '{\n  "a": [\n    1, // one\n    2\n  ]\n}\n'
    doc = JsonDoc.parse(original)
    doc.set(("a",), [1, 2, "ours"])
    doc.set(("a",), [1, 2, "ours", 3])
    doc.set(("a",), [1, 2, 3])
    assert doc.text() == '{\n  "a": [\n    1, // one\n    2,\n    3\n  ]\n}\n'


def test_changing_one_array_item_edits_inside_it():
    doc = JsonDoc.parse('{"a": [\n  {"x": 1, /* keep */ "y": 2},\n  {"z": 3}\n]}')
    doc.set(("a",), [{"x": 1, "y": 5}, {"z": 3}])
    assert doc.text() == '{"a": [\n  {"x": 1, /* keep */ "y": 5},\n  {"z": 3}\n]}'


# -- properties ----------------------------------------------------------------------------------

KEYS = st.sampled_from(["a", "b", "c", "mcpServers", "x y", "é", 'q"t', "k\\"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), st.text(max_size=8))
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3)),
    max_leaves=6,
)
OBJECTS = st.dictionaries(KEYS, VALUES, max_size=5)


class Renderer:
    """Renders a dict as JSONC with drawn layout, comments and trailing commas; records comments."""

    def __init__(self, draw, unit: str, nl: str) -> None:
        self.draw, self.unit, self.nl = draw, unit, nl
        self.comments: list[tuple[str, tuple[str, ...]]] = []  # (text, path of the object holding it)

    def comment(self, path: tuple[str, ...], line_ok: bool) -> str:
        kinds = ["", "", "block"] + (["line"] if line_ok else [])
        kind = self.draw(st.sampled_from(kinds))
        if not kind:
            return ""
        tag = f"<c{len(self.comments)}>"
        self.comments.append((tag, path))
        return f" /* {tag} */" if kind == "block" else f" // {tag}"

    def value(self, value, depth: int, path: tuple[str, ...], inline: bool) -> str:
        if isinstance(value, dict):
            return self.object(value, depth, path, inline or self.draw(st.booleans()))
        if isinstance(value, list):
            return self.array(value, depth, path, inline or not value or self.draw(st.booleans()))
        return json.dumps(value, ensure_ascii=self.draw(st.booleans()))

    def array(self, items: list, depth: int, path: tuple[str, ...], inline: bool) -> str:
        trailing = bool(items) and self.draw(st.booleans())
        if inline:
            parts = [self.value(v, depth + 1, path, True) + self.comment(path, False) for v in items]
            return "[" + ", ".join(parts) + ("," if trailing else "") + "]"
        out = "[" + self.comment(path, True)
        for i, v in enumerate(items):
            comma = "," if i < len(items) - 1 or trailing else ""
            out += self.nl + self.unit * (depth + 1) + self.value(v, depth + 1, path, True) + comma + self.comment(path, True)
        return out + self.nl + self.unit * depth + "]"

    def object(self, obj: dict, depth: int, path: tuple[str, ...], inline: bool) -> str:
        trailing = bool(obj) and self.draw(st.booleans())
        if inline:
            parts = [f"{json.dumps(k)}: {self.value(v, depth + 1, path + (k,), True)}{self.comment(path, False)}"
                     for k, v in obj.items()]
            return "{" + ", ".join(parts) + ("," if trailing else "") + "}"
        if not obj:  # "{}" or "{ // comment<newline>}" ("{<newline>}" comes back as "{}": documented)
            inner = self.comment(path, True)
            return "{" + inner + self.nl + self.unit * depth + "}" if inner else "{}"
        out = "{" + self.comment(path, True)
        for i, (k, v) in enumerate(obj.items()):
            if self.draw(st.booleans()):
                own_line = self.comment(path, True)
                if own_line:
                    out += self.nl + self.unit * (depth + 1) + own_line.strip()
            comma = "," if i < len(obj) - 1 or trailing else ""
            out += self.nl + self.unit * (depth + 1) + f"{json.dumps(k)}: {self.value(v, depth + 1, path + (k,), False)}"
            out += comma + self.comment(path, True)
        return out + self.nl + self.unit * depth + "}"


@st.composite
def documents(draw):
    data = draw(OBJECTS)
    renderer = Renderer(draw, draw(st.sampled_from(["  ", "    ", "\t"])), draw(st.sampled_from(["\n", "\r\n"])))
    text = renderer.object(data, 0, (), inline=False) + draw(st.sampled_from(["", renderer.nl]))
    return data, text, renderer


def object_paths(data: dict, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    paths = [path]
    for k, v in data.items():
        if isinstance(v, dict):
            paths.extend(object_paths(v, path + (k,)))
    return paths


def apply_to_model(data: dict, op: str, keypath: tuple[str, ...], value=None) -> None:
    node = data
    for key in keypath[:-1]:
        if key not in node:
            if op == "delete":
                return
            node[key] = {}
        node = node[key]
    if op == "set":
        node[keypath[-1]] = value
    else:
        node.pop(keypath[-1], None)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.data())
def test_property_random_edits_keep_comments_and_unedited_values(document, data):
    expected, text, renderer = document
    doc = JsonDoc.parse(text)
    assert doc.data == expected
    touched: list[tuple[str, ...]] = []
    for _ in range(data.draw(st.integers(1, 6))):
        parent = data.draw(st.sampled_from(object_paths(expected)))
        keypath = parent + tuple(data.draw(st.lists(KEYS, min_size=1, max_size=3)))
        node = expected
        for i, key in enumerate(keypath[:-1]):  # never try to go through a non-object
            if key not in node:
                break
            if not isinstance(node[key], dict):
                keypath = keypath[: i + 1]
                break
            node = node[key]
        if data.draw(st.booleans()):
            value = data.draw(VALUES)
            doc.set(keypath, value)
            apply_to_model(expected, "set", keypath, value)
        else:
            doc.delete(keypath)
            apply_to_model(expected, "delete", keypath)
        touched.append(keypath)
        assert doc.data == expected
    assert JsonDoc.parse(doc.text()).data == expected
    for tag, path in renderer.comments:
        if not any(path[: len(t)] == t for t in touched):
            assert doc.text().count(tag) == 1, (tag, doc.text())
    if "\r\n" in text:  # a CRLF file stays CRLF
        assert "\n" not in doc.text().replace("\r\n", "")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.data())
def test_property_set_then_delete_of_a_new_key_restores_the_bytes(document, data):
    expected, text, _ = document
    parent = data.draw(st.sampled_from(object_paths(expected)))
    node = expected
    for key in parent:
        node = node[key]
    key = data.draw(st.text(min_size=1, max_size=6).filter(lambda k: k not in node))
    doc = JsonDoc.parse(text)
    doc.set(parent + (key,), data.draw(VALUES))
    reread = JsonDoc.parse(doc.text())
    reread.delete(parent + (key,))
    assert reread.text() == text


def array_paths(data: dict, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for k, v in data.items():
        if isinstance(v, list):
            found.append(path + (k,))
        elif isinstance(v, dict):
            found.extend(array_paths(v, path + (k,)))
    return found


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.data())
def test_property_adding_then_removing_an_array_item_restores_the_bytes(document, data):
    expected, text, _ = document
    arrays = array_paths(expected)
    if not arrays:  # give the document an empty one
        doc = JsonDoc.parse(text)
        doc.set(("list",), [])
        text, arrays = doc.text(), [("list",)]
    keypath = data.draw(st.sampled_from(arrays))
    doc = JsonDoc.parse(text)
    old = doc.get(keypath)
    index = data.draw(st.integers(0, len(old)))
    new = old[:index] + [data.draw(VALUES)] + old[index:]
    doc.set(keypath, new)
    assert doc.get(keypath) == new
    reread = JsonDoc.parse(doc.text())
    reread.set(keypath, old)
    assert reread.text() == text
