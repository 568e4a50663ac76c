"""The `drill` part: how one CLI runs a real offline turn against agentdeck's scripted model
server (core/drill runs it; the target says how).

A target that can be drilled has `core/targets/<name>/drill.py` providing (`DrillPart`):

    RUNNER                      a `Runner`: the recipe as data, with the CLI version it was
                                verified for
    prepare(host, real, copy)   what depends on the operator's files: (extra arguments, files
                                to write into the scratch copy of the CLI's home); `real` is the
                                CLI's home, `copy` the scratch copy the turn reads
    why_not_fired(row)          optional: why a registered hook event (a HookEventInfo of the
                                plan's hooks report, core/targets/output.py) did not fire, when the CLI itself says so in its
                                files (disabled by the operator, untrusted); None otherwise

A target without the module is reported by the drill as "not supported by this CLI" (no turn).
Standard library only, and nothing from the features (core/drill imports this, not the other
way round).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover
    from ..output import HookEventInfo
    from ...host import Host


@dataclass(frozen=True)
class Runner:
    target: str
    binary: str
    verified: str                          # the CLI version this recipe was verified for
    wire: str                              # what the CLI sends: chat | responses | messages | genai
    home_var: str                          # the CLI home variable pointed at the scratch copy
    env: dict[str, str]                    # {port} is the scripted server's port
    args: tuple[str, ...]                  # after the binary; {prompt} is the drill's prompt
    copy: tuple[str, ...]                  # files/dirs of the CLI home the scratch copy holds
    #: canonical events (core.hookhandler) a turn with two shell calls fires, and the ones it
    #: cannot (why, for the report); an event of the facts' also_events is named in
    #: `unreachable` by its own spelling (it is counted by it)
    fires: tuple[str, ...]
    unreachable: dict[str, str] = field(default_factory=dict)
    #: canonical events that fire once per model request, not once per occurrence
    per_request: tuple[str, ...] = ()
    timeout: float = 60.0
    #: arguments after the ones prepare() adds (a CLI that takes the prompt last: "{prompt}")
    tail: tuple[str, ...] = ()
    #: folders under $XDG_CACHE_HOME the scratch cache links to the operator's own (a bundle
    #: the CLI would otherwise unpack again on every turn; read only)
    cache_links: tuple[str, ...] = ()
    #: this CLI's credential variables: never passed to any drilled CLI
    credential_vars: tuple[str, ...] = ()
    #: the CLI's shell tool, (name, argument), when the scripted server's common names
    #: (core/drill/server.py SHELL_TOOLS) do not include it
    shell_tools: tuple[tuple[str, str], ...] = ()
    #: the CLI's own whole-file-writing tool as a turn against the scripted server offers it,
    #: (name, path argument, content argument), where it writes the path it is given: () when
    #: the turn offers none or one that takes a patch (what a test's model calls to write a file
    #: without the shell)
    file_tool: tuple[str, str, str] | tuple[()] = ()


Prepared = tuple[list[str], dict[str, bytes]]


@runtime_checkable
class DrillPart(Protocol):
    @property
    def RUNNER(self) -> Runner: ...

    def prepare(self, host: "Host", real: Path, copy: Path) -> Prepared: ...


def why_not_fired(part: object, row: HookEventInfo) -> str | None:
    """The part's reason a registered event did not fire, or None (it has none to give)."""
    fn = getattr(part, "why_not_fired", None)
    return fn(row) if fn is not None else None
