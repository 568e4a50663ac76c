"""The per-target Policy tab and the Activity screen (a live table of the hook
handler's decisions, core.activity)."""
from __future__ import annotations

import asyncio
import json

from textual.widgets import DataTable, Input, Select

from agentdeck.app.screens.activity import ActivityScreen

from app_helpers import choose_tab, choose_target, plain, settle, static_text


def policy_data(session, plan):
    """describe()'s data per target, straight from the core (what the Policy tab renders)."""
    from agentdeck.core import profiles
    from agentdeck.core.policy.compiled import policy_of
    from agentdeck.core.policy.enforcement import describe

    pol = policy_of(profiles.resolve(session.host, session.profile))
    return {t: describe(pol, t) for t in plan.targets}


def record(n: int, decision: str = "allow", target: str = "copilot", session: str = "s-1",
           rule: str | None = None) -> dict:
    return {"ts": f"2026-12-01T09:0{n}:00Z", "target": target, "dialect": "copilot-camel",
            "event": "preToolUse", "session_id": session, "tool_class": "shell",
            "tool_name": "bash", "summary": f"git status {n}", "rule": rule,
            "decision": decision, "reason": f"reason {n}" if decision != "allow" else "",
            "latency_ms": 3}


def write_log(host, records) -> None:
    from agentdeck.core import activity

    path = activity.audit_path(host)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")


async def settle_live(pilot) -> None:
    """settle() without waiting for the Activity screen's follower (it runs until closed)."""
    app = pilot.app
    for _ in range(3):
        await pilot.pause()
        others = [w for w in app.workers if w.group != "activity"]
        if others:                  # an empty list would mean every worker, the follower too
            await app.workers.wait_for_complete(others)
    await pilot.pause()


async def wait_rows(pilot, screen, n: int, timeout: float = 10.0) -> None:
    table = screen.query_one(DataTable)
    for _ in range(int(timeout / 0.1)):
        if table.row_count >= n:
            await pilot.pause()
            return
        await asyncio.sleep(0.1)
        await pilot.pause()
    raise AssertionError(f"{table.row_count} rows, expected {n}: "
                         + static_text(screen, "#activity-head"))


async def test_policy_tab_shows_each_rule_and_how_each_cli_enforces_it(demo_host, make_app):
    from agentdeck.app.widgets.policy_pane import cli_name

    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        data = policy_data(app.session, screen.plan)
        assert data is not None
        for t in screen.plan.targets:
            await choose_target(pilot, t)
            await choose_tab(pilot, "tab-policy")
            text = " ".join(plain(screen.query_one("#policy-body").content, width=110).split())
            want = data[t]
            assert f"on_error {want['on_error']['value']}" in text
            for r in want["rules"]:
                assert r["id"] in text
                for c in r["channels"]:
                    assert " ".join(c["how"].split()) in text
                    if c["ask_becomes"] and c["ask_becomes"] != "ask":
                        assert f"ask becomes {c['ask_becomes']}" in text
            for r in want["paths"]:
                assert r["id"] in text and r["paths"][0] in text
                for e in r["enforced_by"]:
                    assert f"{cli_name(e['cli'])} own layer" in text     # the CLI's name
                    assert " ".join(str(e["native"]).split())[:40] in text
            for c in want["caveats"]:
                assert " ".join(c.split())[:40] in text
            if not want["rules"] and not want["paths"]:
                assert "no [policy] rules" in text
            else:
                assert f"cannot resolve: {want['unresolved']}" in text


async def test_activity_is_live_and_filters(demo_host, make_app):
    host = demo_host
    write_log(host, [record(1), record(2, "deny", rule="no-force-push"),
                     {"ts": "2026-12-01T09:03:00Z", "event": "sessionStart"},   # not a decision
                     record(3, "ask", target="codex", session="s-2", rule="ask-web")])
    app = make_app(host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("l")
        screen = app.screen
        assert isinstance(screen, ActivityScreen)
        await wait_rows(pilot, screen, 3)
        table = screen.query_one(DataTable)
        assert table.row_count == 3                     # the sessionStart line is no decision
        # a line appended while the screen is open appears without any key press
        write_log(host, [record(4, "deny", rule="no-ssh-keys", session="s-2")])
        await wait_rows(pilot, screen, 4)
        assert "no-ssh-keys" in str(table.get_row_at(3))
        # the newest row is selected and its full record is shown
        detail = static_text(screen, "#activity-detail")
        assert '"rule": "no-ssh-keys"' in detail and '"latency_ms": 3' in detail
        # filters: decision, CLI, session
        screen.query_one("#activity-decision", Select).value = "deny"
        await settle_live(pilot)
        assert table.row_count == 2
        screen.query_one("#activity-session", Input).value = "s-2"
        await settle_live(pilot)
        assert table.row_count == 1
        assert "1 of 4 decisions" in static_text(screen, "#activity-head")
        await pilot.press("c")
        await settle_live(pilot)
        assert table.row_count == 4
        screen.query_one("#activity-target", Select).value = "codex"
        await settle_live(pilot)
        assert table.row_count == 1
        # a new line that the filters leave out does not appear; one they accept does
        write_log(host, [record(5, "allow", target="copilot"), record(6, "deny", target="codex")])
        await wait_rows(pilot, screen, 2)
        assert table.row_count == 2
        assert "2 of 6 decisions" in static_text(screen, "#activity-head")
        await pilot.press("escape")
        await settle_live(pilot)
        assert not isinstance(app.screen, ActivityScreen)


async def test_activity_hides_drill_rows_until_the_drills_filter_shows_them(demo_host, make_app):
    """A drill's canary deny is not an attack: hidden by default (the head says how many), `d`
    (or the drills filter) shows them marked [drill], "only drills" shows nothing else."""
    host = demo_host
    drill = {**record(2, "deny", rule="drill-canary"), "drill_id": "drill-x-claude"}
    write_log(host, [record(1), drill, record(3, "deny", rule="no-force-push")])
    app = make_app(host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("l")
        screen = app.screen
        await wait_rows(pilot, screen, 2)
        table = screen.query_one(DataTable)
        assert table.row_count == 2 and "drill-canary" not in str(table.get_row_at(1))
        head = static_text(screen, "#activity-head")
        assert "2 of 3 decisions" in head and "1 drill decision hidden (d shows it)" in head
        await pilot.press("d")
        await settle_live(pilot)
        assert table.row_count == 3
        assert "[drill]" in str(table.get_row_at(1)) and "drill-canary" in str(table.get_row_at(1))
        assert "[drill]" not in str(table.get_row_at(2))
        screen.query_one("#activity-drills", Select).value = "only"
        await settle_live(pilot)
        assert table.row_count == 1 and "drill-canary" in str(table.get_row_at(0))
        await pilot.press("c")
        await settle_live(pilot)
        assert table.row_count == 2


async def test_activity_at_80x24_shows_rule_ids_whole_and_the_summary(demo_host, make_app):
    """At 80 columns every column the table keeps fits the screen: the default rules' ids whole,
    the summary (what the call did) seen, the session field wide enough to read (issue 31.6:
    the summary was off the screen, rule ids cut at 16, the field 3 cells wide)."""
    from agentdeck.core import profiles

    pol = profiles.resolve(demo_host, "default").policy
    rules = [r.id for r in [*pol.rules, *pol.paths]]
    write_log(demo_host, [record(n, "deny", rule=rule) for n, rule in enumerate(rules, 1)])
    app = make_app(demo_host)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("l")
        screen = app.screen
        await wait_rows(pilot, screen, len(rules))
        table = screen.query_one(DataTable)
        cols = {str(c.key.value): c for c in table.columns.values()}
        assert cols["rule"].width >= max(map(len, rules)), rules
        before_summary = sum(c.get_render_width(table) for k, c in cols.items() if k != "summary")
        assert table.size.width - 2 - before_summary >= 15, {k: c.width for k, c in cols.items()}
        assert "git status 1" in str(table.get_row_at(0))
        assert screen.query_one("#activity-session", Input).size.width >= 10


async def test_activity_with_no_log_says_so(empty_host, make_app):
    app = make_app(empty_host)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle_live(pilot)
        await pilot.press("l")
        await settle_live(pilot)
        head = static_text(app.screen, "#activity-head")
        assert "No decisions recorded yet" in head
        write_log(empty_host, [record(1, "deny", rule="r")])
        await wait_rows(pilot, app.screen, 1)


async def test_the_policy_tab_names_each_cli_never_a_payload_dialect(demo_host, make_app):
    """The operator reads "GitHub Copilot CLI", not the handler's dialect ids (copilot-camel)."""
    from agentdeck.app.session import target_title

    app = make_app(demo_host)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        for t in screen.plan.targets:
            await choose_target(pilot, t)
            await choose_tab(pilot, "tab-policy")
            text = " ".join(plain(screen.query_one("#policy-body").content, width=110).split())
            for dialect in ("copilot-camel", "copilot-pascal"):
                assert dialect not in text, (t, dialect)
            assert f"verified with {target_title(t)} " in text
            assert f"{target_title(t)} hook " in text or f"{target_title(t)} " in text
