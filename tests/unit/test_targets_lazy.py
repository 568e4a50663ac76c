"""A Copilot-only plan imports only the Copilot adapter and facts; the shortcut that makes it
possible (targets.manifest_path) must agree with each adapter."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from agentdeck.core import targets
from agentdeck.core.host import Host
from agentdeck.core.targets import registry

REPO = Path(__file__).resolve().parents[2]


def test_manifest_path_agrees_with_each_adapter(tmp_path):
    plain = Host.from_environment(str(tmp_path / "h"), env={})
    moved = Host.from_environment(str(tmp_path / "h"), env={
        "COPILOT_HOME": str(tmp_path / "c"), "CODEX_HOME": str(tmp_path / "x"),
        "CLAUDE_CONFIG_DIR": str(tmp_path / "cl")})
    for host in (plain, moved):
        for name in targets.ORDER:
            assert targets.manifest_path(name, host) == targets.get(name).manifest_path(host)


def test_copilot_only_plan_imports_only_copilot():
    """Run as the installed package (agentdeck.core...): a Copilot-only plan loads no other
    target's adapter or facts."""
    code = ("import sys, tempfile, io, contextlib\n"
            "from agentdeck.core.cli import main\n"
            "with tempfile.TemporaryDirectory() as h, contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['plan', '--target', 'copilot', '--home', h])\n"
            "print(sorted(m for m in sys.modules if m.startswith('agentdeck.core.targets.')))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                       env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"})
    assert r.returncode == 0, r.stderr
    loaded = eval(r.stdout)
    assert "agentdeck.core.targets.copilot.adapter" in loaded, loaded     # the scan sees modules
    others = [n for n in registry.NAMES if n != "copilot"]
    wrong = [m for m in loaded for n in others
             if m in (f"agentdeck.core.targets.{n}.adapter", f"agentdeck.core.targets.{n}.facts")]
    assert not wrong, wrong


def test_copilot_only_apply_loads_no_other_targets_adapter_facts_or_permissions(tmp_path):
    """Run as the installed package (agentdeck.core...): a Copilot-only apply loads no other
    target's adapter, facts or permissions translation. Their policy parts and dialects do
    load (each target's GUARDED files go into the compiled policy's agentdeck-self rule)."""
    code = ("import sys, io, contextlib\n"
            "from agentdeck.core.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    main(['apply', '--target', 'copilot', '--yes', '--home', {str(tmp_path)!r}])\n"
            "print(sorted(m for m in sys.modules if m.startswith('agentdeck.core.targets.')))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    loaded = eval(r.stdout)
    assert "agentdeck.core.targets.copilot.adapter" in loaded
    others = [m for m in loaded if m.split(".")[3] in targets.ORDER and m.split(".")[3] != "copilot"
              and m.rsplit(".", 1)[-1] in ("adapter", "facts", "permissions")]
    assert others == [], others
