"""The doctor at a glance: one verdict per CLI before any table (flutter doctor's habit).

    ✓ Claude Code 2.1.332  hooks live (12) · guard: hook + permissions.deny · MCP 1 on, 1 off ·
                           in sync · drilled 2 h ago: held, matrix 12/12 classes held

"guard" names the layers that enforce the profile's policy in that CLI now: agentdeck's hook
(while its hooks can run), the CLI's own deny list where the plan writes entries to it, the
org layer where agentdeck's is installed.

A verdict is read from what the doctor's run already holds (its findings, its plans, the CLI
versions it found) and from the drill's record on this machine (core/drill/record.py); nothing
here reads a config file or runs a process. The mark is the worst finding of that CLI: ✓ nothing
above info, ! a warning (or nothing guards a CLI the profile has hooks for), ✗ an error, - the
CLI is neither installed nor configured here.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from ..drill import record
from ..targets import registry
from ..targets.output import hooks_of
from .. import upgrade
from .context import Ctx
from .findings import SEVERITY, Finding, Result
from ..wording import count_of

MARKS = {"ok": "✓", "warning": "!", "error": "✗", "absent": "-"}


@dataclass
class Verdict:
    target: str
    title: str
    mark: str                       # ok | warning | error | absent
    version: str | None
    facts: list[str] = field(default_factory=list)     # the few facts that matter, in order
    upgrade: str | None = None      # core/upgrade.py's notice
    problems: dict[str, int] = field(default_factory=dict)   # {"error": n, "warning": n}
    #: the same facts as data, for comparing runs (core/doctor/drift.py): the hooks' state
    #: (live | inert | not installed | none), what guards the CLI, and the last drill here
    #: (its version, each rule's and each matrix class's status)
    hooks: str = "none"
    guard: list[str] = field(default_factory=list)
    drill: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def line(self, width: int = 0) -> str:
        head = f"{MARKS[self.mark]} {self.title}" + (f" {self.version}" if self.version else "")
        return f"{head:<{width}}  " + " · ".join(self.facts)


def verdicts(ctx: Ctx, findings: list[Finding]) -> list[Verdict]:
    records = record.load(ctx.host)
    return [verdict(ctx, t, [f for f in findings if f.target == t], records)
            for t in ctx.targets if t in registry.BY_NAME]


def verdict(ctx: Ctx, target: str, rows: list[Finding], records: dict) -> Verdict:
    spec = registry.spec(target)
    cli = ctx.cli(target)
    home = ctx.host.is_dir(ctx.target_home(target))
    worst = max((SEVERITY[Result(f.result)] for f in rows), default=0)
    mark = ("error" if worst >= SEVERITY[Result.ERROR] else
            "warning" if worst >= SEVERITY[Result.WARNING] else "ok")
    v = Verdict(target, spec.title, mark, cli.version,
                problems={r: sum(1 for f in rows if f.result == r) for r in ("error", "warning")
                          if any(f.result == r for f in rows)})
    last = max(records.get(target, {}).values(), key=lambda e: e.when, default=None)
    if last is not None:
        v.drill = {"version": last.version, "ok": last.ok, "rules": dict(last.rules),
                   "classes": dict(last.classes)}
    if cli.exe is None and not home:
        v.mark = "absent"
        v.facts.append(f"not installed ({spec.binary} not on PATH) and no {ctx.host.display(ctx.target_home(target))}")
        return v
    plan, err = ctx.plan(target)
    if plan is None:
        v.facts.append("no plan: its error is under Problems")
    else:
        v.facts.extend(_plan_facts(plan, target, v))
    if cli.exe is None:
        v.facts.append(f"{spec.binary} not on PATH")
    v.facts.append(_drill_fact(target, cli.version, records) if spec.guarded
                   else "nothing to drill")
    if cli.version:
        v.upgrade = upgrade.notice(ctx.host, target, cli, records)
    if any(f.check == f"{target}.org.layer" and f.result == "ok" for f in rows):
        v.facts.insert(1 if v.facts else 0, "org layer installed")
        v.guard.append("org layer")
    if v.mark == "ok" and not v.guard and v.hooks != "none":
        # the profile has hooks for this CLI and nothing guards it yet: not a ✓, whatever the
        # rows say (a profile not yet applied is only an info row)
        v.mark = "warning"
    return v


def _plan_facts(plan, target: str, v: Verdict) -> list[str]:
    from ..hooks_health import inert   # local: loads with the verdicts' first plan
    from ..native_layers import native_deny   # local: loads with the verdicts' first plan

    out: list[str] = []
    hooks = hooks_of(plan.output, target)
    events = hooks.events if hooks is not None else ()
    live = [e for e in events if e.registered_now]
    why = inert(plan, target, now=True)
    if why:
        v.hooks = "inert"
        out.append("hooks INERT: " + "; ".join(i.reason for i in why))
    elif live:
        v.hooks = "live"
        out.append(f"hooks live ({len(live)})")
    elif events:
        v.hooks = "not installed"
        out.append("hooks not installed yet (`agentdeck apply`)")
    elif not registry.spec(target).guarded:
        out.append("files only: agentdeck installs no guard in this CLI")
    else:
        out.append("no hooks in this profile")
    layers = ["hook"] if live and not why else []
    perm = plan.output[target].permissions if target in plan.output else None
    nd = native_deny(target)
    # the CLI's own list guards only once its entries are on disk: none of them still to write
    on_disk = perm is not None and not any(
        it.path == perm.file and it.key and it.key[0] == "permissions"
        and plan.action(it) == "write" for it in plan.for_target(target))
    if nd is not None and nd.layer and perm is not None and perm.entries and on_disk:
        name = nd.layer.split(" (")[0]
        title = registry.spec(target).title
        layers.append(name[len(title):].strip() if name.startswith(title) else name)
    v.guard = list(layers)
    out.append("guard: " + (" + ".join(layers) if layers else "NONE installed"))
    mcp = plan.output[target].mcp if target in plan.output else None
    servers = mcp.servers if mcp is not None else ()
    if servers:
        on = sum(1 for s in servers if s.enabled_now)
        out.append(f"MCP {on} on, {len(servers) - on} off")
    c = plan.counts(target)
    edits = [f"{count_of(c['kept'], 'hand-edit')} kept" if c["kept"] else "",
             f"{count_of(c['changes'], 'change')} pending" if c["changes"] else "",
             f"{count_of(c['conflict'], 'conflict')}" if c["conflict"] else ""]
    out.append(", ".join(e for e in edits if e) or "in sync")
    return out


def _drill_fact(target: str, version: str | None, records: dict) -> str:
    last = max(records.get(target, {}).values(), key=lambda e: e.when, default=None)
    if last is None:
        return "never drilled here"
    ago = record.age(time.time() - last.when)
    held = "held" if last.ok else "FAILED"
    on = f" on {last.version}" if last.version != version else ""
    matrix = ""
    if last.classes:
        n = sum(1 for s in last.classes.values() if s == "held")
        matrix = f", matrix {n}/{len(last.classes)} classes held"
    return f"drilled {ago} ago{on}: {held}{matrix}"
