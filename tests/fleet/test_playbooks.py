"""ansible-playbook on a fleet of local hosts, each with its own scratch home."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import snapshot_tree
from tests.fleet.conftest import COLLECTION, INSTALL_PLAYBOOK
from tests.safety.safety_helpers import diff_snapshots, home_snapshot

pytestmark = pytest.mark.fleet

# What an operator already has in a home before agentdeck: none of it is agentdeck's to manage,
# so the plan keeps it as it is and an uninstall must give it back byte for byte.
OPERATOR_FILES = {
    ".claude/settings.json": b'{\n  "model": "sonnet",\n  "env": {"MY_VAR": "1"}\n}\n',
    ".claude.json": b'{"numStartups": 12, "mcpServers": {"mine": {"command": "my-mcp"}}}\n',
    ".claude/CLAUDE.md": b"# My Claude notes\n",
    ".copilot/settings.json": b'{\n  // mine\n  "model": "gpt-5"\n}\n',
    ".codex/config.toml": b'model = "o4-mini"\n\n[mcp_servers.mine]\ncommand = "my-mcp"\n',
    ".codex/AGENTS.md": b"# My Codex notes\r\nNo final newline",
}


def seed(home: Path, files: dict[str, bytes] = OPERATOR_FILES) -> None:
    for rel, data in files.items():
        p = home / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)


def no_traceback(run) -> None:
    assert "Traceback" not in run.text, run.text
    assert "MODULE FAILURE" not in run.text, run.text


def test_check_diff_then_apply_then_rerun_then_absent(make_fleet):
    fleet = make_fleet("laptop", "runner", "devbox")
    seed(fleet.homes["runner"])
    seed(fleet.homes["devbox"], {".claude/settings.json": OPERATOR_FILES[".claude/settings.json"]})
    book = fleet.write_playbook("site.yml", INSTALL_PLAYBOOK)
    first = {n: snapshot_tree(h) for n, h in fleet.homes.items()}          # everything, state too
    pristine = {n: home_snapshot(h) for n, h in fleet.homes.items()}

    # check + diff: the changes are shown per file, and nothing at all is written
    run = fleet.play(book, "--check", "--diff")
    assert run.rc == 0, run.text
    no_traceback(run)
    res = run.results("agentdeck")
    assert set(res) == set(fleet.homes)
    for name, home in fleet.homes.items():
        r = res[name]
        assert r["status"] == "changed" and r["changed"] is True, r
        assert r["summary"].startswith("Plan:") and r["counts"]["changes_pending"] is True
        assert r["items"] and all(i["action"] != "none" for i in r["items"])
        paths = {d["after_header"] for d in r["diff"]}
        assert "~/.claude/settings.json" in paths, paths
        assert snapshot_tree(home) == first[name], f"check mode wrote to {name}'s home"
    # the play output shows the diff: the operator's own key is context, agentdeck's hooks added
    assert run.out.count("+++ after: ~/.claude/settings.json") == 3, run.out
    assert '"model": "sonnet"' in run.out and "agentdeck-hook.sh SessionStart" in run.out
    runner_settings = next(d for d in res["runner"]["diff"]
                           if d["after_header"] == "~/.claude/settings.json")
    assert runner_settings["before"] == OPERATOR_FILES[".claude/settings.json"].decode()
    assert '"model": "sonnet"' in runner_settings["after"] and "SessionStart" in runner_settings["after"]

    # a run changes each host and reports the items it applied
    run = fleet.play(book)
    assert run.rc == 0, run.text
    no_traceback(run)
    res = run.results("agentdeck")
    for name, home in fleet.homes.items():
        r = res[name]
        assert r["status"] == "changed", r
        assert str(home / ".claude" / "settings.json") in r["written"]
        assert {i["action"] for i in r["items"]} <= {"write", "remove", "record"}
        assert home_snapshot(home) != pristine[name]
        if name != "laptop":     # the operator's key is still there, next to agentdeck's
            assert json.loads((home / ".claude" / "settings.json").read_text())["model"] == "sonnet"
    installed = {n: snapshot_tree(h) for n, h in fleet.homes.items()}

    # a second run changes none, and writes nothing
    run = fleet.play(book)
    assert run.rc == 0, run.text
    res = run.results("agentdeck")
    assert all(r["status"] == "ok" and r["changed"] is False for r in res.values()), res
    assert all(r["summary"].startswith("No changes.") for r in res.values()), res
    for name, home in fleet.homes.items():
        assert snapshot_tree(home) == installed[name], name

    # state absent under --check: the removal is shown, nothing is written
    run = fleet.play(book, "--check", "--diff", extra={"agentdeck_state": "absent"})
    assert run.rc == 0, run.text
    res = run.results("agentdeck")
    for name, home in fleet.homes.items():
        assert res[name]["changed"] is True and res[name]["mode"] == "uninstall"
        assert any(d["after_header"].endswith("(absent)") for d in res[name]["diff"])
        assert snapshot_tree(home) == installed[name], name

    # state absent: every home back byte for byte (agentdeck's own state dir aside)
    run = fleet.play(book, extra={"agentdeck_state": "absent"})
    assert run.rc == 0, run.text
    no_traceback(run)
    assert all(r["status"] == "changed" for r in run.results("agentdeck").values())
    for name, home in fleet.homes.items():
        after = home_snapshot(home)
        assert after == pristine[name], diff_snapshots(pristine[name], after)
    run = fleet.play(book, extra={"agentdeck_state": "absent"})
    assert all(r["changed"] is False for r in run.results("agentdeck").values())


def test_a_malformed_settings_json_fails_that_host_alone(make_fleet):
    fleet = make_fleet("good", "bad", "other")
    bad = fleet.homes["bad"] / ".claude" / "settings.json"
    bad.parent.mkdir(parents=True)
    bad.write_text('{\n  "model": "sonnet",,\n}\n')
    before_bad = snapshot_tree(fleet.homes["bad"])
    run = fleet.play(fleet.write_playbook("site.yml", INSTALL_PLAYBOOK))
    assert run.rc == 2, run.text            # ansible-playbook: a host failed
    no_traceback(run)
    res = run.results("agentdeck")
    assert res["bad"]["status"] == "failed"
    msg = res["bad"]["msg"]
    assert msg.startswith("agentdeck: error: ") and "\n" not in msg, msg
    assert f"{bad}:2:" in msg, msg
    assert snapshot_tree(fleet.homes["bad"]) == before_bad
    for name in ("good", "other"):
        assert res[name]["status"] == "changed", res[name]
        assert (fleet.homes[name] / ".claude" / "settings.json").exists()
    assert msg in run.text        # the one line reaches the play output


def test_an_undecided_hand_edit_fails_the_task_until_decisions_names_it(make_fleet):
    fleet = make_fleet("edited", "clean")
    book = fleet.write_playbook("site.yml", INSTALL_PLAYBOOK)
    assert fleet.play(book).rc == 0
    settings = fleet.homes["edited"] / ".claude" / "settings.json"
    doc = json.loads(settings.read_text())
    doc["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 99      # an edit of agentdeck's key
    settings.write_text(json.dumps(doc, indent=2) + "\n")
    edited = snapshot_tree(fleet.homes["edited"])

    for mode in ((), ("--check",)):
        run = fleet.play(book, *mode)
        assert run.rc == 2, run.text
        no_traceback(run)
        res = run.results("agentdeck")
        assert res["edited"]["status"] == "failed"
        msg = res["edited"]["msg"]
        assert "needs a decision" in msg and "hook Stop in ~/.claude/settings.json" in msg, msg
        assert "changed by you since the last apply" in msg, msg      # the plan's reason
        assert [u["label"] for u in res["edited"]["undecided"]] == ["hook Stop"]
        stop_id = res["edited"]["undecided"][0]["id"]     # Claude's (Qwen has a "hook Stop" too)
        assert res["clean"]["status"] == "ok" and res["clean"]["changed"] is False
        assert snapshot_tree(fleet.homes["edited"]) == edited

    # keep: the hand-edit stays, nothing changes, the task passes
    run = fleet.play(book, extra={"agentdeck_decisions": {stop_id: "keep"}})
    assert run.rc == 0, run.text
    res = run.results("agentdeck")
    assert res["edited"]["status"] == "ok" and res["edited"]["changed"] is False, res["edited"]
    assert json.loads(settings.read_text())["hooks"]["Stop"][0]["hooks"][0]["timeout"] == 99

    # take, reviewed first: the diff shows the profile's value coming back
    run = fleet.play(book, "--check", "--diff", extra={"agentdeck_decisions": {stop_id: "take"}})
    assert run.rc == 0, run.text
    assert '-            "timeout": 99' in run.out and '+            "timeout": 30' in run.out
    run = fleet.play(book, extra={"agentdeck_decisions": {stop_id: "take"}})
    res = run.results("agentdeck")
    assert res["edited"]["status"] == "changed" and res["clean"]["changed"] is False
    assert json.loads(settings.read_text())["hooks"]["Stop"][0]["hooks"][0]["timeout"] == 30
    # and the decision, left in the playbook, is harmless once it is realized
    run = fleet.play(book, extra={"agentdeck_decisions": {stop_id: "take"}})
    assert run.rc == 0 and all(r["changed"] is False for r in run.results("agentdeck").values())


def _team_profile_repo(root: Path) -> Path:
    """A team's own git repository holding one profile (extends the bundled default)."""
    repo = root / "team-profile"
    (repo / "commands").mkdir(parents=True)
    (repo / "profile.toml").write_text(
        '[profile]\ndescription = "our team\'s setup"\nextends = ["default"]\n')
    (repo / "commands" / "standup.md").write_text(
        "---\ndescription: Summarise yesterday's commits for the standup.\n---\n"
        "List my commits since yesterday, grouped by repository.\n")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "team profile"], check=True)
    return repo


def test_rollout_from_the_teams_git_repo_and_the_drift_gate(make_fleet, tmp_path):
    fleet = make_fleet("alice", "bob")
    repo = _team_profile_repo(tmp_path)
    rollout = COLLECTION / "playbooks" / "rollout.yml"
    drift = COLLECTION / "playbooks" / "drift.yml"
    extra = {"agentdeck_profile_repo": f"file://{repo}", "agentdeck_install": False,
             "agentdeck_targets": ["claude"]}

    run = fleet.play(rollout, "--check", "--diff", extra=extra)
    assert run.rc == 0, run.text
    res = run.results("Plan and apply the profile")
    for name, home in fleet.homes.items():
        assert res[name]["changed"] is True and res[name]["profile"] == "team"
        assert "~/.claude/commands/standup.md" in {d["after_header"] for d in res[name]["diff"]}
        assert not (home / ".claude").exists()       # nothing of the CLI's written under --check

    run = fleet.play(rollout, extra=extra)
    assert run.rc == 0, run.text
    for name, home in fleet.homes.items():
        assert (home / ".claude" / "commands" / "standup.md").read_text().startswith("---")

    gate = {"agentdeck_profile": "team", "agentdeck_targets": ["claude"]}
    run = fleet.play(drift, "--check", extra=gate)
    assert run.rc == 0, run.text                      # every host in sync
    gate_task = "Fail when the host drifted from the profile"
    assert all(r["msg"].startswith("in sync: No changes.")
               for r in run.results(gate_task).values()), run.records

    # the team changes its profile, and bob's checkout gets it: bob drifted, alice did not
    bob_profile = fleet.homes["bob"] / ".config" / "agentdeck" / "profiles" / "team"
    (bob_profile / "commands" / "retro.md").write_text("Run our retro.\n")
    bob_before = snapshot_tree(fleet.homes["bob"])
    run = fleet.play(drift, "--check", extra=gate)
    assert run.rc == 2, run.text                      # the gate's exit status: drifted
    no_traceback(run)
    res = run.results(gate_task)
    assert res["bob"]["status"] == "failed" and res["alice"]["status"] == "ok", res
    assert res["bob"]["msg"].startswith("drifted: Plan: 1 to add"), res["bob"]["msg"]
    assert snapshot_tree(fleet.homes["bob"]) == bob_before
    # even without --check the gate writes nothing (its plan task is check_mode: true)
    run = fleet.play(drift, extra=gate)
    assert run.rc == 2 and snapshot_tree(fleet.homes["bob"]) == bob_before


def test_the_collection_builds_and_its_docs_load(make_fleet, tmp_path, ansible_playbook):
    fleet = make_fleet()
    env = fleet.env(tmp_path / "record.jsonl")
    galaxy = str(Path(ansible_playbook).with_name("ansible-galaxy"))
    r = subprocess.run([galaxy, "collection", "build", str(COLLECTION), "--output-path",
                        str(tmp_path / "dist")], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "dist" / "agentdeck-fleet-0.1.0.tar.gz").is_file()
    doc = str(Path(ansible_playbook).with_name("ansible-doc"))
    r = subprocess.run([doc, "--json", "agentdeck.fleet.install"], capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    spec = json.loads(r.stdout)["agentdeck.fleet.install"]["doc"]
    assert set(spec["options"]) == {"home", "profile", "targets", "state", "trust_hooks",
                                    "decisions", "executable", "scope", "root",
                                    "managed_hooks_only", "no_bypass"}
    for book in ("drift.yml", "rollout.yml"):
        r = subprocess.run([ansible_playbook, "--syntax-check", "-i", "localhost,",
                            str(COLLECTION / "playbooks" / book)], capture_output=True,
                           text=True, env=env, timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr


def test_activity_playbook_reads_each_host_s_audit_back(make_fleet, tmp_path, agentdeck_exe):
    """A hook fires on one host (through the wrapper agentdeck installed, into the real hook
    handler); agentdeck.fleet.activity brings its audit log (and `agentdeck activity --json`,
    when this agentdeck has that command) back to the controller."""
    import os
    import sys
    handler_dir = Path(sys.executable).parent
    if not (handler_dir / "agentdeck-hook").exists():
        pytest.skip("agentdeck-hook is not installed next to this Python")
    fleet = make_fleet("busy", "idle")
    assert fleet.play(fleet.write_playbook("site.yml", INSTALL_PLAYBOOK)).rc == 0
    busy = fleet.homes["busy"]
    payload = {"session_id": "s-1", "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": "git status"}, "cwd": str(busy)}
    env = {"PATH": f"{handler_dir}:/usr/bin:/bin", "HOME": str(busy)}
    r = subprocess.run([str(busy / ".claude" / "agentdeck-hook.sh"), "PreToolUse"],
                       input=json.dumps(payload), capture_output=True, text=True, env=env,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    has_activity = subprocess.run([agentdeck_exe, "activity", "--help"], capture_output=True,
                                  env={**os.environ, "HOME": str(tmp_path)}).returncode == 0
    fetched = tmp_path / "fetched"
    run = fleet.play(COLLECTION / "playbooks" / "activity.yml",
                     extra={"agentdeck_fetch_dir": str(fetched),
                            "agentdeck_use_activity": has_activity})
    assert run.rc == 0, run.text
    no_traceback(run)
    records = [json.loads(ln) for ln in (fetched / "busy.jsonl").read_text().splitlines()]
    assert [(x["event"], x["target"], x["tools"][0]["name"]) for x in records] == [
        ("pre_tool_use", "claude", "Bash")]
    assert not (fetched / "idle.jsonl").exists()
    if has_activity:    # what the playbook shows per host is what the CLI prints there
        shown = run.results("Show them")
        for name, home in fleet.homes.items():
            r = subprocess.run([agentdeck_exe, "activity", "--json", "--home", str(home)],
                               capture_output=True, text=True,
                               env={**os.environ, "HOME": str(tmp_path)}, timeout=60)
            assert r.returncode == 0, r.stderr
            direct = [json.loads(ln) for ln in r.stdout.splitlines() if ln.strip()]
            assert shown[name]["msg"] == direct, (name, shown[name])
        assert shown["idle"]["msg"] == []
        assert [x.get("tool_name") for x in shown["busy"]["msg"]] == ["Bash"], shown["busy"]


def test_the_guard_fails_a_host_whose_enforcement_weakened(make_fleet):
    """agentdeck.fleet.guard: the first run keeps each host's report; under --check an unchanged
    host passes and nothing is written; a host where a layer that switches the hooks off
    appeared (Claude Code's ~/.claude/settings.local.json with disableAllHooks) fails with why."""
    fleet = make_fleet("steady", "tampered")
    install = fleet.write_playbook("site.yml", INSTALL_PLAYBOOK)
    assert fleet.play(install).rc == 0
    guard = COLLECTION / "playbooks" / "guard.yml"
    gate = "Fail when the host's enforcement weakened since the last run"

    run = fleet.play(guard)                       # the first run: nothing to compare, kept
    assert run.rc == 0, run.text
    no_traceback(run)
    for home in fleet.homes.values():
        kept = home / ".local" / "state" / "agentdeck" / "fleet-guard.json"
        assert json.loads(kept.read_text())["verdicts"]
    before = {n: snapshot_tree(h) for n, h in fleet.homes.items()}

    run = fleet.play(guard, "--check")            # unchanged: both pass, nothing written
    assert run.rc == 0, run.text
    assert {r["status"] for r in run.results(gate).values()} == {"ok"}
    assert {n: snapshot_tree(h) for n, h in fleet.homes.items()} == before

    local = fleet.homes["tampered"] / ".claude" / "settings.local.json"
    local.write_text('{"disableAllHooks": true}\n')
    tampered = snapshot_tree(fleet.homes["tampered"])
    run = fleet.play(guard, "--check")
    assert run.rc == 2, run.text
    no_traceback(run)
    res = run.results(gate)
    assert res["steady"]["status"] == "ok" and res["tampered"]["status"] == "failed", res
    assert "weakened: " in res["tampered"]["msg"], res["tampered"]["msg"]
    assert "~/.claude/settings.local.json" in res["tampered"]["msg"], res["tampered"]["msg"]
    assert snapshot_tree(fleet.homes["tampered"]) == tampered     # --check wrote nothing
