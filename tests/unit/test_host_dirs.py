"""Host.state_dir and Host.config_dir skip platformdirs in the common Linux case; the answer must
be the one the platformdirs formula gives, in every case."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agentdeck.core.host import Host

REPO = Path(__file__).resolve().parents[2]
CASES = [{"HOME": "/home/u"}, {"HOME": "/home/u/"}, {"HOME": "/"}, {"HOME": "/home/u/../v"},
         {"HOME": "relative"}, {}, {"HOME": "/h", "XDG_STATE_HOME": "/x", "XDG_CONFIG_HOME": "/y"},
         {"HOME": "/h", "XDG_STATE_HOME": "", "XDG_CONFIG_HOME": ""},
         {"HOME": "/h", "XDG_CONFIG_HOME": "rel"},
         {"HOME": "/h", "ANDROID_DATA": "/data", "ANDROID_ROOT": "/system"}]

CODE = r"""
import json, sys
from pathlib import Path
from agentdeck.core.host import Host, APP_NAME

def formula(home, fn):   # Host's platformdirs formula
    import os, platformdirs
    real_home = Path.home()
    p = Path(getattr(platformdirs, fn)(APP_NAME))
    if os.path.realpath(home) == os.path.realpath(real_home):
        return p     # the real home follows XDG as it is
    try:
        rel = p.relative_to(real_home)
    except ValueError:
        rel = Path(".local/state" if fn == "user_state_dir" else ".config") / APP_NAME
    return home / rel

homes = ["/tmp/some/home", "/tmp/other home/"] + ([str(Path.home())] if Path.home().is_absolute() else [])
hosts = [Host.from_environment(home, env={}) for home in homes]
got = [(str(h.state_dir), str(h.config_dir)) for h in hosts]
fast = "platformdirs" not in sys.modules
print(json.dumps([[s, str(formula(h.home, "user_state_dir")), c, str(formula(h.home, "user_config_dir")), fast]
                  for h, (s, c) in zip(hosts, got)]))
"""


@pytest.mark.parametrize("env", CASES, ids=[str(c) for c in CASES])
def test_dirs_are_the_platformdirs_answer(env):
    r = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, cwd=REPO,
                       env={"PATH": "/usr/bin:/bin", **env})
    assert r.returncode == 0, r.stderr
    for state, want_state, config, want_config, fast in json.loads(r.stdout):
        assert state == want_state
        assert config == want_config
    if sys.platform == "linux" and env.get("HOME", "").startswith("/") and len(env) == 1:
        assert fast        # the common case never imports platformdirs


def test_xdg_dirs_outside_the_real_home_are_followed_there(tmp_path):
    """XDG_CONFIG_HOME / XDG_STATE_HOME outside the home: on the real home agentdeck reads its
    profiles and keeps its state where they point (as platformdirs says); a scratch home
    (--home) keeps them inside it."""
    home = tmp_path / "home"
    home.mkdir()
    code = ("import json; from pathlib import Path; from agentdeck.core.host import Host\n"
            f"real = Host.from_environment(Path.home(), env={{}}); scratch = Host.from_environment({str(tmp_path / 'other')!r}, env={{}})\n"
            "print(json.dumps([str(real.config_dir), str(real.state_dir), str(scratch.config_dir), str(scratch.state_dir)]))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                       env={"PATH": "/usr/bin:/bin", "HOME": str(home),
                            "XDG_CONFIG_HOME": str(tmp_path / "xc"), "XDG_STATE_HOME": str(tmp_path / "xs")})
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == [str(tmp_path / "xc" / "agentdeck"), str(tmp_path / "xs" / "agentdeck"),
                                    str(tmp_path / "other" / ".config" / "agentdeck"),
                                    str(tmp_path / "other" / ".local" / "state" / "agentdeck")]


def test_a_cli_home_in_an_xdg_folder_follows_its_variable(tmp_path):
    """A home under the XDG config dir (TargetSpec.home_subdir: OpenCode's): $HOME/.config/<name>
    by default, <XDG_CONFIG_HOME>/<name> when the Host's environment sets it."""
    host = Host.from_environment(tmp_path / "h", env={})
    assert host.cli_home("XDG_CONFIG_HOME", ".config/oc", "oc") == host.home / ".config" / "oc"
    host.env["XDG_CONFIG_HOME"] = str(tmp_path / "cfg")
    assert host.cli_home("XDG_CONFIG_HOME", ".config/oc", "oc") == tmp_path / "cfg" / "oc"
    assert host.cli_home("XDG_CONFIG_HOME", ".x") == tmp_path / "cfg"     # a home variable
