"""The Org tab: each CLI's organisation layer as found under a root prefix (AGENTDECK_ORG_ROOT, a
temporary folder: never the machine's /etc) after a real `agentdeck org apply --root`: installed
or not, the file, the rules, the keys, the ownership verdict naming each failing file, the
doctor's live row; read-only (the app writes nothing there)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentdeck.core.doctor.findings import Finding
from agentdeck.core.facts import org as F
from agentdeck.core.targets import registry
from agentdeck.core.views import org as org_view

from app_helpers import choose_tab, choose_target, make_root, org_apply, settle, static_text
from tests.conftest import snapshot_tree


@pytest.fixture
def applied(tmp_path) -> Path:
    root = make_root(tmp_path / "root")
    org_apply(root, tmp_path / "admin")
    return root


def at(host, root: Path):
    host.env["AGENTDECK_ORG_ROOT"] = str(root)
    return host


async def open_org(pilot, target: str) -> str:
    await settle(pilot)
    await choose_tab(pilot, "tab-org")
    await choose_target(pilot, target)
    return static_text(pilot.app.screen, "#org-body")


async def test_each_cli_s_installed_layer_is_shown_and_nothing_is_written(
        demo_host, make_app, applied):
    host = at(demo_host, applied)
    before = snapshot_tree(applied)
    app = make_app(host)
    async with app.run_test(size=(120, 40)) as pilot:
        for t in F.names():
            view = org_view.of(host, t)
            text = await open_org(pilot, t)
            assert "Org layer installed · ownership ok" in text, text
            assert F.ORG[t].path in text and f"read under the root prefix {applied}" in text
            assert f"{len(view.rules)} rules, {view.denies} deny" in text
            assert f"{F.LIB_DIR}/policy/{t}.json" in text
            for r in view.rules:
                assert r.id in text
            for k in view.keys:
                assert f"{k.name}: " in text and f"({k.key})" in text
            assert "✓ every file on the path is root's and writable by no one else" in text
            assert f"sudo agentdeck org apply --root {applied}" in text
            assert f"verified with {registry.title(t)} {F.ORG[t].verified}" in text
    assert snapshot_tree(applied) == before


async def test_not_installed_says_so_and_names_the_command(demo_host, make_app):
    app = make_app(demo_host)            # the conftest's root prefix: nothing there
    async with app.run_test(size=(120, 40)) as pilot:
        t = F.names()[0]
        text = await open_org(pilot, t)
        assert "Org layer not installed" in text and F.ORG[t].path in text
        assert "To install it: sudo agentdeck org apply --root " in text


async def test_a_file_that_fails_the_ownership_check_is_named(demo_host, make_app, applied):
    t = F.names()[-1]
    folder = (applied / F.ORG[t].path.lstrip("/")).parent
    os.chmod(folder, 0o777)
    app = make_app(at(demo_host, applied))
    async with app.run_test(size=(120, 40)) as pilot:
        text = await open_org(pilot, t)
        assert "1 path fails the ownership check" in text and "doctor: error" in text
        assert f"✗ {folder}: a parent directory is group- or world-writable (mode 0777)" in \
            " ".join(text.split()), text
        assert "the user could change what the layer enforces" in text
        other = await open_org(pilot, F.names()[0])
        assert "ownership ok" in other


async def test_a_path_that_fails_says_what_to_do_next(demo_host, make_app, applied):
    t = F.names()[0]
    pol = applied / F.LIB_DIR.lstrip("/") / "policy" / f"{t}.json"
    os.chown(pol, 65534, 65534)
    os.chmod((applied / F.ORG[t].path.lstrip("/")).parent, 0o775)
    app = make_app(at(demo_host, applied))
    async with app.run_test(size=(120, 40)) as pilot:
        text = " ".join((await open_org(pilot, t)).split())
        assert "Org layer installed · 2 paths fail the ownership check" in text, text
        assert f"✗ {pol}: the file is owned by uid 65534, not root" in text
        assert ("Next: as root, make each path marked ✗ root's and writable by no one else "
                "(chown root:root, chmod go-w; a real folder, not a symlink), then sudo "
                f"agentdeck org plan --root {applied}") in text
        ok = " ".join((await open_org(pilot, F.names()[1])).split())
        assert f"Next: sudo agentdeck org status --root {applied} says whether" in ok
        assert ("For every user of this machine, whatever their own settings: the org hook "
                "decides each tool call") in ok


async def test_an_administrator_s_own_file_is_not_shown_as_an_org_layer(demo_host, make_app,
                                                                        tmp_path):
    root = make_root(tmp_path / "root")
    shared = [t for t in F.names() if F.ORG[t].shared]
    assert shared
    for t in shared:
        p = root / F.ORG[t].path.lstrip("/")
        p.parent.mkdir(mode=0o755)
        p.write_text("# the administrator's\n" if p.suffix == ".toml" else "{}\n")
    before = snapshot_tree(root)
    app = make_app(at(demo_host, root))
    async with app.run_test(size=(120, 40)) as pilot:
        for t in shared:
            text = " ".join((await open_org(pilot, t)).split())
            assert text.startswith("Org layer not installed"), text
            assert f"{F.ORG[t].path} is there but is not agentdeck's (the administrator's own)" \
                in text
            assert "doctor" not in text and "ownership" not in text
            if F.ORG[t].kind == "block":
                assert "org apply adds agentdeck's block at its top" in text
            else:
                assert f"--take {root / F.ORG[t].path.lstrip('/')}" in text
            assert f"To install it: sudo agentdeck org apply --root {root}" in text
    assert snapshot_tree(root) == before


async def test_the_keys_a_flag_set_are_shown(demo_host, make_app, tmp_path):
    root = make_root(tmp_path / "root")
    org_apply(root, tmp_path / "admin", "--managed-hooks-only")
    t = next(n for n in F.names() if "managed_hooks_only" in F.ORG[n].keys)
    key = ".".join(F.ORG[t].keys["managed_hooks_only"])
    app = make_app(at(demo_host, root))
    async with app.run_test(size=(120, 40)) as pilot:
        text = await open_org(pilot, t)
        assert f"managed hooks only: true  ({key})" in text, text


async def test_the_doctor_s_live_row_shows_after_the_live_checks(demo_host, make_app, applied,
                                                                 monkeypatch):
    t = next(n for n in F.names() if org_view.of(at(demo_host, applied), n).live_probe)

    def run(host, profile, targets, live=False, progress=None):
        out = [Finding(t, "ok", f"{t}.org.layer", "org layer installed")]
        if live:
            out.append(Finding(t, "ok", f"{t}.org.live", "the CLI reports the org hook as "
                               "managed", live=True))
        return out

    monkeypatch.setattr("agentdeck.app.screens.doctor.load_doctor", lambda: run)
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        text = await open_org(pilot, t)
        assert "✓ the CLI reports" not in text
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        text = static_text(pilot.app.screen, "#org-body")
        assert "live      ✓ the CLI reports the org hook as managed" in text, text


async def test_a_cli_without_an_org_part_gets_one_plain_line(demo_host, make_app, applied,
                                                            monkeypatch):
    first = registry.NAMES[0]
    real = registry.has_part
    monkeypatch.setattr(registry, "has_part",
                        lambda n, p: False if (n, p) == (first, "org") else real(n, p))
    app = make_app(at(demo_host, applied))
    async with app.run_test(size=(120, 40)) as pilot:
        text = await open_org(pilot, first)
        assert text.strip() == (f"{registry.title(first)} has no org layer in this agentdeck: "
                                "`agentdeck org` does not manage it.")


async def test_key_8_opens_the_org_tab(demo_host, make_app):
    from textual.widgets import TabbedContent

    app = make_app(demo_host)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("8")
        await settle(pilot)
        assert app.screen.query_one(TabbedContent).active == "tab-org"
