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
    TOOLS      {folded tool name: (class, kind)}: the tools the CLI's pre-tool payloads name,
               beyond the ones every dialect shares (core/policy/vocabulary.py SHARED: bash,
               shell, read, write, edit, glob, grep, apply_patch, web_fetch, ...). Folded: lower
               case with everything but [a-z0-9] dropped (`run_shell_command` ->
               "runshellcommand", vocabulary.fold). class: shell | read | write | web; kind
               refines a read: "search" (a recursive content search), "glob" (names matching a
               pattern), "list" (a directory's names), "" (one file); "editor" (any class) says
               the call's nested `command` argument decides (str_replace_editor: view reads, the
               rest write). A name nobody declares is class "other" (only `tool = "any"` rules
               see it). E.g. {"runshellcommand": ("shell", ""), "listdirectory": ("read", "list")}
    MCP_NAMES  how the CLI's pre-tool hook names an MCP tool (`McpNaming`: prefix, separator, the
               characters it keeps, how sure the name alone is), or None. Observed in real
               offline turns (tests/clients/test_mcp_names_real.py; payloads in
               tests/fixtures/payloads/<cli>/mcp-*.json): each CLI replaces, in the server's
               name and the tool's alike, every character outside a set with one character, so
               the hook sees a spelling; the vocabulary maps a known server's spelling back
               (the compiled policy's mcp_servers), the tool part stays spelled

The hook handler classifies a pre-tool call with the calling target's TOOLS and MCP_NAMES plus
those of its DIALECTS' own (`Dialect.tools`, `Dialect.mcp_names`: a second dialect of the CLI,
such as Copilot's PascalCase payloads, or a reader shared by several targets, VSCODE), when the
payload is one of its dialects; with every registered dialect module's when the caller is
unknown or the payload another CLI's (core/targets/dialects.py readers, core/policy/
vocabulary.py vocabulary).

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
        @property
        def DIALECTS(self) -> tuple[Dialect, ...]: ...
        @property
        def SPEAKERS(self) -> dict[str, Speaker]: ...
        @property
        def MCP_NAMES(self) -> McpNaming | None: ...
        @property
        def TOOLS(self) -> dict[str, tuple[str, str]]: ...

        def recognise(self, payload: dict[str, Any]) -> tuple[int, Dialect] | None: ...


