"""core.overlay: the operator's layer of app choices."""
from __future__ import annotations

import pytest

from agentdeck.core.targets import registry

from agentdeck.core import overlay
from agentdeck.core.errors import UserError


def test_names():
    assert overlay.overlay_name("default") == "default.local"
    assert overlay.overlay_name("default.local") == "default.local"
    assert overlay.base_of("default.local") == "default"
    assert overlay.is_overlay("work.local") and not overlay.is_overlay("work")
    assert overlay.base_of(".local") == ".local"


def test_merge_per_server_and_drop():
    a, b = registry.NAMES[:2]           # any two targets: the overlay keys servers by target
    base = {"directives": {"mcpDefaultDisabled": False},
            "mcp_enabled": {a: {"memory": False, "github": True}}}
    over = {"directives": {"browserCommand": "auto"},
            "mcp_enabled": {a: {"github": None}, b: {"memory": False}}}
    assert overlay.merge(base, over) == {
        "directives": {"mcpDefaultDisabled": False, "browserCommand": "auto"},
        "mcp_enabled": {a: {"memory": False}, b: {"memory": False}}}
    assert overlay.merge({"mcp_enabled": {a: {"x": True}}},
                         {"mcp_enabled": {a: {"x": None}}}) == {}


@pytest.mark.parametrize("data, where", [
    ([], "expected an object"),
    ({"mcp": {}}, "mcp: unknown field"),
    ({"directives": {"allowAll": True}}, "directives.allowAll: unknown directive"),
    ({"directives": {"mcpDefaultDisabled": "no"}}, "directives.mcpDefaultDisabled"),
    ({"mcp_enabled": {"vim": {}}}, "mcp_enabled.vim: unknown target"),
    ({"mcp_enabled": {"copilot": {"a/b": True}}}, "mcp_enabled.copilot.a/b"),
    ({"mcp_enabled": {"copilot": {"memory": 1}}}, "mcp_enabled.copilot.memory: expected"),
])
def test_validate_names_the_key(data, where):
    with pytest.raises(UserError) as e:
        overlay.validate(data, path="/x/choices.json")
    assert where in str(e.value) and str(e.value).startswith("/x/choices.json")


def test_load_reports_line_and_column(tmp_path):
    from tests.app.conftest import make_host

    host = make_host(tmp_path)
    path = overlay.choices_path(host, "default")
    path.parent.mkdir(parents=True)
    path.write_text('{\n  "mcp_enabled": {"copilot": {"memory": "off"}}\n}\n')
    with pytest.raises(UserError) as e:
        overlay.load(host, "default")
    assert str(e.value).startswith(f"{path}:2")
    path.write_text('{"directives": {"mcpDefaultDisabled": false}}')
    assert overlay.load(host, "default") == {"directives": {"mcpDefaultDisabled": False}}
    assert overlay.load(host, "other") == {}


def test_items_only_when_there_are_choices(tmp_path):
    from tests.app.conftest import make_host

    host = make_host(tmp_path)
    assert overlay.items(host, "default", {}) == []
    got = overlay.items(host, "default", {"mcp_enabled": {"codex": {"github": True}}})
    assert [(d.kind, d.key) for d in got] == [("file", ()), ("key", ("mcp_enabled", "codex",
                                                                     "github"))]
    assert 'extends = ["default"]' in got[0].value
