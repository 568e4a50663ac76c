"""Judging a drilled turn and printing it.

A CLI is ok when its turn completed, every registered event a one-tool turn can fire fired
exactly once per occurrence, the harmless command ran, the canary's deny held (the handler
denied it and its file is absent) and every rule the turn tried (core.drill.operator_rule) held:
each of its forms was called, the audit line names that rule with decision deny, its marker
file is absent (and the decoy unchanged, the stub not run). `rules` lists every rule of the
compiled policy: held, not held (with what the audit recorded), or not tried (with why); a rule
is never "held" unless its forms ran through the real CLI. An event that fired twice for one
occurrence names the other source that registers it; an event that did not fire says why when
that is known (Codex trust, disabled by the operator, not reachable from a one-tool turn, the
hooks inert).
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from ..host import Host
from ..targets.output import HookEventInfo, hooks_of
from .operator_rule import NONE, Trials
from .receipts import Tally, command_of, tally
from ..wording import count_of, noun_for


@dataclass
class EventReceipt:
    event: str                     # as the CLI registers it
    canonical: str
    fired: int
    ok: bool
    note: str = ""                 # why it did not fire / fired twice / "" when fine
    latency_ms: int | None = None
    timeout_s: int | float | None = None
    other_sources: list[str] = field(default_factory=list)


@dataclass
class TargetReport:
    target: str
    status: str                    # ok | failed | skipped
    ok: bool
    version: str | None = None
    verified: str | None = None
    seconds: float | None = None
    events: list[EventReceipt] = field(default_factory=list)
    unregistered: dict[str, int] = field(default_factory=dict)   # fired, not ours to register
    deny: dict = field(default_factory=dict)
    #: per rule of the compiled policy: {"id", "kind", "status": held | not held | not tried,
    #: "why", "example", "forms": [{"label", "command", "called", "decision", "rule", "ran"}]}
    rules: list[dict] = field(default_factory=list)
    #: why no rule at all was tried ("" when some were)
    rules_note: str = ""
    harmless_ran: bool | None = None
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    network: str = ""
    #: why no turn was started (core.drill.ready: cli-missing | no-hooks | not-installed |
    #: hooks-not-registered); None when the turn ran or the target failed
    skip: str | None = None

    def to_json(self) -> dict:
        d = asdict(self)
        d["events"] = {e.event: {k: v for k, v in asdict(e).items() if k != "event"}
                       for e in self.events}
        return d


@dataclass
class DrillReport:
    drill_id: str
    targets: dict[str, TargetReport]
    seconds: float
    network: str

    @property
    def ok(self) -> bool:
        return bool(self.targets) and all(t.ok for t in self.targets.values())

    @property
    def turns(self) -> int:
        """How many targets had a turn (the others were skipped, or failed, before one)."""
        return sum(1 for t in self.targets.values() if t.seconds is not None)

    def to_json(self) -> dict:
        from ..secrets import redact_value

        return redact_value({"drill_id": self.drill_id, "ok": self.ok,
                             "seconds": round(self.seconds, 2), "network": self.network,
                             "targets": {n: t.to_json() for n, t in self.targets.items()}})


def skipped(target: str, why: str, code: str, version: str | None = None) -> TargetReport:
    """A target no turn was started for (core.drill.ready decides): not ok."""
    return TargetReport(target, "skipped", False, skip=code, version=version, problems=[why])


def failed(target: str, why: str) -> TargetReport:
    return TargetReport(target, "failed", False, problems=[why])


def _canon(name: str) -> str:
    from ..hookhandler import canonical_event
    return canonical_event(name)


def _registered(plan, target: str) -> tuple[HookEventInfo, ...]:
    hooks = hooks_of(plan.output, target)
    return hooks.registered() if hooks is not None else ()


def _sources_for(plan, target: str, canonical: str) -> list[str]:
    """The other hook sources that register this event (the hooks report's other_sources)."""
    hooks = hooks_of(plan.output, target)
    return [f"{src.path} ({src.kind})" for src in (hooks.other_sources if hooks else ())
            if any(_canon(e) == canonical for e in src.events)]


#: inert reasons that stop every hook of the target: contradicted when any of them fired
_ALL_OFF = ("disable-all", "handler-missing", "wrapper-missing")


def _why_not(target: str, row: HookEventInfo, runner, inert: list, any_fired: bool) -> tuple[str, bool]:
    """(why a registered event did not fire, whether that is acceptable)."""
    canon = _canon(row.event)
    for i in inert:
        if any_fired and i.code in _ALL_OFF:
            continue
        if row.event in (i.events or []) or not i.events:
            return f"hooks inert: {i.reason}", False
    from .runners import part, why_not_fired

    said = why_not_fired(part(target), row)       # the CLI's own files say why (the drill part)
    if said:
        return said, False
    for key in (row.event, canon):    # an also_events event by its own spelling
        if key in runner.unreachable:
            return f"not reachable from a one-tool turn ({runner.unreachable[key]})", True
    if canon in runner.fires:
        return "did not fire, although a one-tool turn fires it", False
    return "not seen in this turn", True


def judge(host: Host, target: str, plan, runner, version: str | None, run: dict,
          records: list[dict], side: dict, wall: float, network: str,
          trials: Trials | None = None, first_form: int = 2) -> TargetReport:
    """`trials`: what the turn tried (core.drill.operator_rule); their forms are the turn's
    commands from index `first_form` on."""
    from ..hooks_health import inert as inert_of
    from ..secrets import redact

    rep = TargetReport(target, "ok", True, version=version, verified=runner.verified,
                       seconds=round(wall, 2), network=network)
    if version and version != runner.verified:
        rep.notes.append(f"the drill's recipe was verified for {runner.binary} "
                         f"{runner.verified}; this is {version}")
    if run.get("error"):
        rep.problems.append(f"the drill could not run {runner.binary}: {redact(run['error'])}")
    elif run.get("timed_out"):
        rep.problems.append(f"{runner.binary} did not finish within {runner.timeout:g} s")
    elif run.get("returncode") != 0:
        tail = (run.get("stderr") or run.get("stdout") or "").strip().splitlines()[-3:]
        rep.problems.append(f"{runner.binary} exited {run.get('returncode')}: "
                            + redact(" | ".join(tail))[:600])
    if run.get("loopback") not in (None, "up", "shared"):
        rep.notes.append(f"loopback inside the sandbox: {run.get('loopback')}")
    rows = _registered(plan, target)
    inert = inert_of(plan, target, now=True)      # the hooks as they are for this turn
    t: Tally = tally(records, runner.per_request)
    if not rows:
        rep.problems.append(f"agentdeck's hooks are not installed for {target} "
                            "(run `agentdeck apply`)")
    ours = set()
    any_fired = any(t.fired(_canon(row.event)) for row in rows)
    for i in inert:
        if any_fired and i.code in _ALL_OFF:
            rep.notes.append(f"agentdeck's status says the hooks are inert ({i.reason}), yet "
                             f"{runner.binary} {version or ''} ran them in this non-interactive "
                             "turn".replace("  ", " "))
    for i in inert:
        if not (any_fired and i.code in _ALL_OFF) and not any(t.fired(_canon(ev))
                                                              for ev in i.events or []):
            rep.problems.append(f"hooks inert: {i.line()}")
    # an event the handler decides as another (the facts' also_events: Claude Code's
    # PreSkillShellCommand, a pre-tool call) is counted by its own spelling, not its canonical's
    also = {row.event for row in rows if row.also}
    own = tally([r for r in records if r.get("raw_event") not in also], runner.per_request) \
        if also else t
    for row in rows:
        ev = row.event
        canon = _canon(ev)
        ours.add(canon)
        et = (tally([r for r in records if r.get("raw_event") == ev], runner.per_request)
              if ev in also else own).events.get(canon)
        n = et.fired if et else 0
        e = EventReceipt(ev, canon, n, True, latency_ms=et.latency_ms if et else None,
                         timeout_s=row.timeout)
        if n == 0:
            e.note, e.ok = _why_not(target, row, runner, inert, any_fired)
        elif et and et.repeats:
            e.ok = False
            e.other_sources = _sources_for(plan, target, canon)
            times = max(et.repeats.values())
            e.note = (f"fired {times} times for one occurrence: also registered by "
                      + (", ".join(e.other_sources) if e.other_sources else
                         "another source agentdeck does not read"))
        if e.latency_ms is not None and isinstance(e.timeout_s, (int, float)) \
                and e.latency_ms >= e.timeout_s * 1000:
            e.ok = False
            e.note = (e.note + "; " if e.note else "") + "the handler took longer than its timeout"
        rep.events.append(e)
    rep.unregistered = {ev: et.fired for ev, et in t.events.items() if ev not in ours}
    rep.harmless_ran = bool(side.get("harmless"))
    trials = trials if trials is not None else Trials(note=NONE)
    markers = {f.marker for tr in trials.trials for f in tr.forms}
    pre_denied = [r for r in t.denied if "pre_tool_use" == r.get("event")]
    denied = [r for r in pre_denied
              if not any(m in (command_of(r) or "") for m in markers)]
    called = any(q.get("command") == 1 for q in run.get("requests") or [])
    rep.deny = {"held": bool(denied) and not side.get("canary"),
                "denied_by_handler": bool(denied), "canary_side_effect": bool(side.get("canary")),
                "canary_called": called}
    if rows and not run.get("error"):
        if not rep.harmless_ran:
            rep.problems.append("the harmless command did not run (its file is absent)")
        if side.get("canary"):
            rep.problems.append("the deny did NOT hold: the canary command ran (its file exists)")
        elif not denied:
            rep.problems.append("the deny is not proven: no handler call denied the canary"
                                + ("" if called else " (the CLI never called it)"))
    ran_ok = bool(rows) and not run.get("error")
    rep.rules, problems = judge_rules(trials, records, run, side, first_form)
    rep.rules_note = trials.note if not trials.trials else ""
    if ran_ok:
        rep.problems += problems
    for name, found in (side.get("stub_found") or {}).items():
        want = f"{side.get('stub_dir')}/{name}"
        if ran_ok and found != want:
            rep.notes.append(f"the turn's shell found {name} at {found or 'no path'}, not the "
                             "drill's stub: its forms were inert only through the deny")
    bad = [e for e in rep.events if not e.ok]
    for e in bad:
        rep.problems.append(f"{e.event}: {e.note}")
    if rep.problems:
        rep.status, rep.ok = "failed", False
    return rep


def _form_row(f, idx: int, rule: str, pre: list[dict], run: dict, side: dict) -> dict:
    recs = [r for r in pre if f.marker in (command_of(r) or "")]
    rec = recs[-1] if recs else None
    row = {"label": f.label, "command": f.command,
           "called": any(q.get("command") == idx for q in run.get("requests") or []),
           "decision": (rec.get("decision") or "allow") if rec else None,
           "rule": rec.get("rule") if rec else None,
           "ran": bool((side.get("markers") or {}).get(f.marker))}
    row["held"] = row["decision"] == "deny" and row["rule"] == rule and not row["ran"]
    return row


def _why_not_held(t, forms: list[dict], side: dict) -> str:
    for f in forms:
        if f["ran"]:
            return f"{f['label']} ran (its marker file exists)"
    if t.decoy and t.decoy in (side.get("decoys_changed") or []):
        return "its decoy file was changed"
    denied_calls = (side.get("stub_denied") or {}).get(t.rule) or []
    if denied_calls:       # the program ran with arguments this rule denies (not the CLI's own calls)
        return f"the stub ran as `{denied_calls[0]}`"
    for f in forms:
        if not f["held"]:
            if f["decision"] is None:
                return (f"no audit line for {f['label']}"
                        + ("" if f["called"] else " (the CLI never called it)"))
            return (f"{f['label']}: the audit recorded {f['decision']} by "
                    f"{f['rule'] or 'no rule'}, not deny by {t.rule}")
    return ""


def judge_rules(trials: Trials, records: list[dict], run: dict, side: dict,
                first_form: int) -> tuple[list[dict], list[str]]:
    """(one entry per rule, the problems): held only when every form was denied by that rule
    in the real turn and nothing it would have done happened."""
    pre = [r for r in records if r.get("event") == "pre_tool_use"]
    out, problems = [], []
    idx = first_form
    for t in trials.trials:
        forms = []
        for f in t.forms:
            forms.append(_form_row(f, idx, t.rule, pre, run, side))
            idx += 1
        why = _why_not_held(t, forms, side)
        entry: dict[str, Any] = {"id": t.rule, "kind": t.kind, "status": "not held" if why else "held",
                 "why": why, "example": t.example, "forms": forms}
        if t.access:
            entry["access"] = t.access
        if t.stubs:
            entry["stubs"] = list(t.stubs)
        if t.note:
            entry["note"] = t.note
        out.append(entry)
        if why:
            problems.append(f"the deny of rule {t.rule} did NOT hold: {why}"
                            if "ran" in why or "changed" in why else
                            f"the deny of rule {t.rule} is not proven: {why}")
    for u in trials.untried:
        out.append({"id": u.rule, "kind": u.kind, "status": "not tried", "why": u.why,
                    "forms": []})
    return out, problems


# ---- text ------------------------------------------------------------------------------------------

def _ms(e: EventReceipt) -> str:
    if e.latency_ms is None:
        return ""
    to = f" / {e.timeout_s:g} s" if isinstance(e.timeout_s, (int, float)) else ""
    return f"{e.latency_ms} ms{to}"


def render(rep: DrillReport, host: Host) -> str:
    if rep.turns:
        out = [f"agentdeck drill {rep.drill_id}: network {rep.network}; {rep.seconds:.1f} s"]
    else:
        out = [f"agentdeck drill {rep.drill_id}: no turn was run"]
    out.append("")
    block = False                  # the previous target had a turn (a block of lines)
    for t in rep.targets.values():
        one_line = t.status == "skipped" or (t.seconds is None and t.problems and not t.events)
        if out[-1] and (block or not one_line):
            out.append("")
        block = not one_line
        if one_line:
            out.append(f"{t.target:<8} {t.status}: {t.problems[0]}")      # no turn: one line
            continue
        head = f"{t.target:<8} {t.status.upper() if not t.ok else 'ok'}"
        if t.version:
            head += f"  ({t.target} {t.version}"
            head += f", {t.seconds:.1f} s)" if t.seconds is not None else ")"
        out.append(head)
        if t.events:
            w = max(len(e.event) for e in t.events)
            for e in t.events:
                fired = f"fired {e.fired}x" if e.fired else "not fired"
                line = f"  {'✓' if e.ok else '✗'} {e.event:<{w}}  {fired:<10} {_ms(e):<18}"
                if e.note:
                    line += f" {host.display(e.note) if e.note.startswith('/') else e.note}"
                out.append(line.rstrip())
        if t.unregistered:
            out.append("  also fired (not registered by agentdeck's profile): "
                       + ", ".join(f"{k} {v}x" for k, v in sorted(t.unregistered.items())))
        d = t.deny
        if d:
            held = ("held: the handler denied the canary at the pre-tool event and its file is "
                    "absent" if d.get("held") else "NOT held")
            out.append(f"  deny: {held}")
        out += _render_rules(t)
        for p in t.problems:
            if not any(p.startswith(f"{e.event}: ") for e in t.events):
                out.append(f"  problem: {p}")
        for n in t.notes:
            out.append(f"  note: {n}")
    out.append("")
    out.append(summary_line(rep))
    return "\n".join(out)


def _render_rules(t: TargetReport) -> list[str]:
    if not t.rules:
        return [f"  rules: {t.rules_note}"] if t.rules_note else []
    tried = [r for r in t.rules if r["status"] != "not tried"]
    held = [r for r in tried if r["status"] == "held"]
    out = [f"  rules: {len(tried)} tried in this turn ({len(held)} held), "
           f"{len(t.rules) - len(tried)} not tried"]
    for r in t.rules:
        if r["status"] == "not tried":
            out.append(f"    - {r['id']}: not tried: {r['why']}")
            continue
        what = {"path": f"path rule, {r.get('access')} of a decoy at {r['example']}",
                "argv": f"argv rule, {', '.join(r.get('stubs') or [])} a stub on PATH",
                "regex": "regex rule"}.get(r["kind"], r["kind"])
        mark = "✓" if r["status"] == "held" else "✗"
        head = f"    {mark} {r['id']}: {'held' if r['status'] == 'held' else 'NOT held'} ({what})"
        out.append(head + (f": {r['why']}" if r["why"] else ""))
        w = max(len(f["label"]) for f in r["forms"])
        for f in r["forms"]:
            got = (f"{f['decision']} by {f['rule'] or 'no rule'}" if f["decision"]
                   else "no audit line")
            out.append(f"        {f['label']:<{w}}  {f['command']}  -> {got}"
                       + ("; it ran" if f["ran"] else ""))
        if r.get("note"):
            out.append(f"        note: {r['note']}")
    return out


def summary_line(rep: DrillReport) -> str:
    """The drill's last line: how many CLIs are ok, which were skipped, what to do next."""
    n_ok = sum(1 for t in rep.targets.values() if t.ok)
    skipped = [t.target for t in rep.targets.values() if t.status == "skipped"]
    line = f"Drill: {n_ok} of {count_of(len(rep.targets), 'CLI')} ok"
    if skipped:
        line += f"; skipped (not ok): {', '.join(skipped)}"
    if rep.ok:
        return line + "."
    ran_bad = [t for t in rep.targets.values() if not t.ok and t.status != "skipped"]
    if ran_bad:
        return line + ". Fix what is marked ✗ or problem:, then run it again."
    ready = [t.target for t in rep.targets.values() if t.ok]
    if ready:
        return line + (f". To drill only the ready {noun_for(len(ready), 'one')}: `agentdeck drill --target "
                       f"{','.join(ready)}`.")
    return line + ". Nothing was drilled."


def dumps(rep: DrillReport) -> str:
    return json.dumps(rep.to_json(), indent=2, default=str)
