"""The `dialect` part: how a CLI's hooks talk to agentdeck's hook handler.

Standard library only, no dataclasses, no typing at run time: the handler imports the calling
target's dialect module on every hook call.

A dialect is one payload shape a hook receives and the channel its answer goes back through
(`Dialect`: the label the audit record carries, the CLI that sends it and the version verified,
how a pre-tool call is denied or asked, how a prompt is blocked, which tools the path rules are
checked on). A `Speaker` is one hook registration's view: the dialects the hooks registered for a
caller (AGENTDECK_TARGET, exported by the wrapper) receive, and how to tell them apart.

core/targets/<name>/dialect.py provides (module attributes; see `DialectModule`):

    DIALECTS   every Dialect the module defines or relies on, by which its labels are looked up
    SPEAKERS   {caller: Speaker}: the target itself, and any scope whose hooks its CLI's readers
               run (core/targets/copilot/dialect.py speaks for the repository scope)
    recognise(payload) -> (score, Dialect) | None
               what the payload alone says: the handler asks every registered target when the
               caller is unknown or its speaker leaves the payload to the others. The score is how
               specific the evidence is: 100 a field only that CLI sends (Copilot's toolName),
               90-80 a field of one dialect (VS Code's hookEventName, Codex's turn_id), 50 a
               combination (an ISO timestamp with snake_case fields), 30 a field several send
               (snake_case session_id), 10 a weak hint; the highest wins, ties go to the registry's
               order.
    MCP_NAMES  how the CLI's pre-tool hook names an MCP tool (`McpNaming`), or None

The plain classes (Dialect, Speaker, McpNaming, UNKNOWN) and the lookup a feature asks through
(speaker, detect, by_label, every) are core/targets/dialects.py: defined there so the handler
imports one module for both; they are re-exported here.

Shared readers that are not targets of their own (VS Code agent mode reads Claude Code's settings
and a repository's hook files) are defined in the shared module: core/targets/dialects.py VSCODE.
"""
from __future__ import annotations

from ..dialects import (  # noqa: F401  (the part's plain classes, defined beside the lookup)
    SHAPES, SPECIFIC_EVENT, UNKNOWN, Dialect, McpNaming, Speaker, best, camel, iso_time, snake)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Protocol

    class DialectModule(Protocol):
        """What core/targets/<name>/dialect.py provides."""
        DIALECTS: tuple[Dialect, ...]
        SPEAKERS: dict[str, Speaker]
        MCP_NAMES: McpNaming | None

        def recognise(self, payload: dict[str, Any]) -> tuple[int, Dialect] | None: ...


