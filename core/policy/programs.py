"""What the policy knows about programs: wrappers that run another command, shells, and how a
program touches the files it is given (data; core/policy/paths.py reads it).

Roles (how a program's operands are touched):
  meta     names or metadata only: nothing of a file's content is read or written
  mention  its operands are text, not files (echo, printf)
  read     reads its operands
  write    writes (changes, removes) its operands
  rw       reads and writes them (an editor, sed -i)
  copy     the last operand is written, the others are read (cp, install, scp, rsync)
  move     every operand is written, and the sources are read (mv)
A program not listed is unknown: a protected operand counts as both read and written.

RECURSIVE: a reader or writer given a directory above a protected file touches it, always
(rg, tar, rsync -a, ...) or only with one of the flags listed.
"""
from __future__ import annotations

import os
import re

META = frozenset({
    "ls", "stat", "test", "[", "[[", "realpath", "readlink", "dirname", "basename", "du", "df",
    "pwd", "cd", "pushd", "popd", "type", "which", "whereis", "command", "true", "false", "exit",
    "export", "unset", "set", "alias", "sleep", "id", "whoami", "date", "uname", "namei",
    "lsattr", "getfacl", "tree", "exa", "eza", "fd", "fdfind", "locate", "hash", "wait",
    "jobs", "kill", "ps", "hostname", "mkdir", "history", "shopt", "local", "declare", "read",
    "return", "break", "continue", "trap", "umask", "ulimit", "clear", "tput", "seq", "yes",
})
MENTION = frozenset({"echo", "printf", "print"})
READ = frozenset({
    "cat", "tac", "head", "tail", "less", "more", "most", "nl", "od", "xxd", "hexdump", "base64",
    "base32", "basenc", "strings", "sort", "uniq", "cut", "paste", "awk", "gawk", "mawk", "diff",
    "cmp", "comm", "grep", "egrep", "fgrep", "zgrep", "md5sum", "sha1sum", "sha256sum",
    "sha512sum", "b2sum", "cksum", "sum", "wc", "file", "jq", "yq", "openssl", "ssh-keygen",
    "ssh-add", "gpg", "iconv", "fold", "fmt", "column", "expand", "unexpand", "pr", "rev",
    "zcat", "bzcat", "xzcat", "zless", "bat", "batcat", "view", "look", "join", "tsort", "ptx",
    "curl", "wget", "nc", "ncat", "socat", "mail", "sendmail", "uuencode", "gzip", "bzip2", "xz",
    "zstd", "lz4", "rg", "ag", "ack", "git", "diff3", "sdiff", "split", "csplit", "shuf",
    "ssh", "sftp", "tee",
})
WRITE = frozenset({
    "rm", "rmdir", "unlink", "shred", "truncate", "chmod", "chown", "chgrp", "chattr",
    "setfacl", "touch", "mkfifo", "mknod", "ln", "tee", "patch", "srm", "wipe",
})
RW = frozenset({"vi", "vim", "nvim", "nano", "emacs", "ed", "ex", "sed", "perl", "dd", "ln",
                "sponge"})
COPY = frozenset({"cp", "install", "scp", "rsync", "ditto"})
MOVE = frozenset({"mv"})
#: "always": recursive by nature; a tuple: recursive only with one of those flags
RECURSIVE = {
    "rg": "always", "ag": "always", "ack": "always", "tar": "always", "zip": ("-r", "--recurse-paths"),
    "grep": ("-r", "-R", "--recursive", "--dereference-recursive", "-d"),
    "egrep": ("-r", "-R", "--recursive"), "fgrep": ("-r", "-R", "--recursive"),
    "zgrep": ("-r", "-R"),
    "cp": ("-r", "-R", "-a", "--recursive", "--archive"),
    "scp": ("-r",), "rsync": ("-r", "-a", "--recursive", "--archive"),
    "rm": ("-r", "-R", "--recursive"), "chmod": ("-R", "--recursive"),
    "chown": ("-R", "--recursive"), "chgrp": ("-R", "--recursive"), "chattr": ("-R",),
    "setfacl": ("-R", "--recursive"), "mv": "always", "ditto": "always", "shred": (),
    "du": (), "git": ("add", "-A", "--all", "commit", "stash", "archive"),
    "7z": "always", "7za": "always", "cpio": "always", "pax": "always", "find": (),
    "diff": ("-r", "--recursive"), "wc": (), "sha256sum": (), "md5sum": (),
    "base64": (), "cat": (),
}
#: these skip hidden files and folders unless one of the flags is given (rg, ag)
SKIPS_HIDDEN = {"rg": ("--hidden", "-.", "-u", "-uu", "-uuu", "--no-ignore-dot", "-unrestricted"),
                "ag": ("--hidden", "-u", "--unrestricted")}
#: tar's archive file is written when it creates (c) and read when it extracts or lists
ARCHIVERS = frozenset({"tar", "zip", "unzip", "7z", "7za", "cpio", "pax", "ar", "jar"})

#: programs whose -C DIR makes later operands relative to DIR
CHDIR_OPTION = frozenset({"tar", "git", "make"})

#: programs that run code given as text: a protected path anywhere in their arguments (the
#: code) counts as an operand
INTERPRETERS = frozenset({
    "python", "python2", "python3", "perl", "ruby", "node", "nodejs", "deno", "bun", "php",
    "lua", "tclsh", "Rscript", "awk", "gawk", "mawk", "osascript", "pwsh", "powershell", "jshell",
    "julia", "irb", "ipython", "sqlite3", "psql", "mysql", "make", "cmake", "gdb", "vim", "nvim",
    "ex", "ed", "sed",
})
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "busybox-sh", "fish",
                    "rbash", "yash", "posh", "tcsh", "csh"})

#: wrapper -> (options taking a value, options that end the wrapper's own options)
WRAPPERS: dict[str, tuple[frozenset, frozenset]] = {
    "sudo": (frozenset({"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-T", "-U", "--user",
                        "--group", "--host", "--prompt", "--chdir", "--role", "--type",
                        "--other-user", "--close-from", "--command-timeout"}), frozenset()),
    "doas": (frozenset({"-u", "-C"}), frozenset()),
    "env": (frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string", "-P"}),
            frozenset()),
    "command": (frozenset(), frozenset()),
    "builtin": (frozenset(), frozenset()),
    "exec": (frozenset({"-a"}), frozenset()),
    "nice": (frozenset({"-n", "--adjustment"}), frozenset()),
    "ionice": (frozenset({"-c", "-n", "-p", "-P", "-u", "--class", "--classdata"}), frozenset()),
    "nohup": (frozenset(), frozenset()),
    "setsid": (frozenset(), frozenset()),
    "time": (frozenset({"-f", "-o", "--format", "--output"}), frozenset()),
    "timeout": (frozenset({"-s", "-k", "--signal", "--kill-after"}), frozenset()),
    "stdbuf": (frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}), frozenset()),
    "unbuffer": (frozenset(), frozenset()),
    "chronic": (frozenset(), frozenset()),
    "flock": (frozenset({"-w", "-E", "--timeout", "--conflict-exit-code"}), frozenset()),
    "chroot": (frozenset({"--userspec", "--groups"}), frozenset()),
    "runuser": (frozenset({"-u", "-g", "-G", "--user", "--group"}), frozenset()),
    "watch": (frozenset({"-n", "-d", "--interval"}), frozenset()),
    "strace": (frozenset({"-e", "-o", "-p", "-s", "-u"}), frozenset()),
    "ltrace": (frozenset({"-e", "-o", "-p", "-s", "-u"}), frozenset()),
    "taskset": (frozenset(), frozenset()),
    "caffeinate": (frozenset(), frozenset()),
    "busybox": (frozenset(), frozenset()),
    "npx": (frozenset({"-p", "--package"}), frozenset()),
    "uvx": (frozenset({"--from", "--with"}), frozenset()),
    "proxychains": (frozenset({"-f"}), frozenset()),
    "torify": (frozenset(), frozenset()),
    "firejail": (frozenset(), frozenset()),
    "script": (frozenset(), frozenset()),
}
#: the number of leading non-option words a wrapper takes before its command
_WRAPPER_POSITIONALS = {"timeout": 1, "taskset": 1, "chroot": 1, "flock": 1, "watch": 0}


def unwrap(name: str, args: list[str | None]) -> int | None:
    """Index (into `args`) of the command a wrapper runs, len(args) when it runs none, None when
    it cannot be told (a value that is not static where an option or command must be)."""
    takes, _ = WRAPPERS[name]
    positionals = _WRAPPER_POSITIONALS.get(name, 0)
    i = 0
    while i < len(args):
        a = args[i]
        if a is None:
            return None if i == 0 or positionals else i
        if a == "--":
            i += 1
            break
        if name == "env" and "=" in a and not a.startswith("-"):
            i += 1
            continue
        if name == "script" and a == "-c":
            return None          # script -c '<text>' runs a shell: not followed
        if a.startswith("-") and len(a) > 1:
            if a in takes or (a.startswith("--") and "=" not in a and a in takes):
                i += 2
                continue
            if name == "nice" and a[1:].lstrip("-").isdigit():
                i += 1
                continue
            i += 1
            continue
        if positionals:
            positionals -= 1
            i += 1
            continue
        break
    return i


def xargs_command(args: list[str | None]) -> int | None:
    takes = {"-a", "-d", "-E", "-e", "-I", "-i", "-L", "-l", "-n", "-P", "-s", "--arg-file",
             "--delimiter", "--max-args", "--max-procs", "--max-chars", "--replace", "--eof",
             "--max-lines", "--process-slot-var"}
    i = 0
    while i < len(args):
        a = args[i]
        if a is None:
            return None
        if a == "--":
            return i + 1
        if a.startswith("-") and len(a) > 1:
            i += 2 if a in takes else 1
            continue
        return i
    return i


def is_shell_script(text: str) -> bool:
    """A script file whose text a shell runs: a sh-family shebang, or none at all."""
    first = text.split("\n", 1)[0]
    if not first.startswith("#!"):
        return "\0" not in text[:4096]
    prog = first[2:].strip().split()
    if not prog:
        return True
    name = prog[0].rsplit("/", 1)[-1]
    if name == "env" and len(prog) > 1:
        name = prog[1]
    return name in SHELLS


def role(name: str, flags: set[str]) -> str:
    if name in MENTION:
        return "mention"
    if name in META:
        return "meta"
    if name == "sed" or name == "perl":
        return "rw" if any(f == "-i" or f.startswith(("-i", "--in-place")) for f in flags) \
            else "read"
    if name in MOVE:
        return "move"
    if name in COPY:
        return "copy"
    if name in RW:
        return "rw"
    if name in WRITE:
        return "write"
    if name in READ:
        return "read"
    return "unknown"


def recursive(name: str, flags: set[str], words: set[str]) -> bool:
    r = RECURSIVE.get(name)
    if r is None:
        return False
    if r == "always":
        return True
    return any(f in flags or f in words for f in r)


# ---- side effects: what a program deletes or overwrites besides its plain operands --------------
#: stands for "the command's operands" in side_writes' answer
OPERANDS = "\0operands"
#: git subcommands that change the working tree (delete, overwrite, move files in it)
GIT_TREE_WRITERS = frozenset({"clean", "checkout", "restore", "reset", "stash", "rm", "mv",
                              "apply", "am", "merge", "pull", "rebase", "switch", "cherry-pick",
                              "revert", "worktree", "read-tree", "checkout-index", "filter-branch",
                              "sparse-checkout"})
#: options of git that take a value (so its subcommand is the first word after them)
_GIT_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path",
                         "--config-env"})


def _git_subcommand(vals: list) -> str | None:
    i = 0
    while i < len(vals):
        v = vals[i]
        if v is None:
            return None
        if v in _GIT_VALUED:
            i += 2
            continue
        if v.startswith("-"):
            i += 1
            continue
        return v
    return None


def side_writes(name: str, vals: list) -> list[tuple[str, bool]]:
    """(where, recursive) each write a program makes as a side effect of its options: "." is
    the folder it acts on (its -C DIR or the working folder), OPERANDS its operands, else a
    path it names. Data for core/policy/paths.py (used on a write-protected tree,
    `git clean`, `tar --remove-files`, `find -delete`, `unzip -o`, `cp -t DIR` got through)."""
    known = [v for v in vals if v is not None]
    out: list[tuple[str, bool]] = []
    if name == "git" and _git_subcommand(vals) in GIT_TREE_WRITERS:
        out.append((".", True))
    elif name in ("tar", "bsdtar", "gtar"):
        if "--remove-files" in known:
            out.append((OPERANDS, True))
        first = known[0] if known else ""
        if ("--extract" in known or "--get" in known or "-x" in known
                or any(v.startswith("-") and not v.startswith("--") and "x" in v[1:] for v in known)
                or (first and not first.startswith("-") and "x" in first)):
            out.append((".", True))
    elif name == "find":
        if "-delete" in known:
            out.append((OPERANDS, True))
        for i, v in enumerate(known):
            if v in ("-fprint", "-fprint0", "-fprintf", "-fls") and i + 1 < len(known):
                out.append((known[i + 1], False))
    elif name in ("unzip", "7z", "7za", "cpio", "pax", "ar", "jar"):
        d = next((known[i + 1] for i, v in enumerate(known) if v in ("-d", "-o") and i + 1 < len(known)
                  and name == "unzip" and v == "-d"), None)
        out.append((d or ".", True))
    elif name in ("cp", "mv", "install", "ln", "rsync"):
        for i, v in enumerate(known):
            if v in ("-t", "--target-directory") and i + 1 < len(known):
                out.append((known[i + 1], True))
            elif v.startswith("--target-directory="):
                out.append((v.split("=", 1)[1], True))
    if name == "rsync" and any(v.startswith("--delete") or v == "--remove-source-files"
                               for v in known):
        out.append((OPERANDS, True))
    return out


#: options that make a program run code given as text (its own shell or interpreter): the
#: resolver cannot see into it (sed's e, a git alias with !, tar's checkpoint action)
_GIT_CODE_KEYS = ("alias.", "core.pager", "core.editor", "core.sshcommand", "core.fsmonitor",
                  "core.hookspath", "diff.external", "sequence.editor", "credential.helper",
                  "pager.", "filter.", "gpg.program", "core.askpass", "uploadpack.", "remote.")
_TAR_CODE = ("--checkpoint-action", "--to-command", "--use-compress-program", "--info-script",
             "--new-volume-script", "--rsh-command", "-I", "-F")


def runs_code(name: str, vals: list) -> str:
    """Why `name` with these arguments runs code agentdeck cannot see into, or ""."""
    known = [v for v in vals if v is not None]
    if name == "git":
        for i, v in enumerate(known):
            kv = known[i + 1] if v == "-c" and i + 1 < len(known) else (
                v[2:] if v.startswith("-c") and len(v) > 2 else None)
            if kv is not None and kv.lower().startswith(_GIT_CODE_KEYS):
                return f"git -c {kv.split('=', 1)[0]} runs a program of its own"
            if v.startswith("--config-env"):
                return "git --config-env sets configuration that can run programs"
    if name in ("tar", "bsdtar", "gtar"):
        for v in known:
            if v.startswith(_TAR_CODE):
                return f"tar {v.split('=', 1)[0]} runs a command"
    if name == "sed":
        for v in known:
            if v.startswith("-"):
                continue
            if re.search(r"(^|[;\n{}])\s*e(\s|$)", v) or re.search(r"s(.).*\1.*\1[gpIiMm0-9w]*e", v):
                return "sed's e command runs its text as a shell command"
    if name in ("rsync", "scp") and any(v in ("-e", "--rsh") or v.startswith("--rsh=") for v in known):
        return f"{name} -e runs a remote shell command of its own"
    if name in ("ssh", "scp", "sftp") and any("proxycommand" in v.lower() or "localcommand" in v.lower()
                                              for v in known):
        return f"{name} -o ProxyCommand runs a command"
    if name in ("zip",) and any(v in ("-TT", "--unzip-command") for v in known):
        return "zip -TT runs a command"
    if name in ("awk", "gawk", "mawk"):
        prog = next((v for v in known if not v.startswith("-")), "")
        if "system(" in prog or re.search(r"\|\s*(getline|&)|print[^;]*\|", prog):
            return f"{name} runs a command from its program"
    return ""


#: interpreters and the options that give them a program as text (`[policy] inline_code`);
#: awk's program is its first operand
INLINE_OPTIONS = {
    "python": ("-c",), "python2": ("-c",), "python3": ("-c",), "pypy": ("-c",), "pypy3": ("-c",),
    "perl": ("-e", "-E"), "ruby": ("-e",), "node": ("-e", "--eval", "-p", "--print"),
    "nodejs": ("-e", "--eval", "-p", "--print"), "deno": ("eval",), "bun": ("-e", "--eval"),
    "php": ("-r",), "lua": ("-e",), "osascript": ("-e",), "Rscript": ("-e",),
    "julia": ("-e", "-E"), "pwsh": ("-c", "-Command", "-command"),
    "powershell": ("-c", "-Command", "-command"), "tclsh": (), "jshell": (),
}
_AWKS = frozenset({"awk", "gawk", "mawk", "nawk"})

#: programs that, given nothing to run, take commands from their terminal (a REPL), and those
#: that take them whatever they are given (an editor's or pager's `!command`, a switched-user
#: or remote shell): in a session whose later input no hook sees (Codex's exec_command and
#: write_stdin), they run what is typed into them. A shell given nothing to run is one too
#: (SHELLS). A pager another program starts (man, git log on a terminal) is not seen here.
REPLS = frozenset({"python", "python2", "python3", "ipython", "node", "nodejs", "deno", "bun",
                   "perl", "ruby", "irb", "php", "lua", "julia", "jshell", "pwsh", "powershell",
                   "tclsh", "R", "gdb", "sqlite3"})
INTERACTIVE = frozenset({"vi", "vim", "nvim", "view", "vimdiff", "ex", "ed", "nano", "emacs",
                         "less", "more", "most", "ftp", "sftp", "su", "script", "tmux",
                         "screen", "expect", "telnet", "psql", "mysql"})
#: the options that give a REPL or client its program, so it takes no typed commands
_GIVEN = frozenset({"-c", "-e", "-E", "-r", "--command", "--execute", "--eval", "-Command",
                    "-command", "-f", "--file", "-m"})


def takes_commands(name: str, vals: list, stdin: str | None = None) -> bool:
    """Whether `name` run with arguments `vals` takes commands typed into its terminal later
    (a shell or REPL given nothing to run, an editor, a pager, a switched-user shell)."""
    known = [v for v in vals if v is not None]
    if name in INTERACTIVE:
        return not (name in ("psql", "mysql") and any(v in _GIVEN for v in known))
    if name in ("sudo", "doas"):
        return any(v in ("-s", "-i", "--shell", "--login") for v in known)
    if stdin is not None:            # fed from a pipe or a heredoc: what it runs is that
        return False
    operands = [v for v in vals if v is None or not v.startswith(("-", "+"))]
    if name in SHELLS:
        return not operands
    if name in REPLS:
        return "-i" in known or not (operands or any(v in _GIVEN for v in known)) or (
            name == "sqlite3" and len(operands) < 2)
    return False


def inline_program(name: str, vals: list) -> bool:
    """Whether `name` is given a program as text on its command line."""
    known = [v for v in vals if v is not None]
    if name in _AWKS:
        return any(not v.startswith("-") for v in known) and "-f" not in known
    opts = INLINE_OPTIONS.get(name)
    if not opts:
        return False
    for v in known:
        if v in opts or any(v.startswith(o) and len(v) > len(o) and o.startswith("-")
                            and not o.startswith("--") and len(o) == 2 for o in opts):
            return True
    return False


# ---- package managers that remove installed packages ------------------------------------------
#: the folder of the agentdeck package this code runs from (…/site-packages/agentdeck, an
#: editable checkout): what `pip uninstall agentdeck` removes when it is the handler's own
OWN_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: the distribution name of agentdeck (PEP 503 normalized)
OWN_DIST = "agentdeck"
#: "every package" (a requirements file, uninstall-all): the handler's may be among them
ANY_PACKAGE = "*"
_PIPS = re.compile(r"pip(?:[0-9]+(?:\.[0-9]+)*)?")
_PYTHONS = re.compile(r"(?:python|pypy)(?:[0-9]+(?:\.[0-9]+)*)?")
#: pip uninstall's options that take a value (the packages are the other words)
_PIP_VALUED = frozenset({"-r", "--requirement", "--root-user-action", "--log", "--proxy",
                         "--retries", "--timeout", "--exists-action", "--trusted-host", "--cert",
                         "--client-cert", "--cache-dir", "--python", "--path", "--target"})


def _dist(word: str) -> str:
    """A requirement's distribution name, PEP 503 normalized (`AgentDeck==1.0` -> agentdeck)."""
    name = re.split(r"[<>=!~;\[ @]", word, maxsplit=1)[0]
    return re.sub(r"[-_.]+", "-", name).lower()


def _packages(words: list) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w is None:
            out.append(ANY_PACKAGE)         # a word the resolver could not evaluate
        elif w in ("-r", "--requirement") or w.startswith("--requirement="):
            out.append(ANY_PACKAGE)         # names read from a file
            i += 1 if "=" in w else 2
            continue
        elif w in _PIP_VALUED:
            i += 2
            continue
        elif not w.startswith("-"):
            out.append(_dist(w))
        i += 1
    return out


def uninstalls(prog: str, vals: list) -> tuple[list[str], str | None] | None:
    """What a package manager's command removes: (the distributions it names, PEP 503
    normalized, ANY_PACKAGE for names it reads elsewhere; the environment whose site-packages it
    changes when the command names it: `/venv/bin/pip`, `/venv/bin/python -m pip` -> /venv), or
    None when the command removes no installed package. pip, `python -m pip`, `uv pip`,
    `uv tool`, `uv remove`, pipx."""
    name = prog.rsplit("/", 1)[-1]
    words = list(vals)
    env = None
    if _PYTHONS.fullmatch(name):
        for i in range(len(words) - 1):
            if words[i] == "-m" and words[i + 1] is not None and _PIPS.fullmatch(words[i + 1]):
                break
        else:
            return None
        words = words[i + 2:]
        name = "pip"
    elif name == "uv" and words[:1] == ["pip"]:
        words, name = words[1:], "pip"
    if "/" in prog and name == "pip":
        env = os.path.dirname(os.path.dirname(prog))     # <env>/bin/pip, <env>/bin/python
    sub = next((w for w in words if w is None or not w.startswith("-")), "")
    rest = words[words.index(sub) + 1:] if sub in words else []
    if _PIPS.fullmatch(name) and sub == "uninstall":
        return _packages(rest), env
    if name == "pipx" and sub in ("uninstall", "uninstall-all", "reinstall", "reinstall-all"):
        return (_packages(rest) if sub in ("uninstall", "reinstall") else [ANY_PACKAGE]), None
    if name == "uv" and sub == "tool" and len(rest) > 0 and rest[0] in ("uninstall", "upgrade"):
        return _packages(rest[1:]), None
    if name == "uv" and sub == "remove":
        return _packages(rest), None
    if sub is None and (name == "pipx" or _PIPS.fullmatch(name)):
        return [ANY_PACKAGE], env               # the subcommand itself is not known
    return None


def uninstall_writes(prog: str, vals: list) -> list[str]:
    """The folders an uninstall command writes (recursively): the handler's own package when
    it names agentdeck (or packages it cannot name), and the environment it names."""
    found = uninstalls(prog, vals)
    if found is None:
        return []
    packages, env = found
    out = [OWN_PACKAGE] if (OWN_DIST in packages or ANY_PACKAGE in packages) else []
    if env:
        out.append(env)
    return out
