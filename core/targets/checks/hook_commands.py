"""A hook command as the doctor reads it: the words a CLI runs through /bin/sh, agentdeck's hook
wrapper (missing, not executable, the handler it execs not found) and any other handler program
(not found, not executable)."""
from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

from ..parts.doctor import Context

WRAPPER_NAME = "agentdeck-hook.sh"
WRAPPER_MARK = "# Written by agentdeck for "
_SHELL_WORDS = {
    "echo", "printf", "true", "false", ":", "exit", "exec", "cd", "test", "[", "set", "export",
    "eval", "command", "if", "for", "while", "case", "{", "(", "!", "env", "sh", "bash", "read",
    "cat", "sleep", "trap", "umask", "type",
}
_INTERPRETERS = {"python", "python3", "node", "bash", "sh", "zsh", "ruby", "perl", "deno", "bun",
                 "uv", "uvx", "npx"}


class CommandFinding:
    """What the doctor found about one hook command."""

    def __init__(self, kind: str, result: str, message: str, fix: str = ""):
        self.kind = kind          # "wrapper" | "handler"
        self.result = result      # "ok" | "warning" | "error"
        self.message = message
        self.fix = fix


def _expand(ctx: Context, word: str) -> str:
    if word.startswith("~/") or word == "~":
        return str(ctx.host.home) + word[1:]
    for var in ("$HOME", "${HOME}"):
        if word.startswith(var):
            return str(ctx.host.home) + word[len(var):]
    m = re.match(r"^\$\{?([A-Z_][A-Z0-9_]*)\}?(/.*)$", word)
    if m and ctx.host.env.get(m.group(1)):
        return ctx.host.env[m.group(1)] + m.group(2)
    return word


def split_command(command: str) -> list[str] | None:
    """The words of a hook command, env assignments dropped; None when it cannot be split."""
    try:
        words = shlex.split(command, comments=False)
    except ValueError:
        return None
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words = words[1:]
    return words


def check_program(ctx: Context, word: str) -> str | None:
    """None when `word` (a command's argv[0]) can be run; else why not."""
    if "$" in word or "`" in word:
        return None                   # decided at run time; nothing to say
    p = _expand(ctx, word)
    if "/" in p:
        path = Path(p)
        if not path.is_absolute():
            return None               # relative to the CLI's cwd: cannot tell
        if not ctx.host.exists(path):
            return f"{ctx.show(path)} does not exist"
        if ctx.host.is_dir(path):
            return f"{ctx.show(path)} is a directory"
        if not ctx.host.is_executable(path):
            return f"{ctx.show(path)} is not executable"
        return None
    if p in _SHELL_WORDS:
        return None
    if ctx.host.which(p) is None:
        return f"{p} is not on PATH"
    return None


def is_wrapper_path(ctx: Context, word: str) -> bool:
    return Path(_expand(ctx, word)).name == WRAPPER_NAME


def wrapper_handler(ctx: Context, wrapper: Path) -> tuple[str | None, str | None]:
    """(the handler program the agentdeck wrapper execs, why it cannot be read)."""
    ld = ctx.read(wrapper)
    if not ld.exists or ld.text is None:
        return None, ld.error
    from ..wrapper import handler_of_wrapper   # local: the doctor's wrapper checks only
    prog = handler_of_wrapper(ld.text)
    if prog:
        return prog, None
    return None, "no handler line (`exec` or the line before `rc=$?`)"


def inspect_command(ctx: Context, command: Any, exec_program: str | None = None) -> list[CommandFinding]:
    """Findings for one hook command (the shell string a CLI runs through /bin/sh), or for an
    `exec` program. Covers the agentdeck wrapper (missing, not executable, its handler not found)
    and any other handler program (not found, not executable)."""
    out: list[CommandFinding] = []
    if exec_program is not None:
        words = [exec_program]
    elif isinstance(command, str) and command.strip():
        split = split_command(command)
        if not split:
            return out
        words = split
    else:
        return out
    prog = words[0]
    if is_wrapper_path(ctx, prog):
        wpath = Path(_expand(ctx, prog))
        if not wpath.is_absolute():
            return out
        if not ctx.host.exists(wpath):
            out.append(CommandFinding("wrapper", "error",
                                      f"the agentdeck hook wrapper {ctx.show(wpath)} is missing: "
                                      "every hook that calls it fails",
                                      "`agentdeck apply` writes it again"))
            return out
        if not ctx.host.is_executable(wpath):
            mode = ctx.host.mode(wpath)
            out.append(CommandFinding("wrapper", "error",
                                      f"the agentdeck hook wrapper {ctx.show(wpath)} is not "
                                      f"executable (mode {mode:o}): every hook that calls it fails"
                                      if mode is not None else
                                      f"the agentdeck hook wrapper {ctx.show(wpath)} is not executable",
                                      f"chmod 755 {ctx.show(wpath)}, or `agentdeck apply`"))
            return out
        handler, why = wrapper_handler(ctx, wpath)
        if handler is None:
            out.append(CommandFinding("wrapper", "warning",
                                      f"cannot read the handler from {ctx.show(wpath)} ({why})",
                                      "`agentdeck apply` writes the wrapper again"))
            return out
        problem = check_program(ctx, handler)
        if problem:
            out.append(CommandFinding("handler", "error",
                                      f"the hook handler the wrapper runs is not found ({problem}): "
                                      "the hooks run but do nothing",
                                      "install it (for agentdeck's own handler: the agentdeck "
                                      "package provides `agentdeck-hook`), or set [hooks] command "
                                      "in your profile and `agentdeck apply`"))
        return out
    problem = check_program(ctx, prog)
    if problem is None and Path(prog).name in _INTERPRETERS and len(words) > 1:
        script = words[1]
        if not script.startswith("-"):
            sp = _expand(ctx, script)
            if sp.startswith("/") and not ctx.host.exists(Path(sp)):
                problem = f"its script {ctx.show(sp)} does not exist"
    if problem:
        out.append(CommandFinding("handler", "error", f"hook command not found: {problem}",
                                  "install the program or fix the path in the hook"))
    return out


def report_commands(ctx: Context, handlers: list[Any], kind: str, out: Any) -> None:
    """Every finding of `kind` ("wrapper" or "handler") for the command handlers of a CLI whose
    hooks are `{"type": "command", "command": ...}` objects (each with .event, .handler, .path,
    .line: checks/nested_hooks.py Handler), each message once."""
    seen: set[str] = set()
    for h in handlers:
        if h.handler.get("type", "command") != "command":
            continue
        for cf in inspect_command(ctx, h.handler.get("command")):
            if cf.kind == kind and cf.message not in seen:
                seen.add(cf.message)
                out.add(cf.result, f"{h.event}: {cf.message}", cf.fix, h.path, h.line)
