"""Which browser gets an MCP OAuth URL: the `browserCommand` and `suppressBrowserLaunch`
directives, resolved at install time into Copilot's COPILOT_DEBUG_BROWSER (a JSON array of
strings; Copilot spawns argv[0] with the rest plus the URL appended).

Rules (docs/facts/copilot.md section 10, COPILOT-COMPAT §11.3 and §11.5):

  browserCommand     under WSL                              elsewhere
  -----------------  -------------------------------------  ------------------------------------
  "auto"             first of wslview, Chrome (Program      nothing written (Copilot's own open /
                     Files, then Program Files (x86)),      xdg-open already reaches the
                     Edge that resolves; none: warn         operator's browser)
  "<command ...>"    shell-split; written only if argv[0]   same
                     resolves, else dropped with a warning
  ["argv", ...]      passed through (strings only)          same
  anything else      dropped with a warning                 same
  absent             nothing                                nothing

explorer.exe is never chosen and never written: under WSL it ignores the URL, opens File Explorer
on Documents and exits 1 (observed live: docs/facts/copilot.md section 10).

`suppressBrowserLaunch: true` points COPILOT_DEBUG_BROWSER at a sink, `sh -c 'echo "$1" >> "$0"'
<copilot home>/pending-oauth-urls.txt`, so servers stay configured and no browser opens; the URL
waits in that file. When both are set, a browserCommand that yields a launcher wins; when it
yields none (auto outside WSL, an unresolvable command) the sink applies. The sink's script has no
"%s" in it on purpose: Copilot's login path substitutes the URL for a "%s" element.

Every probe goes through the Host (`is_wsl`, `which`, `exists`), so tests fake each candidate.
"""
from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import Any

from ...host import Host
from ..output import BrowserCandidate, BrowserInfo

CHROME = "/mnt/c/Program Files/Google/Chrome/Application/chrome.exe"
CHROME_X86 = "/mnt/c/Program Files (x86)/Google/Chrome/Application/chrome.exe"
EDGE = "/mnt/c/Program Files (x86)/Microsoft/Edge/Application/msedge.exe"
#: the probe order of "auto" under WSL: (label, how, what)
AUTO_CANDIDATES: tuple[tuple[str, str, str], ...] = (
    ("wslview", "which", "wslview"),
    ("Chrome", "path", CHROME),
    ("Chrome (x86)", "path", CHROME_X86),
    ("Edge", "path", EDGE),
)
PENDING_URLS = "pending-oauth-urls.txt"
SINK_SCRIPT = 'echo "$1" >> "$0"'


@dataclass
class BrowserResolution:
    """What the directives resolve to on this host; `typed()` is the adapter's report of it."""
    wsl: bool
    browser_command: Any = None            # the directive's value as written in the profile
    suppress: bool = False
    candidates: list[dict] = field(default_factory=list)   # {"name", "path", "found"}
    argv: list[str] | None = None          # what COPILOT_DEBUG_BROWSER will hold, or None
    source: str = "none"                   # "browserCommand" | "suppressBrowserLaunch" | "none"
    sink_file: str | None = None
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def env_value(self) -> str | None:
        """The COPILOT_DEBUG_BROWSER value (a JSON array string), or None: write nothing."""
        if self.argv is None:
            return None
        return json.dumps(self.argv, ensure_ascii=False)

    def typed(self) -> BrowserInfo:
        """The adapter's report of it (TargetOutput.browser)."""
        env = self.env_value
        return BrowserInfo(
            wsl=self.wsl, browser_command=self.browser_command, suppress_launch=self.suppress,
            candidates=tuple(BrowserCandidate(str(c["name"]), str(c["path"]), bool(c["found"]))
                             for c in self.candidates),
            argv=tuple(self.argv) if self.argv is not None else None,
            env=MappingProxyType({"COPILOT_DEBUG_BROWSER": env} if env is not None else {}),
            source=self.source, suppress_sink=self.sink_file,
            warnings=tuple(self.warnings), notes=tuple(self.notes))


def _is_explorer(prog: str) -> bool:
    return PurePosixPath(prog.replace("\\", "/")).name.lower() in ("explorer.exe", "explorer")


def _resolves(host: Host, prog: str) -> str | None:
    """argv[0] as it will be spawned: an existing path, or found on the host's PATH."""
    if "/" in prog:
        return prog if host.exists(Path(prog)) else None
    return host.which(prog)


def resolve(host: Host, browser_command: Any, suppress: bool, home: Path) -> BrowserResolution:
    wsl = host.is_wsl
    r = BrowserResolution(wsl=wsl, browser_command=browser_command, suppress=bool(suppress))
    argv = _from_browser_command(host, browser_command, r)
    if argv is not None:
        r.argv, r.source = argv, "browserCommand"
        if suppress:
            r.notes.append("suppressBrowserLaunch is also set; browserCommand wins")
        return r
    if suppress:
        sink = str(home / PENDING_URLS)
        r.argv, r.source, r.sink_file = ["sh", "-c", SINK_SCRIPT, sink], "suppressBrowserLaunch", sink
        r.notes.append(f"no browser opens for MCP OAuth (nor for `copilot login`); the URLs are "
                       f"appended to {host.display(sink)}")
    return r


def _from_browser_command(host: Host, value: Any, r: BrowserResolution) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str) and value.strip().lower() == "auto":
        if not r.wsl:
            r.notes.append("browserCommand auto: not WSL, nothing written; Copilot opens your "
                           "default browser itself")
            return None
        for name, how, what in AUTO_CANDIDATES:
            found = host.which(what) if how == "which" else (what if host.exists(Path(what)) else None)
            r.candidates.append({"name": name, "path": found or what, "found": bool(found)})
            if found:
                r.notes.append(f"browserCommand auto: using {name} ({found})")
                return [found]
        r.warnings.append("browserCommand auto: none of wslview, Windows Chrome or Edge was found, "
                          "so nothing is written and MCP OAuth opens a browser inside WSL, which has "
                          "no Windows session; install wslu (it provides wslview) and plan again")
        return None
    if isinstance(value, str):
        try:
            argv = shlex.split(value)
        except ValueError as e:
            r.warnings.append(f"browserCommand {value!r} cannot be split like a shell command "
                              f"({e}); dropped")
            return None
        if not argv:
            r.warnings.append("browserCommand is an empty string; dropped")
            return None
        if _is_explorer(argv[0]):
            r.warnings.append(_EXPLORER)
            return None
        found = _resolves(host, argv[0])
        r.candidates.append({"name": "browserCommand", "path": found or argv[0], "found": bool(found)})
        if not found:
            r.warnings.append(f"browserCommand {argv[0]!r} is not found on this machine; dropped "
                              "(an unresolvable launcher would silently open nothing)")
            return None
        return argv
    if isinstance(value, list) and value and all(isinstance(x, str) and x for x in value):
        if _is_explorer(value[0]):
            r.warnings.append(_EXPLORER)
            return None
        return list(value)
    r.warnings.append(f"browserCommand must be \"auto\", a command string or a list of strings, "
                      f"not {json.dumps(value)}; dropped, Copilot keeps its own browser")
    return None


_EXPLORER = ("browserCommand explorer.exe is dropped: under WSL it ignores the URL and opens File "
             "Explorer on Documents; use \"auto\" (wslview, Chrome or Edge)")
