"""Hooks in Claude Code's nested schema, as a doctor reads them (Claude Code, Qwen Code):
`{"hooks": {"<Event>": [{"matcher": ..., "hooks": [{"type": "command", "command": ...}]}]}}`."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...disk import Loaded
from ..parts.doctor import Problem
from .values import find_line, suggest


@dataclass
class Handler:
    path: Path
    event: str
    group: int
    index: int
    handler: dict
    line: int | None



def read(problems: list[Problem], handlers: list[Handler], ld: Loaded, hooks: Any, facts,
         title: str) -> None:
    """Every problem of the `hooks` object `hooks` (read from `ld`) into `problems`, every usable
    handler into `handlers`. `facts`: the CLI's facts (hook_events, timeout_key, wrong_timeout_keys,
    default_timeout, handler_types); `title`: its name in the messages."""
    if not isinstance(hooks, dict):
        problems.append(Problem("hooks.schema", "error", "`hooks` must be an object of events; "
                                f"{title} loads none of them", "", ld.path, ld.line_of("hooks")))
        return
    for event, groups in hooks.items():
        line = ld.line_of("hooks", event)
        if event not in facts.hook_events:
            hint = suggest(event, facts.hook_events)
            problems.append(Problem("hooks.events", "error",
                                      f"event {event!r} is not one {title} knows: its hooks are "
                                      "ignored" + (f" (did you mean {hint!r}?)" if hint else ""),
                                      f"rename it to {hint!r}" if hint else "use a PascalCase event "
                                      "name such as PreToolUse", ld.path, line))
            continue
        if not isinstance(groups, list):
            problems.append(Problem("hooks.schema", "error", f"{event} must be an array of matcher "
                                      "groups; its hooks are ignored", "", ld.path, line))
            continue
        for gi, g in enumerate(groups):
            if not isinstance(g, dict) or not isinstance(g.get("hooks"), list):
                flat = isinstance(g, dict) and ("command" in g or "type" in g)
                problems.append(Problem(
                    "hooks.schema", "error",
                    f"{event}[{gi}] " + ("is a flat action (Copilot's shape): " if flat else
                                        "has no \"hooks\" array: ") + f"{title} ignores it",
                    'nest it: {"matcher": "", "hooks": [{"type": "command", "command": "..."}]}',
                    ld.path, line))
                continue
            for hi, h in enumerate(g["hooks"]):
                where = f"{event}[{gi}].hooks[{hi}]"
                if not isinstance(h, dict):
                    problems.append(Problem("hooks.schema", "error", f"{where} is not an object; "
                                              "ignored", "", ld.path, line))
                    continue
                for k in h:
                    if k in facts.wrong_timeout_keys or (re.match(r"(?i)^time_?out", k)
                                                         and k != facts.timeout_key):
                        problems.append(Problem(
                            "hooks.timeout-spelling", "warning",
                            f"{where} sets {k!r}, which {title} ignores: the default of "
                            f"{facts.default_timeout(event):g}s applies"
                            + (f" (its {facts.timeout_key!r} applies)" if facts.timeout_key in h else ""),
                            f"rename it to {facts.timeout_key!r} (seconds)", ld.path,
                            find_line(ld.text, f'"{k}"', line)))
                kind = h.get("type")
                if kind not in facts.handler_types:
                    problems.append(Problem("hooks.schema", "error",
                                              f"{where} has type {json.dumps(kind)}; {title} "
                                              "ignores it", f"use one of {', '.join(facts.handler_types)}",
                                              ld.path, line))
                    continue
                if kind == "command" and (not isinstance(h.get("command"), str) or not h["command"].strip()):
                    problems.append(Problem("hooks.schema", "error", f"{where} has no command; "
                                              "ignored", "", ld.path, line))
                    continue
                to = h.get(facts.timeout_key)
                if to is not None and (isinstance(to, bool) or not isinstance(to, (int, float))):
                    problems.append(Problem("hooks.schema", "error",
                                              f"{where}.{facts.timeout_key} is {json.dumps(to)}, not a "
                                              f"number; {title} ignores the hook", "",
                                              ld.path, find_line(ld.text, f'"{facts.timeout_key}"', line)))
                    continue
                handlers.append(Handler(ld.path, event, gi, hi, h, line))
