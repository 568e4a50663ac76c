"""The CLIs' versions the walkthrough and the main screen's header show are read from the npm
package's package.json: the CLI itself is never run, and nothing is written."""
from __future__ import annotations

import json
import os
import stat

from tests.conftest import snapshot_tree

from app_helpers import main_screen, open_walkthrough, plain, settle, static_text


def fake_npm_cli(home, marker) -> None:
    """copilot installed from npm inside the home: a package.json with the version, and a
    binary that leaves `marker` behind when it is run."""
    pkg = home / ".npm-global" / "lib" / "node_modules" / "@github" / "copilot"
    (pkg / "bin").mkdir(parents=True)
    (pkg / "package.json").write_text(json.dumps({"name": "@github/copilot",
                                                  "version": "1.0.102"}))
    exe = pkg / "bin" / "copilot"
    exe.write_text(f"#!/bin/sh\ntouch {marker}\necho 1.0.102\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    bindir = home / ".local" / "bin"
    os.symlink(exe, bindir / "copilot")


async def test_versions_come_from_package_json_without_running_the_cli(
        empty_host, make_app, tmp_path):
    from agentdeck.app.session import detect_version

    marker = tmp_path / "copilot-was-run"
    fake_npm_cli(empty_host.home, marker)
    before = snapshot_tree(empty_host.home)
    app = make_app(empty_host, onboard=True, version_probe=detect_version)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_walkthrough(pilot)
        assert "copilot   1.0.102" in static_text(screen, "#detect-body")
        assert "codex     not installed" in static_text(screen, "#detect-body")
        await pilot.press("escape")
        await settle(pilot)
        header = plain(main_screen(app).query_one("#host-header").render())
        assert "copilot 1.0.102" in header
    assert not marker.exists(), "the CLI was run"
    assert snapshot_tree(empty_host.home) == before


def fake_cli(home, target: str, version: str) -> None:
    """The target's CLI installed from npm inside the home, reporting `version`."""
    from agentdeck.core.targets import registry

    spec = registry.spec(target)
    pkg = home / ".npm-global" / "lib" / "node_modules" / spec.npm_package
    (pkg / "bin").mkdir(parents=True)
    (pkg / "package.json").write_text(json.dumps({"name": spec.npm_package, "version": version}))
    exe = pkg / "bin" / spec.binary
    exe.write_text(f"#!/bin/sh\necho {version}\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    os.symlink(exe, home / ".local" / "bin" / spec.binary)


async def test_the_header_says_when_a_cli_moved_since_its_facts(empty_host, make_app):
    """Every registered CLI installed at a version past the one its facts were verified on:
    the header marks each (core/upgrade.py), and a CLI at its facts' version is not marked."""
    from agentdeck.app.session import detect_version
    from agentdeck.core.facts.versions import facts_by_target
    from agentdeck.core.targets import registry

    names = list(registry.NAMES)
    for i, t in enumerate(names):
        hi = facts_by_target()[t].verified_versions[1]
        version = hi if i == 0 else ".".join(hi.split(".")[:-1] + [str(int(hi.split(".")[-1]) + 7)])
        fake_cli(empty_host.home, t, version)
    app = make_app(empty_host, version_probe=detect_version)
    async with app.run_test(size=(240, 40)) as pilot:
        await settle(pilot)
        # the header wraps between words at any width: read it as one line
        header = " ".join(plain(main_screen(app).query_one("#host-header").render()).split())
        for i, t in enumerate(names):
            facts = facts_by_target()[t].verified_versions[1]
            if i == 0:
                assert f"{t} {facts} (" not in header, header
            else:
                assert f"(facts {facts}, not drilled)" in header.split(f"{t} ", 1)[1], header


async def test_every_installed_clis_version_is_seen_at_80_columns(demo_host, make_app):
    """With every CLI installed, the versions take as many header lines as they need at 80
    columns: none is cut off the screen's edge (issue 31.6: opencode and gemini were)."""
    from agentdeck.core.targets import registry

    app = make_app(demo_host, version_probe=lambda host, target: "10.20.300")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        widget = main_screen(app).query_one("#host-header")
        lines = plain(widget.render()).splitlines()
        assert all(len(line) <= widget.content_size.width for line in lines), lines
        assert widget.size.height == len(lines) > 2
        shown = " ".join(lines[1:])
        for spec in registry.TARGETS:
            assert f"{spec.name} 10.20.300" in shown, lines
