"""Under CI (the `CI` variable set) a test that lacks a tool CI installs fails with the reason;
a local run skips it (tests/ci_rule.py). Checked on the rule itself and end to end: a pytest
run of the clients fixtures with no CLI installable, and of the fleet fixtures with ansible-core
hidden, each with CI set and unset."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentdeck.core.facts import FACTS_BY_TARGET
from tests.ci_rule import NOT_CI, missing_tool, under_ci

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("ci", ["true", "1", "yes", "True"])
def test_missing_tool_fails_under_ci_with_its_reason(monkeypatch, ci):
    monkeypatch.setenv("CI", ci)
    assert under_ci()
    with pytest.raises(pytest.fail.Exception, match="npm ERR! network unreachable"):
        missing_tool("real CLI unavailable: npm ERR! network unreachable")


@pytest.mark.parametrize("ci", [None, *NOT_CI])
def test_missing_tool_skips_in_a_local_run(monkeypatch, ci):
    if ci is None:
        monkeypatch.delenv("CI", raising=False)
    else:
        monkeypatch.setenv("CI", ci)
    assert not under_ci()
    with pytest.raises(pytest.skip.Exception, match="npm ERR! network unreachable"):
        missing_tool("real CLI unavailable: npm ERR! network unreachable")


def inner_pytest(tmp_path: Path, conftest: str, test: str, ci: str | None,
                 pythonpath: tuple[Path, ...] = ()) -> subprocess.CompletedProcess:
    """A pytest run of one test file in its own folder (no ini, no plugins from this run)."""
    d = tmp_path / f"run-{ci}"
    d.mkdir()
    (d / "pytest.ini").write_text("[pytest]\n")
    (d / "conftest.py").write_text(conftest)
    (d / "test_it.py").write_text(test)
    env = {k: v for k, v in os.environ.items() if k != "CI" and not k.startswith("PYTEST_")}
    if ci is not None:
        env["CI"] = ci
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in (*pythonpath, REPO))
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "-p", "no:xdist", "-q", "-rA", str(d)], cwd=d, env=env,
                          capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)


def test_a_clients_test_without_its_cli_fails_under_ci(tmp_path, monkeypatch):
    """The `need` fixture with every CLI uninstallable (an empty clients folder, no npm on
    PATH): CI fails the test with npm's reason, a local run skips it."""
    target = next(iter(FACTS_BY_TARGET))
    conftest = (f"import sys\nsys.path.insert(0, {str(REPO / 'tests' / 'clients')!r})\n"
                "from tests.clients.conftest import clients, need  # noqa: F401\n")
    test = f"def test_it(need):\n    need({target!r})\n"
    monkeypatch.setenv("AGENTDECK_CLIENTS_DIR", str(tmp_path / "no-clients"))
    monkeypatch.setenv("PATH", str(tmp_path / "no-bin"))
    ci = inner_pytest(tmp_path, conftest, test, "true")
    local = inner_pytest(tmp_path, conftest, test, None)
    assert ci.returncode == 1, ci.stdout + ci.stderr
    assert "1 failed" in ci.stdout and f"{target}: npm is not on PATH" in ci.stdout, ci.stdout
    assert local.returncode == 0 and "1 skipped" in local.stdout, local.stdout + local.stderr
    assert f"{target}: npm is not on PATH" in local.stdout


def test_a_fleet_test_without_ansible_core_fails_under_ci(tmp_path):
    """The fleet fixtures (ansible-playbook; ansible-core's test helper) with `ansible` hidden
    from the interpreter: CI fails both tests with the reason, a local run skips them."""
    hidden = tmp_path / "hide-ansible"
    (hidden / "ansible").mkdir(parents=True)
    (hidden / "ansible" / "__init__.py").write_text("raise ImportError('hidden by the test')\n")
    conftest = ("from tests.fleet.conftest import ansible_playbook  # noqa: F401\n"
                "from tests.fleet.test_module import testing  # noqa: F401\n")
    test = ("def test_play(ansible_playbook):\n    pass\n\n"
            "def test_module(testing):\n    pass\n")
    ci = inner_pytest(tmp_path, conftest, test, "true", (hidden,))
    local = inner_pytest(tmp_path, conftest, test, None, (hidden,))
    assert ci.returncode == 1, ci.stdout + ci.stderr
    assert "2 errors" in ci.stdout and "ansible-core is not installed" in ci.stdout, ci.stdout
    assert "under CI a missing tool fails the test" in ci.stdout
    assert local.returncode == 0 and "2 skipped" in local.stdout, local.stdout + local.stderr
