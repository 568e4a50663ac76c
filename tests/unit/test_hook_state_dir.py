"""The hook handler finds its state dir without importing platformdirs in the common Linux case;
the answer must be platformdirs' own in every case."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CASES = [{"HOME": "/home/u"}, {"HOME": "/home/u/"}, {"HOME": "/"}, {"HOME": "relative"}, {},
         {"HOME": "/h", "XDG_STATE_HOME": "/x"}, {"HOME": "/h", "XDG_STATE_HOME": ""},
         {"HOME": "/h", "XDG_STATE_HOME": "  "}, {"HOME": "/h", "XDG_STATE_HOME": "rel"},
         {"HOME": "/h", "ANDROID_DATA": "/data", "ANDROID_ROOT": "/system"}]


@pytest.mark.parametrize("env", CASES, ids=[str(c) for c in CASES])
def test_state_dir_is_platformdirs_answer(env):
    code = ("import sys\n"
            "from core.hookhandler import state_dir\n"
            "ours = state_dir({})\n"
            "fast = 'platformdirs' not in sys.modules\n"
            "import platformdirs\n"
            "print(ours == platformdirs.user_state_dir('agentdeck'), fast)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                       env={"PATH": "/usr/bin:/bin", **env})
    assert r.returncode == 0, r.stderr
    same, fast = r.stdout.split()
    assert same == "True"
    if sys.platform == "linux" and env.get("HOME", "").startswith("/") and len(env) == 1:
        assert fast == "True"     # the common case never imports platformdirs
