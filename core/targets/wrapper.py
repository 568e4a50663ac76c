"""The hook wrapper script every target registers instead of the handler itself.

A CLI's hook registration names `<wrapper> <event>`; the wrapper exports who is calling and execs
the profile's handler with the event. The registered action therefore stays byte-stable when the
handler changes (another command, another install location): Copilot's content-hash disable keys
and Codex's trust hashes are computed from the registered action, not from the wrapper's bytes,
so a handler upgrade neither re-enables a hook the operator disabled nor asks for re-approval.

Target-neutral: Copilot, Codex and Claude call `render_wrapper` with their own target name and
wrapper path. The script is POSIX sh (hooks run through /bin/sh):

    AGENTDECK_EVENT        the event name as the CLI registered it (argv[1])
    AGENTDECK_TARGET       copilot | codex | claude
    AGENTDECK_STATE_DIR    agentdeck's state dir for this home (the audit log lives there)

When the handler's program cannot be found at run time the wrapper says so on stderr and exits 0:
a missing handler must not turn into "every tool call denied" (Copilot's preToolUse treats any
non-zero exit but a timeout as a deny). A handler that is found keeps its own exit code, so a
handler that blocks with exit 2 still blocks.
"""
from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from ..host import Host

WRAPPER_MODE = 0o755


@dataclass
class Handler:
    """The profile's handler command as the wrapper will exec it."""
    command: str                  # the profile's [hooks] command, verbatim
    argv: list[str]               # shell-split, argv[0] replaced by its absolute path when found
    resolved: str | None          # absolute path of argv[0], or None when not found on PATH
    warnings: list[str] = field(default_factory=list)

    @property
    def exec_line(self) -> str:
        return " ".join(shlex.quote(a) for a in self.argv)


def resolve_handler(host: Host, command: str) -> Handler:
    """Split the handler command and find its program on the host's PATH. An absolute path is
    written into the wrapper, so a CLI started without the operator's PATH (an IDE, a service)
    still finds the handler; when it is not found the command is written as given and the plan
    warns."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        return Handler(command, [], None, [f"the hook handler command {command!r} cannot be "
                                           f"parsed ({e}); no hooks are registered"])
    if not argv:
        return Handler(command, [], None, ["the hook handler command is empty; no hooks are registered"])
    prog = argv[0]
    found = host.which(os.path.expanduser(prog)) if prog.startswith("~") else host.which(prog)
    warnings: list[str] = []
    if found:
        argv = [os.path.abspath(found)] + argv[1:]
    else:
        warnings.append(f"the hook handler {prog!r} is not on PATH now; the hooks will do nothing "
                        "(the wrapper exits 0) until it is installed")
    return Handler(command, argv, os.path.abspath(found) if found else None, warnings)


def render_wrapper(target: str, handler: Handler, state_dir: Path) -> str:
    """The wrapper script's text (identical for identical inputs: re-runs are byte-stable)."""
    prog = shlex.quote(handler.argv[0]) if handler.argv else "''"
    return (
        "#!/bin/sh\n"
        f"# Written by agentdeck for {target}: runs the profile's hook handler for one event.\n"
        f"# Registered as \"<this file> <event>\", so changing the handler below does not change\n"
        "# the registered hook (or its disable / trust key). Edit the profile, not this file.\n"
        "AGENTDECK_EVENT=\"${1:-}\"\n"
        f"AGENTDECK_TARGET={shlex.quote(target)}\n"
        f"AGENTDECK_STATE_DIR={shlex.quote(str(state_dir))}\n"
        "export AGENTDECK_EVENT AGENTDECK_TARGET AGENTDECK_STATE_DIR\n"
        f"if ! command -v {prog} >/dev/null 2>&1; then\n"
        f"  echo \"agentdeck: hook handler {_sh_dq(handler.argv[0] if handler.argv else '')} "
        "not found; event $AGENTDECK_EVENT not handled\" >&2\n"
        "  exit 0\n"
        "fi\n"
        f"exec {handler.exec_line} \"$AGENTDECK_EVENT\"\n"
    )


def _sh_dq(s: str) -> str:
    """s made safe inside a double-quoted sh string."""
    out = []
    for ch in s:
        if ch in '\\"$`':
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)
