"""`agentdeck doctor`: the findings as a RESULT / CHECK / MESSAGE table grouped by target (the
home shown as `~`, so the output can be pasted into an issue), or as JSON.

Exit status: 0 when nothing is above warning, 1 when any finding is an error.
Plain text, no rich: the CLI stays light.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from ..targets.registry import TARGETS as TARGET_SPECS
from ..host import Host
from .findings import RESULTS, SEVERITY, Finding
from ..wording import count_of

TITLES = {s.name: s.title for s in TARGET_SPECS}     # the registry's
ORDER = ("error", "warning", "info", "ok", "skipped")
#: what --live leaves out, and how to run it
DRILL_HINT = ("add --drill, or run `agentdeck drill`, for a real offline turn of each CLI: do the "
              "hooks run, does a deny hold?")


def exit_code(findings: list[Finding]) -> int:
    return 1 if any(SEVERITY[f.result] > SEVERITY["warning"] for f in findings) else 0


def counts(findings: list[Finding]) -> dict[str, int]:
    return {r: sum(1 for f in findings if f.result == r) for r in RESULTS}


def summary_line(findings: list[Finding]) -> str:
    c = counts(findings)
    parts = [f"{c[r]} {r if r in ('ok', 'info', 'skipped') or c[r] == 1 else r + 's'}"
             for r in ORDER if c[r]]
    verdict = ("errors: some of what you intend is not loaded" if c["error"] else
               "no errors" + (" (see the warnings)" if c["warning"] else ""))
    return f"Summary: {', '.join(parts) or 'nothing checked'}; {verdict}."


def render_text(findings: list[Finding], *, profile: str, live: bool, verbose: bool = False,
                drill: bool | None = None, verdicts: list | None = None,
                layers: dict | None = None) -> str:
    """`drill`: whether the drill ran (True) or could have (False: the header says how to run
    it); None where there is no drill to offer. With `verdicts` (core/doctor/verdict.py): one
    line per CLI first, then the problems (errors, then warnings) with their fixes, then the
    notes (info and skipped rows); the `ok` rows and the per-CLI tables only with `verbose`.
    Without them: the per-CLI tables."""
    lines: list[str] = []
    mode = "static and live checks" if live else "static checks (add --live to ask each CLI)"
    if live and drill:
        mode += " and the drill"
    elif live and drill is False:
        mode += f" ({DRILL_HINT})"
    lines.append(f"agentdeck doctor: profile {profile}, {mode}; home shown as ~")
    cw = max([len("CHECK")] + [len(f.check) for f in findings])
    if verdicts is not None:
        lines.append("")
        width = max((len(v.line().split("  ")[0]) for v in verdicts), default=0)
        for v in verdicts:
            lines.append(v.line(width))
            if v.upgrade:
                lines.append(f"{'':<{width}}  {v.upgrade}")
        if layers:
            from .layers_view import render as render_layers   # local: with --layers only
            lines.append("")
            lines.extend(render_layers(layers, TITLES))
        problems = sorted((f for f in findings if f.result in ("error", "warning")),
                          key=lambda f: -SEVERITY[f.result])      # stable: target order kept
        notes = [f for f in findings if f.result in ("info", "skipped")]
        lines.append("")
        if problems:
            lines.append(f"Problems ({len(problems)}), each with its fix:")
            lines.append(f"{'RESULT':<8} {'CHECK':<{cw}}  MESSAGE")
            lines.extend(_rows(problems, cw))
        else:
            lines.append("No problems.")
        if notes:
            lines.append("")
            lines.append(f"Notes ({len(notes)}):")
            lines.extend(_rows(notes, cw))
        if not verbose:
            ok = sum(1 for f in findings if f.result == "ok")
            lines.append("")
            lines.append(f"{count_of(ok, 'check')} ok, not shown: --verbose shows every check by CLI.")
            lines.append(summary_line(findings))
            return "\n".join(lines) + "\n"
    targets: list[str] = []
    for f in findings:
        if f.target not in targets:
            targets.append(f.target)
    for t in targets:
        rows = [f for f in findings if f.target == t]
        if not verbose:
            rows = _collapse_ok(rows)
        lines.append("")
        lines.append(f"{TITLES.get(t, t)} ({t})")
        lines.append(f"{'RESULT':<8} {'CHECK':<{cw}}  MESSAGE")
        lines.extend(_rows(rows, cw))
    lines.append("")
    lines.append(summary_line(findings))
    return "\n".join(lines) + "\n"


def _rows(rows: list[Finding], cw: int) -> list[str]:
    """RESULT / CHECK / MESSAGE rows, each problem's fix under it (the same hint once per run
    of rows)."""
    lines: list[str] = []
    last_fix = None
    for f in rows:
        msg = f.message
        if f.path and f.result != "ok":
            where = f.path + (f":{f.line}" if f.line else "")
            if where not in msg:
                msg = f"{where}: {msg}"
        lines.append(f"{f.result:<8} {f.check:<{cw}}  {msg}")
        if f.fix and f.result in ("error", "warning", "info"):
            if (f.check, f.fix) != last_fix:
                lines.append(f"{'':<8} {'':<{cw}}  fix: {f.fix}")
            last_fix = (f.check, f.fix)
        else:
            last_fix = None
    return lines


def _collapse_ok(rows: list[Finding]) -> list[Finding]:
    """Every check keeps its row; a check with several ok rows shows the first only."""
    out, seen_ok = [], set()
    for f in rows:
        if f.result == "ok":
            if f.check in seen_ok:
                continue
            seen_ok.add(f.check)
        out.append(f)
    return out


def to_json(findings: list[Finding], *, profile: str, live: bool, targets: list[str],
            verdicts: list | None = None, layers: dict | None = None) -> dict[str, Any]:
    """The same shape as the text: the verdicts first, then the problems (errors, warnings),
    then every finding."""
    out: dict[str, Any] = {"format": 1, "profile": profile, "targets": targets, "live": live,
                           "summary": counts(findings), "exit": exit_code(findings)}
    if verdicts is not None:
        out["verdicts"] = [v.to_json() for v in verdicts]
        out["problems"] = [f.to_json() for f in sorted(
            (f for f in findings if f.result in ("error", "warning")),
            key=lambda f: -SEVERITY[f.result])]
    if layers is not None:
        out["layers"] = layers
    out["findings"] = [f.to_json() for f in findings]
    return out


def main(args, host: Host) -> int:
    from .runner import normalize_targets, run_with_context   # local: test_import_is_light
    from .verdict import verdicts as make_verdicts   # local: loads when the doctor runs

    profile = getattr(args, "profile", None) or "default"
    targets = normalize_targets(getattr(args, "target", None))
    drill = bool(getattr(args, "drill", False))
    live = bool(getattr(args, "live", False)) or drill
    def say(msg: str) -> None:
        sys.stderr.write(f"\r\x1b[2K{msg}")
        sys.stderr.flush()
    progress = say if live and not getattr(args, "json", False) and sys.stderr.isatty() else None
    findings, ctx = run_with_context(host, profile, targets, live=live, progress=progress,
                                     drill=drill)
    verdicts = make_verdicts(ctx, findings)
    if progress is not None:
        sys.stderr.write("\r\x1b[2K")
        sys.stderr.flush()
    export = getattr(args, "export", None)
    since = getattr(args, "since", None)
    layers = None
    if export or since or getattr(args, "layers", False) or getattr(args, "verbose", False) \
            or getattr(args, "json", False):
        from .layers_view import all_rows   # local: the layer view reads the org and layer files
        layers = all_rows(ctx)
    if since:
        from . import drift   # local: only --since compares runs

        old = drift.load(host, Path(os.path.abspath(os.path.expanduser(since))))
        now = to_json(findings, profile=profile, live=live, targets=targets,
                      verdicts=verdicts, layers=layers)
        findings = findings + drift.findings(old, now, since)
        verdicts = make_verdicts(ctx, findings)     # a weakened CLI's mark is ✗
    if export:
        from . import export as export_mod   # local: the HTML page loads only for --export

        target = Path(os.path.abspath(os.path.expanduser(export)))
        export_mod.write(host, target, export_mod.render(host, findings, verdicts,
                                                         profile=profile, live=live,
                                                         layers=layers))
        sys.stderr.write(f"agentdeck doctor: the report is in {target} (HTML, self-contained)\n")
    if getattr(args, "json", False):
        print(json.dumps(to_json(findings, profile=profile, live=live, targets=targets,
                                 verdicts=verdicts, layers=layers), indent=2,
                         ensure_ascii=False))
    else:
        sys.stdout.write(render_text(findings, profile=profile, live=live,
                                     verbose=getattr(args, "verbose", False), drill=drill,
                                     verdicts=verdicts,
                                     layers=layers if getattr(args, "layers", False)
                                     or getattr(args, "verbose", False) else None))
    return exit_code(findings)
