"""Host.state_dir and Host.config_dir skip platformdirs in the common Linux case; the answer must
be the one the platformdirs formula gives, in every case."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

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

def formula(home, fn):   # Host's platformdirs formula, as it was
    import platformdirs
    real_home = Path.home()
    p = Path(getattr(platformdirs, fn)(APP_NAME))
    try:
        rel = p.relative_to(real_home)
    except ValueError:
        rel = Path(".local/state" if fn == "user_state_dir" else ".config") / APP_NAME
    return home / rel

hosts = [Host.from_environment(home, env={}) for home in ("/tmp/some/home", "/tmp/other home/")]
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
