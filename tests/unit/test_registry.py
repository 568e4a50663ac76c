"""One definition of a target: core/targets/registry.py is the only list of targets.
Every adapter, the profile model's target names, the doctor's tables, the facts and the app's
lists come from it (or agree with it, where a table maps each target to its own code)."""
from __future__ import annotations

import ast
import inspect
import typing
from pathlib import Path

import pytest

from agentdeck.core import targets
from agentdeck.core.facts import FACTS_BY_TARGET
from agentdeck.core.targets import registry
from agentdeck.core.host import Host
from agentdeck.core.targets.base import Target

NAMES = registry.NAMES
REPO = Path(__file__).resolve().parents[2]


def test_the_registry_is_the_adapters_list():
    assert tuple(targets.ORDER) == NAMES
    assert {n: targets.ADAPTERS[n] for n in NAMES} == {s.name: s.adapter for s in registry.TARGETS}
    for spec in registry.TARGETS:
        ad = targets.get(spec.name)
        assert isinstance(ad, Target) and ad.spec is spec
        assert (ad.name, ad.title, ad.binary) == (spec.name, spec.title, spec.binary)


def test_the_facts_are_the_registrys(tmp_path):
    host = Host.from_environment(str(tmp_path / "h"), env={"CODEX_HOME": str(tmp_path / "x")})
    assert set(FACTS_BY_TARGET) == set(NAMES)
    for spec in registry.TARGETS:
        f = FACTS_BY_TARGET[spec.name]
        assert (f.binary, f.npm_package, f.home_env, f.home_dirname) == (
            spec.binary, spec.npm_package, spec.home_env, spec.home_dirname)
        moved = spec.home_env in host.env
        assert spec.home(host) == (Path(host.env[spec.home_env]) / spec.home_subdir if moved
                                   else host.home / spec.home_dirname)
        assert spec.manifest_path(host) == targets.get(spec.name).manifest_path(host)
    assert registry.spec("codex").home(host) == tmp_path / "x"


def test_the_model_literal_and_the_doctor_tables_come_from_the_registry():
    from agentdeck.core import model, names
    from agentdeck.core.doctor import context, live, report, runner
    assert names.TARGETS is registry.NAMES and model.TARGETS is registry.NAMES
    assert context.TARGETS is registry.NAMES and runner.TARGETS is registry.NAMES
    assert report.TITLES == {s.name: s.title for s in registry.TARGETS}
    assert set(live.LIVE_CHECKS) == set(NAMES)
    from agentdeck.core import schema
    field = schema.ProfileMeta.model_fields["targets"].annotation
    lits = [a for a in typing.get_args(field) if typing.get_origin(a) is list]
    assert lits and typing.get_args(typing.get_args(lits[0])[0]) == NAMES


def test_capabilities_are_declared_not_probed():
    assert registry.spec("codex").can(registry.TRUST_HOOKS)
    assert not registry.spec("copilot").can(registry.TRUST_HOOKS)
    assert registry.spec("copilot").can(registry.MCP_SWITCHES)
    for path in (REPO / "core").rglob("*.py"):
        text = path.read_text()
        assert "supports_trust_hooks" not in text, path


def _string_tuples(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            vals = [e.value for e in node.elts if isinstance(e, ast.Constant)]
            if len(vals) == len(node.elts) and set(NAMES) <= set(vals):
                yield node.lineno
        if isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            if set(NAMES) <= set(keys) and all(isinstance(v, ast.Constant) and isinstance(v.value, str)
                                               for v in node.values):
                yield node.lineno


def test_no_other_literal_list_of_the_targets_in_core_or_app():
    """A literal list (or name -> string table) naming all three targets outside the registry is
    a second definition; tables mapping each target to its own code (doctor dispatch) are not."""
    found = []
    for root in ("core", "app"):
        for path in (REPO / root).rglob("*.py"):
            if path == REPO / "core" / "targets" / "registry.py":
                continue
            for line in _string_tuples(ast.parse(path.read_text())):
                found.append(f"{path.relative_to(REPO)}:{line}")
    assert not found, found


def test_the_hook_handler_finds_each_callers_dialect_in_its_package():
    """The handler keeps no target -> dialect table: the wrapper's AGENTDECK_TARGET names a
    registered target, whose dialect module speaks for it, or the repository scope, which one
    of them speaks for; exactly the registry's targets (+ repo) are spoken for."""
    from agentdeck.core import hookhandler
    from agentdeck.core.targets import dialects
    from agentdeck.core.targets.repo import T as REPO_SCOPE

    assert not hasattr(hookhandler, "_TARGET_DIALECT")
    assert set(dialects.speakers()) == set(NAMES) | {REPO_SCOPE}
    every = dialects.every()
    for name in NAMES:
        m = registry.part(name, "dialect")
        s = dialects.speaker(name)
        assert dialects.owner(name) == name and s is m.SPEAKERS[name]
        assert s.spoken and all(d in m.DIALECTS and every[d.label] is d for d in s.spoken)
    scope = dialects.speaker(REPO_SCOPE)
    assert dialects.owner(REPO_SCOPE) in NAMES and scope is not None and scope.spoken
    for bad in (None, "", "Copilot", "../copilot", "copilot.dialect", "no_such_target"):
        assert dialects.speaker(bad) is None and dialects.owner(bad) is None


def test_every_registered_target_is_a_package_that_declares_its_spec():
    """Each registry entry is a package core/targets/<name>/ whose SPEC names it and points at
    itself, and setuptools installs every package under core/ and app/ (pyproject's list)."""
    import tomllib
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    for spec in registry.TARGETS:
        assert (REPO / "core" / "targets" / spec.name / "__init__.py").is_file()
        assert spec.package == f"agentdeck.core.targets.{spec.name}"
        assert registry.part(spec.name, "facts").FACTS.target == spec.name
    for root in ("core", "app"):
        for init in (REPO / root).rglob("__init__.py"):
            pkg = ".".join(("agentdeck", *init.parent.relative_to(REPO).parts))
            assert pkg in listed, f"pyproject.toml: {pkg} is not in [tool.setuptools] packages"


def test_a_file_a_spec_never_writes_is_refused_by_the_host_wherever_its_home_is(tmp_path):
    """TargetSpec.never_write is the Host's data (it names no target): each such file is refused
    for a write, a symlink and a removal, by any spelling and through a symlink, in the default
    home and where the home variable moves it; a file of that name elsewhere is not. Copilot's is
    the config.json its facts call tool-managed."""
    from agentdeck.core.host import HostError

    assert registry.NEVER_WRITE_NAMES == {f for s in registry.TARGETS for f in s.never_write}
    assert registry.part("copilot", "facts").COPILOT.config_file in registry.spec("copilot").never_write
    guarded = [(s, f) for s in registry.TARGETS for f in s.never_write]
    assert guarded
    moved = {s.home_env: str(tmp_path / "moved" / s.name) for s in registry.TARGETS}
    for i, env in enumerate(({}, moved)):
        host = Host.from_environment(str(tmp_path / f"h{i}"), env=env)
        host.home.mkdir()
        for s, name in guarded:
            p = s.home(host) / name
            assert p.parent == (Path(env[s.home_env]) / s.home_subdir if env
                                else host.home / s.home_dirname)
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(b"{}")
            link = host.home / "link-to-it"
            link.symlink_to(p)
            for spelling in (p, p.parent / "." / name, str(p), link):
                assert host.never_written(spelling), spelling
            assert host.never_written_what(p) == f"{s.short}'s {name}"
            with pytest.raises(HostError, match=f"never writes {s.short}'s {name}"):
                host.write_atomic(p, b"x")
            with pytest.raises(HostError, match="never writes"):
                host.write_atomic(link, b"x")
            with pytest.raises(HostError, match=f"never removes {s.short}'s {name}"):
                host.remove(p)
            with pytest.raises(HostError, match="never writes"):
                host.symlink("elsewhere", p)
            assert p.read_bytes() == b"{}" and not p.is_symlink()
            link.unlink()
            other = host.home / name
            assert not host.never_written(other) and host.never_written_what(other) == ""
            host.write_atomic(other, b"x")
            assert other.read_bytes() == b"x"


def test_a_home_variable_set_from_the_spec_puts_the_home_there(tmp_path):
    """home_env_value is what the drill and the doctor's scratch copies set: the home lands
    exactly on the copy, for a home variable and for an XDG folder's alike."""
    for spec in registry.TARGETS:
        copy = tmp_path / spec.name / (spec.home_subdir or "cli-home")
        host = Host.from_environment(str(tmp_path / "h"),
                                     env={spec.home_env: spec.home_env_value(copy)})
        assert spec.home(host) == copy, spec.name
