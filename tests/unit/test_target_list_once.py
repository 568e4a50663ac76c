"""The target list is written once (core/targets/registry.py BUILTIN): every other list of
target packages is checked against it here (pyproject's setuptools packages, import-linter's
independence and layers contracts), and the independence contract fails when tried: a copy of
the package where one target imports another breaks it."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from agentdeck.core.targets import registry

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())
#: the repository scope's adapter: a package of its own beside the targets, not a target
SCOPES = {"agentdeck.core.targets.repo"}


def _packages() -> set[str]:
    return {f"agentdeck.core.targets.{n}" for n in registry.BUILTIN}


def _contract(cid: str) -> dict:
    return next(c for c in PYPROJECT["tool"]["importlinter"]["contracts"] if c["id"] == cid)


def test_every_list_of_target_packages_is_the_registry():
    independent = set(_contract("targets-independent")["modules"])
    assert independent == _packages() | SCOPES, (
        "pyproject.toml [[tool.importlinter.contracts]] targets-independent must list exactly "
        "the registry's target packages (core/targets/registry.py BUILTIN) and the repo scope")
    layer = next(line for line in _contract("layers")["layers"]
                 if "agentdeck.core.targets." + registry.BUILTIN[0] in line.split(" : "))
    assert set(layer.split(" : ")) == _packages() | SCOPES, (
        "pyproject.toml's layers contract must hold the registry's target packages in one layer")
    setuptools = set(PYPROJECT["tool"]["setuptools"]["packages"])
    assert _packages() <= setuptools
    on_disk = {f"agentdeck.core.targets.{p.parent.name}"
               for p in (REPO / "core" / "targets").glob("*/__init__.py")
               if (p.parent / "spec.py").exists() or "SPEC" in p.read_text()}
    assert on_disk == _packages(), "a target package on disk is not in the registry, or back"


def _lint_imports() -> str:
    exe = Path(sys.executable).parent / "lint-imports"
    assert exe.exists(), "import-linter is in the test extra (pyproject.toml)"
    return str(exe)


def test_the_independence_contract_breaks_when_one_target_imports_another(tmp_path):
    """A copy of agentdeck.core where the first registered target's facts import the second's:
    import-linter, with the repository's own independence contract, reports it broken."""
    first, second = registry.BUILTIN[0], registry.BUILTIN[1]
    pkg = tmp_path / "agentdeck"          # a namespace package, as installed
    shutil.copytree(REPO / "core", pkg / "core",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    victim = pkg / "core" / "targets" / first / "facts.py"
    victim.write_text(victim.read_text() + f"\nfrom ..{second} import facts as _other  # planted\n")
    contract = _contract("targets-independent")
    cfg = tmp_path / "pyproject.toml"
    cfg.write_text(
        "[tool.importlinter]\nroot_packages = [\"agentdeck.core\"]\n\n"
        "[[tool.importlinter.contracts]]\n"
        f"id = \"{contract['id']}\"\nname = \"{contract['name']}\"\ntype = \"independence\"\n"
        "modules = [" + ", ".join(f'"{m}"' for m in contract["modules"]) + "]\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    r = subprocess.run([_lint_imports(), "--config", str(cfg), "--no-cache"], cwd=tmp_path,
                       env=env, capture_output=True, text=True, timeout=300)
    out = r.stdout + r.stderr
    assert r.returncode != 0, out
    assert "BROKEN" in out and f"agentdeck.core.targets.{first}.facts" in out, out
