"""The doctor screen: findings coloured by result, filters, fix hints, live checks with progress,
export to text / JSON and an SVG screenshot; and a build without a doctor."""
from __future__ import annotations

import json

from textual.widgets import DataTable, Input, Select

from agentdeck.app.screens.doctor import DoctorScreen, ExportScreen
from agentdeck.core.targets import registry

from app_helpers import plain, settle, static_text


async def open_doctor(pilot, tmp_path=None) -> DoctorScreen:
    await settle(pilot)
    await pilot.press("d")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, DoctorScreen)
    if tmp_path is not None:
        screen.export_dir = str(tmp_path)
    return screen


async def test_findings_table_sorted_and_coloured(demo_host, make_app, fake_doctor):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_doctor(pilot)
        table = screen.query_one(DataTable)
        # by default every row but the ok ones (as `agentdeck doctor` without --verbose)
        assert [plain(table.get_row_at(i)[0]).strip() for i in range(table.row_count)] \
            == ["error", "warning", "info", "skipped"]
        screen.query_one("#filter-result", Select).value = "all"
        await settle(pilot)
        assert table.row_count == 5
        results = [plain(table.get_row_at(i)[0]).strip() for i in range(5)]
        assert results == ["error", "warning", "info", "ok", "skipped"]
        assert table.get_row_at(0)[0].style == "bold red3"
        head = static_text(screen, "#doctor-head")
        assert "1 error" in head and "1 warning" in head and "live checks not run" in head
        fix = static_text(screen, "#doctor-fix")
        assert "copilot.hooks.disable-all" in fix and "~/.copilot/settings.json:3" in fix
        assert "fix: apply the plan" in fix
        assert fake_doctor == [{"profile": "default", "targets": None, "live": False}]


async def test_filters_by_target_and_result(demo_host, make_app, fake_doctor):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_doctor(pilot)
        table = screen.query_one(DataTable)
        screen.query_one("#filter-result", Select).value = "warning"
        await settle(pilot)
        assert table.row_count == 1
        assert "header Authorization" in plain(table.get_row_at(0)[3])
        screen.query_one("#filter-result", Select).value = "all"
        screen.query_one("#filter-target", Select).value = "codex"
        await settle(pilot)
        assert table.row_count == 1
        assert plain(table.get_row_at(0)[0]).strip() == "skipped"
        screen.query_one("#filter-result", Select).value = "error"
        await settle(pilot)
        assert table.row_count == 0
        assert "No findings match the filters." in static_text(screen, "#doctor-fix")


async def test_fix_hint_follows_the_cursor(demo_host, make_app, fake_doctor):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_doctor(pilot)
        table = screen.query_one(DataTable)
        table.focus()
        await pilot.press("down")
        await settle(pilot)
        fix = static_text(screen, "#doctor-fix")
        assert "copilot.mcp.header-env" in fix and "fix: put the token" in fix


async def test_live_checks_run_in_a_worker_with_progress(demo_host, make_app, fake_doctor):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_doctor(pilot)
        assert screen.check_action("live", ()) is True
        await pilot.press("l")
        await pilot.pause()
        await settle(pilot)
        assert fake_doctor[-1]["live"] is True
        assert screen.live_done
        screen.query_one("#filter-result", Select).value = "all"
        await settle(pilot)
        assert screen.query_one(DataTable).row_count == 6
        assert "live checks done" in static_text(screen, "#doctor-head")
        assert not screen.query_one("#doctor-progress-row").display
        # the findings are kept for the session: reopening does not run again
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        app.screen.query_one("#filter-result", Select).value = "all"
        await settle(pilot)
        assert len(fake_doctor) == 2 and app.screen.query_one(DataTable).row_count == 6


async def test_export_text_and_json(demo_host, make_app, fake_doctor, tmp_path):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_doctor(pilot, tmp_path)
        await pilot.press("e")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ExportScreen)
        path_input = dialog.query_one("#export-path", Input)
        assert path_input.value == str(tmp_path / "agentdeck-doctor.txt")
        await pilot.click("#export-yes")
        await settle(pilot)
        text = (tmp_path / "agentdeck-doctor.txt").read_text()
        assert text.splitlines()[0].startswith("ERROR    copilot   copilot.hooks.disable-all")
        assert "fix: apply the plan" in text
        assert text.rstrip().endswith("1 error, 1 warning, 1 info, 1 ok, 1 skipped")
        # JSON: choose the format, the file name follows
        await pilot.press("e")
        await settle(pilot)
        dialog = app.screen
        await pilot.click("#fmt-json")
        await settle(pilot)
        assert dialog.query_one("#export-path", Input).value.endswith("agentdeck-doctor.json")
        await pilot.click("#export-yes")
        await settle(pilot)
        data = json.loads((tmp_path / "agentdeck-doctor.json").read_text())
        assert len(data) == 5 and data[0]["check"] == "copilot.hooks.disable-all"
        assert set(data[0]) >= {"target", "result", "check", "message", "fix", "path", "line",
                                "live"}
        # HTML: the same page as `agentdeck doctor --export FILE` (core/doctor/export.py)
        await pilot.press("e")
        await settle(pilot)
        dialog = app.screen
        await pilot.click("#fmt-html")
        await settle(pilot)
        assert dialog.query_one("#export-path", Input).value.endswith("agentdeck-doctor.html")
        await pilot.click("#export-yes")
        await settle(pilot)
        page = (tmp_path / "agentdeck-doctor.html").read_text()
        assert page.startswith("<!doctype html>") and "<script" not in page
        assert 'data-target="copilot" data-mark="error"' in page
        assert '<div class="fix">apply the plan' in page
        # cancel writes nothing
        await pilot.press("e")
        await settle(pilot)
        app.screen.query_one("#export-path", Input).value = str(tmp_path / "nope.txt")
        await pilot.press("escape")
        await settle(pilot)
        assert not (tmp_path / "nope.txt").exists()
        assert app.screen is screen


async def test_screenshot_saves_an_svg(demo_host, make_app, fake_doctor, tmp_path):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_doctor(pilot, tmp_path)
        await pilot.press("s")
        await settle(pilot)
    svg = (tmp_path / "agentdeck-doctor.svg").read_text()
    assert svg.startswith("<svg") and "copilot.hooks.disable-all" in svg.replace("&#160;", " ")


async def test_a_failing_doctor_is_one_line(demo_host, make_app, monkeypatch):
    def broken(host, profile, targets, live=False, progress=None):
        raise RuntimeError(f"cannot read {host.home}/.copilot/settings.json")

    monkeypatch.setattr("agentdeck.app.screens.doctor.load_doctor", lambda: broken)
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_doctor(pilot)
        head = static_text(screen, "#doctor-head")
        assert head.strip() == "The doctor failed: cannot read ~/.copilot/settings.json"
        assert screen.check_action("rerun", ()) is True
        assert screen.check_action("export", ()) is None


async def test_without_a_doctor_the_screen_says_so(demo_host, make_app, no_doctor):
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_doctor(pilot)
        assert "The doctor is not available in this build." in static_text(screen, "#doctor-head")
        assert screen.check_action("live", ()) is None
        assert screen.check_action("export", ()) is None
        keys = {k.key: k for k in screen.query("FooterKey")}
        assert keys["l"].has_class("-disabled") and keys["e"].has_class("-disabled")
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen.id == "main"


async def test_the_real_doctor_runs_in_the_app(demo_host, make_app):
    from agentdeck.app.screens.doctor import load_doctor

    assert load_doctor() is not None, "agentdeck.core.doctor.run cannot be imported"
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_doctor(pilot)
        await settle(pilot)
        assert screen.findings or screen.error is None


async def test_run_drill_shows_progress_per_cli_and_the_receipts(demo_host, make_app, fake_doctor,
                                                                 monkeypatch):
    """The doctor screen's "Run drill" (d) runs core.drill in a worker, with progress per CLI,
    and shows the receipts in a table; its findings join the doctor's. The drill itself is
    replaced here (tests/clients/test_drill_real.py runs the real one)."""
    from agentdeck.core.drill import report as R
    from agentdeck.core.drill import run as drill_run

    seen = []

    def fake_drill(host, profile, targets, progress=None):
        seen.append(list(targets))
        reps = {}
        for t in targets:
            progress(t, "running")
            if t == "codex":
                rep = R.TargetReport(t, "failed", False, version="0.171.0", seconds=2.0,
                                     events=[R.EventReceipt("PreToolUse", "pre_tool_use", 0, False,
                                                            "hooks inert: Codex skips untrusted hooks")],
                                     deny={"held": False}, problems=[
                                         "hooks inert: Codex skips untrusted hooks (fix: `agentdeck apply --trust-hooks`)",
                                         "the deny did NOT hold: the canary command ran (its file exists)"])
            elif t == "claude":
                rep = R.TargetReport(t, "failed", False, version="1", seconds=1.0,
                                     events=[R.EventReceipt("PreToolUse", "pre_tool_use", 2, True,
                                                            latency_ms=90, timeout_s=30)],
                                     deny={"held": True, "denied_by_handler": True},
                                     rules=[{"id": "keys", "kind": "path", "status": "not held",
                                             "why": "glob ran (its marker file exists)",
                                             "forms": [{"label": "example read"},
                                                       {"label": "glob"}]}],
                                     problems=["the deny of rule keys did NOT hold: glob ran "
                                               "(its marker file exists)"])
            else:
                rep = R.TargetReport(t, "ok", True, version="1", seconds=1.0,
                                     events=[R.EventReceipt("PreToolUse", "pre_tool_use", 2, True,
                                                            latency_ms=90, timeout_s=30)],
                                     deny={"held": True, "denied_by_handler": True},
                                     rules=[{"id": "keys", "kind": "path", "status": "held",
                                             "why": "", "forms": [{"label": "example read"},
                                                                  {"label": "glob"}]},
                                            {"id": "agentdeck-self", "kind": "path",
                                             "status": "not tried",
                                             "why": "built-in rule, no deny example",
                                             "forms": []}])
            progress(t, rep.status)
            reps[t] = rep
        return R.DrillReport("drill-x", reps, 3.0, "isolated (unshare -n: loopback only)")

    monkeypatch.setattr(drill_run, "drill", fake_drill)
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_doctor(pilot)
        assert "Run drill" in [c.title for c in app.get_system_commands(screen)]
        await pilot.press("d")
        await settle(pilot)
        # the demo home's CLIs: the targets with a demo part (core/demo.py)
        demo_targets = [n for n in registry.NAMES if registry.has_part(n, "demo")]
        assert seen and seen[0] == demo_targets
        head = static_text(screen, "#drill-head")
        n = len(demo_targets)                   # the fake fails Codex and Claude, passes the rest
        assert f"Drill drill-x: {n - 2} of {n} CLIs ok" in head
        table = screen.query_one("#drill-table", DataTable)
        rows = [[plain(c).strip() for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert ["copilot", "✓", "PreToolUse", "2", "90 ms / 30 s", ""] in rows
        assert any(r[0] == "codex" and r[1] == "✗" and r[2] == "deny (canary)" for r in rows)
        # each rule of the profile: held, not held (a rule's failure is not the canary's)
        assert ["copilot", "✓", "rule keys", "2 forms", "",
                "held: example read, glob denied by it"] in rows
        assert ["copilot", "-", "rule agentdeck-self", "", "",
                "not tried: built-in rule, no deny example"] in rows
        assert ["claude", "✓", "deny (canary)", "denied", "",
                "held: the canary's file is absent"] in rows
        assert ["claude", "✗", "rule keys", "2 forms", "",
                "not held: glob ran (its marker file exists)"] in rows
        assert "drill: copilot ok" in static_text(screen, "#doctor-progress-text")
        checks = {(f.target, f.check, f.result) for f in screen.findings}
        assert ("codex", "codex.live.drill", "warning") in checks
        assert ("copilot", "copilot.live.drill", "ok") in checks


async def test_run_drill_on_a_home_without_agentdeck_says_so_without_a_turn(demo_host, make_app,
                                                                            fake_doctor,
                                                                            monkeypatch):
    """The real core.drill on the demo home (the CLIs found, agentdeck not
    installed): each CLI is one "(skipped)" row saying so, and no process is started."""
    names = list(registry.NAMES)
    for name in names:
        p = demo_host.home / ".local" / "bin" / registry.spec(name).binary
        p.write_text("#!/bin/sh\nexit 0\n")
        p.chmod(0o755)
    started = []
    monkeypatch.setattr(demo_host, "run", lambda argv, **kw: started.append(list(argv)))
    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_doctor(pilot)
        await pilot.press("d")
        await settle(pilot)
        assert screen.drill_report is not None and started == []
        head = static_text(screen, "#drill-head")
        assert (f"0 of {len(names)} CLIs ok · skipped (not ok): {', '.join(names)} · no turn "
                "was run") in head
        table = screen.query_one("#drill-table", DataTable)
        rows = [[plain(c).strip() for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert [r[:3] for r in rows] == [[t, "-", "(skipped)"] for t in names]
        assert all(r[5].startswith(f"agentdeck is not installed for {r[0]}") for r in rows)
        checks = {(f.check, f.result) for f in screen.findings if f.check.endswith(".live.drill")}
        assert checks == {(f"{t}.live.drill", "info") for t in names}


def test_drill_rows_for_a_target_that_failed_before_its_turn(demo_host):
    from agentdeck.app.screens.doctor import drill_rows
    from agentdeck.core.drill import report as R

    bad = R.failed("claude", f"cannot plan claude: {demo_host.home}/.claude/settings.json:1:10: "
                             "unexpected end")
    rep = R.DrillReport("d", {"claude": bad}, 0.1, "not used (no turn ran)")
    assert drill_rows(rep, demo_host) == [
        ("claude", "✗", "(no turn)", "", "",
         "cannot plan claude: ~/.claude/settings.json:1:10: unexpected end")]


async def test_verdicts_first_one_line_per_cli(demo_host, make_app, fake_doctor):
    """The screen opens with a verdict per CLI of the findings (core/doctor/verdict.py): its
    mark from its worst finding (the fake's copilot error: ✗), its name, and what matters."""
    from agentdeck.core.targets import registry

    app = make_app(demo_host)
    async with app.run_test(size=(140, 44)) as pilot:
        screen = await open_doctor(pilot)
        text = static_text(screen, "#doctor-verdicts")
        lines = text.splitlines()
        shown = {f.target for f in screen.findings}
        for t in registry.NAMES:
            if t in shown:
                assert any(registry.spec(t).title in ln for ln in lines), (t, text)
        copilot = next(ln for ln in lines if registry.spec("copilot").title in ln)
        assert copilot.startswith("✗") and "hooks " in copilot and "guard: " in copilot, text


async def test_layers_drawn_per_cli_on_y(demo_host, make_app, fake_doctor):
    """`y` shows each CLI's layers, strongest on top, with the one that decides the hooks now
    (core/doctor/layers_view.py); `y` again hides them."""
    from agentdeck.core.targets import registry

    app = make_app(demo_host)
    async with app.run_test(size=(160, 60)) as pilot:
        screen = await open_doctor(pilot)
        box = screen.query_one("#doctor-layers")
        assert not box.display
        await pilot.press("y")
        await settle(pilot)
        assert box.display
        text = static_text(screen, "#doctor-layers")
        shown = [v.target for v in screen.verdicts] or list(registry.NAMES)
        for t in shown:
            assert f"{registry.spec(t).title}  strongest on top" in text, text
        assert text.count("◀ decides the hooks now") >= 1, text
        await pilot.press("y")
        await settle(pilot)
        assert not box.display


async def test_verdicts_at_80_columns_keep_each_fact_whole(demo_host, make_app, fake_doctor):
    """At 80x24 a CLI's facts that do not fit go on the next line, under the first fact, within
    a third of the screen's rows: the guard's state is read whole, not cut to "guard: …"."""
    app = make_app(demo_host)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_doctor(pilot)
        text = static_text(screen, "#doctor-verdicts")
        lines = text.splitlines()
        assert screen.verdicts and len(lines) <= max(24 // 3, len(screen.verdicts)), text
        assert all(len(ln) <= 80 for ln in lines), text
        for v in screen.verdicts:
            guard = next(f for f in v.facts if f.startswith("guard: "))
            assert guard in text, (guard, text)
        assert "…" not in text.split("guard: ")[1].split("·")[0], text


def test_verdicts_one_line_each_drop_the_closing_hints_before_the_guard(demo_host):
    """Six CLIs at 80x24 leave one line each: a fact's closing hint in parentheses goes, so
    the guard's state after it is read whole; with room, the hint stays."""
    from agentdeck.app.screens.doctor import verdicts_text
    from agentdeck.core.doctor.verdict import Verdict
    from agentdeck.core.targets import registry

    facts = ["hooks not installed yet (`agentdeck apply`)", "guard: NONE installed",
             "MCP 2 on, 1 off"]
    vs = [Verdict(s.name, s.title, "warning", None, list(facts)) for s in registry.TARGETS]
    narrow = verdicts_text(vs, demo_host, columns=76, lines=1).plain.splitlines()
    assert len(narrow) == len(vs)
    # within the 76 columns the screen shows (the rest of a line is cut with "…")
    assert all("guard: NONE installed" in ln[:76] and "agentdeck apply" not in ln
               for ln in narrow), narrow
    wide = verdicts_text(vs, demo_host, columns=200, lines=1).plain
    assert "hooks not installed yet (`agentdeck apply`) · guard: NONE installed" in wide
