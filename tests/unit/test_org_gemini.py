"""Gemini CLI's org layer (core/targets/gemini/org.py) against a temporary root prefix, never the
machine's /etc: the system settings file it writes (hooksConfig.enabled pinned, the named org
BeforeTool hook in milliseconds), the admin policy file of the profile's deny rules, an empty plan
after, uninstall byte-exact with and without an administrator's own file, the doctor's row (a
file that lost its pin; what still undoes the hook for this user), `org status` naming what
undoes it, the plan's notes, and a drill that tries only what holds. The rules' regular
expressions are checked here against the argument text Gemini matches them on; that Gemini itself
honours them is tests/clients/test_org_real.py's."""
from __future__ import annotations

import json
import re
import tomllib

from agentdeck.core.facts import org as F
from agentdeck.core.org import handler
from agentdeck.core.targets.gemini import org as G
from tests.conftest import snapshot_tree
from tests.unit.test_org import org, root  # noqa: F401 (fixture)

LAYER = "etc/gemini-cli/settings.json"
POLICY = "etc/gemini-cli/policies/agentdeck.toml"


def _args(obj: dict) -> str:
    """The text Gemini 0.61.0 matches argsPattern on (its stableStringify: keys sorted, each
    top-level pair between NUL characters)."""
    return "{" + ",".join("\0" + json.dumps(k) + ":" + json.dumps(obj[k], separators=(",", ":"))
                          + "\0" for k in sorted(obj)) + "}"


def test_the_system_file_pins_hooks_on_and_runs_the_named_org_hook(home, root, capsys):
    before = snapshot_tree(root)
    assert org("apply", "--yes", "-t", "gemini", home=home, root=root) == 0
    capsys.readouterr()
    assert org("plan", "-t", "gemini", home=home, root=root) == 0      # empty right after
    text = (root / LAYER).read_text()
    doc = json.loads(text)
    assert doc["hooksConfig"] == {"enabled": True}
    [group] = doc["hooks"]["BeforeTool"]
    [hook] = group["hooks"]
    assert hook["command"] == handler.hook_command("gemini", "BeforeTool")
    assert hook["command"].endswith("|| exit 2") and f" {F.PYTHON} -I -S " in hook["command"]
    assert hook["name"] == G.HOOK_NAME != "agentdeck"      # not the user layer's name
    assert hook["type"] == "command" and hook["timeout"] >= 1000      # milliseconds
    for rel in (LAYER, POLICY):
        st = (root / rel).lstat()
        assert st.st_uid == 0 and (st.st_mode & 0o7777) == 0o644, rel
    assert (root / "etc/gemini-cli/policies").lstat().st_mode & 0o7777 == 0o755
    assert G.layer_problems(text) == []
    assert org("uninstall", "--yes", "-t", "gemini", home=home, root=root) == 0
    after = snapshot_tree(root)
    assert {k: v for k, v in after.items() if not k.startswith("var/lib/agentdeck")} == before
    assert not (root / "etc/gemini-cli").exists()


def test_the_admin_policy_file_denies_the_profile_s_paths_for_the_spellings_it_matches(
        home, root, capsys):
    assert org("apply", "--yes", "-t", "gemini", home=home, root=root) == 0
    doc = tomllib.loads((root / POLICY).read_text())
    by = {r["denyMessage"].split("(")[1].split(")")[0]: r for r in doc["rule"]}
    assert set(by) == {"ssh-private-keys", "ssh-authorized-keys", "cloud-credentials"}
    for r in doc["rule"]:
        assert r["decision"] == "deny" and r["priority"] == G.PRIORITY
    keys = by["ssh-private-keys"]
    assert keys["toolName"] == "*"                      # read and write: every tool
    assert by["ssh-authorized-keys"]["toolName"] == ["write_file", "replace"]   # write only
    rx = re.compile(keys["argsPattern"])
    shell = lambda c: _args({"command": c, "description": "x"})  # noqa: E731
    for denied in (shell("cat ~/.ssh/id_ed25519"), shell("touch m; cat ~/.ssh/id_rsa"),
                   shell("cat $HOME/.ssh/id_ecdsa"), shell("cat ~/.ssh/id_r*"),
                   _args({"file_path": "~/.ssh/id_rsa"})):
        assert rx.search(denied), denied
    for allowed in (shell("cat ~/.ssh/id_ed25519.pub"), shell("cat src/ssh/id_rsa.go"),
                    shell("cat ~/.ssh/known_hosts"), shell("ls ~/.ssh"),
                    shell("cat docs/.ssh/id_rsa")):
        assert not rx.search(allowed), allowed
    # Gemini 0.61.0 refuses a pattern with a nested quantifier (its isSafeRegExp)
    nested = re.compile(r"\([^)]*[*+?{].*\)[*+?{]")
    assert all(not nested.search(r["argsPattern"]) and len(r["argsPattern"]) <= 2048
               for r in doc["rule"])


def test_a_shell_command_rule_becomes_a_command_prefix_and_a_regex_rule_is_left_to_the_hook():
    pol = {"rules": [{"id": "no-rm", "tool": "shell", "command": ["rm"], "decision": "deny",
                      "reason": "no"},
                     {"id": "no-curl", "tool": "shell", "match": r"\bcurl\b", "decision": "deny"},
                     {"id": "ok", "tool": "shell", "command": ["ls"], "decision": "allow"}],
           "paths": [{"id": "rel", "paths": ["secrets/*.key"], "decision": "deny"}]}
    rules, left = G.admin_rules(pol)
    assert [(r["id"], r.get("commandPrefix")) for r in rules] == [("no-rm", ["rm"])]
    assert rules[0]["toolName"] == "run_shell_command"
    text = " ".join(left)
    assert "no-curl" in text and "secrets/*.key" in text and "ok" not in text.split()
    assert tomllib.loads(G.policies_text(rules))["rule"][0]["commandPrefix"] == ["rm"]


def test_an_administrator_s_own_system_file_is_kept_unless_taken_and_comes_back_byte_exact(
        home, root, capsys):
    (root / "etc/gemini-cli").mkdir(mode=0o755)
    mine = '{\n  // the administrator\'s\n  "telemetry": {"enabled": false}\n}\n'
    (root / LAYER).write_text(mine)
    (root / LAYER).chmod(0o644)
    before = snapshot_tree(root)
    assert org("plan", "-t", "gemini", home=home, root=root) == 2
    assert "foreign: keeping yours" in capsys.readouterr().out
    assert org("apply", "--yes", "-t", "gemini", home=home, root=root) == 0
    capsys.readouterr()
    assert (root / LAYER).read_text() == mine          # not taken without being asked
    assert org("status", "-t", "gemini", home=home, root=root) == 2
    assert "not in effect" in capsys.readouterr().out
    assert org("apply", "--yes", "-t", "gemini", "--take", str(root / LAYER),
               home=home, root=root) == 0
    capsys.readouterr()
    assert json.loads((root / LAYER).read_text())["hooksConfig"]["enabled"] is True
    assert org("uninstall", "--yes", "-t", "gemini", home=home, root=root) == 0
    after = snapshot_tree(root)
    assert {k: v for k, v in after.items() if not k.startswith("var/lib/agentdeck")} == before
    assert (root / LAYER).read_text() == mine


def test_org_status_names_what_still_undoes_the_hook(home, root, capsys):
    assert org("apply", "--yes", "-t", "gemini", home=home, root=root) == 0
    capsys.readouterr()
    assert org("status", "-t", "gemini", home=home, root=root) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("gemini") and "in sync" in line and "0.61.0" in line
    for what in ("hooksConfig.disabled", "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
                 "insecure /etc/gemini-cli"):
        assert what in line, line
    assert org("status", "-t", "gemini", "--json", home=home, root=root) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert set(row["undone_by"]) == set(G.FACTS.undone_by) and row["state"] == "in sync"


def test_the_doctor_flags_a_lost_pin_and_what_undoes_the_hook_for_this_user(home, root, capsys):
    from agentdeck.core.doctor.context import Ctx
    from agentdeck.core.doctor.org_checks import findings
    from agentdeck.core.host import Host

    assert org("apply", "--yes", "-t", "gemini", home=home, root=root) == 0
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "AGENTDECK_ORG_ROOT": str(root)}
    host = Host.from_environment(home, env=env)
    [row] = [f for f in findings(Ctx(host=host)) if f.target == "gemini"]
    assert row.result == "ok", row
    # the standing facts: what still undoes the hook, with the version observed
    assert "what still undoes its hook in Gemini CLI 0.61.0 (observed)" in row.message
    for what in G.FACTS.undone_by:
        assert what in row.message, what
    # the user's own switches: the org hook's name in hooksConfig.disabled, the variable
    (home / ".gemini").mkdir(exist_ok=True)
    (home / ".gemini/settings.json").write_text(json.dumps(
        {"hooksConfig": {"disabled": [G.HOOK_NAME]}}))
    host = Host.from_environment(home, env={**env, "GEMINI_CLI_SYSTEM_SETTINGS_PATH": "/x.json"})
    rows = [f for f in findings(Ctx(host=host)) if f.target == "gemini"]
    assert {f.result for f in rows} == {"error"}, rows          # no ok line beside them
    bad = " ".join(f.message for f in rows)
    assert f"\"{G.HOOK_NAME}\" in hooksConfig.disabled" in bad and "/x.json" in bad, bad
    doc = json.loads((root / LAYER).read_text())
    doc["hooksConfig"] = {"enabled": False}
    (root / LAYER).write_text(json.dumps(doc))
    bad = [f for f in findings(Ctx(host=Host.from_environment(home, env=env)))
           if f.target == "gemini" and f.result == "error"]
    assert any("does not pin hooksConfig.enabled: true" in f.message for f in bad), bad


def test_the_plan_notes_what_gemini_cannot_hold(home, root, capsys):
    assert org("plan", "-t", "gemini", "--managed-hooks-only", "--no-bypass", "--mcp-deny", "fs",
               home=home, root=root) == 2
    out = capsys.readouterr().out
    for word in ("hooksConfig.disabled", "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "Security Warning",
                 "managed_hooks_only: Gemini CLI has no such switch", "no_bypass: not written",
                 "mcp.excluded / mcp.allowed", "--allowed-mcp-server-names",
                 "admin-tier policy rules"):
        assert word in out, (word, out)


def test_the_org_mcp_lists_are_the_system_file_s_mcp_keys_and_plan_empty_after(home, root,
                                                                              capsys):
    """[org] mcp_denied / mcp_allowed: mcp.excluded and mcp.allowed (the allowlist without the
    denied names); a real turn holding them is tests/clients/test_org_mcp_real.py."""
    flags = ("--mcp-deny", "fs", "--mcp-allow", "docs", "--mcp-allow", "fs")
    assert org("apply", "--yes", "-t", "gemini", *flags, home=home, root=root) == 0
    capsys.readouterr()
    assert org("plan", "-t", "gemini", *flags, home=home, root=root) == 0
    assert "Everything is in sync" in capsys.readouterr().out
    doc = json.loads((root / LAYER).read_text())
    assert doc["mcp"] == {"excluded": ["fs"], "allowed": ["docs"]}


def test_the_drill_tries_only_what_was_observed_to_hold():
    tries = G.drill_attempts()
    for held in ("hooks_enabled", "project_hooks_enabled", "yolo", "user_allow_hook",
                 "user_policy_allow"):
        assert ": holds" in G.FACTS.attempts[held], held
    for beaten in ("disabled_name", "system_path_env"):
        assert "does NOT hold" in G.FACTS.attempts[beaten], beaten
    blob = json.dumps([tries.files, tries.work_files, tries.env, tries.flags])
    assert G.HOOK_NAME not in blob and "GEMINI_CLI_SYSTEM_SETTINGS_PATH" not in blob
    user = json.loads(tries.files["settings.json"])
    project = json.loads(tries.work_files[".gemini/settings.json"])
    assert user["hooksConfig"]["enabled"] is False and project["hooksConfig"]["enabled"] is False
    assert 'decision = "allow"' in tries.files["policies/allow.toml"]
