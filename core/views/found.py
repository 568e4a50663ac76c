"""Another tool's install found for a target (core/targets/takeover.py) and what the plan does
with each of its parts: the plan tree's take-over node, onboarding's detect step."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .info import rows, target_info


@dataclass(frozen=True)
class FoundPart:
    what: str                       # "hooks file", "MCP server", "persona", ...
    name: str
    path: str
    fate: str                       # "kept", "set aside", "replaced", ...
    item: str = ""                  # the id of the plan item that carries it out ("" if none)

    @property
    def title(self) -> str:
        return f"{self.what} {self.name}" if self.name else self.what


@dataclass(frozen=True)
class FoundInstall:
    tool: str
    title: str
    parts: tuple[FoundPart, ...] = ()


def of(plan: Any, target: str) -> tuple[FoundInstall, ...]:
    return tuple(
        FoundInstall(tool=str(f.get("tool", "")), title=str(f.get("title", "")),
                     parts=tuple(FoundPart(what=str(p.get("what", "")),
                                           name=str(p.get("name") or ""),
                                           path=str(p.get("path", "")),
                                           fate=str(p.get("fate", "")),
                                           item=str(p.get("item") or ""))
                                 for p in rows(f.get("parts"))))
        for f in rows(target_info(plan, target).get("found")))
