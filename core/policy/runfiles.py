"""Commands a program runs from files in the folder it works in, as data and pure parsing:
npm's (pnpm's, yarn's, bun's) `package.json` scripts, git's aliases and the config values git
runs, pytest's `conftest.py` and test files. core/policy/shellparse.py reads those files at
decision time (through its fs, bounded) and judges what they run as the command line it is,
so a file written in one call and used in a later one (`npm run x`, `git x`, `pytest`) is
judged by what it runs, not by the program's name. A file written earlier in the same line
is unresolved instead (programs.RUNS_FROM_FILES).

No I/O here: the hook handler imports this on the first such program only."""
from __future__ import annotations

import json

# ---- npm and its kin: package.json scripts ------------------------------------------------------

NPM_LIKE = frozenset({"npm", "pnpm", "yarn", "bun"})
#: the root project's lifecycle scripts an install runs (npm docs, "Life Cycle Operation Order")
INSTALL_SCRIPTS = ("preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare",
                   "postprepare")
PACK_SCRIPTS = ("prepack", "prepare", "postpack")
PUBLISH_SCRIPTS = ("prepublishOnly",) + PACK_SCRIPTS + ("publish", "postpublish")
_RUN = frozenset({"run", "run-script", "rum", "urn"})
_SCRIPT_ALIASES = {"test": "test", "t": "test", "tst": "test", "start": "start", "stop": "stop",
                   "restart": "restart"}
_INSTALLS = frozenset({"install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta",
                       "isntal", "isntall", "add", "ci", "clean-install", "ic", "install-clean",
                       "isntall-clean", "install-test", "it", "cit", "clean-install-test",
                       "rebuild", "rb"})
#: commands of yarn, pnpm and bun that are not a script's name (`yarn build` runs the script
#: "build"; `yarn add` does not)
_OWN_COMMANDS = {
    "yarn": frozenset({"add", "audit", "autoclean", "bin", "cache", "check", "config", "create",
                       "dlx", "exec", "generate-lock-entry", "global", "help", "import", "info",
                       "init", "install", "licenses", "link", "list", "login", "logout", "node",
                       "outdated", "owner", "pack", "policies", "publish", "remove", "tag", "team",
                       "unlink", "unplug", "upgrade", "upgrade-interactive", "version", "versions",
                       "why", "workspace", "workspaces", "set", "up", "plugin", "constraints",
                       "explain", "npm", "patch", "patch-commit", "rebuild", "search", "stage",
                       "dedupe", "run"}),
    "pnpm": frozenset({"add", "install", "i", "update", "up", "upgrade", "remove", "rm",
                       "uninstall", "un", "link", "ln", "unlink", "import", "rebuild", "rb",
                       "prune", "fetch", "install-test", "it", "patch", "patch-commit", "audit",
                       "list", "ls", "outdated", "why", "licenses", "exec", "dlx", "create",
                       "init", "publish", "pack", "store", "env", "setup", "server", "config",
                       "c", "bin", "root", "doctor", "deploy", "recursive", "m", "multi", "catalog",
                       "run", "run-script", "test", "t", "tst", "start", "stop", "restart", "ci",
                       "help", "self-update"}),
    "bun": frozenset({"run", "test", "x", "repl", "exec", "install", "i", "add", "a", "remove",
                      "rm", "update", "outdated", "audit", "link", "unlink", "publish", "patch",
                      "pm", "info", "build", "init", "create", "c", "upgrade", "help", "why",
                      "ci"}),
}
#: options whose value is the project folder
_FOLDER_OPTIONS = {"npm": ("--prefix", "-C"), "pnpm": ("-C", "--dir"), "yarn": ("--cwd",),
                   "bun": ("--cwd",)}
#: options that take a value (the next word), besides the folder ones
_VALUED = frozenset({"--prefix", "-C", "--dir", "--cwd", "--registry", "--loglevel",
                     "--userconfig", "--globalconfig", "--cache", "--scope", "--tag",
                     "--config", "--reporter", "--workspace", "-w", "--filter", "-F"})
#: options that run the scripts of other packages than the folder's (workspaces, recursive)
_ELSEWHERE = frozenset({"--workspace", "-w", "--workspaces", "-ws", "--filter", "-F",
                        "--recursive", "-r", "--include-workspace-root"})
_ELSEWHERE_PREFIXES = ("--workspace=", "--filter=")


def package_scripts(name: str, vals: list) -> tuple[str | None, tuple[str, ...], str] | None:
    """For an npm-like call: (its folder option's value or None, the scripts of package.json it
    runs in their order, why it cannot be known ("" when it can)); None when the call runs no
    script of the folder's package.json."""
    if name not in NPM_LIKE:
        return None
    folder: str | None = None
    words: list[str] = []
    i = 0
    while i < len(vals):
        v = vals[i]
        if v is None:
            return None, (), f"{name} is given a word that is not static"
        if v == "--":
            words += [w for w in vals[i + 1:] if w is not None]
            break
        if v in _ELSEWHERE or v.startswith(_ELSEWHERE_PREFIXES) or (
                name == "pnpm" and v in ("recursive", "m", "multi")):
            return None, (), f"{name} {v} runs the scripts of other packages' package.json"
        if v in _VALUED or any(v.startswith(o + "=") for o in _FOLDER_OPTIONS[name]):
            val = v.split("=", 1)[1] if "=" in v else (vals[i + 1] if i + 1 < len(vals) else "")
            if v.split("=", 1)[0] in _FOLDER_OPTIONS[name]:
                if val is None:
                    return None, (), f"{name}'s project folder is not static"
                folder = val
            i += 1 if "=" in v else 2
            continue
        if v.startswith("-"):
            i += 1
            continue
        words.append(v)
        i += 1
    sub = words[0] if words else None
    names: tuple[str, ...] = ()
    if sub is None:
        names = INSTALL_SCRIPTS if name in ("yarn",) else ()
    elif sub in _RUN:
        names = (words[1],) if len(words) > 1 else ()
    elif sub in _SCRIPT_ALIASES and not (name == "bun" and sub == "test"):
        names = (_SCRIPT_ALIASES[sub],)
    elif sub in _INSTALLS:
        names = INSTALL_SCRIPTS
    elif sub == "pack":
        names = PACK_SCRIPTS
    elif sub == "publish":
        names = PUBLISH_SCRIPTS
    elif name in _OWN_COMMANDS and sub not in _OWN_COMMANDS[name]:
        names = (sub,)                       # `yarn build`, `pnpm lint`, `bun dev`
    if not names:
        return None
    out: list[str] = []
    for n in names:
        for s in (n,) if n in INSTALL_SCRIPTS + PUBLISH_SCRIPTS else ("pre" + n, n, "post" + n):
            if s not in out:
                out.append(s)
    if sub in ("restart",):                  # npm restart: stop and start when it has none
        out += [s for s in ("prestop", "stop", "poststop", "prestart", "start", "poststart")
                if s not in out]
    return folder, tuple(out), ""


def scripts_of(text: str) -> dict[str, str] | None:
    """package.json's `scripts` (name -> command line); None when the text is not a JSON object
    whose scripts are strings (npm would then refuse it, or run what agentdeck cannot read)."""
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    if not isinstance(doc, dict):
        return None
    scripts = doc.get("scripts", {})
    if not isinstance(scripts, dict) or not all(isinstance(v, str) for v in scripts.values()):
        return None
    return {str(k): v for k, v in scripts.items()}


# ---- git: aliases, the config values git runs, hooks --------------------------------------------

#: git's own commands (an alias of the same name is never used)
GIT_COMMANDS = frozenset("""
add am annotate apply archive bisect blame branch bugreport bundle cat-file check-attr check-ignore
check-mailmap check-ref-format checkout checkout-index cherry cherry-pick citool clean clone
column commit commit-graph commit-tree config count-objects credential credential-cache
credential-store daemon describe diagnose diff diff-files diff-index diff-tree difftool
fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref for-each-repo
format-patch fsck fsmonitor--daemon gc get-tar-commit-id grep gui hash-object help hook
http-backend index-pack init init-db instaweb interpret-trailers log ls-files ls-remote ls-tree
mailinfo mailsplit maintenance merge merge-base merge-file merge-index merge-one-file
merge-tree mergetool mktag mktree multi-pack-index mv name-rev notes pack-objects pack-redundant
pack-refs patch-id prune prune-packed pull push range-diff read-tree rebase receive-pack reflog
refs remote repack replace replay request-pull rerere reset restore rev-list rev-parse revert rm
send-email send-pack shortlog show show-branch show-index show-ref sparse-checkout stage stash
status stripspace submodule switch symbolic-ref tag unpack-file unpack-objects update-index
update-ref update-server-info upload-archive upload-pack var verify-commit verify-pack
verify-tag version whatchanged worktree write-tree
""".split())
#: the hooks git runs (githooks(5)), by file name in the hooks folder
GIT_HOOKS = ("applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit",
             "pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase",
             "post-checkout", "post-merge", "pre-push", "pre-receive", "update", "proc-receive",
             "post-receive", "post-update", "reference-transaction", "push-to-checkout",
             "pre-auto-gc", "post-rewrite", "sendemail-validate", "fsmonitor-watchman",
             "post-index-change")
_BOOLS = frozenset({"true", "false", "yes", "no", "on", "off", "1", "0", ""})


def _git_runs(key: str) -> bool:
    """Whether git runs the value of config key `key` (section.[sub.]name, lowercased section
    and name) as a command line."""
    parts = key.split(".")
    sec, var = parts[0], parts[-1]
    return (key in ("core.pager", "core.editor", "sequence.editor", "core.sshcommand",
                    "core.fsmonitor", "core.askpass", "core.gitproxy", "diff.external",
                    "gpg.program", "uploadpack.packobjectshook", "interactive.difffilter",
                    "web.browser", "sendemail.sendmailcmd", "sendemail.tocmd", "sendemail.cccmd",
                    "credential.helper", "core.alternaterefscommand",
                    "gpg.ssh.defaultkeycommand")
            or sec == "pager"
            or (len(parts) == 3 and (sec, var) in {
                ("diff", "command"), ("diff", "textconv"), ("merge", "driver"),
                ("filter", "clean"), ("filter", "smudge"), ("filter", "process"),
                ("difftool", "cmd"), ("mergetool", "cmd"), ("browser", "cmd"),
                ("remote", "uploadpack"), ("remote", "receivepack"), ("gpg", "program"),
                ("credential", "helper"), ("trailer", "command"), ("trailer", "cmd"),
                ("man", "cmd"), ("submodule", "update")}))


def git_config(text: str) -> list[tuple[str, str]]:
    """(key, value) of a git config file, in order: section and name lowercased, a subsection
    kept as written (`alias.x`, `diff.drv.command`, `include.path`); quotes, escapes, comments
    and continued lines as git reads them."""
    out: list[tuple[str, str]] = []
    section = ""
    lines = text.replace("\r\n", "\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            end = line.find("]")
            head = line[1:end if end > 0 else len(line)].strip()
            if '"' in head:
                name, _, sub = head.partition(" ")
                section = name.lower() + "." + sub.strip().strip('"').replace('\\"', '"')
            elif "." in head:
                name, _, sub = head.partition(".")
                section = name.lower() + "." + sub.lower()
            else:
                section = head.lower()
            line = line[end + 1:].strip() if end > 0 else ""
            if not line or line[0] in "#;":
                continue
        name, eq, raw = line.partition("=")
        value = _git_value(raw) if eq else "true"
        while eq and raw.rstrip().endswith("\\") and i < len(lines):
            raw = raw.rstrip()[:-1] + lines[i]
            i += 1
            value = _git_value(raw)
        out.append((f"{section}.{name.strip().lower()}", value))
    return out


def _git_value(raw: str) -> str:
    out, quoted, i = [], False, 0
    raw = raw.strip()
    while i < len(raw):
        c = raw[i]
        if c == '"':
            quoted = not quoted
        elif c == "\\" and i + 1 < len(raw):
            i += 1
            out.append({"n": "\n", "t": "\t", "b": "\b"}.get(raw[i], raw[i]))
        elif c in "#;" and not quoted:
            break
        else:
            out.append(c)
        i += 1
    return "".join(out).strip()


#: the pagers and editors a git config commonly names, run on a terminal only (a pager) or
#: to edit a message: a value that is one of them with plain words is not judged further
#: (an interactive program is unresolved where it is judged, and `core.pager = less` is in
#: most people's ~/.gitconfig)
PLAIN_PAGERS = frozenset({"less", "more", "most", "cat", "delta", "diff-so-fancy", "bat",
                          "batcat", "ov", "moar", "moor", "riff", "diffr", "diff-highlight"})
PLAIN_EDITORS = frozenset({"vi", "vim", "nvim", "nano", "emacs", "emacsclient", "code",
                           "code-insiders", "codium", "subl", "micro", "hx", "helix", "kak",
                           "ed", "joe", "mate", "gedit", "kate", "zed", "cursor", "true"})
_PLAIN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                         "-_=./,+: ")


def _plain(key: str, value: str) -> bool:
    """A pager or editor value that is a known one with plain words (`less -R`, `code --wait`)."""
    if not value or not set(value) <= _PLAIN_CHARS:
        return False
    prog = value.split()[0].rsplit("/", 1)[-1]
    if key.startswith("pager.") or key == "core.pager":
        return prog in PLAIN_PAGERS
    if key in ("core.editor", "sequence.editor"):
        return prog in PLAIN_EDITORS
    return False


def git_commands(entries: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """(key, command line) of every config value git runs (not an alias: git_alias), but a
    known pager or editor named with plain words."""
    last: dict[str, str] = {}
    many: list[tuple[str, str]] = []
    for key, value in entries:         # one value per key, the last (git's rule), helpers all
        if key.endswith("credential.helper"):
            many.append((key, value))
        else:
            last.pop(key, None)
            last[key] = value
    out = []
    for key, value in list(last.items()) + many:
        if not _git_runs(key) or value.lower() in _BOOLS or _plain(key, value):
            continue
        if key.startswith("submodule.") and not value.startswith("!"):
            continue                # checkout, rebase, merge, none: git's own strategies
        if key.endswith("credential.helper") and not value.startswith(("!", "/")):
            value = "git credential-" + value        # git runs `git credential-<value>`
        out.append((key, value[1:] if value.startswith("!") else value))
    return out


def command_line_config(vals: list) -> list[tuple[str, str]]:
    """The `-c key=value` settings before git's subcommand, as config entries (they come last:
    they override the files)."""
    out = []
    for i, v in enumerate(vals[:-1]):
        if v is None or not v.startswith("-") and i and vals[i - 1] != "-c":
            break
        nxt = vals[i + 1]
        if v == "-c" and nxt is not None and "=" in nxt:
            k, _, val = nxt.partition("=")
            sec, _, rest = k.partition(".")
            sub, _, var = rest.rpartition(".")
            key = f"{sec.lower()}.{sub + '.' if sub else ''}{var.lower()}"
            out.append((key, val))
    return out


def git_alias(entries: list[tuple[str, str]], sub: str) -> str | None:
    """The last `alias.<sub>` value (git's alias names ignore case), or None."""
    if sub in GIT_COMMANDS:
        return None
    found = None
    for key, value in entries:
        if key == "alias." + sub.lower():
            found = value
    return found


def git_includes(entries: list[tuple[str, str]]) -> list[str]:
    """The files an `include.path` or `includeIf.<cond>.path` names (as written)."""
    return [v for k, v in entries if k == "include.path" or (k.startswith("includeif.")
                                                             and k.endswith(".path"))]


def git_hooks_path(entries: list[tuple[str, str]]) -> str | None:
    found = None
    for key, value in entries:
        if key == "core.hookspath":
            found = value
    return found


# ---- pytest: conftest.py and test files ---------------------------------------------------------

PYTEST_NAMES = frozenset({"pytest", "py.test"})
#: pytest's options that take a value (the next word is not a test path)
PYTEST_VALUED = frozenset({"-k", "-m", "-p", "-c", "-o", "-W", "--rootdir", "--confcutdir",
                           "--basetemp", "--maxfail", "--tb", "--junitxml", "--durations",
                           "--log-level", "--log-file", "-n", "--numprocesses", "--dist",
                           "--ignore", "--deselect", "--import-mode", "--capture", "-r",
                           "--cov", "--cov-report", "--timeout", "--override-ini", "--config-file"})


def is_pytest(name: str, vals: list) -> list | None:
    """pytest's own arguments when the call runs pytest (`pytest ...`, `python3 -m pytest ...`),
    else None."""
    if name in PYTEST_NAMES:
        return vals
    if name.startswith("python") and len(vals) >= 2 and vals[0] == "-m" and vals[1] in (
            "pytest", "py.test"):
        return vals[2:]
    return None


def pytest_paths(vals: list) -> list[str | None]:
    """The test paths a pytest call names (node ids cut at `::`); [] when it names none."""
    out: list[str | None] = []
    i = 0
    while i < len(vals):
        v = vals[i]
        if v is None:
            out.append(None)
        elif v in PYTEST_VALUED:
            i += 1
        elif not v.startswith("-"):
            out.append(v.split("::", 1)[0])
        i += 1
    return out


def is_pytest_file(path: str) -> bool:
    base = path.rsplit("/", 1)[-1]
    return base == "conftest.py" or (base.endswith(".py") and (
        base.startswith("test_") or base.endswith("_test.py")))
