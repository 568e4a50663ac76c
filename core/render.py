"""Plain-text rendering of a plan, terraform style: `+ ~ - !`, a legend of only the symbols in
use, and one closing summary line. No rich/textual import here: the CLI path stays light.

The text is rendered from the plan's JSON form (`Plan.to_json()`, docs/plan-format.md), as
terraform renders its plan from the JSON plan: `render_json` reads nothing else, so the text and
`--json` cannot disagree (tests/unit/test_render_json.py)."""
from __future__ import annotations

import json
import os
import sys
from typing import Any

from .disk import MISSING
from .host import Host
from .kinds import KINDS
from .plan import KEPT_CLASSES, Action, Decision, Plan, PlanItem
from .output_guard import redact_output
from .wording import count_of

COLORS = {"+": "32", "~": "33", "-": "31", "!": "35", "?": "36", "*": "35"}
LEGEND = {"+": "create", "~": "update", "-": "remove", "!": "hand-edited, foreign or conflict: yours is kept unless you take the profile's",
          ">": "record only (agentdeck's manifest, no change to your files)",
          "*": "not removed: something that stays still calls it",
          "=": "a part of another tool's install, and what becomes of it"}


def use_color(stream=None) -> bool:
    stream = stream or sys.stdout
    return stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def _c(code: str, s: str, color: bool) -> str:
    return f"\x1b[{code}m{s}\x1b[0m" if color else s


def symbol_of(action: str, cls: str, exists: bool, held: bool = False) -> str:
    """The mark of an item from its JSON fields `action`, `class`, `exists` and `held_by`."""
    if held:
        return "*"
    if action == Action.WRITE:
        return "~" if exists else "+"
    if action == Action.REMOVE:
        return "-"
    if cls in KEPT_CLASSES:
        return "!"
    if action == Action.RECORD:
        return ">"
    return " "


def symbol(plan: Plan, it: PlanItem) -> str:
    return symbol_of(plan.action(it), it.cls, it.actual is not MISSING, bool(plan.held_by(it)))


def short(v: Any, width: int = 60, *, start: int = 0) -> str:
    """One line for a value; key values are shown as JSON (strings quoted). `start`: show the
    text from about there (where values differ) instead of from the beginning."""
    if v is MISSING or v is None:
        return "(absent)"
    s = json.dumps(redact_output(v), ensure_ascii=False, separators=(",", ":"))
    if len(s) <= width:
        return s
    if start > width - 20:
        a = max(0, start - 20)
        body = s[a:a + width - 2]
        return "…" + body + ("…" if a + width - 2 < len(s) else "")
    return s[: width - 1] + "…"


def first_difference(values: list[Any]) -> int:
    """Where the JSON forms of the values first differ (0 when they do not share a prefix)."""
    texts = [json.dumps(redact_output(v), ensure_ascii=False, separators=(",", ":")) for v in values
             if v is not MISSING and v is not None]
    if len(texts) < 2:
        return 0
    n = 0
    for chars in zip(*texts):
        if len(set(chars)) > 1:
            break
        n += 1
    return n


#: the clauses that end a kept item's reason (core.plan.classify) and say its DEFAULT outcome:
#: yours stays. They are true only while the decision keeps yours (tests/unit/test_render_decided.py
#: checks every reason classify gives a kept class ends in one of them, or says "decide").
KEEP_OUTCOMES = ("kept", "not re-added", "left as is, no longer managed")


def decided_words(it: dict) -> tuple[str, str]:
    """(what apply does, the reason) for an item of a kept class (hand-edited, foreign,
    conflict), from its JSON form: the words say what the decision in force makes apply do, and
    the reason loses its default-outcome clause ("; kept") when the operator decided otherwise,
    so a line never says both that the profile's value is taken and that yours is kept."""
    reason = it["reason"] or ""
    if it["decision"] != Decision.TAKE:
        return "keeping yours", reason
    head, sep, tail = reason.rpartition("; ")
    if tail in KEEP_OUTCOMES:
        reason = head if sep else ""
    if it["action"] == Action.REMOVE:
        return "taking the profile's: apply removes it", reason
    return "taking the profile's: apply writes the profile's value", reason


def render_plan(plan: Plan, host: Host, *, verbose: bool = False, color: bool = False,
                titles: dict[str, str] | None = None) -> str:
    """The text form of `plan`: its JSON form, rendered."""
    return render_json(plan.to_json(), host.display, verbose=verbose, color=color, titles=titles)


def _display_fn(home: str):
    def display(path: str) -> str:
        if path == home:
            return "~"
        if path.startswith(home.rstrip(os.sep) + os.sep):
            return "~" + path[len(home.rstrip(os.sep)):]
        return path
    return display


def render_json(data: dict, display=None, *, verbose: bool = False, color: bool = False,
                titles: dict[str, str] | None = None) -> str:
    """The text form of a plan's JSON form (`display`: a path as shown, the home as ~)."""
    display = display or _display_fn(data["home"])
    out: list[str] = []
    verb = "uninstall" if data["mode"] == "uninstall" else "plan"
    prof = data["profile"]
    before = sorted({p for p in (data.get("installed_profile") or {}).values()
                     if p and p != prof}) if verb == "plan" else []
    if before:      # a profile switch: the plan is what it takes to go from one to the other
        prof = f"{' and '.join(before)} -> {prof}"
    out.append(f"agentdeck {verb}: profile {prof}, home {data['home']} (shown as ~), "
               f"targets {', '.join(data['targets'])}")
    used: set[str] = set()
    by_target = data["summary"]["by_target"]
    for t in data["targets"]:
        items = [j for j in data["items"] if j["target"] == t]
        marks = [(symbol_of(j["action"], j["class"], j["exists"], bool(j.get("held_by"))), j)
                 for j in items]
        shown = [(sym, j) for sym, j in marks if sym != " " or verbose]
        notices = data["notices"].get(t, [])
        title = (titles or {}).get(t, "")
        out.append("")
        review = by_target[t]["to_review"]
        n = len(shown) if verbose else review
        counts = f"{count_of(n, 'item')} to review" if n else (by_target[t].get("hooks_inert") or "in sync")
        if t in (data.get("errors") or {}):
            counts = "plan failed"
        out.append(_c("1", f"{t}", color) + (f"  {title}" if title else "") + f"  ({counts})")
        was = (data.get("installed_profile") or {}).get(t)
        if verb == "plan" and was and was != data["profile"]:
            out.append(f"  profile: {was} -> {data['profile']} (the profile installed now "
                       "is recorded at apply; plain plan, apply and status then use it)")
        found = (data.get("found") or {}).get(t, [])
        by_id = {j["id"]: (sym, j) for sym, j in marks}
        taken = {p["item"] for f in found for p in f["parts"] if p.get("item") in by_id}
        for f in found:       # another tool's install: one group, its parts and their fate
            out.append(f"  {_c('1', f['title'], color)}")
            if f.get("warning"):
                out.append(f"      {_c('33', 'warning:', color)} {f['warning']}")
            for p in f["parts"]:
                if p.get("item") in by_id and (by_id[p["item"]][0] != " " or verbose):
                    sym, it = by_id[p["item"]]
                    used.add(sym)
                    out.extend("  " + ln for ln in _item_lines(sym, it, display, color, verbose))
                else:
                    what = f"{p['what']} {p['name']}" if p.get("name") else p["what"]
                    out.append(f"    = {display(p['path'])}  {what}: {p['fate']}")
                    out.append(f"        {p['note']}")
                    used.add("=")
        for sym, it in shown:
            if it["id"] in taken:
                continue
            used.add(sym)
            out.extend(_item_lines(sym, it, display, color, verbose))
        for n_ in notices:
            tag = {"warning": _c("33", "warning:", color),
                   "error": _c("31", "error:", color)}.get(n_["level"], "info:")
            out.append(f"  {tag} {n_['message']}")
    out.append("")
    legend = [f"{s} {LEGEND[s]}" for s in ("+", "~", "-", "!", "*", ">", "=") if s in used]
    if legend:
        out.append("Legend: " + "; ".join(legend))
    out.append(_c("1", data["summary"]["text"], color))
    return "\n".join(out)


def _item_lines(sym: str, it: dict, display, color: bool, verbose: bool) -> list[str]:
    """The lines of one item of the JSON form."""
    out: list[str] = []
    what = it["label"] or ""
    where = display(it["path"])
    line = f"  {_c(COLORS.get(sym, '0'), sym, color)} {where}"
    if what and what != where:
        line += f"  {what}"
    dec = it["decision"]
    reason = it["reason"]
    kind = KINDS[it["kind"]]
    if kind.sets_aside and it["action"] in (Action.WRITE, Action.REMOVE):
        line += "  [set aside]" if it["action"] == Action.WRITE else "  [put back]"
    elif it["class"] in KEPT_CLASSES:
        outcome, reason = decided_words(it)
        line += f"  [{it['class']}: {outcome}]"
    elif dec == Decision.SKIP:
        line += "  [skipped]"
    if it["secret"]:
        line += "  (secret: 0600)"
    out.append(line)
    if reason:
        out.append(f"      {reason}")
    if kind.shows_values and sym in ("~", "!"):
        values = [it["desired"], it["recorded"], it["actual"]]
        at = first_difference(values)
        out.append(f"      profile:      {short(values[0], start=at)}")
        out.append(f"      last written: {short(values[1], start=at)}")
        out.append(f"      on disk:      {short(values[2], start=at)}")
    for w in it["warnings"]:
        out.append(f"      {_c('33', 'warning:', color)} {w}")
    if verbose:
        out.append(f"      id: {shown_id(it['id'], display)}")
    return out


def shown_id(item_id: str, display) -> str:
    """An item's id as the operator reads and types it (`--keep ID`): its paths, the file's and
    a key's member path (`...#["hooks", "Stop"]@<wrapper>`), with the home as ~."""
    path, sep, rest = item_id.partition("#")
    key, at, member = rest.partition("]@")
    if at and member.startswith(os.sep):
        member = display(member)
    return display(path) + sep + key + at + member
