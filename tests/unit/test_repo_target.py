"""Repository scope (agentdeck.core.targets.repo + engine.build_repo_plan): one hook file for Copilot CLI,
VS Code agent mode and the Copilot cloud agent, a committed wrapper, the optional cloud setup
step, and the manifest kept in the state dir. The repository is a folder under tmp_path; the
home is the `host` fixture's."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentdeck.core import engine
from agentdeck.core.errors import UserError
from agentdeck.core.targets.copilot.facts import COPILOT, copilot_disable_key, resolve_event
from agentdeck.core.targets import repo as R
from agentdeck.core.targets.output import RepoReport
from agentdeck.core.targets.copilot import repo as CR   # the carrier of the repository hook file
from tests.target_homes import target_home


@pytest.fixture
def repo(tmp_path) -> Path:
    d = tmp_path / "repo"
    d.mkdir()
    (d / ".git").mkdir()          # enough for "is a repository"; git itself is not needed here
    return d


def report(plan) -> RepoReport:
    """The repository plan's typed report."""
    got = plan.output["repo"].repo
    assert got is not None
    return got


def apply(host, plan):
    res = engine.apply_plan(host, plan)
    assert res.ok, res.leftover
    return res


# ---- the event spelling, checked against the facts tables ----------------------------------
def test_every_registered_event_gets_a_key_all_three_readers_accept():
    for event in COPILOT.register_events:
        key = R.event_key(event)
        # Copilot CLI: the key is accepted and means this event (an alias, not a dropped name)
        assert resolve_event(key) == (event, key), (event, key)
        assert key in COPILOT.pascal_aliases and key not in COPILOT.dropped_event_names
        # VS Code: its events are PascalCase; whatever it fires is spelled its way
        assert key[0].isupper()
        assert key not in R.REJECTED_KEYS
    assert R.event_key("agentStop") == "Stop"               # never AgentStop
    assert R.event_key("userPromptSubmitted") == "UserPromptSubmit"
    vscode_fired = {R.event_key(e) for e in COPILOT.register_events} & set(CR.VSCODE_EVENTS)
    assert vscode_fired == set(CR.VSCODE_EVENTS)             # all 8 of VS Code's events are covered


def test_rejected_keys_are_the_facts_dropped_names():
    for bad, good in R.REJECTED_KEYS.items():
        assert bad in COPILOT.dropped_event_names
        assert resolve_event(bad) is None
        assert resolve_event(good) is not None


def test_reader_view_per_event():
    v = R.reader_view("preToolUse", "PreToolUse")
    assert v["copilot-cli"] == {"fires": True, "dialect": "copilot-pascal", "note": "in a trusted folder"}
    assert v["vscode"]["fires"] and v["vscode"]["dialect"] == "vscode"
    assert "matchers ignored" in v["vscode"]["note"]
    assert v["cloud-agent"]["fires"] and "deny" in v["cloud-agent"]["note"]
    for ev in ("permissionRequest", "notification"):
        v = R.reader_view(ev, R.event_key(ev))
        assert not v["cloud-agent"]["fires"] and "never fires" in v["cloud-agent"]["note"]
        assert not v["vscode"]["fires"]
    assert not R.reader_view("sessionEnd", "SessionEnd")["vscode"]["fires"]
    assert R.reader_view("agentStop", "Stop")["vscode"]["fires"]


# ---- plan, apply, idempotence, uninstall ----------------------------------------------------
def test_fresh_repo_plan_apply_and_files(ghost, repo):
    plan = engine.build_repo_plan(ghost, repo, "default")
    assert plan.targets == ["repo"]
    # the default profile's [policy] rules travel with the hooks: a committed file
    assert {i.label.split(" ")[0] for i in plan.items} == {R.HOOKS_FILE, R.WRAPPER, "compiled"}
    assert all(i.cls == "create" for i in plan.items)
    apply(ghost, plan)
    wrapper = repo / R.WRAPPER
    assert os.stat(wrapper).st_mode & 0o777 == 0o755
    data = json.loads((repo / R.HOOKS_FILE).read_text())
    assert data["version"] == 1
    assert list(data["hooks"]) == [R.event_key(e) for e in COPILOT.register_events]
    for key, [action] in data["hooks"].items():
        assert action == {"type": "command", "bash": f".github/hooks/agentdeck-hook.sh {key}",
                          "cwd": ".", "timeoutSec": 30}
    # nothing in the repository names a path of this machine
    for p in (wrapper, repo / R.HOOKS_FILE):
        text = p.read_text()
        assert str(ghost.home) not in text and str(repo) not in text and "/tmp" not in text
    # the manifest is in the state dir, keyed by the repository's path, not in the repository
    man = R.manifest_path_for(ghost, repo.resolve())
    assert man.is_file() and man.parent == ghost.state_dir / "repos"
    assert not any(".agentdeck" in p.name for p in repo.rglob("*"))
    again = engine.build_repo_plan(ghost, repo, "default")
    assert not again.has_work, again.summary()


def test_info_for_the_repository_pane(ghost, repo):
    plan = engine.build_repo_plan(ghost, repo, "default")
    info = report(plan)
    assert info.root == str(repo.resolve())
    assert set(info.readers) == {"copilot-cli", "vscode", "cloud-agent"}
    evs = info.hooks.events
    assert [e.event for e in evs] == list(COPILOT.register_events)
    for e in evs:
        assert e.disable_key == copilot_disable_key(e.key, dict(e.action))
        assert set(e.readers) == {"copilot-cli", "vscode", "cloud-agent"}
    assert info.trust.trusted is False
    assert info.cloud_setup is not None and info.cloud_setup.wanted is False


def test_plan_says_per_event_which_reader_gets_which_dialect(ghost, repo):
    plan = engine.build_repo_plan(ghost, repo, "default")
    msgs = [n.message for n in plan.notices["repo"]]
    for event in COPILOT.register_events:
        key = R.event_key(event)
        line = next(m for m in msgs if m.startswith(key + " "))
        assert "Copilot CLI: snake_case payload" in line
        if key in CR.VSCODE_EVENTS:
            assert "VS Code agent mode: its own payload" in line
        else:
            assert "VS Code agent mode: not one of VS Code's events" in line
        if event in CR.CLOUD_NEVER_FIRES:
            assert "Copilot cloud agent: never fires there" in line
        else:
            assert "Copilot cloud agent: snake_case payload" in line
    assert any("`ask` is treated as deny" in m for m in msgs)
    assert any("`bash` command only" in m for m in msgs)
    assert any("does not trust this folder" in m for m in msgs)


def test_profile_events_subset(ghost, repo, tmp_path):
    prof = ghost.config_dir / "profiles" / "lean"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["_base"]\n[hooks]\n'
                                      'command = "agentdeck-hook"\nevents = ["pre_tool_use", "stop"]\n'
                                      'timeout = 5\n')
    apply(ghost, engine.build_repo_plan(ghost, repo, "lean"))
    data = json.loads((repo / R.HOOKS_FILE).read_text())
    assert list(data["hooks"]) == ["PreToolUse", "Stop"]
    assert data["hooks"]["Stop"][0]["timeoutSec"] == 5


def test_uninstall_leaves_the_repository_as_it_was(ghost, repo):
    (repo / "README.md").write_text("hi\n")
    before = sorted(str(p.relative_to(repo)) for p in repo.rglob("*"))
    apply(ghost, engine.build_repo_plan(ghost, repo, "default", cloud_setup=True))
    plan = engine.build_repo_uninstall_plan(ghost, repo)
    assert plan.mode == "uninstall" and {i.cls for i in plan.items} == {"remove"}
    apply(ghost, plan)
    assert sorted(str(p.relative_to(repo)) for p in repo.rglob("*")) == before
    assert not R.manifest_path_for(ghost, repo.resolve()).exists()


def test_a_teammates_clone_adopts_identical_files(ghost, repo, tmp_path):
    """Another machine (no manifest) finds the committed files as the profile wants: adopted."""
    apply(ghost, engine.build_repo_plan(ghost, repo, "default", cloud_setup=True))
    R.manifest_path_for(ghost, repo.resolve()).unlink()
    plan = engine.build_repo_plan(ghost, repo, "default")
    assert {i.cls for i in plan.items} == {"noop"} and all(i.heal for i in plan.items)
    assert not plan.has_changes


def test_hand_edited_hooks_file_is_kept(ghost, repo):
    apply(ghost, engine.build_repo_plan(ghost, repo, "default"))
    p = repo / R.HOOKS_FILE
    p.write_text(p.read_text().replace('"timeoutSec": 30', '"timeoutSec": 31', 1))
    plan = engine.build_repo_plan(ghost, repo, "default")
    [it] = [i for i in plan.items if i.label.startswith(R.HOOKS_FILE)]
    assert it.cls == "hand-edited" and not plan.has_changes


def test_foreign_file_of_the_same_name_is_not_clobbered(ghost, repo):
    p = repo / R.HOOKS_FILE
    p.parent.mkdir(parents=True)
    p.write_text('{"hooks": {}}\n')
    plan = engine.build_repo_plan(ghost, repo, "default")
    [it] = [i for i in plan.items if i.label.startswith(R.HOOKS_FILE)]
    assert it.cls == "foreign"
    apply(ghost, plan)
    assert p.read_text() == '{"hooks": {}}\n'


def test_repo_must_be_a_folder(ghost, tmp_path):
    with pytest.raises(UserError, match="not a folder"):
        engine.build_repo_plan(ghost, tmp_path / "nope", "default")
    with pytest.raises(UserError, match="home itself"):
        engine.build_repo_plan(ghost, ghost.home, "default")


def test_build_plan_routes_repo(ghost, repo):
    plan = engine.build_plan(ghost, "default", repo=repo)
    assert plan.targets == ["repo"] and engine.repo_of(plan) == str(repo.resolve())


def test_handler_given_as_a_path_of_this_machine_is_warned(ghost, repo, tmp_path):
    prof = ghost.config_dir / "profiles" / "abs"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text(f'[profile]\nextends = ["_base"]\n[hooks]\n'
                                      f'command = "{tmp_path}/bin/agentdeck-hook --x"\n')
    plan = engine.build_repo_plan(ghost, repo, "abs")
    assert any("is a path on this machine" in n.message for n in plan.notices["repo"])


def test_home_hooks_and_other_repo_sources_are_reported(ghost, repo):
    (target_home(ghost, "copilot") / "hooks").mkdir(parents=True)
    (target_home(ghost, "copilot") / "hooks" / "agentdeck.json").write_text('{"hooks": {}}')
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.json").write_text(json.dumps(
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                                                                 "command": "agentdeck-hook x"}]}]}}))
    plan = engine.build_repo_plan(ghost, repo, "default")
    warns = [n.message for n in plan.notices["repo"] if n.level == "warning"]
    assert any("each event is handled twice" in m for m in warns)
    assert any(".claude/settings.json" in m and "fire twice" in m for m in warns)
    kinds = {s.kind for s in report(plan).other_sources}
    assert kinds == {"repo-claude-hooks"}


# ---- the committed wrapper ------------------------------------------------------------------
def _run_wrapper(repo: Path, path_env: str, event: str = "PreToolUse", stdin: bytes = b"{}"):
    return subprocess.run([".github/hooks/agentdeck-hook.sh", event], cwd=repo, input=stdin,
                          capture_output=True, env={"PATH": path_env, "HOME": str(repo.parent)},
                          timeout=30)


def test_wrapper_execs_the_handler_found_on_path(ghost, repo, tmp_path):
    apply(ghost, engine.build_repo_plan(ghost, repo, "default"))
    bindir = tmp_path / "bin2"
    bindir.mkdir()
    log = tmp_path / "log"
    h = bindir / "agentdeck-hook"
    h.write_text(f'#!/bin/sh\necho "$AGENTDECK_TARGET $AGENTDECK_EVENT $*" >> {log}\n'
                 f'cat >> {log}\nexit 0\n')
    os.chmod(h, 0o755)
    proc = _run_wrapper(repo, f"{bindir}:/usr/bin:/bin", "Stop", b'{"x": 1}')
    assert proc.returncode == 0, proc.stderr
    assert log.read_text() == 'repo Stop Stop\n{"x": 1}'


def test_wrapper_without_a_handler_exits_0(ghost, repo):
    apply(ghost, engine.build_repo_plan(ghost, repo, "default"))
    proc = _run_wrapper(repo, "/usr/bin:/bin")
    assert proc.returncode == 0
    assert b"agentdeck-hook not found on PATH; event PreToolUse not handled" in proc.stderr


def test_wrapper_feeds_the_default_handler_every_dialect(ghost, repo, tmp_path):
    """The real default handler behind the committed wrapper, with the payloads the three
    readers send: each is recorded with the right event and dialect."""
    from tests.unit.test_repo_dialects import PAYLOADS

    apply(ghost, engine.build_repo_plan(ghost, repo, "default"))
    bindir = tmp_path / "bin3"
    bindir.mkdir()
    h = bindir / "agentdeck-hook"
    root = Path(__file__).resolve().parents[2]
    h.write_text(f"#!/bin/sh\nPYTHONPATH={root} exec {sys.executable} -m core.hookhandler \"$@\"\n")
    os.chmod(h, 0o755)
    state = tmp_path / "state"
    for key, payload, dialect, canon in PAYLOADS:
        proc = subprocess.run([".github/hooks/agentdeck-hook.sh", key], cwd=repo,
                              input=json.dumps(payload).encode(), capture_output=True, timeout=60,
                              env={"PATH": f"{bindir}:/usr/bin:/bin", "HOME": str(tmp_path),
                                   "AGENTDECK_STATE_DIR": str(state)})
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
        rec = json.loads((state / "audit.jsonl").read_text().splitlines()[-1])
        assert (rec["target"], rec["event"], rec["raw_event"], rec["dialect"]) == (
            "repo", canon, key, dialect)


# ---- the cloud agent's setup step -----------------------------------------------------------
def test_cloud_setup_writes_the_whole_workflow_when_there_is_none(ghost, repo):
    plan = engine.build_repo_plan(ghost, repo, "default", cloud_setup=True)
    [it] = [i for i in plan.items if i.group == "cloud"]
    assert it.kind == "file" and it.cls == "create"
    assert any("from PyPI" in w for w in it.warnings)
    apply(ghost, plan)
    text = (repo / R.WORKFLOW).read_text()
    assert "  copilot-setup-steps:\n" in text and "pipx install agentdeck==" in text
    assert R.SETUP_BEGIN in text and R.SETUP_END in text
    # sticky: a later plan without --cloud-setup keeps it
    assert not engine.build_repo_plan(ghost, repo, "default").has_work
    # --no-cloud-setup takes it out
    plan = engine.build_repo_plan(ghost, repo, "default", cloud_setup=R.CLOUD_SETUP_REMOVE)
    [it] = [i for i in plan.items if i.path.endswith("copilot-setup-steps.yml")]
    assert it.cls == "remove"
    apply(ghost, plan)
    assert not (repo / ".github" / "workflows").exists()


def test_cloud_setup_explicit_spec(ghost, repo):
    spec = "git+https://example.invalid/team/agentdeck@v0.1.0"
    plan = engine.build_repo_plan(ghost, repo, "default", cloud_setup=spec)
    [it] = [i for i in plan.items if i.group == "cloud"]
    assert not it.warnings
    apply(ghost, plan)
    assert f"pipx install {spec}\n" in (repo / R.WORKFLOW).read_text()
    # the recorded spec is reused without the flag
    assert not engine.build_repo_plan(ghost, repo, "default").has_work
    assert not engine.build_repo_plan(ghost, repo, "default", cloud_setup=True).has_work


EXISTING = """name: "Copilot Setup Steps"
on: workflow_dispatch
jobs:
  copilot-setup-steps:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v5
      - name: deps
        run: npm ci
"""


def test_cloud_setup_adds_only_its_step_to_an_existing_workflow(ghost, repo):
    p = repo / R.WORKFLOW
    p.parent.mkdir(parents=True)
    p.write_text(EXISTING)
    plan = engine.build_repo_plan(ghost, repo, "default", cloud_setup=True)
    [it] = [i for i in plan.items if i.group == "cloud"]
    assert it.kind == "block" and it.cls == "create"
    apply(ghost, plan)
    text = p.read_text()
    assert text.startswith(EXISTING)
    assert text[len(EXISTING):] == ("\n      " + R.SETUP_BEGIN + "\n"
                                    + R.setup_step(R.default_spec(), "      ")
                                    + "      " + R.SETUP_END + "\n")
    # the operator adds a step after ours: ours is still found and left in place
    p.write_text(text + "      - run: echo later\n")
    assert not engine.build_repo_plan(ghost, repo, "default").has_work
    apply(ghost, engine.build_repo_uninstall_plan(ghost, repo))
    assert p.read_text() == EXISTING + "      - run: echo later\n"


@pytest.mark.parametrize("text,why", [
    ("name: x\non: push\n", "no top-level `jobs:`"),
    ("jobs:\n  build:\n    runs-on: x\n    steps:\n      - run: a\n", "no `copilot-setup-steps` job"),
    ("jobs:\n  copilot-setup-steps:\n    steps:\n      - run: a\n    runs-on: x\n",
     "steps are not at the end"),
    ("jobs:\n  copilot-setup-steps:\n    steps: []\n", "not a block list"),
    ("jobs:\n  copilot-setup-steps:\n    runs-on: x\n", "has no `steps:`"),
])
def test_cloud_setup_refuses_what_it_cannot_place(ghost, repo, text, why):
    p = repo / R.WORKFLOW
    p.parent.mkdir(parents=True)
    p.write_text(text)
    plan = engine.build_repo_plan(ghost, repo, "default", cloud_setup=True)
    assert not [i for i in plan.items if i.group == "cloud"]
    assert any(why in n.message and "add the step by hand" in n.message
               for n in plan.notices["repo"])
    cloud = report(plan).cloud_setup
    assert cloud is not None and cloud.mode is None
    apply(ghost, plan)
    assert p.read_text() == text


def test_steps_anchor_indentation():
    assert R.steps_anchor("jobs:\n  copilot-setup-steps:\n    steps:\n    - run: a\n") == ("    ", "")
    assert R.steps_anchor("jobs:\n  copilot-setup-steps:\n    steps:\n") == ("      ", "")
    assert R.steps_anchor("jobs:\n  other:\n    steps:\n      - run: b\n"
                          "  copilot-setup-steps:\n    steps:\n      - run: a\n  # end\n") == (
        "      ", "")


def test_cloud_setup_for_a_handler_that_is_not_agentdeck(ghost, repo):
    prof = ghost.config_dir / "profiles" / "own"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text('[profile]\nextends = ["_base"]\n[hooks]\ncommand = "my-guard"\n')
    plan = engine.build_repo_plan(ghost, repo, "own", cloud_setup=True)
    assert not [i for i in plan.items if i.group == "cloud"]
    assert any("is not agentdeck's" in n.message for n in plan.notices["repo"])
    plan = engine.build_repo_plan(ghost, repo, "own", cloud_setup="my-guard==1.0")
    assert [i for i in plan.items if i.group == "cloud"]


# ---- crash safety -----------------------------------------------------------------------------
@pytest.mark.parametrize("step", [1, 2, 3])
def test_an_interrupted_repo_apply_is_rolled_back(tmp_path, step):
    """A repo apply killed before write step N leaves a journal naming repository paths; the next
    command rolls it back (the journal proves the repository by its manifest's path)."""
    root = Path(__file__).resolve().parents[2]
    home, repo, bindir = tmp_path / "home", tmp_path / "repo", tmp_path / "bin"
    for d in (home, repo, bindir):
        d.mkdir()
    (repo / "README.md").write_text("x\n")
    (bindir / "agentdeck-hook").write_text("#!/bin/sh\nexit 0\n")
    os.chmod(bindir / "agentdeck-hook", 0o755)
    env = {"PATH": f"{bindir}:/usr/bin:/bin", "HOME": str(home), "PYTHONPATH": str(root)}

    def cli(*argv, **extra):
        return subprocess.run([sys.executable, "-m", "agentdeck.core.cli", *argv, "--home", str(home),
                               "--repo", str(repo)], capture_output=True, text=True,
                              env={**env, **extra}, timeout=120)

    before = sorted(str(p.relative_to(repo)) for p in repo.rglob("*"))
    r = cli("apply", "--yes", "--cloud-setup", AGENTDECK_CRASH_AT=str(step))
    assert r.returncode != 0
    r = cli("plan")
    assert "rolled back an interrupted apply" in r.stderr, r.stderr
    assert r.returncode == 2, r.stderr
    assert sorted(str(p.relative_to(repo)) for p in repo.rglob("*")) == before
    r = cli("apply", "--yes")
    assert r.returncode == 0, r.stderr


def test_handler_not_on_this_machines_path_is_warned(ghost, repo):
    """The committed wrapper finds the handler on PATH only: agentdeck's own `agentdeck-hook`
    beside a venv that is not activated does not count (otherwise, in a trusted repository,
    every hook would fire, exit 0 and let a private key be read)."""
    plan = engine.build_repo_plan(ghost, repo, "default")
    assert report(plan).hooks.on_path is True
    assert not any("enforce nothing" in n.message for n in plan.notices["repo"])
    ghost.env["PATH"] = "/usr/bin:/bin"
    plan = engine.build_repo_plan(ghost, repo, "default")
    assert report(plan).hooks.on_path is False
    warns = [n.message for n in plan.notices["repo"] if n.level == "warning"]
    line = next(m for m in warns if "enforce nothing" in m)
    assert line.startswith("agentdeck-hook is not on this machine's PATH: hooks fire but "
                           "enforce nothing here")
    assert "docs/repo-scope.md" in line
    from agentdeck.core.targets.wrapper import own_handler
    beside = own_handler(ghost)
    if beside:                        # the test runs from a venv: the fix names its bin folder
        assert f"put {os.path.dirname(beside)} on PATH" in line
