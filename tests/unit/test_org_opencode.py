"""OpenCode's org layer (core/targets/opencode/org.py) against a temporary root prefix, never the
machine's /etc: the managed opencode.json naming agentdeck's org plugin (the org hook's command as
its options) and the plugin beside it, an empty plan after, uninstall byte-exact with and without
an administrator's own file, the plugin itself run under node (it throws unless the command exits
0, and fails closed without a command or past its timeout), the doctor's row (the plugin file in
the ownership check, a file that no longer names the plugin, what undoes it for this user), `org
status` naming what undoes it, the plan's notes, and a drill that tries only what holds. That
OpenCode itself loads and obeys the plugin is tests/clients/test_org_real.py's."""
from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from agentdeck.core.org import handler
from agentdeck.core.targets.opencode import org as O
from agentdeck.core.targets.opencode.facts import OPENCODE
from tests.ci_rule import missing_tool
from tests.conftest import snapshot_tree
from tests.unit.test_org import org, root  # noqa: F401 (fixture)

LAYER = O.FACTS.path.lstrip("/")
PLUGIN = O.PLUGIN.lstrip("/")


def test_the_managed_file_names_the_org_plugin_with_the_org_hook_as_its_options(home, root,
                                                                               capsys):
    before = snapshot_tree(root)
    assert org("apply", "--yes", "-t", "opencode", home=home, root=root) == 0
    capsys.readouterr()
    assert org("plan", "-t", "opencode", home=home, root=root) == 0     # empty right after
    text = (root / LAYER).read_text()
    doc = json.loads(text)
    assert doc[OPENCODE.schema_key] == OPENCODE.schema_url       # OpenCode would write it
    [[spec, options]] = doc["plugin"]
    assert spec == "file:///etc/opencode/agentdeck-org.js" == O.PLUGIN_SPEC
    assert options["command"] == handler.hook_command("opencode", O.FACTS.pre_tool_event)
    assert options["command"].endswith("|| exit 2") and options["timeout_ms"] >= 1000
    assert (root / PLUGIN).read_text() == O.plugin_text()
    for rel in (LAYER, PLUGIN):
        st = (root / rel).lstat()
        assert st.st_uid == 0 and (st.st_mode & 0o7777) == 0o644, rel
    assert O.layer_problems(text) == []
    assert org("uninstall", "--yes", "-t", "opencode", home=home, root=root) == 0
    after = snapshot_tree(root)
    assert {k: v for k, v in after.items() if not k.startswith("var/lib/agentdeck")} == before
    assert not (root / "etc/opencode").exists()


@pytest.fixture
def needs_node() -> None:
    """node runs the plugin (CI has it: .ci/run's machine); missing, the CI rule decides."""
    if shutil.which("node") is None:
        missing_tool("node is not on PATH (the org plugin is run under it)")


def _run_plugin(tmp_path, options: dict | None, args: dict) -> dict:
    """The org plugin's tool.execute.before under node (OpenCode's runtime is Bun; the plugin
    uses node:child_process only): {"ok": true} or {"thrown": message}."""
    (tmp_path / "org.mjs").write_text(O.plugin_text())
    driver = tmp_path / "drive.mjs"
    driver.write_text(
        "import { AgentdeckOrg } from './org.mjs';\n"
        f"const hooks = await AgentdeckOrg({{directory: '/w', worktree: '/'}}, "
        f"{json.dumps(options)});\n"
        "try {\n"
        "  await hooks['tool.execute.before']({tool: 'bash', sessionID: 's', callID: 'c'}, "
        f"{{args: {json.dumps(args)}}});\n"
        "  console.log(JSON.stringify({ok: true}));\n"
        "} catch (e) { console.log(JSON.stringify({thrown: e.message})); }\n")
    r = subprocess.run(["node", str(driver)], capture_output=True, text=True, timeout=60)
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.usefixtures("needs_node")
def test_the_org_plugin_sends_the_call_and_throws_unless_the_org_hook_allows(tmp_path):
    seen = tmp_path / "seen.json"
    allow = {"command": f"cat > {seen}", "timeout_ms": 5000}
    assert _run_plugin(tmp_path, allow, {"command": "ls"}) == {"ok": True}
    payload = json.loads(seen.read_text())
    assert payload["hook_event_name"] == O.FACTS.pre_tool_event and payload["call_id"] == "c"
    assert payload["tool_name"] == "bash" and payload["tool_input"] == {"command": "ls"}
    deny = {"command": "cat >/dev/null; echo 'agentdeck: denied by rule x' >&2; exit 2",
            "timeout_ms": 5000}
    assert _run_plugin(tmp_path, deny, {}) == {"thrown": "agentdeck: denied by rule x"}
    # fails closed: no command, a command that cannot start, one that runs past the timeout
    assert "command is missing" in _run_plugin(tmp_path, None, {})["thrown"]
    gone = _run_plugin(tmp_path, {"command": "/nonexistent/x"}, {})
    assert "thrown" in gone and "/nonexistent/x" in gone["thrown"], gone    # sh's reason
    slow = _run_plugin(tmp_path, {"command": "sleep 5", "timeout_ms": 300}, {})
    assert "could not decide" in slow["thrown"], slow


def test_an_administrator_s_own_managed_file_is_kept_unless_taken_and_comes_back_byte_exact(
        home, root, capsys):
    (root / "etc/opencode").mkdir(mode=0o755)
    mine = '{\n  // the administrator\'s\n  "share": "disabled"\n}\n'
    (root / LAYER).write_text(mine)
    (root / LAYER).chmod(0o644)
    before = snapshot_tree(root)
    assert org("plan", "-t", "opencode", home=home, root=root) == 2
    assert "foreign: keeping yours" in capsys.readouterr().out
    assert org("apply", "--yes", "-t", "opencode", home=home, root=root) == 0
    capsys.readouterr()
    assert (root / LAYER).read_text() == mine          # not taken without being asked
    assert org("status", "-t", "opencode", home=home, root=root) == 2
    assert "not in effect" in capsys.readouterr().out
    assert org("apply", "--yes", "-t", "opencode", "--take", str(root / LAYER),
               home=home, root=root) == 0
    capsys.readouterr()
    assert O._entry(json.loads((root / LAYER).read_text())) is not None
    assert org("uninstall", "--yes", "-t", "opencode", home=home, root=root) == 0
    after = snapshot_tree(root)
    assert {k: v for k, v in after.items() if not k.startswith("var/lib/agentdeck")} == before
    assert (root / LAYER).read_text() == mine


def test_org_status_names_what_still_undoes_the_plugin(home, root, capsys):
    assert org("apply", "--yes", "-t", "opencode", home=home, root=root) == 0
    capsys.readouterr()
    assert org("status", "-t", "opencode", home=home, root=root) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("opencode") and "in sync" in line and O.FACTS.verified in line
    for what in ("--pure", "OPENCODE_PURE", "OPENCODE_TEST_MANAGED_CONFIG_DIR"):
        assert what in line, line
    assert org("status", "-t", "opencode", "--json", home=home, root=root) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert set(row["undone_by"]) == set(O.FACTS.undone_by) and row["state"] == "in sync"


def _rows(home, root, **env):
    from agentdeck.core.doctor.context import Ctx
    from agentdeck.core.doctor.org_checks import findings
    from agentdeck.core.host import Host

    base = {"HOME": str(home), "PATH": "/usr/bin:/bin", "AGENTDECK_ORG_ROOT": str(root)}
    host = Host.from_environment(home, env={**base, **env})
    return [f for f in findings(Ctx(host=host)) if f.target == "opencode"]


def test_the_doctor_names_what_undoes_the_plugin_and_checks_the_plugin_file(home, root, capsys):
    assert org("apply", "--yes", "-t", "opencode", home=home, root=root) == 0
    [row] = _rows(home, root)
    assert row.result == "ok", row
    assert f"OpenCode {O.FACTS.verified} (observed)" in row.message
    for what in O.FACTS.undone_by:
        assert what in row.message, what
    # the user's own switches: an error each, no ok line beside them
    rows = _rows(home, root, OPENCODE_PURE="1", OPENCODE_TEST_MANAGED_CONFIG_DIR="/home/u/m")
    assert {f.result for f in rows} == {"error"}, rows
    bad = " ".join(f.message for f in rows)
    assert "OPENCODE_PURE=1 is set" in bad and "/home/u/m" in bad, bad
    assert {f.result for f in _rows(home, root, OPENCODE_PURE="0")} == {"ok"}
    # the plugin the managed file runs is under the ownership rule too
    (root / PLUGIN).chmod(0o666)
    bad = [f for f in _rows(home, root) if f.result == "error"]
    assert any(PLUGIN in f.message for f in bad), bad
    (root / PLUGIN).chmod(0o644)
    # a managed file that no longer names the plugin
    (root / LAYER).write_text(json.dumps({"plugin": [], "x": handler.hook_command(
        "opencode", O.FACTS.pre_tool_event)}))
    bad = [f for f in _rows(home, root) if f.result == "error"]
    assert any("does not name the org plugin" in f.message for f in bad), bad


def test_the_plan_notes_what_opencode_cannot_hold(home, root, capsys):
    assert org("plan", "-t", "opencode", "--managed-hooks-only", "--no-bypass", "--mcp-deny",
               "fs", home=home, root=root) == 2
    out = capsys.readouterr().out
    for word in ("--pure", "OPENCODE_PURE", "OPENCODE_TEST_MANAGED_CONFIG_DIR",
                 "no permission rule is written", "managed_hooks_only: OpenCode has no such",
                 "no_bypass: OpenCode has no bypass mode", "mcp_allowed is not written"):
        assert word in out, (word, out)


def test_org_mcp_denied_is_each_name_s_enabled_false_in_the_managed_file(home, root, capsys):
    """A real turn holding it: tests/clients/test_org_mcp_real.py."""
    flags = ("--mcp-deny", "fs", "--mcp-deny", "web")
    assert org("apply", "--yes", "-t", "opencode", *flags, home=home, root=root) == 0
    capsys.readouterr()
    assert org("plan", "-t", "opencode", *flags, home=home, root=root) == 0
    assert "Everything is in sync" in capsys.readouterr().out
    doc = json.loads((root / LAYER).read_text())
    assert doc["mcp"] == {"fs": {"enabled": False}, "web": {"enabled": False}}


def test_the_drill_tries_only_what_was_observed_to_hold():
    tries = O.drill_attempts()
    held = [k for k, v in O.FACTS.attempts.items() if ": holds" in v]
    beaten = [k for k, v in O.FACTS.attempts.items() if "does NOT hold" in v]
    assert held and beaten and len(held) + len(beaten) == len(O.FACTS.attempts)
    blob = json.dumps([tries.files, tries.work_files, tries.env, tries.flags])
    for what in O.FACTS.undone_by:                    # what beats it is no attempt
        assert what not in blob, what
    user = json.loads(tries.files[OPENCODE.config_file])
    assert user["plugin"] == [] and json.loads(tries.env[OPENCODE.permission_env]) == {"*": "allow"}
    assert "package-lock.json" in tries.files          # no start-up npm install in the turn
