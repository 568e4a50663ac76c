"""`python -m tests.safety.slow_apply ARGS`: the agentdeck CLI on a slow disk, for the
concurrency test. Every atomic write of the home (not of agentdeck's own state) takes
SLOW_WRITE_SECONDS longer, and the first one touches SLOW_MARKER, so a test knows the apply
holds the home's lock and is in the middle of writing."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from agentdeck.core import cli
from agentdeck.core.host import Host

_orig = Host.write_atomic


def _slow(self, path, data, *, mode=None, **kw):
    marker = os.environ.get("SLOW_MARKER")
    if marker and str(path).startswith(str(self.home)) and not str(path).startswith(str(self.state_dir)):
        Path(marker).touch()
        time.sleep(float(os.environ.get("SLOW_WRITE_SECONDS", "0.3")))
    return _orig(self, path, data, mode=mode, **kw)


Host.write_atomic = _slow

if __name__ == "__main__":
    sys.exit(cli.main())
