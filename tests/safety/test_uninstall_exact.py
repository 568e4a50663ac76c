"""Install then uninstall gives back the home byte for byte (contents, modes,
symlinks), agentdeck's own state directory aside -- for each target alone and all together, on a
fresh home and on a messy one. Keys the operator changed after the install stay as they left them
and are reported. Uninstalling one target never touches another target's files."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from agentdeck.core import engine
from tests.safety.safety_helpers import (needs, HOMES, available, cli_inproc, diff_snapshots,
                                         home_snapshot, install, make_host, plan_json,
                                         target_args, target_sets, uninstall)

SETS = target_sets()


def _ids(names):
    return "+".join(names)


@pytest.mark.parametrize("kind", sorted(HOMES))
@pytest.mark.parametrize("names", SETS, ids=_ids)
def test_install_then_uninstall_is_byte_exact(tmp_path, kind, names):
    home = HOMES[kind](tmp_path / "home")
    before = home_snapshot(home)
    install(home, names)
    installed = home_snapshot(home)
    assert installed != before, "the install wrote nothing: the test would prove nothing"
    uninstall(home, names)
    after = home_snapshot(home)
    assert after == before, "uninstall did not give the home back:\n" + diff_snapshots(before, after)
    # and there is nothing left to uninstall
    rc, out, err = cli_inproc("uninstall", "--home", home, "--yes", *target_args(names))
    assert rc == 0 and home_snapshot(home) == before, out + err


@pytest.mark.parametrize("kind", sorted(HOMES))
def test_install_twice_then_uninstall_is_byte_exact(tmp_path, kind):
    """A second apply (nothing to do) and a re-install after an uninstall change nothing about
    the guarantee."""
    names = available()
    home = HOMES[kind](tmp_path / "home")
    before = home_snapshot(home)
    install(home, names)
    install(home, names)
    uninstall(home, names)
    install(home, names)
    uninstall(home, names)
    after = home_snapshot(home)
    assert after == before, diff_snapshots(before, after)


def test_install_with_fake_second_target_then_uninstall_is_byte_exact(tmp_path, with_fake_target):
    """All real targets plus a second (test) target sharing the ~/.agents/skills link."""
    names = available() + [with_fake_target]
    home = HOMES["messy"](tmp_path / "home")
    before = home_snapshot(home)
    install(home, names)
    uninstall(home, names)
    after = home_snapshot(home)
    assert after == before, diff_snapshots(before, after)


# ---- operator edits after the install -------------------------------------------------------------

def _edit_copilot(home: Path) -> dict[str, bytes]:
    """Operator edits after an install: a managed settings key changed (in place, comments and
    line ends kept), an MCP server of ours changed, the persona block changed, our agent file
    changed. Returns the edited files' bytes."""
    from agentdeck.core.formats.jsonc import JsonDoc

    settings = home / ".copilot" / "settings.json"
    doc = JsonDoc.parse(settings.read_bytes().decode())
    assert doc.get(("disableAllHooks",)) is False
    doc.set(("disableAllHooks",), True)
    settings.write_bytes(doc.text().encode())        # through the symlink, like an editor would
    mcp = home / ".copilot" / "mcp-config.json"
    m = json.loads(mcp.read_text())
    m["mcpServers"]["memory"]["args"] = ["-y", "my-own-memory-fork"]
    mcp.write_text(json.dumps(m, indent=2) + "\n")
    persona = home / ".copilot" / "copilot-instructions.md"
    persona.write_text(persona.read_text().replace("Assembled by agentdeck", "Assembled (and edited by me)"))
    agent = home / ".copilot" / "agents" / "reviewer.md"
    agent.write_text(agent.read_text() + "\nMy extra line.\n")
    return {str(p.resolve().relative_to(home)): p.read_bytes() for p in (settings, mcp, persona, agent)}


def _strip_jsonc(text: str) -> str:
    from agentdeck.core.formats.jsonc import JsonDoc
    return json.dumps(JsonDoc.parse(text).data)


@needs("copilot")
@pytest.mark.parametrize("kind", sorted(HOMES))
def test_operator_changes_after_install_are_kept_and_reported(tmp_path, kind):
    home = HOMES[kind](tmp_path / "home")
    before = home_snapshot(home)
    install(home, ["copilot"])
    edited = _edit_copilot(home)
    plan = plan_json(home, ["copilot"], uninstall=True)
    kept = {(i["path"], tuple(i["key"])) for i in plan["items"] if i["class"] == "hand-edited"}
    home_s = str(home)
    assert (home_s + "/.copilot/settings.json", ("disableAllHooks",)) in kept
    assert (home_s + "/.copilot/mcp-config.json", ("mcpServers", "memory")) in kept
    assert (home_s + "/.copilot/copilot-instructions.md", ()) in kept
    assert (home_s + "/.copilot/agents/reviewer.md", ()) in kept
    assert plan["summary"]["hand_edits_kept"] >= 4
    out, err = uninstall(home, ["copilot"])
    assert "hand-edit" in out and "kept" in out       # reported to the operator
    after = home_snapshot(home)
    # the operator's edits are exactly as they left them
    settings_now = json.loads(_strip_jsonc((home / ".copilot/settings.json").read_text()))
    assert settings_now["disableAllHooks"] is True
    assert json.loads((home / ".copilot/mcp-config.json").read_text())["mcpServers"]["memory"][
        "args"] == ["-y", "my-own-memory-fork"]
    assert "Assembled (and edited by me)" in (home / ".copilot/copilot-instructions.md").read_text()
    assert (home / ".copilot/agents/reviewer.md").read_bytes() == edited[".copilot/agents/reviewer.md"]
    # everything else agentdeck wrote is gone: only the edited files differ from before
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    allowed = set(edited) | {".copilot/agents", ".copilot", ".copilot/.agentdeck-managed.json"}
    assert changed <= allowed, diff_snapshots({k: before.get(k) for k in changed - allowed},
                                              {k: after.get(k) for k in changed - allowed})
    # ... and the kept items are no longer agentdeck's: a second uninstall has nothing to do
    again = plan_json(home, ["copilot"], uninstall=True)
    assert not again["summary"]["changes_pending"]


# ---- one target's uninstall leaves the others alone -----------------------------------------------

def _owned_paths(home: Path, name: str) -> set[str]:
    from agentdeck.core import targets
    host = make_host(home)
    mp = targets.get(name).manifest_path(host)
    if not mp.exists():
        return set()
    data = json.loads(mp.read_text())
    out = {e["path"] for e in data["entries"]}
    out.add(str(mp))
    return out


@pytest.mark.parametrize("victim", available())
def test_uninstalling_one_target_never_touches_another(tmp_path, victim, with_fake_target):
    """Install every target (the real ones and a test target sharing the skill link), then
    uninstall one: every file not owned by it alone is byte-identical afterwards."""
    names = available() + [with_fake_target]
    home = HOMES["messy"](tmp_path / "home")
    install(home, names)
    mid = home_snapshot(home)
    others = set().union(*(_owned_paths(home, n) for n in names if n != victim))
    uninstall(home, [victim])
    after = home_snapshot(home)
    for p in sorted(others):
        rel = os.path.relpath(p, home)
        assert after.get(rel) == mid.get(rel), f"uninstalling {victim} touched {rel}, owned by another target"
    # a shared item (the skill link both install) is still there for the remaining owner
    link = home / ".agents" / "skills" / "changelog"
    if victim != with_fake_target:
        assert link.is_symlink(), "uninstalling one owner removed a link another target still owns"
    # and the remaining targets are still in sync
    rest = [n for n in names if n != victim]
    plan = engine.build_plan(make_host(home), "default", rest)
    assert not plan.has_changes, [f"{i.cls} {i.label}" for i in plan.items if plan.action(i) != "none"]


def test_uninstalling_the_fake_target_keeps_copilots_files(tmp_path, with_fake_target):
    """The reverse direction: the test target goes, every real target's files stay."""
    names = available() + [with_fake_target]
    home = HOMES["fresh"](tmp_path / "home")
    install(home, names)
    mid = home_snapshot(home)
    uninstall(home, [with_fake_target])
    after = home_snapshot(home)
    changed = {k for k in set(mid) | set(after) if mid.get(k) != after.get(k)}
    assert all(k.startswith(".fake") for k in changed), sorted(changed)
    assert (home / ".agents/skills/changelog").is_symlink()


@needs("copilot")
@pytest.mark.parametrize("kind", ["fresh", "demo"])
def test_wsl_install_with_env_file_and_bashrc_block_uninstalls_byte_exact(tmp_path, kind, monkeypatch):
    """Under WSL the default profile's browserCommand "auto" writes the directives env file (in
    the state dir) and a managed block at the bottom of ~/.bashrc: both go on uninstall."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "wslview").write_text("#!/bin/sh\nexit 0\n")
    os.chmod(bin_dir / "wslview", 0o755)
    monkeypatch.setenv("WSL_DISTRO_NAME", "Ubuntu")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    home = HOMES[kind](tmp_path / "home")
    before = home_snapshot(home)
    install(home, ["copilot"])
    bashrc = (home / ".bashrc").read_text()
    assert "agentdeck copilot environment" in bashrc, "no .bashrc block: the test proves nothing"
    assert (make_host(home).state_dir / "copilot.env").exists()
    uninstall(home, ["copilot"])
    after = home_snapshot(home)
    assert after == before, diff_snapshots(before, after)
    assert not (make_host(home).state_dir / "copilot.env").exists()


@needs("claude")
def test_text_the_operator_adds_above_the_persona_block_keeps_its_blank_line(tmp_path):
    """The persona block goes at the top of CLAUDE.md. The operator then writes a header above
    it, with a blank line between, as markdown wants: uninstall removes the block and nothing
    else, the blank line included (it used to take it, gluing the header to their old text)."""
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    persona = home / ".claude" / "CLAUDE.md"
    persona.write_text("# My rules\n\nBe terse.\n")
    install(home, ["claude"])
    text = persona.read_text()
    assert text.startswith("<!-- agentdeck:begin") and text.endswith("# My rules\n\nBe terse.\n")
    persona.write_text("# Team header\n\n" + text)
    uninstall(home, ["claude"])
    assert persona.read_text() == "# Team header\n\n# My rules\n\nBe terse.\n"
