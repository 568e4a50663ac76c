"""The typed views the app reads (core/views/): built for every registered target from its plan,
they say what the adapter's output says, and what only one CLI knows comes from its `views` part."""
from __future__ import annotations

import dataclasses

import pytest

from agentdeck.core import engine
from agentdeck.core.demo import files, make_demo_home
from agentdeck.core.host import Host
from agentdeck.core.targets import registry
from agentdeck.core.targets.output import MCP_REASONS
from agentdeck.core.targets.parts.views import TargetViews
from agentdeck.core.targets.spec import BROWSER, DISABLE_ALL, TRUST_HOOKS
from agentdeck.core.views import browser, found, hooks, mcp, status, targets


@pytest.fixture(scope="module")
def demo_plan(tmp_path_factory):
    home = make_demo_home(tmp_path_factory.mktemp("demo") / "home")
    host = Host(home=home, env={"HOME": str(home), "PATH": "/usr/bin:/bin"})
    return engine.build_plan(host, "default", list(registry.NAMES))   # every registered target


def test_every_views_part_is_a_target_views_and_every_target_has_one():
    for name in registry.NAMES:
        v = targets.of(name)
        assert isinstance(v, TargetViews)
        if registry.has_part(name, "views"):
            assert registry.part(name, "views").VIEWS is v
    assert targets.of("no-such-target") == TargetViews()


def test_views_are_frozen(demo_plan):
    t = demo_plan.targets[0]
    for view in (hooks.of(demo_plan, t), mcp.of(demo_plan, t), status.of(demo_plan, t)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            view.target = "x"  # type: ignore[misc]


@pytest.mark.parametrize("name", registry.NAMES)
def test_the_hooks_view_says_what_the_adapter_says(demo_plan, name):
    info = demo_plan.output[name].hooks
    view = hooks.of(demo_plan, name)
    assert view.present
    assert info is not None
    assert [e.event for e in view.events] == [e.event for e in info.events]
    assert [e.command for e in view.events] == [e.command for e in info.events]
    assert view.wrapper == info.wrapper and view.file == info.file
    # trust is the view of a CLI that gates hooks on trust, and of no other
    assert view.trust_gated == registry.spec(name).can(TRUST_HOOKS)
    if view.trust_gated:
        assert [e.will_trust for e in view.events] == [e.will_trust for e in info.events]
        assert view.trust_requested is info.trust_requested
    else:
        assert all(e.trust is None for e in view.events)


@pytest.mark.parametrize("name", registry.NAMES)
def test_the_mcp_view_says_what_the_adapter_says(demo_plan, name):
    report = demo_plan.output[name].mcp
    assert report is not None and report.servers       # the demo profile has servers
    view = mcp.of(demo_plan, name)
    assert view.present
    assert [s.name for s in view.servers] == [s.name for s in report.servers]
    for s, row in zip(view.servers, report.servers):
        assert (s.enabled, s.reason, s.origin) == (row.enabled, row.reason, row.origin)
        assert row.reason in MCP_REASONS
        assert s.reason_text == {**mcp.REASONS, **targets.of(name).mcp_reasons}.get(
            s.reason, s.reason)
        assert s.switchable == (row.reason in mcp.SWITCHABLE and not row.dropped)
    assert view.default_disabled is report.default_disabled
    assert view.always_enabled == report.always_enabled and view.file == report.file
    assert view.server("no-such-server") is None


def test_every_mcp_reason_has_shared_words():
    assert set(mcp.REASONS) == set(MCP_REASONS)
    assert set(mcp.SWITCHABLE) <= set(MCP_REASONS)


def test_a_server_the_operator_switched_in_the_cli_is_said_in_that_clis_words(demo_plan):
    """The demo's Copilot has github in enabledMcpServers: the reason is the operator's, and the
    words are those of the CLI whose views part says them."""
    said = [(t, s) for t in demo_plan.targets for s in mcp.of(demo_plan, t).servers
            if s.reason == "operator-enabled"]
    assert said
    for t, s in said:
        own = targets.of(t).mcp_reasons.get("operator-enabled")
        assert s.reason_text == (own or mcp.REASONS["operator-enabled"])
        assert not s.switchable


@pytest.mark.parametrize("name", registry.NAMES)
def test_a_browser_view_only_for_a_target_with_a_browser(demo_plan, name):
    """The capability BROWSER decides: its adapter reports the resolution, its views part has
    the words, and the view exists; a target without it has none of the three."""
    can = registry.BY_NAME[name].can(BROWSER)
    view = browser.of(demo_plan, name)
    reported = demo_plan.output[name].browser
    assert (view is not None) == can == (name in targets.browser_targets())
    assert (reported is not None) == can
    assert (targets.of(name).browser is not None) == can
    if view is not None:
        assert reported is not None
        assert view.wsl is reported.wsl
        assert view.candidates == reported.candidates
        assert view.source == reported.source
        assert view.writes_nothing == targets.of(name).browser.writes_nothing


def test_a_browser_report_without_the_capability_is_not_shown(demo_plan):
    """The view asks the SPEC, not whether a report is there."""
    plan = dataclasses.replace(demo_plan, output=dict(demo_plan.output))
    some = next(r.browser for r in plan.output.values() if r.browser is not None)
    for name in registry.NAMES:
        if not registry.BY_NAME[name].can(BROWSER):
            plan.output[name] = dataclasses.replace(plan.output[name], browser=some)
            assert browser.of(plan, name) is None


def test_found_and_status_views(demo_plan):
    for t in demo_plan.targets:
        assert found.of(demo_plan, t) == ()          # the demo home has no other tool
        c = demo_plan.counts(t)
        st = status.of(demo_plan, t)
        assert (st.changes, st.hand_edits, st.conflicts) == (c["changes"], c["kept"],
                                                             c["conflict"])


def test_the_demo_home_is_each_targets_demo_part(tmp_path):
    want = files()
    for s in registry.TARGETS:
        if registry.has_part(s.name, "demo"):
            part = registry.part(s.name, "demo").FILES
            assert part and all(f"{s.home_dirname}/{rel}" in want for rel in part)
    home = make_demo_home(tmp_path / "demo")
    for rel, text in want.items():
        assert (home / rel).read_text(encoding="utf-8") == text


@pytest.mark.parametrize("name", registry.NAMES)
def test_each_adapter_describes_what_its_declared_capabilities_promise(demo_plan, name):
    """The Hooks pane asks the target's capabilities (never whether a key is in the adapter's
    info); each adapter in turn gives the data its capabilities promise."""
    spec = registry.spec(name)
    h = demo_plan.output[name].hooks
    assert h is not None
    assert bool(h.disable_all_effect) == spec.can(DISABLE_ALL)
    assert bool(h.trust_source and h.config) == spec.can(TRUST_HOOKS)
    view = hooks.of(demo_plan, name)
    assert view.disable_all_known == spec.can(DISABLE_ALL)
    assert view.trust_gated == spec.can(TRUST_HOOKS)
