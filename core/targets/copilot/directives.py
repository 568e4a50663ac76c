"""The `_agentdeck` directives (alias `_agentihooks`) that become environment variables.

Copilot has no settings key for these, so they are rendered into a managed env file in agentdeck's
state dir (`<state dir>/copilot.env`, 0600: it may carry a launcher path or channel names, and
it sits beside the audit log) and one managed block at the bottom of ~/.bashrc sources it with
`set -a`. Directives are never written into settings.json (Copilot warns about unknown keys).

  allowAll: true                COPILOT_ALLOW_ALL=true (the literal; Copilot compares === "true"
                                for folder trust, repo hooks in prompt mode and plugins).
                                1 / "1" is NOT written (it would grant only the tools axis while
                                looking set) and is reported; false / absent writes nothing.
  channels: [..] or "a,b"       AGENTDECK_CHANNELS=a,b (a list or a comma string)
  browserCommand /
  suppressBrowserLaunch         COPILOT_DEBUG_BROWSER='["argv", ...]' (see browser.py)

The block reaches interactive shells only: bash reads ~/.bashrc for interactive shells, so a
Copilot started by an IDE, a service or `bash -c` does not see these variables. The plan says so.
"""
from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .browser import BrowserResolution

ENV_FILE_NAME = "copilot.env"
BASHRC_MARKERS = ("# >>> agentdeck copilot environment (managed by agentdeck) >>>",
                  "# <<< agentdeck copilot environment <<<")
NON_INTERACTIVE_CAVEAT = (
    "these variables reach only shells that read ~/.bashrc (interactive bash); a Copilot started "
    "by an IDE, a service, cron or `bash -c` does not see them")
_CHANNEL_RE = re.compile(r"^[A-Za-z0-9_.@:/-]+$")


@dataclass
class EnvPlan:
    """The variables the profile's directives set, in order, and their sources."""
    variables: list[tuple[str, str]] = field(default_factory=list)   # (name, value) in order
    sources: dict[str, str] = field(default_factory=dict)            # name -> directive
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, name: str, value: str, source: str) -> None:
        self.variables.append((name, value))
        self.sources[name] = source


def allow_all(value: Any, env: EnvPlan) -> None:
    if value is None or value is False:
        return
    if value is True or (isinstance(value, str) and value.strip().lower() == "true"):
        env.add("COPILOT_ALLOW_ALL", "true", "allowAll")
        return
    if value in (1, "1") and not isinstance(value, bool):
        env.warnings.append(
            "allowAll: 1 is not written: Copilot reads COPILOT_ALLOW_ALL=1 as allow-all-tools only, "
            "while folder trust, repo hooks and plugins need the literal true; set allowAll: true "
            "if that is what you mean")
        return
    env.warnings.append(f"allowAll must be true or false, not {json.dumps(value)}; ignored")


def channels(value: Any, env: EnvPlan) -> None:
    if value is None:
        return
    if isinstance(value, str):
        names = [x.strip() for x in value.split(",")]
    elif isinstance(value, list) and all(isinstance(x, str) for x in value):
        names = [x.strip() for x in value]
    else:
        env.warnings.append(f"channels must be a list of names or a comma string, not "
                            f"{json.dumps(value)}; ignored")
        return
    names = [n for n in names if n]
    bad = [n for n in names if not _CHANNEL_RE.match(n)]
    if bad:
        env.warnings.append(f"channels: {', '.join(repr(b) for b in bad)} dropped (letters, digits "
                            "and _ . @ : / - only)")
    names = [n for n in names if _CHANNEL_RE.match(n)]
    seen: list[str] = []
    for n in names:
        if n not in seen:
            seen.append(n)
    if seen:
        env.add("AGENTDECK_CHANNELS", ",".join(seen), "channels")


def browser(res: BrowserResolution, env: EnvPlan) -> None:
    if res.env_value is not None:
        env.add("COPILOT_DEBUG_BROWSER", res.env_value, res.source)


def render_env_file(profile_name: str, variables: list[tuple[str, str]]) -> str:
    """The env file: a header, then each variable as a default that a value the operator
    already set wins over (agentihooks' env file overrode the operator's own exports)."""
    from ...formats.envfile import render_env   # local: only a profile with variables writes one

    header = (f"Written by agentdeck from profile {profile_name}'s _agentdeck directives; "
              "sourced from ~/.bashrc.\nEdit the profile, not this file. A variable you already "
              "set yourself keeps your value.")
    return render_env(dict(variables), header, keep_existing=True)


def bashrc_block(env_file: Path) -> str:
    q = shlex.quote(str(env_file))
    return (f"# Copilot environment from agentdeck's profile directives (COPILOT_ALLOW_ALL,\n"
            f"# COPILOT_DEBUG_BROWSER, ...). Interactive shells only.\n"
            f"if [ -f {q} ]; then set -a; . {q}; set +a; fi\n")
