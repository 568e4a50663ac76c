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
