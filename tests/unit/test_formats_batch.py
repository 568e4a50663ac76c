"""Edits to one document are batched (``with doc.batch():``) and give exactly the
bytes the same edits made one by one give -- for random JSONC and TOML texts and random runs of
new keys, new tables and removals, the shapes an apply and an uninstall of many MCP servers
make. Also: the plain TOML renderer that spares tomlkit's item building renders as tomlkit does."""
from __future__ import annotations

import contextlib
import tomllib

import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentdeck.core.formats import tomldoc
from agentdeck.core.formats.jsonc import JsonDoc
from agentdeck.core.formats.tomldoc import TomlDoc, _item, _plain_fragment
from tests.safety.test_properties import (BARE, JSON_VALUES, KEYS, TOML_SCALARS, jsonc_texts,
                                          toml_texts)

SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

SERVER = st.dictionaries(BARE, TOML_SCALARS | st.lists(TOML_SCALARS, max_size=3)
                         | st.dictionaries(BARE, TOML_SCALARS, max_size=2), min_size=1, max_size=4)


def _one_by_one(make, ops):
    doc = make()
    for keypath, value in ops:
        if value is None:
            doc.delete(keypath)
        else:
            doc.set(keypath, value)
    return doc.text()


def _batched(make, ops):
    doc = make()
    with doc.batch():
        for keypath, value in ops:
            if value is None:
                doc.delete(keypath)
            else:
                doc.set(keypath, value)
            # reads inside a batch see the edits at once
            assert doc.get(keypath, None) == value
    return doc.text()


@st.composite
def json_ops(draw, value):
    """A run of edits as the applier makes them: new members of one object (existing or new),
    removals of existing members in file order, changes of a value."""
    objects = [()] + [(k,) for k, v in value.items() if isinstance(v, dict)]
    where = draw(st.sampled_from(objects + [("mcpServers",)]))
    current = value
    for k in where:
        current = current.get(k, {}) if isinstance(current, dict) else {}
    ops = []
    if current and draw(st.booleans()):
        keys = list(current)
        gone = sorted(draw(st.sets(st.sampled_from(keys))), key=keys.index)
        ops += [(where + (k,), None) for k in gone]
    new = draw(st.lists(KEYS, max_size=6, unique=True))
    ops += [(where + (k,), draw(JSON_VALUES.filter(lambda v: v is not None)))
            for k in new if k not in current]
    return ops


@SETTINGS
@given(jsonc_texts(), st.data())
def test_jsonc_batch_gives_the_bytes_of_one_edit_at_a_time(doc, data):
    value, text = doc
    ops = data.draw(json_ops(value))
    one = _one_by_one(lambda: JsonDoc.parse(text), ops)
    assert _batched(lambda: JsonDoc.parse(text), ops) == one


@SETTINGS
@given(st.lists(st.tuples(BARE, SERVER), min_size=2, max_size=8, unique_by=lambda t: t[0]),
       st.sampled_from(["{}\n", '{\n  "x": 1\n}\n', '{"x": 1, "mcpServers": {"mine": {}}}\n',
                        '{\n  // mine\n  "mcpServers": {\n    "mine": {"command": "a"},\n  },\n}\n']))
def test_jsonc_many_servers_added_then_removed_in_a_batch_give_the_bytes_back(servers, text):
    doc = JsonDoc.parse(text)
    with doc.batch():
        for name, body in servers:
            doc.set(("mcpServers", "s-" + name), body)
    assert JsonDoc.parse(doc.text()).get(("mcpServers", "s-" + servers[-1][0])) == servers[-1][1]
    written = doc.text()
    assert written == _one_by_one(lambda: JsonDoc.parse(text),
                                  [(("mcpServers", "s-" + n), b) for n, b in servers])
    again = JsonDoc.parse(written)
    with again.batch():
        for name, _ in servers:
            again.delete(("mcpServers", "s-" + name))
    if "mcpServers" not in JsonDoc.parse(text).data:
        again.delete(("mcpServers",))
    assert again.text() == text


@SETTINGS
@given(toml_texts(), st.lists(st.tuples(BARE, SERVER), min_size=1, max_size=8,
                              unique_by=lambda t: t[0]))
def test_toml_batch_of_new_tables_then_their_removal_gives_the_bytes_of_one_at_a_time(doc, servers):
    value, text = doc
    ops = [(("mcp_servers", n), b) for n, b in servers]
    one = _one_by_one(lambda: TomlDoc.parse(text), ops)
    batched = _batched(lambda: TomlDoc.parse(text), ops)
    assert batched == one
    assert tomllib.loads(batched)["mcp_servers"] == {n: b for n, b in servers}
    removal = [(keypath, None) for keypath, _ in ops]
    assert _batched(lambda: TomlDoc.parse(batched), removal) == text
    assert _one_by_one(lambda: TomlDoc.parse(batched), removal) == text


def test_toml_removal_of_tables_not_at_the_end_keeps_the_operators_table_after_them():
    text = 'model = "o3"\n\n[mcp_servers.a]\ncommand = "x"\n\n[mcp_servers.b]\ncommand = "y"\n\n[mine]\nk = 1\n'
    ops = [(("mcp_servers", "a"), None), (("mcp_servers", "b"), None)]
    assert _batched(lambda: TomlDoc.parse(text), ops) == _one_by_one(lambda: TomlDoc.parse(text), ops)


@SETTINGS
@given(st.lists(BARE | KEYS, min_size=1, max_size=3), SERVER)
def test_the_plain_toml_fragment_is_what_tomlkit_renders(path, body):
    doc = tomlkit.document()
    parent = doc
    for key in path[:-1]:
        t = tomlkit.table(is_super_table=True)
        parent.append(key, t)
        parent = t
    parent.append(path[-1], _item(body, inline=False))
    assert _plain_fragment(tuple(path), body) == doc.as_string().lstrip("\n")


def test_a_thousand_new_tables_read_back_and_tomlkit_reads_them_too():
    doc = TomlDoc.new()
    servers = {f"srv-{i:04d}": {"command": "npx", "args": ["-y", f"m{i}"], "env": {"L": "i"}}
               for i in range(1000)}
    with doc.batch():
        for name, body in servers.items():
            doc.set(("mcp_servers", name), body)
    assert tomllib.loads(doc.text()) == {"mcp_servers": servers}
    assert tomlkit.parse(doc.text()).unwrap() == {"mcp_servers": servers}


def test_tables_removed_with_keep_table_are_one_edit_too(monkeypatch):
    """An uninstall removes each server with keep_table when the operator's own servers were
    there before (core/kinds/key.py): the run still comes out of one tomlkit tree, checked
    once, with the bytes of one removal at a time -- not a full parse per table (1,000 servers
    took minutes)."""
    text = ('model = "o3"\n\n[mcp_servers.mine]\ncommand = "a"\n'
            + "".join(f'\n[mcp_servers.s{i}]\ncommand = "x{i}"\n' for i in range(40)))
    keys = [("mcp_servers", f"s{i}") for i in range(40)]

    def removed(batched: bool) -> str:
        doc = TomlDoc.parse(text)
        with doc.batch() if batched else contextlib.nullcontext():
            for key in keys:
                doc.delete(key, keep_table=True)
        return doc.text()

    one = removed(False)
    parses: list[str] = []
    real = tomldoc.tomlkit.parse
    monkeypatch.setattr(tomldoc.tomlkit, "parse", lambda t: parses.append(t) or real(t))
    assert removed(True) == one == 'model = "o3"\n\n[mcp_servers.mine]\ncommand = "a"\n'
    assert len(parses) <= 3, f"{len(parses)} tomlkit parses for one batch"
