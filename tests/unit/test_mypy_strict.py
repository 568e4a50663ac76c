"""The README's mypy claim, checked: every module pyproject.toml lists as strict (the engine and
the target interface) is type-checked for real -- none of them sits in the `ignore_errors`
list, and a type error planted in each of them makes `mypy` fail (issue 31.9: `x: int = "str"`
planted in core/plan.py used to pass)."""
from __future__ import annotations

import fnmatch
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MYPY_PATH = ROOT / ".ci" / "mypy-path"
PLANT = '\n_planted_by_test_mypy_strict: int = "str"\n'


def _overrides() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["overrides"]


def _modules(pred) -> list[str]:
    return [m for o in _overrides() if pred(o) for m in o["module"]]


def _strict_patterns() -> list[str]:
    return _modules(lambda o: o.get("disallow_untyped_defs") and o.get("disallow_any_generics"))


def _ignored() -> list[str]:
    return _modules(lambda o: o.get("ignore_errors"))


def _all_core_modules() -> dict[str, Path]:
    out = {}
    for p in sorted((ROOT / "core").rglob("*.py")):
        rel = p.relative_to(ROOT / "core").with_suffix("")
        parts = [x for x in rel.parts if x != "__init__"]
        out[".".join(["agentdeck.core", *parts])] = p
    return out


def _matches(module: str, patterns: list[str]) -> bool:
    return any(module == pat or fnmatch.fnmatchcase(module, pat) for pat in patterns)


def _strict_modules() -> dict[str, Path]:
    pats = _strict_patterns()
    return {m: p for m, p in _all_core_modules().items() if _matches(m, pats)}


def test_the_engine_and_target_interface_are_listed_strict():
    strict = _strict_modules()
    # the engine and the target interface as the README names them
    for wanted in ("agentdeck.core.plan", "agentdeck.core.apply", "agentdeck.core.kinds",
                   "agentdeck.core.kinds.key", "agentdeck.core.host", "agentdeck.core.disk",
                   "agentdeck.core.targets.spec", "agentdeck.core.targets.registry",
                   "agentdeck.core.targets.base"):
        assert wanted in strict, f"{wanted} is not in pyproject's strict mypy override"


def test_no_strict_module_has_its_errors_ignored():
    ignored = _ignored()
    both = [m for m in _strict_modules() if _matches(m, ignored)]
    assert not both, f"strict in name only (ignore_errors = true in pyproject.toml): {both}"


def test_the_readme_names_every_module_whose_errors_are_ignored():
    """The README says exactly what mypy does not check: each ignored module is named there."""
    readme = (ROOT / "README.md").read_text()
    missing = [m for m in _ignored() if f"`{m.removeprefix('agentdeck.core.')}`" not in readme]
    assert not missing, f"README's mypy sentence leaves out these unchecked modules: {missing}"


def test_a_type_error_planted_in_each_module_of_core_fails_mypy(tmp_path):
    """Every module of core/ is checked (strict or with the default rules): a planted error
    fails mypy in each, so no module's errors are ignored, whatever the overrides say."""
    strict = _all_core_modules()
    assert _strict_modules() and len(strict) > len(_strict_modules())
    args = []
    for mod, src in strict.items():
        shadow = tmp_path / (mod + ".py")
        shadow.write_text(src.read_text() + PLANT)
        seen = MYPY_PATH / "agentdeck" / "core" / src.relative_to(ROOT / "core")
        args += ["--shadow-file", str(seen), str(shadow)]
    mypy = str(Path(sys.executable).parent / "mypy")
    r = subprocess.run([mypy, "--cache-dir", str(tmp_path / "cache"), *args], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode != 0, r.stdout
    flagged = set(re.findall(r"^\.ci/mypy-path/agentdeck/core/(\S+?\.py):\d+: error: Incompatible "
                             r"types in assignment \(expression has type \"str\", variable has "
                             r"type \"int\"\)", r.stdout, re.M))
    missed = [m for m, src in strict.items() if str(src.relative_to(ROOT / "core")) not in flagged]
    assert not missed, f"a planted type error passes mypy in: {missed}\n{r.stdout[-2000:]}"


def test_no_target_package_has_its_errors_ignored():
    """The target interface and every target package are checked against it: no module under
    agentdeck.core.targets sits in an `ignore_errors` override."""
    ignored = [m for m in _all_core_modules() if m.startswith("agentdeck.core.targets.")
               and _matches(m, _ignored())]
    assert not ignored, f"target modules whose type errors mypy ignores: {ignored}"
