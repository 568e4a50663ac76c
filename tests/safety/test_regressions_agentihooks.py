"""Each failure found in agentihooks 2.17.0, reproduced against agentdeck, which must
not have it. One test (or one parametrized group) per failure, named after it; every target
that exists is covered. Plus regressions of bugs this suite found in agentdeck itself."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from agentdeck.core import engine, targets
from agentdeck.core.formats.jsonc import JsonDoc
from tests.registry_kit import mcp_key, plan_paths, settings_file
from tests.safety.safety_helpers import (needs, require, HOMES, applied, REPO, available, clean_env, cli_inproc, cli_proc,
                                         diff_snapshots, home_snapshot, install, make_host,
                                         plan_json, state_rel, target_args, uninstall)

#: each target's persona file and MCP file, relative to the home (from its own plan)
PATHS = {t: plan_paths(t) for t in available()}
PERSONA = {t: p["persona"] for t, p in PATHS.items()}
MCP_FILE = {t: p["mcp"] for t, p in PATHS.items()}
MCP_KEY = {t: mcp_key(t) for t in available()}
PROFILE_SERVERS = ("memory", "github")


def _doc(home: Path, target: str) -> dict:
    p = home / MCP_FILE[target]
    if not p.exists():
        return {}
    return tomllib.loads(p.read_text()) if p.suffix == ".toml" else JsonDoc.parse(p.read_text()).data


def _under(doc: dict, key: tuple[str, ...]) -> dict:
    for k in key:
        doc = doc.setdefault(k, {})
    return doc


def _servers(home: Path, target: str) -> set[str]:
    """The MCP server names in a target's MCP file (under its key: mcpServers, Codex's
    mcp_servers, OpenCode's mcp)."""
    return set(_under(_doc(home, target), MCP_KEY[target]))


def _profile(home: Path, name: str, toml: str, files: dict[str, str] | None = None) -> None:
    d = home / ".config" / "agentdeck" / "profiles" / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "profile.toml").write_text(toml)
    for rel, text in (files or {}).items():
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text(text)


def _owned(home: Path, target: str) -> set[str]:
    mp = targets.get(target).manifest_path(make_host(home))
    if not mp.exists():
        return set()
    return {os.path.relpath(e["path"], home) for e in json.loads(mp.read_text())["entries"]} | {
        os.path.relpath(mp, home)}


# ---- 1. MCP ownership lost, so uninstall left servers behind --------------------------------------

@pytest.mark.parametrize("target", available())
def test_mcp_ownership_survives_and_uninstall_removes_every_server_of_ours(tmp_path, target):
    """Install; the operator then reformats the MCP file and adds a server; the profile changes
    (one server dropped, one kept); uninstall: none of agentdeck's servers is left, the
    operator's are all there."""
    home = HOMES["messy"](tmp_path / "home")
    # every server on: Claude Code gets a server that is off not at all (core/targets/claude/facts.py)
    _profile(home, "on", '[profile]\nextends = ["default"]\n', {"copilot/settings.json": json.dumps(
        {"_agentdeck": {"mcpDefaultDisabled": False}})})
    # where the demo home has no server of the operator's in this CLI's file, one is written
    if not _servers(home, target):
        p = home / MCP_FILE[target]
        p.parent.mkdir(parents=True, exist_ok=True)
        if p.suffix == ".toml":
            text = p.read_text() if p.exists() else ""
            p.write_text(text + f'\n[{".".join(MCP_KEY[target])}.mine]\ncommand = "mine"\n')
        else:
            doc = _doc(home, target)
            _under(doc, MCP_KEY[target])["mine"] = {"command": "mine"}
            p.write_text(json.dumps(doc, indent=2) + "\n")
    theirs = _servers(home, target)       # the operator's own servers, before agentdeck
    assert theirs, "the home has no server of the operator's to keep"
    install(home, [target], "--profile", "on")
    assert set(PROFILE_SERVERS) <= _servers(home, target)
    # the operator touches the file: reformat (JSON) or append (TOML), add a server
    p = home / MCP_FILE[target]
    if p.suffix == ".toml":
        table = ".".join(MCP_KEY[target])
        p.write_text(p.read_text() + f'\n[{table}.added-later]\ncommand = "x"\n')
    else:
        data = JsonDoc.parse(p.read_text()).data
        _under(data, MCP_KEY[target])["added-later"] = {"command": "x"}
        p.write_text(json.dumps(data, indent=4, sort_keys=True) + "\n")
    _profile(home, "lean", '[profile]\nextends = ["default"]\n',
             {"mcp.json": json.dumps({"mcpServers": {"memory": {
                 "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}})})
    # "lean" drops github from the neutral servers only if the profile's mcp.json replaces it;
    # the default's servers merge in, so use a profile that does not extend default's mcp.json
    _profile(home, "lean", '[profile]\nextends = ["_base"]\n',
             {"mcp.json": json.dumps({"mcpServers": {"memory": {
                 "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}})})
    rc, out, err = cli_inproc("apply", "--home", home, "--yes", "--target", target, "--profile", "lean")
    assert applied(rc, err), out + err
    now = _servers(home, target)
    assert "github" not in now and "memory" in now
    uninstall(home, [target])
    left = _servers(home, target)
    assert not (set(PROFILE_SERVERS) & left), f"uninstall left {set(PROFILE_SERVERS) & left}"
    assert theirs | {"added-later"} <= left


# ---- 2. a forced install of one target wiped another ----------------------------------------------

@pytest.mark.parametrize("forced", available())
def test_forced_install_of_one_target_never_touches_another(tmp_path, forced, with_fake_target):
    """Everything installed; the operator hand-edits files of every target; then a forced
    re-install of one target (--take on every item it offers): no other target's file changes."""
    names = available() + [with_fake_target]
    home = HOMES["messy"](tmp_path / "home")
    install(home, names)
    # hand edits everywhere: every whole file agentdeck wrote that is not a settings file (the
    # persona, skills, agents, the hook wrapper, OpenCode's plugin)
    for t in names:
        for rel in _owned(home, t):
            p = home / rel
            if p.is_file() and not p.is_symlink() and p.suffix not in (".json", ".toml"):
                p.write_text(p.read_text() + "\nhand edit\n")
    before = home_snapshot(home)
    plan = engine.build_plan(make_host(home), "default", [forced])
    takes = [a for i in plan.items if "take" in i.choices for a in ("--take", i.id)]
    assert takes, "nothing to force: the test would prove nothing"
    rc, out, err = cli_inproc("apply", "--home", home, "--yes", "--target", forced, *takes)
    assert rc == 0, out + err
    after = home_snapshot(home)
    mine = _owned(home, forced)
    for t in names:
        if t == forced:
            continue
        for rel in _owned(home, t) - mine:
            assert after.get(rel) == before.get(rel), f"forcing {forced} changed {t}'s {rel}"


# ---- 3. persona files grew by a newline on every run ------------------------------------------------

@pytest.mark.parametrize("target", available())
@pytest.mark.parametrize("shape", ["lf", "crlf-no-final-newline", "absent"])
def test_persona_file_does_not_grow_across_runs(tmp_path, target, shape):
    home = HOMES["fresh"](tmp_path / "home")
    p = home / PERSONA[target]
    p.parent.mkdir(parents=True, exist_ok=True)
    original = {"lf": b"# mine\n\nkeep me\n", "crlf-no-final-newline": b"# mine\r\n\r\nkeep me",
                "absent": None}[shape]
    if original is not None:
        p.write_bytes(original)
    install(home, [target])
    first = p.read_bytes()
    for i in range(4):                    # profile changes force a rewrite of the block each time
        _profile(home, "v", '[profile]\nextends = ["default"]\n', {"AGENTS.md": f"Version {i % 2}.\n"})
        rc, out, err = cli_inproc("apply", "--home", home, "--yes", "--target", target, "--profile", "v")
        assert rc == 0, out + err
        rc, out, err = cli_inproc("apply", "--home", home, "--yes", "--target", target, "--profile", "v")
        assert rc == 0
    # back to default: named, since a plain apply now stays on the profile installed ("v")
    rc, out, err = cli_inproc("apply", "--home", home, "--yes", "--target", target,
                              "--profile", "default")
    assert rc == 0, out + err
    assert p.read_bytes() == first, "the persona file changed after going back to the same profile"
    uninstall(home, [target])
    assert (p.read_bytes() if p.exists() else None) == original


# ---- 4. a settings file with // comments was treated as corrupt --------------------------------------

@pytest.mark.parametrize("target", [t for t in available() if t != "claude"])
def test_settings_with_comments_and_trailing_commas_are_edited_not_refused(tmp_path, target):
    """Copilot's settings.json is JSONC and Codex's config.toml has # comments: both are edited in
    place, comments kept. (Claude Code's settings.json is strict JSON: a comment there is refused
    with file:line:col -- see the next test.)"""
    home = HOMES["fresh"](tmp_path / "home")
    p = home / settings_file(target)
    p.parent.mkdir(parents=True, exist_ok=True)
    if p.suffix == ".toml":
        text = '# my Codex settings\nmodel = "o3"  # the one I like\n\n# end of my settings\n'
    else:
        text = ('{\n  // my settings, by hand\n  "model": "x", /* inline */\n'
                '  "theme": "dark", // trailing comma next\n}\n')
    p.write_text(text)
    rc, out, err = cli_inproc("plan", "--home", home, "--target", target)
    assert rc in (0, 2) and not err, err
    install(home, [target])
    now = p.read_text()
    for comment in ("my settings, by hand", "/* inline */", "trailing comma next", "the one I like",
                    "end of my settings", "my Codex settings"):
        if comment in text:
            assert comment in now, f"comment {comment!r} lost"
    uninstall(home, [target])
    assert p.read_text() == text


@needs("claude")
def test_strict_json_with_a_comment_is_one_clear_line_not_corruption(tmp_path):
    home = HOMES["fresh"](tmp_path / "home")
    p = home / ".claude" / "settings.json"
    p.parent.mkdir(parents=True)
    p.write_text('{\n  // mine\n  "model": "x"\n}\n')
    rc, out, err = cli_inproc("plan", "--home", home, "--target", "claude")
    assert rc == 1 and err.count("\n") == 1 and f"{p}:2:3:" in err and "comment" in err, err
    assert p.read_text() == '{\n  // mine\n  "model": "x"\n}\n'


# ---- 5. an existing instructions file was replaced ------------------------------------------------------

@pytest.mark.parametrize("target", available())
def test_existing_instructions_file_is_kept_around_the_block(tmp_path, target):
    home = HOMES["fresh"](tmp_path / "home")
    p = home / PERSONA[target]
    p.parent.mkdir(parents=True, exist_ok=True)
    mine = "# My own instructions\n\nAlways answer in British English.\n"
    p.write_text(mine)
    install(home, [target])
    text = p.read_text()
    assert mine in text and "agentdeck:begin" in text
    assert text.endswith(mine), "the operator's text moved or changed"
    uninstall(home, [target])
    assert p.read_text() == mine


# ---- 6. stale keys and servers were never removed ---------------------------------------------------------

@pytest.mark.parametrize("target", available())
def test_what_the_profile_stops_wanting_is_removed(tmp_path, target):
    home = HOMES["messy"](tmp_path / "home")
    install(home, [target])
    before_switch = set(_owned(home, target))
    _profile(home, "bare", '[profile]\nextends = ["_base"]\n')
    rc, out, err = cli_inproc("apply", "--home", home, "--yes", "--target", target, "--profile", "bare")
    assert applied(rc, err), out + err
    assert not (set(PROFILE_SERVERS) & _servers(home, target)), "stale MCP servers left"
    after_switch = set(_owned(home, target))
    gone = before_switch - after_switch
    assert gone, "the bare profile wants less, but nothing was removed"
    for rel in gone:
        p = home / rel
        assert not p.exists() or rel in PERSONA.values() or p.suffix in (".json", ".toml"), (
            f"{rel}: no longer wanted, still there")
    rc, out, err = cli_inproc("plan", "--home", home, "--target", target, "--profile", "bare")
    assert rc == 0, "not converged after the switch:\n" + out


# ---- 7. uninstall left files behind ------------------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(HOMES))
def test_uninstall_leaves_nothing_of_agentdeck_in_the_home(tmp_path, kind):
    home = HOMES[kind](tmp_path / "home")
    before = home_snapshot(home)
    install(home, available())
    uninstall(home, available())
    after = home_snapshot(home)
    extra = sorted(set(after) - set(before))
    assert extra == [], f"left behind: {extra}"
    for rel, v in after.items():
        if v[0] == "file" and b"agentdeck" in v[1]:
            assert before.get(rel) == v, f"{rel} still mentions agentdeck"


# ---- 8. the managed env file overrode the operator's own values ---------------------------------------------

@needs("copilot")
@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_managed_env_file_never_overrides_the_operators_own_values(tmp_path):
    home = HOMES["messy"](tmp_path / "home")
    (home / ".bashrc").write_text("# mine\nexport COPILOT_ALLOW_ALL=false\n"
                                  "export COPILOT_DEBUG_BROWSER='[\"my-browser\"]'\n")
    _profile(home, "dir", '[profile]\nextends = ["default"]\n',
             {"copilot/settings.json": json.dumps({"_agentdeck": {"allowAll": True,
                                                                  "browserCommand": ["firefox"]}})})
    install(home, ["copilot"], "--profile", "dir")
    assert (make_host(home).state_dir / "copilot.env").exists(), "no env file: nothing to test"
    r = subprocess.run(["bash", "-ic", 'printf "%s|%s" "$COPILOT_ALLOW_ALL" "$COPILOT_DEBUG_BROWSER"'],
                       env={"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin")},
                       capture_output=True, text=True, timeout=30)
    assert r.stdout == 'false|["my-browser"]', r.stdout


# ---- 9. rewrites reset file modes and replaced symlinks with plain files -------------------------------------

def test_rewrites_keep_modes_symlinks_and_line_ends(tmp_path):
    home = HOMES["messy"](tmp_path / "home")
    link = home / ".copilot" / "settings.json"
    real = home / "dotfiles" / "copilot" / "settings.json"
    codex_dir_mode = (home / ".codex").stat().st_mode & 0o777
    claude_json_mode = (home / ".claude.json").stat().st_mode & 0o777
    for profile in ("default", None):
        if profile is None:
            _profile(home, "other", '[profile]\nextends = ["default"]\n[hooks]\ncommand = "agentdeck-hook --x"\n')
        rc, out, err = cli_inproc("apply", "--home", home, "--yes", *target_args(available()),
                                  "--profile", profile or "other")
        assert applied(rc, err), out + err
        if "copilot" in available():
            assert link.is_symlink() and os.readlink(link) == "../dotfiles/copilot/settings.json"
            assert real.stat().st_mode & 0o777 == 0o600
            assert b"\r\n" in real.read_bytes() and b"\n" not in real.read_bytes().replace(b"\r\n", b"")
        assert (home / ".codex").stat().st_mode & 0o777 == codex_dir_mode
        assert (home / ".claude.json").stat().st_mode & 0o777 == claude_json_mode
        assert (home / ".copilot" / "agents" / "my-agent.md").stat().st_mode & 0o777 == 0o444
        assert (home / ".agents" / "skills" / "changelog").is_symlink()


@pytest.mark.parametrize("rel,label,mode", [(".copilot/agents/reviewer.md", "agent reviewer", 0o640),
                                            (".copilot/agentdeck-hook.sh", "hook wrapper", 0o700)])
def test_a_replaced_file_gets_its_mode_back_on_uninstall(tmp_path, rel, label, mode):
    """A file of the operator's that agentdeck replaces (--take) is restored on uninstall with
    its bytes and its mode (the hook wrapper is written 0755 over the operator's 0700)."""
    require("copilot")
    home = HOMES["fresh"](tmp_path / "home")
    p = home / rel
    p.parent.mkdir(parents=True)
    p.write_text("mine\n")
    os.chmod(p, mode)
    before = home_snapshot(home)
    install(home, ["copilot"], "--take", label)
    assert p.read_text() != "mine\n"
    uninstall(home, ["copilot"])
    assert home_snapshot(home) == before, diff_snapshots(before, home_snapshot(home))


def test_a_file_tightened_to_0600_for_a_secret_gets_its_mode_back_on_uninstall(tmp_path):
    """agentdeck writes a credential into the operator's own config file, so the file goes 0600;
    once agentdeck's entries are gone again the file has its old mode back (byte-exact)."""
    home = HOMES["messy"](tmp_path / "home")
    token = "ghp_" + "M1" * 18
    _profile(home, "sekrit", '[profile]\nextends = ["default"]\n',
             {"mcp.json": json.dumps({"mcpServers": {"db": {"command": "db", "env": {"T": token}}}})})
    for rel in (".codex/config.toml", ".copilot/mcp-config.json"):
        if (home / rel).exists():
            os.chmod(home / rel, 0o644)
    before = home_snapshot(home)
    install(home, available(), "--profile", "sekrit")
    uninstall(home, available())
    assert home_snapshot(home) == before, diff_snapshots(before, home_snapshot(home))


@needs("codex")
def test_mode_comes_back_when_the_last_credential_goes_even_if_other_keys_stay(tmp_path):
    home = HOMES["messy"](tmp_path / "home")
    cfg = home / ".codex" / "config.toml"
    os.chmod(cfg, 0o644)
    token = "ghp_" + "M2" * 18
    _profile(home, "sekrit", '[profile]\nextends = ["default"]\n',
             {"mcp.json": json.dumps({"mcpServers": {"db": {"command": "db", "env": {"T": token}}}})})
    install(home, ["codex"], "--profile", "sekrit")
    assert cfg.stat().st_mode & 0o777 == 0o600
    install(home, ["codex"], "--profile", "default")   # back to default: db goes, memory stays
    assert token not in cfg.read_text() and "memory" in _servers(home, "codex")
    assert cfg.stat().st_mode & 0o777 == 0o644


# ---- 10. results depended on the installing shell's environment variables -----------------------------------

def test_results_do_not_depend_on_the_installing_shells_environment(tmp_path):
    """The same install from two shells with different environments (tokens, editor, locale,
    terminal, working directory, random variables) writes the same bytes. PATH is kept the same:
    the hook wrapper records where the handler was found (documented in core.targets.wrapper)."""
    home = tmp_path / "home"
    shots = []
    for n, extra in enumerate([
            {"GITHUB_TOKEN": "ghp_" + "a" * 36, "EDITOR": "vim", "LANG": "C.UTF-8", "TERM": "xterm",
             "FOO": "1", "SHELL": "/bin/bash", "COPILOT_MODEL": "gpt-5"},
            {"OPENAI_API_KEY": "sk-" + "b" * 40, "EDITOR": "emacs", "LANG": "de_DE.UTF-8", "LC_ALL": "C",
             "TERM": "dumb", "BAR": "2", "SHELL": "/bin/zsh", "NO_COLOR": "1", "PWD": "/"}]):
        if home.exists():
            shutil.rmtree(home)
        HOMES["messy"](home)
        cwd = tmp_path / f"cwd{n}"
        cwd.mkdir()
        env = clean_env(home, PYTHONPATH=str(REPO), **extra)
        r = subprocess.run([sys.executable, "-m", "agentdeck.core.cli", "apply", "--home", str(home), "--yes",
                            *target_args(available())], capture_output=True, text=True, env=env,
                           cwd=cwd, timeout=120)
        assert applied(r.returncode, r.stderr), r.stdout + r.stderr
        shots.append(home_snapshot(home))
    assert shots[0] == shots[1], diff_snapshots(shots[0], shots[1])


# ---- 11. one target's install wrote another target's files ----------------------------------------------------

@pytest.mark.parametrize("target", available())
def test_one_targets_install_writes_only_that_targets_files(tmp_path, target):
    home = HOMES["messy"](tmp_path / "home")
    before = home_snapshot(home)
    install(home, [target])
    after = home_snapshot(home)
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    owned = _owned(home, target)
    owned |= {os.path.relpath(os.path.realpath(home / rel), os.path.realpath(home)) for rel in owned}
    allowed = set(owned)   # (a managed file behind a symlink is written through to its target)
    for rel in owned:                      # and the folders leading to them
        p = Path(rel).parent
        while str(p) not in (".", ""):
            allowed.add(str(p))
            p = p.parent
    stray = sorted(changed - allowed)
    assert stray == [], f"installing {target} changed files it does not own: {stray}"


# ---- regressions of bugs this suite found in agentdeck ----------------------------------------------------

def test_switching_profiles_converges_in_one_apply_with_shared_items(tmp_path):
    """A skill file owned by two targets (Copilot and Codex share ~/.agents/skills) that the new
    profile no longer wants is removed by the first apply, not released by one owner and left for
    a second run."""
    names = available()
    home = HOMES["messy"](tmp_path / "home")
    install(home, names)
    _profile(home, "bare", '[profile]\nextends = ["_base"]\n')
    rc, out, err = cli_inproc("apply", "--home", home, "--yes", *target_args(names), "--profile", "bare")
    assert applied(rc, err), out + err
    assert "still has changes" not in err
    rc, out, err = cli_inproc("plan", "--home", home, *target_args(names), "--profile", "bare")
    assert rc == 0, out


@needs("copilot")
def test_uninstall_removes_the_objects_it_created(tmp_path):
    """{"mcpServers": {}} and an empty manifest used to survive an uninstall on a fresh home."""
    home = HOMES["fresh"](tmp_path / "home")
    install(home, ["copilot"])
    uninstall(home, ["copilot"])
    assert not (home / ".copilot").exists(), sorted(p.name for p in (home / ".copilot").iterdir())


@needs("claude")
def test_operator_hook_list_layout_survives_uninstall(tmp_path):
    """The operator's own Claude hook group written compactly on one line: agentdeck adds its
    group to the same list and takes it out again; the operator's bytes are as they were."""
    home = HOMES["fresh"](tmp_path / "home")
    p = home / ".claude" / "settings.json"
    p.parent.mkdir(parents=True)
    text = ('{\n  "model": "sonnet",\n  "hooks": {\n    "Stop": [\n      {"hooks": [{"type": "command", '
            '"command": "notify-send done"}]}\n    ]\n  }\n}\n')
    p.write_text(text)
    install(home, ["claude"])
    assert '{"hooks": [{"type": "command", "command": "notify-send done"}]}' in p.read_text()
    uninstall(home, ["claude"])
    assert p.read_text() == text
