"""The hook handler is always found. agentdeck's own `agentdeck-hook` is the one
installed beside the running agentdeck, on PATH or not; other handlers come from PATH; a working
wrapper survives an apply from a shell with another PATH; a real move is said in words; a
handler that cannot be found is an error-level notice."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from agentdeck.core import cli, engine
from agentdeck.core.host import Host
from agentdeck.core.targets import wrapper
from tests.registry_kit import HOOKED, wrapper_of

ALL = HOOKED       # every registered target with shell hooks (a hook wrapper)


def _exe(path: Path, body: str = "#!/bin/sh\nexit 0\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body)
    os.chmod(path, 0o755)
    return path


def _apply(host, names=ALL, **kw):
    plan = engine.build_plan(host, "default", names, **kw)
    assert engine.apply_plan(host, plan).ok
    return plan


def _exec_of(host, target) -> str | None:
    return wrapper.handler_of_wrapper(wrapper_of(host, target).read_text())


def test_own_handler_is_named_although_its_venv_is_not_on_path(host, tmp_path, own_handler_at):
    venv_bin = tmp_path / "x" / ".venv" / "bin"
    own = _exe(venv_bin / "agentdeck-hook")
    own_handler_at(host, venv_bin)
    host.env["PATH"] = "/usr/bin:/bin"                      # the venv is not on PATH
    plan = _apply(host)
    for t in ALL:
        assert _exec_of(host, t) == str(own)
        assert not [n for n in plan.notices[t] if n.level == "error"]
    # the wrapper really reaches it with a CLI's bare environment
    marker = tmp_path / "ran"
    _exe(own, f'#!/bin/sh\necho "$1 $AGENTDECK_TARGET" > {marker}\n')
    for t in ALL:
        subprocess.run([str(wrapper_of(host, t)), "PreToolUse"], env={"PATH": "/usr/bin:/bin"},
                       stdin=subprocess.DEVNULL, timeout=10, check=True)
        assert marker.read_text().strip() == f"PreToolUse {t}"


def test_own_handler_wins_over_one_on_path(ghost, tmp_path, own_handler_at):
    venv_bin = tmp_path / "venv" / "bin"
    own = _exe(venv_bin / "agentdeck-hook")
    own_handler_at(ghost, venv_bin)
    hd = wrapper.resolve_handler(ghost, "agentdeck-hook --x")
    assert hd.resolved == str(own) and hd.how == "own" and hd.argv == [str(own), "--x"]


def test_path_changed_between_applies_leaves_the_wrappers_alone(ghost, tmp_path):
    """The handler was found on PATH at the first apply; a shell whose PATH lacks it plans
    nothing (the installed wrapper's handler still works) and says nothing is wrong."""
    _apply(ghost)
    first = {t: wrapper_of(ghost, t).read_bytes() for t in ALL}
    ghost.env["PATH"] = "/usr/bin:/bin"
    plan = engine.build_plan(ghost, "default", ALL)
    assert not plan.has_changes, [i.id for i in plan.items if plan.action(i) == "write"]
    for t in ALL:
        assert not [n for n in plan.notices[t] if n.level == "error"], plan.notices[t]
        assert not [n for n in plan.notices[t] if n.message.startswith("handler:")]
    assert {t: wrapper_of(ghost, t).read_bytes() for t in ALL} == first


def test_custom_handler_other_on_new_path_keeps_the_working_one(ghost, tmp_path):
    a = _exe(tmp_path / "a" / "my-handler")
    b = _exe(tmp_path / "b" / "my-handler")
    prof = ghost.config_dir / "profiles" / "mine"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n'
                                       '[hooks]\ncommand = "my-handler --flag"\n')
    ghost.env["PATH"] = f"{a.parent}:/usr/bin:/bin"
    plan = engine.build_plan(ghost, "mine", ["copilot"])
    assert engine.apply_plan(ghost, plan).ok
    assert _exec_of(ghost, "copilot") == str(a)
    ghost.env["PATH"] = f"{b.parent}:/usr/bin:/bin"       # another shell
    assert not engine.build_plan(ghost, "mine", ["copilot"]).has_changes
    a.unlink()                                             # now it really moved
    plan = engine.build_plan(ghost, "mine", ["copilot"])
    assert plan.has_changes
    assert any(n.message == f"handler: {a} -> {b}" for n in plan.notices["copilot"])
    assert engine.apply_plan(ghost, plan).ok
    assert _exec_of(ghost, "copilot") == str(b)


def test_custom_handler_is_resolved_on_path_not_beside_agentdeck(ghost, tmp_path, own_handler_at):
    own_handler_at(ghost, tmp_path / "venv" / "bin")
    _exe(tmp_path / "venv" / "bin" / "agentdeck-hook")
    mine = _exe(tmp_path / "bin" / "my-handler")
    hd = wrapper.resolve_handler(ghost, "my-handler")
    assert hd.resolved == str(mine) and hd.how == "path"


def test_a_new_install_location_is_said_in_words(host, tmp_path, own_handler_at):
    old = _exe(tmp_path / "old" / "bin" / "agentdeck-hook")
    new = _exe(tmp_path / "new" / "bin" / "agentdeck-hook")
    own_handler_at(host, old.parent)
    _apply(host)
    own_handler_at(host, new.parent)                              # agentdeck reinstalled elsewhere
    plan = engine.build_plan(host, "default", ALL)
    for t in ALL:
        assert any(n.level == "info" and n.message == f"handler: {old} -> {new}"
                   for n in plan.notices[t]), plan.notices[t]
    from agentdeck.core.render import render_plan
    assert f"handler: {old} -> {new}" in render_plan(plan, host)
    assert engine.apply_plan(host, plan).ok
    plan = engine.build_plan(host, "default", ALL)
    assert not plan.has_changes
    assert not any(n.message.startswith("handler:") for t in ALL for n in plan.notices[t])


def test_handler_not_found_is_an_error_notice(host):
    host.env["PATH"] = "/nonexistent"
    plan = engine.build_plan(host, "default", ALL)
    for t in ALL:
        errs = [n for n in plan.notices[t] if n.level == "error"]
        assert len(errs) == 1 and "'agentdeck-hook' cannot be found" in errs[0].message, t


def test_readme_install_venv_not_on_path(tmp_path):
    """The README's install (an editable venv) run with a PATH that lacks the venv: the wrapper
    names the venv's agentdeck-hook. Uses this test run's own interpreter as "the venv"."""
    import sys
    scripts = Path(sys.executable).parent
    if not (scripts / "agentdeck-hook").exists():
        pytest.skip("this interpreter has no agentdeck-hook beside it (not an installed agentdeck)")
    home = tmp_path / "H"
    home.mkdir()
    env = {"HOME": str(tmp_path / "proc"), "PATH": "/usr/bin:/bin"}
    r = subprocess.run([str(scripts / "agentdeck"), "apply", "--home", str(home), "--yes"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    on_home = Host(home=home, env=env)      # the target homes `apply --home H` wrote under H
    for t in ALL:
        assert wrapper.handler_of_wrapper(wrapper_of(on_home, t).read_text()) == \
            str(scripts / "agentdeck-hook")
    assert "cannot be found" not in r.stdout


def test_status_says_inert_when_the_handler_is_gone(ghost, tmp_path, capsys, monkeypatch):
    _apply(ghost, ALL)
    (tmp_path / "bin" / "agentdeck-hook").unlink()
    monkeypatch.setenv("PATH", ghost.env["PATH"])
    rc = cli.main(["status", "--home", str(ghost.home), "--target", ",".join(ALL)])
    out = capsys.readouterr().out
    assert rc == 2
    for t in ALL:
        line = next(ln for ln in out.splitlines() if ln.startswith(t))
        assert "installed, hooks inert: the hook handler" in line and "is not found" in line
        assert "fix: install agentdeck" in line


def test_a_user_scheme_without_userbase_is_not_a_crash(monkeypatch):
    """Installed the README's way, sysconfig's user scheme raised AttributeError('userbase')
    inside `agentdeck drill`: the scripts dirs are then the others, never a traceback."""
    import sysconfig

    from agentdeck.core.targets import wrapper

    real = sysconfig.get_path

    def get_path(name, scheme=None, *a, **k):
        if scheme and scheme.endswith("_user"):
            raise AttributeError("userbase")
        return real(name, *a, **k) if scheme is None else real(name, scheme, *a, **k)

    monkeypatch.setattr(sysconfig, "get_path", get_path)
    dirs = wrapper.own_scripts_dirs(None)
    assert dirs and all(isinstance(d, str) for d in dirs)


def test_scripts_dir_is_sysconfigs_without_its_build_configuration():
    """wrapper.scripts_dir expands the venv / POSIX prefix scheme itself: the same path as
    sysconfig.get_path("scripts") here, and sysconfig's own answer for any other scheme."""
    import sysconfig

    from agentdeck.core.targets import wrapper

    assert wrapper.scripts_dir(sysconfig) == sysconfig.get_path("scripts")

    class Other:
        @staticmethod
        def get_path(name, scheme=None, vars=None, expand=True):
            return "{installed_base}/Scripts" if not expand else "/elsewhere/Scripts"

    assert wrapper.scripts_dir(Other) == "/elsewhere/Scripts"


def test_the_handler_beside_the_interpreter_is_found_without_sysconfigs_build_configuration():
    """A plan finds agentdeck-hook in the scripts dir of a venv without loading
    _sysconfigdata (sysconfig's build configuration, which get_path loads to expand a path)."""
    import subprocess
    import sys

    code = ("import sys, tempfile\n"
            "from agentdeck.core.host import Host\n"
            "from agentdeck.core.targets import wrapper\n"
            "h = Host.from_environment(tempfile.mkdtemp(), env={})\n"
            "found = wrapper.own_handler(h)\n"
            "print(found is not None, any(m.startswith('_sysconfigdata') for m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False"]
