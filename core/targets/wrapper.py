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
The wrapper fails closed (render_wrapper): when the handler cannot run or crashes, a decision
event gets the fail mode core/seal.py recorded in the wrapper from the compiled policy (deny:
exit 2, which every CLI honours); other events exit 0. A handler that runs keeps its own exit
code (0 allow, 2 deny).
"""
from __future__ import annotations

import os
import re
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
    #: the absolute Python interpreter the handler script names in its `#!` line (a console
    #: script pip wrote): the wrapper runs `<interpreter> -I <handler>`, isolated from every
    #: PYTHON* variable, the user's site-packages and the working folder (None: run as it is)
    interpreter: str | None = None

    @property
    def exec_line(self) -> str:
        argv = [self.interpreter, ISOLATED, *self.argv] if self.interpreter else self.argv
        return " ".join(shlex.quote(a) for a in argv)

    @property
    def changed(self) -> bool:
        """True when an installed wrapper names another handler than this one (a new install
        location): the plan says "handler: old -> new"."""
        return bool(self.previous and self.resolved and self.previous != self.resolved)


#: the interpreter option the wrapper runs a Python handler with: isolated mode (no PYTHON*
#: variable, no user site-packages, neither the script's folder nor the working folder on sys.path)
ISOLATED = "-I"

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
    """argv[0] of the handler a wrapper runs: the line before its `rc=$?` (a wrapper
    render_wrapper writes; the handler after `<interpreter> -I`), or an `exec PROGRAM ...` line (an earlier agentdeck's wrapper, or
    any sh script that ends so)."""
    lines = [ln.strip() for ln in text.splitlines()]
    for i, line in enumerate(lines):
        if line == _RC_LINE and i > 0:
            return _argv0(lines[i - 1])
    for line in reversed(lines):
        if line.startswith("exec "):
            return _argv0(line[5:])
    return None


def _argv0(line: str) -> str | None:
    try:
        argv = shlex.split(line)
    except ValueError:
        return None
    if len(argv) > 2 and argv[1] == ISOLATED:      # <interpreter> -I <handler> <event>
        return argv[2]
    return argv[0] if argv else None


#: a pip console script's first line: `#!/abs/python`, or (a long or spaced path) `#!/bin/sh`
#: followed by distlib's launcher line: 3 quotes, `exec' "/abs/python" "$0" "$@"`
_SHEBANG = re.compile(r"#!(/\S*/python[0-9.]*)[ \t]*\n")
_SH_LAUNCHER = re.compile(r"#!/bin/sh\n'''exec' (?:\"([^\"]+)\"|'([^']+)') \"\$0\" \"\$@\"\n")


def python_of(host: Host, script: str) -> str | None:
    """The absolute Python interpreter a handler script names in its first lines (a console
    script pip or uv wrote), or None (another program, a `#!/usr/bin/env python` line)."""
    try:
        head = host.read_bytes(Path(script), limit=1024 * 1024)
    except (HostError, OSError, UserError):
        return None
    text = (head or b"")[:1024].decode("utf-8", "replace")
    m = _SHEBANG.match(text)
    found = m.group(1) if m else None
    if found is None:
        m2 = _SH_LAUNCHER.match(text)
        found = (m2.group(1) or m2.group(2)) if m2 else None
    if found and os.path.isabs(found) and os.path.basename(found).startswith("python"):
        return found
    return None


def not_found_message(host: Host, prog: str, own: bool) -> str:
    dirs = ", ".join(own_scripts_dirs(host)) or "none"
    where = f"not beside this agentdeck ({dirs}) and " if own else ""
    return (f"the hook handler {prog!r} cannot be found ({where}not on PATH now): until it is "
            "installed the wrapper answers the policy's on_error at every tool call and prompt "
            "(deny: nothing runs; allow: nothing is checked or recorded); install agentdeck "
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
    interpreter = None
    if found:
        found = os.path.abspath(found)
        argv = [found] + argv[1:]
        interpreter = python_of(host, found)
    else:
        warnings.append(not_found_message(host, argv[0], prog == OWN_HANDLER))
    return Handler(command, argv, found, warnings, how=how, previous=previous,
                   interpreter=interpreter)


#: the spellings of the events at which the handler decides (hookhandler.DECISION_EVENTS:
#: pre_tool_use, user_prompt_submit) in every CLI; the wrapper fails closed at these only
#: (tests/unit/test_wrapper_seal.py checks them against the handler's EVENTS)
PRE_TOOL_SPELLINGS = ("preToolUse", "PreToolUse", "PreSkillShellCommand", "pre_tool_use")
PROMPT_SPELLINGS = ("userPromptSubmitted", "UserPromptSubmit", "user_prompt_submit")
#: a CLI's own names for them (Gemini CLI's BeforeTool and BeforeAgent, OpenCode's plugin event
#: tool.execute.before): only the wrapper of the
#: target whose dialect registers them (Dialect.events) adds them to its patterns
OWN_SPELLINGS = ("BeforeTool", "BeforeAgent", "tool.execute.before")
DECISION_SPELLINGS = PRE_TOOL_SPELLINGS + PROMPT_SPELLINGS + OWN_SPELLINGS
#: the reason a damaged guard's deny gives (the wrapper adds what is damaged on stderr)
FAIL_REASON = ("the agentdeck guard cannot decide (its handler or compiled policy is missing or "
               "damaged): denied until `agentdeck apply` puts it back")
#: the seal's lines (core/seal.py fills them in from the compiled policy the plan writes)
SEAL_POLICY = "AGENTDECK_POLICY="
SEAL_DIGEST = "AGENTDECK_POLICY_SHA256="
SEAL_FAIL = "AGENTDECK_ON_ERROR="
#: the line after the handler's run (handler_of_wrapper finds the handler before it)
_RC_LINE = "rc=$?"


def render_wrapper(target: str, handler: Handler, state_dir: Path) -> str:
    """The wrapper script's text (identical for identical inputs: re-runs are byte-stable).

    It sets every variable the handler reads about where things are (the environment a CLI
    passes, its .env files included, cannot redirect them), runs the handler, and fails closed:
    when the handler is missing, not executable or ends with any exit but 0 or 2 (a crash, an
    uninstalled package, a lost interpreter), a decision event gets the recorded fail mode
    (AGENTDECK_ON_ERROR: deny is exit 2, which every CLI honours, with a line in the audit
    log); other events exit 0. Unsealed (no compiled policy yet) it names no policy and fails
    open; core/seal.py seals it with the compiled policy's path, digest and on_error."""
    shown = _sh_dq(handler.argv[0] if handler.argv else "")
    audit = shlex.quote(str(Path(state_dir) / "audit.jsonl"))
    pre_code, pre_out, prompt_code, prompt_out, (pre_ev, prompt_ev) = _deny_answers(target)
    pre_names = PRE_TOOL_SPELLINGS + tuple(e for e in (pre_ev,) if e and e not in PRE_TOOL_SPELLINGS)
    prompt_names = PROMPT_SPELLINGS + tuple(e for e in (prompt_ev,) if e and e not in PROMPT_SPELLINGS)
    return (
        "#!/bin/sh\n"
        f"# Written by agentdeck for {target}: runs the profile's hook handler for one event.\n"
        f"# Registered as \"<this file> <event>\", so changing the handler below does not change\n"
        "# the registered hook (or its disable / trust key). Edit the profile, not this file.\n"
        "AGENTDECK_EVENT=\"${1:-}\"\n"
        f"AGENTDECK_TARGET={shlex.quote(target)}\n"
        f"AGENTDECK_STATE_DIR={shlex.quote(str(state_dir))}\n"
        f"{SEAL_POLICY}\n"
        f"{SEAL_DIGEST}\n"
        f"{SEAL_FAIL}allow\n"
        "export AGENTDECK_EVENT AGENTDECK_TARGET AGENTDECK_STATE_DIR AGENTDECK_POLICY "
        "AGENTDECK_POLICY_SHA256 AGENTDECK_ON_ERROR\n"
        "unset AGENTDECK_CONFIG_DIR BASH_ENV ENV\n"
        f"{_CLEAN_ENV}"
        "agentdeck_fail() {\n"
        "  case \"$AGENTDECK_EVENT\" in\n"
        f"    {'|'.join(pre_names)}) code={pre_code} out={shlex.quote(pre_out)} ;;\n"
        f"    {'|'.join(prompt_names)}) code={prompt_code} out={shlex.quote(prompt_out)} ;;\n"
        "    *) exit 0 ;;\n"
        "  esac\n"
        "  [ \"$AGENTDECK_ON_ERROR\" = deny ] || { echo \"agentdeck: $1; event $AGENTDECK_EVENT "
        "allowed (on_error allow)\" >&2; exit 0; }\n"
        "  printf '{\"ts\":\"%s\",\"target\":\"%s\",\"raw_event\":\"%s\",\"decision\":\"deny\",'"
        "'\"rule\":\"on_error\",\"error\":\"%s\"}\\n' \"$(TZ=UTC0 command -p date +%Y-%m-%dT%H:%M:%S.000Z)\" "
        "\"$AGENTDECK_TARGET\" \"$AGENTDECK_EVENT\" \"$1\" "
        f">> {audit} 2>/dev/null\n"
        "  echo \"agentdeck: $1: denied (the guard fails closed; run agentdeck status, then "
        "agentdeck apply)\" >&2\n"
        "  [ -z \"$out\" ] || printf '%s\\n' \"$out\"\n"
        "  exit \"$code\"\n"
        "}\n"
        f"{_found_test(handler)} || agentdeck_fail \"hook handler {shown} not found or "
        "not executable\"\n"
        f"{handler.exec_line} \"$AGENTDECK_EVENT\"\n"
        f"{_RC_LINE}\n"
        "[ \"$rc\" -eq 0 ] || [ \"$rc\" -eq 2 ] || agentdeck_fail \"hook handler "
        f"{shown} failed (exit $rc)\"\n"
        "exit \"$rc\"\n"
    )


def _found_test(handler: Handler) -> str:
    """The sh test that the handler can be run: an absolute path must be an executable file
    (dash's `command -v /path` answers for a file without its exec bit), a bare name must be
    found on PATH; the interpreter of a Python handler must be an executable file too."""
    prog = handler.argv[0] if handler.argv else ""
    q = shlex.quote(prog) if prog else "''"
    test = f"[ -f {q} ] && [ -x {q} ]" if os.path.isabs(prog) else f"command -v {q} >/dev/null 2>&1"
    if handler.interpreter:
        py = shlex.quote(handler.interpreter)
        test = f"[ -f {py} ] && [ -x {py} ] && {test}"
    return test


#: variables a CLI's environment may carry (its .env files, a project's settings `env`) that
#: change which code the handler's process runs: the dynamic loader's (every LD_*), Python's
#: (every PYTHON*; the handler also runs with -I), glibc's module and locale paths, OpenSSL's
#: configuration (it can load an engine or provider), Perl's and Node's in case a handler is one
CODE_VARS = ("GCONV_PATH", "GLIBC_TUNABLES", "LOCPATH", "NLSPATH", "HOSTALIASES", "TZDIR",
             "OPENSSL_CONF", "OPENSSL_MODULES", "OPENSSL_ENGINES",
             "PERL5LIB", "PERLLIB", "PERL5OPT", "NODE_OPTIONS", "NODE_PATH", "RUBYOPT", "RUBYLIB")
CODE_PREFIXES = ("LD_", "PYTHON", "MALLOC_")
#: the sh lines that unset them: every exported name with one of the prefixes (read from
#: `export -p`; a name that is not a plain identifier is skipped, never unset, so a crafted
#: name cannot make the shell's `unset` fail), then the fixed names
_CLEAN_ENV = (
    "while IFS= read -r agentdeck_v; do\n"
    "  agentdeck_v=${agentdeck_v#export }; agentdeck_v=${agentdeck_v#declare -x }; "
    "agentdeck_v=${agentdeck_v%%=*}\n"
    "  case $agentdeck_v in\n"
    "    ''|[0-9]*|*[!A-Za-z0-9_]*) ;;\n"
    f"    {'|'.join(p + '*' for p in CODE_PREFIXES)}) unset \"$agentdeck_v\" ;;\n"
    "  esac\n"
    "done <<AGENTDECK_ENV\n"
    "$(export -p)\n"
    "AGENTDECK_ENV\n"
    f"unset agentdeck_v {' '.join(CODE_VARS)}\n"
)


def _deny_answers(target: str) -> tuple[int, str, int, str, tuple[str, str]]:
    """(pre-tool exit, stdout, prompt exit, stdout, (the pre-tool and prompt events as its
    dialect registers them)) of a deny in the target's own channel
    (its dialect part's facts, core/policy/answer.py), for the wrapper to give when the guard
    cannot run. A deny's exit and JSON are the ones the handler itself would answer."""
    from ..policy import answer   # local: only when a wrapper is rendered (a plan)
    from . import dialects   # local: as answer (the handler imports this module's neighbours)

    speaker = dialects.speaker(target)
    dialect = speaker.default if speaker is not None else dialects.UNKNOWN
    pre_code, pre_out, _ = answer.answer("pre_tool_use", dialect, "deny", FAIL_REASON)
    prompt_code, prompt_out, _ = answer.answer("user_prompt_submit", dialect, "deny", FAIL_REASON)
    return pre_code, pre_out, prompt_code, prompt_out, dialect.events


def sealed(text: str, policy: str, digest: str, on_error: str) -> str:
    """A wrapper render_wrapper wrote, with its seal lines set: the compiled policy's path, its
    sha256 (the handler refuses a policy that does not match) and the fail mode."""
    out = []
    for line in text.split("\n"):
        if line.startswith(SEAL_POLICY):
            line = SEAL_POLICY + shlex.quote(policy) if policy else SEAL_POLICY
        elif line.startswith(SEAL_DIGEST):
            line = SEAL_DIGEST + digest
        elif line.startswith(SEAL_FAIL):
            line = SEAL_FAIL + ("deny" if on_error == "deny" else "allow")
        out.append(line)
    return "\n".join(out)


def is_wrapper(text: str) -> bool:
    """Whether `text` is a wrapper render_wrapper wrote (the seal's lines are there)."""
    lines = text.split("\n")
    return (bool(lines) and lines[0] == "#!/bin/sh" and any(ln.startswith(SEAL_DIGEST) for ln in lines)
            and any(ln.startswith(SEAL_FAIL) for ln in lines))


def _sh_dq(s: str) -> str:
    """s made safe inside a double-quoted sh string."""
    out = []
    for ch in s:
        if ch in '\\"$`':
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)
