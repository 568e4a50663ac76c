"""Property-based: the JSONC and TOML round trips, and the three-state key rule --
random operator edits are never lost, through re-applies with a changed profile and through an
uninstall.

The round trips drive core.formats directly; the three-state property drives the real planner and
applier (agentdeck.core.plan.compute, core.apply.run) on a synthetic target in a throwaway home."""
from __future__ import annotations

import json
import shutil
import tempfile
import tomllib
from pathlib import Path

import pytest
import tomlkit
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from agentdeck.core import apply as applier
from agentdeck.core import plan as planner
from agentdeck.core.desired import Desired, DesiredState
from agentdeck.core.formats.blocks import get_block, remove_block, set_block
from agentdeck.core.formats.jsonc import MISSING, JsonDoc
from agentdeck.core.formats.tomldoc import TomlDoc
from agentdeck.core.manifest import Manifest
from tests.safety.safety_helpers import make_host

SETTINGS = settings(max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ---- values --------------------------------------------------------------------------------------
KEYS = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1,
               max_size=8)
SCALARS = (st.none() | st.booleans() | st.integers(-10**12, 10**12)
           | st.floats(allow_nan=False, allow_infinity=False, width=32)
           | st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12))
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(KEYS, inner, max_size=4), max_leaves=12)
JSON_DOCS = st.dictionaries(KEYS, JSON_VALUES, max_size=6)


# ---- a JSONC writer with random layout: indents, comments, trailing commas --------------------------
@st.composite
def jsonc_texts(draw, nested_comments=True):
    """(value, text): a value written as JSONC with a random indent and line ends, random // and
    /* */ comments after members and elements (only the top level's when not nested_comments),
    and random trailing commas."""
    value = draw(JSON_DOCS)
    indent = draw(st.sampled_from(["  ", "    ", "\t", None]))
    nl = draw(st.sampled_from(["\n", "\r\n"]))

    def comment() -> str:
        kind = draw(st.sampled_from(["", "", "line", "block"]))
        if kind == "line" and indent is not None:
            return " // " + draw(st.text(alphabet="abc xyz*/", max_size=8)).replace("\n", "")
        if kind == "block":
            return " /* " + draw(st.text(alphabet="abc xyz/", max_size=8)) + " */"
        return ""

    def dump(v, depth: int) -> str:
        if isinstance(v, dict):
            items = [json.dumps(k, ensure_ascii=draw(st.booleans())) + ": " + dump(x, depth + 1)
                     for k, x in v.items()]
            return wrap("{", "}", items, depth)
        if isinstance(v, list):
            return wrap("[", "]", [dump(x, depth + 1) for x in v], depth)
        return json.dumps(v, ensure_ascii=False)

    def wrap(o: str, c: str, items: list[str], depth: int) -> str:
        if not items:
            return o + c
        trailing = "," if draw(st.booleans()) else ""
        if indent is None:
            return o + ", ".join(items) + trailing + c
        pad, inner = indent * depth, indent * (depth + 1)
        lines = [inner + it + ("," if i < len(items) - 1 else trailing)
                 + (comment() if nested_comments or depth == 0 else "")
                 for i, it in enumerate(items)]
        return o + nl + nl.join(lines) + nl + pad + c

    head = draw(st.sampled_from(["", "// my settings" + nl, "/* header */ "]))
    return value, head + dump(value, 0) + nl


@SETTINGS
@given(jsonc_texts())
def test_jsonc_parse_round_trip(doc):
    value, text = doc
    parsed = JsonDoc.parse(text)
    assert parsed.data == value
    assert parsed.text() == text


@SETTINGS
@given(jsonc_texts(), KEYS, JSON_VALUES)
def test_jsonc_set_then_delete_of_a_new_key_gives_back_the_bytes(doc, key, new):
    value, text = doc
    assume(key not in value)
    d = JsonDoc.parse(text)
    d.set((key,), new)
    assert d.get((key,)) == new
    for k, v in value.items():        # nothing else changed
        assert d.get((k,)) == v
    again = JsonDoc.parse(d.text())   # what was written reads back
    again.delete((key,))
    assert again.text() == text


@SETTINGS
@given(jsonc_texts(nested_comments=False), st.data())
def test_jsonc_changing_one_key_keeps_every_other_value_and_comment(doc, data):
    value, text = doc
    assume(value)
    key = data.draw(st.sampled_from(sorted(value)))
    new = data.draw(JSON_VALUES)
    d = JsonDoc.parse(text)
    d.set((key,), new)
    out = JsonDoc.parse(d.text())
    assert out.data == {**value, key: new}
    for c in _comments(text):      # the comments all sit outside the values
        assert d.text().count(c) >= text.count(c), f"comment {c!r} lost"


def _comments(text: str) -> list[str]:
    import re
    return re.findall(r"/\*.*?\*/|// [^\r\n]*", text)


# ---- TOML ------------------------------------------------------------------------------------------
BARE = st.from_regex(r"[a-z][a-z0-9_-]{0,6}", fullmatch=True)
TOML_SCALARS = (st.booleans() | st.integers(-10**9, 10**9)
                | st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
                          max_size=10))
TOML_VALUES = TOML_SCALARS | st.lists(TOML_SCALARS, max_size=3)
TOML_TABLES = st.dictionaries(BARE, TOML_VALUES, min_size=1, max_size=4)   # empty: see below
TOML_DOCS = st.tuples(st.dictionaries(BARE, TOML_VALUES, max_size=4),
                      st.dictionaries(BARE, TOML_TABLES, max_size=3))


@st.composite
def toml_texts(draw):
    """(value, text): tomlkit-written TOML with a comment on some keys and tables."""
    top, tables = draw(TOML_DOCS)
    tables = {k: v for k, v in tables.items() if k not in top}
    doc = tomlkit.document()
    doc.add(tomlkit.comment("written by hand"))
    for k, v in top.items():
        doc.add(k, v)
        if draw(st.booleans()):
            doc.item(k).comment("mine")
    for name, body in tables.items():
        t = tomlkit.table()
        for k, v in body.items():
            t.add(k, v)
        if draw(st.booleans()):
            t.comment("a table of mine")
        doc.add(name, t)
    text = tomlkit.dumps(doc)
    return tomllib.loads(text), text


@SETTINGS
@given(toml_texts())
def test_toml_parse_round_trip(doc):
    value, text = doc
    parsed = TomlDoc.parse(text)
    assert parsed.data == value
    assert parsed.text() == text


@SETTINGS
@given(toml_texts(), st.data())
def test_toml_set_then_delete_of_a_new_key_gives_back_the_bytes(doc, data):
    value, text = doc
    tables = [k for k, v in value.items() if isinstance(v, dict)]
    where = data.draw(st.sampled_from([()] + [(t,) for t in tables]))
    key = data.draw(BARE)
    container = value if not where else value[where[0]]
    assume(key not in container)
    new = data.draw(TOML_VALUES | TOML_TABLES)
    d = TomlDoc.parse(text)
    d.set(where + (key,), new)
    assert d.get(where + (key,)) == new
    assert tomllib.loads(d.text()) == d.data
    again = TomlDoc.parse(d.text())
    again.delete(where + (key,))
    assert again.text() == text


def test_toml_empty_operator_table_survives_a_key_added_and_removed():
    """The key kind says the table was there (keep_table: not in the entry's made_keys); the
    plan-level case is test_codex_permissions' empty filesystem table."""
    text = '# mine\nmodel = "o3"\n\n[features]\n'
    d = TomlDoc.parse(text)
    d.set(("features", "web_search"), True)
    again = TomlDoc.parse(d.text())
    again.delete(("features", "web_search"), keep_table=True)
    assert again.text() == text


@SETTINGS
@given(toml_texts(), st.data())
def test_toml_changing_one_key_keeps_every_other_value_and_comment(doc, data):
    value, text = doc
    plain = [k for k, v in value.items() if not isinstance(v, dict)]
    assume(plain)
    key = data.draw(st.sampled_from(plain))
    new = data.draw(TOML_VALUES)
    d = TomlDoc.parse(text)
    d.set((key,), new)
    assert tomllib.loads(d.text()) == {**value, key: new}
    for c in ("# written by hand", "# a table of mine"):
        assert d.text().count(c) == text.count(c)


# ---- the three-state rule: random operator edits are never lost -------------------------------------
T = "prop"
NAMES = [f"k{i}" for i in range(6)]
VAL = st.one_of(st.integers(0, 3), st.sampled_from(["a", "b", True, False, None]),
                st.lists(st.integers(0, 2), max_size=2))
OPERATOR_START = st.dictionaries(st.sampled_from(NAMES), VAL, max_size=4)
PROFILE = st.dictionaries(st.sampled_from(NAMES), VAL, max_size=5)
EDITS = st.dictionaries(st.sampled_from(NAMES), st.one_of(st.just("delete"), VAL.map(lambda v: ("set", v))),
                        max_size=4)


def eq(a, b) -> bool:
    """Equal as JSON (1 and true differ, as they do on disk and in the planner)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


class Home:
    def __init__(self):
        base = Path("/dev/shm") if Path("/dev/shm").is_dir() else None
        self.root = Path(tempfile.mkdtemp(prefix="agentdeck-prop-", dir=base))
        (self.root / "home").mkdir()
        self.host = make_host(self.root / "home")
        self.file = self.host.home / "settings.json"

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def manifest(self) -> Manifest:
        return Manifest.load(self.host, T, self.host.home / ".prop-managed.json")

    def apply(self, profile: dict) -> None:
        st_ = DesiredState(T)
        st_.items = [Desired(T, self.file, "key", v, key=(k,), fmt="jsonc", label=k)
                     for k, v in sorted(profile.items())]
        plan = planner.compute(self.host, "p", [st_], {T: self.manifest()})
        for it in plan.undecided_conflicts():     # the operator keeps theirs
            plan.decide(it.id, "keep")
        applier.run(self.host, plan)

    def read(self) -> dict:
        if not self.file.exists():
            return {}
        return JsonDoc.parse(self.file.read_text()).data

    def write(self, data: dict) -> None:
        self.file.write_text("{\n  // the operator's own file\n" + json.dumps(data, indent=2)[1:] + "\n")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPERATOR_START, PROFILE, EDITS, PROFILE)
def test_three_state_rule_never_loses_an_operator_edit(start, profile1, edits, profile2):
    """An operator's settings file; apply profile 1; the operator edits keys by hand (changes,
    deletes, adds, agentdeck's keys and their own); apply profile 2 (conflicts: the operator
    keeps theirs); uninstall. Then:

    - after apply 1, every key of the operator's that agentdeck did not write is unchanged;
    - after apply 2, every hand edit of a key agentdeck wrote (value or deletion) is exactly as
      the operator left it, and every value the operator set by hand on a key of their own is
      unchanged, whatever profile 2 wants;
    - after the uninstall, the same edits are still there -- except an edit that happened to
      equal what profile 2 wants for a key agentdeck created: that value is indistinguishable
      from agentdeck's and is adopted (the rule's "actual == desired: heal the record"), so the
      uninstall takes it away with agentdeck's key;
    - and agentdeck's manifest is empty.
    """
    h = Home()
    try:
        if start:
            h.write(start)
        h.apply(profile1)
        after1 = h.read()
        ours1 = {k for k in profile1 if k not in start or eq(start[k], profile1[k])}
        for k, v in start.items():
            if k not in ours1:
                assert eq(after1[k], v), f"apply 1 changed the operator's {k}"
        # the operator edits the file by hand
        edited = dict(after1)
        for k, e in edits.items():
            if e == "delete":
                edited.pop(k, None)
            else:
                edited[k] = e[1]
        touched = {k for k in edits if (k in after1) != (k in edited) or not eq(after1.get(k), edited.get(k))}
        set_by_hand = {k for k in touched if k in edited}
        h.write(edited)

        def same(a: dict, b: dict, k: str) -> bool:
            return (k in a) == (k in b) and eq(a.get(k), b.get(k))

        h.apply(profile2)
        after2 = h.read()
        for k in touched & ours1:
            assert same(after2, edited, k), (f"the operator's edit of {k} was lost: "
                                             f"{edited.get(k, 'deleted')!r} -> {after2.get(k, 'deleted')!r}")
        for k in set_by_hand - ours1:
            assert eq(after2.get(k), edited[k]), f"the operator's own {k} was changed"

        h.apply({})
        final = h.read()
        adopted = {k for k in ours1 if k in profile2 and k in edited and eq(edited[k], profile2[k])
                   and (k not in start or not eq(start[k], edited[k]))}
        for k in (touched & ours1) - adopted:
            assert same(final, edited, k), f"uninstall lost the operator's edit of {k}"
        for k in set_by_hand - ours1:
            assert eq(final.get(k), edited[k]), f"uninstall changed the operator's own {k}"
        assert h.manifest().entries == {}
    finally:
        h.close()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="ab \n#-", max_size=60), st.text(alphabet="xy \n", max_size=30),
       st.text(alphabet="cd \n", max_size=30), st.sampled_from(["top", "bottom"]))
def test_managed_block_operator_text_is_never_lost(theirs, body1, body2, placement):
    """A managed block in the operator's text file: their text outside the markers is kept
    through re-applies, and removing the block gives their text back byte for byte."""
    b, e = "<!-- agentdeck:begin -->", "<!-- agentdeck:end -->"
    assume(b not in theirs and e not in theirs)
    once = set_block(theirs, b, e, body1, placement=placement)
    twice = set_block(once, b, e, body2, placement=placement)
    assert get_block(twice, b, e) == (body2.rstrip("\n") + "\n" if body2.strip("\n") else "")
    assert remove_block(twice, b, e) == theirs
    assert remove_block(once, b, e) == theirs
