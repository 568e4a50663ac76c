""""Fires twice": the same event registered by two hook sources that will both run.

Each CLI runs every source it loads, so an event registered by agentdeck's hooks file and by
another tool's (agentihooks' hooks file), by an inline `hooks` key, or by a trusted repository's
settings runs both handlers on every occurrence. The drill sees it from the receipts
(`agentdeck drill`); each target's `<target>.hooks.fires-twice` check sees it from the files,
leaving out the sources that will not run (a hook the operator disabled, one not trusted).
Events are compared by their canonical names (`ctx.canonical_event`).
"""
from __future__ import annotations

from typing import AbstractSet as Set

from pathlib import Path

from ..parts.doctor import Context, Out

#: other tools that register hooks for the same jobs as agentdeck (audit, policy, persona):
#: their hook files, by name, and a word their commands contain
KNOWN_TOOLS = {"agentihooks": ("agentihooks.json", "agentihooks")}


def other_tool(path: Path, commands: list[str]) -> str | None:
    for tool, (fname, word) in KNOWN_TOOLS.items():
        if path.name == fname or any(word in c for c in commands):
            return tool
    return None


def report(ctx: Context, out: Out, sources: dict[str, set[str]], labels: dict[str, str],
           skip: Set[tuple[str, str, str]] = frozenset(), ours: set[str] | None = None) -> None:
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
