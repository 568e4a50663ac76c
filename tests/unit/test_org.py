"""`agentdeck org ...` against a temporary root prefix (never the machine's /etc): plan, apply,
an empty plan after, byte-exact uninstall, stale-plan refusal, --json, the root-only and
ownership refusals, and the handler copy running on the standard library alone."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from agentdeck.core import cli
from agentdeck.core.facts import org as F
from agentdeck.core.org import handler
from tests.conftest import snapshot_tree

SYSTEM = ("etc", "usr/local/lib", "var/lib")


@pytest.fixture
def root(tmp_path) -> Path:
    r = tmp_path / "root"
    for d in SYSTEM:
        (r / d).mkdir(parents=True)
    for d in SYSTEM:          # tmp_path folders are 0700; the prefix stands for / (0755)
        p = r / d
        while p != r:
            os.chmod(p, 0o755)
            p = p.parent
    os.chmod(r, 0o755)
    return r


def org(*args, home, root) -> int:
    return cli.main(["org", *args, "--home", str(home), "--root", str(root)])


def test_plan_apply_empty_plan_then_uninstall_gives_the_system_files_back(home, root, capsys):
    mine = "# the administrator's\nallowed_approval_policies = [\"never\"]\n\n[otel]\nenvironment = \"prod\"\n"
    (root / "etc/codex").mkdir()
    (root / "etc/codex/requirements.toml").write_text(mine)
    (root / "etc/claude-code/managed-settings.d").mkdir(parents=True)
    (root / "etc/claude-code/managed-settings.d/10-team.json").write_text('{"model": "opus"}\n')
    before = snapshot_tree(root)
    assert org("plan", home=home, root=root) == 2
    out = capsys.readouterr().out
    assert f"org layer under {root}" in out and "managed settings drop-in" in out
    assert snapshot_tree(root) == before            # planning writes nothing
    assert org("apply", "--yes", home=home, root=root) == 0
    assert "The plan is now empty." in capsys.readouterr().out
    assert org("plan", home=home, root=root) == 0

    req = (root / "etc/codex/requirements.toml").read_text()
    data = tomllib.loads(req)
    assert data["features"]["hooks"] is True and data["allowed_approval_policies"] == ["never"]
    assert data["otel"] == {"environment": "prod"}           # still in the administrator's table
    [group] = data["hooks"]["PreToolUse"]
    assert group["hooks"][0]["command"] == handler.hook_command("codex", "PreToolUse")
    drop = json.loads((root / "etc/claude-code/managed-settings.d/agentdeck.json").read_text())
    assert drop["hooks"]["PreToolUse"][0]["hooks"][0]["command"].startswith(F.ENV + " -u ") and " " + F.PYTHON + " -I -S " in drop["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    pol = json.loads((root / "etc/github-copilot/policy.d/agentdeck.json").read_text())
    assert pol["version"] == 1 and list(pol["hooks"]) == ["preToolUse"]
    lib = root / F.LIB_DIR.lstrip("/")
    for t in F.names():
        assert json.loads((lib / "policy" / f"{t}.json").read_text())["target"] == t
    # every file written is root's, 0644, in root's 0755 folders
    for p in [*lib.rglob("*"), root / "etc/codex/requirements.toml"]:
        st = p.lstat()
        assert st.st_uid == 0 and (st.st_mode & 0o7777) in (0o644, 0o755), p
    capsys.readouterr()
    assert org("status", home=home, root=root) == 0
    assert capsys.readouterr().out.splitlines()[0].split() == ["copilot", "in", "sync"]

    assert org("uninstall", "--yes", home=home, root=root) == 0
    after = snapshot_tree(root)
    state = "var/lib/agentdeck"
    assert {k: v for k, v in after.items() if not k.startswith(state)} == before
    assert (root / "etc/codex/requirements.toml").read_text() == mine


def test_the_handler_copy_is_the_source_byte_for_byte(home, root):
    assert org("apply", "--yes", home=home, root=root) == 0
    lib = root / F.LIB_DIR.lstrip("/") / "lib" / "agentdeck" / "core"
    import agentdeck.core
    src = Path(agentdeck.core.__file__).resolve().parent
    for name in ("hookhandler.py", "secrets.py", "policy/rules.py"):
        assert (lib / name).read_bytes() == (src / name).read_bytes(), name


@pytest.mark.parametrize("dialect, event, payload, code", [
    ("claude", "PreToolUse", {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                              "tool_input": {"command": "cat ~/.ssh/id_ed25519"}}, 2),
    ("claude", "PreToolUse", {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                              "tool_input": {"command": "ls"}}, 0),
    ("codex", "PreToolUse", {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                             "tool_input": {"command": "cat ~/.ssh/id_rsa"}}, 2),
    ("copilot", "preToolUse", {"toolName": "bash",
                               "toolArgs": {"command": "cat ~/.ssh/id_ed25519"}}, 2),
])
def test_the_copy_runs_on_the_standard_library_alone(home, root, tmp_path, dialect, event,
                                                     payload, code):
    """The installed entry, run as the org hook runs it (-I -S: no site packages at all), with a
    hostile environment: PYTHONPATH, AGENTDECK_POLICY and AGENTDECK_TARGET pointing elsewhere."""
    assert org("apply", "--yes", home=home, root=root) == 0
    entry = root / F.LIB_DIR.lstrip("/") / handler.ENTRY
    evil = tmp_path / "evil.json"
    evil.write_text(json.dumps({"format": 1, "target": dialect, "on_error": "allow", "rules": []}))
    state = tmp_path / "user-state"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "AGENTDECK_STATE_DIR": str(state),
           "PYTHONPATH": str(tmp_path), "AGENTDECK_POLICY": str(evil), "AGENTDECK_TARGET": "repo"}
    r = subprocess.run([F.PYTHON, "-I", "-S", str(entry), dialect, event],
                       input=json.dumps(payload), capture_output=True, text=True, env=env,
                       timeout=30)
    assert r.returncode == code, r.stderr
    [line] = [json.loads(ln) for ln in (state / "audit.jsonl").read_text().splitlines()]
    assert line["layer"] == "org" and line["target"] == dialect
    assert line["decision"] == ("deny" if code == 2 else "allow")


def test_a_handler_that_cannot_start_denies(home, root):
    """`|| exit 2`: an interpreter error (the copy gone) is a deny, not a silent allow."""
    cmd = handler.hook_command("claude", "PreToolUse").replace(F.LIB_DIR, str(root / "nowhere"))
    r = subprocess.run(["/bin/sh", "-c", cmd], input="{}", capture_output=True, text=True,
                       timeout=30)
    assert r.returncode == 2


def test_not_root_is_one_line_and_exit_1(home, root, capsys, monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    before = snapshot_tree(root)
    for action in ("plan", "apply", "uninstall", "status"):
        assert org(action, home=home, root=root) == 1
        err = capsys.readouterr().err.strip()
        assert err.startswith("agentdeck: error: agentdeck org must run as root") and "\n" not in err
    assert snapshot_tree(root) == before


@pytest.mark.parametrize("bad", ["group-writable parent", "user-owned file", "symlinked folder"])
def test_a_path_that_fails_the_ownership_check_is_an_error_and_nothing_is_written(
        home, root, tmp_path, capsys, bad):
    if bad == "group-writable parent":
        (root / "etc/codex").mkdir()
        os.chmod(root / "etc/codex", 0o775)
        named = root / "etc/codex"
    elif bad == "user-owned file":
        (root / "etc/github-copilot/policy.d").mkdir(parents=True)
        f = root / "etc/github-copilot/policy.d/agentdeck.json"
        f.write_text("{}\n")
        os.chown(f, 1000, 1000)
        named = f
    else:
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        (root / "etc/claude-code").mkdir()
        (root / "etc/claude-code/managed-settings.d").symlink_to(elsewhere)
        named = root / "etc/claude-code/managed-settings.d"
    before = snapshot_tree(root)
    assert org("apply", "--yes", home=home, root=root) == 1
    err = capsys.readouterr().err
    assert f"{named}:" in err and "not written" in err, err
    assert snapshot_tree(root) == before


def test_the_write_itself_refuses_a_folder_made_unsafe_after_the_plan(home, root, tmp_path):
    """Between plan and write (the OrgHost's own check, not only the plan's)."""
    from agentdeck.core.errors import UserError
    from agentdeck.core import engine
    from agentdeck.core.host import Host, HostError
    from agentdeck.core.org.scope import OrgScope

    host = Host.from_environment(home, env={"HOME": str(home), "PATH": "/usr/bin:/bin"})
    scope = OrgScope(root)
    plan = engine.build_plan(host, "default", ["copilot"], scope=scope)
    (root / "etc/github-copilot").mkdir()
    os.chmod(root / "etc/github-copilot", 0o777)
    with pytest.raises((HostError, UserError)) as e:
        engine.apply_plan(host, plan)
    assert "etc/github-copilot" in str(e.value)
    assert not (root / "etc/github-copilot/policy.d").exists()


def test_a_stale_plan_file_is_refused(home, root, tmp_path, capsys):
    (root / "etc/codex").mkdir()
    req = root / "etc/codex/requirements.toml"
    req.write_text("allowed_approval_policies = [\"never\"]\n")
    assert org("plan", "--json", home=home, root=root) == 2
    doc = json.loads(capsys.readouterr().out)
    assert doc["scope"]["kind"] == "org" and doc["scope"]["prefix"] == str(root)
    planfile = tmp_path / "plan.json"
    planfile.write_text(json.dumps(doc))
    req.write_text("allowed_approval_policies = [\"on-request\"]\n")
    before = snapshot_tree(root)
    assert org("apply", "--yes", "--plan", str(planfile), home=home, root=root) == 1
    err = capsys.readouterr().err
    assert "changed on disk since that plan was computed" in err and "nothing was written" in err
    assert snapshot_tree(root) == before


def test_a_key_the_administrator_sets_too_is_refused_naming_the_file(home, root, capsys):
    (root / "etc/codex").mkdir()
    req = root / "etc/codex/requirements.toml"
    req.write_text("[features]\nweb_search = false\n")
    assert org("plan", "-t", "codex", home=home, root=root) == 1
    err = capsys.readouterr().err
    assert f"{req}: agentdeck's org block cannot go into this file" in err


def test_a_profile_without_rules_is_refused(home, root, capsys):
    prof = home / ".config" / "agentdeck" / "profiles" / "bare"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text("[profile]\nextends = [\"_base\"]\n")
    assert org("plan", "-p", "bare", "-t", "claude", home=home, root=root) == 1
    assert "has no [policy] rules" in capsys.readouterr().err


def test_managed_hooks_only_and_no_bypass_are_written_and_kept_by_the_plan(home, root, capsys):
    assert org("apply", "--yes", "--managed-hooks-only", "--no-bypass", home=home, root=root) == 0
    drop = json.loads((root / "etc/claude-code/managed-settings.d/agentdeck.json").read_text())
    assert drop["allowManagedHooksOnly"] is True
    assert drop["permissions"]["disableBypassPermissionsMode"] == "disable"
    # the [[policy.paths]] deny rules as Claude's own managed permissions.deny too
    assert "Read(~/.aws/credentials)" in drop["permissions"]["deny"]
    assert any(e.startswith("Read(~/.ssh/id_*") for e in drop["permissions"]["deny"])
    req = tomllib.loads((root / "etc/codex/requirements.toml").read_text())
    assert req["allow_managed_hooks_only"] is True
    capsys.readouterr()
    assert org("plan", "--managed-hooks-only", "--no-bypass", home=home, root=root) == 0
    assert org("plan", home=home, root=root) == 2          # without them: a change back


def test_status_json_before_install(home, root, capsys):
    assert org("status", "--json", home=home, root=root) == 2
    rows = json.loads(capsys.readouterr().out)
    assert [r["target"] for r in rows] == list(F.names())
    assert all(r["state"] == "not installed" and r["installed"] is False for r in rows)


def test_the_closure_refuses_a_non_stdlib_import(host, monkeypatch):
    from agentdeck.core.errors import UserError

    real = handler._imports
    monkeypatch.setattr(handler, "_IMPORTS", {})      # what an earlier closure read is not kept
    monkeypatch.setattr(handler, "_imports", lambda tree, mod, pkg: real(tree, mod, pkg)
                        + ([("requests", [], False)] if mod == handler.ROOT_MODULE else []))
    with pytest.raises(UserError, match="agentdeck.core.hookhandler imports requests"):
        handler.closure(host)


def test_the_closure_is_the_handler_and_its_own_modules(host):
    """Install-time helpers (pydantic models, tomlkit, the targets' adapters and facts) are not
    copied; of the targets, only what the handler imports by name is: the registry, the specs
    and each target's dialect; what is copied imports only the standard library at module
    level."""
    from agentdeck.core.targets import registry

    files = handler.closure(host)
    assert "agentdeck/core/hookhandler.py" in files and "agentdeck/core/policy/shellparse.py" in files
    assert not any(f.startswith("agentdeck/core/formats/")
                   or f in ("agentdeck/core/model.py", "agentdeck/core/desired.py")
                   for f in files), sorted(files)
    t = "agentdeck/core/targets/"
    assert {f for f in files if f.startswith(t)} == {
        t + "__init__.py", t + "registry.py", t + "spec.py", t + "dialects.py",
        *(f"{t}{n}/{m}.py" for n in registry.NAMES for m in ("__init__", "dialect"))}


def test_the_doctor_shows_the_org_layer_and_its_ownership(home, root, capsys):
    from agentdeck.core.doctor.context import Ctx
    from agentdeck.core.doctor.org_checks import findings
    from agentdeck.core.host import Host

    host = Host.from_environment(home, env={"HOME": str(home), "PATH": "/usr/bin:/bin",
                                            "AGENTDECK_ORG_ROOT": str(root)})
    assert findings(Ctx(host=host)) == []                  # no org layer: no row at all
    assert org("apply", "--yes", home=home, root=root) == 0
    rows = {f.target: f for f in findings(Ctx(host=host))}
    assert set(rows) == set(F.names())
    assert all(f.result == "ok" and "enforcing 3 rules" in f.message for f in rows.values())
    os.chmod(root / "etc/claude-code/managed-settings.d", 0o777)
    bad = [f for f in findings(Ctx(host=host)) if f.result == "error"]
    assert [f.target for f in bad] == ["claude"]
    assert "managed-settings.d: a parent directory is group- or world-writable" in bad[0].message


def test_org_drill_refuses_root_as_the_user_and_skips_without_the_layer(home, root, capsys):
    assert org("drill", "--user", "0:0", home=home, root=root) == 1
    assert "--user 0 is root" in capsys.readouterr().err
    assert org("drill", "--user", "x", home=home, root=root) == 1
    assert "give UID:GID as numbers" in capsys.readouterr().err
    assert org("drill", "-t", "claude", home=home, root=root) == 1
    out = capsys.readouterr().out
    assert "claude   skipped" in out and "run agentdeck org apply first" in out


def test_a_missing_or_unreadable_shell_parser_is_a_plan_error(home, root, tmp_path, capsys,
                                                              monkeypatch):
    monkeypatch.setattr(handler, "parser_packages", lambda host: [])
    assert org("plan", "-t", "claude", home=home, root=root) == 1
    assert "the shell parser (tree_sitter, tree_sitter_bash) is not installed" in capsys.readouterr().err
    hidden = tmp_path / "private" / "site" / "tree_sitter"
    hidden.mkdir(parents=True)
    (hidden / "_binding.so").write_bytes(b"\0")
    os.chmod(tmp_path / "private", 0o700)
    monkeypatch.setattr(handler, "parser_packages", lambda host: [hidden, hidden])
    assert org("plan", "-t", "claude", home=home, root=root) == 1
    err = capsys.readouterr().err         # a folder other users cannot enter: refused
    assert "other users cannot enter it (mode 0700)" in err
    from agentdeck.core.host import Host
    from agentdeck.core.org import ownership
    why = ownership.reachable_problems(Host.from_environment(home), hidden / "_binding.so")
    assert any("other users cannot enter it" in w for w in why), why


def _org_profile(home, text: str, name: str = "orgkeys") -> str:
    d = home / ".config" / "agentdeck" / "profiles" / name
    d.mkdir(parents=True)
    (d / "profile.toml").write_text('[profile]\nextends = ["default"]\n\n' + text)
    return name


def test_the_profile_s_org_keys_are_written_in_each_cli_s_own_spelling(home, root, capsys):
    """[org] in the profile: the hooks-only and no-bypass switches and the MCP lists, each CLI's
    layer in the spelling the real CLI was observed to honour (core/targets/<name>/org.py)."""
    prof = _org_profile(home, "[org]\nmanaged_hooks_only = true\nno_bypass = true\n"
                              'mcp_allowed = ["memory", "github", "evil", "undefined"]\n'
                              'mcp_denied = ["evil"]\n')
    mine = '{\n  "model": "gpt-5.4"\n}\n'
    (root / "etc/github-copilot").mkdir(parents=True)
    (root / "etc/github-copilot/managed-settings.json").write_text(mine)
    before = snapshot_tree(root)
    assert org("apply", "--yes", "-p", prof, home=home, root=root) == 0
    out = capsys.readouterr().out
    # the plan says what a CLI cannot hold, rather than pretending
    assert "the profile's mcp.json does not define undefined" in out
    assert "matched by the name the user gives them" in out
    drop = json.loads((root / "etc/claude-code/managed-settings.d/agentdeck.json").read_text())
    assert drop["allowManagedHooksOnly"] is True
    assert drop["permissions"]["disableBypassPermissionsMode"] == "disable"
    assert drop["deniedMcpServers"] == [{"serverName": "evil"}]
    assert drop["allowedMcpServers"] == [{"serverName": n} for n in ("memory", "github",
                                                                      "undefined")]
    assert drop["allowManagedMcpServersOnly"] is True    # else the user's list broadens it
    req = tomllib.loads((root / "etc/codex/requirements.toml").read_text())
    assert req["allow_managed_hooks_only"] is True
    # Codex: an allowlist of name + what it runs, from the profile's mcp.json; the denied one
    # and the one the profile does not define are not on it
    github = "https://api.githubcopilot.com/mcp/"
    assert req["mcp_servers"] == {"memory": {"identity": {"command": "npx"}},
                                  "github": {"identity": {"url": github}}}
    ms = json.loads((root / "etc/github-copilot/managed-settings.json").read_text())
    assert ms["model"] == "gpt-5.4"                       # the administrator's key kept
    assert ms["deniedMcpServers"] == [{"serverName": "evil"}]
    assert [e["serverName"] for e in ms["allowedMcpServers"]] == ["memory", "github", "undefined"]
    assert "allowManagedMcpServersOnly" not in ms        # it stopped every server (observed)
    pol = json.loads((root / "etc/github-copilot/policy.d/agentdeck.json").read_text())
    assert list(pol) == ["version", "hooks"]              # policy.d takes hook files only
    assert org("plan", "-p", prof, home=home, root=root) == 0        # empty right after
    assert org("uninstall", "--yes", home=home, root=root) == 0
    after = snapshot_tree(root)
    assert {k: v for k, v in after.items() if not k.startswith("var/lib/agentdeck")} == before
    assert (root / "etc/github-copilot/managed-settings.json").read_text() == mine


def test_the_command_line_turns_the_org_keys_on_and_adds_to_the_mcp_lists(home, root, capsys):
    prof = _org_profile(home, '[org]\nmcp_denied = ["evil"]\n')
    assert org("apply", "--yes", "-p", prof, "--mcp-deny", "worse", "--mcp-allow", "memory",
               "--no-bypass", home=home, root=root) == 0
    drop = json.loads((root / "etc/claude-code/managed-settings.d/agentdeck.json").read_text())
    assert drop["deniedMcpServers"] == [{"serverName": "evil"}, {"serverName": "worse"}]
    assert drop["allowedMcpServers"] == [{"serverName": "memory"}]
    assert drop["permissions"]["disableBypassPermissionsMode"] == "disable"
    assert "allowManagedHooksOnly" not in drop
    capsys.readouterr()
    # the same flags: in sync; the profile alone: the flags' additions planned away
    assert org("plan", "-p", prof, "--mcp-deny", "worse", "--mcp-allow", "memory",
               "--no-bypass", home=home, root=root) == 0
    assert org("plan", "-p", prof, home=home, root=root) == 2
    assert org("plan", "-p", prof, "--mcp-deny", "../x", home=home, root=root) == 1
    assert "--mcp-deny: invalid MCP server name '../x'" in capsys.readouterr().err


def test_a_denylist_codex_cannot_hold_is_a_note_not_a_key(home, root, capsys):
    prof = _org_profile(home, '[org]\nmcp_denied = ["evil"]\n')
    assert org("plan", "-p", prof, "-t", "codex", home=home, root=root) == 2
    out = capsys.readouterr().out
    assert "no MCP denylist in requirements.toml" in out and "evil not held" in out
    assert org("apply", "--yes", "-p", prof, "-t", "codex", home=home, root=root) == 0
    assert "mcp_servers" not in tomllib.loads((root / "etc/codex/requirements.toml").read_text())


def test_an_empty_allowlist_lets_no_server_start(home, root):
    prof = _org_profile(home, "[org]\nmcp_allowed = []\n")
    assert org("apply", "--yes", "-p", prof, home=home, root=root) == 0
    drop = json.loads((root / "etc/claude-code/managed-settings.d/agentdeck.json").read_text())
    assert drop["allowedMcpServers"] == [] and drop["allowManagedMcpServersOnly"] is True
    assert tomllib.loads((root / "etc/codex/requirements.toml").read_text())["mcp_servers"] == {}
    ms = json.loads((root / "etc/github-copilot/managed-settings.json").read_text())
    assert ms == {"allowedMcpServers": []}


@pytest.mark.parametrize("text, message", [
    ('[org]\nmanaged_hooks_only = "yes"\n',
     "5: org.managed_hooks_only: Input should be a valid boolean"),
    ('[org]\nmcp_denied = ["ok", "../x"]\n',
     "5: org.mcp_denied: Value error, invalid MCP server name '../x'"),
    ('[org]\nmcp_allow = ["ok"]\n',
     "5: org.mcp_allow: unknown field (did you mean `mcp_allowed`?)"),
    ('[org]\nmcp_allowed = "memory"\n', "5: org.mcp_allowed: Input should be a valid list"),
])
def test_a_bad_org_key_is_one_line_naming_the_file_and_line(home, root, capsys, text, message):
    prof = _org_profile(home, text)
    path = home / ".config/agentdeck/profiles" / prof / "profile.toml"
    before = snapshot_tree(root)
    assert org("plan", "-p", prof, home=home, root=root) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"agentdeck: error: {path}:{message}"), err
    assert snapshot_tree(root) == before


def test_a_later_profile_s_org_key_replaces_the_inherited_one(host):
    from agentdeck.core import profiles
    base = host.config_dir / "profiles" / "team"
    base.mkdir(parents=True)
    (base / "profile.toml").write_text('[profile]\nextends = ["default"]\n[org]\n'
                                       'managed_hooks_only = true\nmcp_denied = ["a"]\n')
    mine = host.config_dir / "profiles" / "mine"
    mine.mkdir(parents=True)
    (mine / "profile.toml").write_text('[profile]\nextends = ["team"]\n[org]\n'
                                       'mcp_denied = ["b"]\nno_bypass = false\n')
    org_keys = profiles.resolve(host, "mine").org
    assert (org_keys.managed_hooks_only, org_keys.no_bypass, org_keys.mcp_denied,
            org_keys.mcp_allowed) == (True, False, ["b"], None)


def test_an_administrator_s_own_copilot_mcp_list_is_a_conflict_not_overwritten(home, root, capsys):
    prof = _org_profile(home, '[org]\nmcp_denied = ["evil"]\n')
    (root / "etc/github-copilot").mkdir(parents=True)
    ms = root / "etc/github-copilot/managed-settings.json"
    ms.write_text('{"deniedMcpServers": [{"serverName": "theirs"}]}\n')
    assert org("plan", "-p", prof, "-t", "copilot", home=home, root=root) == 2
    assert "conflict" in capsys.readouterr().out
    assert org("apply", "--yes", "-p", prof, "-t", "copilot", home=home, root=root) == 2
    assert json.loads(ms.read_text()) == {"deniedMcpServers": [{"serverName": "theirs"}]}
