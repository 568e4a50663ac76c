"""Qwen Code's org layer (core/targets/qwen/org.py) against a temporary root prefix, never the
machine's /etc: the system settings file it writes (`"$version": 4`, disableAllHooks pinned
off, the org PreToolUse hook), an empty plan after, uninstall byte-exact with and without an
administrator's own file, the doctor's row for a file that lost its pins, the plan's notes of
what Qwen cannot hold, and a drill that tries only what holds."""
from __future__ import annotations

import json

from agentdeck.core.facts import org as F
from agentdeck.core.org import handler
from agentdeck.core.targets.qwen import org as Q
from tests.conftest import snapshot_tree
from tests.unit.test_org import org, root  # noqa: F401 (fixture)

LAYER = "etc/qwen-code/settings.json"


def test_the_system_file_carries_the_version_the_pin_and_the_org_hook(home, root, capsys):
    before = snapshot_tree(root)
    assert org("apply", "--yes", "-t", "qwen", home=home, root=root) == 0
    capsys.readouterr()
    assert org("plan", "-t", "qwen", home=home, root=root) == 0      # empty right after
    text = (root / LAYER).read_text()
    doc = json.loads(text)
    # "$version" first: Qwen Code rewrites a settings file without it on every start
    assert list(doc)[0] == "$version" and doc["$version"] == 4
    assert doc["disableAllHooks"] is False
    [group] = doc["hooks"]["PreToolUse"]
    [hook] = group["hooks"]
    assert hook["command"] == handler.hook_command("qwen", "PreToolUse")
    assert hook["command"].startswith(F.ENV + " -u LD_PRELOAD ") and f" {F.PYTHON} -I -S " in hook["command"] and hook["command"].endswith("|| exit 2")
    assert hook["type"] == "command" and 0 < hook["timeout"] < 1000      # seconds, not ms
    st = (root / LAYER).lstat()
    assert st.st_uid == 0 and (st.st_mode & 0o7777) == 0o644
    assert (root / "etc/qwen-code").lstat().st_mode & 0o7777 == 0o755
    assert Q.layer_problems(text) == []
    assert org("uninstall", "--yes", "-t", "qwen", home=home, root=root) == 0
    after = snapshot_tree(root)
    assert {k: v for k, v in after.items() if not k.startswith("var/lib/agentdeck")} == before
    assert not (root / "etc/qwen-code").exists()


def test_an_administrator_s_own_system_file_is_kept_unless_taken_and_comes_back_byte_exact(
        home, root, capsys):
    (root / "etc/qwen-code").mkdir(mode=0o755)
    mine = '{\n  // the administrator\'s\n  "$version": 4,\n  "ui": {"hideTips": true}\n}\n'
    (root / LAYER).write_text(mine)
    (root / LAYER).chmod(0o644)
    before = snapshot_tree(root)
    assert org("plan", "-t", "qwen", home=home, root=root) == 2
    assert "foreign: keeping yours" in capsys.readouterr().out
    assert org("apply", "--yes", "-t", "qwen", home=home, root=root) == 0
    capsys.readouterr()
    assert (root / LAYER).read_text() == mine          # not taken without being asked
    assert org("apply", "--yes", "-t", "qwen", "--take", str(root / LAYER),
               home=home, root=root) == 0
    capsys.readouterr()
    assert json.loads((root / LAYER).read_text())["disableAllHooks"] is False
    assert org("uninstall", "--yes", "-t", "qwen", home=home, root=root) == 0
    after = snapshot_tree(root)
    assert {k: v for k, v in after.items() if not k.startswith("var/lib/agentdeck")} == before
    assert (root / LAYER).read_text() == mine


def test_the_doctor_flags_a_system_file_that_lost_its_pins(home, root, capsys):
    from agentdeck.core.doctor.context import Ctx
    from agentdeck.core.doctor.org_checks import findings
    from agentdeck.core.host import Host

    assert org("apply", "--yes", "-t", "qwen", home=home, root=root) == 0
    host = Host.from_environment(home, env={"HOME": str(home), "PATH": "/usr/bin:/bin",
                                            "AGENTDECK_ORG_ROOT": str(root)})
    [row] = [f for f in findings(Ctx(host=host)) if f.target == "qwen"]
    assert row.result == "ok", row.message
    doc = json.loads((root / LAYER).read_text())
    del doc["disableAllHooks"], doc["$version"]
    (root / LAYER).write_text(json.dumps(doc))
    bad = [f for f in findings(Ctx(host=host)) if f.target == "qwen" and f.result == "error"]
    text = " ".join(f.message for f in bad)
    assert "does not pin disableAllHooks: false" in text and "rewrites it on every start" in text


def test_the_plan_notes_what_qwen_cannot_hold(home, root, capsys):
    assert org("plan", "-t", "qwen", "--managed-hooks-only", "--no-bypass", "--mcp-deny", "fs",
               home=home, root=root) == 2
    out = capsys.readouterr().out
    for word in ("--bare", "--safe-mode", "QWEN_CODE_SYSTEM_SETTINGS_PATH",
                 "managed_hooks_only: Qwen Code has no such switch",
                 "no_bypass: Qwen Code has no switch", "MCP lists are not written"):
        assert word in out, (word, out)
    assert org("apply", "--yes", "-t", "qwen", "--managed-hooks-only", "--mcp-deny", "fs",
               home=home, root=root) == 0
    doc = json.loads((root / LAYER).read_text())
    assert set(doc) == {"$version", "disableAllHooks", "hooks"}     # nothing it cannot hold


def test_the_drill_tries_only_what_was_observed_to_hold():
    tries = Q.drill_attempts()
    for held in ("disableAllHooks", "project_disableAllHooks", "qwen_home", "yolo",
                 "user_allow_hook", "hooks_disabled_list"):
        assert ": holds" in Q.FACTS.attempts[held], held
    for beaten in ("bare", "safe_mode", "system_path_env", "extension_allow_hook"):
        assert "does NOT hold" in Q.FACTS.attempts[beaten], beaten
    words = " ".join(tries.words)
    for never in ("--bare", "--safe-mode", "QWEN_CODE_SIMPLE", "QWEN_CODE_SAFE_MODE",
                  "QWEN_CODE_SYSTEM_SETTINGS_PATH", "extension"):
        assert never not in words and never not in " ".join(tries.flags) + json.dumps(tries.env)
        assert any(never in lim for lim in Q.FACTS.limits), never
    user = json.loads(tries.files["settings.json"])
    project = json.loads(tries.work_files[".qwen/settings.json"])
    assert user["disableAllHooks"] is True and project["disableAllHooks"] is True
    for doc in (user, project):         # "$version" 4: Qwen leaves the attempt as written
        assert doc["$version"] == 4
        [g] = doc["hooks"]["PreToolUse"]
        assert json.loads(g["hooks"][0]["command"].split("'")[1])[
            "hookSpecificOutput"]["permissionDecision"] == "allow"
