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
import posixpath
import re

from . import longopts

META = frozenset({
    "ls", "stat", "test", "[", "[[", "realpath", "readlink", "dirname", "basename", "du", "df",
    "pwd", "cd", "pushd", "popd", "type", "which", "whereis", "command", "true", "false", "exit",
    "export", "unset", "set", "alias", "sleep", "id", "whoami", "date", "uname", "namei",
    "lsattr", "getfacl", "tree", "exa", "eza", "fd", "fdfind", "locate", "hash", "wait",
    "jobs", "kill", "ps", "hostname", "history", "shopt", "local", "declare", "read",
    "return", "break", "continue", "trap", "umask", "ulimit", "clear", "tput", "seq", "yes",
    # find lists names; what it writes is its write actions' (side_writes: -delete, -fprint,
    # -fls ...) and what its -exec/-ok run (core/policy/shellparse.py)
    "find",
})
MENTION = frozenset({"echo", "printf", "print"})
READ = frozenset({
    "source", ".", "cat", "tac", "head", "tail", "less", "more", "most", "nl", "od", "xxd", "hexdump", "base64",
    "base32", "basenc", "strings", "sort", "uniq", "cut", "paste", "awk", "gawk", "mawk", "diff",
    "cmp", "comm", "grep", "egrep", "fgrep", "zgrep", "md5sum", "sha1sum", "sha256sum",
    "sha512sum", "b2sum", "cksum", "sum", "wc", "file", "jq", "yq", "openssl", "ssh-keygen",
    "ssh-add", "gpg", "iconv", "fold", "fmt", "column", "expand", "unexpand", "pr", "rev",
    "zcat", "bzcat", "xzcat", "zless", "bat", "batcat", "view", "look", "join", "tsort", "ptx",
    "curl", "wget", "nc", "ncat", "socat", "mail", "sendmail", "uuencode", "gzip", "bzip2", "xz",
    "zstd", "lz4", "rg", "ag", "ack", "git", "diff3", "sdiff", "split", "csplit", "shuf",
    "ssh", "sftp", "tee", "uudecode",
})
WRITE = frozenset({
    "rm", "rmdir", "unlink", "shred", "truncate", "chmod", "chown", "chgrp", "chattr",
    "setfacl", "touch", "mkfifo", "mknod", "ln", "tee", "patch", "srm", "wipe", "mkdir",
})
RW = frozenset({"vi", "vim", "nvim", "nano", "emacs", "ed", "ex", "sed", "perl", "dd", "ln",
                "sponge"})
COPY = frozenset({"cp", "install", "scp", "rsync", "ditto"})
MOVE = frozenset({"mv"})
#: options of the COPY and MOVE programs (and ln) that take a value, so the word after them is
#: not a source or destination (core/policy/paths.py _destinations)
DEST_VALUED: dict[str, frozenset] = {
    "cp": frozenset({"-S", "--suffix", "-Z"}), "mv": frozenset({"-S", "--suffix"}),
    "ln": frozenset({"-S", "--suffix"}),
    "install": frozenset({"-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix",
                          "--strip-program"}),
    "rsync": frozenset({"-e", "--rsh", "-f", "--filter", "-T", "--temp-dir", "-B",
                        "--block-size", "-M", "--remote-option", "--exclude", "--include",
                        "--exclude-from", "--include-from", "--files-from", "--log-file",
                        "--partial-dir", "--backup-dir", "--suffix", "--chmod", "--chown",
                        "--compare-dest", "--copy-dest", "--link-dest", "--max-size",
                        "--min-size", "--timeout", "--bwlimit", "--port"}),
    "scp": frozenset({"-i", "-P", "-o", "-F", "-c", "-l", "-S", "-J", "-D", "-X"}),
    "ditto": frozenset({"--arch"}),
}
#: "always": recursive by nature; a tuple: recursive only with one of those flags
RECURSIVE = {
    "rg": "always", "ag": "always", "ack": "always", "tar": "always", "zip": ("-r", "--recurse-paths"),
    "grep": ("-r", "-R", "--recursive", "--dereference-recursive", "-d", "--directories"),
    "egrep": ("-r", "-R", "--recursive", "-d", "--directories"),
    "fgrep": ("-r", "-R", "--recursive", "-d", "--directories"),
    "zgrep": ("-r", "-R"),
    "cp": ("-r", "-R", "-a", "--recursive", "--archive"),
    "scp": ("-r",), "rsync": ("-r", "-a", "--recursive", "--archive"),
    "rm": ("-r", "-R", "--recursive"), "chmod": ("-R", "--recursive"),
    "chown": ("-R", "--recursive"), "chgrp": ("-R", "--recursive"), "chattr": ("-R",),
    "setfacl": ("-R", "--recursive"), "mv": "always", "ditto": "always", "shred": (),
    "du": (), "git": ("add", "-A", "--all", "commit", "stash", "archive", "grep", "--no-index"),
    "7z": "always", "7za": "always", "cpio": "always", "pax": "always", "find": (),
    "diff": ("-r", "--recursive"), "wc": (), "sha256sum": (), "md5sum": (),
    "base64": (), "cat": (),
    "gzip": ("-r", "--recursive"), "gunzip": ("-r", "--recursive"), "pigz": ("-r",),
    "unpigz": ("-r",), "zstd": ("-r",), "bsdtar": "always", "gtar": "always",
}
#: programs that follow the symbolic links they meet while walking a folder: (the options that
#: make them follow, "*" when they do by default; the options that stop them). A link in the
#: folder to a protected path is then that path (core/policy/paths.py _followed_below). GNU
#: grep 3.8, ripgrep, coreutils 9.1 cp, rsync 3, GNU tar 1.34, Info-ZIP zip 3.0 (follows unless
#: -y), diffutils 3.8 diff -r (follows unless --no-dereference), scp -r (follows), cpio, pax
FOLLOWS_LINKS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    **{g: (("-R", "--dereference-recursive"), ()) for g in ("grep", "egrep", "fgrep", "zgrep")},
    "rg": (("-L", "--follow"), ("--no-follow",)), "ag": (("-f", "--follow"), ()),
    "ack": (("--follow",), ("--nofollow",)),
    "cp": (("-L", "--dereference"), ()),
    "rsync": (("-L", "--copy-links", "--copy-unsafe-links", "-k", "--copy-dirlinks"), ()),
    **{t: (("-h", "--dereference", "-L"), ()) for t in ("tar", "gtar", "bsdtar")},
    "zip": (("*",), ("-y", "--symlinks")),
    "diff": (("*",), ("--no-dereference",)),
    "scp": (("*",), ()),
    "cpio": (("-L", "--dereference"), ()), "pax": (("-L",), ()),
    "chown": (("-L",), ()), "chgrp": (("-L",), ()), "chmod": (("-L",), ()),
    "find": (("-L", "-follow"), ()),
}


def follows_links(name: str, flags: set[str], words: set[str]) -> bool:
    """Whether `name` with these options follows the links it meets while walking a folder."""
    entry = FOLLOWS_LINKS.get(name)
    if entry is None:
        return False
    on, off = entry
    if flags & set(off):
        return False
    return "*" in on or bool((flags | words) & set(on))


#: programs that change a file's mode, owner or attributes: on a folder, what is under it may no
#: longer be read or written by whoever could before (core/policy/paths.py)
PERMISSION_WRITERS = frozenset({"chmod", "chown", "chgrp", "chattr", "setfacl",
                                # a file system mounted on a folder hides what is under it
                                "mount", "bindfs"})
#: these skip hidden files and folders unless one of the flags is given (rg, ag)
SKIPS_HIDDEN = {"rg": ("--hidden", "-.", "-u", "-uu", "-uuu", "--no-ignore-dot", "-unrestricted"),
                "ag": ("--hidden", "-u", "--unrestricted")}
#: tar's archive file is written when it creates (c) and read when it extracts or lists
ARCHIVERS = frozenset({"tar", "bsdtar", "gtar", "zip", "unzip", "7z", "7za", "cpio", "pax", "ar",
                       "jar", "unrar", "rar", "unar", "dpkg-deb"})
#: tar under its names (its archive is read when it creates, its operands only read)
TAR_NAMES = frozenset({"tar", "bsdtar", "gtar"})

#: programs whose -C DIR makes later operands relative to DIR
CHDIR_OPTION = frozenset({"tar", "bsdtar", "gtar", "git", "make", "gmake"})

#: programs that run code given as text: a protected path anywhere in their arguments (the
#: code) counts as an operand
INTERPRETERS = frozenset({
    "python", "python2", "python3", "perl", "ruby", "node", "nodejs", "deno", "bun", "php",
    "lua", "tclsh", "wish", "jimsh", "Rscript", "awk", "gawk", "mawk", "osascript", "pwsh", "powershell", "jshell",
    "julia", "irb", "ipython", "sqlite3", "psql", "mysql", "make", "gmake", "cmake", "gdb", "vim",
    "nvim", "ex", "ed", "sed", "nawk", "pypy", "pypy3",
})
#: the shell's own commands: never looked up in PATH, so a program file of the same name
#: does not run in their place
SHELL_BUILTINS = frozenset({
    "cd", "echo", "printf", "test", "[", "[[", "true", "false", "export", "read", "set", "unset",
    "source", ".", "eval", "exec", "command", "builtin", "type", "hash", "pwd", "pushd", "popd",
    "dirs", "alias", "unalias", "local", "declare", "typeset", "readonly", "shift", "return",
    "exit", "break", "continue", "trap", "wait", "jobs", "kill", "let", "shopt", "ulimit",
    "umask", "getopts", "mapfile", "readarray", "times", "fg", "bg", "disown", "enable", "help",
    "history", "fc", "compgen", "complete", "caller", "bind", ":",
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
    # red team round 12: an OOM score, a utilisation clamp
    "choom": (frozenset({"-n", "--adjust", "-p", "--pid"}), frozenset()),
    "uclampset": (frozenset({"-m", "-M", "-p", "--pid"}), frozenset()),
    "setsid": (frozenset(), frozenset()),
    "time": (frozenset({"-f", "-o", "--format", "--output"}), frozenset()),
    "timeout": (frozenset({"-s", "-k", "--signal", "--kill-after"}), frozenset()),
    "stdbuf": (frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}), frozenset()),
    "unbuffer": (frozenset(), frozenset()),
    "chronic": (frozenset(), frozenset()),
    "flock": (frozenset({"-w", "-E", "--timeout", "--conflict-exit-code"}), frozenset()),
    "chroot": (frozenset({"--userspec", "--groups"}), frozenset()),
    "runuser": (frozenset({"-u", "-g", "-G", "--user", "--group"}), frozenset()),
    "watch": (frozenset({"-n", "--interval", "-q", "--equexit", "-s", "--shotsdir"}),
              frozenset()),
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
    "script": (frozenset({"-E", "--echo", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io",
                          "-T", "--log-timing", "-m", "--logging-format", "-o",
                          "--output-limit"}), frozenset()),
    # run another program given as their operands (unshare, chrt, setpriv, valgrind, ...)
    "unshare": (frozenset({"-S", "--setuid", "-G", "--setgid", "-R", "--root", "-w", "--wd",
                           "--propagation", "--map-user", "--map-group", "--map-users",
                           "--map-groups", "--load-interp"}), frozenset()),
    "nsenter": (frozenset({"-t", "--target", "-S", "--setuid", "-G", "--setgid", "-w", "--wd",
                           "-R", "--root", "-N", "--net-socket"}), frozenset()),
    "chrt": (frozenset({"-T", "--sched-runtime", "-P", "--sched-period", "-D",
                        "--sched-deadline"}), frozenset()),
    "setpriv": (frozenset({"--reuid", "--regid", "--ruid", "--rgid", "--euid", "--egid",
                           "--groups", "--inh-caps", "--ambient-caps", "--bounding-set",
                           "--securebits", "--selinux-label", "--apparmor-profile",
                           "--pdeathsig", "--landlock-access", "--landlock-rule",
                           "--seccomp-filter"}), frozenset()),
    "prlimit": (frozenset({"-p", "--pid", "-o", "--output"}), frozenset()),
    "numactl": (frozenset({"-C", "--physcpubind", "-N", "--cpunodebind", "-m", "--membind",
                           "-i", "--interleave", "-p", "--preferred", "-w", "--weighted-interleave"}),
                frozenset()),
    "cpulimit": (frozenset({"-l", "--limit", "-c", "--cpu"}), frozenset()),
    "valgrind": (frozenset(), frozenset()),
    "catchsegv": (frozenset(), frozenset()),
    "fakeroot": (frozenset({"-l", "--lib", "--faked", "-s", "-i"}), frozenset()),
    "faketime": (frozenset({"-p", "-m", "-f"}), frozenset()),
    "pkexec": (frozenset({"--user"}), frozenset()),
    "systemd-run": (frozenset({"-p", "--property", "-u", "--unit", "--description", "--slice",
                               "-E", "--setenv", "--uid", "--gid", "-M", "--machine", "-H",
                               "--host", "--working-directory", "--nice", "-t",
                               "--on-active", "--on-boot", "--on-startup", "--on-calendar",
                               "--timer-property", "--path-property", "--socket-property"}),
                    frozenset()),
    "entr": (frozenset(), frozenset()),
    "rlwrap": (frozenset({"-a", "-b", "-C", "-D", "-e", "-f", "-H", "-l", "-O", "-p", "-P",
                          "-q", "-S", "-w", "-z"}), frozenset()),
    "tini": (frozenset({"-p", "-e"}), frozenset()),
    "dumb-init": (frozenset({"-r", "--rewrite"}), frozenset()),
    "dbus-run-session": (frozenset({"--config-file", "--dbus-daemon"}), frozenset()),
    "dbus-launch": (frozenset({"--config-file"}), frozenset()),
    "ssh-agent": (frozenset({"-a", "-E", "-P", "-t"}), frozenset()),
    "xvfb-run": (frozenset({"-n", "--server-num", "-e", "--error-file", "-f", "--auth-file",
                            "-p", "--xauth-protocol", "-s", "--server-args"}), frozenset()),
    "lckdo": (frozenset({"-w", "-W"}), frozenset()),
    "with-lock-ex": (frozenset(), frozenset()),
    "toybox": (frozenset(), frozenset()),
    "strace": (frozenset({"-e", "-o", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-X", "-O",
                          "-P", "-S", "-U"}), frozenset()),
    "ltrace": (frozenset({"-e", "-o", "-p", "-s", "-u", "-a", "-A", "-D", "-F", "-l", "-n",
                          "-w", "-x"}), frozenset()),
}
#: the short options of programs whose options cluster as getopt reads them (`-xvf F`, `-fF`,
#: `-nfF`), in getopt's own notation: a letter followed by `:` takes a value (the rest of its
#: word, or the next word), by `::` an optional one (the rest of its word only); a leading `+`
#: stops at the first operand (what follows is the program's own, or a command's), and the
#: letters after a `|` end the options with their value (`python3 -m M ARGS`). Every other
#: letter is a flag. The resolver splits a cluster into single options and their values by this
#: (split_short) before any other table reads the words, so `make -fmk`, `sed -nfs.sed`,
#: `tar -T../k -cf-`, `cp -t../d x`, `xargs -aF`, `grep -fF` are `-f mk`, `-n -f s.sed`, ... .
#: A program not here (and no wrapper): a glued rest that names a file is judged as an operand
#: (core/policy/paths.py for_command). Verified against the programs' getopt strings (GNU
#: coreutils 9, grep 3, sed 4.9, tar 1.35, make 4.4, gawk 5, findutils 4.9, OpenSSH 9, curl 8).
SHORT_OPTIONS: dict[str, str] = {
    "make": "C:E:f:I:j::l::o:O::W:", "gmake": "C:E:f:I:j::l::o:O::W:",
    "sed": "e:f:l:i::", "gsed": "e:f:l:i::",
    "awk": "+f:F:v:e:i:l:E:W:o::p::d::L::D::", "gawk": "+f:F:v:e:i:l:E:W:o::p::d::L::D::",
    "mawk": "+f:F:v:W:", "nawk": "+f:F:v:",
    "grep": "A:B:C:D:d:e:f:m:", "egrep": "A:B:C:D:d:e:f:m:", "fgrep": "A:B:C:D:d:e:f:m:",
    "zgrep": "A:B:C:D:d:e:f:m:", "rg": "A:B:C:e:E:f:g:j:m:M:r:t:T:",
    "tar": "b:C:f:F:g:H:I:K:L:N:T:V:X:", "gtar": "b:C:f:F:g:H:I:K:L:N:T:V:X:",
    "bsdtar": "b:C:f:I:s:T:X:",
    "cp": "S:t:", "mv": "S:t:", "ln": "S:t:", "install": "g:m:o:S:t:",
    "xargs": "+a:d:E:I:L:n:P:s:e::i::l::",
    "ssh": "+B:b:c:D:E:e:F:I:i:J:L:l:m:O:o:p:Q:R:S:W:w:", "scp": "+c:D:F:i:J:l:o:P:S:X:",
    "sftp": "+B:b:c:D:F:i:J:l:o:P:R:S:X:",
    "ssh-keygen": "+C:D:E:F:I:M:N:O:P:R:V:Y:Z:a:b:f:g:m:n:r:s:t:w:z:",
    "ssh-add": "+E:H:h:S:s:t:",
    "curl": "A:b:c:C:d:D:e:E:F:H:K:m:o:P:Q:r:T:t:u:U:w:x:X:y:Y:z:",
    "wget": "a:A:B:D:e:i:I:l:o:O:P:Q:R:t:T:U:w:X:",
    "sort": "k:o:S:t:T:", "uniq": "f:s:w:", "cut": "b:c:d:f:", "head": "c:n:", "tail": "c:n:s:",
    "split": "a:b:C:l:n:t:", "csplit": "b:f:n:", "touch": "d:r:t:", "truncate": "r:s:",
    "mkdir": "m:", "mktemp": "p:", "date": "d:f:r:I::", "du": "B:d:t:X:", "df": "B:t:x:",
    "ls": "I:T:w:", "diff": "C:D:F:I:L:S:U:W:x:X:", "patch": "B:D:d:F:g:i:o:p:r:V:Y:z:",
    "python": "+c:m:W:X:|cm", "python3": "+c:m:W:X:|cm", "python2": "+c:m:W:X:Q:|cm",
    "pypy": "+c:m:W:X:|cm", "pypy3": "+c:m:W:X:|cm", "perl": "+e:E:I:M:m:l::0::i::x::d::D::C::",
    "ruby": "+e:E:I:r:C:F:K:x::i::0::T::W::", "php": "+r:f:c:d:B:R:F:E:z:t:",
    "rsync": "B:e:f:M:T:", "zip": "b:n:t:x:i:P:", "gpg": "o:r:u:",
}

#: words a program reads as one option although they begin like a cluster of its short ones
#: (zip's own parser: `-TT CMD` is its test command, not `-T -T`): kept whole, not split
WHOLE_OPTIONS: dict[str, tuple[str, ...]] = {"zip": ("-TT",)}


def short_options(name: str) -> str | None:
    """The getopt string of `name`'s short options (SHORT_OPTIONS; a wrapper's from WRAPPERS,
    stopping at its command), or None when they are not known."""
    spec = SHORT_OPTIONS.get(name)
    if spec is None and name in WRAPPERS:
        spec = "+" + "".join(o[1] + ":" for o in sorted(WRAPPERS[name][0])
                             if len(o) == 2 and o[0] == "-" and o[1] != "-")
    return spec


def _spec_takes(spec: str) -> dict[str, str]:
    """A getopt string's letters: letter -> "" (a flag), ":" (a value), "::" (an optional one)."""
    takes: dict[str, str] = {}
    spec, _, last = spec.partition("|")
    for c in last:
        takes["|" + c] = "end"
    k = 1 if spec.startswith("+") else 0
    while k < len(spec):
        n = 2 if spec[k + 1:k + 3] == "::" else 1 if spec[k + 1:k + 2] == ":" else 0
        takes[spec[k]] = ("", ":", "::")[n]
        k += 1 + n
    return takes


def option_values_at(name: str, vals: list) -> set[int]:
    """Indices (into `vals`, a command's words after split_short) of the words that are the
    value of the short option before them (`-f F`, `-p 1`): no operands of the program."""
    spec = short_options(name)
    if spec is None:
        return set()
    takes = _spec_takes(spec)
    out: set[int] = set()
    for i, v in enumerate(vals):
        if i in out or v is None:
            continue
        if v == "--":
            break
        if len(v) == 2 and v[0] == "-" and takes.get(v[1]) == ":":
            if i + 1 < len(vals):
                out.add(i + 1)
            if "|" + v[1] in takes:
                break
        elif v[:1] == "-" and len(v) > 2 and "|" + v[1] in takes:
            break
    return out


def split_short(spec: str, vals: list[str | None]) -> list[tuple[list[str], str | None] | None]:
    """For each word in `vals`, how getopt reads it by `spec` (short_options): (the single
    options of a cluster, the value glued to its last one or None): `-nfs.sed` is (`-n`, `-f`)
    and `s.sed`; None for a word kept as it is (an operand, an option's separate value, a long
    option, a word not known)."""
    takes = _spec_takes(spec)
    out: list[tuple[list[str], str | None] | None] = []
    i = 0
    value_next = False
    ended = False
    while i < len(vals):
        v = vals[i]
        i += 1
        if value_next:
            value_next = False
            out.append(None)
            continue
        if ended:
            out.append(None)
            continue
        if v is None or not v.startswith("-") or v == "-" or v.startswith("--"):
            if v == "--":
                ended = True
            elif not ended and spec.startswith("+") and (v is None or not v.startswith("-")):
                ended = True
            out.append(None)
            continue
        parts: list[str] = []
        glued: str | None = None
        j = 1
        while j < len(v):
            c = v[j]
            kind = takes.get(c, "")
            if kind == ":":
                parts.append("-" + c)
                if j + 1 < len(v):
                    glued = v[j + 1:]
                else:
                    value_next = True
                ended = ended or "|" + c in takes     # `python3 -m M ...`: M's words
                break
            if kind == "::":
                parts.append(v[j - 1:] if j == 1 else "-" + v[j:])
                break
            parts.append("-" + c)
            j += 1
        out.append((parts, glued) if parts != [v] or glued is not None else None)
    return out


#: programs that run in another folder, and the options that name it: a wrapper's command
#: (`env -C DIR`, `sudo -D DIR`, `unshare --wd=DIR`, `nsenter -w DIR`; "" names the wrapper's
#: first operand: `chroot DIR cmd` runs cmd in DIR's root), a program's own commands and relative
#: names (tmux's new window, gdb's start, bwrap's sandbox; red team round 8: `tmux new -d -c
#: ~/.claude 'rm settings.json'`), make's makefile and recipes (`make -C`, each -C relative to
#: the one before). The relative names of what runs there are judged from there (run_folders)
RUN_FOLDER: dict[str, tuple[str, ...]] = {
    "env": ("-C", "--chdir"), "sudo": ("-D", "--chdir"), "unshare": ("-w", "--wd"),
    "nsenter": ("-w", "--wd"), "systemd-run": ("--working-directory",), "chroot": ("",),
    "tmux": ("-c",), "gdb": ("--cd", "-cd"), "bwrap": ("--chdir",),
    "make": ("-C", "--directory"), "gmake": ("-C", "--directory"),
}
#: of those, the programs whose folder options add up (`make -C a -C b` runs in a/b); for the
#: others the last one given counts
_FOLDERS_ADD_UP = frozenset({"make", "gmake"})


_FIND_NAMES = "find names:"


def find_names_tag(vals: list) -> str:
    """A via tag carrying the -name/-iname patterns of a find expression that has nothing else
    that could let another name through (`-o`, `!`, `-not`, `-or`, a `(`): "" otherwise."""
    known = [v for v in vals if v is not None]
    if len(known) < len(vals) or any(v in ("-o", "-or", "!", "-not", "(", ")", ",") for v in known):
        return ""
    pats = [("i" if v == "-iname" else "n") + known[i + 1]
            for i, v in enumerate(known[:-1]) if v in ("-name", "-iname")]
    return _FIND_NAMES + "\0".join(pats) if pats else ""


def find_names(via) -> list[tuple[bool, str]] | None:
    """The (case-folded, pattern) pairs of find_names_tag in a command's `via`, or None."""
    for v in via:
        if isinstance(v, str) and v.startswith(_FIND_NAMES):
            return [(p[0] == "i", p[1:].lower() if p[0] == "i" else p[1:])
                    for p in v[len(_FIND_NAMES):].split("\0") if p]
    return None


def run_folders(name: str, vals: list, rest: int | None = None) -> list[str | None] | None:
    """The folders RUN_FOLDER's options name in `vals` (a command's words after its name, short
    clusters split and long options spelled in full; a wrapper's words before its command:
    `vals[:rest]`), in the order they take effect, each relative to the one before; None for
    one that is not static; None when no option names one."""
    opts = RUN_FOLDER.get(name)
    if not opts:
        return None
    head = vals if rest is None else vals[:rest]
    if opts == ("",):
        if "--skip-chdir" in head:
            return None
        ops = [v for v in head if v is None or not v.startswith("-")]
        return ops[:1] or None
    found: list[str | None] = []
    for i, v in enumerate(head):
        if v is None:
            continue
        if v in opts:
            found.append(head[i + 1] if i + 1 < len(head) else None)
        elif any(o.startswith("--") and v.startswith(o + "=") for o in opts):
            found.append(v.split("=", 1)[1])
        elif v[:2] in opts and len(v) > 2 and not v.startswith("--"):
            found.append(v[2:])                  # `make -Cdir` where the cluster was not split
    if not found:
        return None
    return found if name in _FOLDERS_ADD_UP else found[-1:]


#: the number of leading non-option words a wrapper takes before its command
_WRAPPER_POSITIONALS = {"timeout": 1, "taskset": 1, "chroot": 1, "flock": 1, "watch": 0,
                        "chrt": 1, "faketime": 1, "lckdo": 1, "with-lock-ex": 1}
#: wrappers that take a shell command line as the value of an option (`script -c TEXT`,
#: `su -c TEXT`, `flock FILE -c TEXT`, `entr -s TEXT`): the text is resolved as a line
SHELL_TEXT_OPTIONS: dict[str, tuple[str, ...]] = {
    "script": ("-c", "--command"), "su": ("-c", "--command", "--session-command"),
    "runuser": ("-c", "--command", "--session-command"), "flock": ("-c", "--command"),
    "sg": ("-c",), "entr": ("-s",),
    # split runs its filter once per piece, with the piece on its stdin
    "split": ("--filter",),
}
_SPLIT_VALUED = frozenset({"-a", "-b", "-C", "-l", "-n", "-t", "--suffix-length", "--bytes",
                           "--line-bytes", "--lines", "--number", "--separator",
                           "--additional-suffix", "--numeric-suffixes", "--hex-suffixes"})


def split_names(vals: list, prefix: str, limit: int = 1000) -> list[str] | None:
    """Every name `split` can give its pieces: PREFIX, a suffix of -a N letters (digits with
    -d/--numeric-suffixes, hex with -x/--hex-suffixes), then --additional-suffix (red team round
    8: `-a 1 --additional-suffix=.json ... .claude/settings.loca` made settings.local.json).
    None when there are more than `limit` (the caller asks)."""
    width, chars, extra = 2, "abcdefghijklmnopqrstuvwxyz", ""
    known = [v for v in vals if v is not None]
    for i, v in enumerate(known):
        nxt = known[i + 1] if i + 1 < len(known) else ""
        if v in ("-a", "--suffix-length"):
            width = int(nxt) if nxt.isdigit() else 99
        elif v.startswith("--suffix-length="):
            width = int(v.split("=", 1)[1]) if v.split("=", 1)[1].isdigit() else 99
        elif v.startswith("-a") and len(v) > 2 and not v.startswith("--"):
            width = int(v[2:]) if v[2:].isdigit() else 99
        elif v == "-d" or v.startswith("--numeric-suffixes"):
            chars = "0123456789"
        elif v == "-x" or v.startswith("--hex-suffixes"):
            chars = "0123456789abcdef"
        elif v == "--additional-suffix":
            extra = nxt
        elif v.startswith("--additional-suffix="):
            extra = v.split("=", 1)[1]
    if len(chars) ** width > limit:
        return None
    import itertools   # local: only for a split whose pieces are named
    return [prefix + "".join(t) + extra for t in itertools.product(chars, repeat=width)]


def shell_text_vars(name: str, args: list[str | None]) -> dict[str, str | None]:
    """Variables a program sets for the shell command line it runs (SHELL_TEXT_OPTIONS):
    split's $FILE, the name of the piece (its prefix and a two-letter suffix)."""
    if name != "split":
        return {}
    operands = split_operands(args)
    prefix = operands[1] if len(operands) > 1 else "x"
    return {"FILE": None if prefix is None else prefix + "aa"}


def split_operands(args: list[str | None]) -> list[str | None]:
    """split's operands (INPUT, PREFIX), its options and their values left out."""
    operands: list[str | None] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a is not None and a.startswith("-") and a != "-":
            i += 2 if a in _SPLIT_VALUED else 1
            continue
        operands.append(a)
        i += 1
    return operands


#: programs that run a program an option names as their shell (`su -s PROGRAM`): the program
#: is judged as if it were run by the line
SHELL_PROGRAM_OPTIONS: dict[str, tuple[str, ...]] = {
    "su": ("-s", "--shell"), "runuser": ("-s", "--shell"),
}


def shell_program(name: str, args: list[str | None]) -> list[str | None]:
    """The programs `name` runs as its shell (SHELL_PROGRAM_OPTIONS), None for one that is not
    static."""
    opts = SHELL_PROGRAM_OPTIONS.get(name)
    if not opts:
        return []
    out: list[str | None] = []
    for i, a in enumerate(args):
        if a is None:
            continue
        if a in opts:
            out.append(args[i + 1] if i + 1 < len(args) else "")
        elif any(a.startswith(o + "=") for o in opts if o.startswith("--")):
            out.append(a.split("=", 1)[1])
        elif a.startswith("-s") and not a.startswith("--") and len(a) > 2:
            out.append(a[2:])
    return [o for o in out if o != ""]
#: wrappers that join their command's words with blanks and give them to `sh -c` (watch
#: without -x, parallel and sem: what follows `:::` is appended)
SHELL_JOIN = frozenset({"watch", "parallel", "sem"})
_PARALLEL_VALUED = frozenset({"-j", "--jobs", "-S", "--sshlogin", "-a", "--arg-file", "-d",
                              "--delimiter", "-I", "--colsep", "-C", "-E", "--joblog",
                              "--results", "--tmpdir", "--workdir", "-n", "--max-args", "-N",
                              "-L", "-l", "-P", "--timeout", "--retries", "--id", "--halt",
                              "--memfree", "--load", "--delay", "-s", "--max-chars"})


def shell_text(name: str, args: list[str | None]) -> int | None:
    """Index (into `args`) of the shell command line a wrapper is given as an option's value
    (SHELL_TEXT_OPTIONS: `script -qc TEXT`), -1 when that value is not static, None when it is
    given none."""
    opts = SHELL_TEXT_OPTIONS.get(name)
    if not opts:
        return None
    for i, a in enumerate(args):
        if a is None:
            continue
        if a == "--" and name != "su":
            return None
        hit = a in opts or any(
            o.startswith("--") and a.startswith(o + "=") for o in opts)
        if hit and "=" in a:
            return -2 - i            # the value is in this word, after '='
        short = [o[1] for o in opts if len(o) == 2]
        if not hit and a.startswith("-") and not a.startswith("--") and len(a) > 2:
            hit = a[-1] in short and all(c.isalpha() for c in a[1:])   # `-qc TEXT`
        if hit:
            if i + 1 >= len(args):
                return None
            return i + 1 if args[i + 1] is not None else -1
    return None


#: programs that read ssh's configuration files (the user's ~/.ssh/config, the system's), whose
#: lines can run commands: judged by core/policy/shellparse.py _ssh_config
SSH_CONFIG_READERS = frozenset({"ssh", "scp", "sftp", "autossh", "rsync", "sshfs", "ssh-copy-id"})
_SSH_RUNS = ("proxycommand", "localcommand", "knownhostscommand", "remotecommand")


def ssh_config_lines(text: str) -> list[tuple[str, str]]:
    """(keyword, command) of each line of an ssh configuration that runs a command
    (`ProxyCommand`, `LocalCommand`, `KnownHostsCommand`, `RemoteCommand`, `Match ... exec
    "CMD"`), and ("include", patterns) for each Include; keywords case-insensitive, `Key=value`
    and `Key value` alike."""
    out: list[tuple[str, str]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"([A-Za-z]+)\s*(?:=\s*|\s+)(.*)$", line)
        if not m:
            continue
        key, value = m.group(1).lower(), m.group(2).strip()
        if key in _SSH_RUNS or key == "include":
            out.append((key, value))
        elif key == "match":
            for q in re.finditer(r"""(?i)\bexec\s+(?:"((?:[^"\\]|\\.)*)"|(\S+))""", value):
                out.append(("match exec", q.group(1) if q.group(1) is not None else q.group(2)))
    return out


def ssh_tokens(command: str) -> str:
    """An ssh config command with its `%` tokens (`%h`, `%p`, `%r`, ...) as a plain word and
    `%%` as `%`: the tokens are host names, ports and users, not paths agentdeck knows."""
    return re.sub(r"%(.)", lambda m: "%" if m.group(1) == "%" else "TOKEN", command)


#: programs that start the user's shell when given no command to run; that shell then runs
#: what the line feeds it (`echo CMDS | unshare -r`, `| su`, `| script -q /dev/null`, `|
#: setarch x86_64`), as `| sh` does, and in a session takes what is typed later. Observed
#: here for unshare and setarch/linux64 (util-linux 2.38), script, fakeroot 1.31, su and
#: newgrp (as root), chroot (coreutils 9.1); nsenter, sudo -s/-i, doas -s, firejail, pkexec,
#: runuser, sg and fakechroot say so in their manuals. The value: the options that give it a
#: command as text, and how many operands it takes before a command (-1: none is a command,
#: at most one operand, a user or a group, and no command option makes it a shell)
BARE_SHELLS: dict[str, tuple[tuple[str, ...], int]] = {
    "unshare": ((), 0), "nsenter": ((), 0), "chroot": ((), 1), "fakeroot": ((), 0),
    "fakechroot": ((), 0), "firejail": ((), 0), "pkexec": ((), 0), "setarch": ((), 1),
    "linux32": ((), 0), "linux64": ((), 0), "i386": ((), 0), "x86_64": ((), 0),
    "uname26": ((), 0), "sudo": ((), 0), "doas": ((), 0),
    "su": (("-c", "--command", "--session-command"), -1),
    "runuser": (("-c", "--command", "--session-command", "-u", "--user"), -1),
    "sg": (("-c",), -1), "newgrp": ((), -1),
    "script": (("-c", "--command"), -1),
}
#: options of those that take the next word as their value (not a command or an operand)
_BARE_VALUED = frozenset({"-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w",
                          "--whitelist-environment", "-E", "--echo", "-I", "--log-in", "-O",
                          "--log-out", "-T", "--log-timing", "-B", "--log-io", "-m",
                          "--logging-format", "-t", "--timing"})


def bare_shell(name: str, vals: list) -> bool:
    """Whether `name` run with `vals` (its words after its name) starts the user's shell,
    given no command to run (BARE_SHELLS): sudo and doas only with -s or -i."""
    spec = BARE_SHELLS.get(name)
    if spec is None:
        return False
    command_opts, before = spec
    known = [v for v in vals if v is not None]
    if len(known) < len(vals):
        return False                     # a word not static: unresolved elsewhere
    if name in ("sudo", "doas") and not any(
            v in ("--shell", "--login") or v[:1] == "-" and v[1:2] != "-" and ("s" in v or "i" in v)
            for v in known):
        return False
    for v in known:
        if v in command_opts or any(v.startswith(o + "=") for o in command_opts
                                    if o.startswith("--")) or v[:1] == "-" and v[1:2] != "-" \
                and any(len(o) == 2 and o[1] in v[1:] for o in command_opts):
            return False                 # `su -c CMD`, `script -qc CMD`: it runs CMD
    if name in WRAPPERS and before >= 0:
        return unwrap(name, known) == len(known)     # (its positionals counted: chroot DIR)
    operands, skip = [], False
    for v in known:
        if skip:
            skip = False
        elif v in _BARE_VALUED:
            skip = True
        elif v == "-" or v.startswith("-") and len(v) > 1:
            continue
        else:
            operands.append(v)
    return len(operands) <= max(before, 0) + (1 if before == -1 else 0)


def ssh_command(vals: list[str | None]) -> list[str] | None:
    """The words of the command ssh runs on its host (after its options and the host), which the
    remote shell reads as one line joined with blanks, in the home: [] when it runs none, None
    when a word is not static. On `localhost` (or any name of this machine) that line runs here."""
    values = option_values_at("ssh", vals)
    for i, v in enumerate(vals):
        if i in values:
            continue
        if v is None:
            return None
        if v == "--":
            continue
        if v.startswith("-") and len(v) > 1:
            continue
        rest = vals[i + 1:]
        if any(w is None for w in rest):
            return None
        return [w for w in rest if w is not None]
    return []


def joined_command(name: str, args: list[str | None]) -> tuple[list[str], list[str]] | None:
    """For SHELL_JOIN wrappers: (command words, words appended to it), None when a word is not
    static; ([], []) when the program runs no command of its own (`watch -x` is a plain
    wrapper, see WRAPPERS)."""
    i = 0
    valued = WRAPPERS["watch"][0] if name == "watch" else _PARALLEL_VALUED
    while i < len(args):
        a = args[i]
        if a is None:
            return None
        if a == "--":
            i += 1
            break
        if a.startswith("-") and len(a) > 1:
            i += 2 if a in valued else 1
            continue
        break
    cmd: list[str] = []
    extra: list[str] = []
    seps = (":::", "::::", ":::+", "::::+")
    target = cmd
    for a in args[i:]:
        if a is None:
            return None
        if name != "watch" and a in seps:
            target = extra
            continue
        target.append(a)
    return cmd, extra


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
    takes = {"-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s", "--arg-file",
             "--delimiter", "--max-args", "--max-procs", "--max-chars", "--eof",
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


def xargs_replace(args: list[str | None]) -> str | None:
    """The text xargs replaces with each input line in its command's words (`-I R`, `-IR`,
    `-i`/`-iR`, `--replace[=R]`; `{}` by default), None without one."""
    rest = xargs_command(args)
    for i, a in enumerate(args[:rest if rest is not None else len(args)]):
        if a is None:
            continue
        if a == "-I":
            return args[i + 1] if i + 1 < len(args) and args[i + 1] else None
        if a.startswith("-I"):
            return a[2:]
        if a == "-i" or a == "--replace":
            return "{}"
        if a.startswith("-i") and not a.startswith("--"):
            return a[2:]
        if a.startswith("--replace="):
            return a.split("=", 1)[1] or "{}"
    return None


def shebang_program(text: str) -> str:
    """The program a script's `#!` line names (`#!/usr/bin/env python3` -> python3), or ""."""
    first = text.split("\n", 1)[0]
    if not first.startswith("#!"):
        return ""
    prog = first[2:].strip().split()
    if not prog:
        return ""
    name = prog[0].rsplit("/", 1)[-1]
    if name == "env":
        rest = [w for w in prog[1:] if not w.startswith("-")]
        name = rest[0] if rest else ""
    return name


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


# ---- outputs: files a program writes that an option or a later operand names --------------------
#: program -> (options whose value is a file it writes, the flags of its modes in which that
#: option names a file it only reads): `sort -o F`, `curl -o F`, `ssh-keygen -f F` (which also
#: writes F.pub), `gpg -o F`, `openssl ... -out F`, `cc -o F`, ...
OUTPUT_OPTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "sort": (("-o", "--output"), ()), "shuf": (("-o", "--output"), ()),
    "curl": (("-o", "--output", "-c", "--cookie-jar", "-D", "--dump-header", "--trace",
              "--trace-ascii", "--stderr", "--etag-save", "--libcurl", "--hsts", "--alt-svc"), ()),
    "wget": (("-O", "--output-document", "-o", "--output-file", "-a", "--append-output",
              "--hsts-file", "--rejected-log",
              "--save-cookies", "--warc-file"), ()),
    "ssh-keygen": (("-f",), ("-l", "-y", "-L", "-B", "-F", "-D", "-e", "-i", "-Y", "-Q")),
    "ssh": (("-E",), ()), "openssl": (("-out", "-keyout", "-writerand"), ()),
    "gpg": (("-o", "--output"), ()), "gpg2": (("-o", "--output"), ()),
    "iconv": (("-o", "--output"), ()), "pandoc": (("-o", "--output"), ()),
    "cc": (("-o",), ()), "gcc": (("-o",), ()), "g++": (("-o",), ()), "c++": (("-o",), ()),
    "clang": (("-o",), ()), "clang++": (("-o",), ()), "ld": (("-o",), ()),
    "rustc": (("-o",), ()), "go": (("-o",), ()), "zstd": (("-o",), ()),
    "git": (("--output",), ()), "sdiff": (("-o", "--output"), ()),
    "patch": (("-o", "--output", "-r", "--reject-file"), ()),
    "uudecode": (("-o", "--output-file"), ()), "ncat": (("-o", "--output", "-x", "--hex-dump"), ()),
    "tcpdump": (("-w",), ()), "rsync": (("--log-file", "--write-batch", "--only-write-batch"), ()),
    "csplit": (("-f", "--prefix"), ()), "age": (("-o", "--output"), ()),
    "xxd": ((), ()), "base64": ((), ()),
}
#: options whose value is a file NAME PREFIX the program writes files under (csplit -f P: P00..)
PREFIX_OPTIONS = frozenset({("csplit", "-f"), ("csplit", "--prefix")})
#: program -> which of its operands it writes (0-based among its operands; -1: the last, when
#: there are two or more): `uniq IN OUT`, `split IN PREFIX` (a prefix: PREFIXaa, ...), `xxd IN
#: OUT`, `lz4 IN OUT`
OUTPUT_OPERANDS: dict[str, int] = {"uniq": 1, "split": 1, "xxd": 1, "lz4": 1, "ffmpeg": -1,
                                   "convert": -1, "magick": -1}
PREFIX_OPERANDS = frozenset({"split"})
#: compressors that replace FILE by FILE.gz (or the other way) in place, unless one of these
#: flags sends the output to stdout or only tests or lists
IN_PLACE: dict[str, tuple[str, ...]] = {
    n: ("-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list", "-h", "--help",
        "-V", "--version")
    for n in ("gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "lzma", "unlzma", "zstd",
              "unzstd", "lz4", "unlz4", "lzip", "pigz", "unpigz", "pbzip2", "compress",
              "uncompress", "brotli", "zopfli")
}


def _option_values(vals: list, options: tuple[str, ...]) -> list[str]:
    """The values given to `options` in `vals`: `-o F`, `-oF`, `--output F`, `--output=F`, and a
    short option last in a group (`-sSLo F`)."""
    out: list[str] = []
    longs = tuple(o for o in options if o.startswith("--") or len(o) > 2)
    shorts = "".join(o[1] for o in options if len(o) == 2 and o[0] == "-")
    i = 0
    while i < len(vals):
        v = vals[i]
        nxt = vals[i + 1] if i + 1 < len(vals) else None
        if v is None or not v.startswith("-") or v in ("-", "--"):
            i += 1
            continue
        if v in longs:
            if nxt is not None:
                out.append(nxt)
            i += 2
            continue
        if v.startswith("--") or len(v) > 2 and any(v.startswith(o + "=") for o in longs):
            for o in longs:
                if v.startswith(o + "="):
                    out.append(v[len(o) + 1:])
            i += 1
            continue
        if shorts and not any(v.startswith(o) for o in longs):
            for j, c in enumerate(v[1:], 1):
                if c in shorts:
                    if j == len(v) - 1:
                        if nxt is not None:
                            out.append(nxt)
                        i += 1
                    else:
                        out.append(v[j + 1:])
                    break
        i += 1
    return out


def output_writes(name: str, vals: list, operands: list[str]) -> list[tuple[str, str]]:
    """(path, kind) each file a program writes that an option or a later operand names, kind
    "file", "prefix" (files named PATH + a suffix), "tree" (a folder it fills with files it
    names itself: `wget -r -P DIR`) or "new-tree" (a folder it makes, holding what it brings:
    `git clone URL DIR`; its `.git` for `git init DIR`). Data for core/policy/paths.py, so a
    write named only by an option or operand (`sort -o`, `curl -o`, `ssh-keygen -f`, `uniq IN
    OUT`, `split`) is judged like a redirection."""
    known = [v for v in vals if v is not None]
    flags = {f for v in known if v.startswith("-") and not v.startswith("--") for f in
             ("-" + c for c in v[1:])} | {v.split("=", 1)[0] for v in known if v.startswith("--")}
    out: list[tuple[str, str]] = []
    spec = OUTPUT_OPTIONS.get(name)
    if spec and not (flags & set(spec[1])):
        for v in _option_values(vals, spec[0]):
            if v and v != "-":
                kind = "prefix" if any((name, o) in PREFIX_OPTIONS for o in spec[0]) else "file"
                out.append((v, kind))
                if name == "ssh-keygen":
                    out.append((v + ".pub", "file"))
    idx = OUTPUT_OPERANDS.get(name)
    if name == "split":     # `--additional-suffix=.json` is no operand (`=` values are kept)
        operands = [v for v in split_operands(vals) if v is not None]
    if idx is not None and (idx >= 0 and len(operands) > idx or idx < 0 and len(operands) >= 2):
        w = operands[idx]
        if w != "-":
            out.append((w, "prefix" if name in PREFIX_OPERANDS else "file"))
    if name == "split" and len(operands) < 2:
        out.append(("x", "prefix"))
    if name == "git":
        sub = _git_subcommand(vals)
        rest = [v for v in operands if v != sub]
        if sub == "init":
            out.append(((rest[0] if rest else ".") + "/.git", "new-tree"))
        elif sub == "clone" and rest:
            dest = rest[1] if len(rest) > 1 else rest[0].rstrip("/").rsplit("/", 1)[-1].rsplit(
                ":", 1)[-1].removesuffix(".git")
            out.append((dest or ".", "new-tree"))
    if name == "git":
        out += _git_outputs(vals, operands)
    if name in ("sed", "gsed", "perl"):
        out += [(b, "file") for b in _inplace_backups(name, vals, operands)]
    if name == "ldconfig" and not flags & {"-p", "--print-cache", "-N", "--help", "-V",
                                           "--version", "-?", "--usage"}:
        # the loader's cache, rebuilt from the folders it is given (red team round 8: then
        # every program loads its libraries from them)
        out.append((next(iter(_option_values(vals, ("-C",))), "/etc/ld.so.cache"), "file"))
    if name == "iconvconfig" and not flags & {"--help", "-?", "--usage", "-V", "--version"}:
        # glibc's converter cache, rebuilt from the folders it is given (red team round 10)
        out.append((next(iter(_option_values(vals, ("-o", "--output"))), "/usr/lib/"
                         "x86_64-linux-gnu/gconv/gconv-modules.cache"), "file"))
    if name == "history" and flags & {"-w", "-a"} and operands:
        out.append((operands[0], "file"))       # history -w FILE: the list written to FILE
    if name in ("wget", "curl"):
        prefix = next(iter(_option_values(vals, ("-P", "--directory-prefix", "--output-dir"))),
                      ".")
        urls = [v for v in operands if "://" in v or v.startswith(("www.", "ftp."))]
        if name == "wget" and flags & {"-r", "--recursive", "-m", "--mirror", "-p",
                                       "--page-requisites"}:
            out.append((prefix, "tree"))
        elif name == "wget" and not _option_values(vals, ("-O", "--output-document")) or (
                name == "curl" and flags & {"-O", "--remote-name", "--remote-name-all"}):
            for u in urls:
                path = u.split("://", 1)[-1].split("?", 1)[0].split("#", 1)[0]
                base = path.rsplit("/", 1)[-1] if "/" in path else ""
                out.append((prefix.rstrip("/") + "/" + (base or "index.html"), "file"))
    return out


def _inplace_backups(name: str, vals: list, operands: list[str]) -> list[str]:
    """The backups `sed -iSUF` / `perl -iSUF` keep of each file they edit: FILE + SUF, or, when
    SUF holds `*`, SUF with each `*` the file's name (in the file's folder unless SUF holds a
    `/`: `sed -i'~/.claude/*' -n p settings.json` keeps the old file at
    ~/.claude/settings.json)."""
    takes = _spec_takes(short_options(name) or "")
    suffix = ""
    for v in vals:
        if v is None or not v.startswith("-") or v == "-":
            continue
        if v.startswith("--in-place="):
            suffix = v.split("=", 1)[1]
            continue
        if v.startswith("--"):
            continue
        for k, c in enumerate(v[1:]):
            if c == "i":
                suffix = v[k + 2:]
                break
            if takes.get(c) in (":", "::"):
                break
    if not suffix:
        return []
    out = []
    for op in operands:
        if op == "-":
            continue
        if "*" in suffix:
            b = suffix.replace("*", posixpath.basename(op))
            out.append(b if "/" in b else posixpath.join(posixpath.dirname(op), b))
        else:
            out.append(op + suffix)
    return out


#: git subcommand -> (options whose value is a file it writes, options whose value is a folder
#: it fills with files it names itself, patches and reports): `git archive -o F`, `git format-patch -o DIR`,
#: `git fast-export --export-marks=F`, `git config -f F` (when it sets a value)
GIT_OUTPUTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "archive": (("-o", "--output"), ()), "format-patch": ((), ("-o", "--output-directory")),
    "fast-export": (("--export-marks",), ()), "fast-import": (("--export-marks",), ()),
    "config": (("-f", "--file"), ()), "bugreport": ((), ("-o", "--output-directory")),
    "diagnose": ((), ("-o", "--output-directory")),
}
#: the forms of `git config` that only read (its -f FILE is then no write); `git bundle create
#: F` and `git pack-objects BASE` (BASE-<hash>.pack and .idx: a prefix) name theirs as operands
_GIT_CONFIG_READS = ("--get", "--get-all", "--get-regexp", "-l", "--list", "get", "list")


def _git_outputs(vals: list, operands: list[str]) -> list[tuple[str, str]]:
    sub = _git_subcommand(vals)
    if sub is None:
        return []
    known = [v for v in vals if v is not None]
    after = known[known.index(sub) + 1:] if sub in known else []
    out: list[tuple[str, str]] = []
    files, trees = GIT_OUTPUTS.get(sub, ((), ()))
    if sub == "config" and any(v in _GIT_CONFIG_READS for v in after):
        files = ()
    out += [(v, "file") for v in _option_values(after, files) if v and v != "-"]
    # its files are named NNNN-subject.patch (a report's, by date): a folder of known kinds
    out += [(v, "new-tree") for v in _option_values(after, trees) if v]
    rest = [v for v in after if not v.startswith("-")]
    if sub == "bundle" and len(rest) >= 2 and rest[0] == "create" and rest[1] != "-":
        out.append((rest[1], "file"))
    if sub == "pack-objects" and rest and "--stdout" not in after:
        out.append((rest[0] + "-", "prefix"))
    return out


#: variables that name a file a program writes (git's trace files, TLS key logs): a value that
#: is a path (not a number or a switch) is a write of that file by the command given it
OUTPUT_VARS = frozenset({
    "GIT_TRACE", "GIT_TRACE_PACKET", "GIT_TRACE_PACK_ACCESS", "GIT_TRACE_PERFORMANCE",
    "GIT_TRACE_SETUP", "GIT_TRACE_SHALLOW", "GIT_TRACE_CURL", "GIT_TRACE_REFS",
    "GIT_TRACE_FSMONITOR", "GIT_TRACE2", "GIT_TRACE2_EVENT", "GIT_TRACE2_PERF",
    "SSLKEYLOGFILE", "GIT_TRACE_REDACT",
})
_NOT_A_FILE = frozenset({"", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "true", "false",
                         "yes", "no", "on", "off"})


def output_var_file(var: str, value: str | None) -> str | None:
    """The file a variable of OUTPUT_VARS names ("" when it names none, None when its value is
    not static)."""
    if var not in OUTPUT_VARS or var == "GIT_TRACE_REDACT":
        return ""
    if value is None:
        return None
    return "" if value.lower() in _NOT_A_FILE else value


def role(name: str, flags: set[str]) -> str:
    if name in IN_PLACE:
        return "read" if flags & set(IN_PLACE[name]) else "rw"
    if name in MENTION:
        return "mention"
    if name in META:
        return "meta"
    if name == "sed" or name == "perl":
        return "rw" if any(f == "-i" or f.startswith(("-i", "--in-place")) for f in flags) \
            else "read"
    if name == "yq":        # `yq -i EXPR FILE` (both yq's) writes FILE
        return "rw" if flags & {"-i", "--inplace", "--in-place"} else "read"
    if name == "socat":     # an address of a file (OPEN:, GOPEN:, CREATE:, FILE:) is read and
        return "rw"         # written: socat carries data both ways
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


#: recursive searchers that search their working folder when given no path (GNU grep -r, rg,
#: ag, ack, git grep): the first operand is the pattern unless an option gives it
SEARCHERS = frozenset({"grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack"})
_PATTERN_OPTIONS = frozenset({"-e", "--regexp", "-f", "--file"})


def searches_working_folder(name: str, flags: set[str], operands: list[str | None]) -> bool:
    """Whether a recursive search (`grep -r x`, `rg x`, `git grep x`) names no folder and so
    reads its working folder, everything below it."""
    ops = list(operands)
    if name == "git":
        if _git_subcommand(ops) != "grep":
            return False
        ops = ops[ops.index("grep") + 1:]
    elif name not in SEARCHERS:
        return False
    if not flags & _PATTERN_OPTIONS:
        ops = ops[1:]
    return not ops


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


def git_subcommand_at(vals: list) -> int | None:
    """The index in `vals` (git's words after its name) of its subcommand, None when it is not
    known."""
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
        return i
    return None


def _git_subcommand(vals: list) -> str | None:
    at = git_subcommand_at(vals)
    return None if at is None else vals[at]


def _git_work_tree(vals: list) -> str | None:
    """The work tree git is told to act on (`--work-tree DIR`, `--work-tree=DIR`, `-c
    core.worktree=DIR`, before its subcommand), or None: its -C folder or the working folder."""
    sub = _git_subcommand(vals)
    out: str | None = None
    for i, v in enumerate(vals):
        if v is None or v == sub:
            break
        nxt = vals[i + 1] if i + 1 < len(vals) else None
        if v == "--work-tree" and nxt is not None:
            out = nxt
        elif v.startswith("--work-tree="):
            out = v.split("=", 1)[1]
        elif v == "-c" and nxt is not None and nxt.lower().startswith("core.worktree="):
            out = nxt.split("=", 1)[1]
    return out


#: git subcommands that bring files into the working tree from somewhere the command line does
#: not spell out (a branch, a remote, a stash, a mailbox, the index), -> the options that make
#: them write nothing there (a branch made at HEAD, the index alone, a listing). Their files are
#: not known at decision time: a tree of files not known written in the work tree
#: (core/policy/paths.py, unresolved where a protected path may lie under it)
GIT_TREE_BRINGERS: dict[str, frozenset[str]] = {
    "checkout": frozenset(), "switch": frozenset(), "pull": frozenset({"--dry-run"}),
    "merge": frozenset({"--abort", "--quit"}), "rebase": frozenset({"--quit", "--show-current-patch"}),
    "cherry-pick": frozenset({"--quit"}), "revert": frozenset({"--quit"}),
    "reset": frozenset(), "stash": frozenset(), "am": frozenset({"--show-current-patch", "--quit"}),
    "restore": frozenset(), "read-tree": frozenset(), "checkout-index": frozenset(),
    "worktree": frozenset(), "filter-branch": frozenset(), "sparse-checkout": frozenset(),
    "bisect": frozenset(),
}
#: `git checkout`/`switch` options that take a value (a branch name, a conflict style)
_GIT_CHECKOUT_VALUED = frozenset({"-b", "-B", "--orphan", "-c", "-C", "--create",
                                  "--force-create", "--conflict"})


def git_tree_write(vals: list) -> tuple[str | None, str, list[str]] | None:
    """What a git command brings into the working tree, as (work tree folder or None for its
    -C folder / the working folder, kind, paths): kind "tree" (files not known: a branch's,
    a remote's, a stash's), "paths" (the pathspec it writes, relative to the work tree) or
    "maybe-paths" (`git checkout A B`: A is a path when it exists, else a commit, and the rest
    are paths). None when it writes nothing there (`git status`, `git checkout -b new`,
    `git reset` without --hard, `git stash list`, `git restore --staged f`)."""
    sub = _git_subcommand(vals)
    if sub not in GIT_TREE_BRINGERS:
        return None
    wt = _git_work_tree(vals)
    known = [v for v in vals if v is not None]
    rest = known[known.index(sub) + 1:] if sub in known else []
    if any(v in GIT_TREE_BRINGERS[sub] for v in rest):
        return None
    if any(v.startswith("--pathspec-from-file") for v in rest):
        return wt, "tree", []
    dashdash = rest.index("--") if "--" in rest else -1
    after = rest[dashdash + 1:] if dashdash >= 0 else []
    before = rest[:dashdash] if dashdash >= 0 else rest
    ops: list[str] = []
    skip = False
    for v in before:
        if skip:
            skip = False
            continue
        if v in _GIT_CHECKOUT_VALUED and sub in ("checkout", "switch"):
            skip = True
            ops.append("\0new")                  # a branch it makes: not a commit to bring
            continue
        if not v.startswith("-"):
            ops.append(v)
    made = "\0new" in ops
    ops = [o for o in ops if o != "\0new"]
    if sub in ("checkout", "switch"):
        if after:       # `git checkout REV -- PATHS`: REV's files under PATHS
            return wt, "commit-paths" if ops and not made else "paths", after
        if made and not ops:
            return None                           # a branch made at HEAD: the tree stays
        if sub == "checkout" and ops and not made:
            return wt, "maybe-paths", ops
        return wt, "tree", []
    if sub == "restore":
        if "--staged" in rest or "-S" in rest:
            if not any(v in ("--worktree", "-W") for v in rest):
                return None                       # the index alone
        source = any(v.startswith(("--source", "-s")) for v in rest)
        if source:      # `-s REV`: its value is not a path
            i = next(i for i, v in enumerate(before) if v.startswith(("--source", "-s")))
            if before[i] in ("--source", "-s") and i + 1 < len(before) and before[i + 1] in ops:
                ops.remove(before[i + 1])
        kind = "commit-paths" if source else "paths"
        return (wt, kind, after or ops) if (after or ops) else (wt, "tree", [])
    if sub == "reset":
        return (wt, "tree", []) if any(v in ("--hard", "--merge", "--keep") for v in rest) else None
    if sub == "stash":
        action = next((v for v in rest if not v.startswith("-")), "push")
        return (wt, "tree", []) if action in ("pop", "apply", "branch") else None
    if sub == "read-tree":
        return (wt, "tree", []) if any(v in ("-u", "--reset") for v in rest) else None
    if sub == "checkout-index":
        if any(v in ("-a", "--all", "--stdin") for v in rest):
            return wt, "tree", []
        return (wt, "paths", after or ops) if (after or ops) else None
    if sub == "worktree":
        if not ops or ops[0] != "add":
            return None
        return (ops[1], "tree", []) if len(ops) > 1 else None
    if sub == "bisect":
        action = ops[0] if ops else ""
        return (wt, "tree", []) if action in ("start", "good", "bad", "new", "old", "reset",
                                              "skip", "run", "replay") else None
    if sub == "sparse-checkout":
        return (wt, "tree", []) if ops and ops[0] != "list" else None
    return wt, "tree", []


def git_reads_tree(vals: list) -> bool:
    """Whether git copies every file of its work tree into its object store: `add -A|-u|.|:/`,
    `commit -a`, `stash -u|-a` (their short options in any cluster)."""
    at = git_subcommand_at(vals)
    if at is None:
        return False
    sub, rest = vals[at], [v for v in vals[at + 1:] if v is not None]
    short = {c for v in rest if v.startswith("-") and not v.startswith("--") for c in v[1:]}
    if any(v.startswith("--pathspec-from-file") for v in rest) and sub in ("add", "commit",
                                                                            "stash"):
        return True             # the paths are read from a file or stdin: not known here
    if sub == "add":
        return bool(short & {"A", "u"}) or bool({"--all", "--update", ".", ":/", "*"} & set(rest))
    if sub == "commit":
        return "a" in short or "--all" in rest
    if sub == "stash":
        return bool(short & {"u", "a"}) or bool({"--include-untracked", "--all"} & set(rest))
    return False


def git_folder(vals: list) -> str | None:
    """The folder git acts on by `-C DIR` (the last one; relative ones joined), or None."""
    out: str | None = None
    sub = _git_subcommand(vals)
    for i, v in enumerate(vals[:-1]):
        if v == sub:
            break
        if v == "-C" and vals[i + 1] is not None:
            out = vals[i + 1] if out is None or vals[i + 1].startswith("/") else \
                out.rstrip("/") + "/" + vals[i + 1]
    return out


def _git_rewrites_tree(sub: str, vals: list) -> bool:
    """Whether a git subcommand of GIT_TREE_WRITERS changes the files of the work tree itself
    (beyond what git_tree_write brings): `git clean`, `git rm`, `git mv`, `git stash` (push);
    not a dry run (`clean -n`), nor one git_tree_write says leaves the tree as it is (`switch -c
    new`, `stash list`, `reset` without --hard, `restore --staged`)."""
    known = [v for v in vals if v is not None]
    rest = known[known.index(sub) + 1:] if sub in known else []
    if sub in ("rm", "mv"):
        return False            # its operands (side_writes), and with --cached the index alone
    if sub == "clean":
        return not any(v in ("-n", "--dry-run") or v.startswith("-") and not v.startswith("--")
                       and "n" in v[1:] for v in rest)
    if sub not in GIT_TREE_BRINGERS:
        return True
    if git_tree_write(vals) is not None:
        return False
    if sub == "stash":      # push (the default) and save put the work tree back at HEAD
        action = next((v for v in rest if not v.startswith("-")), "push")
        return action in ("push", "save")
    return False


def side_writes(name: str, vals: list) -> list[tuple[str, bool]]:
    """(where, recursive) each write a program makes as a side effect of its options: "." is
    the folder it acts on (its -C DIR or the working folder), OPERANDS its operands, else a
    path it names. Data for core/policy/paths.py (used on a write-protected tree,
    `git clean`, `tar --remove-files`, `find -delete`, `unzip -o`, `cp -t DIR` got through)."""
    known = [v for v in vals if v is not None]
    out: list[tuple[str, bool]] = []
    sub = _git_subcommand(vals) if name == "git" else None
    if sub in GIT_TREE_WRITERS and _git_rewrites_tree(sub, vals):
        # (what a branch, a remote or a stash brings is git_tree_write's: files not known)
        out.append((_git_work_tree(vals) or ".", True))
    elif sub in ("rm", "mv") and "--cached" not in known:
        out.append((OPERANDS, True))
    elif name in ("tar", "bsdtar", "gtar"):
        # (what tar -x writes is extraction's: its members where they land)
        if "--remove-files" in known:
            out.append((OPERANDS, True))
    elif name == "find":
        if "-delete" in known:
            out.append((OPERANDS, True))
        for i, v in enumerate(known):
            if v in ("-fprint", "-fprint0", "-fprintf", "-fls") and i + 1 < len(known):
                out.append((known[i + 1], False))
    elif name in ("unzip", "7z", "7za", "cpio", "pax", "ar", "jar") and extraction(name, vals) is None:
        d = next((known[i + 1] for i, v in enumerate(known) if v in ("-d", "-o") and i + 1 < len(known)
                  and name == "unzip" and v == "-d"), None)
        out.append((d or ".", True))
    if name == "rsync" and any(v.startswith("--delete") or v == "--remove-source-files"
                               for v in known):
        out.append((OPERANDS, True))
    out += [(p, False) for p in decompressed(name, vals)]
    if sub == "merge-file":          # the merge is written over its first file (unless -p)
        ops = [v for v in known[known.index("merge-file") + 1:] if not v.startswith("-")]
        if ops and not {"-p", "--stdout"} & set(known):
            out.append((ops[0], False))
    elif sub == "credential-store":
        out += [(v, False) for v in _option_values(vals, ("--file",))]
    return out


#: decompressors and the suffixes they strip: each operand's file without it is written
#: (`gunzip -f ~/.claude/settings.json.gz` writes ~/.claude/settings.json); a name stored in the
#: archive (`gunzip -N`) is not read here (runs_code: unresolved)
DECOMPRESSORS: dict[str, tuple[str, ...]] = {
    **{n: (".gz", ".z", ".tgz", "-gz", "_z") for n in ("gunzip", "unpigz")},
    **{n: (".bz2", ".bz", ".tbz2", ".tbz") for n in ("bunzip2",)},
    **{n: (".xz", ".lzma", ".txz") for n in ("unxz", "unlzma")},
    "unzstd": (".zst", ".zstd"), "unlz4": (".lz4",), "uncompress": (".Z",), "lunzip": (".lz",),
}
#: compressors that decompress with -d (and their suffixes)
_DECOMPRESS_FLAG = {"gzip": "gunzip", "pigz": "unpigz", "bzip2": "bunzip2", "xz": "unxz",
                    "lzma": "unlzma", "zstd": "unzstd", "lz4": "unlz4", "lzip": "lunzip",
                    "brotli": "unbrotli", "lzop": "unlzop"}
DECOMPRESSORS.update({"unbrotli": (".br",), "unlzop": (".lzo",)})


def decompressed(name: str, vals: list) -> list[str]:
    """The files a decompressor writes: each operand with its suffix taken off (none with -c,
    -t, -l or --stdout; a name with no suffix it knows is written as given with `.out` for lz4,
    zstd and brotli, whose output name is then not the operand's)."""
    known = [v for v in vals if v is not None]
    flags = {c for v in known if v.startswith("-") and not v.startswith("--") for c in v[1:]}
    longs = {v.split("=", 1)[0] for v in known if v.startswith("--")}
    kind = name if name in DECOMPRESSORS else _DECOMPRESS_FLAG.get(name) if (
        "d" in flags or {"--decompress", "--uncompress"} & longs) else None
    if kind is None or flags & {"c", "t", "l"} or {"--stdout", "--to-stdout", "--test",
                                                    "--list"} & longs:
        return []
    custom = _option_values(vals, ("-S", "--suffix"))      # gzip -d -S .x F.x writes F
    skip = {known[i + 1] for i, v in enumerate(known[:-1]) if v in ("-S", "--suffix")}
    ops = [v for v in known if not v.startswith("-") and v not in skip]
    out = []
    for v in ops:
        suf = next((x for x in tuple(custom) + DECOMPRESSORS[kind]
                    if x and v.endswith(x) and len(v) > len(x)), None)
        if suf:
            out.append(v[:-len(suf)] + (".tar" if suf.startswith((".t", "-t")) and len(suf) > 3
                                        else ""))
    return out


# ---- archive extraction: a whole tree written ------------------------------------------------------
_TAR_NAMES = frozenset({"tar", "bsdtar", "gtar"})


def _tar_mode_flags(known: list[str]) -> tuple[set[str], str | None]:
    """tar's short flags (from `-xzf`, an old-style first word `xzf`, `-x -f`) and its archive
    (the value of f / --file)."""
    flags: set[str] = set()
    archive: str | None = None
    for i, v in enumerate(known):
        nxt = known[i + 1] if i + 1 < len(known) else None
        if v.startswith("--"):
            flags.add(v.split("=", 1)[0])
            if v.startswith("--file="):
                archive = v.split("=", 1)[1]
            elif v == "--file":
                archive = nxt
            continue
        group = v[1:] if v.startswith("-") else (v if i == 0 else "")
        for j, c in enumerate(group):
            flags.add("-" + c)
            if c == "f":
                rest = group[j + 1:]
                archive = rest if rest and v.startswith("-") else nxt
                break
            if c == "C":
                break
    return flags, archive


def extraction(name: str, vals: list) -> tuple[str | None, str | None, bool] | None:
    """(folder, archive, may climb) when `name` extracts an archive: the folder it writes into
    (None: the working folder), the archive file (None: its standard input, or not known), and
    whether a member may name an absolute path or climb out with `..` and be written there
    (`tar -P`/`--absolute-names`, `unzip -:`, cpio without --no-absolute-filenames, jar, pax).
    None when it does not extract (lists, tests, or extracts to standard output)."""
    known = [v for v in vals if v is not None]
    ops = [v for v in known if not v.startswith("-")]

    def value(opts: tuple[str, ...]) -> str | None:
        got = _option_values(vals, opts)
        return got[-1] if got else None

    if name in _TAR_NAMES:
        flags, archive = _tar_mode_flags(known)
        if not (flags & {"-x", "--extract", "--get"}) or flags & {"-O", "--to-stdout", "-t",
                                                                   "--list"}:
            return None
        return (value(("-C", "--directory")), archive,
                bool(flags & {"-P", "--absolute-names"}))
    if name == "unzip":
        if any(v in ("-l", "-t", "-v", "-Z", "-p", "-c", "-z", "-T") for v in known):
            return None
        skip = set(_option_values(vals, ("-d", "-x")))
        archive = next((v for v in ops if v not in skip), None)
        return value(("-d",)), archive, "-:" in known
    if name in ("7z", "7za", "7zr"):
        if not ops or ops[0] not in ("x", "e"):
            return None
        dest = next((v[2:] for v in known if v.startswith("-o") and len(v) > 2), None)
        return dest, ops[1] if len(ops) > 1 else None, "-spf" in known or "-spf2" in known
    if name == "cpio":
        if not any(v in ("-i", "--extract") or (v.startswith("-") and not v.startswith("--")
                                                and "i" in v[1:]) for v in known):
            return None
        return (value(("-D", "--directory")), value(("-F", "-I", "--file")),
                "--no-absolute-filenames" not in known)
    if name in ("ar", "jar"):
        if not ops or "x" not in ops[0].lstrip("-"):
            return None
        if name == "ar":
            return None, ops[1] if len(ops) > 1 else None, False
        return None, ops[1] if "f" in ops[0] and len(ops) > 1 else None, True
    if name == "pax":
        if "-r" not in known:
            return None
        return None, value(("-f",)), True
    if name == "dpkg-deb":             # dpkg-deb -x DEB DIR (and -X, -R, --extract, ...)
        modes = ("-x", "--extract", "-X", "--vextract", "-R", "--raw-extract")
        if not any(v in modes for v in known):
            return None
        return (ops[1] if len(ops) > 1 else None), (ops[0] if ops else None), False
    if name in ("unrar", "rar"):       # unrar x|e ARCHIVE [FILES] [DEST/]
        if not ops or ops[0] not in ("x", "e"):
            return None
        dest = ops[-1] if len(ops) > 2 and ops[-1].endswith("/") else None
        return dest, ops[1] if len(ops) > 1 else None, False
    if name == "unar":                 # unar [-o DIR] ARCHIVE
        skip = set(_option_values(vals, ("-o", "-output-directory", "-p", "-password",
                                         "-e", "-encoding")))
        archive = next((v for v in ops if v not in skip), None)
        return value(("-o", "-output-directory")), archive, False
    return None


# ---- patches: the files a patch names -----------------------------------------------------------
_PATCH_NAME = (r"^(?:\+\+\+|---) (?P<a>\S+)|^diff --git (?P<b>\S+) (?P<c>\S+)"
               r"|^(?:rename|copy) to (?P<d>.+)$")


def patch_application(name: str, vals: list) -> tuple[str | None, int | None, str | None, bool] | None:
    """(patch file, components to strip, folder, may climb) when `name` applies a patch whose
    text names the files it writes (`git apply`, `patch` without a file operand): the patch
    file (None: standard input), -pN (None: patch's default, the name's last component), the
    folder it applies in (--directory / -d), and whether a name may climb out of it (`git apply
    --unsafe-paths`). None otherwise (`git apply --check`/`--stat` write nothing)."""
    known = [v for v in vals if v is not None]
    strip: int | None = None
    for v in _option_values(vals, ("-p", "--strip")):
        if v.isdigit():
            strip = int(v)
    if name == "git":
        if _git_subcommand(vals) != "apply":
            return None
        if any(v in ("--check", "--stat", "--numstat", "--summary") for v in known) and \
                "--apply" not in known:
            return None
        ops = [v for v in known if not v.startswith("-") and v != "apply"]
        folder = next((v.split("=", 1)[1] for v in known if v.startswith("--directory=")), None)
        return (ops[0] if ops else None, 1 if strip is None else strip, folder,
                "--unsafe-paths" in known)
    if name == "patch":
        given = _option_values(vals, ("-i", "--input"))
        skip = option_values_at(name, vals)
        ops = [v for i, v in enumerate(vals) if v is not None and not v.startswith("-")
               and i not in skip and v not in given]
        if ops and not given:
            return None                  # patch FILE [PATCH]: the operands are what it writes
        folder = next(iter(_option_values(vals, ("-d", "--directory"))), None)
        return (given[0] if given else None, strip, folder, True)
    return None


def patch_names(text: str, strip: int | None) -> list[str]:
    """The file names a unified or git patch text writes, -pN applied."""
    import re   # local: only when a patch is applied (the handler's pre-tool path has re)

    out: list[str] = []
    for m in re.finditer(_PATCH_NAME, text, re.M):
        for n in (m.group("a"), m.group("c"), m.group("d")):
            if not n or n == "/dev/null":
                continue
            parts = n.strip().split("/")
            if strip is None:
                out.append(parts[-1])
            elif len(parts) > strip:
                out.append("/".join(parts[strip:]) if strip else n.strip())
    return out


#: options that make a program run code given as text (its own shell or interpreter): the
#: resolver cannot see into it (sed's e, a git alias with !, tar's checkpoint action)
_GIT_CODE_KEYS = ("alias.", "core.pager", "core.editor", "core.sshcommand", "core.fsmonitor",
                  "core.hookspath", "diff.external", "sequence.editor", "credential.helper",
                  "pager.", "filter.", "gpg.program", "core.askpass", "uploadpack.", "remote.",
                  "core.alternaterefscommand", "trailer.", "man.", "gpg.ssh.", "submodule.")
#: git -c keys that load more configuration, or programs and templates, from a file
GIT_LOADED_KEYS = ("include.", "includeif.", "core.attributesfile", "init.templatedir",
                   "core.gitproxy", "core.hookspath")
_TAR_CODE = ("--checkpoint-action", "--to-command", "--use-compress-program", "--info-script",
             "--new-volume-script", "--rsh-command", "-I", "-F")


#: programs that send their output to a command when an output option's value starts with `|`
#: or `!` (`strace -o '|CMD'`): the command is not followed
PIPED_OUTPUT: dict[str, tuple[str, ...]] = {
    "strace": ("-o", "--output"), "ltrace": ("-o", "--output"),
}
#: programs that read a configuration file an option names whose lines run commands (ssh's
#: `Match exec`, `ProxyCommand`, `LocalCommand`, `KnownHostsCommand`), and the values that name
#: no file
CONFIG_RUNS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    n: (("-F",), ("none", "/dev/null")) for n in ("ssh", "scp", "sftp", "autossh")
}
#: programs whose own language runs shell commands (dc's `!`, m4's syscmd and esyscmd): the
#: options that give the program as text, the options that take another value, and the words
#: that run a command in it. A program given as text without one runs none; a program read from
#: a file or from the input is code agentdeck does not read
SHELL_ESCAPES: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "dc": (("-e", "--expression"), (), ("!",)),
    **{n: ((), ("-D", "-U", "-I", "-d", "-l", "-o", "-s", "-F", "-R", "-G", "-L", "-t",
                "--define", "--undefine", "--include", "--debug", "--arglength",
                "--error-output", "--freeze-state", "--reload-state", "--nesting-limit",
                "--trace", "--debugfile"), ("syscmd", "esyscmd"))
       for n in ("m4", "gm4")},
}
_NOT_RUN = frozenset({"--version", "-V", "--help", "-h"})


def _escape_code(name: str, vals: list) -> str:
    """Why a program of SHELL_ESCAPES runs a command agentdeck does not see, or ""."""
    given, valued, marks = SHELL_ESCAPES[name]
    if any(v in _NOT_RUN for v in vals if v is not None):
        return ""
    if any(v is None for v in vals):
        return f"{name} runs a program that is not static"
    texts = _option_values(vals, given)
    if any(m in t for t in texts for m in marks):
        return f"{name} runs a shell command from its program ({marks[0]})"
    i = 0
    while i < len(vals):
        v = vals[i]
        if v in valued:
            i += 2
            continue
        if v in given:
            i += 2
            continue
        if v == "-f" or v.startswith("--file") or not v.startswith("-") or v == "-":
            return f"{name} runs its program from a file, which can run shell commands"
        i += 1
    if not texts:
        return f"{name} reads its program from its input, which can run shell commands"
    return ""


#: build tools' options whose value is a script or build file they run, in a language agentdeck
#: does not read (`ninja -f F`, `ctest -S F`, `cmake -P F`, `-C F`, `--toolchain F`), and the
#: cache variables given with -D that name one (`cmake -DCMAKE_PROJECT_INCLUDE=F`)
BUILD_SCRIPTS: dict[str, tuple[str, ...]] = {
    "ninja": ("-f",), "ctest": ("-S", "-SP", "-SR", "--script"),
    "cmake": ("-P", "-C", "--toolchain", "--preset-file"),
}
CMAKE_SCRIPT_VARS = ("CMAKE_TOOLCHAIN_FILE", "CMAKE_PROJECT_INCLUDE", "CMAKE_PROJECT_TOP_LEVEL_INCLUDES",
                     "CMAKE_USER_MAKE_RULES_OVERRIDE", "CMAKE_PROJECT_", "CMAKE_MODULE_PATH")


def _build_script(name: str, known: list[str]) -> str:
    opts = BUILD_SCRIPTS[name]
    for i, v in enumerate(known):
        if v in opts or any(v.startswith(o + "=") for o in opts if o.startswith("--")) or (
                name == "ninja" and v.startswith("-f") and len(v) > 2):
            return f"{name} {v.split('=', 1)[0][:12]} runs a script agentdeck does not read"
        if name == "cmake" and (v.startswith("-D") or i > 0 and known[i - 1] == "-D"):
            var = (v[2:] if v.startswith("-D") else v).split(":", 1)[0].split("=", 1)[0]
            if var.startswith(CMAKE_SCRIPT_VARS):
                return f"cmake -D{var} loads a script agentdeck does not read"
    return ""


#: options whose value (or presence) makes a program run a command or program of its own, which
#: agentdeck does not follow: sort's compressor, git grep's pager, the program git runs on the
#: other side of a local transport, a diff program, start-stop-daemon's program. Long options
#: are written in full (the resolver spells abbreviations in full first, longopts.py); a short
#: one counts glued to its value too. Keys are programs or "git SUB".
COMMAND_OPTIONS: dict[str, tuple[str, ...]] = {
    "sort": ("--compress-program",),
    "git grep": ("-O", "--open-files-in-pager"),
    "git fetch": ("--upload-pack",),
    "git pull": ("--upload-pack",), "git ls-remote": ("--upload-pack",),
    "git push": ("--receive-pack", "--exec"), "git archive": ("--exec",),
    "git send-pack": ("--receive-pack", "--exec"), "git fetch-pack": ("--upload-pack", "--exec"),
    "sdiff": ("--diff-program",), "diff3": ("--diff-program",),
    "man": ("-P", "--pager", "-H", "--html"),
    "wget": ("--use-askpass",),
    "start-stop-daemon": ("-x", "--exec", "-a", "--startas"),
    "zip": ("-TT", "--unzip-command"),
    "rsync": ("--rsync-path",),
    # Lisp the editor runs in batch (`emacs --batch --eval '(shell-command ...)'`, `-l F`)
    "emacs": ("--eval", "-l", "--load", "-f", "--funcall", "--script", "-x"),
    # a configuration file whose lines create, remove or link paths
    "systemd-tmpfiles": ("--create", "--remove", "--clean", "--purge"),
    # a template folder whose hooks git copies into the repository and runs later
    "git init": ("--template",), "git clone": ("-u", "--upload-pack", "--template"),
    # a batch file whose lines can run local commands (`!cmd`)
    "sftp": ("-b",),
    # the editor a config command opens, run through a shell (`pip config --editor CMD edit`)
    "pip": ("--editor",), "pip3": ("--editor",), "npm": ("--editor",),
    # red team round 9: a setting, a configuration file or a wrapper that runs commands or
    # loads code: apt's hooks (`-o APT::Update::Pre-Invoke::=CMD`) and its config file,
    # dpkg's hooks, a compiler driver's wrapper, tool prefix (-B: it runs cc1/as/ld from
    # there), plugins and specs file, tmux's and man's config files (run-shell, DEFINE),
    # less's key files (#env LESSOPEN), gdb's early-init commands, mawk's -W exec FILE,
    # node's env file (NODE_OPTIONS=--require), perl's module folder (-I DIR with -M or use),
    # pygmentize's custom lexer or formatter file
    **{n: ("-o", "--option", "-c", "--config-file") for n in ("apt-get", "apt", "apt-cache",
                                                              "aptitude")},
    "dpkg": ("--pre-invoke", "--post-invoke", "--status-logger"),
    **{n: ("-wrapper", "-B", "-fplugin", "-specs", "--specs", "-fplugin-arg")
       for n in ("gcc", "g++", "cc", "c++", "cpp", "clang", "clang++", "gfortran")},
    "tmux": ("-f",), "man": ("-C", "--config-file"),
    "less": ("-k", "--lesskey-file", "--lesskey-src", "--lesskey-content"),
    "gdb": ("-eiex", "--eiex", "-early-init-eval-command", "--early-init-eval-command",
            "-eix", "--eix", "-early-init-command", "--early-init-command"),
    "mawk": ("-W",), "node": ("--env-file", "--env-file-if-exists"),
    # a kubeconfig's users[].user.exec runs a credential plugin
    "kubectl": ("--kubeconfig",),
    "nodejs": ("--env-file", "--env-file-if-exists"), "perl": ("-I",),
    "pygmentize": ("-x",),
    # red team round 10: the JVM runs a command on an error or out of memory, and loads an
    # agent library or jar (`-agentpath:/x.so`) or an options file; openssl loads a provider
    # or engine (a shared library) or a config file that names one
    **{n: ("-XX:OnOutOfMemoryError", "-XX:OnError", "-XX:Flags", "-XX:VMOptionsFile",
           "-agentpath", "-agentlib", "-javaagent") for n in ("java", "javaw", "jshell")},
    "openssl": ("-provider-path", "-provider", "-engine", "-config"),
}


#: where the system's programs live: a program run from there is the one its name says
SYSTEM_PROGRAM_PREFIXES = ("/usr/", "/bin/", "/sbin/", "/lib/", "/opt/", "/snap/", "/nix/")
#: the system programs a program file run by its path is compared with (a copy of one made in
#: an earlier call is that program): those the argv rules and path rules judge by name
COMPARED_PROGRAMS = ("rm", "shred", "unlink", "rmdir", "dd", "cp", "mv", "ln", "install",
                     "cat", "tac", "head", "tail", "tee", "chmod", "chown", "chattr", "truncate",
                     "find", "xargs", "tar", "rsync", "curl", "wget", "git", "sed", "awk",
                     "perl", "python3", "bash", "sh", "dash", "env", "busybox", "coreutils")
#: option values whose effect is another option's, read as that option by the argv rules, by
#: the value's meaning (longopts.VALUES: `rm --interactive=never`, and argmatch's prefixes of
#: never, no and none, never asks, as `--force`; red team round 7)
SAME_EFFECT: dict[str, dict[tuple[str, str], str]] = {
    "rm": {("--interactive", "never"): "--force"},
}


def same_effect(name: str, word: str) -> str:
    """The option whose effect the option `word` (`--opt=value`, in full) has for `name`
    (SAME_EFFECT, the value read as longopts.value_meaning reads it), or ""."""
    opt, eq, value = word.partition("=")
    meaning = longopts.value_meaning(name, opt, value) if eq else None
    return SAME_EFFECT.get(name, {}).get((opt, meaning or value), "")


def _long_words(value: object, out: set[str]) -> None:
    if isinstance(value, str):
        if value.startswith("--") and len(value) > 3:
            out.add(value.partition("=")[0])
    elif isinstance(value, dict):
        for k, v in value.items():
            _long_words(k, out)
            _long_words(v, out)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for v in value:
            _long_words(v, out)


_TABLE_LONG: dict[str, frozenset[str]] = {}
_KNOWN: set[str] = set()
_PROGRAM = re.compile(r"[A-Za-z][\w.+-]*")


def _index() -> None:
    """Read every table in this module once: the programs they name (the keys of the tables
    keyed by program name and the names in the sets of names) and each one's long options."""
    found: dict[str, set[str]] = {}
    for table in list(globals().values()):
        if isinstance(table, dict) and table and all(isinstance(k, str) for k in table):
            for key, value in table.items():
                if not key.startswith("-"):
                    if _PROGRAM.fullmatch(key):
                        _KNOWN.add(key)
                    words: set[str] = set()
                    _long_words(value, words)
                    if words:
                        found.setdefault(key, set()).update(words)
        elif isinstance(table, frozenset):
            _KNOWN.update(n for n in table if isinstance(n, str) and _PROGRAM.fullmatch(n))
    _TABLE_LONG.update({k: frozenset(v) for k, v in found.items()})
    _TABLE_LONG.setdefault("", frozenset())


def table_long_options(name: str) -> frozenset[str]:
    """Every long option any table in this module names for program `name`: for a program
    whose own long options longopts does not list, a word that abbreviates one of these is an
    option the resolver would read under another spelling (`sudo --chd=DIR`, `unshare
    --w=DIR`), so it is unresolved (shellparse)."""
    if not _TABLE_LONG:
        _index()
    return _TABLE_LONG.get(name, frozenset())


_VERSION = re.compile(r"[.-]?\d+$")
#: a build's name for itself beside the program's: a machine triplet (`perl5.36-x86_64-linux-gnu`,
#: `x86_64-linux-gnu-gcc-12`) or a Debian flavour (`vim.basic`, `vim.tiny`, `vim.nox`)
_BUILD = re.compile(r"^[a-z0-9_]+-(?:[a-z0-9_]+-)?linux-gnu[a-z]*-|-[a-z0-9_]+-(?:[a-z0-9_]+-)?"
                    r"linux-gnu[a-z]*$|\.(?:basic|tiny|nox|gtk\d?|athena|motif|nogui)$")
#: other names of a program that are not a version of it
ALIASES = {"vimdiff": "vim", "rvim": "vim", "gvim": "vim", "gview": "view", "rview": "view",
           "pdb3": "python3"}


def known_program(name: str) -> bool:
    """Whether any table in this module names program `name`."""
    if not _TABLE_LONG:
        _index()
    return name in _KNOWN


def unversioned(name: str) -> str:
    """`name` as the tables name it: without a version they do not name it with (`python3.11`
    is python3, `perl5.36.0` perl, `tclsh8.6` tclsh, `gcc-12` gcc), a build's triplet or
    flavour (`perl5.36-x86_64-linux-gnu`, `vim.basic`) or under its other name (ALIASES:
    `vimdiff` is vim); any other name as it is."""
    if name in ALIASES:
        return ALIASES[name]
    if not (name[-1:].isdigit() or "." in name or "linux-gnu" in name) or known_program(name):
        return name
    short = name
    for _ in range(6):
        cut = _BUILD.sub("", short)
        cut = _VERSION.sub("", cut) if cut == short else cut
        if cut == short:
            break
        short = cut
        if short in ALIASES or short in _KNOWN:
            return ALIASES.get(short, short)
    return name


#: `set -o` options a shell given `-o NAME` on its command line may take without changing how
#: the resolver reads its text (any other `-o` and every `-O` shopt option is unresolved)
PLAIN_SET_OPTIONS = frozenset({"errexit", "pipefail", "nounset", "xtrace", "verbose",
                               "noclobber", "errtrace", "functrace", "posix", "monitor",
                               "notify", "ignoreeof", "vi", "emacs", "noexec", "physical"})
#: options that make a program write (or read) files whose names agentdeck does not see on
#: the line: a rename of an archive's members, backups under a prefix, a configuration file
#: that names the output or the upload, a name the server or a URL list gives, paths read from
#: stdin (red team round 7): unresolved
UNSEEN_OPTIONS: dict[str, tuple[str, ...]] = {
    **{t: ("--transform", "--xform", "--one-top-level") for t in ("tar", "gtar")},
    "bsdtar": ("-s",),
    "curl": ("-K", "--config", "-J", "--remote-header-name"),
    "wget": ("--config", "-x", "--force-directories", "--content-disposition",
             "--trust-server-names", "-i", "--input-file"),
    "patch": ("-B", "--prefix", "-Y", "--basename-prefix", "-z", "--suffix"),
    "rsync": ("--backup-dir", "--suffix"),
    "git hash-object": ("--stdin-paths",),
    # the index's files written under a prefix (`--prefix=.claude/ -f settings.local.json`)
    "git checkout-index": ("--prefix",),
}
#: wget's `-e COMMAND` (a .wgetrc line) settings that name no file: any other is unresolved
_WGET_HARMLESS = frozenset({"robots", "tries", "timeout", "wait", "waitretry", "user_agent",
                            "retry_connrefused", "check_certificate", "verbose", "quiet",
                            "no_parent", "recursive", "reclevel", "random_wait", "limit_rate",
                            "dns_timeout", "connect_timeout", "read_timeout", "https_only",
                            "inet4_only", "inet6_only", "show_progress", "progress"})


def _wget_setting(vals: list) -> str:
    """wget's `-e`/`--execute` setting that is not known to name no file, or ""."""
    for j, v in enumerate(vals):
        val: str | None = ""
        if v in ("-e", "--execute"):
            val = vals[j + 1] if j + 1 < len(vals) else ""
        elif v is not None and v.startswith("--execute="):
            val = v.split("=", 1)[1]
        elif v is not None and v.startswith("-e") and not v.startswith("--") and len(v) > 2:
            val = v[2:]
        if val is None:
            return "wget -e"
        key = val.split("=", 1)[0].strip().lower().replace("-", "_")
        if val and key not in _WGET_HARMLESS:
            return f"wget -e {key}"
    return ""


def _command_option(name: str, vals: list, table: dict | None = None) -> str:
    """The option of COMMAND_OPTIONS (or `table`) `name`'s words hold, or ""."""
    key, start = name, 0
    if name == "git":
        at = git_subcommand_at(vals)
        if at is None:
            return ""
        key, start = f"git {vals[at]}", at + 1
    opts = (COMMAND_OPTIONS if table is None else table).get(key, ())
    for v in vals[start:]:
        if v is None:
            continue
        if v == "--":
            break
        for o in opts:
            if v == o or o.startswith("--") and v.startswith(o + "=") or (
                    len(o) == 2 and v.startswith(o) and not v.startswith("--")) or (
                    # a one-dash word option with its value glued (`-fplugin=x.so`,
                    # `-agentpath:/x.so`, `-XX:OnError=CMD`)
                    len(o) > 2 and not o.startswith("--") and v.startswith((o + "=", o + ":"))):
                return f"{key} {o}"
    return ""


#: programs that read more arguments from a file named `@FILE` (a response file): options that
#: run code (`-wrapper`, `-XX:OnError=`), outputs and inputs no one reads on the line (red
#: team round 11: `gcc @rsp` with `@../../.ssh/id_rsa` in it)
RESPONSE_FILES = frozenset({
    "gcc", "g++", "cc", "c++", "cpp", "clang", "clang++", "gfortran", "ld", "ld.bfd", "ld.gold",
    "as", "ar", "nm", "objcopy", "objdump", "strip", "strings", "c++filt", "readelf", "size",
    "ranlib", "addr2line", "elfedit", "gprof", "java", "javac", "javadoc", "jar", "jshell",
    "kotlinc", "scalac", "dotnet", "csc", "lld", "ld.lld", "rustc"})


def runs_code(name: str, vals: list) -> str:
    """Why `name` with these arguments runs code agentdeck cannot see into, or ""."""
    if name == "perf":
        sub = next((v for v in vals if v is not None and not v.startswith("-")), None)
        if sub in ("stat", "record", "trace", "sched", "mem", "c2c", "kmem", "lock", "kvm",
                   "ftrace", "kwork", "timechart", "iostat"):
            # `perf stat CMD`: it runs CMD (red team round 12)
            return f"perf {sub} runs a command agentdeck does not follow"
    if name in RESPONSE_FILES:
        at = next((v for v in vals if v is not None and v.startswith("@") and len(v) > 1), None)
        if at is not None:
            return f"{name} {at[:40]} reads more arguments from a file agentdeck does not read"
    opt = _command_option(name, vals)
    if opt:
        return f"{opt} runs a program agentdeck does not follow"
    opt = _command_option(name, vals, UNSEEN_OPTIONS) or (
        _wget_setting(vals) if name == "wget" else "")
    if opt:
        return f"{opt} reads or writes files whose names are not on the line"
    if name in ("gunzip", "gzip", "pigz", "unpigz") and any(
            v == "--name" or v and v.startswith("-") and not v.startswith("--") and "N" in v
            for v in vals) and decompressed(name, vals):
        return f"{name} -N writes the name stored in the archive, which agentdeck does not read"
    if name == "history":
        # bash's history list read from a file (`history -r ~/.ssh/id_rsa; history` prints it),
        # or written to $HISTFILE (`HISTFILE=~/.claude/settings.json; history -w`); `history
        # -w FILE` writes FILE (outputs)
        flags = {c for v in vals if v and v.startswith("-") for c in v[1:]}
        named = any(v and not v.startswith("-") for v in vals)
        if flags & {"r", "n"} or flags & {"w", "a"} and not named:
            return "history -r/-w reads or writes a history file agentdeck does not follow"
    known = [v for v in vals if v is not None]
    if name in BUILD_SCRIPTS:
        why = _build_script(name, known)
        if why:
            return why
    if name in PIPED_OUTPUT and any(v[:1] in ("|", "!") for v in
                                    _option_values(vals, PIPED_OUTPUT[name])):
        return f"{name} -o '|COMMAND' sends its output to a command"
    if name in CONFIG_RUNS:
        opts, none = CONFIG_RUNS[name]
        for i, v in enumerate(known):
            got = (known[i + 1] if i + 1 < len(known) else None) if v in opts else (
                v[2:] if v[:2] in opts and len(v) > 2 else None)
            if got is not None and got not in none:
                return f"{name} -F reads a configuration file that can run commands"
    if name in SHELL_ESCAPES:
        why = _escape_code(name, vals)
        if why:
            return why
    if name == "git":
        for i, v in enumerate(known):
            kv = known[i + 1] if v == "-c" and i + 1 < len(known) else (
                v[2:] if v.startswith("-c") and len(v) > 2 else None)
            if kv is not None and kv.lower().startswith(_GIT_CODE_KEYS):
                return f"git -c {kv.split('=', 1)[0]} runs a program of its own"
            if v.startswith("--config-env"):
                return "git --config-env sets configuration that can run programs"
            if kv is not None and kv.lower().startswith(GIT_LOADED_KEYS):
                return f"git -c {kv.split('=', 1)[0]} loads configuration or programs agentdeck does not read"
            if v.startswith("--exec-path="):
                return "git --exec-path= runs git's own programs from another folder"
    if name in ("tar", "bsdtar", "gtar"):
        for v in known:
            if v.startswith(_TAR_CODE):
                return f"tar {v.split('=', 1)[0]} runs a command"
    if name == "sed":
        for v in _sed_scripts(known):
            if re.search(r"s(.).*\1.*\1[gpIiMm0-9w]*e", v):
                return "sed's s///e runs the pattern space as a shell command"
            if any(cmd == "" for cmd in _sed_e(v)):
                return "sed's e command with no text runs the pattern space as a shell command"
    if name in ("rsync", "scp") and any(v in ("-e", "--rsh") or v.startswith("--rsh=") for v in known):
        return f"{name} -e runs a remote shell command of its own"
    if name in ("ssh", "scp", "sftp") and any(k in v.lower() for v in known for k in (
            "proxycommand", "localcommand", "knownhostscommand", "remotecommand")):
        return f"{name} -o ProxyCommand runs a command"
    if name in ("ssh", "scp", "sftp", "ssh-keyscan") and any(
            k in v.lower() for v in known for k in ("knownhostsfile", "controlpath",
                                                     "identityagent", "revokedhostkeys")):
        return f"{name} -o names a file it reads or writes, which agentdeck does not follow"
    if name in ("less", "more", "most") and any(v.startswith("+") and ("!" in v or "|" in v)
                                                 for v in known):
        return f"{name} +COMMAND runs a shell command"
    if name == "curl" and any("%output{" in v for v in known):
        return "curl -w '%output{FILE}' writes a file agentdeck does not follow"
    if name == "uudecode" and not any(v in ("-o", "--output-file") or v.startswith("-o")
                                      for v in known):
        return "uudecode writes the file its input's header names"

    if name in ("awk", "gawk", "mawk"):
        prog = next((v for v in known if not v.startswith("-")), "")
        if "system(" in prog or re.search(r"\|\s*(getline|&)|print[^;]*\|", prog):
            return f"{name} runs a command from its program"
    return ""


#: a sed address: a line number (with ~step), $, /regex/ or \cregexc (with I/M), and a range
_SED_ADDR = (r"(?:\d+(?:~\d+)?|\$|/(?:[^/\\\n]|\\.)*/[IM]*|\\(.)(?:(?!\1).)*\1[IM]*)")
_SED_CMD = None


def _sed_scripts(known: list[str]) -> list[str]:
    """The script texts of a sed command line (-e TEXT, --expression=TEXT, or its first
    operand)."""
    out: list[str] = []
    given = False
    i = 0
    while i < len(known):
        v = known[i]
        if v in ("-e", "--expression") and i + 1 < len(known):
            out.append(known[i + 1])
            given = True
            i += 2
            continue
        if v.startswith("--expression="):
            out.append(v.split("=", 1)[1])
            given = True
        elif v.startswith("-e") and len(v) > 2 and not v.startswith("--"):
            out.append(v[2:])
            given = True
        elif v in ("-f", "--file", "-l", "--line-length"):
            given = given or v in ("-f", "--file")    # the script is in a file: operands are input
            i += 2
            continue
        elif v.startswith("--file="):
            given = True
        elif not v.startswith("-") and not given:
            out.append(v)
            given = True
        i += 1
    return out


def _sed_e(script: str) -> list[str]:
    """The text of each `e` command in a sed script, in any address form (`e cmd`, `1e cmd`,
    `$e`, `/x/e cmd`, `1,3!e cmd`): "" for a bare `e` (it runs the pattern space)."""
    import re   # local: only for sed

    global _SED_CMD
    if _SED_CMD is None:
        _SED_CMD = re.compile(r"(?:^|(?<=[;\n{}]))\s*(?:" + _SED_ADDR + r"(?:\s*,\s*(?:"
                              + _SED_ADDR.replace("\\1", "\\2").replace("(.)", "(.)", 1)
                              + r"|[+~]\d+))?)?\s*!*\s*e(?=[\s;}]|$)([^\n;}]*)")
    out = []
    for m in _SED_CMD.finditer(script):
        out.append(m.group(m.lastindex or 0).strip() if m.lastindex else "")
    return out


def sed_commands(name: str, vals: list) -> list[str]:
    """The shell command lines sed's `e command` runs (static text; core/policy/shellparse.py
    resolves each as a line)."""
    if name != "sed":
        return []
    known = [v for v in vals if v is not None]
    return [t for v in _sed_scripts(known) for t in _sed_e(v) if t]


#: interpreters and the options that give them a program as text (`[policy] inline_code`);
#: awk's program is its first operand
INLINE_OPTIONS = {
    "python": ("-c",), "python2": ("-c",), "python3": ("-c",), "pypy": ("-c",), "pypy3": ("-c",),
    "perl": ("-e", "-E"), "ruby": ("-e",), "node": ("-e", "--eval", "-p", "--print"),
    "nodejs": ("-e", "--eval", "-p", "--print"), "deno": ("eval",), "bun": ("-e", "--eval"),
    "php": ("-r",), "lua": ("-e",), "osascript": ("-e",), "Rscript": ("-e",),
    "julia": ("-e", "-E"), "pwsh": ("-c", "-Command", "-command"),
    "powershell": ("-c", "-Command", "-command"), "tclsh": (), "wish": (), "jimsh": ("-e",),
    "jshell": (),
}
_AWKS = frozenset({"awk", "gawk", "mawk", "nawk"})

#: programs that, given nothing to run, take commands from their terminal (a REPL), and those
#: that take them whatever they are given (an editor's or pager's `!command`, a switched-user
#: or remote shell): in a session whose later input no hook sees (Codex's exec_command and
#: write_stdin), they run what is typed into them. A shell given nothing to run is one too
#: (SHELLS). A pager another program starts (man, git log on a terminal) is not seen here.
REPLS = frozenset({"python", "python2", "python3", "ipython", "node", "nodejs", "deno", "bun",
                   "perl", "ruby", "irb", "php", "lua", "julia", "jshell", "pwsh", "powershell",
                   "tclsh", "wish", "jimsh", "R", "gdb", "sqlite3"})
INTERACTIVE = frozenset({"vi", "vim", "nvim", "view", "vimdiff", "ex", "ed", "nano", "emacs",
                         "less", "more", "most", "ftp", "sftp", "su", "script", "tmux",
                         "screen", "expect", "telnet", "psql", "mysql"})
#: the options that give a REPL or client its program, so it takes no typed commands
_GIVEN = frozenset({"-c", "-e", "-E", "-r", "--command", "--execute", "--eval", "-Command",
                    "-command", "-f", "--file", "-m", "-p", "--print", "--check",
                    # it runs its tests, or prints and exits (`node --test`, `python3 --version`)
                    "--test", "--version", "--help", "-h"})


#: the names of a process's own stdin
_STDIN_FILES = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "/dev/tty"})


def takes_commands(name: str, vals: list, stdin: str | None = None) -> bool:
    """Whether `name` run with arguments `vals` takes commands typed into its terminal later
    (a shell or REPL given nothing to run, an editor, a pager, a switched-user shell)."""
    known = [v for v in vals if v is not None]
    if name == "tmux":               # only a client that attaches takes typed keys
        ops = [v for i, v in enumerate(known) if not v.startswith("-") and not (
            i and known[i - 1] in ("-L", "-S", "-f", "-c", "-T"))]
        return not ops or (ops[0] in ("new", "new-session", "attach", "attach-session", "a",
                                      "at", "attach-") and "-d" not in known)
    if name in INTERACTIVE:
        return not (name in ("psql", "mysql") and any(v in _GIVEN for v in known))
    if name in ("sudo", "doas"):
        return any(v in ("-s", "-i", "--shell", "--login") for v in known)
    if stdin is not None:            # fed from a pipe or a heredoc: what it runs is that
        return False
    if bare_shell(name, vals):       # `unshare -r`, `setarch x86_64`: the user's shell
        return True
    if (name in PROGRAM_FILES or name in INTERPRETERS or name in SHELLS) and any(
            v in ("-f", "--file", "-s", "-S", "--init-file") and i + 1 < len(vals)
           and vals[i + 1] in _STDIN_FILES for i, v in enumerate(vals)) or any(
            v is not None and v.startswith(("--file=", "-f")) and v.split("=", 1)[-1].removeprefix("-f")
            in _STDIN_FILES for v in vals):
        return True                  # awk -f /dev/stdin: its program is what is typed
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


# ---- inline code that runs commands (judged by effect, not by the interpreter) ----------------
#: names of calls, modules and forms that start a process, in the interpreters' languages
#: (python, perl, ruby, node/deno/bun, php, lua, awk, tcl, R, julia): code that holds one is
#: read for the commands it runs
_SPAWN_WORDS = (r"system2?|popen[23]?|exec[lv]?p?e?|spawn[lv]?p?e?|posix_spawnp?|startfile|"
                r"subprocess|check_output|check_call|getoutput|getstatusoutput|Popen|"
                r"child_process|execSync|execFile|execFileSync|spawnSync|fork|Command|"
                r"Open3|capture[23]e?|pipeline|shell_exec|passthru|proc_open|pcntl_exec|"
                r"execute|qx|pty|run_command|ProcessBuilder|Runtime")
#: the calls among those whose first argument is the command (a string or an argv list)
_SPAWN_CALLS = (r"(?:os\s*\.\s*)?(?:system2?|popen[23]?|exec[lv]p?e?|spawn[lv]p?e?|posix_spawnp?)"
                r"|subprocess\s*\.\s*\w+|(?:child_process\s*\.\s*|\.\s*)?(?:execSync|execFile"
                r"|execFileSync|spawnSync|spawn|exec)|shell_exec|passthru|proc_open|pcntl_exec"
                r"|(?:os|io)\s*\.\s*(?:execute|popen)|IO\s*\.\s*popen|Open3\s*\.\s*\w+"
                r"|getoutput|getstatusoutput|check_output|check_call|Popen|Bun\s*\.\s*spawn(?:Sync)?"
                r"|Deno\s*\.\s*(?:run|Command)")
_RX: dict[str, object] = {}


def _rx(key: str):
    import re   # local: only for inline code (the handler's pre-tool path already has re)

    if not _RX:
        _RX["spawn"] = re.compile(r"(?<![\w$])(?:" + _SPAWN_WORDS + r")(?![\w$])|`|%x\s*[(\[{<|!/]")
        _RX["call"] = re.compile(r"(?<![\w$])(?:" + _SPAWN_CALLS + r")(?![\w$])\s*(\(?)\s*")
        _RX["str"] = re.compile(r"""(?:\b[rRbBuUfF]{1,2})?("\"\"|\'\'\'|"|'|`)((?:\\.|(?!\1).)*?)\1""", re.S)
        _RX["qw"] = re.compile(r"(?<![\w$])(qw|qx|qq|q|%w|%W|%x|%q|%Q)\s*([(\[{<|!/])", re.S)
    return _RX[key]


_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}


#: languages whose backticks are strings, not commands (JavaScript's template literals, ...)
_BACKTICK_STRINGS = frozenset({"node", "nodejs", "deno", "bun", "python", "python2", "python3",
                               "pypy", "pypy3", "lua", "Rscript"})


def spawns(code: str, name: str = "") -> bool:
    """Whether inline code holds a call, module or form that starts a process."""
    import re   # local: only for inline code

    m = _rx("spawn").search(code)
    if m is not None and m.group(0) == "`" and name in _BACKTICK_STRINGS:
        m = _rx("spawn").search(code.replace("`", " "))
    return m is not None or bool(
        re.search(r"""\bopen\b[^;]*?(?:["']\s*-?\||\|\s*["'])""", code))   # perl's piped open


#: a string literal's escapes, as python, JavaScript, perl and ruby read them
_ESCAPE = (r"\\(?:x([0-9a-fA-F]{2})|u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})"
           r"|U([0-9a-fA-F]{8})|([0-7]{1,3})|N\{([^}\n]{1,64})\}|(\r?\n)|(.))")


def _unescape(body: str) -> str:
    """A literal's text with its escapes decoded (`\\x68`, `\\150`, `\\u0068`, `\\u{68}`,
    `\\N{LATIN SMALL LETTER H}`, `\\n`), a backslash-newline removed (a continued line in
    python and JavaScript strings). A raw string's text is decoded too: a path spelled that way
    is judged as the one it would spell, which only ever adds a path to judge."""
    import re   # local: only for inline code

    def one(m: "re.Match[str]") -> str:
        hexa = m.group(1) or m.group(2) or m.group(3) or m.group(4)
        try:
            if hexa:
                return chr(int(hexa, 16))
            if m.group(5):
                return chr(int(m.group(5), 8))
            if m.group(6):
                import unicodedata   # local: only for a \N{...} escape
                return unicodedata.lookup(m.group(6))
        except (ValueError, KeyError, OverflowError):
            return m.group(0)
        if m.group(7):
            return ""
        ch = m.group(8)
        return {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}.get(ch, ch)

    return re.sub(_ESCAPE, one, body, flags=re.S)


def _literals(code: str) -> list[tuple[int, int, str, str]]:
    """(start, end, kind, text) of each string literal of the code: kind "s" a string, "w" a
    word list (perl qw, ruby %w), "x" a command (backticks, qx, %x)."""
    out: list[tuple[int, int, str, str]] = []
    i = 0
    n = len(code)
    qw, st = _rx("qw"), _rx("str")
    while i < n:
        m1 = qw.search(code, i)
        m2 = st.search(code, i)
        if m1 is not None and (m2 is None or m1.start() <= m2.start()):
            op, open_ = m1.group(1), m1.group(2)
            close = _CLOSE.get(open_, open_)
            j = code.find(close, m1.end())
            if j < 0:
                break
            body = code[m1.end():j]
            kind = "w" if op in ("qw", "%w", "%W") else "x" if op in ("qx", "%x") else "s"
            out.append((m1.start(), j + 1, kind, body))
            i = j + 1
            continue
        if m2 is None:
            break
        body = m2.group(2)
        if "\\" in body:
            body = _unescape(body)
        out.append((m2.start(), m2.end(), "x" if m2.group(1) == "`" else "s", body))
        i = m2.end()
    return out


#: a word of an argument list in inline code that is no literal (a variable, `sys.argv[1]`)
CODE_WORD = "\x00"


def code_commands(code: str) -> tuple[list[str], list[list[str]]]:
    """What inline code that spawns processes may run, read from its string literals: every
    literal as a command line (the backticks' and qx's text among them), and every run of
    literals written as one argument list (`["rm","-rf","x"]`, `"rm", "-rf", "x"`,
    `qw(rm -rf x)`, `"rm", ["-rf", "x"]`) as an argv."""
    import re   # local: only for inline code

    lits = _literals(code)
    lines: list[str] = []
    argvs: list[list[str]] = []
    groups: list[list[str]] = []
    group: list[str] = []
    group_start = 0
    last_end = -1
    for start, end, kind, text in lits:
        if kind == "w":
            if group:
                groups.append(group)
            group = []
            words = text.split()
            if words:
                argvs.append(words)
            last_end = -1
            continue
        if kind == "x":
            lines.append(text)
            last_end = -1
            continue
        between = code[last_end:start] if last_end >= 0 else None
        if between is not None and re.fullmatch(r"\s*,\s*[\[(]?\s*", between):
            group.append(text)
        else:
            if group:
                if between is not None and re.match(r"\s*,", between) and \
                        code[:group_start].rstrip()[-1:] in ("[", "("):
                    # `["rm", os.environ["o"], "x"]`: an element that is no literal follows
                    # (red team round 12): the list holds a word not known
                    group.append(CODE_WORD)
                groups.append(group)
            group = [text]
            group_start = start
        last_end = end
    if group:
        if re.match(r"\s*,", code[last_end:]) and code[:group_start].rstrip()[-1:] in ("[", "("):
            group.append(CODE_WORD)          # (the list's last element is no literal)
        groups.append(group)
    for g in groups:
        if len(g) > 1:        # an argument list: its words are arguments, not command lines
            argvs.append(g)
            continue
        line = g[0].strip().strip("|").strip()
        if line.startswith("-|"):
            line = line[2:].strip()
        if line:
            lines.append(line)
    return lines, argvs


def spawn_dynamic(code: str) -> str:
    """A spawning call in inline code whose command is not a literal (a variable, a
    concatenation, a call): the call's text, or ""."""
    lits = {start for start, _, _, _ in _literals(code)}
    for m in _rx("call").finditer(code):
        j = m.end()
        while j < len(code) and code[j] in " \t[":
            j += 1
        if j >= len(code) or code[j] in ")]};":
            continue                      # no argument here (a name, an attribute, `exec;`)
        if j in lits or code[j] == "`":
            continue
        # an f-string or prefixed literal starts one or two letters before its quote
        if any(j + k in lits for k in (0,)) or (code[j] in "rRbBuUfF" and (j + 1 in lits or j + 2 in lits)
                                               and not code[j:j + 3].isidentifier()):
            continue
        if code[j] in "qQ%" and _rx("qw").match(code, j):
            continue
        word = m.group(0).strip().rstrip("(").strip()
        if m.group(1) == "" and not code[j].isalpha() and code[j] not in "$@_":
            continue                      # `system ==`, `exec -` ...: not a call
        return code[m.start():j + 20].strip()[:60] or word
    return ""


#: interpreters that read their program from stdin when given none on the command line
_STDIN_PROGRAM = frozenset({"python", "python2", "python3", "pypy", "pypy3", "perl", "ruby",
                            "node", "nodejs", "php", "lua", "Rscript", "julia", "tclsh", "wish",
                            "jimsh", "bun"})


_LINK_CALLS = None


def code_links(code: str) -> list[list[str]] | None:
    """The `ln` commands inline code stands for when it makes links (python `os.symlink(T, L)`,
    `os.link`, `Path(L).symlink_to(T)`; node `fs.symlinkSync(T, L)`; perl and php `symlink(T,
    L)`, `link`; ruby `File.symlink(T, L)`, `FileUtils.ln_s`): `ln -s T L` for a symbolic link,
    `ln T L` for a hard one, so a link made to a protected tree is judged, and followed by the
    line's later commands, as `ln`'s is. None when it calls one with names that are not string
    literals (where the link points is not known)."""
    import re   # local: only for inline code

    global _LINK_CALLS
    if _LINK_CALLS is None:
        q = r"""(?P<q{n}>['"])(?P<a{n}>[^'"\n]*)(?P=q{n})"""
        _LINK_CALLS = (
            re.compile(r"(?P<f>\b(?:symlinkSync|symlink|linkSync|link|ln_s|ln|make_symlink))\s*"
                       r"\(?\s*" + q.format(n=1) + r"\s*,\s*" + q.format(n=2)),
            re.compile(r"Path\s*\(\s*" + q.format(n=1) + r"\s*\)\s*\.\s*(?P<f>symlink_to|"
                       r"hardlink_to)\s*\(\s*" + q.format(n=2)),
            re.compile(r"\b(?:os\s*\.\s*|fs\s*\.\s*|File\s*\.\s*|FileUtils\s*\.\s*)?"
                       r"(?:symlinkSync|symlink|linkSync|link|ln_s|symlink_to|hardlink_to)\s*\("),
        )
    plain, path_form, any_call = _LINK_CALLS
    out: list[list[str]] = []
    for m in plain.finditer(code):           # symlink(TARGET, LINK)
        sym = "sym" in m.group("f") or m.group("f") == "ln_s"
        out.append(["ln", "-s", m.group("a1"), m.group("a2")] if sym
                   else ["ln", m.group("a1"), m.group("a2")])
    for m in path_form.finditer(code):       # Path(LINK).symlink_to(TARGET)
        out.append(["ln", "-s", m.group("a2"), m.group("a1")] if m.group("f") == "symlink_to"
                   else ["ln", m.group("a2"), m.group("a1")])
    if len(any_call.findall(code)) > len(out):
        return None
    return out


def inline_texts(name: str, vals: list) -> list[str | None]:
    """The program texts an interpreter is given on its command line (-c, -e, awk's program):
    None for one that is not static."""
    return [t for _, t in inline_code_at(name, vals)]


#: sqlite3's options that take a value (its SQL given with -cmd is code, the others are not)
_SQLITE_VALUED = frozenset({"-cmd", "-init", "-separator", "-newline", "-nullvalue", "-vfs",
                            "-maxsize", "-mmap", "-pagecache", "-lookaside", "-heap",
                            "-escape", "-A", "-zip"})


def inline_code_at(name: str, vals: list) -> list[tuple[int | None, str | None]]:
    """Where an interpreter is given a program as text on its command line, and the text: the
    index in `vals` of the word that holds it (the word after -c, a fused -cCODE, awk's program
    operand, sqlite3's SQL operands and -cmd), or None when an option ends the line; the text is
    None when it is not static. A word that holds code is not a file operand."""
    out: list[tuple[int | None, str | None]] = []
    if name in _AWKS:
        i = 0
        while i < len(vals):
            v = vals[i]
            if v is None:
                out.append((i, None))
                return out
            if v in ("-f", "--file"):
                return out
            if v in ("-v", "-F", "--assign", "--field-separator"):
                i += 2
                continue
            if v.startswith("-") and v != "-":
                i += 1
                continue
            out.append((i, v))
            return out
        return out
    if name == "sqlite3":             # sqlite3 [OPTIONS] DATABASE [SQL...]
        seen_db = False
        i = 0
        while i < len(vals):
            v = vals[i]
            if v is not None and v in _SQLITE_VALUED:
                if v == "-cmd" and i + 1 < len(vals):
                    out.append((i + 1, vals[i + 1]))
                i += 2
                continue
            if v is not None and v.startswith("-") and not seen_db:
                i += 1
                continue
            if seen_db:
                out.append((i, v))
            seen_db = True
            i += 1
        return out
    opts = INLINE_OPTIONS.get(name) or ()
    for i, v in enumerate(vals):
        if v is None:
            continue
        if v in opts:
            out.append((i + 1, vals[i + 1]) if i + 1 < len(vals) else (None, None))
        else:
            for o in opts:
                if len(o) == 2 and o.startswith("-") and v.startswith(o) and len(v) > 2:
                    out.append((i, v[2:]))
                    break
                if o.startswith("--") and v.startswith(o + "="):
                    out.append((i, v.split("=", 1)[1]))
                    break
                if o.startswith("-") and not o.startswith("--") and len(v) > 2 and v[0] == "-" \
                        and v[1] != "-" and v[-1] == o[1] and v[1:].isalpha() and len(o) == 2:
                    # perl -ne CODE
                    out.append((i + 1, vals[i + 1]) if i + 1 < len(vals) else (None, None))
                    break
    return out


#: a word in code that reads as a path relative to the working folder (`../x`, `./x`)
_REL_WORD = r"(?<![\w/.~$])\.{1,2}/[^\s'\"`;|&<>(){}\\,]*"
#: a string literal that can be a file's name: one line, no shell or format punctuation
_NAMEISH = r"[^\s'\"`;|&<>(){}\[\]\\,*?$%!#=]{1,4096}"


#: inline code that finds the home folder at run time: any name HOME (os.environ["HOME"],
#: getenv, $ENV{HOME}, ENVIRON, process.env.HOME), python's expanduser and Path.home(), node's
#: os.homedir(), ruby's Dir.home, go's UserHomeDir, java's user.home, perl's bare `chdir`
HOME_IDIOM = re.compile(
    r"""\bHOME\b|expanduser|Path\s*\.\s*home|homedir\s*\(|Dir\s*\.\s*home|UserHomeDir|user\.home"""
    r"""|\bchdir\s*(?:\(\s*\))?\s*(?:;|$)""")

HOME_IN_STRING = re.compile(
    r"""(?:\$ENV\s*\{\s*['"]?HOME['"]?\s*\}|\$\{?HOME\}?|#\{\s*(?:ENV\s*\[\s*['"]HOME['"]\s*\]|Dir\.home)\s*\}"""
    r"""|\$\{\s*(?:process\.env\.HOME|os\.homedir\(\))\s*\}"""
    # Tcl's $env(HOME) and $::env(HOME)
    r"""|\$(?:::)?env\(HOME\))(/[^\s'"`;)\]}]+)""")


#: languages whose bare words are strings (Tcl: `cd ../..; open .ssh/id_rsa`): each word of
#: their code can name a file
BARE_WORD_LANGUAGES = frozenset({"tclsh", "wish", "jimsh"})


def code_paths(code: str, bare: bool = False) -> list[str]:
    """The words of inline code that can name a file relative to the folder it runs in: each
    string literal that can be a file's name (perl's open modes `<`, `>>`, `+<` taken off,
    a word list's and a command's words each), and each `./` or `../` word outside them; with
    `bare` (BARE_WORD_LANGUAGES), every word of the code too.
    The caller judges each as a path relative to the command's working folder."""
    import re   # local: only for inline code

    out: list[str] = []
    seen: set[str] = set()

    def add(w: str) -> None:
        w = w.strip()
        w = w.lstrip("+<>").strip()
        if w and w not in seen and re.fullmatch(_NAMEISH, w):
            seen.add(w)
            out.append(w)

    lits = _literals(code[:MAX_CODE])
    for _, _, kind, body in lits:
        for w in body.split() if kind in ("w", "x") else [body]:
            add(w)
    # literals joined where they stand (`"a" "b"`, `"a" + "b"`, perl's `"a" . "b"`, a line
    # continued between them): the string they make is a name too
    run = ""
    for k, (start, end, kind, body) in enumerate(lits):
        between = code[lits[k - 1][1]:start] if k else None
        if kind == "s" and k and lits[k - 1][2] == "s" and between is not None and re.fullmatch(
                r"(?:\s|\\\n)*[+.]?(?:\s|\\\n)*", between):
            run += body
            add(run)
        else:
            run = body if kind == "s" else ""
    for m in re.finditer(_REL_WORD, code[:MAX_CODE]):
        add(m.group(0))
    if bare:
        for w in re.split(r"[\s;\[\]{}\"]+", code[:MAX_CODE]):
            add(w)
    return out[:256]


#: calls of the interpreters' languages that remove, move or copy a whole tree: a path inline
#: code names is then judged with everything below it
_TREE_CALLS = (r"rmtree|rm_r|rm_rf|rmSync|rimraf|remove_tree|rmdir|rename|renames|move|copytree"
               r"|cp_r|mv|rm\b|Remove-Item|unlink_r|delete_tree|emptyDirSync|removeSync"
               # the verbs that move or copy a folder in node (fs, fs/promises, fs-extra),
               # python's os.replace, Go and PowerShell: with their Sync/Async/Dir forms
               r"|(?:rename|move|copy|cp|replace|Rename|Move|Copy)(?:Sync|Async|Dir|Directory"
               r"|_tree|Tree|All|-Item)?")


def code_removes_trees(code: str) -> bool:
    """Whether inline code calls something that removes, moves or copies a whole folder."""
    import re   # local: only for inline code

    return re.search(r"(?<![\w$])(?:" + _TREE_CALLS + r")(?![\w$])", code[:MAX_CODE]) is not None


#: how much inline code is read for the paths it names
MAX_CODE = 65536


def program_from_stdin(name: str, vals: list) -> bool:
    """Whether an interpreter reads its program from stdin: no inline program, no script or
    module (`python3`, `python3 -`, `perl`, `node -`)."""
    if name not in _STDIN_PROGRAM or inline_program(name, vals):
        return False
    known = [v for v in vals if v is not None]
    if any(v in ("-m", "-i", "--version", "-V", "--help", "-h") for v in known):
        return False
    operands = [v for v in vals if v is None or not v.startswith("-") or v == "-"]
    return not operands or operands[0] == "-"


# ---- programs that read their program from a file ----------------------------------------------
#: program -> (options whose value is a file it reads its program from, options that take
#: another value, whether its first operand is the program file when no option and no inline
#: program gives one, the language the file is judged in: "sed" (its e, w and r commands),
#: "awk", "make" (its recipes are shell command lines) or "code" (as inline code: the commands
#: its literals spell, the paths it names)). A shell's script is read by the resolver itself
#: (core/policy/shellparse.py `script`); this table is for the other programs.
PROGRAM_FILES: dict[str, tuple[tuple[str, ...], frozenset[str], bool, str]] = {
    "sed": (("-f", "--file"), frozenset({"-e", "--expression", "-l", "--line-length"}), False,
            "sed"),
    **{n: (("-f", "--file", "-i", "--include", "-E", "--exec"), frozenset({"-v", "-F", "--assign",
                                                            "--field-separator"}), False, "awk")
       for n in ("awk", "gawk", "mawk", "nawk")},
    **{n: (("-f", "--file", "--makefile"), frozenset({"-C", "--directory", "-I", "--include-dir",
                                                      "-j", "--jobs", "-l", "--load-average",
                                                      "-o", "--old-file", "-W", "--what-if",
                                                      "--assume-new", "--assume-old"}),
           False, "make") for n in ("make", "gmake")},
    **{n: ((), frozenset({"-W", "-X", "-Q"}), True, "code")
       for n in ("python", "python2", "python3", "pypy", "pypy3")},
    "perl": ((), frozenset({"-I", "-M", "-m"}), True, "code"),
    "ruby": ((), frozenset({"-I", "-r", "-C", "-E", "-F"}), True, "code"),
    # node's preloaded modules (-r, --import, a loader) are program files as much as its script
    **{n: (("-r", "--require", "--import", "--loader", "--experimental-loader"),
           frozenset({"--input-type", "--env-file", "--conditions", "-C"}), True, "code")
       for n in ("node", "nodejs")},
    # deno and bun: their script after a subcommand (PROGRAM_SUBCOMMANDS), and the modules they
    # preload; tsx and ts-node run a script as node does
    "deno": (("--preload",), frozenset({"-c", "--config", "--import-map", "--lock", "--cert",
                                        "--location", "--seed", "-L", "--log-level", "--ext"}),
             True, "code"),
    "bun": (("-r", "--preload", "--require", "--import"),
            frozenset({"-c", "--config", "--cwd", "--env-file", "--tsconfig-override",
                       "--conditions", "--port", "--jsx-runtime"}), True, "code"),
    **{n: (("-r", "--require"), frozenset({"--tsconfig", "-P", "--project", "-O",
                                           "--compiler-options", "-C", "--compiler"}),
           True, "code") for n in ("tsx", "ts-node", "ts-node-esm", "esno")},
    "php": (("-f", "--file"), frozenset({"-c", "-d", "-z", "-t"}), True, "code"),
    "lua": ((), frozenset({"-l"}), True, "code"),
    "Rscript": ((), frozenset(), True, "code"),
    "julia": ((), frozenset({"-L", "--load", "-J", "--project", "-t", "--threads"}), True, "code"),
    "tclsh": ((), frozenset(), True, "code"), "wish": ((), frozenset(), True, "code"),
    "jimsh": ((), frozenset({"-e"}), True, "code"),
}
#: programs whose program file comes after a subcommand (`deno run F`, `bun run F`): the
#: subcommands that take one; any other subcommand (`deno fmt`, `bun install`) runs no file of
#: the line's (RUNS_FROM_FILES has the files a task runner reads). An operand with no folder
#: and no extension after `bun run` is a package.json script, not a file
PROGRAM_SUBCOMMANDS: dict[str, frozenset[str]] = {
    "deno": frozenset({"run", "test", "bench", "serve", "compile", "install"}),
    "bun": frozenset({"run", "test", "build", "--watch", "--hot"}),
}
#: the makefiles make reads when no -f names one, in its order
DEFAULT_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
#: options after which an interpreter's operands are arguments, not its program file
_NO_PROGRAM_FILE = frozenset({"-m", "-c", "-e", "-E", "-r", "--eval", "-p", "--print",
                              "--version", "-V", "--help", "-h", "-i"})


#: programs whose file options preload modules beside their script (the script still runs)
_PRELOADS = frozenset({"node", "nodejs", "deno", "bun", "tsx", "ts-node", "ts-node-esm", "esno"})


def program_files(name: str, vals: list, _sub: bool = True) -> list[str | None]:
    """The files `name` reads its program from (PROGRAM_FILES): each option's value
    (`sed -f F`, `awk -f F`, `make -f F`, `php -f F`) and, for an interpreter given no inline
    program, its first operand (`python3 F`, `perl F`); None for one whose name is not static;
    [] when it reads none (or reads it from standard input: `-`)."""
    spec = PROGRAM_FILES.get(name)
    if spec is None:
        return []
    file_opts, valued, operand, _ = spec
    shorts = "".join(o[1] for o in file_opts if len(o) == 2)
    out: list[str | None] = []
    first: str | None = ""
    given_inline = operand and (inline_program(name, vals) or bool(inline_texts(name, vals))
                                or any(v in _NO_PROGRAM_FILE and v not in file_opts and v not in valued
                                       for v in vals if v is not None))
    i = 0
    ended = False
    while i < len(vals):
        v = vals[i]
        nxt = vals[i + 1] if i + 1 < len(vals) else None
        if v is None:
            if operand and first == "" and not given_inline:
                first = None
            i += 1
            continue
        if not ended and v == "--":
            ended = True
        elif not ended and v in file_opts:
            out.append(nxt)
            i += 2
            continue
        elif not ended and any(o.startswith("--") and v.startswith(o + "=") for o in file_opts):
            out.append(v.split("=", 1)[1])
        elif not ended and v.startswith("-") and not v.startswith("--") and len(v) > 2 \
                and shorts and v[1] not in shorts and v[-1] in shorts and v[1:].isalpha():
            out.append(nxt)                      # a cluster ending in the option: `sed -nf F`
            i += 2
            continue
        elif not ended and v.startswith("-") and len(v) > 2 and v[:2] in file_opts \
                and name in _AWKS | {"sed"}:
            out.append(v[2:])                    # `awk -fprog.awk`
        elif not ended and v in valued:
            i += 2
            continue
        elif name in _MAKES and v.startswith("MAKEFILES="):
            out += v.split("=", 1)[1].split()   # make MAKEFILES=F: read before its makefile
        elif ended or not v.startswith("-") or v == "-":
            if operand and first == "" and not given_inline:
                first = v
            if operand:
                break
        i += 1
    if operand and (not out or name in _PRELOADS) and not given_inline and first != "" \
            and first != "-":
        out.append(first)
    subs = PROGRAM_SUBCOMMANDS.get(name) if _sub else None
    if subs is not None and operand and out and first is not None and first == out[-1]:
        out.pop()                         # `deno run F`: F is the word after the subcommand
        if first in subs:
            rest = vals[vals.index(first) + 1:]
            got = program_files(name, rest, False) if rest else []
            out += [f for f in got if f is None or "/" in f or "." in f or name != "bun"]
        elif "/" in first or "." in first:
            out.append(first)             # `bun x.ts`, `deno x.ts`: a file with no subcommand
    return out


#: interpreters that import modules from folders at run time: the variable that adds folders
#: to their module path, and the file names a module there has (a name starting with "/" is
#: a package's file in a folder below). A module written earlier in the line into one of those
#: folders may be what the program imports (core/policy/shellparse.py `modules`)
_PYTHON_MODULES = (".py", ".pyc", ".pth", ".so", "/__init__.py", "/__main__.py")
_NODE_MODULES = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".json", ".node", "/package.json")
MODULE_PATHS: dict[str, tuple[str, tuple[str, ...]]] = {
    **{n: ("PYTHONPATH", _PYTHON_MODULES) for n in ("python", "python2", "python3", "pypy",
                                                     "pypy3")},
    **{n: ("NODE_PATH", _NODE_MODULES) for n in ("node", "nodejs", "deno", "bun", "tsx",
                                                  "ts-node", "ts-node-esm", "esno")},
    "perl": ("PERL5LIB", (".pm", ".pl")), "ruby": ("RUBYLIB", (".rb",)),
}


_IMPORTS = re.compile(r"(?:^|[;\n:])[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import\b|import[ \t]+"
                      r"([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*))"
                      r"|(?:__import__|import_module)\(\s*['\"]([\w.]+)['\"]")
#: python's module runners that import the modules named as their operands
_IMPORTING_RUNNERS = frozenset({"unittest", "pydoc", "doctest", "trace", "profile", "cProfile"})


_C_INCLUDE = r"^[ \t]*#[ \t]*(?:include|include_next|import|embed)[ \t]*[<\"]([^>\"\n]+)[>\"]"
_AS_INCLUDE = r"\.(?:incbin|include)[ \t]+\"([^\"\n]+)\""
_ROFF_INCLUDE = r"^\.(?:so|mso|nx|rd)[ \t]+(\S+)"
#: programs that read the files their input names in an include directive, and the directives
#: (red team round 9: `#include "KEY"` through cpp, groff's `.so KEY`, as's `.incbin "KEY"`):
#: each file named is judged as read, relative to the file that names it
INCLUDERS: dict[str, str] = {
    **{n: _C_INCLUDE + "|" + _AS_INCLUDE for n in ("cpp", "gcc", "cc", "g++", "c++", "clang",
                                                   "clang++", "tcc", "gfortran")},
    "as": _AS_INCLUDE, "gas": _AS_INCLUDE,
    **{n: r"^[ \t]*%include[ \t]+[\"']([^\"'\n]+)|\bincbin[ \t]+[\"']([^\"'\n]+)"
       for n in ("nasm", "yasm")},
    **{n: _ROFF_INCLUDE for n in ("groff", "nroff", "troff", "soelim", "mandoc", "grog")},
    **{n: r"\\(?:input|include|verbatiminput|lstinputlisting|inputminted\{[^}]*\})\{([^}]+)\}"
       for n in ("tex", "latex", "pdflatex", "xelatex", "lualatex", "pdftex", "luatex",
                 "latexmk")},
}


def include_targets(name: str, text: str) -> list[str]:
    """The files `text`, given to program `name` (INCLUDERS), includes: the first 16."""
    out: list[str] = []
    for m in re.finditer(INCLUDERS[name], text[:4 * MAX_CODE], re.M):
        out += [g for g in m.groups() if g]
    return list(dict.fromkeys(out))[:16]


def python_imports(text: str, vals: list | None = None) -> list[str]:
    """The modules Python code imports by a literal name (`import a.b, c`, `from a import
    x`, `__import__("m")`, `importlib.import_module("m")`), and those `-m unittest|pydoc|...`
    is given (`vals`): the first 32."""
    out: list[str] = []
    for m in _IMPORTS.finditer(text[:MAX_CODE]):
        if m.group(1):
            out.append(m.group(1))
        elif m.group(2):
            out += [w.split()[0] for w in m.group(2).split(",") if w.strip()]
        elif m.group(3):
            out.append(m.group(3))
    known = [v for v in vals or () if v is not None]
    if "-m" in known and known.index("-m") + 1 < len(known) \
            and known[known.index("-m") + 1] in _IMPORTING_RUNNERS:
        out += [v for v in known[known.index("-m") + 2:]
                if not v.startswith("-") and re.fullmatch(r"[A-Za-z_][\w.]*", v)]
    return list(dict.fromkeys(o for o in out if not o.startswith(".")))[:32]


def module_dirs(name: str, vals: list, cwd: str) -> list[str]:
    """The folders on `name`'s module path besides its variable's: python's working folder
    (with -m, -c, stdin or no script) or its script's folder (not with -I, -P or -E... -I
    and -P keep both off the path), node's script's folder and the working folder (its
    node_modules), perl's and ruby's -I folders."""
    known = [v for v in vals if v is not None]
    if name.startswith(("python", "pypy")):
        if any(v in ("-I", "-P") or (v.startswith("-") and not v.startswith("--")
                                     and ("I" in v[1:] or "P" in v[1:])
                                     and v[1:].isalpha()) for v in known):
            return []
        files = program_files(name, vals)
        if files and files[0] is not None and run_module(name, vals) is None:
            return [posixpath.dirname(posixpath.join(cwd, files[0])) or cwd]
        return [cwd]
    if name in ("perl", "ruby"):
        out = []
        for i, v in enumerate(known):
            if v == "-I" and i + 1 < len(known):
                out.append(known[i + 1])
            elif v.startswith("-I") and len(v) > 2:
                out.append(v[2:])
        return out
    loaded: list[str] = [f for f in program_files(name, vals) if f is not None]
    return list(dict.fromkeys([cwd, posixpath.join(cwd, "node_modules")]
                              + [posixpath.dirname(posixpath.join(cwd, f)) for f in loaded]))


def run_module(name: str, vals: list) -> str | None:
    """The module `python3 -m M` runs (None: not given -m; "": a name that is not static)."""
    if not name.startswith(("python", "pypy")):
        return None
    for i, v in enumerate(vals):
        if v is None:
            return None
        if v == "-m":
            nxt = vals[i + 1] if i + 1 < len(vals) else None
            return nxt if nxt is not None else ""
        if v.startswith("-m") and len(v) > 2:
            return v[2:]
        if v in ("-c", "-") or not v.startswith("-"):
            return None
    return None


def make_includes(text: str) -> list[str | None]:
    """The files a makefile's `include`, `-include` and `sinclude` lines name (its own simple
    variables expanded); None for a name that is not static (an unknown variable, a glob, a
    function)."""
    joined = re.sub(r"\\\n", " ", text)
    defs = {m.group(1): m.group(2).strip() for m in re.finditer(
        r"^(?:override\s+|export\s+)?([A-Za-z_][\w.-]*)\s*(?::{1,3}=|\?=|=)[ \t]*(.*)$",
        joined, re.M)}
    out: list[str | None] = []
    for m in re.finditer(r"^[ ]*(?:-include|sinclude|include)\s+(.*)$", joined, re.M):
        names = m.group(1).split("#", 1)[0]
        for _ in range(8):
            new = re.sub(r"\$[({]([A-Za-z_][\w.-]*)[)}]",
                         lambda r: defs.get(r.group(1), r.group(0)), names)
            if new == names:
                break
            names = new
        if "$" in names:                  # a variable make sets at run time, a function
            out.append(None)
            continue
        out += [None if any(c in word for c in "*?[") else word for word in names.split()]
    return out


def program_language(name: str) -> str:
    spec = PROGRAM_FILES.get(name)
    return spec[3] if spec else ""


#: a sed command that writes a file (`w F`, `W F`, `s/a/b/w F`) or reads one (`r F`, `R F`)
_SED_FILE_CMD = None


def sed_files(script: str) -> list[tuple[str, str]]:
    """(mode "w" | "r", file) each file a sed script's `w`/`W`/`s///w` commands write and its
    `r`/`R` commands read (the rest of the line is the file name, as sed reads it, blanks
    before it or not: `s/a/b/w../f`)."""
    import re   # local: only for sed

    global _SED_FILE_CMD
    if _SED_FILE_CMD is None:
        addr = r"(?:" + _SED_ADDR + r"(?:\s*,\s*(?:" + _SED_ADDR.replace("\\1", "\\2") \
            + r"|[+~]\d+))?)?"
        _SED_FILE_CMD = re.compile(
            r"(?:^|(?<=[;\n{}]))\s*" + addr + r"\s*!*\s*(?:(?P<c>[wWrR])|s(?P<d>[^\s\\])"
            r"(?:[^\\\n]|\\.)*?(?P=d)(?:[^\\\n]|\\.)*?(?P=d)[gpIiMme0-9]*(?P<sw>w))"
            r"\s*(?P<f>[^\n]+)")
    out: list[tuple[str, str]] = []
    for m in _SED_FILE_CMD.finditer(script):
        f = m.group("f").strip()
        if not f or f in ("/dev/stdout", "/dev/stderr", "/dev/stdin"):
            continue
        out.append(("r" if (m.group("c") or "") in "rR" and m.group("c") else "w", f))
    return out


def sed_script_texts(vals: list) -> list[str]:
    """The static script texts given to sed on its command line (-e, --expression=, its first
    operand)."""
    return _sed_scripts([v for v in vals if v is not None])


#: make's own variables, as it defines them (what `$(RM)` and `$(CC)` run)
MAKE_DEFAULTS = {"RM": "rm -f", "CC": "cc", "CXX": "g++", "CPP": "$(CC) -E", "AR": "ar",
                 "AS": "as", "LD": "ld", "MAKE": "make", "SHELL": "/bin/sh", "INSTALL": "install",
                 "MKDIR_P": "mkdir -p", "LN_S": "ln -s", "CP": "cp", "MV": "mv"}


def make_recipes(text: str) -> list[tuple[str, bool]]:
    """The shell command lines a makefile's text runs: each recipe line (`@`, `-`, `+` taken
    off, `$$` made `$`), a rule's `; command`, and each `$(shell ...)`; its own simple variables
    (`X = v`, `X := v`, `X ?= v`) and make's defaults expanded, automatic variables (`$@`,
    `$<`, ...) made a file name. Each with whether a make variable in it is not known (set
    outside the makefile: the command line, the environment)."""
    import re   # local: only for a makefile

    joined = re.sub(r"\\\n", " ", text)
    defs = dict(MAKE_DEFAULTS)
    for m in re.finditer(r"^(?:override\s+|export\s+)?([A-Za-z_][\w.-]*)\s*(?::{1,3}=|\?=|=)"
                         r"[ \t]*(.*)$", joined, re.M):
        defs[m.group(1)] = m.group(2).strip()
    ref = re.compile(r"\$[({]([A-Za-z_][\w.-]*)[)}]")

    def expand(s: str) -> tuple[str, bool]:
        unknown = False
        for _ in range(8):
            def sub(m: re.Match) -> str:
                nonlocal unknown
                if m.group(1) in defs:
                    return defs[m.group(1)]
                unknown = True
                return m.group(0)
            new = ref.sub(sub, s)
            if new == s:
                break
            s = new
        s = re.sub(r"\$[@<^*?+|%]|\$[({][@<^*?+|%][DF]?[)}]", "target", s)
        return s.replace("$$", "$"), unknown

    lines: list[str] = []
    for ln in joined.split("\n"):
        if ln.startswith("\t"):
            lines.append(ln[1:].lstrip().lstrip("@-+").strip())
            continue
        rule = re.match(r"^[^#=\t]*?[^:=]:(?!=)[^;#=]*;(.*)$", ln)
        if rule:
            lines.append(rule.group(1).lstrip().lstrip("@-+").strip())
    lines += [m.group(1) for m in re.finditer(r"\$\(shell\s+([^()]*(?:\([^()]*\)[^()]*)*)\)",
                                              joined)]
    return [expand(ln) for ln in lines if ln]


#: programs whose output, in a `$(...)` used as an operand, is no path a rule could protect
#: (ids, names, dates), and git's subcommands that print names inside the repository (the
#: folder they run in is then checked, recursively: core/policy/paths.py)
NAMES_ONLY = frozenset({"date", "whoami", "id", "uname", "hostname", "nproc", "arch", "logname",
                        "tty", "true", "false"})
GIT_NAMES = frozenset({"rev-parse", "ls-files", "diff", "describe", "branch", "symbolic-ref",
                       "show-ref", "rev-list", "merge-base", "name-rev", "ls-tree", "status"})


def names_only(name: str, vals: list) -> bool:
    """Whether what `name vals` prints is a name, not a path a rule protects (NAMES_ONLY), or
    a path inside the git repository it runs in (GIT_NAMES)."""
    if name in NAMES_ONLY:
        return True
    return name == "git" and _git_subcommand(vals) in GIT_NAMES and not any(
        v is None or v.startswith(("-C", "--git-dir", "--work-tree")) for v in vals)


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
    None when the command removes no installed package. An install by a pip the command names
    by its path changes that environment: ([], the environment). pip, `python -m pip`, `uv pip`,
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
    if _PIPS.fullmatch(name) and sub == "install" and env:
        return [], env                          # an install into the environment it names
    if name == "pipx" and sub in ("uninstall", "uninstall-all", "reinstall", "reinstall-all"):
        return (_packages(rest) if sub in ("uninstall", "reinstall") else [ANY_PACKAGE]), None
    if name == "uv" and sub == "tool" and len(rest) > 0 and rest[0] in ("uninstall", "upgrade"):
        return _packages(rest[1:]), None
    if name == "uv" and sub == "remove":
        return _packages(rest), None
    if sub is None and (name == "pipx" or _PIPS.fullmatch(name)):
        return [ANY_PACKAGE], env               # the subcommand itself is not known
    return None


#: programs that signal processes chosen by a name or pattern (kill: by a number, or all)
SIGNALLERS = frozenset({"pkill", "pgrep", "killall", "skill", "kill"})
#: their options that take a value (not a pattern)
_SIGNAL_VALUED = frozenset({"-s", "--signal", "-u", "--euid", "-U", "--uid", "-g", "--pgroup",
                            "-G", "--group", "-P", "--parent", "-t", "--terminal", "-F",
                            "--pidfile", "--ns", "--nslist", "-d", "--delimiter", "-o",
                            "--older-than", "-y", "--younger-than", "-n", "--signal-name"})


_STOPS = frozenset({"STOP", "TSTP", "TTIN", "TTOU", "19", "20", "21", "22"})


def stops(vals: list) -> bool:
    """Whether a kill, pkill or killall with these words sends a signal that stops a process
    (which then never answers: the hook times out) rather than ending it."""
    for k, v in enumerate(vals):
        if v is None:
            continue
        sig = None
        if v in ("-s", "--signal", "-n") and k + 1 < len(vals):
            sig = vals[k + 1]
        elif v.startswith("--signal="):
            sig = v.split("=", 1)[1]
        elif v.startswith("-") and not v.startswith("--"):
            sig = v[1:]
        if sig and sig.upper().removeprefix("SIG") in _STOPS:
            return True
    return False


def signal_patterns(name: str, vals: list) -> tuple[list[str | None], bool, bool]:
    """The patterns (regexes) `name` picks the processes it signals by, whether they are
    searched in the whole command line (pkill -f), and whether a name must match whole
    (killall without -r, pkill -x). None in the list: a pattern that is not static, or every
    process (`kill -1`, `killall -r .`); a kill of a process number not known is not listed (a
    number is a process that runs now: `kill $(pgrep ...)` is judged by the pgrep)."""
    full = name in ("pkill", "pgrep") and any(
        v in ("-f", "--full") or v and v.startswith("-") and not v.startswith("--")
        and "f" in v[1:] and v[1:].isalpha() for v in vals)
    exact = name == "killall" and not any(v in ("-r", "--regexp") for v in vals) or any(
        v in ("-x", "--exact") for v in vals if name in ("pkill", "pgrep"))
    pats: list[str | None] = []
    if name == "kill":
        # a process number is one that runs now, not the hook of a later call; -1 and a
        # process group (a number after --, or negative) are every process of this user
        targets, k = [], 0
        if vals and vals[0] in ("-s", "-n"):
            k = 2                               # `kill -s SIG ...`
        elif vals and vals[0] is not None and vals[0].startswith("-") and vals[0] != "--":
            k = 1                               # `kill -9 ...`, `kill -1 PID` (SIGHUP)
        for v in vals[k:]:
            if v != "--":
                targets.append(v)
        if any(v in ("-1", "0") for v in targets):
            pats.append(None)
        return pats, full, exact
    skip = False
    for v in vals:
        if skip:
            skip = False
            continue
        if v is None:
            pats.append(None)
        elif v in _SIGNAL_VALUED:
            skip = True
        elif v.startswith("-") and len(v) > 1:
            continue
        else:
            pats.append(re.escape(v) if exact and name == "killall" else v)
    return pats, full, exact


def uninstall_writes(prog: str, vals: list) -> list[str]:
    """The folders a package manager's uninstall (or an install by an environment's own pip,
    `<venv>/bin/pip install X`) writes (recursively): the handler's own package when it
    removes agentdeck (or packages it cannot name), and the environment it names."""
    found = uninstalls(prog, vals)
    if found is None:
        return []
    packages, env = found
    out = [OWN_PACKAGE] if (OWN_DIST in packages or ANY_PACKAGE in packages) else []
    if env:
        out.append(env)
    return out


# ---- programs that run a command they are given ---------------------------------------------
#: how a program's argument, option value, subcommand or stdin carries a command it runs:
#:   LINE   a shell command line (resolved as a line: the argv and path rules apply to it)
#:   ARGV   the words from there on are a command and its arguments (resolved as one)
#:   a language of the program's own (LANGS): its text is read for the shell commands it runs
#:   CODE   code agentdeck does not read: the call is unresolved
#: where the text comes from stdin (a heredoc's static text is read; a pipe's is not), a file
#: or a form not listed, it is CODE
LINE, ARGV, CODE = "line", "argv", "code"
#: program -> {option: how its value carries a command}; "" : its operands (after the first
#: `skip` of them: CARRIER_SKIP), "<": its stdin
OPTION_CARRIERS: dict[str, dict[str, str]] = {
    "sqlite3": {"-cmd": "sqlite", "": "sqlite", "<": "sqlite", "-init": CODE},
    "run-parts": {"": CODE},
    "gdb": {"-ex": "gdb", "--ex": "gdb", "-eval-command": "gdb", "--eval-command": "gdb",
            "-iex": "gdb", "--iex": "gdb", "-init-eval-command": "gdb",
            "--init-eval-command": "gdb", "-x": CODE, "--x": CODE, "-command": CODE,
            "--command": CODE, "-ix": CODE, "--ix": CODE, "-init-command": CODE,
            "--init-command": CODE, "--args": ARGV, "-args": ARGV, "<": "gdb"},
    # an editor's start-up file (-u, -U) and sourced script (-S) are code it runs; -s reads
    # typed keys from a file (`:!cmd` among them) unless -e/-E make it Ex's silent flag
    "vim": {"-c": "ex", "--cmd": "ex", "-S": CODE, "-u": CODE, "-U": CODE, "-s": CODE,
            "-W": CODE, "+": "ex", "<": "ex"},
    "nvim": {"-c": "ex", "--cmd": "ex", "-S": CODE, "-u": CODE, "-s": CODE, "+": "ex",
             "<": "ex", "-l": CODE},
    "vi": {"-c": "ex", "--cmd": "ex", "-S": CODE, "-u": CODE, "-U": CODE, "-s": CODE, "+": "ex",
           "<": "ex"},
    "view": {"-c": "ex", "--cmd": "ex", "-S": CODE, "-u": CODE, "-U": CODE, "-s": CODE,
             "+": "ex"},
    "ex": {"-c": "ex", "--cmd": "ex", "-S": CODE, "-u": CODE, "-U": CODE, "+": "ex", "<": "ex"},
    "ed": {"<": "ex"}, "red": {"<": "ex"},
    "make": {"-E": CODE, "--eval": CODE, "-f-": CODE, "--file=-": CODE, "--makefile=-": CODE},
    "gmake": {"-E": CODE, "--eval": CODE, "-f-": CODE, "--file=-": CODE},
    "socat": {"": "socat"},
    "screen": {"-X": CODE, "": ARGV},
    "expect": {"-c": CODE, "-f": CODE, "": CODE, "<": CODE},
    "at": {"<": LINE, "-f": CODE}, "batch": {"<": LINE, "-f": CODE},
    "crontab": {"": CODE, "<": CODE},
    "tmux": {"-c": LINE},
    "man": {"-P": LINE, "--pager": LINE, "-H": LINE, "--html": LINE},
    "npm": {"-c": LINE, "--call": LINE}, "npx": {"-c": LINE, "--call": LINE},
    "xterm": {"-e": ARGV}, "gnome-terminal": {"--": ARGV, "-e": LINE, "-x": ARGV},
    "konsole": {"-e": ARGV}, "xfce4-terminal": {"-e": LINE, "-x": ARGV},
    "git": {"--upload-pack": LINE, "-u": LINE, "--receive-pack": LINE, "--exec": LINE,
            "-x": LINE, "--extcmd": LINE, "--to-cmd": LINE, "--cc-cmd": LINE,
            "--sendmail-cmd": LINE, "--env-filter": LINE, "--tree-filter": LINE,
            "--index-filter": LINE, "--parent-filter": LINE, "--msg-filter": LINE,
            "--commit-filter": LINE, "--tag-name-filter": LINE},
}
#: options of git whose value runs, by subcommand (a `-x` of git rebase runs, of git log not)
GIT_OPTION_SUBCOMMANDS: dict[str, frozenset] = {
    "--upload-pack": frozenset({"clone", "fetch", "pull", "ls-remote"}),
    "-u": frozenset({"clone", "fetch", "pull", "ls-remote"}),
    "--receive-pack": frozenset({"push", "send-pack"}), "--exec": frozenset({"push", "rebase",
                                                                             "archive"}),
    "-x": frozenset({"rebase", "difftool", "mergetool"}), "--extcmd": frozenset({"difftool"}),
    "--to-cmd": frozenset({"send-email"}), "--cc-cmd": frozenset({"send-email"}),
    "--sendmail-cmd": frozenset({"send-email"}),
}
#: (program, subcommand) -> (word after which the rest is the command, or "", how): the
#: command is the operands, joined (LINE) or as words (ARGV)
SUBCOMMAND_CARRIERS: dict[tuple[str, str], tuple[str, str]] = {
    ("git", "bisect"): ("run", ARGV), ("git", "submodule"): ("foreach", LINE),
    **{("tmux", s): ("", LINE) for s in (
        "new", "new-session", "new-window", "neww", "split-window", "splitw", "respawn-pane",
        "respawnp", "respawn-window", "respawnw", "run-shell", "run", "display-popup", "popup",
        "if-shell", "if", "pipe-pane", "pipep")},
    **{("tmux", s): ("", CODE) for s in ("send-keys", "send", "source-file", "source",
                                         # a buffer's text typed into a pane (red team 10)
                                         "paste-buffer", "pasteb",
                                         "command-prompt", "bind-key", "bind",
                                         "set-hook", "set-option", "set")},
    ("screen", "-X"): ("", CODE),
}
#: the editors whose start-up file options name a file, and the values that name none
_EDITORS = frozenset({"vim", "nvim", "vi", "view", "ex"})
_NO_STARTUP_FILE = frozenset({"NONE", "NORC", "DEFAULTS", "NOPLUGIN"})
#: options of tmux's and screen's subcommands that take a value (the command is the operands)
_TMUX_VALUED = frozenset({"-c", "-e", "-F", "-f", "-l", "-n", "-s", "-t", "-x", "-y", "-p",
                          "-S", "-T", "-L", "-w"})
_TMUX_POPUP_VALUED = _TMUX_VALUED | {"-h", "-d", "-b"}
_SCREEN_VALUED = frozenset({"-S", "-c", "-e", "-h", "-p", "-s", "-t", "-T", "-Logfile", "-X"})
_SQLITE_VALUED = frozenset({"-cmd", "-init", "-separator", "-newline", "-nullvalue",
                            "-vfs", "-maxsize", "-mmap", "-pagecache", "-lookaside",
                            "-heap"})
_GDB_VALUED = frozenset({"-p", "--pid", "-c", "--core", "-cd", "--cd", "-d", "--directory",
                         "-s", "--symbols", "-e", "--exec", "-se", "-b", "-l", "-i",
                         "--interpreter", "-D", "--data-directory", "-tty", "--tty"})
#: gdb commands that run nothing on the host: anything else given to gdb (python, pipe,
#: source, define, a call or print of a function) is CODE
_GDB_PLAIN = frozenset({"run", "r", "start", "starti", "bt", "backtrace", "where", "break",
                        "b", "tbreak", "info", "i", "continue", "c", "next", "n", "step", "s",
                        "stepi", "nexti", "si", "ni", "quit", "q", "list", "l", "file",
                        "disassemble", "frame", "f", "thread", "finish", "kill", "display",
                        "watch", "delete", "d", "up", "down", "attach", "detach", "core",
                        "core-file", "echo", "show", "help", "x", "ptype", "whatis",
                        "info", "set", "handle", "catch", "until", "advance", "jump"})
#: ex commands (vim -c, ed's script) that change no file but the buffer and run nothing
_EX_PLAIN = re.compile(r"(?:%|\d*(?:,\d+|\$)?)?(?:s|g|v)([^\w\s]).*|"
                       r"(?:q|q!|qa|qa!|qall|qall!|quit|quit!|wq|wq!|x|x!|w|w!|wqa|xa|"
                       r"set\s.*|se\s.*|noh|syntax\s.*|normal!?\s.*|\d*d|\d+|\$|p|,p|%p|\.|"
                       r"[aic]|u|undo|H|h|P|=|j|n|l|f)")


def _opt_value(vals: list, i: int, opt: str) -> tuple[str | None, int] | None:
    """The value of option `opt` at vals[i] (`-x V`, `-xV` for one-letter options, `--x=V`):
    (value, index of the next word), or None when vals[i] is not that option."""
    v = vals[i]
    if v == opt:
        return (vals[i + 1] if i + 1 < len(vals) else None), i + 2
    if opt.startswith("--") or (opt.startswith("-") and len(opt) > 2):
        if v.startswith(opt + "="):
            return v.split("=", 1)[1], i + 1
        return None
    if len(opt) == 2 and v.startswith(opt) and len(v) > 2 and not v.startswith("--"):
        return v[2:], i + 1
    return None


def lang_lines(lang: str, text: str) -> tuple[list[str], str]:
    """The shell command lines a program's own language runs in `text` (sqlite3's .system and
    .shell, gdb's shell and !, an ex or ed `!cmd`, socat's EXEC: and SYSTEM:), and why the text
    runs code agentdeck does not read ("" when it runs none)."""
    out: list[str] = []
    for raw in text.split("\n") if lang != "socat" else [text]:
        s = raw.strip()
        if not s:
            continue
        if lang == "sqlite":
            if s.startswith("."):
                word, _, rest = s.partition(" ")
                if word in (".system", ".shell", ".sh", ".sys"):
                    out.append(rest)
                elif "|" in rest and word.startswith((".o", ".once", ".output", ".read",
                                                      ".import", ".excel")):
                    out.append(rest.split("|", 1)[1])
                elif word.startswith((".load", ".read", ".open", ".output", ".once", ".save",
                                      ".backup", ".restore", ".import", ".excel", ".cd",
                                      ".clone", ".archive", ".ar", ".edit", ".dump",
                                      ".recover")):
                    return out, f"sqlite3 {word} reads, writes or loads a file of its own"
            elif re.search(r"\b(?:load_extension|writefile|readfile|edit|ATTACH|VACUUM\s+INTO)\b",
                           s, re.I):
                return out, "sqlite3 SQL that reads, writes or loads a file"
        elif lang == "gdb":
            if s.startswith("!"):
                out.append(s[1:])
                continue
            word, _, rest = s.partition(" ")
            if word == "shell":
                out.append(rest)
            elif word not in _GDB_PLAIN or ("(" in rest and word not in ("break", "b")):
                return out, f"gdb's {word} command runs code agentdeck does not read"
        elif lang == "ex":
            s = s.lstrip(":").strip()
            for prefix in ("silent!", "silent", "sil!", "sil"):
                if s.startswith(prefix + " "):
                    s = s[len(prefix):].strip()
            # `:!cmd`, `:r !cmd`, `:w !cmd` (a blank before the `!`: `w! FILE` is a write)
            m = re.match(r"(?:[.$%\d,]*)(?:(?:r|read|w|write)\s+)?!(.*)", s)
            if m:
                out.append(m.group(1))
            elif not _EX_PLAIN.fullmatch(s):
                return out, f"the editor command {s[:30]!r} is not one agentdeck reads"
        elif lang == "socat":
            kind, _, addr = s.partition(":")
            if kind.upper() in ("EXEC", "SYSTEM"):
                cmd = addr.split(",", 1)[0]
                out.append(cmd)
            elif "!!" in s:
                for part in s.split("!!"):
                    lines, why = lang_lines("socat", part)
                    out += lines
                    if why:
                        return out, why
    return out, ""


def tmux_commands(vals: list) -> list[list]:
    """tmux's arguments split into its commands: a word `;` (the shell's `\\;`) or a word
    ending in an unescaped `;` ends one (tmux's own command separator)."""
    segments: list[list] = [[]]
    for v in vals:
        if v == ";":
            segments.append([])
        elif v is not None and len(v) > 1 and v.endswith(";") and not v.endswith("\\;"):
            segments[-1].append(v[:-1])
            segments.append([])
        else:
            segments[-1].append(v)
    return [seg for seg in segments if seg]


def carried(name: str, vals: list, stdin_text: str | None, stdin: str | None
            ) -> tuple[list[str], list[list[str]], str]:
    """The commands a program runs that it is given (OPTION_CARRIERS, SUBCOMMAND_CARRIERS):
    (shell lines, argvs, why it runs code agentdeck does not read, or ""). `stdin_text` is a
    heredoc's static text, `stdin` how its stdin is fed ("pipe", "heredoc", None)."""
    table = OPTION_CARRIERS.get(name)
    lines: list[str] = []
    argvs: list[list[str]] = []
    if table is None and name not in ("tmux", "screen"):
        return lines, argvs, ""
    if name == "tmux":
        if any(v is not None and "#(" in v for v in vals):
            return lines, argvs, "tmux runs the command of a #() format"
        segments = tmux_commands(vals)
        if len(segments) > 1:           # tmux new -d CMD \; run-shell CMD2: each is judged
            for seg in segments:
                seg_lines, seg_argvs, why = carried(name, seg, stdin_text, stdin)
                lines += seg_lines
                argvs += seg_argvs
                if why:
                    return lines, argvs, why
            return lines, argvs, ""

    def take(how: str, text: str | None, where: str) -> str:
        if text is None:
            return f"{name} runs {where}, which is not static"
        if how == LINE:
            lines.append(text)
        elif how == CODE:
            return f"{name} runs code ({where}) that agentdeck does not read"
        elif how != ARGV:
            got, why = lang_lines(how, text)
            lines.extend(got)
            return why
        return ""

    table = table or {}
    sub = _git_subcommand(vals) if name == "git" else None
    operands: list[str | None] = []
    i = 0
    while i < len(vals):
        v = vals[i]
        if v is None:
            operands.append(None)
            i += 1
            continue
        if name == "gdb" and v in ("--args", "-args"):
            rest = vals[i + 2:] if i + 1 < len(vals) else []
            if any(w is None for w in vals[i + 1:]):
                return lines, argvs, "gdb --args runs a program that is not static"
            argvs.append([w for w in vals[i + 1:] if w is not None])
            return lines, argvs, ""
        if name in ("vim", "nvim", "vi", "view", "ex") and v.startswith("+") and len(v) > 1:
            why = take("ex", v[1:], "an editor command")
            if why:
                return lines, argvs, why
            i += 1
            continue
        if name in ("xterm", "konsole", "gnome-terminal", "xfce4-terminal") and v in table \
                and table[v] == ARGV:
            rest = vals[i + 1:]
            if any(w is None for w in rest):
                return lines, argvs, f"{name} runs a command that is not static"
            argvs.append([w for w in rest if w is not None])
            return lines, argvs, ""
        hit = None
        for opt, how in table.items():
            if opt in ("", "<") or not opt.startswith("-"):
                continue
            if name == "git" and sub not in GIT_OPTION_SUBCOMMANDS.get(
                    opt, frozenset({"filter-branch"})):
                continue
            if opt in ("-f-", "--file=-", "--makefile=-"):
                if v == opt or (opt == "-f-" and v in ("-f", "--file", "--makefile") and i + 1 < len(vals)
                                and vals[i + 1] in ("-", "/dev/stdin")):
                    return lines, argvs, f"{name} reads its makefile from stdin"
                continue
            got = _opt_value(vals, i, opt)
            if got is not None:
                hit = (how, got)
                break
        if hit is not None and name in _EDITORS and hit[1][0] in _NO_STARTUP_FILE \
                and v.split("=", 1)[0] in ("-u", "-U"):
            i = hit[1][1]                       # vim -u NONE: no start-up file at all
            continue
        if hit is not None and name in _EDITORS and v == "-s" and any(
                w is not None and w.startswith("-") and not w.startswith("--")
                and ("e" in w[1:] or "E" in w[1:]) for w in vals):
            i += 1                              # vim -e -s: Ex mode's silent flag, no file
            continue
        if hit is not None:
            (how, (text, nxt)) = hit
            why = take(how, text, f"the value of {v.split('=', 1)[0]}")
            if why:
                return lines, argvs, why
            i = nxt
            continue
        if v.startswith("-") and len(v) > 1:
            valued = (_SQLITE_VALUED if name == "sqlite3" else _GDB_VALUED if name == "gdb"
                      else _SCREEN_VALUED if name == "screen" else frozenset({"-f", "-q"})
                      if name in ("at", "batch") else frozenset({"-L", "-S", "-f", "-T"})
                      if name == "tmux" else frozenset())
            clustered = (not v.startswith("--") and len(v) > 2 and "-" + v[-1] in valued
                         and v[1:].isalpha())
            i += 2 if v in valued or clustered else 1
            continue
        operands.append(v)
        if name in ("tmux", "screen") or (name, v) in SUBCOMMAND_CARRIERS:
            break
        i += 1
    # a subcommand whose operands are the command (tmux new 'cmd', git bisect run CMD ...)
    if operands and operands[-1] is not None and (
            (name, operands[-1]) in SUBCOMMAND_CARRIERS or name in ("tmux", "screen")):
        first = operands[-1]
        if name == "screen":
            rest = vals[i:]
            if any(w is None for w in rest):
                return lines, argvs, "screen runs a command that is not static"
            argvs.append([w for w in rest if w is not None])
            return lines, argvs, ""
        if name == "tmux" and (name, first) not in SUBCOMMAND_CARRIERS:
            return lines, argvs, ""
        if name == "tmux" and first in ("paste-buffer", "pasteb"):
            return lines, argvs, f"{name} {first} types a buffer agentdeck does not read into a pane"
        after, how = SUBCOMMAND_CARRIERS[(name, first)]
        rest = vals[i + 1:]
        if after:
            idx = next((k for k, w in enumerate(rest) if w == after), None)
            if idx is None:
                return lines, argvs, ""
            rest = rest[idx + 1:]
        if name == "tmux":
            valued = _TMUX_POPUP_VALUED if first in ("display-popup", "popup") else _TMUX_VALUED
            k = 0
            while k < len(rest) and rest[k] is not None and rest[k].startswith("-") \
                    and rest[k] != "--":
                w = rest[k]
                k += 2 if w in valued or (len(w) > 2 and "-" + w[-1] in valued
                                          and w[1:].isalpha()) else 1
            if k < len(rest) and rest[k] == "--":
                k += 1
            rest = rest[k:]
        elif name == "git" and how == LINE:
            while rest and rest[0] is not None and rest[0].startswith("-"):
                rest = rest[1:]
        if not rest:
            return lines, argvs, ""
        if any(w is None for w in rest):
            return lines, argvs, f"{name} {first} runs a command that is not static"
        words = [w for w in rest if w is not None]
        if how == CODE:
            return lines, argvs, f"{name} {first} runs commands agentdeck does not read"
        if name == "tmux" and first in ("if-shell", "if"):
            # `if-shell SHELL-COMMAND TMUX-COMMAND [TMUX-COMMAND]`: the first is a shell line,
            # the others are tmux's own commands, which can run shell lines (red team round
            # 10: `tmux if-shell "rm -rf x" "display ok"` was read as one program's argv)
            import shlex   # local: only for tmux if-shell's commands
            lines.append(words[0])
            for tw in words[1:]:
                try:
                    inner = shlex.split(tw)
                except ValueError:
                    return lines, argvs, f"{name} {first} runs a tmux command agentdeck does not parse"
                if inner:
                    got_lines, got_argvs, why = carried("tmux", inner, None, None)
                    lines += got_lines
                    argvs += got_argvs
                    if why:
                        return lines, argvs, why
            return lines, argvs, ""
        if how == ARGV or (name == "tmux" and len(words) > 1):
            argvs.append(words)
        else:
            lines.append(" ".join(words))
        return lines, argvs, ""
    found = table.get("")
    if found is not None:
        skip = 1 if name == "sqlite3" else 0
        for op in operands[skip:]:
            why = take(found, op, "an operand")
            if why:
                return lines, argvs, why
    found = table.get("<")
    if found is not None and stdin is not None and (found != "sqlite" or len(operands) < 2):
        if name in ("at", "batch") and any(v in ("-l", "-r", "-d", "-c") for v in vals):
            return lines, argvs, ""
        why = take(found, stdin_text, "from its stdin")
        if why:
            return lines, argvs, why
    elif name in ("at", "batch", "crontab") and stdin is None and not any(
            v is not None and v.startswith("-") for v in vals) and not operands:
        return lines, argvs, f"{name} reads the commands it schedules from its input"
    return lines, argvs, ""


#: variables whose value a program runs as a shell command line (git's, a pager, an editor,
#: ssh's, less's input filter, a compiler wrapper): an assignment of one on the line is resolved
#: as a line
COMMAND_VARS = frozenset({
    "GIT_EXTERNAL_DIFF", "GIT_PAGER", "PAGER", "MANPAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
    "EDITOR", "VISUAL", "SUDO_EDITOR", "FCEDIT", "GIT_SSH_COMMAND", "GIT_SSH",
    "GIT_PROXY_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS", "LESSOPEN", "LESSCLOSE",
    "BROWSER", "SYSTEMD_PAGER", "SYSTEMD_PAGERSECURE", "PSQL_PAGER", "MYSQL_PS1",
    "SSH_ASKPASS_REQUIRE", "DIFFTOOL", "MERGETOOL", "FZF_DEFAULT_COMMAND",
    "PROMPT_COMMAND", "RSYNC_RSH", "RSYNC_CONNECT_PROG", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC_WRAPPER",
    "CCACHE_PREFIX", "HGEDITOR", "SVN_EDITOR", "TERMINAL",
    "CARGO_TARGET_RUNNER", "CMAKE_C_COMPILER_LAUNCHER", "CMAKE_CXX_COMPILER_LAUNCHER",
    # the interpreter the gcloud launcher runs (red team round 9: CLOUDSDK_PYTHON=sh)
    "CLOUDSDK_PYTHON",
    # the shell `flock -c`, `script -c`, tmux, screen, vi's `:!` and others run commands with
    "SHELL",
})
#: and any variable named as one a program runs (red team round 10: `PERLDOC_PAGER`, as
#: `BAT_PAGER`, `GH_EDITOR`, `KUBE_EDITOR`, `AWS_PAGER`)
COMMAND_VAR_SUFFIXES = ("_PAGER", "_EDITOR", "_ASKPASS", "_BROWSER")


def command_var(name: str) -> bool:
    """Whether a program runs the value of the variable `name` as a command."""
    return name in COMMAND_VARS or name.endswith(COMMAND_VAR_SUFFIXES)
#: variables that name the folders a program loads its code or modules from: the code there is
#: not read, so one that names a folder outside the working folder (or one the line writes
#: into) is unresolved; the project's own folders (`PYTHONPATH=src`) are the project's code,
#: which a test runner runs as well
LOAD_PATH_VARS = frozenset({
    "PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PERL5LIB", "PERLLIB", "RUBYLIB", "NODE_PATH",
    "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES", "CLASSPATH", "GEM_HOME",
    "GEM_PATH", "LUA_PATH", "LUA_CPATH", "TCLLIBPATH", "GUILE_LOAD_PATH", "JULIA_LOAD_PATH",
    "JULIA_DEPOT_PATH", "R_LIBS", "R_LIBS_USER", "EMACSLOADPATH", "PHP_INI_SCAN_DIR",
})
#: variables that make a program load or run code agentdeck does not read: unresolved. By kind:
#: options and start-up code given as text, where a program finds its configuration (a config
#: file can name a program it runs: git's core.fsmonitor, a shell's rc files, curl's and wget's
#: options, a cloud tool's credential process), and the git repository or tool folder it uses
CODE_VARS = frozenset({
    # options and start-up code
    "LD_PRELOAD", "LD_AUDIT", "NODE_OPTIONS", "PERL5OPT", "PERL5DB", "PERLDB_OPTS", "RUBYOPT",
    "PYTHONSTARTUP", "PYTHONINSPECT", "PYTHONBREAKPOINT", "LUA_INIT", "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "DOTNET_STARTUP_HOOKS", "GCONV_PATH", "VIMINIT",
    "EXINIT", "GVIMINIT", "MANOPT", "GOFLAGS", "MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS",
    "MAKEFILES", "TAR_OPTIONS", "ZIPOPT", "UNZIP", "UNZIPOPT", "ZIPINFO", "GIT_INDEX_FILE", "LESS", "OPENSSL_CONF",
    "npm_config_script_shell", "NPM_CONFIG_SCRIPT_SHELL", "npm_config_node_options",
    "NPM_CONFIG_NODE_OPTIONS", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
    # where configuration is read from
    "GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_TEMPLATE_DIR", "XDG_CONFIG_HOME",
    "XDG_CONFIG_DIRS", "XDG_DATA_HOME", "XDG_DATA_DIRS", "ZDOTDIR", "MYVIMRC", "VIMRUNTIME",
    "CURL_HOME", "WGETRC", "INPUTRC", "IPYTHONDIR", "JUPYTER_CONFIG_DIR", "PHPRC", "R_PROFILE",
    "R_PROFILE_USER", "R_ENVIRON", "R_ENVIRON_USER", "KUBECONFIG", "DOCKER_CONFIG",
    "AWS_CONFIG_FILE", "CARGO_HOME", "GOENV", "PIP_CONFIG_FILE", "NPM_CONFIG_USERCONFIG",
    "npm_config_userconfig", "NPM_CONFIG_GLOBALCONFIG", "npm_config_globalconfig",
    "YARN_RC_FILENAME", "BUNDLE_GEMFILE", "HGRCPATH", "GNUPGHOME", "PYTHONPYCACHEPREFIX",
    # the repository or the programs a tool runs
    "GIT_DIR", "GIT_COMMON_DIR", "GIT_EXEC_PATH", "RUSTC", "RUSTDOC",
    "BUNFIG", "DENO_CONFIG", "GDBINIT",
    # red team round 9: the launcher's arguments to its interpreter, wget's system file, less's
    # key files (#env LESSOPEN), a compiler driver's program folders, Maven's and Gradle's
    # Java (JAVA_HOME/bin/java runs), Tcl's start-up library (init.tcl)
    "CLOUDSDK_PYTHON_ARGS", "SYSTEM_WGETRC", "LESSKEYIN", "LESSKEY", "LESSKEYIN_SYSTEM",
    "LESSKEY_SYSTEM", "LESSKEY_CONTENT", "GCC_EXEC_PREFIX", "COMPILER_PATH", "JAVA_HOME",
    "TCL_LIBRARY", "TK_LIBRARY",
    # the locale data bash, glob classes and $"..." read (red team round 11)
    "LOCPATH",
    # the JVM options a build tool's launcher passes on (`MAVEN_OPTS=-agentpath:...`: round 12)
    "MAVEN_OPTS", "GRADLE_OPTS", "JAVA_OPTS", "SBT_OPTS", "ANT_OPTS", "KOTLIN_OPTS",
})
#: make's variables whose value its built-in rules and recipes run as a command (`$(CC) x.c`):
#: one given to make (its environment, `make CC=...`) is resolved as a line; any other variable
#: given to it is text a recipe may hold, resolved as the words of a line (`CFLAGS='-O2; rm'`)
MAKE_COMMAND_VARS = frozenset(set(MAKE_DEFAULTS) | {
    "FC", "PC", "YACC", "LEX", "M2C", "CO", "GET", "TEX", "WEAVE", "TANGLE", "CWEAVE",
    "CTANGLE", "MAKEINFO", "TEXI2DVI", "LINT", "CHECKOUT", "RANLIB", "OBJCOPY", "STRIP",
    "NM", "PKG_CONFIG", "INSTALL_PROGRAM", "INSTALL_DATA", "HOSTCC", "CROSS_COMPILE",
    "PYTHON", "PERL", "GO", "CARGO", "NPM", "DOCKER",
})
_MAKES = frozenset({"make", "gmake", "bmake", "pmake"})


def given_values(name: str, vals: list) -> list[tuple[str, str | None]]:
    """(variable, value) each value a program is given by an assignment among its arguments:
    awk's `-v VAR=VALUE` and `VAR=VALUE` operands, make's `VAR=VALUE` operands, git's
    `-c KEY=VALUE`; the value None when it is not static. A value that names a path is a path
    the program may read or write (core/policy/paths.py), and make's are commands
    (MAKE_COMMAND_VARS)."""
    out: list[tuple[str, str | None]] = []

    def pair(w: str | None) -> tuple[str, str | None] | None:
        if w is None or "=" not in w:
            return None
        k, v = w.split("=", 1)
        return (k, v) if k and re.fullmatch(r"[A-Za-z_][\w.-]*", k) else None

    i = 0
    ended = False
    while i < len(vals):
        v = vals[i]
        nxt = vals[i + 1] if i + 1 < len(vals) else None
        if name in _AWKS:
            if v in ("-v", "--assign") and i + 1 < len(vals):
                got = pair(nxt)
                if got:
                    out.append(got)
                i += 2
                continue
            if v is not None and (v.startswith("-v") and len(v) > 2 or v.startswith("--assign=")):
                got = pair(v[2:] if v.startswith("-v") else v.split("=", 1)[1])
                if got:
                    out.append(got)
            elif v is not None and not v.startswith("-") and not ended:
                ended = True          # the program text: assignment operands come after it
            elif ended:
                got = pair(v)
                if got:
                    out.append(got)
        elif name in _MAKES:
            if v is not None and not v.startswith("-"):
                got = pair(v)
                if got:
                    out.append(got)
        elif name == "git":
            if v == "-c" and i + 1 < len(vals):
                got = pair(nxt)
                if got:
                    out.append(got)
                i += 2
                continue
            if v is not None and v.startswith("-c") and len(v) > 2:
                got = pair(v[2:])
                if got:
                    out.append(got)
            if v is not None and not v.startswith("-"):
                break                 # git's subcommand: its own options are not git's -c
        i += 1
    return out


def names_paths(value: str) -> list[str]:
    """The parts of a value given to a program that can name a file (a `:`-separated list
    split, URLs and options left out): judged as paths the program may read or write."""
    out: list[str] = []
    for part in value.split(":") if "://" not in value else [value]:
        part = part.strip()
        if not part or "://" in part or part.startswith("-") or "\n" in part:
            continue
        if len(part) <= 4096 and not any(c in part for c in "\n;|&<>`$(){}"):
            out.append(part)
    return out


#: files a program reads commands from in the folder it runs in (a makefile, package.json's
#: scripts, git's hooks and config): one written earlier on the same line and then used is
#: "a program written earlier in the line and then run" (core/policy/shellparse.py); a name
#: ending in "/" is a folder whose files count; git's are matched anywhere above the folder
RUNS_FROM_FILES: dict[str, tuple[str, ...]] = {
    "make": ("Makefile", "makefile", "GNUmakefile"), "gmake": ("Makefile", "makefile", "GNUmakefile"),
    **{n: ("package.json", ".npmrc", "node_modules/") for n in ("npm", "pnpm", "yarn", "bun",
                                                                "npx", "corepack")},
    "git": (".git/hooks/", ".git/config", ".gitattributes", ".gitmodules", ".git/info/"),
    "pytest": ("conftest.py", "pytest.ini", "pyproject.toml", "setup.cfg", "tox.ini"),
    "tox": ("tox.ini", "pyproject.toml", "setup.py"), "pip": ("setup.py", "pyproject.toml"),
    "pip3": ("setup.py", "pyproject.toml"), "cargo": ("build.rs", "Cargo.toml", ".cargo/"),
    "just": ("justfile", "Justfile", ".justfile"), "rake": ("Rakefile",),
    "ninja": ("build.ninja",), "cmake": ("CMakeLists.txt", "CMakePresets.json",
                                         "CMakeUserPresets.json"),
    # the start-up files an editor, a debugger or a runtime reads by itself
    **{n: ("~/.vimrc", "~/.vim/", "~/.exrc", ".exrc") for n in ("vim", "vi", "view", "ex")},
    "nvim": ("~/.config/nvim/", ".nvim.lua", ".exrc"),
    "gdb": (".gdbinit", "~/.gdbinit", "~/.config/gdb/"),
    "deno": ("deno.json", "deno.jsonc", "package.json"),
    "bunx": ("package.json", "node_modules/", "bunfig.toml"),
    # CMake's test and package drivers, and a Debian package build's rules (red team round 9)
    "ctest": ("CTestTestfile.cmake", "CTestConfig.cmake", "DartConfiguration.tcl"),
    "cpack": ("CPackConfig.cmake", "CPackSourceConfig.cmake"),
    **{n: ("debian/",) for n in ("dpkg-buildpackage", "debuild", "pdebuild")},
}
RUNS_FROM_FILES["bun"] = RUNS_FROM_FILES["bun"] + ("bunfig.toml",)
#: git config keys whose value git runs (or that load one that does)
GIT_CODE_KEYS = _GIT_CODE_KEYS + ("include.", "includeif.", "diff.", "merge.", "core.gitproxy",
                                  "core.attributesfile", "init.templatedir", "ssh.")


def runs_written_file(name: str, cwd: str, written: set, home: str = "") -> str:
    """A file `name` reads commands from (RUNS_FROM_FILES) that is among the paths `written`
    earlier on the line, or "". An entry starting with `~/` is in the home."""
    files = RUNS_FROM_FILES.get(name)
    if not files:
        return ""
    for p in written:
        for f in files:
            if f.startswith("~/"):
                at = home.rstrip("/") + f[1:]
                if home and (p == at or f.endswith("/") and p.startswith(at)):
                    return p
            elif name == "git":
                if ("/" + f) in p + ("/" if f.endswith("/") else "") or p.endswith("/" + f):
                    return p
            elif f.endswith("/"):
                if p.startswith(cwd.rstrip("/") + "/" + f):
                    return p
            elif p == cwd.rstrip("/") + "/" + f:
                return p
    return ""


# ---- bind mounts: a path shown to a command under another name ----------------------------------
#: bwrap's options by how many values they take (its command follows them)
_BWRAP_TWO = frozenset({"--bind", "--ro-bind", "--dev-bind", "--bind-try", "--ro-bind-try",
                        "--dev-bind-try", "--symlink", "--setenv", "--chmod", "--file",
                        "--bind-data", "--ro-bind-data", "--overlay-src"})
_BWRAP_BINDS = frozenset({"--bind", "--ro-bind", "--dev-bind", "--bind-try", "--ro-bind-try",
                          "--dev-bind-try", "--overlay-src"})
_BWRAP_ONE = frozenset({"--proc", "--dev", "--tmpfs", "--mqueue", "--dir", "--chdir",
                        "--unsetenv", "--uid", "--gid", "--hostname", "--lock-file", "--sync-fd",
                        "--info-fd", "--block-fd", "--userns", "--userns2", "--pidns",
                        "--seccomp", "--add-seccomp-fd", "--exec-label", "--file-label",
                        "--args", "--cap-add", "--cap-drop", "--perms", "--size",
                        "--remount-ro", "--json-status-fd", "--bind-fd", "--ro-bind-fd",
                        "--tmp-overlay", "--ro-overlay", "--argv0", "--level-prefix"})
#: programs that mount a folder of the host into what they run: how a bind is written
BIND_PROGRAMS = frozenset({"bwrap", "proot", "systemd-nspawn", "docker", "podman", "nerdctl",
                           "mount"})


def bind_mounts(name: str, vals: list) -> tuple[list[str | None], int | None, str]:
    """(the host paths a bind mount shows under another name, the index in `vals` where the
    command it runs starts (None: none, or not read here), why the line is not read ("" when
    it is)) for `bwrap --bind SRC DST CMD`, `proot -b SRC[:DST] CMD`, `systemd-nspawn
    --bind=SRC[:DST]`, `docker|podman run -v SRC:DST` / `--mount ...,source=SRC`, `mount
    --bind SRC DST`. A bind of a protected path is access to it, for reading and writing."""
    srcs: list[str | None] = []
    i = 0
    n = len(vals)
    if name == "bwrap":
        while i < n:
            v = vals[i]
            if v is None:
                return srcs, None, "bwrap with an option that is not static"
            if v in _BWRAP_TWO:
                src = vals[i + 1] if i + 1 < n else None
                dst = vals[i + 2] if i + 2 < n else None
                if v in _BWRAP_BINDS and not (src is not None and src == dst):
                    # (`--ro-bind / /`: the same path under the same name, so the command's
                    # own paths are the host's, and judged as such)
                    srcs.append(src)
                i += 3
            elif v in _BWRAP_ONE:
                i += 2
            elif v.startswith("--"):
                if v == "--":
                    return srcs, (i + 1 if i + 1 < n else None), ""
                if not (v.startswith(("--unshare-", "--share-")) or v in (
                        "--die-with-parent", "--as-pid-1", "--new-session", "--clearenv",
                        "--disable-userns", "--assert-userns-disabled", "--cap-add")):
                    return srcs, None, f"bwrap's option {v} is not read here"
                i += 1
            else:
                return srcs, i, ""
        return srcs, None, ""
    if name == "proot":
        while i < n:
            v = vals[i]
            if v is None:
                return srcs, None, "proot with an option that is not static"
            if v in ("-b", "--bind", "-m", "--mount"):
                srcs.append((vals[i + 1] or "").split(":", 1)[0] if i + 1 < n and vals[i + 1]
                            is not None else None)
                i += 2
            elif v.startswith(("--bind=", "--mount=")):
                srcs.append(v.split("=", 1)[1].split(":", 1)[0])
                i += 1
            elif v in ("-r", "--rootfs", "-w", "--pwd", "--cwd", "-q", "--qemu", "-k",
                       "--kernel-release"):
                i += 2
            elif v.startswith("-"):
                i += 1
            else:
                return srcs, i, ""
        return srcs, None, ""
    if name == "systemd-nspawn":
        for j, v in enumerate(vals):
            if v is None:
                return srcs, None, "systemd-nspawn with an option that is not static"
            if v.startswith(("--bind=", "--bind-ro=", "--overlay=", "--overlay-ro=")):
                srcs.append(v.split("=", 1)[1].split(":", 1)[0].lstrip("+"))
            elif v in ("--bind", "--bind-ro") and j + 1 < n:
                srcs.append((vals[j + 1] or "").split(":", 1)[0].lstrip("+") or None)
        return srcs, None, ""
    if name == "mount":
        known = [v for v in vals if v is not None]
        # an overlay shows its lower folders (read) and its upper folder (written through the
        # mount point) under the mount point (red team round 10: lowerdir=~/.ssh)
        for j, v in enumerate(vals):
            opts = vals[j + 1] if v in ("-o", "--options") and j + 1 < n else \
                v[2:] if v is not None and v.startswith("-o") and len(v) > 2 else \
                v.split("=", 1)[1] if v is not None and v.startswith("--options=") else None
            if opts is None and v in ("-o", "--options") and j + 1 < n:
                srcs.append(None)          # options not known: any folder
                continue
            for kv in (opts or "").split(","):
                key, eq, val = kv.partition("=")
                if eq and key in ("lowerdir", "upperdir", "workdir", "lowerdir+", "datadir+"):
                    srcs += [d for d in val.split(":") if d] or [None]
        if any(v in ("--bind", "--rbind", "-B", "-R") or "bind" in v for v in known):
            # `mount -o bind SRC DST`: the value of -o (and of mount's other valued options)
            # is no operand
            valued = ("-o", "--options", "-t", "--types", "-O", "--test-opts", "-L", "--label",
                      "-U", "--uuid", "-N", "--namespace", "-T", "--fstab")
            ops = [v for j, v in enumerate(vals) if (v is None or not v.startswith("-"))
                   and not (j and vals[j - 1] in valued)]
            srcs.append(ops[0] if ops else None)
        return srcs, None, ""
    # docker, podman, nerdctl: `run` and `create` with volumes
    ops = [v for v in vals if v is not None and not v.startswith("-")]
    if not ops or ops[0] not in ("run", "create"):
        return srcs, None, ""
    for j, v in enumerate(vals):
        if v is None:
            continue
        val = None
        if v in ("-v", "--volume", "--mount") and j + 1 < n:
            val = vals[j + 1]
            if val is None:
                srcs.append(None)
                continue
        elif v.startswith(("--volume=", "--mount=")):
            val = v.split("=", 1)[1]
        elif v.startswith("-v") and len(v) > 2:
            val = v[2:]
        if val is None:
            continue
        if v.startswith("--mount"):
            got = [p.split("=", 1)[1] for p in val.split(",")
                   if p.split("=", 1)[0] in ("source", "src") and "=" in p]
            srcs += got
        elif val.startswith(("/", "~", ".", "$")):
            srcs.append(val.split(":", 1)[0])
    return srcs, None, ""


#: calls by which code loads and runs another file's code, by language: python's runpy and
#: exec(open(F)), node's require/import of a path, perl's `do`/`require` of a path, ruby's
#: load/require_relative, php's include/require, lua's dofile, R's source
_CODE_LOADS = (r"(?:runpy\s*\.\s*run_path|exec\s*\(\s*open|execfile|require|import|do|load"
               r"|require_relative|include|include_once|require_once|dofile|loadfile|source)"
               r"\s*\(?\s*(['\"])((?:\.{0,2}/|~/)[^'\"\n]*)\1")
_CODE_LOADS_ANY = (r"(?:runpy\s*\.\s*run_(?:path|module)|exec\s*\(\s*open|execfile|dofile"
                   r"|loadfile|require_relative|importlib)\s*[.(]")


def code_loads(code: str) -> tuple[list[str], bool]:
    """(the files inline code loads and runs as code of its own language, named by a literal
    path; whether it loads code by a name agentdeck does not read: `runpy.run_path(p)`,
    `runpy.run_module`, `importlib`, a `require` of a variable)."""
    import re   # local: only for inline code

    got = [m.group(2) for m in re.finditer(_CODE_LOADS, code[:MAX_CODE])]
    n_any = len(re.findall(_CODE_LOADS_ANY, code[:MAX_CODE]))
    n_lit = len([m for m in re.finditer(_CODE_LOADS, code[:MAX_CODE])
                 if re.match(_CODE_LOADS_ANY, m.group(0))])
    return got[:16], n_any > n_lit


def git_ext_argv(spec: str) -> list[str] | None:
    """The command git's `ext::` transport runs for `ext::SPEC` (git-remote-ext): words split
    at unescaped spaces, `% ` a space, `%%` a percent sign, `%s`/`%S` the service's name
    (`upload-pack`, `git-upload-pack`); None for another escape (`%G`, `%V`: not read here)."""
    words: list[str] = []
    cur: list[str] = []
    i = 0
    while i < len(spec):
        ch = spec[i]
        if ch == "%":
            nxt = spec[i + 1:i + 2]
            rep = {" ": " ", "%": "%", "s": "upload-pack", "S": "git-upload-pack"}.get(nxt)
            if rep is None:
                return None
            cur.append(rep)
            i += 2
            continue
        if ch == " ":
            if cur:
                words.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
        i += 1
    if cur:
        words.append("".join(cur))
    return words or None


def git_config_code(vals: list) -> str:
    """The key when `git config` sets one whose value git runs (GIT_CODE_KEYS), or ""."""
    if _git_subcommand(vals) != "config":
        return ""
    known = [v for v in vals if v is not None]
    if any(v in ("--get", "--get-all", "--get-regexp", "-l", "--list", "get", "list",
                 "--unset", "--unset-all", "unset", "--remove-section") for v in known):
        return ""
    for v in known:
        if v.lower().startswith(GIT_CODE_KEYS):
            return v.split("=", 1)[0]
    return ""


# ---- programs that stand for another ------------------------------------------------------------
#: a module run as a program (`python3 -m MODULE`), by the option that picks its mode -> the
#: command it stands for (its effect on files judged as that program's): "{0}", "{1}" its first
#: and second operand after the option, "{rest}" all of them, "{1:.}" the second or "."
PYTHON_MODULES: dict[str, dict[str, tuple[str, ...]]] = {
    "zipfile": {"-e": ("unzip", "-o", "{0}", "-d", "{1}"), "--extract": ("unzip", "-o", "{0}", "-d", "{1}"),
                "-c": ("zip", "-r", "{0}", "{rest1}"), "--create": ("zip", "-r", "{0}", "{rest1}"),
                "-l": (), "--list": (), "-t": (), "--test": ()},
    "tarfile": {"-e": ("tar", "-xf", "{0}", "-C", "{1:.}"), "--extract": ("tar", "-xf", "{0}", "-C", "{1:.}"),
                "-c": ("tar", "-cf", "{0}", "{rest1}"), "--create": ("tar", "-cf", "{0}", "{rest1}"),
                "-l": (), "--list": (), "-t": (), "--test": ()},
    # serves its folder (-d DIR, or the working folder) to whoever asks: a read of the tree
    "http.server": {"-d": ("tar", "-cf", "-", "{0}"), "--directory": ("tar", "-cf", "-", "{0}"),
                    "": ("tar", "-cf", "-", ".")},
    "gzip": {"": ("gzip", "{rest0}")}, "base64": {"": ("base64", "{rest0}")},
}
#: modules run with -m that run a program file they are given as python runs it (`python3 -m
#: cProfile F` is `python3 F`; unittest and doctest: each operand that names a file), with
#: their options that take a value; a `-m MOD` among those options runs module MOD
PROGRAM_MODULES: dict[str, frozenset[str]] = {
    "cProfile": frozenset({"-o", "--outfile", "-s", "--sort"}),
    "profile": frozenset({"-o", "--outfile", "-s", "--sort"}),
    "pdb": frozenset({"-c", "--command"}),
    "trace": frozenset({"-f", "--file", "-C", "--coverdir", "--ignore-module", "--ignore-dir"}),
    "doctest": frozenset({"-o", "--option"}),
    "unittest": frozenset({"-k", "-s", "--start-directory", "-p", "--pattern", "-t",
                           "--top-level-directory"}),
}
_EVERY_OPERAND = frozenset({"doctest", "unittest"})
#: modules whose arguments are Python code they run (`python3 -m timeit -s SETUP STMT`): the
#: options whose value is code, and the options that take another value; each piece of code
#: is judged as `python3 -c CODE`
CODE_MODULES: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {
    "timeit": (("-s", "--setup"), frozenset({"-n", "--number", "-r", "--repeat", "-u", "--unit"})),
}


def _module_program(name: str, mod: str, words: list[str]) -> list[list[str]]:
    """The commands `python3 -m MOD WORDS` stands for when MOD runs a program file or code it
    is given (PROGRAM_MODULES, CODE_MODULES)."""
    out: list[list[str]] = []
    if mod in CODE_MODULES:
        code_opts, valued = CODE_MODULES[mod]
        out += [[name, "-c", c] for c in _option_values(words, code_opts)]
        i = 0
        while i < len(words):
            w = words[i]
            if w in code_opts or w in valued:
                i += 2
                continue
            if not (w.startswith("-") and len(w) > 1):
                out.append([name, "-c", w])
            i += 1
        return out
    valued = PROGRAM_MODULES[mod]
    i = 0
    while i < len(words):
        w = words[i]
        if w == "-m" and mod != "unittest" and i + 1 < len(words):
            return [[name, "-m"] + words[i + 1:]]
        if w in valued:
            i += 2
            continue
        if w.startswith("-") and len(w) > 1:
            i += 1
            continue
        if mod not in _EVERY_OPERAND:
            return [[name] + words[i:]]
        if "/" in w or w.endswith((".py", ".txt", ".rst", ".md")):
            out.append([name, w])
        i += 1
    return out


#: `cmake -E COMMAND ARGS` -> the program COMMAND stands for (its arguments follow)
CMAKE_COMMANDS: dict[str, tuple[str, ...]] = {
    "tar": ("tar",), "copy": ("cp",), "copy_if_different": ("cp",), "copy_directory": ("cp", "-r"),
    "copy_directory_if_different": ("cp", "-r"), "rename": ("mv",), "remove": ("rm",),
    "rm": ("rm",), "remove_directory": ("rm", "-r"), "make_directory": ("mkdir", "-p"),
    "touch": ("touch",), "touch_nocreate": ("touch",), "cat": ("cat",), "create_symlink": ("ln", "-s"),
    "create_hardlink": ("ln",), "md5sum": ("md5sum",), "sha256sum": ("sha256sum",),
    "compare_files": ("cmp",), "env": ("env",), "chdir": (), "time": ("time",),
}


#: options of zipapp and pip that take a value
_MODULE_VALUED = frozenset({"-o", "--output", "-p", "--python", "-m", "--main", "-t", "--target",
                            "--prefix", "--root", "-r", "--requirement", "-c", "--constraint",
                            "-i", "--index-url", "--extra-index-url", "-f", "--find-links",
                            "--src", "-e", "--editable", "--platform", "--python-version"})


def _module_effect(mod: str, words: list[str]) -> list[list[str]]:
    """What `python -m venv|zipapp|pip` (and `pip`) does to files, as the commands that do the
    same: `venv --clear DIR` empties DIR (`rm -r DIR`), `zipapp SRC` reads the tree SRC (`tar -cf
    OUT SRC`), `pip install --target|--prefix|--root DIR` writes files agentdeck cannot list
    into DIR (an archive whose members are not known, extracted there)."""
    ops: list[str] = []
    vals: dict[str, str] = {}
    i = 0
    while i < len(words):
        w = words[i]
        if w in _MODULE_VALUED and i + 1 < len(words):
            vals[w] = words[i + 1]
            i += 2
            continue
        if w.startswith("--") and "=" in w:
            vals[w.split("=", 1)[0]] = w.split("=", 1)[1]
        elif not w.startswith("-"):
            ops.append(w)
        i += 1
    if mod == "venv":
        return [["rm", "-r", *ops]] if "--clear" in words and ops else []
    if mod == "zipapp":
        return [["tar", "-cf", vals.get("-o", vals.get("--output", "-")), ops[0]]] if ops else []
    if ops[:1] == ["install"]:
        return [["tar", "-xf", "(the packages pip installs)", "-C", d]
                for k in ("-t", "--target", "--prefix", "--root") if (d := vals.get(k))]
    return []


def stands_for(name: str, vals: list) -> list[list[str]] | None:
    """The commands a program stands for when it runs another's effect under its own name:
    `python3 -m zipfile -e A D` is `unzip -o A -d D`, `python3 -m tarfile -c T S` is
    `tar -cf T S`, `python3 -m http.server -d D` reads the tree D, `python3 -m agentdeck ...`
    is `agentdeck ...`, `cmake -E tar cf T S` is `tar cf T S`; [] when it stands for none,
    None when a word it needs is not static."""
    if _PYTHONS.fullmatch(name):
        mi = next((i for i, v in enumerate(vals) if v == "-m"), None)
        if mi is None or mi + 1 >= len(vals):
            return []
        mod = vals[mi + 1]
        if mod is None:
            return None
        rest = vals[mi + 2:]
        if mod == OWN_DIST or mod.startswith(OWN_DIST + "."):
            return None if any(v is None for v in rest) else [[OWN_DIST] + list(rest)]
        if mod in ("venv", "zipapp", "pip"):
            if any(v is None for v in rest):
                return None
            return _module_effect(mod, [v for v in rest if v is not None])
        table = PYTHON_MODULES.get(mod)
        if mod in PROGRAM_MODULES or mod in CODE_MODULES:
            if any(v is None for v in rest):
                return None
            return _module_program(name, mod, [v for v in rest if v is not None])
        if table is None:
            return []
        if any(v is None for v in rest):
            return None
        words = [v for v in rest if v is not None]
        opt = next((v for v in words if v in table), "")
        if opt == "" and "" not in table:
            return []
        tmpl = table[opt]
        after = words[words.index(opt) + 1:] if opt else words if mod in ("gzip", "base64") \
            else [w for w in words if not w.startswith("-")]
        if mod == "http.server" and not opt:
            tmpl = ("tar", "-cf", "-", ".")
        out: list[str] = []
        for t in tmpl:
            if t in ("{rest0}", "{rest1}"):
                out += after[int(t[5]):]
            elif t in ("{0}", "{1}", "{1:.}"):
                k = int(t[1])
                out.append(after[k] if len(after) > k else ("." if t == "{1:.}" or
                                                             mod == "zipfile" else ""))
            else:
                out.append(t)
        return [[w for w in out if w != ""]] if out else []
    if _PIPS.fullmatch(name):
        return None if any(v is None for v in vals) else _module_effect("pip", list(vals))
    if name == "coreutils":
        # the multi-call binary: `coreutils --coreutils-prog=rm -rf x` is `rm -rf x`
        for i, v in enumerate(vals):
            if v is None:
                return None
            if v.startswith("--coreutils-prog="):
                return [[v.split("=", 1)[1]] + [str(w) for w in vals[i + 1:] if w is not None]]
            if v == "--coreutils-prog" and i + 1 < len(vals) and vals[i + 1] is not None:
                return [[str(vals[i + 1])] + [str(w) for w in vals[i + 2:] if w is not None]]
        return []
    if name in ("docker", "podman", "nerdctl") and vals[:1] == ["cp"]:
        # `docker cp C:SRC DST` writes the container's files (not known) at DST; `docker cp
        # SRC C:DST` reads the tree SRC
        ops = [v for v in vals[1:] if v is None or not v.startswith("-")]
        if len(ops) != 2 or None in ops:
            return None if None in ops else []
        src, dst = str(ops[0]), str(ops[1])
        copied: list[list[str]] = []
        if ":" not in dst.split("/", 1)[0] and dst != "-":
            copied.append(["tar", "-xf", f"(the files {name} cp copies)", "-C", dst])
        if ":" not in src.split("/", 1)[0] and src != "-":
            copied.append(["tar", "-cf", "-", src])
        return copied
    if name == "cmake":
        ei = next((i for i, v in enumerate(vals) if v == "-E"), None)
        if ei is None or ei + 1 >= len(vals):
            return []
        sub = vals[ei + 1]
        rest = vals[ei + 2:]
        if sub is None or any(v is None for v in rest):
            return None
        prog = CMAKE_COMMANDS.get(sub)
        if prog is None:
            return []
        if not prog:
            return None          # `cmake -E chdir DIR CMD`: run elsewhere, not followed
        return [list(prog) + [v for v in rest if v is not None]]
    served = _served_folders(name, vals)
    if served is None:
        return None
    return [["tar", "-cf", "-", d] for d in served]


#: web servers that serve a folder's files to whoever asks: program -> (the options that name
#: the folder, the word that makes it serve; "" when it always does). Without such an option
#: each operand may be the folder (`http-server dist -p 8080`: a port read as a folder too is
#: harmless), or the working folder. Each folder is read as a tree (`tar -cf - DIR`), as
#: `python3 -m http.server -d DIR` is.
FOLDER_SERVERS: dict[str, tuple[tuple[str, ...], str]] = {
    "php": (("-t", "--docroot"), "-S"), "httpd": (("-h",), ""),
    "http-server": ((), ""), "serve": ((), ""), "darkhttpd": ((), ""),
    "caddy": (("--root", "-r"), "file-server"), "twistd": (("--path",), "web"),
    "ruby": ((), "httpd"),          # `ruby -run -e httpd DIR`
}


def _served_folders(name: str, vals: list) -> list[str] | None:
    """The folders a FOLDER_SERVERS program serves ([] when it does not serve), None when a
    word it needs is not static."""
    spec = FOLDER_SERVERS.get(name)
    if spec is None:
        return []
    opts, trigger = spec
    if trigger and trigger not in vals:
        return []
    if any(v is None for v in vals):
        return None
    words = [v for v in vals if v is not None]
    named = [words[i + 1] for i, v in enumerate(words[:-1]) if v in opts]
    named += [v.split("=", 1)[1] for v in words if "=" in v and v.split("=", 1)[0] in opts]
    if named or opts:
        return named or ["."]
    after = words[words.index(trigger) + 1:] if trigger else words
    return [v for v in after if not v.startswith("-")] or ["."]


# ---- programs that read the names of the files they act on from stdin ------------------------
#: program -> the options that make it read file names from its stdin (`find D | cpio -o`,
#: `cpio -p DEST`, `tar -T -`, `zip -@`, `rsync --files-from=-`): the words of a pipe's earlier
#: stage and a here-string's lines are its operands
NAMES_FROM_STDIN: dict[str, tuple[str, ...]] = {
    "cpio": ("-o", "--create", "-p", "--pass-through"),
    "tar": ("-T-", "--files-from=-", "--files-from=/dev/stdin"), "bsdtar": ("-T-",),
    "gtar": ("-T-", "--files-from=-"), "zip": ("-@", "--names-stdin"),
    "rsync": ("--files-from=-",), "pax": ("-w",),
}


#: filters a pipeline passes names through unchanged (each output line is an input line,
#: reordered, dropped or repeated): between `find D` and `xargs` the names are still D's
PASS_FILTERS = frozenset({"sort", "uniq", "shuf", "tac", "tee", "cat", "head", "tail", "grep",
                          "egrep", "fgrep"})
#: options of those that cut or rewrite a line (`grep -o` prints part of one, `head -c` bytes,
#: `cat -v` rewrites bytes): the names after them are not known
_CUTTING = {"grep": ("-o", "--only-matching"), "egrep": ("-o", "--only-matching"),
            "fgrep": ("-o", "--only-matching"), "head": ("-c", "--bytes"),
            "tail": ("-c", "--bytes"), "cat": ("-v", "-A", "-e", "-t", "-E", "-T",
                                                "--show-nonprinting", "--show-all")}


def pipe_filter(name: str, vals: list) -> str | None:
    """How a pipeline stage reading stdin changes the lines it is given: "pass" (a filter that
    keeps each line as it is: `sort`, `head -n 3`, `grep x`), "rewrite" (any other program
    reading its stdin: `sed`, `tr`, `awk`, `base64 -d`, `grep -o`: the names after it are not
    known), or None when it does not read its stdin (it names files of its own)."""
    known = [v for v in vals if v is not None]
    if name in PASS_FILTERS:
        cut = _CUTTING.get(name, ())
        if len(known) != len(vals) or any(
                v in cut or any(v.startswith(c + "=") or (len(c) == 2 and v.startswith(c))
                                for c in cut)
                or (v.startswith("-") and not v.startswith("--") and len(c := v[1:]) > 1
                    and any(f"-{ch}" in cut for ch in c))
                for v in known):
            return "rewrite"
        operands = [v for v in known if not v.startswith("-")]
        if name in ("grep", "egrep", "fgrep"):
            operands = operands[1:]          # the pattern
        elif name in ("head", "tail"):
            operands = [v for i, v in enumerate(known) if not v.startswith("-")
                        and not (i and known[i - 1] in ("-n", "--lines"))]
        elif name == "tee":
            operands = []                    # tee's files are written, its stdout is stdin
        return "pass" if not operands or operands == ["-"] else None
    return "rewrite"


#: options whose value is a file that lists the names a program reads (one per line, or
#: NUL-separated): `tar -T F`, `rsync --files-from=F`, `sort --files0-from=F`
LIST_FILE_OPTIONS: dict[str, tuple[str, ...]] = {
    **{n: ("-T", "--files-from", "-I") for n in ("tar", "gtar", "bsdtar")},
    "rsync": ("--files-from", "--exclude-from", "--include-from"),
    **{n: ("--files0-from",) for n in ("sort", "wc", "du")}, "find": ("-files0-from",),
    # a file of dates, a host name: read (its lines echoed back in errors: red team round 8)
    "date": ("-f", "--file"), "hostname": ("-F", "--file"),
    "cpio": ("-E", "--pattern-file"), "zip": ("-i@", "-x@"),
}


def list_files(name: str, vals: list) -> list[str | None]:
    """The files `name vals` reads the names of its files from (LIST_FILE_OPTIONS), "-" and
    /dev/stdin left out (stdin: names_from_stdin); None for one whose name is not static."""
    opts = LIST_FILE_OPTIONS.get(name)
    if not opts:
        return []
    out: list[str | None] = []
    for i, v in enumerate(vals):
        if v is None:
            continue
        got: str | None | bool = False
        if v in opts:
            got = vals[i + 1] if i + 1 < len(vals) else False
        else:
            for o in opts:
                if o.startswith("--") and v.startswith(o + "="):
                    got = v[len(o) + 1:]
                elif not o.startswith("--") and len(o) == 2 and v.startswith(o) and len(v) > 2:
                    got = v[2:]
        if got is False:
            continue
        if got not in ("-", "/dev/stdin"):
            out.append(got if isinstance(got, str) else None)
    return out


def names_from_stdin(name: str, vals: list) -> bool:
    """Whether `name vals` reads the names of the files it reads (or copies) from its stdin."""
    opts = NAMES_FROM_STDIN.get(name)
    if not opts:
        return False
    known = [v for v in vals if v is not None]
    for i, v in enumerate(known):
        nxt = known[i + 1] if i + 1 < len(known) else ""
        if v in opts or (v in ("-T", "--files-from") and nxt in ("-", "/dev/stdin")
                         and (v + nxt) in opts or v + "=" + nxt in opts):
            return True
        if name == "cpio" and v.startswith("-") and not v.startswith("--") and (
                "o" in v[1:] or "p" in v[1:]):
            return True
    return False


# ---- files a program reads or writes by default, with no path on the line --------------------
_SSH_IDS = ("~/.ssh/id_rsa", "~/.ssh/id_ecdsa", "~/.ssh/id_ed25519", "~/.ssh/id_dsa",
            "~/.ssh/id_ecdsa_sk", "~/.ssh/id_ed25519_sk")
#: (program, the subcommand words it is given) -> (the files it then reads or writes when no
#: option names another, "read" | "write" | "rw"): a secret printed (`aws configure get`, `gh
#: auth token`, `git credential fill`) or stored (`aws configure set`, `docker login`,
#: `npm login`) is a read or write of the file that holds it
DEFAULT_FILES: dict[tuple[str, str], tuple[tuple[str, ...], str]] = {
    **{("aws", s): (("~/.aws/credentials", "~/.aws/config"), "read")
       for s in ("configure get", "configure list", "configure export-credentials")},
    **{("aws", s): (("~/.aws/credentials", "~/.aws/config"), "rw")
       for s in ("configure set", "configure import", "configure sso", "configure")},
    ("gh", "auth token"): (("~/.config/gh/hosts.yml",), "read"),
    **{("gh", s): (("~/.config/gh/hosts.yml",), "rw")
       for s in ("auth login", "auth logout", "auth refresh", "auth switch")},
    ("gh", "auth setup-git"): (("~/.gitconfig",), "rw"),
    **{("gcloud", s): (("~/.config/gcloud/credentials.db", "~/.config/gcloud/access_tokens.db",
                        "~/.config/gcloud/application_default_credentials.json"), "read")
       for s in ("auth print-access-token", "auth print-identity-token",
                 "auth application-default print-access-token")},
    **{("gcloud", s): (("~/.config/gcloud/credentials.db", "~/.config/gcloud/access_tokens.db",
                        "~/.config/gcloud/application_default_credentials.json"), "rw")
       for s in ("auth login", "auth activate-service-account", "auth revoke",
                 "auth application-default login", "auth application-default revoke")},
    **{("gcloud", s): (("~/.config/gcloud/configurations/config_default",), "rw")
       for s in ("config set", "config unset")},
    ("az", "account get-access-token"): (("~/.azure/msal_token_cache.json",
                                          "~/.azure/accessTokens.json"), "read"),
    **{("az", s): (("~/.azure/msal_token_cache.json", "~/.azure/accessTokens.json"), "rw")
       for s in ("login", "logout", "account clear")},
    **{("docker", s): (("~/.docker/config.json",), "rw") for s in ("login", "logout")},
    **{(n, s): (("~/.npmrc",), "rw") for n in ("npm", "pnpm") for s in (
        "login", "adduser", "logout", "config set", "config delete", "config edit",
        "config fix", "set")},
    **{(n, s): (("~/.npmrc",), "read") for n in ("npm", "pnpm") for s in (
        "config get", "config list", "config ls", "get")},
    ("git", "credential fill"): (("~/.git-credentials", "~/.config/git/credentials"), "read"),
    ("git", "credential-store get"): (("~/.git-credentials",), "read"),
    **{("git", s): (("~/.git-credentials", "~/.config/git/credentials"), "rw")
       for s in ("credential approve", "credential reject", "credential-store store",
                 "credential-store erase")},
    ("kubectl", "config"): (("~/.kube/config",), "rw"),
    **{("cargo", s): (("~/.cargo/credentials.toml", "~/.cargo/credentials"), "rw")
       for s in ("login", "logout")},
    ("twine", "upload"): (("~/.pypirc",), "read"),
}
#: options that name the file instead (then it is an operand like any other)
_DEFAULT_FILE_OPTIONS = frozenset({"--file", "-f", "--global-config", "--userconfig",
                                   "--kubeconfig", "--config"})


def default_files(name: str, vals: list) -> list[tuple[str, str]]:
    """(file, "read" | "write" | "rw") each file `name vals` reads or writes by default, with no
    path on the line (DEFAULT_FILES; ssh-keygen's default identity and known_hosts)."""
    known = [v for v in vals if v is not None]
    if name == "ssh-keygen":
        return _ssh_keygen_defaults(known)
    if name == "ssh-add":
        # with no key file named, ssh-add reads the default identities and hands them to the
        # agent SSH_AUTH_SOCK names, which may be any program's socket (red team round 9
        # captured the key that way); -l/-L/-D/-x/-X/-e/-s/-T read no private key
        if len(known) < len(vals) or any(v[:1] == "-" and set(v[1:]) & set("lLDxXesT")
                                         for v in known):
            return []
        if any(not v.startswith("-") for v in known):
            return []
        return [(f, "read") for f in _SSH_IDS]
    if not any(k[0] == name for k in DEFAULT_FILES):
        return []
    if any(v.split("=", 1)[0] in _DEFAULT_FILE_OPTIONS for v in known):
        return []
    ops = [v for v in known if not v.startswith("-")][:4]
    out: list[tuple[str, str]] = []
    best = 0
    for (prog, sub), (files, acc) in DEFAULT_FILES.items():
        if prog != name:
            continue
        words = sub.split()
        for i in range(len(ops) - len(words) + 1):
            if ops[i:i + len(words)] == words and len(words) > best:
                best = len(words)
                out = [(f, acc) for f in files]
    return out


def _ssh_keygen_defaults(known: list[str]) -> list[tuple[str, str]]:
    """ssh-keygen with no -f: it generates, rewrites (-p, -c) or reads (-l, -y, -e) the default
    identity ~/.ssh/id_<type> (it asks for the file, offering that one), and rewrites (-R, -H)
    or reads (-F) ~/.ssh/known_hosts."""
    flags = {"-" + c for v in known if v.startswith("-") and not v.startswith("--")
             for c in v[1:]}
    if "-f" in flags:
        return []
    if flags & {"-R", "-H"}:
        return [("~/.ssh/known_hosts", "rw")]
    if "-F" in flags:
        return [("~/.ssh/known_hosts", "read")]
    if flags & {"-D", "-Y", "-Q", "-k", "-s", "-A", "-r", "-G", "-M", "-T", "-K"}:
        return []            # these name their files otherwise (or write none by default)
    acc = "read" if flags & {"-l", "-y", "-e", "-B", "-L"} and not flags & {"-p", "-c"} else "rw"
    ids = list(_SSH_IDS)
    t = next((known[i + 1] for i, v in enumerate(known[:-1]) if v == "-t"), None)
    if t:
        ids = [f"~/.ssh/id_{t.replace('-cert', '').replace('@openssh.com', '')}"]
    return [(f, acc) for f in ids] + ([(f + ".pub", "rw") for f in ids] if acc == "rw" else [])


# ---- agentdeck's own code ------------------------------------------------------------------------
#: agentdeck's commands that change or remove the guard (the built-in rule
#: agentdeck-self-commands names them: core/policy/compiled.py); code that imports agentdeck's
#: package may run any of them (`from agentdeck.core.entry import main; main([...])`)
OWN_GUARD_COMMANDS = ("apply", "uninstall", "org")
_OWN_IMPORT = None


def imports_own(code: str) -> bool:
    """Whether code imports agentdeck's package (`import agentdeck`, `from agentdeck.x import`,
    `__import__("agentdeck")`, `importlib.import_module("agentdeck.core")`, `runpy`)."""
    global _OWN_IMPORT
    if _OWN_IMPORT is None:
        _OWN_IMPORT = re.compile(
            r"(?:\bimport|\bfrom)\s+" + OWN_DIST + r"\b|(?:__import__|import_module|run_module"
            r"|find_spec|require)\s*\(\s*[rbuf]?['\"]" + OWN_DIST + r"(?:[.'\"])")
    return _OWN_IMPORT.search(code[:MAX_CODE]) is not None


def modelled(name: str) -> bool:
    """Whether the tables above say what `name` does with its words (reads, writes, mentions
    or searches them, runs them as a command, a script or code): a program no table names may
    run its words as a command (`setarch x86_64 rm -r -f /`), which rules.py then asks about."""
    sets = (META, MENTION, READ, WRITE, RW, COPY, MOVE, ARCHIVERS, INTERPRETERS, SHELL_BUILTINS,
            SHELLS, SEARCHERS, REPLS, INTERACTIVE, NAMES_ONLY, _MAKES, BIND_PROGRAMS)
    maps = (WRAPPERS, SHELL_TEXT_OPTIONS, CONFIG_RUNS, BUILD_SCRIPTS, PROGRAM_FILES,
            RUNS_FROM_FILES, OPTION_CARRIERS, PROGRAM_SUBCOMMANDS, SHELL_ESCAPES)
    return any(name in s for s in sets) or any(name in m for m in maps) \
        or any(name == k[0] for k in SUBCOMMAND_CARRIERS)
