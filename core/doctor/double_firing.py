""""Fires twice": the same event registered by two hook sources that will both run.

Each CLI runs every source it loads, so an event registered by agentdeck's hooks file and by
another tool's (agentihooks' hooks/agentihooks.json), by the inline `hooks` key, or by a trusted
repository's `.claude/settings.json` (which Copilot reads too) runs both handlers on every
occurrence. The drill sees it from the receipts (`agentdeck drill`); these checks see it from
the files. Sources that will not run are left out: a hook the operator disabled (Copilot's
disabledHooks), a Codex hook that is not trusted or is disabled.
"""
from __future__ import annotations

from pathlib import Path

from .context import Ctx
from .registry import Out, check


def _canon(name: str) -> str:
    from ..hookhandler import canonical_event
    return canonical_event(name)


def _report(ctx: Ctx, out: Out, sources: dict[str, set[str]], labels: dict[str, str],
            skip: set[tuple[str, str, str]] = frozenset(), ours: set[str] | None = None) -> None:
    """One warning per pair of sources sharing events (canonical names); with `ours`, only
    pairs with one of those."""
    names = sorted(sources)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if ours is not None and not ({a, b} & ours):
                continue
            both = sorted(e for e in sources[a] & sources[b] if (a, b, e) not in skip
                          and e != "unknown")
            if not both:
                continue
            where = f"{ctx.show(a)} ({labels[a]}) and {ctx.show(b)} ({labels[b]})"
            out.warning(f"fires twice: {', '.join(both)} registered by both {where}; the CLI "
                        "runs both, so each of these events runs two handlers",
                        fix="keep one registration per event: set the other file aside "
                            "(agentdeck's take-over plans that for a known tool), or remove "
                            "the duplicated events from it", path=b)


#: other tools that register hooks for the same jobs as agentdeck (audit, policy, persona):
#: their hook files, by name, and a word their commands contain
KNOWN_TOOLS = {"agentihooks": ("agentihooks.json", "agentihooks")}


def _other_tool(path: Path, commands: list[str]) -> str | None:
    for tool, (fname, word) in KNOWN_TOOLS.items():
        if path.name == fname or any(word in c for c in commands):
            return tool
    return None


@check("copilot.hooks.fires-twice", ok="no event agentdeck registers is registered again by "
                                       "another source that runs")
def copilot_fires_twice(ctx: Ctx, out: Out) -> None:
    """An event of agentdeck's hooks file registered again by another tool's hooks file (or a
    copy of ours), the inline `hooks` key, or a trusted repository's .claude/settings.json. The
    operator's own extra hook files with their own commands are theirs: not reported."""
    from . import copilot_checks as cc
    from ..targets.copilot.hooks import WRAPPER_NAME, other_hook_sources

    m = cc.model(ctx)
    disabled = set()
    dh = (m.settings_data or {}).get("disabledHooks")
    if isinstance(dh, list):
        disabled = {k for k in dh if isinstance(k, str)}
    wrapper = str(ctx.host.copilot_home / WRAPPER_NAME)
    by_path: dict[str, list] = {}
    for a in m.actions:
        if not (a.key and a.key in disabled):
            by_path.setdefault(str(a.path), []).append(a)
    ours = [p for p, acts in by_path.items() if any(a.ours for a in acts)]
    if not ours:
        return
    sources = {p: {_canon(a.event) for a in by_path[p]} for p in ours}
    labels = {p: "agentdeck's hooks file" for p in ours}
    inline = str(m.settings.path)
    skip = set()
    for p, acts in by_path.items():
        if p in ours:
            continue
        cmds = [str(a.action.get("bash") or a.action.get("command") or "") for a in acts]
        tool = _other_tool(Path(p), cmds)
        if p == inline:
            label = "settings.json `hooks`"
            # identical actions inline and in our file: copilot.hooks.inline-and-files says so
            keys = {(a.event, a.key) for o in ours for a in by_path[o] if a.key}
            for a in acts:
                if (a.event, a.key) in keys:
                    x, y = sorted((ours[0], p))
                    skip.add((x, y, _canon(a.event)))
        elif any(wrapper in c for c in cmds):
            label = "a copy of agentdeck's hooks"
        elif tool:
            label = f"{tool}'s hooks file"
        else:
            continue
        sources[p] = {_canon(a.event) for a in acts}
        labels[p] = label
    for src in other_hook_sources(ctx.view, m.settings_data):
        if src.get("kind") == "repo-claude-hooks":
            p = str(src["path"])
            sources[p] = {_canon(str(e)) for e in src.get("events") or []}
            labels[p] = "Claude-format hooks of a trusted repository, which Copilot loads"
    _report(ctx, out, sources, labels, skip, ours=set(ours))


@check("codex.hooks.fires-twice", ok="no event is registered by two hook sources that run")
def codex_fires_twice(ctx: Ctx, out: Out) -> None:
    from . import codex_checks as cx

    m = cx.model(ctx)
    sources: dict[str, set[str]] = {}
    labels: dict[str, str] = {}
    for h in m.handlers:
        if cx.trust_status(m, h) != "trusted" or not cx.handler_enabled(m, h):
            continue                       # Codex will not run it
        p = str(h.path)
        sources.setdefault(p, set()).add(_canon(h.event))
        labels[p] = "hooks.json" if Path(p).name == "hooks.json" else "config.toml [hooks]"
    _report(ctx, out, sources, labels)


@check("claude.hooks.fires-twice", ok="no event runs agentdeck's handler twice")
def claude_fires_twice(ctx: Ctx, out: Out) -> None:
    """Claude runs every matcher group: agentdeck's wrapper registered twice for one event (in
    settings.json and settings.local.json, or twice in one file) runs it twice."""
    from . import claude_checks as cl
    from ..targets.claude.adapter import WRAPPER_NAME

    m = cl.model(ctx)
    wrapper = str(ctx.host.claude_home / WRAPPER_NAME)
    seen: dict[str, list[str]] = {}
    for h in m.handlers:
        cmd = h.handler.get("command") if isinstance(h.handler, dict) else None
        if isinstance(cmd, str) and wrapper in cmd:
            seen.setdefault(_canon(h.event), []).append(str(h.path))
    for ev, paths in sorted(seen.items()):
        if len(paths) > 1:
            where = " and ".join(sorted({ctx.show(p) for p in paths}))
            out.warning(f"fires twice: {ev} calls agentdeck's hook wrapper {len(paths)} times "
                        f"({where}); Claude runs every group",
                        fix="keep agentdeck's one group per event (agentdeck apply writes it; "
                            "remove the copy)", path=paths[-1])
