"""Regenerate docs/enforcement.md from real offline turns of the installed CLIs:

    python scripts/enforcement_doc.py            # runs the matrix, writes docs/enforcement.md
    python scripts/enforcement_doc.py --check    # exit 1 when the page is not what they do now

The matrix runs in a scratch home (a temporary folder), never in yours. The CLIs are the ones on
PATH (CI: the pinned ones, .ci/install-clients.sh; their folders first on PATH)."""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from agentdeck.core.drill import matrix
from agentdeck.core.host import Host
from agentdeck.core.targets import registry

DOC = Path(__file__).resolve().parents[1] / "docs" / "enforcement.md"


def generate() -> str:
    root = Path(tempfile.mkdtemp(prefix="agentdeck-matrix-"))
    try:
        home = root / "home"
        home.mkdir()
        import os
        env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
        env["HOME"] = str(home)
        host = Host.from_environment(home, env=env)
        found = [t for t in registry.NAMES if host.which(registry.spec(t).binary)]
        missing = [t for t in registry.NAMES if t not in found]
        if missing:
            # the page is about every supported CLI: one left out would drop its column
            raise SystemExit(f"enforcement_doc: not on PATH: {', '.join(missing)} (put the "
                             "pinned CLIs' folders first on PATH; .ci/install-clients.sh "
                             "installs them); nothing written")
        results = matrix.run(host, found)
        failed = [(m.target, m.problem) for m in results if m.status != "ok"]
        if failed:
            raise SystemExit(f"enforcement_doc: the matrix did not run in {failed}; nothing "
                             "written")
        return matrix.markdown(results, matrix.chosen())
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    text = generate()
    if args.check:
        if DOC.read_text() != text:
            print(f"{DOC} is not what the installed CLIs do now: run "
                  "`python scripts/enforcement_doc.py`", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text)
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
