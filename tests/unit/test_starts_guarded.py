"""Files that name programs a CLI starts by itself (MCP servers, plugins, extensions, its
managed folder) are guarded like its hook settings: a model's write there would run code at the
CLI's next start, outside any hook. Over the registry: every config file and script the default
profile's plan writes, and every path a policy part lists as STARTS, is denied to a model's
write in every template's file tool and in shell forms, by the built-in agentdeck-self rule."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentdeck.core import engine
from agentdeck.core.host import Host
from agentdeck.core.policy import corpus as C
from agentdeck.core.policy.compiled import SELF_RULE, compile_policy, self_protection
from agentdeck.core.policy.payloads import shapes, tool_shapes
from agentdeck.core.policy.selftest import run_case
from agentdeck.core.targets import registry

GUARDED_TARGETS = [s.name for s in registry.TARGETS if registry.has_part(s.name, "policy")]


def _host(home: Path) -> Host:
    h = Host.from_environment(home, env={"HOME": str(home)})
    h.cwd = home / "proj"
    return h


def _denied(doc: dict, home: Path, path: str,
            dialects_of: str | None = None) -> list[tuple[str, str | None, str | None]]:
    """(form, decision, rule) of each write form on `path` that is NOT denied by agentdeck-self
    (in the payload shapes of the CLI `dialects_of` names, when given; else in every one)."""
    forms = list(tool_shapes("write", path))
    for cmd in (f"echo x > {path}", f"cp /tmp/x {path}", f"ln -sf /tmp/x {path}"):
        forms += list(shapes("shell", cmd))
    if dialects_of is not None:
        forms = [f for f in forms if f[1] == dialects_of]
        assert forms, f"no payload shape of {dialects_of}"
    bad = []
    for label, target, event, payload in forms:
        payload = dict(payload)
        if "cwd" in payload:
            payload["cwd"] = str(home / "proj")
        record, _, _, _ = run_case(doc, target, event, payload, {"HOME": str(home)})
        if record.get("decision") != "deny" or record.get("rule") != SELF_RULE:
            bad.append((label, record.get("decision"), record.get("rule")))
    return bad


def _doc(host: Host, target: str) -> dict:
    return json.loads(compile_policy(C.CORPUS_POLICY, target,
                                     protect=self_protection(host, target)))


@pytest.mark.parametrize("target", GUARDED_TARGETS)
def test_every_config_file_the_plan_writes_is_guarded(target, tmp_path):
    """The files agentdeck itself writes into the CLI's config (hooks, MCP servers, the plugin,
    the wrapper): a model that rewrites one gets a deny."""
    host = _host(tmp_path)
    plan = engine.build_plan(host, "default", [target])
    written = sorted({i.path for i in plan.items if i.target == target and (
        i.kind == "key" or (i.kind == "file" and not i.path.endswith(".md")))})
    assert written, f"{target}: the default profile's plan writes no config file"
    doc = _doc(host, target)
    for path in written:
        assert not _denied(doc, tmp_path, path), (path, _denied(doc, tmp_path, path))


def _starts() -> list[tuple[str, str]]:
    return [(s.name, p) for s in registry.TARGETS if registry.has_part(s.name, "policy")
            for p in getattr(registry.part(s.name, "policy"), "STARTS", ())]


@pytest.mark.parametrize("target,entry", _starts(), ids=[f"{t}:{p}" for t, p in _starts()])
def test_a_write_to_a_file_the_cli_starts_programs_from_is_denied(target, entry, tmp_path):
    host = _host(tmp_path)
    home = registry.BY_NAME[target].home(host)
    rel = entry.removesuffix("/**")
    if entry.startswith("**/"):
        path = str(tmp_path / "proj" / rel[3:])
    else:
        path = str(home / rel)              # an absolute entry stays absolute
    if entry.endswith("/**"):
        path += "/x.js"
    assert registry.part(target, "policy").GUARDED, target
    assert not _denied(_doc(host, target), tmp_path, path), path


def test_every_cli_names_what_it_starts():
    """Every guarded CLI declares STARTS: at least its managed folder."""
    missing = [t for t in GUARDED_TARGETS
               if not getattr(registry.part(t, "policy"), "STARTS", ())]
    assert not missing, missing


@pytest.mark.parametrize("target", GUARDED_TARGETS)
def test_the_shell_start_up_files_are_guarded_in_every_cli(target, tmp_path):
    """~/.bashrc and its kin define what every later command runs (Claude Code sources the
    user's shell set-up before each Bash call) and export what every CLI started from that
    shell reads: a write there is denied like a write to a CLI's hook settings."""
    from agentdeck.core.policy.compiled import SHELL_STARTUP

    host = _host(tmp_path)
    doc = _doc(host, target)
    for entry in SHELL_STARTUP:
        path = str(tmp_path / entry[2:].removesuffix("/**")) + ("/x.fish" if entry.endswith("/**")
                                                                 else "")
        # in this CLI's own payload shapes (every shape is tried for the corpus's cases)
        bad = _denied(doc, tmp_path, path, dialects_of=target)
        assert not bad, (path, bad)
    calls = {"echo 'git(){ rm -rf x; }' >> ~/.bashrc": "deny", "cat ~/.bashrc": "allow",
             "grep PATH ~/.bashrc": "allow", "source ~/.bashrc": "allow",
             ". ~/.profile": "allow"}
    for command, expected in calls.items():
        for label, t, event, payload in shapes("shell", command):
            record, _, _, _ = run_case(doc, t, event, dict(payload), {"HOME": str(tmp_path)})
            assert record.get("decision") == expected, (command, label, record)


@pytest.mark.parametrize("target", GUARDED_TARGETS)
def test_a_permission_change_on_a_folder_above_the_guards_files_is_a_write(target, tmp_path):
    """`chmod 000 ~/.claude` leaves settings.json in place but unreadable to the CLI (its hooks
    then do not load): a mode, owner or attribute change on a folder above a file the plan
    writes is denied by agentdeck-self, as a write to that file is."""
    host = _host(tmp_path)
    plan = engine.build_plan(host, "default", [target])
    written = sorted({i.path for i in plan.items if i.target == target and i.kind in ("key", "file")
                      and str(tmp_path) in i.path})
    assert written, f"{target}: the default profile's plan writes no file in the home"
    from agentdeck.core.policy.fs import MemoryFS
    fs = MemoryFS({p: "" for p in written})       # the files as the apply leaves them
    doc = _doc(host, target)
    folder = str(registry.BY_NAME[target].home(host))   # the CLI's own folder (not itself listed)
    assert any(p.startswith(folder + "/") for p in written), (folder, written)
    for cmd in (f"chmod 000 {folder}", f"chown nobody {folder}", f"chattr +i {folder}"):
        for label, t, event, payload in shapes("shell", cmd):
            payload = dict(payload)
            if "cwd" in payload:
                payload["cwd"] = str(tmp_path / "proj")
            record, _, _, _ = run_case(doc, t, event, payload, {"HOME": str(tmp_path)}, fs=fs)
            assert (record.get("decision"), record.get("rule")) == ("deny", SELF_RULE), \
                (cmd, label, record)
