"""`agentdeck doctor --export FILE`: the doctor's report as one self-contained HTML page (the
verdicts, each CLI's layers, the problems with their fixes, the notes, and every check folded
under its CLI), to attach to a ticket. No script, no network, no external style sheet: the
page reads the same in any browser, offline. Every text is escaped, and redacted as every
other output is (core/secrets.py); the home is shown as `~` as in the text report.
"""
from __future__ import annotations

import datetime as _dt
from html import escape
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import UserError
from ..host import Host
from ..secrets import redact
from ..targets.registry import TARGETS as TARGET_SPECS
from .findings import RESULTS, SEVERITY, Finding, Result
from ..wording import count_of

TITLES = {s.name: s.title for s in TARGET_SPECS}

MARK_CLASS = {"ok": "ok", "warning": "warn", "error": "err", "absent": "absent"}
MARK = {"ok": "✓", "warning": "!", "error": "✗", "absent": "-"}

CSS = """
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:70em;
color:#1d2329;padding:0 1em}
h1{font-size:1.4em;margin:0 0 .2em}h2{font-size:1.1em;margin:1.6em 0 .4em;border-bottom:1px solid #d8dee4}
.meta{color:#57606a}
table{border-collapse:collapse;width:100%}td,th{text-align:left;vertical-align:top;padding:.3em .5em;
border-bottom:1px solid #eaeef2}th{font-weight:600;color:#57606a}
.mark{font-weight:700;width:1.5em;text-align:center}
.ok{color:#1a7f37}.warn{color:#9a6700}.err{color:#cf222e}.absent{color:#8c959f}.info{color:#0969da}
.skipped{color:#8c959f}
.fix{color:#1a7f37}.fix::before{content:"fix: ";font-weight:600}
.facts span+span::before{content:" · ";color:#8c959f}
.upgrade{color:#9a6700}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f6f8fa;padding:0 .2em;white-space:nowrap}
details{margin:.3em 0}summary{cursor:pointer}
.layers td.win{font-weight:600}.undo{color:#cf222e;font-weight:600}
"""


def _t(host: Host, text: str | None) -> str:
    """One text for the page: the home as ~, secrets redacted, HTML escaped."""
    if not text:
        return ""
    home = str(host.home)
    shown = text.replace(home + "/", "~/")
    if shown == home:
        shown = "~"
    return escape(redact(shown))


def _finding_rows(host: Host, rows: list[Finding]) -> list[str]:
    out = []
    for f in rows:
        cls = {"warning": "warn", "error": "err"}.get(f.result, f.result)
        where = ""
        if f.path:
            where = f"<code>{_t(host, f.path)}{':' + str(f.line) if f.line else ''}</code> "
        fix = f'<div class="fix">{_t(host, f.fix)}</div>' if f.fix and f.result != "ok" else ""
        out.append(f'<tr><td class="{cls}">{escape(str(f.result))}</td>'
                   f"<td><code>{escape(f.check)}</code></td>"
                   f"<td>{where}{_t(host, f.message)}{fix}</td></tr>")
    return out


def _table(head: tuple[str, ...], rows: list[str]) -> str:
    return ("<table><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"
            + "".join(rows) + "</table>")


def render(host: Host, findings: list[Finding], verdicts: list, *, profile: str, live: bool,
           layers: dict[str, list[dict[str, Any]]] | None = None,
           now: _dt.datetime | None = None) -> str:
    """The whole page. `layers`: per target, the rows of core/doctor/layers_view.py (optional)."""
    when = (now or _dt.datetime.now(_dt.timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    c = {str(r): sum(1 for f in findings if f.result == r) for r in RESULTS}
    failed = any(f.result == "error" for f in findings)    # the doctor's exit 1
    verdict_line = ("errors: some of what you intend is not loaded" if c["error"] else
                    "no errors" + (" (see the warnings)" if c["warning"] else ""))
    parts = [
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">",
        f"<title>agentdeck doctor: {escape(profile)}</title><style>{CSS}</style></head><body>",
        "<h1>agentdeck doctor</h1>",
        f'<p class="meta">profile <b>{escape(profile)}</b> · '
        f"{'static and live checks' if live else 'static checks'} · agentdeck {escape(__version__)}"
        f" · {when} · home shown as <code>~</code></p>",
        f'<p id="summary" class="{"err" if failed else "ok"}">'
        f"{', '.join(f'{n} {r}' for r, n in c.items() if n)}: {escape(verdict_line)}</p>",
        '<h2 id="verdicts">Each CLI at a glance</h2>',
    ]
    rows = []
    for v in verdicts:
        facts = "".join(f"<span>{_t(host, x)}</span>" for x in v.facts)
        up = f'<div class="upgrade">{_t(host, v.upgrade)}</div>' if v.upgrade else ""
        rows.append(f'<tr data-target="{escape(v.target)}" data-mark="{escape(v.mark)}">'
                    f'<td class="mark {MARK_CLASS[v.mark]}">{MARK[v.mark]}</td>'
                    f"<td><b>{escape(v.title)}</b> {escape(v.version or '')}</td>"
                    f'<td class="facts">{facts}{up}</td></tr>')
    parts.append(_table(("", "CLI", "what matters"), rows))
    if layers:
        parts.append('<h2 id="layers">Layers: where each setting comes from</h2>')
        for target, lrows in layers.items():
            parts.append(f"<h3>{escape(TITLES.get(target, target))}</h3>")
            body = []
            for r in lrows:
                undo = (f' <span class="undo">can undo agentdeck: {_t(host, r["undoes"])}</span>'
                        if r.get("undoes") else "")
                body.append(f'<tr><td>{escape(r["layer"])}</td>'
                            f'<td><code>{_t(host, r["path"])}</code></td>'
                            f'<td>{escape(r["state"])}</td>'
                            f'<td class="{"win" if r.get("wins") else ""}">'
                            f'{escape(r.get("decides", ""))}{undo}</td></tr>')
            parts.append('<table class="layers">' + "<tr><th>layer</th><th>file</th>"
                         "<th>here</th><th>decides</th></tr>" + "".join(body) + "</table>")
    problems = sorted((f for f in findings if f.result in ("error", "warning")),
                      key=lambda f: -SEVERITY[Result(f.result)])
    parts.append(f'<h2 id="problems">Problems ({len(problems)})</h2>')
    parts.append(_table(("result", "check", "message and fix"), _finding_rows(host, problems))
                 if problems else "<p class=\"ok\">No problems.</p>")
    notes = [f for f in findings if f.result in ("info", "skipped")]
    if notes:
        parts.append(f'<h2 id="notes">Notes ({len(notes)})</h2>')
        parts.append(_table(("result", "check", "message"), _finding_rows(host, notes)))
    parts.append('<h2 id="checks">Every check, by CLI</h2>')
    targets = list(dict.fromkeys(f.target for f in findings))
    for t in targets:
        mine = [f for f in findings if f.target == t]
        n_ok = sum(1 for f in mine if f.result == "ok")
        parts.append(f"<details><summary>{escape(TITLES.get(t, t))}: {count_of(len(mine), 'check')}, "
                     f"{n_ok} ok</summary>"
                     + _table(("result", "check", "message"), _finding_rows(host, mine))
                     + "</details>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def write(host: Host, path: Path, page: str) -> None:
    """Write the page to `path` (the operator's own file, named on the command line): refused
    when something other than a regular file is there. Not a plan item: a report, not config."""

    if host.exists(path) and (host.is_symlink(path) or not host.is_file(path)):
        raise UserError(f"--export {path}: something other than a regular file is there; "
                        "name a new file")
    if not host.is_dir(path.parent):
        raise UserError(f"--export {path}: the folder {path.parent} does not exist")
    host.write_atomic(path, page.encode("utf-8"), mode=0o600, confine=False)
