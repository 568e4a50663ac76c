"""agentdeck.fleet.install in-process, with ansible-core's own test helper
(ansible.module_utils.testing.patch_module_args), against scratch homes and the real CLI."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ci_rule import missing_tool
from tests.conftest import snapshot_tree
from tests.fleet.conftest import MODULE_PATH, SKIP_REASON

pytestmark = pytest.mark.fleet


@pytest.fixture(scope="module")
def testing():
    """ansible-core's own unit-test helper (2.19 and later); each test skips without it, or
    under CI fails (a fixture, not a module-level skip: a failure at import would stop the
    whole run's collection)."""
    try:   # local: ansible-core is optional, and this module is collected without it
        from ansible.module_utils import testing
    except ImportError:
        missing_tool(SKIP_REASON + " (or it is older than 2.19, which has no "
                     "ansible.module_utils.testing)")
    return testing


@pytest.fixture(scope="module")
def mod(testing):
    spec = importlib.util.spec_from_file_location("agentdeck_fleet_install", MODULE_PATH)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


@pytest.fixture
def call(mod, testing, capsys, agentdeck_exe, tmp_path):
    """Run the module with these options; returns its result."""
    remote_tmp = tmp_path / "ansible-remote-tmp"
    remote_tmp.mkdir()
    def run(check=False, diff=False, **params):
        params.setdefault("executable", agentdeck_exe)
        args = dict(params, _ansible_check_mode=check, _ansible_diff=diff,
                    _ansible_remote_tmp=str(remote_tmp), _ansible_tmpdir=str(remote_tmp))
        capsys.readouterr()
        with testing.patch_module_args(args):
            with pytest.raises(SystemExit) as e:
                mod.main()
        out = capsys.readouterr().out
        result = json.loads(out)
        assert (e.value.code != 0) == bool(result.get("failed")), result
        return result
    return run


def script(tmp_path: Path, name: str, body: str) -> str:
    p = tmp_path / name
    p.write_text(body)
    p.chmod(0o755)
    return str(p)


def test_check_then_apply_then_nothing_to_do(call, home):
    before = snapshot_tree(home)
    r = call(check=True, diff=True, home=str(home), targets=["codex"])
    assert r["changed"] is True and not r.get("failed"), r
    assert snapshot_tree(home) == before, "check mode wrote something"
    headers = {d["before_header"]: d for d in r["diff"]}
    assert "~/.codex/config.toml (absent)" in headers
    cfg = headers["~/.codex/config.toml (absent)"]
    assert cfg["before"] == "" and "[mcp_servers.memory]" in cfg["after"]
    planned = {i["id"] for i in r["items"]}

    r = call(home=str(home), targets=["codex"])
    assert r["changed"] is True and str(home / ".codex" / "config.toml") in r["written"]
    assert {i["id"] for i in r["items"]} == planned, "applied other items than were planned"
    assert (home / ".codex" / "config.toml").read_text() == cfg["after"]

    r = call(home=str(home), targets=["codex"])
    assert r["changed"] is False and r["items"] == [] and r["summary"].startswith("No changes")


def test_a_home_changed_between_plan_and_apply_is_refused(call, home, tmp_path, agentdeck_exe):
    """The module hands the plan it computed to `apply --plan -`: agentdeck's own stale-plan
    protection refuses when a file changed in between (here, just before apply starts)."""
    persona = home / ".claude" / "CLAUDE.md"
    racer = script(tmp_path, "racing-agentdeck",
                   f'#!/bin/sh\nif [ "$1" = apply ]; then mkdir -p {persona.parent} && '
                   f'echo "written by someone else" > {persona}; fi\nexec {agentdeck_exe} "$@"\n')
    r = call(home=str(home), targets=["claude"], executable=racer)
    assert r["failed"] is True
    assert r["msg"].startswith("agentdeck: error: the plan computed now is not the one in -: "
                               "~/.claude/CLAUDE.md changed on disk"), r["msg"]
    assert "nothing was written" in r["msg"]
    tree = snapshot_tree(home)
    assert set(tree) == {".claude", ".claude/CLAUDE.md"}, sorted(tree)     # only the racer's write


def test_decisions_choose_per_item_and_a_bad_one_fails(call, home, agentdeck_exe):
    assert call(home=str(home), targets=["claude"])["changed"] is True
    cmd = home / ".claude" / "commands" / "review.md"
    cmd.write_text("my own review command\n")
    r = call(home=str(home), targets=["claude"])
    assert r["failed"] and "command /review in ~/.claude/commands/review.md (hand-edited)" in r["msg"]
    r = call(home=str(home), targets=["claude"], decisions={"~/.claude/commands/review.md": "keep"})
    assert not r.get("failed") and r["changed"] is False
    r = call(home=str(home), targets=["claude"], decisions={"command /review": "take"}, check=True,
             diff=True)
    assert r["changed"] is True and [d["after_header"] for d in r["diff"]] == [
        "~/.claude/commands/review.md"]
    assert r["diff"][0]["before"] == "my own review command\n"
    r = call(home=str(home), targets=["claude"], decisions={"review.md": "maybe"})
    assert r["failed"] and r["msg"] == "decisions: 'review.md': 'maybe' is not keep, take or skip"
    # the count is the plan's own: every item whose id or label names a hook
    doc = json.loads(subprocess.run([agentdeck_exe, "--home", str(home), "plan", "--json",
                                     "--target", "claude"], capture_output=True, text=True,
                                    check=True).stdout)
    hooks = [it for it in doc["items"] if "hook" in it["id"].lower()
             or "hook" in (it.get("label") or "").lower()]
    assert len(hooks) > 1
    r = call(home=str(home), targets=["claude"], decisions={"hook": "keep"})
    assert r["failed"] and f"'hook' matches {len(hooks)} items of this host's plan" in r["msg"], \
        r["msg"]
    r = call(home=str(home), targets=["claude"], decisions={"no-such-item": "keep",
                                                             "review.md": "skip"})
    assert not r.get("failed") and r["changed"] is False
    # (ansible-core 2.19 returns structured warnings; older ones a list of strings)
    assert "'no-such-item' names no item of this host's plan" in json.dumps(r["warnings"]), r


def test_keep_on_a_planned_change_leaves_it_out(call, home):
    r = call(home=str(home), targets=["claude"], decisions={"agent reviewer": "keep"})
    assert r["changed"] is True
    assert not (home / ".claude" / "agents" / "reviewer.md").exists()
    assert (home / ".claude" / "commands" / "review.md").exists()
    r = call(home=str(home), targets=["claude"], decisions={"agent reviewer": "keep"})
    assert r["changed"] is False


@pytest.mark.parametrize("choices,decision,flag", [
    (["keep", "take"], "keep", "keep"), (["keep", "take"], "take", "take"),
    (["keep", "take"], "skip", "keep"), (["apply", "skip"], "take", ""),
    (["apply", "skip"], "keep", "skip"), (["apply", "skip"], "skip", "skip"),
    (["apply"], "take", ""), (["apply"], "keep", None), (["keep"], "take", None),
])
def test_a_decision_maps_onto_the_item_s_choices(mod, choices, decision, flag):
    assert mod.flag_for({"choices": choices}, decision) == flag


def test_state_absent_puts_the_home_back(call, home):
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text('model = "o4-mini"\n')
    before = snapshot_tree(home)
    assert call(home=str(home), targets=["codex"])["changed"] is True
    r = call(home=str(home), targets=["codex"], state="absent", check=True, diff=True)
    assert r["changed"] is True and r["mode"] == "uninstall"
    d = next(d for d in r["diff"] if d["after_header"] == "~/.codex/config.toml")
    assert d["after"] == 'model = "o4-mini"\n'
    r = call(home=str(home), targets=["codex"], state="absent")
    assert r["changed"] is True and r["removed"]
    after = {k: v for k, v in snapshot_tree(home).items() if not k.startswith(".local")}
    assert after == {k: v for k, v in before.items()}
    assert call(home=str(home), targets=["codex"], state="absent")["changed"] is False


@pytest.mark.parametrize("case", ["no-home", "bad-profile", "bad-target", "malformed"])
def test_bad_input_fails_with_agentdeck_s_one_line_error(call, home, case):
    params = {"home": str(home)}
    if case == "no-home":
        params["home"] = str(home / "missing")
        expect = f"agentdeck: error: --home {home / 'missing'} does not exist"
    elif case == "bad-profile":
        params["profile"] = "no-such-profile"
        expect = "agentdeck: error: "
    elif case == "bad-target":
        params["targets"] = ["vim"]
        expect = "agentdeck: error: unknown target 'vim'"
    else:
        (home / ".codex").mkdir()
        (home / ".codex" / "config.toml").write_text("[broken\n")
        # only Codex has a home here, so the plan covers Codex alone (core.scopes.COVERAGE):
        # the one-line error names the file, line and column
        expect = f"agentdeck: error: {home / '.codex' / 'config.toml'}:1:"
    before = snapshot_tree(home)
    r = call(**params)
    assert r["failed"] is True and r["msg"].startswith(expect), r["msg"]
    assert "\n" not in r["msg"] and "Traceback" not in json.dumps(r)
    assert snapshot_tree(home) == before


def test_a_broken_agentdeck_never_shows_a_traceback(call, home, tmp_path):
    crash = script(tmp_path, "crashing", f"#!{sys.executable}\nraise RuntimeError('boom')\n")
    r = call(home=str(home), executable=crash)
    assert r["failed"] and r["msg"] == "agentdeck failed (exit 1): RuntimeError: boom"
    assert "Traceback" not in json.dumps(r)
    chatty = script(tmp_path, "chatty", "#!/bin/sh\necho hello\n")
    r = call(home=str(home), executable=chatty)
    assert r["failed"] and r["msg"] == "agentdeck plan --json printed no JSON document (exit 0)"


def test_agentdeck_not_installed(call, home, tmp_path, monkeypatch):
    r = call(home=str(home), executable=str(tmp_path / "nowhere" / "agentdeck"))
    assert r["failed"] and r["msg"].startswith("agentdeck is not at ")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    r = call(home=str(home), executable=None)
    assert r["failed"] and r["msg"].startswith("agentdeck is not installed on this host")


def test_the_diff_and_the_result_never_carry_a_literal_credential(call, home):
    """A literal token in the operator's profile (agentdeck warns and writes the file 0600): the
    check-mode result, its diff included, shows it redacted, as the text plan shows it only as
    an excerpt."""
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    prof = home / ".config" / "agentdeck" / "profiles" / "tok"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["default"]\n')
    (prof / "copilot").mkdir()     # corp on: Claude Code gets a server that is off not at all
    (prof / "copilot" / "settings.json").write_text(json.dumps(
        {"_agentdeck": {"mcpAlwaysEnabled": ["memory", "corp"]}}))
    (prof / "mcp.json").write_text(json.dumps({"mcpServers": {"corp": {
        "type": "http", "url": "https://mcp.example.com/",
        "headers": {"Authorization": f"Bearer {token}"}}}}))
    r = call(check=True, diff=True, home=str(home), profile="tok", targets=["claude"])
    assert r["changed"] is True and not r.get("failed"), r
    claude_json = next(d for d in r["diff"] if d["after_header"] == "~/.claude.json")
    # a value under a secret-sounding name (Authorization) is redacted whole in the diff texts
    assert '"Authorization": "[REDACTED:named]"' in claude_json["after"]
    assert token not in json.dumps(r)
    r = call(home=str(home), profile="tok", targets=["claude"])
    # the redacted plan document is still the plan `apply --plan` accepts
    assert r["changed"] is True and not r.get("failed"), r
    assert token not in json.dumps(r)
    assert token in (home / ".claude.json").read_text()      # the file itself holds it (0600)
    assert (home / ".claude.json").stat().st_mode & 0o777 == 0o600


def test_an_agentdeck_too_old_for_the_module_says_so(call, home, tmp_path):
    old = script(tmp_path, "old-agentdeck",
                 "#!/bin/sh\necho 'usage: agentdeck plan [-h] [--home DIR]' >&2\n"
                 "echo 'agentdeck plan: error: unrecognized arguments: --diff' >&2\nexit 2\n")
    r = call(home=str(home), executable=old, diff=True)
    assert r["failed"] and r["msg"].startswith(
        "agentdeck plan: error: unrecognized arguments: --diff (the agentdeck on this host is "
        "too old for this module"), r["msg"]


def test_state_absent_asks_about_a_hand_edit_too(call, home):
    """Uninstalling keeps a key you changed since agentdeck wrote it: on a fleet that is a
    decision too (keep: it stays, no longer managed; take: agentdeck's removal goes ahead)."""
    assert call(home=str(home), targets=["claude"])["changed"] is True
    settings = home / ".claude" / "settings.json"
    doc = json.loads(settings.read_text())
    doc["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 99
    settings.write_text(json.dumps(doc, indent=2) + "\n")
    r = call(home=str(home), targets=["claude"], state="absent")
    assert r["failed"] and "hook Stop in ~/.claude/settings.json (hand-edited)" in r["msg"], r
    assert json.loads(settings.read_text())["hooks"]["Stop"][0]["hooks"][0]["timeout"] == 99
    assert (home / ".claude" / "CLAUDE.md").exists(), "a failed task removed something"
    r = call(home=str(home), targets=["claude"], state="absent", decisions={"hook Stop": "keep"})
    assert r["changed"] is True and not r.get("failed"), r
    assert not (home / ".claude" / "CLAUDE.md").exists()
    left = json.loads(settings.read_text())["hooks"]
    assert list(left) == ["Stop"] and left["Stop"][0]["hooks"][0]["timeout"] == 99


def test_an_undecided_conflict_fails_and_a_decision_settles_it(call, home):
    """disableAllHooks is pinned: the operator's true is a conflict, never a silent keep."""
    settings = home / ".copilot" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  "disableAllHooks": true\n}\n')
    before = snapshot_tree(home)
    for check in (True, False):
        r = call(home=str(home), targets=["copilot"], check=check)
        assert r["failed"], r
        assert "disableAllHooks in ~/.copilot/settings.json (conflict)" in r["msg"], r["msg"]
        assert [u["class"] for u in r["undecided"]] == ["conflict"]
        assert snapshot_tree(home) == before
    r = call(home=str(home), targets=["copilot"], decisions={"disableAllHooks": "take"})
    assert r["changed"] is True and not r.get("failed"), r
    assert json.loads(settings.read_text())["disableAllHooks"] is False
    r = call(home=str(home), targets=["copilot"], decisions={"disableAllHooks": "take"})
    assert r["changed"] is False and not r.get("failed"), r


def test_scope_org_check_is_the_plan_apply_then_nothing_then_absent_byte_exact(call, home,
                                                                               tmp_path):
    """scope: org (as root, under a temporary root prefix: never the machine's /etc)."""
    import os

    root = tmp_path / "root"
    for d in ("etc/codex", "usr/local/lib", "var/lib"):
        (root / d).mkdir(parents=True)
    for dirpath, dirnames, _ in os.walk(root):
        os.chmod(dirpath, 0o755)
    (root / "etc/codex/requirements.toml").write_text('allowed_approval_policies = ["never"]\n')
    before = snapshot_tree(root)
    r = call(check=True, diff=True, home=str(home), scope="org", root=str(root))
    assert r["changed"] is True and not r.get("failed"), r
    assert snapshot_tree(root) == before, "check mode wrote something"
    assert any(d["before_header"].endswith("etc/codex/requirements.toml") for d in r["diff"])
    r = call(home=str(home), scope="org", root=str(root))
    assert r["changed"] is True and not r.get("failed"), r
    assert "agentdeck org layer" in (root / "etc/codex/requirements.toml").read_text()
    r = call(home=str(home), scope="org", root=str(root))
    assert r["changed"] is False, r
    r = call(home=str(home), scope="org", root=str(root), state="absent")
    assert r["changed"] is True and not r.get("failed"), r
    after = {k: v for k, v in snapshot_tree(root).items() if not k.startswith("var/lib/agentdeck")}
    assert after == before
    r = call(home=str(home), scope="org", root=str(root), trust_hooks=True)
    assert r["failed"] and "trust_hooks does not apply with scope=org" in r["msg"]
