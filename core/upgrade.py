"""Has a CLI moved since agentdeck knew it? The installed version against the version the
target's facts were verified on (core/facts/versions.py) and against the last drill that held
on this machine (core/drill/record.py).

    notice(host, "copilot") -> "copilot 1.0.105 installed; facts verified on 1.0.102; last
                                drilled on 1.0.102, not since: run `agentdeck drill`"

`status`, the doctor's verdicts and the app's header say the same words. Nothing here runs a
process: the version is the one read from the CLI's npm package (core/installed.py, not live).
None when the CLI is not installed, its version cannot be read without running it, or nothing
differs.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from .drill import record
from .facts.versions import in_verified_range, verified_label
from .host import Host
from .installed import CliInfo, cli_info


@dataclass
class Upgrade:
    target: str
    installed: str
    facts: str                  # the verified label ("1.0.102" or "1.0.100–1.0.102")
    facts_match: bool
    drilled: str | None         # the version of the last drill that held here, if any
    drilled_ago: float | None   # seconds since that drill

    @property
    def differs(self) -> bool:
        return not self.facts_match or (self.drilled is not None
                                        and self.drilled != self.installed)

    def text(self, binary: str) -> str:
        parts = [f"{binary} {self.installed} installed"]
        if not self.facts_match:
            parts.append(f"facts verified on {self.facts}")
        if self.drilled is None:
            parts.append("not drilled on this machine: run `agentdeck drill`")
        elif self.drilled != self.installed:
            parts.append(f"last drilled on {self.drilled}, not since: run `agentdeck drill`")
        return "; ".join(parts)


def check(host: Host, target: str, info: CliInfo | None = None,
          records: dict | None = None) -> Upgrade | None:
    """The installed version of `target` against its facts and its last good drill (None when
    the version is not known without running the CLI)."""
    info = info if info is not None else cli_info(host, target, live=False)
    if not info.version:
        return None
    last = record.latest(host, target, ok_only=True, records=records)
    return Upgrade(target, info.version, verified_label(target),
                   in_verified_range(target, info.version),
                   last.version if last else None,
                   (time.time() - last.when) if last else None)


def notice(host: Host, target: str, info: CliInfo | None = None,
           records: dict | None = None) -> str | None:
    """The one line to show when the installed CLI differs from what agentdeck verified (its
    facts) or from what was drilled here; None when nothing differs."""
    from .targets import registry   # local: the binary's name, asked only when there is a notice

    up = check(host, target, info, records)
    if up is None or not up.differs:
        return None
    return up.text(registry.spec(target).binary)
