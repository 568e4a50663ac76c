#!/usr/bin/env python3
"""Regenerate screenshots/*.svg: drive the app on the demo home and save every screen.

    python scripts/screenshots.py [--out screenshots] [--only NAME ...]

Each shot starts a fresh demo home in a temporary folder (WSL off, CLI versions fixed, a stand-in
hook handler on PATH inside the home) so the pictures do not depend on this machine. The doctor
shots use the real doctor when this build has one."""
from __future__ import annotations

import argparse
import asyncio
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Awaitable, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agentdeck.core import demo  # noqa: E402
from agentdeck.core.host import Host  # noqa: E402

VERSIONS = {"copilot": "1.0.102", "codex": None, "claude": None}


def demo_host(root: Path) -> Host:
    home = demo.make_demo_home(root / "demo")
    env = demo.demo_env(home)
    bindir = home / ".local" / "bin"
    bindir.mkdir(parents=True, exist_ok=True)
    handler = bindir / "agentdeck-hook"
    handler.write_text("#!/bin/sh\nexit 0\n")
    handler.chmod(handler.stat().st_mode | stat.S_IXUSR)
    env["PATH"] = f"{bindir}{os.pathsep}/usr/bin{os.pathsep}/bin"
    env.pop("WSL_DISTRO_NAME", None)
    host = Host.from_environment(home, env=env)
    host.osrelease_path = home / ".no-osrelease"
    return host


async def settle(pilot) -> None:
    app = pilot.app
    for _ in range(3):
        await pilot.pause()
        others = [w for w in app.workers if w.group != "activity"]   # the follower never ends
        if others:
            await app.workers.wait_for_complete(others)
    await pilot.pause(0.1)


async def tab(pilot, tab_id: str) -> None:
    from textual.widgets import TabbedContent

    pilot.app.screen.query_one(TabbedContent).active = tab_id
    await settle(pilot)


async def choose_target(pilot, name: str) -> None:
    from agentdeck.app.widgets.target_list import TargetList

    tl = pilot.app.screen.query_one(TargetList)
    tl.highlighted = tl.get_option_index(name)
    await settle(pilot)


async def select_plan_item(pilot, label_part: str) -> None:
    from agentdeck.app.widgets.plan_tree import PlanTree

    tree = pilot.app.screen.query_one(PlanTree)
    for node in tree.root.children:
        for n in [node, *node.children]:
            if n.data is not None and label_part in str(n.label):
                tree.move_cursor(n)
                tree.focus()
                await settle(pilot)
                return


async def onboarding_to(pilot, step: str) -> None:
    """From the main screen: open the walkthrough and go to `step`."""
    await pilot.press("o")
    await settle(pilot)
    order = ["detect", "profile", "targets", "options", "review"]
    for _ in range(order.index(step)):
        pilot.app.screen.action_next()
        await settle(pilot)


Step = Callable[[object], Awaitable[None]]


def shots() -> dict[str, tuple[tuple[int, int], Step]]:
    async def main_plan(p):
        await select_plan_item(p, "agentdeck.json")

    async def main_plan_key(p):
        await select_plan_item(p, "disabledMcpServers")

    async def main_hooks(p):
        await tab(p, "tab-hooks")

    async def codex_hooks(p):
        await choose_target(p, "codex")
        await tab(p, "tab-hooks")

    async def codex_mcp(p):
        await choose_target(p, "codex")
        await tab(p, "tab-mcp")

    async def claude_plan(p):
        await choose_target(p, "claude")
        await tab(p, "tab-plan")

    async def main_keys(p):
        await tab(p, "tab-keys")
        p.app.screen.query_one("#keys-table").focus()
        await settle(p)

    async def main_mcp(p):
        await tab(p, "tab-mcp")

    async def main_browser(p):
        await tab(p, "tab-browser")

    async def main_notices(p):
        await tab(p, "tab-notices")

    async def confirm(p):
        await p.press("a")
        await settle(p)

    async def applied(p):
        await p.press("a")
        await settle(p)
        await p.press("y")
        await settle(p)

    async def in_sync(p):
        await applied(p)
        await p.press("escape")
        await settle(p)

    async def doctor(p):
        await p.press("d")
        await settle(p)

    async def palette(p):
        await p.press("ctrl+p")
        await settle(p)

    async def repo(p, tab: str = ""):
        import subprocess

        path = p.app.session.host.home / "src" / "project"
        path.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "init", "-q", str(path)], check=True)
        p.app.open_repo(str(path))
        await settle(p)
        if tab:
            await p.press(tab)
            await settle(p)

    async def repo_plan(p):
        await repo(p)

    async def repo_readers(p):
        await repo(p, "2")

    async def repo_doctor(p):
        await repo(p, "3")

    async def mcp_switch(p):
        await tab(p, "tab-mcp")
        row = next(r for r in p.app.screen.query("McpRow") if r.server.name == "memory")
        await p.click(f"#{row.query_one('Switch').id}")
        await settle(p)

    async def keys_help(p):
        await p.press("question_mark")
        await settle(p)

    async def plan_filter(p):
        await p.press("slash")
        await settle(p)
        await p.press(*"mcp")
        await settle(p)

    async def main_policy(p):
        await tab(p, "tab-policy")

    async def activity(p):
        import json as _json

        from agentdeck.core import activity as act

        path = act.audit_path(p.app.session.host)
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = [
            {"ts": "2026-12-01T09:01:12Z", "target": "copilot", "dialect": "copilot-camel",
             "event": "preToolUse", "session_id": "3f2a", "tool_class": "shell",
             "tool_name": "bash", "summary": "git status", "rule": None, "decision": "allow",
             "reason": "", "latency_ms": 4},
            {"ts": "2026-12-01T09:02:40Z", "target": "claude", "dialect": "claude",
             "event": "PreToolUse", "session_id": "9c1d", "tool_class": "read",
             "tool_name": "Read", "summary": "~/.ssh/id_ed25519", "rule": "ssh-private-key-read",
             "decision": "deny", "reason": "private SSH keys are not read by agents",
             "latency_ms": 6}]
        path.write_text("".join(_json.dumps(x) + "\n" for x in lines))
        await p.press("l")
        for _ in range(20):
            await p.pause(0.1)
            if p.app.screen.query_one("#activity-table").row_count >= 2:
                break
        await p.pause(0.2)

    async def light(p):
        await p.press("ctrl+t")
        await select_plan_item(p, "agentdeck.json")

    out: dict[str, tuple[tuple[int, int], Step]] = {
        "main-plan": ((120, 40), main_plan),
        "main-plan-key": ((120, 40), main_plan_key),
        "main-hooks": ((120, 40), main_hooks),
        "main-keys": ((120, 40), main_keys),
        "codex-hooks": ((120, 40), codex_hooks),
        "codex-mcp": ((120, 40), codex_mcp),
        "claude-plan": ((120, 40), claude_plan),
        "main-mcp": ((120, 40), main_mcp),
        "main-mcp-switch": ((120, 40), mcp_switch),
        "repo-plan": ((120, 40), repo_plan),
        "repo-readers": ((120, 40), repo_readers),
        "repo-doctor": ((120, 40), repo_doctor),
        "main-browser": ((120, 40), main_browser),
        "main-notices": ((120, 40), main_notices),
        "main-80x24": ((80, 24), main_plan),
        "main-light": ((120, 40), light),
        "apply-confirm": ((120, 40), confirm),
        "apply-result": ((120, 40), applied),
        "main-in-sync": ((120, 40), in_sync),
        "doctor": ((120, 40), doctor),
        "command-palette": ((120, 40), palette),
        "keys-help": ((120, 40), keys_help),
        "main-policy": ((120, 40), main_policy),
        "activity": ((120, 40), activity),
        "main-plan-filter": ((120, 40), plan_filter),
    }
    loop_steps = {}
    for step in ("detect", "profile", "targets", "options", "review"):
        loop_steps[f"onboarding-{step}"] = step
    for name, step in loop_steps.items():
        async def go(p, step=step):
            await onboarding_to(p, step)
        out[name] = ((120, 40), go)
    return out


async def take(name: str, size: tuple[int, int], step: Step, out_dir: Path) -> Path:
    from agentdeck.app.app import AgentDeckApp

    with tempfile.TemporaryDirectory(prefix="agentdeck-shot-") as tmp:
        host = demo_host(Path(tmp))
        app = AgentDeckApp(host, version_probe=lambda h, t: VERSIONS.get(t))
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await step(pilot)
            await settle(pilot)
            svg = app.export_screenshot(title=f"agentdeck — {name}")
        path = out_dir / f"{name}.svg"
        path.write_text(svg, encoding="utf-8")
        return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "screenshots"))
    ap.add_argument("--only", nargs="*", help="names of the shots to take (default: all)")
    args = ap.parse_args(argv)
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    todo = shots()
    names = args.only or list(todo)
    unknown = [n for n in names if n not in todo]
    if unknown:
        print(f"unknown shot(s): {', '.join(unknown)}; known: {', '.join(todo)}", file=sys.stderr)
        return 1
    os.environ.pop("NO_COLOR", None)
    for name in names:
        size, step = todo[name]
        path = asyncio.run(take(name, size, step, out_dir))
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
