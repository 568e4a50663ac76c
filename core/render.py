"""Plain-text rendering of a plan, terraform style: `+ ~ - !`, a legend of only the symbols in
use, and one closing summary line. No rich/textual import here: the CLI path stays light."""
from __future__ import annotations

import json
import os
import sys
from typing import Any

from .disk import MISSING
from .hooks_health import state_text
from .host import Host
from .plan import Plan, PlanItem

COLORS = {"+": "32", "~": "33", "-": "31", "!": "35", "?": "36"}
LEGEND = {"+": "create", "~": "update", "-": "remove", "!": "hand-edited, foreign or conflict: yours is kept unless you take the profile's",
          ">": "record only (agentdeck's manifest, no change to your files)"}


def use_color(stream=None) -> bool:
    stream = stream or sys.stdout
    return stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def _c(code: str, s: str, color: bool) -> str:
    return f"\x1b[{code}m{s}\x1b[0m" if color else s


def symbol(plan: Plan, it: PlanItem) -> str:
    act = plan.action(it)
    if act == "write":
        return "+" if it.actual is MISSING else "~"
    if act == "remove":
        return "-"
    if it.cls in ("hand-edited", "foreign", "conflict"):
        return "!"
    if act == "record":
        return ">"
    return " "


def short(v: Any, width: int = 60, *, start: int = 0) -> str:
    """One line for a value; key values are shown as JSON (strings quoted). `start`: show the
    text from about there (where values differ) instead of from the beginning."""
    if v is MISSING or v is None:
        return "(absent)"
    s = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    if len(s) <= width:
        return s
    if start > width - 20:
        a = max(0, start - 20)
        body = s[a:a + width - 2]
        return "…" + body + ("…" if a + width - 2 < len(s) else "")
    return s[: width - 1] + "…"


def first_difference(values: list[Any]) -> int:
    """Where the JSON forms of the values first differ (0 when they do not share a prefix)."""
    texts = [json.dumps(v, ensure_ascii=False, separators=(",", ":")) for v in values
             if v is not MISSING and v is not None]
    if len(texts) < 2:
        return 0
    n = 0
    for chars in zip(*texts):
        if len(set(chars)) > 1:
            break
        n += 1
    return n


def render_plan(plan: Plan, host: Host, *, verbose: bool = False, color: bool = False,
                titles: dict[str, str] | None = None) -> str:
    out: list[str] = []
    verb = "uninstall" if plan.mode == "uninstall" else "plan"
    out.append(f"agentdeck {verb}: profile {plan.profile}, home {plan.home} (shown as ~), "
               f"targets {', '.join(plan.targets)}")
    used: set[str] = set()
    for t in plan.targets:
        items = plan.for_target(t)
        shown = [i for i in items if symbol(plan, i) != " " or verbose]
        notices = plan.notices.get(t, [])
        title = (titles or {}).get(t, "")
        out.append("")
        inert = state_text(plan, t)
        counts = f"{len(shown)} item(s) to review" if shown else (inert or "in sync")
        out.append(_c("1", f"{t}", color) + (f"  {title}" if title else "") + f"  ({counts})")
        for it in shown:
            sym = symbol(plan, it)
            used.add(sym)
            what = it.label or ""
            where = host.display(it.path)
            line = f"  {_c(COLORS.get(sym, '0'), sym, color)} {where}"
            if what and what != where:
                line += f"  {what}"
            dec = plan.decision(it)
            if it.cls in ("hand-edited", "foreign", "conflict"):
                line += f"  [{it.cls}: {'taking the profile' if dec == 'take' else 'keeping yours'}]"
            elif dec == "skip":
                line += "  [skipped]"
            if it.secret:
                line += "  (secret: 0600)"
            out.append(line)
            if it.reason:
                out.append(f"      {it.reason}")
            if it.kind == "key" and sym in ("~", "!"):
                at = first_difference([it.desired, it.recorded, it.actual])
                out.append(f"      profile:      {short(it.desired, start=at)}")
                out.append(f"      last written: {short(it.recorded, start=at)}")
                out.append(f"      on disk:      {short(it.actual, start=at)}")
            for w in it.warnings:
                out.append(f"      {_c('33', 'warning:', color)} {w}")
            if verbose:
                out.append(f"      id: {it.id}")
        for n in notices:
            tag = {"warning": _c("33", "warning:", color), "error": _c("31", "error:", color)}.get(n.level, "info:")
            out.append(f"  {tag} {n.message}")
    out.append("")
    legend = [f"{s} {LEGEND[s]}" for s in ("+", "~", "-", "!", ">") if s in used]
    if legend:
        out.append("Legend: " + "; ".join(legend))
    out.append(_c("1", plan.summary(), color))
    return "\n".join(out)
