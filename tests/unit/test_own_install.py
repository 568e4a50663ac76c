"""The handler's own installation is part of the guard, wherever it is (red team GS20, GS14,
GS39): the venv its handler and interpreter run from is a protected write tree of the built-in
rule agentdeck-self, and a package manager's uninstall is judged by what it removes."""
from __future__ import annotations

import json
import os

import pytest

from agentdeck.core import hookhandler
from agentdeck.core.policy import programs
from agentdeck.core.policy.compiled import SYSTEM_RUNTIME, compile_policy, self_protection
from agentdeck.core.targets import registry

NAMES = [s.name for s in registry.TARGETS]


@pytest.fixture
def venv_outside_home(host, tmp_path):
    venv = tmp_path / "opt" / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    hook = venv / "bin" / "agentdeck-hook"
    hook.write_text(f"#!{venv}/bin/python3\nimport sys\n")
    hook.chmod(0o755)
    host.env["AGENTDECK_SCRIPTS_DIR"] = str(venv / "bin")
    assert not str(venv).startswith(str(host.home))
    return host, venv


@pytest.mark.parametrize("target", NAMES)
def test_the_handlers_venv_outside_the_home_is_protected(venv_outside_home, target):
    host, venv = venv_outside_home
    protect = self_protection(host, target)
    assert f"{venv}/**" in protect and str(venv) in protect
    assert programs.OWN_PACKAGE + "/core/**" in protect


def _decide(host, venv, command):
    doc = json.loads(compile_policy({"rules": [], "paths": [], "on_error": "deny"}, NAMES[0],
                                    home=str(host.home), protect=self_protection(host, NAMES[0])))
    payload = {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": str(host.home)}
    record = {"event": "pre_tool_use"}
    hookhandler.decide(payload, record, {"HOME": str(host.home)}, None, 0.0, policy=(doc, None))
    return record["decision"], record["rule"]


@pytest.mark.parametrize("command", [
    "{venv}/bin/python3 -m pip uninstall -y agentdeck", "python3 -m pip uninstall -y agentdeck",
    "pip3.11 uninstall --yes AgentDeck", "{venv}/bin/pip uninstall -y platformdirs",
    "touch {venv}/lib/python3.11/site-packages/zz.pth", "sudo uv pip uninstall AgentDeck",
])
def test_removing_the_guards_code_is_denied_by_its_effect(venv_outside_home, command):
    host, venv = venv_outside_home
    (venv / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    assert _decide(host, venv, command.format(venv=venv)) == ("deny", "agentdeck-self")


@pytest.mark.parametrize("command", ["pip uninstall -y requests", "python3 -m pip list",
                                     "pip show agentdeck", "ls {venv}/bin"])
def test_other_packages_and_reads_run(venv_outside_home, command):
    host, venv = venv_outside_home
    assert _decide(host, venv, command.format(venv=venv))[0] == "allow"


def test_uninstalls_reads_every_spelling():
    assert programs.uninstalls("pip", ["uninstall", "-y", "Agent_Deck==1"]) == (["agent-deck"], None)
    assert programs.uninstalls("/v/bin/python3.12", ["-m", "pip", "uninstall", "x"]) == (["x"], "/v")
    assert programs.uninstalls("pipx", ["uninstall-all"]) == ([programs.ANY_PACKAGE], None)
    assert programs.uninstalls("pip", ["install", "agentdeck"]) is None
    assert programs.uninstalls("python3", ["-c", "print(1)"]) is None


@pytest.mark.parametrize("cfg,lib", [
    ("home = /opt/py/3.12.4/bin\nversion = 3.12.4\n", "/opt/py/3.12.4/lib/python3.12"),
    ("home = /usr/bin\nversion_info = 3.11.2.final.0\n", "/usr/lib/python3.11"),
])
def test_the_venvs_base_standard_library_is_protected(venv_outside_home, cfg, lib):
    """The venv's Python imports the standard library of the interpreter it was made from: a
    sitecustomize.py dropped there would run inside the handler (`-I` does not stop it)."""
    host, venv = venv_outside_home
    (venv / "pyvenv.cfg").write_text(cfg)
    assert {f"{lib}/**", "/opt/py/3.12.4/**"} & set(self_protection(host, NAMES[0]))
    assert _decide(host, venv, f"echo 'import os' > {lib}/sitecustomize.py") == (
        "deny", "agentdeck-self")
    assert _decide(host, venv, f"cat {lib}/os.py")[0] == "allow"


@pytest.mark.parametrize("target", [
    "/opt/py/3.12.4/lib/python312.zip", "/opt/py/3.12.4/bin/python3.12",
    "/opt/py/3.12.4/bin/python3", "/opt/py/3.12.4/lib/libpython3.12.so.1.0"])
def test_what_the_base_interpreter_loads_first_is_protected(venv_outside_home, target):
    """Before the standard library: the zipped one (first on sys.path under -I, and absent, so
    a zip made there with a sitecustomize.py runs in the handler), the binary the venv's python
    links to and its shared library."""
    host, venv = venv_outside_home
    (venv / "pyvenv.cfg").write_text("home = /opt/py/3.12.4/bin\nversion = 3.12.4\n")
    assert _decide(host, venv, f"python3 -m zipfile -c {target} s.py") == (
        "deny", "agentdeck-self")
    assert _decide(host, venv, f"cp /tmp/x {target}") == ("deny", "agentdeck-self")
    assert _decide(host, venv, f"ls -l {target}")[0] == "allow"


def test_a_pyvenv_cfg_without_a_version_adds_nothing(venv_outside_home):
    host, venv = venv_outside_home
    # the base's, not the user site nor the system's start-up files (compiled.SYSTEM_RUNTIME)
    assert not [p for p in self_protection(host, NAMES[0])
                if "/lib/python" in p and not p.startswith("~/") and p not in SYSTEM_RUNTIME]


@pytest.mark.parametrize("target", [
    # the loader looks for libpython (and libc) in the RUNPATH folder's hwcaps, tls and
    # platform folders first, and in that folder before the system's (red team round 9)
    "/opt/py/3.12.4/lib/glibc-hwcaps/x86-64-v2/libpython3.12.so.1.0",
    "/opt/py/3.12.4/lib/tls/libpython3.12.so.1.0", "/opt/py/3.12.4/lib/x86_64/libpython3.12.so.1.0",
    "/opt/py/3.12.4/lib/libc.so.6",
    # Python's start-up takes a build tree's standard library from bin/Lib
    "/opt/py/3.12.4/bin/pybuilddir.txt", "/opt/py/3.12.4/bin/Lib/encodings/__init__.py"])
def test_an_interpreter_installed_on_its_own_is_protected_whole(venv_outside_home, target):
    host, venv = venv_outside_home
    (venv / "pyvenv.cfg").write_text("home = /opt/py/3.12.4/bin\nversion = 3.12.4\n")
    assert _decide(host, venv, f"cp /tmp/x {target}") == ("deny", "agentdeck-self")
    assert _decide(host, venv, f"mkdir -p {os.path.dirname(target)} && echo x > {target}") == (
        "deny", "agentdeck-self")


@pytest.mark.parametrize("target", ["/usr/bin/pybuilddir.txt", "/usr/bin/Lib/encodings/x.py",
                                    "/usr/bin/pyvenv.cfg", "/usr/pyvenv.cfg"])
def test_the_system_interpreter_s_start_up_landmarks_are_protected(venv_outside_home, target):
    host, venv = venv_outside_home
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\nversion = 3.11.2\n")
    assert _decide(host, venv, f"cp /tmp/x {target}") == ("deny", "agentdeck-self")
    assert _decide(host, venv, "cp /tmp/x /usr/local/bin/tool")[0] == "allow"
