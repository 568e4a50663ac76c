"""The org layer in the doctor: a `<target>.org.layer` row per CLI whose system layer holds
agentdeck's org file (read-only, as any user; no row where there is no org layer, so a machine
without one reads as before, nor for a CLI whose package has no org part).

What the row says: whether agentdeck's org layer is installed for the CLI (its file in the
system layer, from the target's org part core/targets/<name>/org.py), which compiled policy it
enforces and how many rules, and whether every file on its path passes the ownership rule (core.org.ownership: root-owned, not
group- or world-writable, no symlink, every parent). A file that fails is an error: the user, or
a model running as the user, could change what the layer enforces. The root prefix is "/"
unless AGENTDECK_ORG_ROOT says otherwise (tests). What is found is core.org.found's (the app's
Org tab shows the same).
"""
from __future__ import annotations

from pathlib import Path

from ..facts import org as F
from ..org.found import found, prefix
from ..targets import registry
from ..targets.parts.org import live_check, undone
from .context import Ctx
from .findings import Finding
from .registry import Check, Out
from ..wording import count_of


def _prefix(ctx: Ctx) -> Path:
    return prefix(ctx.host)


def _layer(target: str):
    def fn(ctx: Ctx, out: Out) -> None:
        lay = found(ctx.host, target, _prefix(ctx))
        facts = lay.facts
        if not lay.present:
            return
        if not lay.runs_hook:
            out.warning(f"org layer: {facts.path} does not run agentdeck's org hook (changed by "
                        "hand, or written by an older agentdeck)", path=lay.file,
                        fix="as root: agentdeck org plan shows it")
        for why in lay.ownership:
            out.error(f"org layer: {why}: the user could change what it enforces",
                      fix="as root: agentdeck org plan shows it; fix the owner or mode")
        if lay.rules is None:
            out.error(f"org layer: {lay.policy_file} is missing or not a compiled policy: the org "
                      "hook denies every call it cannot decide", path=lay.policy_file,
                      fix="as root: agentdeck org apply")
            return
        for p in lay.problems:                       # what the target says of its file
            out.error(f"org layer: {p.message}", path=lay.file, fix=p.fix)
        for row in undone(registry.part(target, "org"), ctx.host, lay.prefix):
            # what switches the layer's hook off now, for this user (the part checks)
            (out.warning if row.level == "warning" else out.error)(
                f"org layer: {row.message}", fix=row.fix)
        # what a user can still do that switches the hook off, as observed (the org part's)
        undo = ""
        if facts.undone_by:
            undo = (f"; what still undoes its hook in {registry.title(target)} "
                    f"{facts.verified} (observed): "
                    + "; ".join(f"{k}: {v}" for k, v in facts.undone_by.items()))
        if not out.findings:
            out.ok(f"org layer installed: {facts.path} runs agentdeck's org hook (verified for "
                   f"{target} {facts.verified}), enforcing {count_of(len(lay.rules), 'rule')} from "
                   f"{F.LIB_DIR}/policy/{target}.json; every file on its path is root's and "
                   f"writable by no one else{undo}", path=lay.file)
    return fn


def findings(ctx: Ctx) -> list[Finding]:
    """The org rows of the targets whose org file exists (none at all without an org layer)."""
    out: list[Finding] = []
    for t in ctx.targets:
        if t not in F.ORG:                  # no org layer for this CLI: no row
            continue
        check = Check(f"{t}.org.layer", t, _layer(t), "")
        o = Out(ctx, check)
        check.fn(ctx, o)
        out += o.findings
    return out


def _live(target: str, ctx: Ctx, out: Out) -> None:
    """What the installed CLI itself reports about the org layer's hook (the probes the live
    doctor ran anyway; the target's org part names its probe and reads its answer, e.g. Codex
    `hooks/list`, Copilot `hooks.discover`). A CLI with no offline report of its managed
    sources (no LIVE_PROBE): no row."""
    row = live_check(registry.part(target, "org"), ctx.memo.get("live_results") or {}, target)
    if row is None:
        return
    if row.level == "ok":
        out.ok(row.message)
    elif row.level == "warning":
        out.warning(row.message, fix=row.fix)
    else:
        out.error(row.message, fix=row.fix)


def live_findings(ctx: Ctx) -> list[Finding]:
    """`<target>.org.live` rows, only on the real root (/) and where the org file exists."""
    if str(_prefix(ctx)) != "/":
        return []
    out: list[Finding] = []
    for t in ctx.targets:
        if t not in F.ORG or not ctx.host.is_file(Path(F.ORG[t].path)):
            continue
        o = Out(ctx, Check(f"{t}.org.live", t, lambda c, x: None, ""), live=True)
        _live(t, ctx, o)
        out += o.findings
    return out
