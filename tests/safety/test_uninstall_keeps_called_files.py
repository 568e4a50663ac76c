"""Uninstall never leaves a hook that calls a file it removes (core/held.py).

After the operator hand-edits one of agentdeck's hooks (its timeout), uninstall keeps that hook:
it is theirs now. The wrapper it runs must stay with it (and the plan says why), until the
operator takes the hook too (`--take`), and then both go. For every target and the repository
scope. The real CLIs running such a home: tests/clients/test_uninstall_real.py."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from safety_helpers import (require, available, cli_inproc, fresh_home, home_snapshot, install,
                            diff_snapshots, plan_json, uninstall)
from tests.registry_kit import dialect, home_files

#: target -> the file its hooks are registered in, relative to the home (from its own plan),
#: for every registered target with hooks
HOOK_FILES = {t: f for t in available() for f in [home_files(t)[1]] if f}
TIMEOUT = re.compile(r'("timeout(?:Sec)?"\s*:\s*)(\d+)')


def _edit_a_timeout(path: Path, after: str = "") -> None:
    """The operator changes one hook's timeout by hand (the first one after `after`); a plugin
    (OpenCode's agentdeck.js: no timeout) gets a line of the operator's instead."""
    text = path.read_text()
    at = text.index(after) if after else 0
    m = TIMEOUT.search(text, at)
    if m is None and path.suffix == ".js":
        path.write_text(text + "// the operator's own line\n")
        return
    assert m, f"no timeout in {path}"
    path.write_text(text[:m.start(2)] + str(int(m.group(2)) + 15) + text[m.end(2):])


def _wrappers(plan: dict) -> list[dict]:
    return [i for i in plan["items"] if i["path"].endswith("agentdeck-hook.sh")]


def _targets() -> list[str]:
    return [t for t in HOOK_FILES if t in available()]


@pytest.mark.parametrize("target", _targets())
def test_a_hand_edited_hook_keeps_the_wrapper_it_calls(tmp_path, target):
    home = fresh_home(tmp_path / "home")
    before = home_snapshot(home)
    install(home, [target])
    rel = HOOK_FILES[target]
    # in a settings file holding every event's hook, the pre-tool one (its own spelling)
    pre = dialect(target).events[0]
    _edit_a_timeout(home / rel, after=pre if pre in (home / rel).read_text() else "")
    plan = plan_json(home, [target], uninstall=True)
    (w,) = _wrappers(plan)
    assert w["action"] == "none" and w["held_by"], w
    assert "still calls it" in w["reason"] and "--take" in w["reason"], w["reason"]
    # the sealed wrapper names its compiled policy (core/seal.py): held with it, or the kept
    # hook would fail closed at every call after uninstall
    (pol,) = [i for i in plan["items"] if i["label"] == "compiled policy"]
    assert pol["action"] == "none" and pol["held_by"] == [w["path"]], pol
    assert plan["summary"]["kept_for_callers"] == 2
    out, _ = uninstall(home, [target])
    assert "* ~/" in out and "still calls it" in out, out
    wrapper = Path(w["path"])
    assert wrapper.is_file() and os.access(wrapper, os.X_OK), "the kept hook's wrapper was removed"
    assert str(wrapper) in (home / rel).read_text(), "the kept hook still calls it"
    # the next uninstall still knows why the wrapper stays, and has nothing to remove
    again = plan_json(home, [target], uninstall=True)
    (w2,) = _wrappers(again)
    assert w2["action"] == "none" and w2["held_by"] and not again["summary"]["changes_pending"]
    # the operator decides to remove that hook too: both go, the home is as it was
    caller = w2["held_by"][0]
    rc, out, err = cli_inproc("uninstall", "--home", home, "--yes", "--target", target,
                              "--take", caller)
    assert rc == 0, out + err
    assert not wrapper.exists()
    assert home_snapshot(home) == before, diff_snapshots(before, home_snapshot(home))


def test_taking_the_hook_in_the_same_uninstall_removes_the_wrapper_too(tmp_path):
    """The hold follows the decisions: --take on the hand-edited hook releases the wrapper in
    the same plan (the CLI's words: "--take 'hook PreToolUse' removes that hook, and then
    this file")."""
    require("claude")
    home = fresh_home(tmp_path / "home")
    before = home_snapshot(home)
    install(home, ["claude"])
    _edit_a_timeout(home / ".claude/settings.json", after="PreToolUse")
    plan = plan_json(home, ["claude"], uninstall=True)
    (w,) = _wrappers(plan)
    assert "--take 'hook PreToolUse'" in w["reason"]
    from agentdeck.core import engine
    from safety_helpers import make_host
    p = engine.build_uninstall_plan(make_host(home), ["claude"])
    (hook,) = [i for i in p.items if i.label == "hook PreToolUse"]
    p.decide(hook.id, "take")
    (w,) = _wrappers(p.to_json())
    assert w["action"] == "remove" and not w["held_by"]
    uninstall(home, ["claude"], "--take", "hook PreToolUse")
    assert home_snapshot(home) == before, diff_snapshots(before, home_snapshot(home))


def test_a_skipped_hook_removal_keeps_the_wrapper(tmp_path):
    """Not only hand-edits: a hooks file whose removal the operator skips keeps its wrapper."""
    require("copilot")
    home = fresh_home(tmp_path / "home")
    install(home, ["copilot"])
    hooks = home / ".copilot/hooks/agentdeck.json"
    uninstall(home, ["copilot"], "--skip", str(hooks))
    assert hooks.is_file() and (home / ".copilot/agentdeck-hook.sh").is_file()


def test_the_repository_wrapper_stays_while_its_edited_hooks_file_calls_it(tmp_path):
    require("copilot")
    home = fresh_home(tmp_path / "home")
    repo = tmp_path / "repo"
    repo.mkdir()
    rc, out, err = cli_inproc("apply", "--home", home, "--repo", repo, "--yes")
    assert rc == 0, out + err
    hooks = repo / ".github/hooks/agentdeck.json"
    _edit_a_timeout(hooks)
    rc, out, err = cli_inproc("uninstall", "--home", home, "--repo", repo, "--yes")
    assert rc == 0, out + err
    assert "still calls it" in out
    assert hooks.is_file() and (repo / ".github/hooks/agentdeck-hook.sh").is_file()


def test_an_untouched_install_uninstalls_whole(tmp_path):
    """Nothing is held when nothing that stays calls the wrapper (no false hold: Codex's trust
    entries name hooks.json, the persona names nothing)."""
    home = fresh_home(tmp_path / "home")
    before = home_snapshot(home)
    names = _targets()
    install(home, names, "--trust-hooks")
    plan = plan_json(home, names, uninstall=True)
    assert not [i for i in plan["items"] if i["held_by"]]
    uninstall(home, names)
    assert home_snapshot(home) == before
