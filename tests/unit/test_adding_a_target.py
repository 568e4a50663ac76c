"""docs/adding-a-target.md, checked by doing it: the walk-through's four files of a target with
no hooks (a CLI that only reads MCP servers) are read from the page's code blocks, written as a
target package of a scratch copy, added to the registry, and the operator's commands run on a
scratch home in a fresh interpreter (no table any module built at import time hides a feature
that assumes every target has hooks)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import snapshot_tree

ROOT = Path(__file__).resolve().parents[2]
NAME = "mcpbox"

#: the scratch registry: the page's package on the targets package's path, its name in BUILTIN
RUN = """
import sys
import agentdeck.core.targets as targets
targets.__path__.append(sys.argv[1])
from agentdeck.core.targets import registry
registry.BUILTIN = registry.BUILTIN + (sys.argv[2],)
from agentdeck.core import cli
sys.exit(cli.main(sys.argv[3:]))
"""


def _package(root: Path) -> dict[str, str]:
    doc = (ROOT / "docs" / "adding-a-target.md").read_text()
    files = dict(re.findall(rf"```python\n# core/targets/{NAME}/(\S+)\n(.*?)```", doc, re.S))
    assert set(files) == {"__init__.py", "facts.py", "adapter.py", "doctor.py"}, sorted(files)
    pkg = root / NAME
    pkg.mkdir(parents=True)
    for name, text in files.items():
        (pkg / name).write_text(text)
    return files


def _run(root: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}
    return subprocess.run([sys.executable, "-c", RUN, str(root), NAME, *args, "--home", str(home)],
                          capture_output=True, text=True, env=env, cwd=home, timeout=120)


def test_the_pages_target_with_no_hooks_plans_applies_and_uninstalls(tmp_path):
    root, home = tmp_path / "pkgs", tmp_path / "home"
    home.mkdir()
    files = _package(root)
    assert "dialect" not in files and "policy" not in files     # no part is faked
    prof = home / ".config" / "agentdeck" / "profiles" / "boxed"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\ndescription = "one stdio server"\n'
                                       'extends = ["_base"]\n')
    (prof / "mcp.json").write_text(json.dumps({"mcpServers": {"notes": {
        "command": "notes-mcp", "args": ["--stdio"]}}}))
    before = snapshot_tree(home)

    r = _run(root, home, "plan", "--target", NAME, "--profile", "boxed")
    assert r.returncode == 2 and "+ ~/.mcpbox/servers.json  MCP server notes" in r.stdout, \
        r.stdout + r.stderr
    r = _run(root, home, "apply", "--target", NAME, "--profile", "boxed", "--yes")
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads((home / ".mcpbox" / "servers.json").read_text()) == {
        "servers": {"notes": {"command": "notes-mcp", "args": ["--stdio"]}}}
    r = _run(root, home, "plan", "--target", NAME)
    assert r.returncode == 0 and "Everything is in sync" in r.stdout, r.stdout + r.stderr
    r = _run(root, home, "status", "--target", NAME)
    assert r.returncode == 0 and r.stdout.split()[:3] == [NAME, "in", "sync"], r.stdout
    r = _run(root, home, "doctor", "--target", NAME, "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    rows = {f["check"]: f for f in json.loads(r.stdout)["findings"]}
    assert rows[f"{NAME}.servers.file"]["result"] == "ok"      # the page's own check ran
    assert not [c for c in rows if c.startswith(f"{NAME}.hooks")]
    r = _run(root, home, "policy", "show", "--target", NAME)
    assert r.returncode == 0 and f"{NAME}  (not guarded" in r.stdout, r.stdout + r.stderr
    r = _run(root, home, "uninstall", "--yes")
    assert r.returncode == 0, r.stdout + r.stderr
    def mine(tree: dict) -> dict:          # agentdeck's own state (backups, logs) stays
        return {k: v for k, v in tree.items() if not k.startswith(".local")}
    assert mine(snapshot_tree(home)) == mine(before)
