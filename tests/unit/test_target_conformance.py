"""The target interface, registry-wide: every registered target's package provides the parts its
SPEC declares (the required ones, its guard channel's, its optional ones) and no other; each
part module is declared to mypy against its part's interface (core/targets/parts/); a registry
entry that breaks this fails when the registry loads, with a sentence naming the package and
the part."""
from __future__ import annotations

import ast
import dataclasses
import importlib
from pathlib import Path

import pytest

from agentdeck.core import engine, native_layers
from agentdeck.core.demo import make_demo_home
from agentdeck.core.host import Host
from agentdeck.core.policy.compiled import policy_of
from agentdeck.core.profiles import resolve
from agentdeck.core.targets import registry, spec as spec_mod
from agentdeck.core.targets.output import TargetOutput
from agentdeck.core.targets.parts import PROTOCOLS
from agentdeck.core.targets.spec import (
    CHANNEL_PARTS, ENFORCEMENTS, NO_GUARD, OPTIONAL_PARTS, REQUIRED_PARTS, TargetSpec)

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("spec", registry.TARGETS, ids=registry.NAMES)
def test_every_target_provides_exactly_the_parts_it_declares(spec):
    assert spec.enforcement in ENFORCEMENTS
    assert spec.problems(registry._exists_in(spec)) == []
    for part in spec.all_parts():
        assert registry.has_part(spec.name, part)
    for part in set(OPTIONAL_PARTS) - spec.all_parts():
        assert not registry.has_part(spec.name, part)


@pytest.mark.parametrize("spec", registry.TARGETS, ids=registry.NAMES)
def test_every_part_module_is_checked_by_mypy_against_its_interface(spec):
    """Each part module with an interface ends with `_conforms: <Protocol> = _this` under
    TYPE_CHECKING: mypy (a CI step) then fails when the module lacks a member of the interface
    or gives it the wrong type."""
    for part in sorted(spec.all_parts() & set(PROTOCOLS)):
        path = REPO / "core" / "targets" / spec.name / f"{part}.py"
        tree = ast.parse(path.read_text())
        declared = [n for n in ast.walk(tree) if isinstance(n, ast.AnnAssign)
                    and isinstance(n.target, ast.Name) and n.target.id == "_conforms"]
        assert declared, f"{path.relative_to(REPO)} does not declare `_conforms: {PROTOCOLS[part]}`"
        assert ast.unparse(declared[0].annotation) == PROTOCOLS[part]
        assert isinstance(declared[0].value, ast.Name) and declared[0].value.id == "_this"
        imported = {a.asname: (n.module, a.name) for n in ast.walk(tree)
                    if isinstance(n, ast.ImportFrom) for a in n.names}
        assert imported.get("_this") == (None, part), f"{path}: _this must be the module itself"


@pytest.mark.parametrize("spec", registry.TARGETS, ids=registry.NAMES)
def test_every_runtime_checkable_part_satisfies_its_protocol(spec):
    for part in sorted(spec.all_parts() & set(PROTOCOLS)):
        proto = getattr(importlib.import_module(f"agentdeck.core.targets.parts.{part}"),
                        PROTOCOLS[part], None)
        if proto is None or not getattr(proto, "_is_runtime_protocol", False):
            continue          # declared for mypy only (the handler's dialect, the policy part)
        assert isinstance(registry.part(spec.name, part), proto), (spec.name, part)


def _spec(**kw) -> TargetSpec:
    base = dict(name="fake", title="Fake", short="Fake", binary="fake", npm_package="fake",
                home_env="FAKE_HOME", home_dirname=".fake", package="fake.pkg",
                adapter_class="FakeTarget")
    return TargetSpec(**{**base, **kw})


def test_a_missing_required_part_is_named():
    s = _spec(enforcement=NO_GUARD)
    problems = s.problems(lambda part: part in set(REQUIRED_PARTS) - {"facts"})
    assert problems == ["core/targets/fake: has no facts.py (every target has one; "
                        "core/targets/parts/ describes it)"]


@pytest.mark.parametrize("enforcement", [e for e in ENFORCEMENTS if CHANNEL_PARTS[e]])
def test_a_guard_channel_without_its_parts_is_named(enforcement):
    s = _spec(enforcement=enforcement)
    have = set(REQUIRED_PARTS)
    problems = s.problems(lambda part: part in have)
    for part in CHANNEL_PARTS[enforcement]:
        assert any(f"has no {part}.py (its guard is {enforcement}" in p for p in problems)


def test_a_declared_part_that_is_missing_and_an_undeclared_one_that_exists_are_named():
    s = _spec(enforcement=NO_GUARD, parts=("drill",))
    problems = s.problems(lambda part: part in set(REQUIRED_PARTS) | {"org"})
    assert "core/targets/fake: has no drill.py (its SPEC declares it; core/targets/parts/ " \
           "describes it)" in problems
    assert any(p.startswith("core/targets/fake: has org.py, which its SPEC does not declare")
               for p in problems)


def test_an_unknown_part_or_channel_is_named():
    assert "none of" in _spec(parts=("wings",)).problems(lambda part: True)[0]
    assert "enforcement 'smoke' is none of" in _spec(enforcement="smoke").problems(
        lambda part: True)[0]


def test_a_target_with_no_guard_needs_no_hook_part():
    """A target that only receives files (MCP servers, a persona) is expressible as it is:
    no dialect, policy or health part to fake."""
    s = _spec(enforcement=NO_GUARD)
    assert s.problems(lambda part: part in REQUIRED_PARTS) == []
    assert not s.guarded and not s.has("dialect")


def test_the_registry_refuses_to_load_a_target_that_breaks_its_declaration(monkeypatch):
    """The registry's tables are built once, checking every entry: a package missing a part its
    SPEC declares stops every feature with the sentence, never a KeyError later."""
    first = registry.TARGETS[0]
    saved = {k: registry.__dict__[k] for k in ("TARGETS", "NAMES", "BY_NAME", "PROFILE_FILES",
                                               "DIRECTIVES_FILE", "NEVER_WRITE_NAMES")}
    real = registry._exists
    monkeypatch.setattr(registry, "_exists",
                        lambda s, part: False if (s is first and part == "doctor")
                        else real(s, part))
    for k in saved:
        monkeypatch.delitem(registry.__dict__, k)
    try:
        with pytest.raises(RuntimeError, match=rf"core/targets/{first.name}: has no doctor\.py "
                                               r"\(every target has one"):
            registry.TARGETS
    finally:
        registry.__dict__.update(saved)


def test_the_parts_vocabulary_has_one_interface_each():
    every = set(REQUIRED_PARTS) | set(OPTIONAL_PARTS) | {p for ps in CHANNEL_PARTS.values()
                                                         for p in ps}
    assert set(PROTOCOLS) <= every
    assert spec_mod.HOOKS in ENFORCEMENTS and spec_mod.PLUGIN in ENFORCEMENTS


# ---- the adapter's output: typed, and there exactly when the target can have it ----------------

def _written(target: str, layer: str) -> bool:
    got = native_layers.native_deny(target, layer)
    return bool(got is not None and got.written)


#: per field of TargetOutput, whether a target's plan reports it (None: it depends on the home,
#: not on the target). A field added without its rule here fails the test below.
PRESENT = {
    "found": None,                       # another tool's install, when the home has one
    "browser": lambda s: s.can(spec_mod.BROWSER),
    "mcp": lambda s: True,               # every target plans MCP servers
    "hooks": lambda s: s.guarded,        # the hooks or the plugin of the guard
    "permissions": lambda s: _written(s.name, "NATIVE_DENY"),
    "hooks_inert": None,                 # why the registered hooks cannot run, when they cannot
    "sandbox": lambda s: _written(s.name, "FLOOR"),
    "skills": lambda s: s.can(spec_mod.SKILLS),
    "env": lambda s: s.can(spec_mod.ENV_FILE),
    "repo": lambda s: False,             # the repository scope's report: no home target's
}


def test_every_field_of_the_adapter_output_has_its_presence_rule():
    assert set(PRESENT) == {f.name for f in dataclasses.fields(TargetOutput)}


@pytest.fixture(scope="module", params=["fresh", "demo"])
def home_plan(request, tmp_path_factory):
    """One plan of every registered target with the bundled profile (which has path rules), on
    an empty home and on the demo home."""
    root = tmp_path_factory.mktemp(request.param) / "home"
    home = make_demo_home(root) if request.param == "demo" else root
    home.mkdir(exist_ok=True)
    host = Host(home=home, env={"HOME": str(home), "PATH": "/usr/bin:/bin"})
    assert (policy_of(resolve(host, "default")) or {}).get("paths"), "a profile with path rules"
    return engine.build_plan(host, "default", list(registry.NAMES))


@pytest.mark.parametrize("name", registry.NAMES)
def test_an_adapter_reports_what_its_target_can_have_and_nothing_untyped(home_plan, name):
    """What a feature reads of an adapter's output is a typed field, there exactly when the
    target's SPEC (or its policy part) says the CLI has it; nothing is left in the plain info
    dict that no one declared."""
    spec = registry.spec(name)
    out = home_plan.output[name]
    for field, rule in PRESENT.items():
        if rule is not None:
            assert (getattr(out, field) is not None) == rule(spec), (name, field)


@pytest.mark.parametrize("cloud_setup", [False, True])
def test_the_repository_scope_reports_its_typed_report_and_nothing_untyped(host, tmp_path,
                                                                           cloud_setup):
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    plan = engine.build_repo_plan(host, root, "default", cloud_setup=cloud_setup)
    assert plan.targets == ["repo"]
    report = plan.output["repo"].repo
    assert report is not None and report.cloud_setup is not None
    assert report.cloud_setup.wanted is cloud_setup
    assert dataclasses.replace(plan.output["repo"], repo=None) == TargetOutput()
