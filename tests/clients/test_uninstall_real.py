"""Uninstall never leaves a hook that calls a file it removes, proved with the real CLIs: the
operator hand-edits agentdeck's pre-tool hook (its timeout), uninstalls, and then a real offline
turn of that CLI runs its shell tool with that kept hook firing through the kept wrapper -- no
"not found", and in Copilot (where a failing preToolUse hook denies) the tool really runs.
The engine side for every target: tests/safety/test_uninstall_keeps_called_files.py."""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from offline_turn import run_turn
from scripted_model import ScriptedModel

from agentdeck.core import engine
from tests.registry_kit import HOOKED, dialect

pytestmark = pytest.mark.clients

TIMEOUT = re.compile(r'("timeout(?:Sec)?"\s*:\s*)(\d+)')


def _edit_pre_tool_timeout(path: Path, event: str) -> None:
    """The operator changes the pre-tool hook's timeout; a plugin (OpenCode's agentdeck.js:
    no timeout) gets a line of the operator's instead."""
    text = path.read_text()
    m = TIMEOUT.search(text, text.index(f'"{event}"'))
    if m is None and path.suffix == ".js":
        path.write_text(text + "// the operator's own line\n")
        return
    assert m, f"no timeout in {path}"
    path.write_text(text[:m.start(2)] + str(int(m.group(2)) + 15) + text[m.end(2):])


@pytest.mark.parametrize("target", HOOKED)
def test_after_uninstall_the_kept_hook_still_runs(scratch_env, need, tmp_path, target):
    need(target)
    host = scratch_env
    host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
    installed = engine.build_plan(host, "default", [target], trust_hooks=True)
    engine.apply_plan(host, installed)
    # its hooks file (the plan's) and its pre-tool event as its hooks spell it
    hooks_file = Path(installed.output[target].hooks.file)
    _edit_pre_tool_timeout(hooks_file, dialect(target).events[0])
    plan = engine.build_uninstall_plan(host, [target])
    held = [i for i in plan.items if plan.held_by(i)]
    # the wrapper the kept hook calls, and the compiled policy the sealed wrapper names
    # (core/seal.py): without it the kept hook would fail closed at every call
    assert sorted(Path(i.path).name for i in held) == ["agentdeck-hook.sh", f"{target}.json"]
    engine.apply_plan(host, plan)
    wrapper = Path(next(i.path for i in held if i.path.endswith("agentdeck-hook.sh")))
    assert wrapper.is_file() and str(wrapper) in hooks_file.read_text()

    work = tmp_path / "work"
    work.mkdir()
    marker = work / "after-uninstall.txt"
    audit = Path(host.state_dir) / "audit.jsonl"
    seen = len(audit.read_text().splitlines()) if audit.exists() else 0
    with ScriptedModel(command=f"touch {marker}") as m:
        r = run_turn(host, target, m.url, "run the scripted command", work)
    assert r.returncode == 0, r.stderr[-2000:]
    assert marker.exists(), f"{target}: the tool did not run after uninstall:\n{r.stdout[-1500:]}"
    out = r.stdout + r.stderr
    assert "agentdeck-hook.sh: not found" not in out and "No such file" not in out, out[-2000:]
    assert audit.exists(), f"{target}: no hook ran after uninstall"
    lines = [json.loads(x) for x in audit.read_text().splitlines()[seen:]]
    assert any(x.get("event") == "pre_tool_use" and x.get("target") == target for x in lines), \
        f"{target}: the kept hook did not run through the kept wrapper"
