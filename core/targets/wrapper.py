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

Which handler the wrapper names is decided by `resolve_handler` (agentdeck's own handler: the
one beside the running agentdeck; others: PATH; an installed working wrapper is kept stable).
When the handler's program cannot be found at run time the wrapper says so on stderr and exits 0:
a missing handler must not turn into "every tool call denied" (Copilot's preToolUse treats any
non-zero exit but a timeout as a deny). A handler that is found keeps its own exit code, so a
handler that blocks with exit 2 still blocks.
"""
from __future__ import annotations

import os
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Iterator

from ..errors import UserError
from ..host import Host, HostError

WRAPPER_MODE = 0o755


#: agentdeck's own handler: the console script installed with agentdeck
OWN_HANDLER = "agentdeck-hook"


@dataclass
class Handler:
    """The profile's handler command as the wrapper will exec it."""
    command: str                  # the profile's [hooks] command, verbatim
    argv: list[str]               # shell-split, argv[0] replaced by its absolute path when found
    resolved: str | None          # absolute path of argv[0], or None when it cannot be found
    warnings: list[str] = field(default_factory=list)
    #: how argv[0] was found: "own" (beside the running agentdeck), "kept" (the path the
    #: installed wrapper already names, still executable), "path" (this host's PATH), "given"
    #: (an absolute path in the profile), "" (not found)
    how: str = ""
    #: the handler the wrapper on disk names now (None: no wrapper yet, or unreadable)
    previous: str | None = None

    @property
    def exec_line(self) -> str:
        return " ".join(shlex.quote(a) for a in self.argv)

    @property
    def changed(self) -> bool:
        """True when an installed wrapper names another handler than this one (a new install
        location): the plan says "handler: old -> new"."""
        return bool(self.previous and self.resolved and self.previous != self.resolved)


#: names the folder that holds "the running agentdeck's" agentdeck-hook instead of the
#: detected scripts dir (empty: none). For relocated installs and tests; unset normally.
SCRIPTS_DIR_VAR = "AGENTDECK_SCRIPTS_DIR"


def own_scripts_dirs(host: Host | None = None) -> list[str]:
    """Where the running agentdeck's console scripts are: the scripts dir of its interpreter
    (a venv's bin, pipx's venv, the system's), the interpreter's own dir, and the user scheme's
    (pip install --user). Its `agentdeck-hook` is the one installed beside it.
    $AGENTDECK_SCRIPTS_DIR (in the host's environment) replaces the detection."""
    out: list[str] = []
    for found in _scripts_dirs(host):
        if found not in out:
            out.append(found)
    return out


def _scripts_dirs(host: Host | None) -> Iterator[str]:
    """own_scripts_dirs' candidates, in order, each computed only when asked for (the user
    scheme's loads the interpreter's build configuration, ~5 M instructions)."""
    if host is not None and SCRIPTS_DIR_VAR in host.env:
        d = host.env[SCRIPTS_DIR_VAR]
        if d:
            yield d
        return
    import sysconfig   # local: only when the handler is looked for beside the interpreter

    for get in (lambda: scripts_dir(sysconfig),
                lambda: os.path.dirname(sys.executable) if sys.executable else None,
                lambda: sysconfig.get_path("scripts", f"{os.name}_user")):
        found: str | None
        try:
            found = get()
        except (KeyError, ValueError, OSError, AttributeError):
            # AttributeError: a venv whose interpreter has no user base ('userbase') for the
            # user scheme (seen in `agentdeck drill`, installed the README's way)
            found = None
        if found:
            yield found


def scripts_dir(sysconfig: ModuleType) -> str:
    """sysconfig.get_path("scripts"). Its scheme for a venv and for a POSIX prefix install is
    "{base}/bin", whose "base" is the normalized sys.prefix: that is expanded here without
    sysconfig's build configuration (_sysconfigdata, which get_path loads to expand any
    variable); any other scheme is left to sysconfig."""
    template = sysconfig.get_path("scripts", expand=False)
    if os.name == "posix" and template == "{base}/bin":
        return os.path.normpath(os.path.normpath(sys.prefix) + "/bin")
    return str(sysconfig.get_path("scripts"))


def own_handler(host: Host) -> str | None:
    """The absolute path of the `agentdeck-hook` installed beside the running agentdeck."""
    for d in _scripts_dirs(host):
        p = Path(d) / OWN_HANDLER
        if host.is_executable(p):
            return os.path.abspath(p)
    return None


def installed_handler(host: Host, wrapper_path: Path | None, read=None) -> str | None:
    """The handler program the wrapper on disk execs (its `exec` line), or None. `read`: the
    plan's reader (core.disk's view.text), so a plan opens the wrapper once."""
    if wrapper_path is None:
        return None
    try:
        text = (read or host.read_text)(wrapper_path)
    except (HostError, OSError, UserError):   # unreadable: no previous handler
        return None
    return handler_of_wrapper(text or "")


def handler_of_wrapper(text: str) -> str | None:
    """argv[0] of a wrapper's `exec` line (a wrapper render_wrapper wrote, or any sh script that
    ends in `exec PROGRAM ...`)."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("exec "):
            try:
                argv = shlex.split(line[5:])
            except ValueError:
                return None
            return argv[0] if argv else None
    return None


def not_found_message(host: Host, prog: str, own: bool) -> str:
    dirs = ", ".join(own_scripts_dirs(host)) or "none"
    where = f"not beside this agentdeck ({dirs}) and " if own else ""
    return (f"the hook handler {prog!r} cannot be found ({where}not on PATH now): every hook "
            "will do nothing (the wrapper exits 0) until it is installed; install agentdeck "
            f"with its {OWN_HANDLER} script, or set [hooks] command to the handler's absolute path")


def resolve_handler(host: Host, command: str, wrapper_path: Path | None = None,
                    read=None) -> Handler:
    """Split the handler command and find its program. An absolute path is written into the
    wrapper, so a CLI started without the operator's PATH (an IDE, a service) still finds it.

    - agentdeck's own `agentdeck-hook` is the one installed beside the running agentdeck (the
      scripts dir of its interpreter), whether or not that dir is on PATH;
    - any other bare name is found on the host's PATH, except that a wrapper already installed
      (`wrapper_path`) keeps the handler it names while that is still executable and is the
      same program: an apply from a shell with another PATH does not change a working wrapper;
    - when nothing is found the command is written as given and the plan reports it (an
      error-level notice: core/hooks_health.py)."""
    try:
        argv = shlex.split(command)
    except ValueError as e:
        return Handler(command, [], None, [f"the hook handler command {command!r} cannot be "
                                           f"parsed ({e}); no hooks are registered"])
    if not argv:
        return Handler(command, [], None, ["the hook handler command is empty; no hooks are registered"])
    prog = os.path.expanduser(argv[0]) if argv[0].startswith("~") else argv[0]
    previous = installed_handler(host, wrapper_path, read)
    found, how = None, ""
    if os.sep in prog:
        found = host.which(prog)
        how = "given" if found else ""
    else:
        if prog == OWN_HANDLER:
            found = own_handler(host)
            how = "own" if found else ""
        if not found and previous and os.path.basename(previous) == prog \
                and os.path.isabs(previous) and host.is_executable(Path(previous)):
            found, how = previous, "kept"
        if not found:
            found = host.which(prog)
            how = "path" if found else ""
    warnings: list[str] = []
    if found:
        found = os.path.abspath(found)
        argv = [found] + argv[1:]
    else:
        warnings.append(not_found_message(host, argv[0], prog == OWN_HANDLER))
    return Handler(command, argv, found, warnings, how=how, previous=previous)


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
