"""A shell command line as the simple commands it would run (the policy's view of a shell call).

    parsed = resolve("cd ~/.ssh && R=cat; $R id_rsa", cwd="/work", env={"HOME": "/home/me"})
    parsed.commands   # [Cmd(argv=[cd, /home/me/.ssh]), Cmd(argv=[cat, id_rsa], cwd=/home/me/.ssh)]
    parsed.unresolved # why some command could not be resolved ([] here)

The parser is tree-sitter with the tree-sitter-bash grammar (pinned in pyproject.toml; chosen
over bashlex, 86 ms to import, and shfmt's JSON, a process per call; docs/policy.md). Its two
compiled bindings are loaded directly (not through their packages' __init__, which import
`typing` and `importlib.resources`: ~20 ms the hook handler does not pay).

What is resolved: lists, pipelines, subshells, groups, if/while/for/case bodies, function bodies,
`$(...)` and backticks (their commands run too), `bash|sh|zsh|dash|ksh -c '<static text>'`,
`eval` of static text, heredoc and herestring bodies fed to a shell, a shell or `source` of a
script file that exists (its text is read, bounded), a program another program reads from a
file (programs.PROGRAM_FILES: sed -f, awk -f, make -f, python3 F, ...: judged as it would be
inline), wrappers (sudo, env, command, builtin, exec,
nice, nohup, timeout, time, stdbuf, setsid, xargs, find -exec/-execdir/-ok/-okdir, ...), quotes and
backslashes removed, the program's path reduced to its name, brace expansion, `~` and `$HOME`,
static assignments earlier in the line (`R=rm; $R`), field splitting of unquoted expansions,
a program the line copied or linked (`cp /bin/rm ./x; ./x` is rm), a name a PATH changed in
the line finds on disk,
`for`/`select` bodies once per value of their list, `cd`/`pushd`/`popd` followed.

What is not (each a reason in `unresolved`): everything else. The resolver keeps a positive
list (STATEMENT_TYPES, WORD_TYPES, the parameter forms `_expand` implements, STATE_BUILTINS
and STATE_VARS below): a tree-sitter node of any other type, a parameter operator it does not
evaluate (`${x%...}`, `${x/...}`, `${!x}`, `${#x}`), a variable whose value is not known
(set outside the line, or from input: `read`, `mapfile`, `printf -v`), a change of the shell's own state that
alters how later text is read (`IFS=`, `HOME=`, `CDPATH=`, `BASH_ENV=`, `alias`, `shopt`,
`enable`, `declare -n`, `trap`), a glob or unknown word in command position, a brace list longer
than it expands, `cd -` before any `cd`, `env -S`, a program written earlier in the same line
and then run, `eval` of non-static text, a shell fed from a pipe or a non-static `-c`, `source`
of a non-static or unreadable file, a parse error, nesting deeper than MAX_DEPTH. New shell
syntax is unresolved until it is added to the lists with a test.

Standard library plus the two bindings; file look-ups go through `fs` (core/policy/fs.py).
"""
from __future__ import annotations

import os
import posixpath
import re

from . import longopts
from . import programs as P
from .activate import venv_dir

MAX_DEPTH = 8              # shells in shells, evals, scripts
#: the children of a heredoc's redirection that are the heredoc itself (anything else there is
#: the rest of its line: Resolver._heredoc_rest)
_HEREDOC_PARTS = frozenset({"heredoc_start", "heredoc_body", "heredoc_end", "file_redirect",
                            "herestring_redirect", "heredoc_content", "simple_heredoc_body"})
#: the folders a line's commands are judged in at most (its own and those it changes to)
MAX_FOLDERS = 9
MAX_SCRIPT = 256 * 1024    # a script file read to see what it runs
MAX_COMMANDS = 2000
MAX_TEXT = 256 * 1024      # a longer command line is not parsed (unresolved): the hook must answer
MAX_ARGS = 5000            # words of one simple command
MAX_CALLS = 64             # calls of the line's own functions followed
#: bash's variables whose every assignment is evaluated as arithmetic
INT_SPECIALS = frozenset({"RANDOM", "SRANDOM", "OPTIND", "HISTCMD", "SECONDS", "LINENO"})
#: the constructs whose parts may or may not run (a `list` with `&&`/`||` after its first command)
_BRANCHING = frozenset({"if_statement", "case_statement", "while_statement", "list"})
_MISSING = object()


#: the constructs inside which a definition or an assignment may not run, or runs in a subshell
_MAYBE = frozenset({"if_statement", "elif_clause", "else_clause", "case_item", "case_statement",
                    "while_statement", "for_statement", "c_style_for_statement", "do_group",
                    "subshell", "command_substitution", "process_substitution", "pipeline",
                    "negated_command"})


def _surely_runs(n) -> bool:
    """Whether the statement `n` runs in this shell whenever the line does: not inside a
    branch, a loop, a subshell or a substitution, not after `&&`/`||`, not put in the
    background with `&`."""
    node = n
    while node is not None and node.parent is not None:
        parent = node.parent
        if parent.type in _MAYBE:
            return False
        if parent.type == "list" and parent.named_children and node != parent.named_children[0]:
            return False
        nxt = node.next_sibling
        if nxt is not None and nxt.type == "&":
            return False
        node = parent
    return True


#: the wrappers of text run in the same shell: a function defined there is the caller's
_SAME_SHELL = frozenset({"source", ".", "eval"})


def _shell_of(via: tuple[str, ...]) -> tuple[str, ...]:
    """The shell a command runs in, as `via` says: `source`, `.` and `eval` run text in the
    same shell (a function defined in a sourced file is the caller's: red team round 11)."""
    return tuple(v for v in via if v not in _SAME_SHELL)


UNKNOWN = "\0"             # stands for a part of a word whose value is not known
#: bash's own variables that always hold a number: safe in an arithmetic context
SHELL_NUMBERS = frozenset({"RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "PPID", "UID",
                           "EUID", "EPOCHSECONDS", "OPTIND", "#", "?", "$", "!"})
#: `[[ a -eq b ]]`: operators whose operands bash evaluates as arithmetic expressions
ARITH_TESTS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})


_STATEMENTS = frozenset({"subshell", "compound_statement", "pipeline", "list", "command",
                         "redirected_statement", "if_statement", "while_statement",
                         "for_statement", "case_statement", "function_definition",
                         "negated_command"})

#: the statement node types `Resolver.stmt` evaluates (and the WORD_TYPES, as words: a `for`
#: list, a `case` subject); any other is unresolved
STATEMENT_TYPES = frozenset({
    "command", "redirected_statement", "variable_assignment", "declaration_command", "pipeline",
    "subshell", "compound_statement", "program", "list", "negated_command", "if_statement",
    "elif_clause", "else_clause", "while_statement", "do_group", "case_statement", "case_item",
    "for_statement", "c_style_for_statement", "function_definition", "test_command",
    "unset_command", "comment", "heredoc_body", "file_redirect", "herestring_redirect",
    "heredoc_redirect", "ERROR"})
#: the word node types `Resolver._parts` evaluates (exactly, or as a value not known whose
#: commands are resolved: $(...), <(...)); any other is unresolved
WORD_TYPES = frozenset({
    "word", "number", "variable_name", "special_variable_name", "raw_string", "ansi_c_string",
    "string", "translated_string", "string_content", "heredoc_body", "concatenation",
    "simple_expansion", "expansion", "command_substitution", "process_substitution",
    "arithmetic_expansion", "brace_expression", "heredoc_content"})
#: the expression nodes of a `[ ... ]` / `[[ ... ]]` test, walked to their operands
TEST_EXPRESSIONS = frozenset({"unary_expression", "binary_expression", "parenthesized_expression",
                              "negated_expression", "postfix_expression", "ternary_expression"})
#: builtins that change how the rest of the line is read or run later: unresolved
STATE_BUILTINS = frozenset({"alias", "shopt", "enable", "trap", "coproc", "bind",
                            "complete", "compgen"})
#: text that makes a line wait for what another call may do meanwhile: a loop, a sleep, a wait
#: for a file or an event or input (a superset: the words inside quotes count too)
#: (and `&`: a job in the background goes on after the call returns, and runs what a later
#: call writes; red team round 10)
_WAITS = re.compile(r"\b(?:while|until|sleep|wait|inotifywait|watch|at|batch|read|flock|tail)\b"
                    r"|(?<![&><|])&(?![&>])")
_WAITED = "not there now, while this command waits (a loop, a sleep, a wait, a job in the " \
          "background) for what another call may make meanwhile"
#: builtins that set variables from their input: those variables are not known
DYNAMIC_ASSIGN = frozenset({"read", "mapfile", "readarray", "printf", "getopts"})
#: programs whose operands may be files they write: a script among them that the same line then
#: runs is unresolved (redirections count as well)
WRITES_OPERANDS = frozenset({"cp", "mv", "install", "tee", "dd", "ln", "rsync", "curl", "wget",
                             "scp", "sed", "perl", "patch", "touch", "truncate", "unzip", "tar"})
#: commands that write no file of their own (their commands are resolved, or they only steer
#: the shell): they do not make a later program file "possibly written in this line"
_NO_WRITES = frozenset({"eval", "source", ".", "xargs", "cd", "pushd", "popd", ":", "exit",
                        "export", "set", "unset", "local", "declare", "readonly", "shift"})
#: variables whose assignment changes how the rest of the line is read (word splitting, `~`,
#: `cd`'s search, code a shell runs at start, the folder git writes its work tree into, the
#: folders `~+`, `~-`, `cd ..` and `cd -` start from, bash's table of the program each name
#: runs and of its aliases): unresolved
STATE_VARS = frozenset({"IFS", "HOME", "CDPATH", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS",
                        "PROMPT_COMMAND", "PS4", "GLOBIGNORE", "BASH_FUNC", "GIT_WORK_TREE",
                        "PWD", "OLDPWD", "BASH_CMDS", "BASH_ALIASES"})


class Word:
    """One argument after expansion: `value` (None when a part is not known) and `pattern`, a
    glob (fnmatch syntax: literal glob characters escaped as [*]) of every value it can take;
    `glob` True when unquoted glob characters make the shell expand it."""
    __slots__ = ("value", "pattern", "glob", "raw", "alts", "inner", "opaque", "fields")

    def __init__(self, value: str | None, pattern: str, glob: bool = False, raw: str = ""):
        self.value, self.pattern, self.glob, self.raw = value, pattern, glob, raw
        self.alts: list[str] | None = None      # the words brace expansion makes of it
        self.inner: list = []                   # commands whose output makes part of it
        #: why part of it is a form the resolver does not evaluate ("" when every part is on its
        #: positive list): the rules make the command unresolved when a rule could apply to it
        self.opaque = ""
        #: the words field splitting makes of it (an unquoted expansion whose value holds
        #: blanks: `x="rm -rf y"; $x` is three words), None when it stays one word
        self.fields: list[str] | None = None

    @classmethod
    def lit(cls, s: str) -> "Word":
        return cls(s, _escape(s), False, s)

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Word({self.value!r})" if self.value is not None else f"Word(~{self.pattern!r})"


class _Before:
    """The files the line wrote before a command (`p in before`): the first `mark` writes."""
    __slots__ = ("r", "mark")

    def __init__(self, r: "Resolver", mark: int):
        self.r, self.mark = r, mark

    def __contains__(self, p: object) -> bool:
        return isinstance(p, str) and self.r.written_at.get(p, self.mark) < self.mark


class Cmd:
    """One simple command that would run: argv (argv[0] reduced to the program's name),
    redirections [(mode "r" | "w" | "rw", Word)], the directory it runs in, the wrappers it was
    found inside, and for commands fed by find/xargs the directories their operands come from."""
    __slots__ = ("argv", "redirects", "cwd", "via", "feeds", "stdin", "env", "alts")

    def __init__(self, argv, redirects=None, cwd="", via=(), feeds=None, stdin=None, env=None):
        self.argv: list[Word] = argv
        #: the other folders it may run in: every folder a cd, pushd or popd anywhere in the
        #: line went to and the line's own (a cd that fails, one in a branch that does not run,
        #: in a function, or after `builtin`, `command`, `eval`: resolve() fills it)
        self.alts: tuple[str, ...] = ()
        self.redirects: list[tuple[str, Word]] = redirects or []
        self.cwd, self.via = cwd, tuple(via)
        self.feeds: list[Word] = feeds or []     # operands find / xargs add (recursive)
        self.stdin = stdin                       # "pipe" | "heredoc" | None
        #: the variables the line gives the program's environment (`X=v cmd`, `env X=v cmd`,
        #: `export X=v; cmd`): name -> value (None: not static)
        self.env: dict[str, str | None] = env or {}

    @property
    def name(self) -> str:
        w = self.argv[0] if self.argv else None
        return program_name(w.value) if w is not None and w.value is not None else ""

    def __repr__(self) -> str:  # pragma: no cover
        return f"Cmd({[a.value for a in self.argv]!r}, cwd={self.cwd!r}, via={self.via!r})"


class Parsed:
    __slots__ = ("commands", "unresolved", "dynamic")

    def __init__(self):
        self.commands: list[Cmd] = []
        self.unresolved: list[str] = []
        #: commands that run a command read at run time (inline code spawning a process whose
        #: command is not a literal, a program an interpreter reads from a pipe): unresolved
        #: whenever an argv rule exists (core/policy/rules.py)
        self.dynamic: list[str] = []


_NUMBER = re.compile(
    r"\s*[+-]?\s*(0[xX][0-9a-fA-F]+|[0-9]+(#[0-9a-zA-Z@_]+)?)\s*\Z")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\Z")


#: commands that print one number only (`$(( $(nproc) + 1 ))`): their output is no code
_NUMBER_PRINTERS = frozenset({"nproc", "wc"})
#: a value that is one command substitution and nothing else (`$(...)`, `"$(...)"`)
_SUBSTITUTION_ONLY = re.compile(r'^"?\$\((?!\()[^$`]*\)"?$')
#: a word that is one variable's value and nothing else (`$n`, `"${n}"`)
_ONE_VARIABLE = re.compile(r'^"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"?$')


def _prints_number(cmd: "Cmd") -> bool:
    """Whether a command prints a number and nothing else: `nproc`, `wc -l` reading its
    input (with a file operand it prints the file's name too)."""
    return cmd.name in _NUMBER_PRINTERS and all(
        a.value is not None and a.value.startswith("-") for a in cmd.argv[1:])


_DIRSTACK_TILDE = re.compile(r"~[+-]?[0-9]+(?=/|\Z)")


#: `set` options that change how later text of the line is read: what they do
_SET_LETTERS = {"H": "turns on the re-running of earlier command lines (history)",
                "k": "makes every NAME=value word of a command an assignment (keyword)",
                # red team round 12: special builtins are then found before functions, and an
                # assignment before one stays
                "posix": "switches bash to POSIX mode"}
_SET_NAMES = {"history": "H", "histexpand": "H", "keyword": "k", "posix": "posix"}
#: the options each declaration builtin takes (bash 5): another one makes it refuse to run
_DECLARE_OPTIONS = {"declare": "aAcfFgiIlnprtux", "typeset": "aAcfFgiIlnprtux",
                    "local": "aAcfFgiIlnprtux", "export": "fnp", "readonly": "aAfp"}
#: POSIX's special builtins: in POSIX mode (and in dash) an assignment before one stays after it
SPECIAL_BUILTINS = frozenset({":", ".", "break", "continue", "eval", "exec", "exit", "export",
                              "readonly", "return", "set", "shift", "times", "trap", "unset",
                              "source"})


def _line_option(name: str, vals: list) -> str | None:
    """What `set -H`, `set -o history`/`histexpand` (then `!!`, `!n` re-run earlier text),
    `set -k`/`-o keyword` (then `cmd a X=1` passes X in the environment, not as a word) and
    `fc` re-running a line (`fc -s old=new`; `fc -l` only lists) do, None for anything else:
    bash then runs other words than this line shows."""
    if name == "fc":
        if any(v is not None and v.startswith("-") and "l" in v for v in vals):
            return None
        return "re-runs earlier command lines (history)"
    if name != "set":
        return None
    for i, v in enumerate(vals):
        opt_arg = i and (vals[i - 1] or "")[:1] in "-+" and (vals[i - 1] or "").endswith("o")
        if v is None:
            return "has an option that is not known"    # (it could be `-H`)
        if opt_arg:
            if v in _SET_NAMES and (vals[i - 1] or "")[:1] == "-":
                return _SET_LETTERS[_SET_NAMES[v]]      # `set -o history`, `set -eo keyword`
        elif v == "--" or not v.startswith(("-", "+")):
            return None                                 # the positional parameters
        elif v.startswith("-"):
            for letter, what in _SET_LETTERS.items():
                if letter in v:
                    return what
    return None


#: `$"..."` is the text the message catalogue of TEXTDOMAIN (in TEXTDOMAINDIR) gives for it,
#: which any earlier line or the environment can point elsewhere (red team round 10:
#: `rm $"todo.txt" DIR` ran `rm -rf DIR`)
_TRANSLATED = "a $\"...\" string (bash translates it through a message catalogue)"
#: where a backslash-newline is two characters and not a line continuation
_KEEPS_CONTINUATION = ("raw_string", "ansi_c_string", "comment")
_CONTINUATION = re.compile(rb"\\+\n")


def _join_continuations(root, data: bytes) -> bytes:
    """The line as bash reads it: a backslash-newline is removed wherever it is not inside
    single quotes, `$'...'`, a comment or the body of a here-document with a quoted delimiter.
    The parser takes it for a blank between words, so `cat ~/.ss\\⏎h/id` and
    `"$\\⏎(cmd)"` would otherwise be read as other words than bash runs."""
    kept: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type in _KEEPS_CONTINUATION:
            kept.append((n.start_byte, n.end_byte))
            continue
        if n.type == "heredoc_redirect" and any(
                c.type == "heredoc_start" and any(q in c.text for q in (b"'", b'"', b"\\"))
                for c in n.children):
            kept += [(c.start_byte, c.end_byte) for c in n.children if c.type == "heredoc_body"]
            continue
        stack.extend(n.children)
    out, at = bytearray(), 0
    for m in _CONTINUATION.finditer(data):
        if (m.end() - m.start() - 1) % 2 == 0:          # `\\⏎`: an escaped backslash, then a newline
            continue
        bs = m.end() - 2                                 # the backslash that escapes the newline
        if any(a <= bs < b for a, b in kept):
            continue
        out += data[at:bs]
        at = m.end()
    return bytes(out + data[at:])


def _xargs_words(w: "Word") -> list["Word"]:
    """The words xargs reads from a here-string's or heredoc's text: split on blanks with its
    quoting, and each line whole too (`-0`, `-d` split otherwise); one word not known when
    the text is not known or does not split."""
    if w.value is None:
        unknown = Word(None, "*", False, w.raw)
        unknown.inner = list(w.inner)
        unknown.opaque = f"xargs appends the words of {w.raw[:40]}, which are not known"
        return [unknown]
    import shlex   # local: only for xargs fed by a here-string or heredoc
    try:
        parts = shlex.split(w.value)
    except ValueError:
        parts = w.value.split()
    lines = [ln for ln in w.value.split("\n") if ln.strip()]
    return [Word.lit(x) for x in dict.fromkeys(parts + lines)][:256]


def _continued_delimiter(n, body: str) -> bool:
    """Whether bash ends an unquoted heredoc inside what the parser took as its body: bash
    removes backslash-newline while reading the body, so the lines `EO\\` and `F` are the
    delimiter `EOF` (the rest of the body then runs as commands)."""
    start = next((c for c in n.named_children if c.type == "heredoc_start"), None)
    if start is None or "\\\n" not in body:
        return False
    delim = start.text.decode("utf-8", "replace")
    tabs = any(c.type == "<<-" for c in n.children)
    return any((line.lstrip("\t") if tabs else line) == delim
               for line in body.replace("\\\n", "").split("\n"))


def program_name(value: str) -> str:
    """`/bin/rm`, `./x/rm`, `\\rm` -> rm (backslashes are gone by the time a Word has a value);
    `python3.11`, `tclsh8.6` -> python3, tclsh (programs.unversioned)."""
    base = posixpath.basename(value.rstrip("/")) if "/" in value else value
    return P.unversioned(base)


def _split_short(name: str, spec: str, words: list[Word]) -> list[Word]:
    """`words` with each cluster of short options split as getopt reads it (programs.py
    split_short): `-nfs.sed` is `-n`, `-f`, `s.sed`. A glued value keeps its glob pattern (the
    letters before it are plain)."""
    out: list[Word] = []
    whole = P.WHOLE_OPTIONS.get(name, ())
    for w, split in zip(words, P.split_short(spec, [a.value for a in words])):
        if split is None or w.value is None or w.value.startswith(whole):
            out.append(w)
            continue
        opts, val = split
        if val is not None and w.glob:
            cut = len(w.value) - len(val)
            if w.pattern[:cut] != w.value[:cut]:
                out.append(w)            # (the letters are escaped in the pattern: not split)
                continue
            vw = Word(val, w.pattern[cut:], True, val)
            vw.opaque = w.opaque
        elif val is not None:
            vw = Word.lit(val)
            vw.opaque = w.opaque
        out += [Word.lit(o) for o in opts] + ([vw] if val is not None else [])
    return out


def _escape(s: str) -> str:
    return "".join(f"[{c}]" if c in "*?[]" else c for c in s)


# ---- the parser ------------------------------------------------------------------------------
_PARSER = None


def parser():
    global _PARSER
    if _PARSER is None:
        try:
            from .fs import load_binding
            ts, tb = load_binding("tree_sitter"), load_binding("tree_sitter_bash")
        except (ImportError, OSError):
            import tree_sitter as ts  # the packages' own way (another layout)
            import tree_sitter_bash as tb
        _PARSER = ts.Parser(ts.Language(tb.language()))
    return _PARSER


# ---- resolving -------------------------------------------------------------------------------
class _Ctx:
    __slots__ = ("cwd", "vars", "depth", "via", "stdin", "prev", "fn", "stack", "fed", "env",
                 "arg0", "args")

    def __init__(self, cwd, vars_, depth, via=(), stdin=None, prev=None, fn=False, stack=(),
                 fed=None, env=None):
        self.cwd, self.vars, self.depth, self.via, self.stdin = cwd, vars_, depth, via, stdin
        #: what the previous stage of a pipeline prints, when known (`echo CODE | python3`)
        self.fed: str | None = fed
        self.prev = prev          # the folder before the last cd (`cd -`), None: not known
        #: inside a function body or a script file: its positional parameters are the words of
        #: the call (judged there), not values to resolve here
        self.fn = fn
        self.stack: tuple[str, ...] = tuple(stack)   # pushd's directory stack (popd)
        #: the variables the programs run here get in their environment from this line
        #: (exported, or assigned before the command): what Cmd.env holds
        self.env: dict[str, str | None] = dict(env or {})
        #: the positional parameters, when they are the words of a call judged here (a
        #: function called in this line, `bash -c TEXT NAME ARGS`): $0 and $1... then
        self.arg0: Word | None = None
        self.args: list[Word] | None = None

    def child(self, **kw) -> "_Ctx":
        c = _Ctx(self.cwd, dict(self.vars), self.depth, self.via, self.stdin, self.prev,
                 self.fn, self.stack, self.fed, self.env)
        c.arg0, c.args = self.arg0, self.args
        for k, v in kw.items():
            setattr(c, k, v)
        return c


class Resolver:
    def __init__(self, env, fs, home: str | None):
        self.env, self.fs = env, fs
        self.home = home or (env.get("HOME") if env else None) or ""
        self.out = Parsed()
        self.var_inner: dict[str, list] = {}
        self._inner_words: list = []
        self.written: set[str] = set()      # files this line writes (redirections): not yet run
        #: when each was first written (its place in the line's writes), and the written paths
        #: by file name: what "written before this command" asks, without copying the set
        self.written_at: dict[str, int] = {}
        self.written_names: dict[str, list[str]] = {}
        self.dash_written = False           # a file named like an option (`touch ./-rf`)
        self.activated = False              # a venv's activate script was sourced
        #: the line waits (a loop, a sleep, a wait): a file missing at decision time
        #: may be made by another call before the command that runs it does (set by line())
        self.waits = False
        #: every folder a cd, pushd or popd of the line went to, in any branch or function
        self.visited: list[str] = []
        #: an earlier command of the line may have written files agentdeck does not track (a
        #: program whose writes are not known): a program file missing now may be one of them
        self.may_write = False
        #: the assignments before the command being run (`PYTHONPATH=. python3 -m m`): its
        #: environment, beside the line's own variables
        self.prefix_env: dict[str, str | None] = {}
        #: where the redirections of the statement being walked start (`cmd 0<F`)
        self.redirect_starts: set[int] = set()
        #: programs this line copies or links to a new place (the new path -> the program's
        #: path): a later command that runs the new path (or its name) runs that program
        self.made_from: dict[str, str] = {}
        self.made_names: dict[str, str] = {}     # the same, by the new path's file name
        self.made_sources: set[str] = set()
        #: folders this line fills with files it cannot list (an archive extracted, a branch
        #: checked out, a folder copied): a program run from under one is not known
        self.tree_dirs: dict[str, int] = {}      # folder -> when (its place in the line's writes)
        #: the folders a PATH changed in this line names, and whether a part of it is not known
        #: (None: PATH is the shell's own)
        self.path_change: tuple[list[str], bool] | None = None
        self._opaque: list[str] = []        # the forms not evaluated in the word being read
        #: loop variables bound to a glob's matches: the glob's pattern stands for their value
        self.var_pattern: dict[str, str] = {}
        self.loop_walks = 0                 # loop bodies followed so far (LOOP_WALKS at most)
        #: variables an arithmetic expression of this line set (a number, its value not kept)
        self.int_known: set[str] = set()
        #: `declare -i`: later assignments are arithmetic; bash's own integer variables are so
        #: from the start (red team round 11: `RANDOM='a[$(cmd)]'` runs cmd)
        self.int_vars: set[str] = set(INT_SPECIALS)
        #: `declare -l`/`-u`/`-c`: later assignments are lowered, raised or capitalised
        self.case_vars: dict[str, str] = {}
        #: the functions the line defines: name -> (body, the shell it is defined in (`via`
        #: without source/eval), whether its definition surely ran: _surely_runs)
        self.functions: dict[str, tuple[object, tuple[str, ...], bool]] = {}
        self.readonly: set[str] = set()     # `readonly x`: later assignments to x fail
        self.allexport = False              # `set -a`: every assignment is exported
        self.calls = 0                      # the function calls followed (MAX_CALLS)
        self._split_next = False            # the expansion just read is "$@" of several words
        self.assoc: set[str] = set()        # `declare -A`: subscripts are words, not arithmetic

    # -- entry
    def line(self, text: str, ctx: _Ctx) -> None:
        if ctx.depth > MAX_DEPTH:
            self.unresolved(f"nested deeper than {MAX_DEPTH} levels")
            return
        data = text.encode("utf-8", "surrogatepass")
        if len(data) > MAX_TEXT:
            self.unresolved(f"a command line longer than {MAX_TEXT // 1024} KiB is not followed")
            return
        if not self.waits and _WAITS.search(text):
            self.waits = True
        tree = parser().parse(data)
        if b"\\\n" in data:
            joined = _join_continuations(tree.root_node, data)
            if joined != data:
                tree = parser().parse(joined)
        root = tree.root_node
        if root.has_error:
            self.unresolved("the command line does not parse as shell")
        self.stmt(root, ctx)

    def unresolved(self, why: str) -> None:
        if why not in self.out.unresolved:
            self.out.unresolved.append(why)

    # -- statements
    def stmt(self, n, ctx: _Ctx, redirects=None) -> None:
        t = n.type
        if len(self.out.commands) > MAX_COMMANDS:
            self.unresolved("too many commands")
            return
        if t == "command":
            self.command(n, ctx, redirects or [])
        elif t == "redirected_statement":
            reds = list(redirects or [])
            body = n.child_by_field_name("body")
            for c in n.children:
                if c is not body and c.type.endswith("redirect"):
                    reds += self.redirect(c, ctx)
            if body is not None and body.type not in ("command", "list"):
                # `( cat ) < f`, `while ...; done < f`: the redirection is the compound's, and
                # what it reads is the stdin of every command in it (`{ python3 -; } < F`)
                self._redirect_only(reds, ctx)
                self.stmt(body, self._fed_by(reds, ctx))
            elif body is not None:
                saved_starts, self.redirect_starts = self.redirect_starts, {
                    c.start_byte for c in n.children
                    if c is not body and c.type.endswith("redirect")}
                self.stmt(body, ctx, reds)
                self.redirect_starts = saved_starts
            else:       # `` `< f` ``, `> f`: redirections alone still open their files
                self._redirect_only(reds, ctx)
            self._heredoc_rest(n, ctx)
        elif t == "variable_assignment":
            self.assign(n, ctx)
        elif t == "declaration_command":
            flags = " ".join(c.text.decode("utf-8", "replace") for c in n.named_children
                             if c.type == "word")
            if any(f.startswith("-") and "n" in f for f in flags.split()):
                self.unresolved("declare -n (a name reference) is not evaluated")
            exported = n.children[0].type == "export" or any(
                f.startswith("-") and "x" in f for f in flags.split())
            opts = "".join(f[1:] for f in flags.split() if f.startswith(("-", "+")))
            kind = n.children[0].type
            bad = sorted(set(opts) - set(_DECLARE_OPTIONS.get(kind, _DECLARE_OPTIONS["declare"])))
            # bash refuses the whole builtin (an option it does not know, `local` outside a
            # function): nothing it names is assigned, earlier values stay (red team round 12)
            refused = bool(bad) or kind == "local" and not ctx.fn
            if bad:
                self.unresolved(f"{kind} -{''.join(bad)}: an option bash refuses (nothing is "
                                "assigned)")
            for c in n.named_children:
                if c.type == "variable_assignment":
                    nm = c.child_by_field_name("name")
                    vname = nm.text.decode("utf-8", "replace").split("[", 1)[0] if nm else ""
                    if refused:
                        value = c.child_by_field_name("value")
                        if value is not None:
                            self.word(value, ctx)        # (its words are still expanded)
                        continue
                    if "i" in opts:
                        self.int_vars.add(vname)
                    if "A" in opts:
                        self.assoc.add(vname)
                    self._case_attr(vname, opts)
                    self.assign(c, ctx)
                    if kind == "readonly" or "r" in opts:
                        self.readonly.add(vname)
                elif c.type in ("word", "variable_name") and not c.text.startswith((b"-", b"+")):
                    vname = c.text.decode("utf-8", "replace").split("[", 1)[0]
                    if "i" in opts:
                        self.int_vars.add(vname)
                    if "A" in opts:
                        self.assoc.add(vname)
                    self._case_attr(vname, opts)
                    if vname in ctx.vars and any(ch in opts for ch in "luc"):
                        ctx.vars[vname] = None   # (its value is converted now: not followed)
                    if not refused and (kind == "readonly" or "r" in opts):
                        self.readonly.add(vname)
                    self._name_arg(self.word(c, ctx), "declare", ctx)
                elif c.type != "word":
                    self._quoted_assign(c, self.word(c, ctx), exported, ctx)
                if exported and c.type in ("variable_assignment", "variable_name"):
                    key = (c.child_by_field_name("name") if c.type == "variable_assignment"
                           else c)
                    if key is not None:
                        k = key.text.decode("utf-8", "replace")
                        ctx.env[k] = ctx.vars.get(k)
        elif t == "pipeline":
            stages = [c for c in n.named_children]
            prev: list[Cmd] = []
            rewritten = ""                   # a stage that rewrote the names it was given
            for i, c in enumerate(stages):
                start = len(self.out.commands)
                sub = ctx.child(stdin="pipe" if i else ctx.stdin,
                                fed=_printed(prev) if i else ctx.fed)
                self.stmt(c, sub, redirects if i == len(stages) - 1 else None)
                mine = self.out.commands[start:]
                for cmd in mine:
                    if cmd.stdin == "xargs" or P.names_from_stdin(
                            cmd.name, [a.value for a in cmd.argv[1:]]):
                        # `find D | cpio -o`: what the earlier stage names is what it reads
                        cmd.feeds += [w for p in prev for w in p.argv[1:] + p.feeds]
                        if prev and all(p.name == "find" for p in prev):
                            # `find D -name k | xargs cat`: it opens what find printed, a
                            # link among them to its target (red team round 8)
                            tags = {P.find_names_tag([a.value for a in p.argv[1:]]) for p in prev}
                            cmd.via = cmd.via + ("find -L",) + (
                                (tags.pop(),) if len(tags) == 1 and "" not in tags else ())
                        if prev and not all(p.name == "find" for p in prev):
                            # and what it prints, which is not known (`ls | xargs cat`: the
                            # folder's names): paths.py judges it as any name of the folder
                            # (find prints the folders it was given, walked above, and names
                            # that start with them, so never an option)
                            cmd.feeds.append(Word(None, "*", False, "the pipe"))
                        if rewritten and cmd.name not in P.META | P.MENTION:
                            # (`... | awk '{print $2}' | xargs kill`: kill opens no file)
                            self.unresolved(f"the names {cmd.name} reads were rewritten by "
                                            f"{rewritten} earlier in the pipeline")
                roles = {m.name: _pipe_role(m) for m in mine if m.name != "xargs"} if i else {}
                if i and prev and roles and set(roles.values()) == {"pass"}:
                    continue                 # `find D | sort | xargs`: the names are still D's
                if i and prev and "rewrite" in roles.values():
                    rewritten = next(k for k, v in roles.items() if v == "rewrite")
                elif mine:
                    rewritten = ""
                prev = mine or prev
        elif t == "for_statement" and n.child_by_field_name("variable") is not None:
            before = dict(ctx.vars)
            self.for_loop(n, ctx)
            self._after_branches(before, ctx)
        elif t == "compound_statement" and n.children and n.children[0].type == "((":
            for c in n.named_children:            # `(( i++ ))`: an arithmetic command
                self._arith(c, ctx)
        elif t == "c_style_for_statement":
            body = n.child_by_field_name("body")
            before = dict(ctx.vars)
            for c in n.named_children:
                if body is not None and c == body:
                    self.stmt(c, ctx)
                elif c.type != "comment":
                    self._arith(c, ctx)
            self._after_branches(before, ctx)
        elif t in ("subshell", "compound_statement", "program", "list", "negated_command",
                   "if_statement", "elif_clause", "else_clause", "while_statement",
                   "do_group", "case_statement", "case_item", "for_statement",
                   "function_definition", "ERROR"):
            inner = ctx.child() if t == "subshell" else ctx.child(fn=True) \
                if t == "function_definition" else ctx
            if t == "function_definition":
                self._define(n, ctx)
            kids = [c for c in n.named_children
                    if not (t == "for_statement" and c.type == "variable_name")
                    and not (t == "case_item" and c.type in ("extglob_pattern", "regex"))]
            # what a branch, a loop's body or a command after `&&`/`||` assigns may not have
            # run: after it, such a variable is not known (red team round 11: `if :; then
            # d=~/.claude; else d=/tmp; fi` left d = /tmp here and ~/.claude in bash)
            branching = t in _BRANCHING
            snapshot = dict(inner.vars) if branching else None
            for i, c in enumerate(kids):
                # `a && b > f` parses as (a && b) > f: the redirection is the last command's
                last = redirects if (t == "list" and i == len(kids) - 1) else None
                if t == "list" and i == 1:
                    snapshot = dict(inner.vars)      # (the first command of a list runs)
                nxt = c.next_sibling
                if nxt is not None and nxt.type == "&" and t != "list":
                    # a job in the background is a subshell: what it assigns stays there
                    saved = dict(inner.vars)
                    self.stmt(c, inner, last)
                    inner.vars.clear()
                    inner.vars.update(saved)
                    continue
                self.stmt(c, inner, last)
            if snapshot is not None:
                self._after_branches(snapshot, inner)
        elif t == "unset_command":
            funcs = any(c.text.startswith(b"-") and b"f" in c.text for c in n.named_children)
            for c in n.named_children:       # `unset 'a[$(cmd)]'`: the subscript is evaluated
                if c.type in ("word", "raw_string", "string", "concatenation",
                              "variable_name"):
                    w = self.word(c, ctx)
                    if w.value is not None and w.value.startswith("-"):
                        continue
                    if c.type != "variable_name":
                        self._name_arg(w, "unset", ctx)
                    if w.value is None:
                        continue
                    if funcs:
                        self.functions.pop(w.value, None)
                    else:
                        # unset: empty, and `${x:-DEFAULT}` takes DEFAULT (red team round 11);
                        # not followed: not known
                        key = w.value.split("[", 1)[0]
                        ctx.vars[key] = None
                        self.var_inner.pop(key, None)
                        self.var_pattern.pop(key, None)
                else:
                    self._test_expr(c, ctx)
        elif t == "test_command":
            for c in n.named_children:
                self._test_expr(c, ctx)      # substitutions inside still run
        elif t in ("comment", "heredoc_body", "file_redirect", "herestring_redirect",
                   "heredoc_redirect") or t in WORD_TYPES:
            if t in ("file_redirect", "herestring_redirect", "heredoc_redirect"):
                self._redirect_only(self.redirect(n, ctx), ctx)    # `$(< f)`
            elif t not in ("comment", "heredoc_body"):
                self.word(n, ctx)
        else:
            # not on the list: what runs inside is still looked at, and the line is unresolved
            self.unresolved(f"shell syntax agentdeck does not evaluate ({t})")
            for c in n.named_children:
                self.stmt(c, ctx)

    def _installed_as(self, value: str, ctx: _Ctx) -> str:
        """The name a table knows of the program `value` runs, found through the links to it
        (a bare name on PATH, or a path): `editor` and `vi` are links to vim.basic through
        /etc/alternatives; "" when it is none of theirs."""
        if value in P.SHELL_BUILTINS or value == "..":
            return ""        # the shell's own (`.` is `source`): never looked up on PATH
        if "/" in value:
            where = [self.path(value, ctx.cwd)]
        else:
            path = (self.env or {}).get("PATH") or "/usr/local/bin:/usr/bin:/bin"
            where = [posixpath.join(d, value) for d in path.split(":")[:32]
                     if d.startswith("/")]
        for p in where:
            if self.fs.exists(p) and not self.fs.is_dir(p):
                real = program_name(self.fs.realpath(p))
                return real if P.known_program(real) else ""
        return ""

    def _run_folder(self, name: str, vals: list, rest: int | None, ctx: _Ctx) -> _Ctx:
        """`ctx` moved to the folder programs.RUN_FOLDER's options name for `name` (a new
        context when they name one); one that is not static is unresolved."""
        folders = P.run_folders(name, vals, rest)
        if not folders:
            return ctx
        if None in folders:
            self.unresolved(f"{name} runs in a folder that is not static")
            return ctx
        moved = ctx.child()
        moved.prev = ctx.cwd
        for f in folders:
            moved.cwd = self.path(f or ".", moved.cwd)
        return moved

    def _long_spelled(self, name: str, words: list[Word], spec: str | None) -> list[Word]:
        """`words` with each abbreviated long option spelled in full, as the program reads it
        (longopts): `sort --outp=F` is `sort --output=F`, `git grep --open` is
        `git grep --open-files-in-pager`. A prefix of several of its options is said."""
        vals = [w.value for w in words]
        key, start = name, 0
        if name == "git":
            at = P.git_subcommand_at(vals)
            if at is None:
                return words
            key, start, spec = "git " + str(vals[at]), at + 1, None
        full, several = longopts.expand(key, vals, spec, start)
        if several:
            self.unresolved(f"{name} {several[0]}: an abbreviation of several of its options")
        if not longopts.table(key) and name != "git":
            # its options are not data here: an abbreviation of one a table reads is that
            # option to a getopt_long program (`sudo --chd=DIR` is `--chdir=DIR`)
            named = P.table_long_options(name)
            rest = P.unwrap(name, vals) if name in P.WRAPPERS else None
            for v in vals[start:rest] if named else ():     # (a wrapper's own words only)
                if v is None or not v.startswith("--") or v == "--":
                    continue
                opt = v.partition("=")[0]
                longer = sorted(o for o in named if o.startswith(opt) and o != opt)
                if longer and opt not in named:
                    self.unresolved(f"{name} {opt}: may abbreviate {longer[0]}, and {name}'s "
                                    "options are not known here")
                    break
        if not any(full):
            return words
        out: list[Word] = []
        for w, f in zip(words, full):
            old = (w.value or "").partition("=")[0]
            if f is None or w.glob and not w.pattern.startswith(old):
                if f is not None:
                    self.unresolved(f"{name} {old}: an abbreviated option with a pattern in it")
                out.append(w)
                continue
            new = Word(f, f.partition("=")[0] + w.pattern[len(old):], w.glob, w.raw)
            new.opaque, new.inner, new.fields = w.opaque, w.inner, w.fields
            out.append(new)
        return out

    def _heredoc_rest(self, n, ctx: _Ctx) -> None:
        """What follows a heredoc's start on its line (`cat <<EOF | sh`, `cat <<EOF && rm x`):
        the parser hangs it inside the heredoc's redirection. A pipe feeds the next stages
        what the statement before it prints; `&&`, `||`, `;`, `&` run the rest after it."""
        before = self.out.commands[-1:] if self.out.commands else []
        for r in n.children:
            if r.type != "heredoc_redirect":
                continue
            piped = False
            for c in r.children:
                if not c.is_named:
                    if c.type in ("|", "|&"):
                        piped = True
                    elif c.type in ("&&", "||", ";", "&"):
                        piped = False
                    continue
                if c.type in _HEREDOC_PARTS:
                    continue
                if c.type == "pipeline" and c.children and c.children[0].type in ("|", "|&"):
                    prev = before
                    for stage in c.named_children:
                        start = len(self.out.commands)
                        self.stmt(stage, ctx.child(stdin="pipe", fed=_printed(prev)))
                        prev = self.out.commands[start:]
                    continue
                start = len(self.out.commands)
                self.stmt(c, ctx.child(stdin="pipe", fed=_printed(before)) if piped else ctx)
                if piped:
                    before = self.out.commands[start:]

    def _quoted_assign(self, n, w: Word, exported: bool, ctx: _Ctx) -> None:
        """`export 'PS4=...'`, `declare -x "BASH_ENV=$F"`: a quoted word of a declaration is
        an assignment as well, judged as the unquoted one is."""
        raw = n.text.decode("utf-8", "replace").lstrip("$'\"")
        key = raw.split("=", 1)[0] if "=" in raw else ""
        if not _IDENT.match(key.split("[", 1)[0] or "-"):
            return
        if w.value is not None:
            self._name_arg(w, "declare", ctx)
        val = w.value.split("=", 1)[1] if w.value is not None and "=" in w.value else None
        self._state_var(key)
        self._command_var(key, Word.lit(val) if val is not None else Word(None, "*"), ctx)
        base = key.split("[", 1)[0]
        ctx.vars[base] = val if base == key else None
        if exported:
            ctx.env[base] = ctx.vars[base]

    def for_loop(self, n, ctx: _Ctx) -> None:
        """`for v in WORDS; do BODY; done` (and `select`): the body is followed once per value
        (at most LOOP_VALUES), `v` bound to it exactly; a glob binds `v` to the glob's pattern
        (its matches); a value not known, or no list (`for v; do`: the positional parameters),
        leaves `v` not known (opaque where a rule could apply)."""
        var = n.child_by_field_name("variable")
        key = var.text.decode("utf-8", "replace") if var is not None else ""
        body = n.child_by_field_name("body")
        values: list[Word] = []
        has_list = False
        for i, c in enumerate(n.children):
            if n.field_name_for_child(i) == "value":
                has_list = True
                values += _split_fields(self.word(c, ctx))
        self._state_var(key)
        expanded = [x for w in values for x in _split_brace(w)]
        if key in self.int_vars:
            for w in expanded:                  # `declare -i v; for v in 'a[$(cmd)]'`
                self._arith_word(w, ctx)
        if not has_list or len(expanded) > LOOP_VALUES or not expanded:
            ctx.vars[key] = None
            self.var_inner.pop(key, None)
            self.var_pattern.pop(key, None)
            if has_list and expanded:
                self.unresolved(f"a loop over more than {LOOP_VALUES} words is not followed")
            if body is not None:
                self.stmt(body, ctx)
            return
        for w in expanded:
            self.loop_walks += 1
            if self.loop_walks > LOOP_WALKS:
                self.unresolved(f"loops that run more than {LOOP_WALKS} times in all are "
                                "not followed")
                return
            self.var_inner.pop(key, None)
            self.var_pattern.pop(key, None)
            if w.value is not None and not w.glob:
                ctx.vars[key] = w.value
            else:
                ctx.vars[key] = None
                if w.inner:
                    self.var_inner[key] = w.inner
                elif w.glob:
                    self.var_pattern[key] = w.pattern
            if body is not None:
                self.stmt(body, ctx)

    def _test_expr(self, n, ctx: _Ctx) -> None:
        """The operands of a `[ ... ]` / `[[ ... ]]` test: only read by the test (their
        substitutions still run)."""
        if n.type in TEST_EXPRESSIONS:
            ops = [c.text.decode("utf-8", "replace") for c in n.children if c.type == "test_operator"
                   or not c.is_named and c.type.startswith("-")]
            double = n.parent is not None and n.parent.type == "test_command" \
                and n.parent.children[0].type == "[["
            for c in n.named_children:
                if c.type == "test_operator":
                    continue
                if n.type == "binary_expression" and double and ARITH_TESTS & set(ops):
                    if _number_form(c):
                        self._arith(c, ctx)      # `[[ $? -ne 0 ]]`: as in `(( $? != 0 ))`
                    else:
                        self._arith_word(self.word(c, ctx), ctx)   # `[[ $x -eq 1 ]]`
                elif n.type == "unary_expression" and "-v" in ops:
                    self._name_arg(self.word(c, ctx), "test -v", ctx)
                else:
                    self._test_expr(c, ctx)
        elif n.type not in ("test_operator", "regex", "extglob_pattern"):
            self.word(n, ctx)

    def _fed_by(self, reds, ctx: _Ctx) -> _Ctx:
        """The context of commands whose stdin a redirection gives (`{ ...; } < F`, `exec < F`,
        a heredoc or herestring): fed as from a pipe with the file's text as read now (None
        when it cannot be read: what they read is then not known)."""
        fed = [w for m, w in reds if m in ("r", "here", "rw")]
        if not fed:
            return ctx
        m, w = next((m, w) for m, w in reversed(reds) if m in ("r", "here", "rw"))
        text: str | None = None
        if m == "here":
            text = w.value
        elif w.value is not None:
            p = self.path(w.value, ctx.cwd)
            if not p.startswith(("/dev/", "/proc/")) and p not in self.written:
                text = self.fs.read_script(p, MAX_SCRIPT + 1)
                if text is not None and len(text) > MAX_SCRIPT:
                    text = None
        return ctx.child(stdin="pipe", fed=text)

    def chdir(self, name: str, argv: list, ctx: "_Ctx") -> None:
        """cd, pushd, popd: the folder the rest of the line runs in (resolve() also judges every
        later command in each folder the line went to: self.visited)."""
        if name == "popd":
            if not ctx.stack:
                self.unresolved("popd to a folder pushed before this command")
            else:
                ctx.prev, ctx.cwd, ctx.stack = ctx.cwd, ctx.stack[-1], ctx.stack[:-1]
            return
        ops = [a for a in argv[1:] if a.value is None or not a.value.startswith("-")
               or a.value == "-"]
        if name == "pushd":
            if ops and ops[0].value is not None and ops[0].value[:1] in "+-" \
                    and ops[0].value[1:].isdigit():
                self.unresolved("pushd rotating a directory stack set before this command")
                return
            ctx.stack = ctx.stack + (ctx.cwd,)
        if not ops:
            if name == "pushd":
                self.unresolved("pushd with no folder swaps with a stack set before this")
                return
            ctx.prev, ctx.cwd = ctx.cwd, self.home or ctx.cwd
        elif ops[0].value == "-":
            if ctx.prev is None:
                self.unresolved(f"{name} - to a folder set before this command")
            else:
                ctx.prev, ctx.cwd = ctx.cwd, ctx.prev
        elif ops[0].value is not None or ops[0].glob:
            d = self.folder(ops[0], ctx.cwd)
            if d is None:
                self.unresolved(f"{name} to a glob that matches more than one folder")
                return
            ctx.prev, ctx.cwd = ctx.cwd, d
        else:
            self.unresolved(f"{name} to a directory that is not static")
        return

    def _redirect_only(self, reds, ctx: _Ctx) -> None:
        files = [(m, w) for m, w in reds if m != "here"]
        if files:
            self.out.commands.append(Cmd([Word.lit(":")], files, ctx.cwd, ctx.via, None, ctx.stdin))

    def assign(self, n, ctx: _Ctx) -> None:
        name = n.child_by_field_name("name")
        value = n.child_by_field_name("value")
        key = name.text.decode("utf-8", "replace") if name is not None else ""
        if name is not None and name.type == "subscript":    # `a[i]=v`: i is evaluated
            self._subscript(name, ctx)
            key = key.split("[", 1)[0]
        self._state_var(key)
        w = self.word(value, ctx) if value is not None else Word.lit("")
        if key in self.int_vars:                  # `declare -i n; n=EXPR`
            self._arith_word(w, ctx)
        if any(c.type == "+=" for c in n.children) and key not in self.int_vars:
            # `x+=sh` appends to x's value (red team round 11: `x=.s; x+=sh`)
            old = ctx.vars.get(key) if key in ctx.vars else self._var(key, ctx)
            w = Word.lit(old + w.value) if old is not None and w.value is not None \
                and not w.opaque else Word(None, "*", False, w.raw)
        case = self.case_vars.get(key)
        if case and w.value is not None:
            # `declare -l x`: bash lowers (-u raises, -c capitalises) what is assigned
            w = Word.lit(w.value.lower() if case == "l" else w.value.upper() if case == "u"
                         else w.value[:1].upper() + w.value[1:].lower())
        self._command_var(key, w, ctx)
        if key in self.readonly:
            return                   # `readonly x=...; x=...`: the assignment fails, x stays
        # a value read through a form not evaluated (`x=$"..."`) is not known where it is used
        ctx.vars[key] = None if w.opaque else w.value
        if self.allexport or key in ctx.env or key in (self.env or {}):
            # exported: `set -a`, or a name the shell got from its environment (PATH, TERM):
            # the programs it runs get the new value (red team round 12)
            ctx.env[key] = ctx.vars[key]
        if w.value is None and _SUBSTITUTION_ONLY.match(w.raw) and w.inner and all(
                isinstance(c, Cmd) and _prints_number(c) for c in w.inner):
            self.int_known.add(key)     # `n=$(wc -l < f)`: a number, as in `$(( $(wc -l) ))`
        if key == "PATH":
            self.path_change = self._path_dirs(w, ctx)
        self.var_pattern.pop(key, None)
        self.var_inner.pop(key, None)
        if w.value is None and w.inner:
            self.var_inner[key] = w.inner    # `F=$(echo ~/.ssh/id_rsa); cat $F`

    def _path_dirs(self, w: Word, ctx: _Ctx) -> tuple[list[str], bool]:
        """The folders a PATH value names (`./bin:$PATH`: ./bin, and the shell's own PATH,
        which is not listed), and whether a part of it is not known (`$(cat dirs):$PATH`)."""
        import re   # local: only when a command line sets PATH

        if w.value is not None:
            segs, unknown = w.value.split(":"), False
        else:
            refs = len(re.findall(r"\$\{?PATH\}?(?![\w])", w.raw))
            segs, unknown = [], False
            for seg in w.pattern.split(":"):
                if seg == "*" and refs:
                    refs -= 1                 # the shell's own PATH: its folders are not listed
                elif any(c in seg for c in "*?["):
                    unknown = True
                else:
                    segs.append(seg)
            if refs < 0:
                unknown = True
        dirs = [self.path(d, ctx.cwd) for d in segs if d]
        return dirs, unknown

    def _command_var(self, key: str, w: "Word", ctx: _Ctx) -> None:
        """A variable whose value a program runs (P.COMMAND_VARS: `PAGER=`, `GIT_EXTERNAL_DIFF=`)
        is resolved as a line; one that makes programs load code (P.CODE_VARS) is unresolved."""
        base = key.split("[", 1)[0]
        if base.startswith("BASH_FUNC_"):
            self.unresolved(f"{base}= defines a shell function a child shell runs")
        elif base == "POSIXLY_CORRECT":
            self.unresolved("POSIXLY_CORRECT= switches bash to POSIX mode (special builtins "
                            "before functions, assignments before them stay)")
        elif base in P.CODE_VARS:
            self.unresolved(f"{base}= makes programs load or run code agentdeck does not read")
        elif base in P.LOAD_PATH_VARS:
            why = self._load_path(w, ctx)
            if why:
                self.unresolved(f"{base}= makes programs load code from {why}")
        elif P.command_var(base):
            if w.value is None:
                self.unresolved(f"{base}= names a command that is not static")
            elif base == "SHELL" and program_name(w.value) in P.SHELLS and " " not in w.value \
                    and w.value.startswith(("/bin/", "/usr/bin/", "/usr/local/bin/")):
                pass                # `SHELL=/bin/bash make`: a shell, run with -c TEXT
            elif w.value.strip():
                self.line(w.value, ctx.child(depth=ctx.depth + 1, via=ctx.via + (base,),
                                             stdin=None))

    def _load_path(self, w: Word, ctx: _Ctx) -> str:
        """Why folders a load-path variable names hold code agentdeck does not read (a folder
        outside the working folder, or one this line writes into), or "" (the project's own
        folders, `PYTHONPATH=src`)."""
        if w.value is None:
            return "folders that are not static"
        top = ctx.cwd.rstrip("/") + "/"
        for part in w.value.split(":"):
            if not part:
                continue
            p = self.path(part, ctx.cwd)
            if p != ctx.cwd and not p.startswith(top):
                return f"{part[:40]}, outside the working folder"
            d = p.rstrip("/") + "/"
            if any(x == p or x.startswith(d) for x in self.written) or any(
                    t == p or t.startswith(d) for t in self.tree_dirs):
                return f"{part[:40]}, written earlier in this command"
        return ""

    def _make_vars(self, name: str, vals: list, ctx: _Ctx) -> None:
        """make's variables given from outside its makefile (its environment, `make VAR=v`):
        one its rules run as a command (P.MAKE_COMMAND_VARS: `CC='...' make x`) is resolved
        as a line; any other whose value holds shell syntax is resolved as the words of one
        (a recipe may hold it: `CFLAGS='-O2; rm -rf x'`)."""
        given = [(k, v) for k, v in ctx.env.items()] + P.given_values(name, vals)
        sub = ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,), stdin=None)
        for k, v in given:
            if k in P.MAKE_COMMAND_VARS:
                if v is None:
                    self.unresolved(f"{name} runs {k}, which is not static")
                elif v.strip():
                    self.line(v, sub.child())
            elif v is None:
                continue
            elif any(c in v for c in ";|&`$<>()\n"):
                self.line(": " + v, sub.child())

    def _state_var(self, key: str) -> None:
        """Every assignment passes here: a variable of the shell's own state is unresolved, and
        the variable no longer holds the number an arithmetic expression gave it (`((x=1));
        x=$(cat f); echo $((x))` evaluates what f holds)."""
        base = key.split("[", 1)[0]
        self.int_known.discard(base)
        if base in STATE_VARS or base.startswith("BASH_FUNC"):
            self.unresolved(f"{base}= changes how the rest of the line is read")

    def redirect(self, n, ctx: _Ctx) -> list[tuple[str, Word]]:
        t = n.type
        if t == "file_redirect":
            op = ""
            dest = n.child_by_field_name("destination")
            for c in n.children:
                if not c.is_named:
                    op += c.type
            if dest is None or dest.type == "number" and "&" in op:
                return []
            w = self.word(dest, ctx)
            if op in ("<",):
                return [("r", w)]
            if op == "<>":
                return [("rw", w)]
            if op in (">&", "<&") and w.value is not None and (w.value.isdigit() or w.value == "-"):
                return []
            return [("w", w)]
        if t == "herestring_redirect":
            body = [c for c in n.named_children]
            text = self.word(body[-1], ctx) if body else Word.lit("")
            return [("here", text)]
        if t == "heredoc_redirect":
            heredoc = next((c for c in n.named_children if c.type == "heredoc_body"), None)
            out: list[tuple[str, Word]] = []
            if heredoc is not None:
                quoted = any(c.type == "heredoc_start" and c.text[:1] in (b"'", b'"')
                             for c in n.named_children)
                text = heredoc.text.decode("utf-8", "replace")
                if not quoted and _continued_delimiter(n, text):
                    self.unresolved("a heredoc whose delimiter a line continuation spells "
                                    "(bash ends the body there)")
                if quoted or not any(ch in text for ch in "$`"):
                    out.append(("here", Word.lit(text)))
                elif not any(c.is_named for c in heredoc.named_children) or "`" in text:
                    # the parser does not see substitutions in a `<<-` body or backquotes in
                    # one: the body is read again as the double-quoted string it expands as
                    out.append(("here", self._reparsed(text, ctx)))
                else:
                    out.append(("here", self.word(heredoc, ctx)))
            for c in n.named_children:     # `cat <<EOF > file`
                if c.type == "file_redirect":
                    out += self.redirect(c, ctx)
            return out
        return []

    # -- words
    def word(self, n, ctx: _Ctx, _quoted: bool = False) -> Word:
        """The value and pattern of one argument node; substitutions inside are resolved as
        commands of their own."""
        parts: list[tuple[str, str, bool]] = []   # (value-or-UNKNOWN, pattern, quoted)
        start = len(self.out.commands)
        saved, self._inner_words = self._inner_words, []
        saved_opaque, self._opaque = self._opaque, []
        self._parts(n, ctx, parts, _quoted)
        inner = self.out.commands[start:] + self._inner_words
        self._inner_words = saved
        opaque, self._opaque = self._opaque, saved_opaque
        value_known = all(v is not UNKNOWN for v, _, _ in parts)
        if value_known and sum(len(v) for v, _, _ in parts) > MAX_WORD:
            # `x=$x$x` repeated: the value doubles each time; past MAX_WORD it is not followed
            opaque.append(f"a word longer than {MAX_WORD // 1024} KiB")
            parts[:] = [(UNKNOWN, "*", True)]
            value_known = False
        value = "".join(v for v, _, _ in parts) if value_known else None
        pattern = "".join(p for _, p, _ in parts)
        glob = any(not q and any(ch in "*?[" for ch in v) for v, _, q in parts
                   if v is not UNKNOWN)
        raw = n.text.decode("utf-8", "replace") if n is not None else ""
        w = Word(value, pattern, glob, raw)
        w = _tilde(w, self.home, parts)
        stack = _DIRSTACK_TILDE.match(parts[0][0]) if parts and parts[0][2] is False \
            and parts[0][0] is not UNKNOWN else None
        if stack is not None:
            # ~1, ~+1, ~-2: a folder of the directory stack, which pushd may have filled
            opaque.append("a directory-stack tilde (~N)")
            w.value = None
            w.pattern = "*" + w.pattern[stack.end():]
        if parts and parts[0][2] is False and parts[0][0] is not UNKNOWN \
                and parts[0][0][:2] in ("~+", "~-") and parts[0][0][2:3] in ("", "/"):
            # ~+ is $PWD, ~- is $OLDPWD (the folder before the last cd of this line)
            base = ctx.cwd if parts[0][0][1] == "+" else ctx.prev
            if base is None:
                opaque.append("~- (the folder before a cd made outside this command)")
                w.value = None
                w.pattern = "*" + w.pattern[2:]
            elif w.value is not None:
                w.value = base + w.value[2:]
                w.pattern = _escape(base) + w.pattern[2:]
        if w.value is not None and w.value.startswith(("/proc/", "/dev/fd/")):
            why = proc_unknown(w.value)
            if why:
                opaque.append(why)
        if any(q is None and v is not UNKNOWN and any(c in _IFS for c in v) for v, _, q in parts):
            if value_known:
                w.fields = _fields(parts)
            else:
                opaque.append("word splitting of a value that is not known")
        w.inner = inner if value is None else []
        w.opaque = "; ".join(dict.fromkeys(opaque))
        if value_known and any(not q and "{" in v for v, _, q in parts):
            w.alts = _brace_values(parts, self.home)
            if w.alts is not None and len(w.alts) >= BRACE_LIMIT:
                w.opaque = f"a brace expansion of more than {BRACE_LIMIT} words"
        return w

    def _parts(self, n, ctx, parts, quoted) -> None:
        t = n.type
        text = n.text.decode("utf-8", "replace")
        if t == "word" or t == "number" or t == "variable_name" or t == "special_variable_name":
            v = _unescape(text) if not quoted else text
            parts.append((v, v if not quoted else _escape(v), quoted))
            if not quoted:
                parts[-1] = (v, v, False)
        elif t == "raw_string":
            v = text[1:-1] if len(text) >= 2 else ""
            parts.append((v, _escape(v), True))
        elif t == "ansi_c_string":
            # bash ends the string at a NUL (`$'.ssh\0x'` is `.ssh`: red team round 11)
            v = _ansi_c(text[2:-1]).split("\0", 1)[0]
            parts.append((v, _escape(v), True))
        elif t == "string" or t == "translated_string":
            before = n.prev_sibling
            if t == "translated_string" or (before is not None and before.type == "$"
                                            and before.end_byte == n.start_byte):
                self._opaque.append(_TRANSLATED)     # (the grammar leaves the `$` before it)
            for c in n.children:
                if c.is_named:
                    self._parts(c, ctx, parts, True)
        elif t in ("string_content", "heredoc_content") or t == "heredoc_body" and not n.named_children:
            v = _unescape(text, _DQ_ESCAPABLE) if t == "string_content" else text
            parts.append((v, _escape(v), True))
        elif t == "heredoc_body":
            pos = n.start_byte
            src = n.text
            for c in n.named_children:
                if c.start_byte > pos:
                    lit = src[pos - n.start_byte:c.start_byte - n.start_byte].decode("utf-8", "replace")
                    parts.append((lit, _escape(lit), True))
                self._parts(c, ctx, parts, True)
                pos = c.end_byte
            tail = src[pos - n.start_byte:].decode("utf-8", "replace")
            if tail:
                parts.append((tail, _escape(tail), True))
        elif t == "concatenation":
            kids = n.children
            for k, c in enumerate(kids):
                if not c.is_named and c.text.endswith(b"$") and k + 1 < len(kids) \
                        and kids[k + 1].type in ("string", "raw_string") \
                        and kids[k + 1].start_byte == c.end_byte and not quoted:
                    # `~/$".ssh"`: bash's locale string ($"..." is "..." in the C locale);
                    # the grammar splits it off as a `$` token, which bash does not keep
                    if kids[k + 1].type == "raw_string":     # `$'...'` would be ANSI-C: not so
                        self._opaque.append("a $ glued to a quoted string")
                    else:
                        self._opaque.append(_TRANSLATED)
                    if len(c.text) > 1:
                        parts.append((c.text[:-1].decode("utf-8", "replace"),) * 2 + (False,))
                    continue
                self._parts(c, ctx, parts, quoted)
        elif t in ("simple_expansion", "expansion"):
            v = self._expand(n, ctx)
            split, self._split_next = self._split_next, False
            if v is None:
                pat = self._unknown_pattern(n)
                parts.append((UNKNOWN, pat, quoted))
            elif split:
                # "$@" of several words: one field each (none of them holds a blank)
                parts.append((v, _escape(v) if quoted else v, None))
            else:
                # an unquoted expansion is split into fields (quoted None marks it)
                parts.append((v, _escape(v) if quoted else v, quoted or None))
        elif t in ("command_substitution", "process_substitution"):
            if t == "command_substitution" and text.startswith("$((") and text.endswith("))"):
                # `$((x))` the grammar read as `$( (x) )` (in a heredoc body): bash reads it
                # as arithmetic, which evaluates x's value as code (red team round 10); judged
                # both ways
                self._arith_text(text[3:-2], ctx)
            sub = ctx.child()
            first = len(self.out.commands)
            inner = _backquoted_inner(n)
            if inner is not None:
                # inside backquotes bash drops the backslash of \\` \\$ \\\\ and parses
                # the rest: `` `echo \\`cmd\\`` `` runs cmd
                self.line(inner, sub.child(depth=sub.depth + 1))
            else:
                for c in n.named_children:
                    self.stmt(c, sub)
            v = _printed(self.out.commands[first:]) if t == "command_substitution" \
                and inner is None else None
            if v is None:
                parts.append((UNKNOWN, "*", quoted))
            else:           # `$(echo ~/.ssh)`, `$(dirname f)`: what it prints is known exactly
                parts.append((v, _escape(v) if quoted else v, quoted or None))
        elif t == "arithmetic_expansion":
            for c in n.named_children:
                self._arith(c, ctx)
            parts.append((UNKNOWN, "*", quoted))
        elif t == "brace_expression":
            parts.append((text, text, False))
        elif t == "array":
            self._array(n, ctx)
            parts.append((UNKNOWN, "*", quoted))
        elif n.is_named:
            self._opaque.append(f"an expansion agentdeck does not evaluate ({t})")
            if n.type in _STATEMENTS:
                self.stmt(n, ctx.child())          # whatever runs inside still runs
            parts.append((UNKNOWN, "*", quoted))
        else:   # an anonymous token inside a concatenation: its text
            parts.append((text, text if not quoted else _escape(text), quoted))

    def _array(self, n, ctx: _Ctx) -> None:
        """`a=(w1 [k]=w2 ...)`: each element is a word whose substitutions run; a `[k]=`
        subscript is arithmetic for an indexed array (`a=([$(cmd)]=1)`, `arr+=([x]=1)` with
        x='a[$(cmd)]' evaluate code) and a word for a `declare -A` one. The array's values
        are not kept (the variable is not known)."""
        parent = n.parent
        name = parent.child_by_field_name("name") if parent is not None else None
        key = name.text.decode("utf-8", "replace").split("[", 1)[0] if name is not None else ""
        for c in n.named_children:
            if c.type == "comment":
                continue
            text = c.text.decode("utf-8", "replace")
            sub = text[1:].split("]=", 1)[0] if text.startswith("[") and "]=" in text else None
            if sub is not None and key not in self.assoc:
                self._arith_text(sub, ctx)
                end = c.start_byte + len(("[" + sub + "]=").encode("utf-8", "surrogatepass"))
                for part in c.children:       # the value after `]=`: its substitutions run
                    if part.start_byte >= end:
                        self.word(part, ctx)
            else:
                self.word(c, ctx)

    def _expand(self, n, ctx) -> str | None:
        """$X, ${X}, and ${X:-word} / ${X-word} when X is known; any other parameter form is
        unresolved (its value could be anything: `${x%...}`, `${x/...}`, `${!x}`, `${#x}`)."""
        names = [c for c in n.named_children if c.type in ("variable_name", "special_variable_name")]
        ops0 = [c.type for c in n.children if not c.is_named and c.type not in ("${", "}", "$")]
        for i, c in enumerate(n.named_children):
            # the words inside (a default, a pattern, a subscript, an offset) still run
            if c.type == "subscript":
                self._subscript(c, ctx)
            elif i and ops0[:1] in ([":"], ["@"]) or i and c.type in ("arithmetic_expansion",):
                self._arith(c, ctx)              # `${a:OFF:LEN}`: arithmetic
            elif i and c.type in ("word", "regex") and any(ch in c.text for ch in b"`$"):
                # `${X:-`cmd`}`, `${X#$(cmd)}`, `${X,,$(cmd)}`: a pattern bash expands
                self._reparsed(c.text.decode("utf-8", "replace"), ctx)
            elif i:
                self._parts(c, ctx, [], True)
        if ops0[:1] == ["@"] and "P" in ops0:
            self.unresolved("${x@P} expands a value as a prompt (its substitutions run)")
        if not names:
            self._opaque.append(f"a parameter expansion agentdeck does not evaluate "
                                f"({n.text.decode('utf-8', 'replace')[:40]})")
            return None
        ops = [c.type for c in n.children if not c.is_named and c.type not in ("${", "}", "$")]
        key = names[0].text.decode("utf-8", "replace")
        value = self._var(key, ctx)
        if n.type == "expansion" and ops == ["!"] and len(n.named_children) == 1:
            # `${!x}`: the value of x names a variable, and a subscript in it is evaluated
            # (x='a[$(cmd)]' runs cmd)
            if value is None and key not in SHELL_NUMBERS:
                self.unresolved(f"${{!{key}}} through a name that is not static (bash "
                                "evaluates a subscript in it)")
            elif value is not None:
                self._name_arg(Word.lit(value), f"${{!{key}}}", ctx)
        if n.type == "expansion" and (ops or len(n.named_children) > 1):
            if ops in (["-"], [":-"]) and value is not None and (value or ops == ["-"]):
                return value
            self._opaque.append(f"a parameter expansion agentdeck does not evaluate "
                                f"({n.text.decode('utf-8', 'replace')[:40]})")
            return None
        return value

    # -- arithmetic and names bash evaluates
    def _arith(self, n, ctx: _Ctx) -> None:
        """An arithmetic expression (`$(( ))`, `(( ))`, `let`, a subscript, `[[ -eq ]]`): bash
        evaluates the VALUE of every variable in it as an expression again (`x='a[$(cmd)]'`
        runs cmd), so each variable must hold a number this line set (or one of bash's own);
        any other is unresolved. Substitutions inside are walked as commands."""
        t = n.type
        if t in ("command_substitution", "process_substitution"):
            # `$(( $(cat F) ))`: what the commands print is evaluated as an expression again
            w = self.word(n, ctx, True)
            if w.value is not None:
                self._arith_word(w, ctx)
            elif not (w.inner and all(isinstance(c, Cmd) and _prints_number(c) for c in w.inner)):
                self.unresolved("an arithmetic expression over a command's output (bash "
                                "evaluates it as code)")
        elif t in ("variable_name", "special_variable_name") or t == "word" and \
                _IDENT.match(n.text.decode("utf-8", "replace")):
            self._arith_var(n.text.decode("utf-8", "replace"), ctx)
        elif t == "word" or t == "number":
            if not _NUMBER.match(n.text.decode("utf-8", "replace")):
                self.unresolved("an arithmetic operand agentdeck does not evaluate "
                                f"({n.text.decode('utf-8', 'replace')[:40]})")
        elif t in ("simple_expansion", "expansion"):
            kids = n.named_children
            if len(kids) == 1 and kids[0].type in ("variable_name", "special_variable_name") \
                    and all(c.type in ("$", "${", "}") for c in n.children if not c.is_named):
                self._arith_var(kids[0].text.decode("utf-8", "replace"), ctx)   # `$x`, `${#}`
            elif [c.type for c in n.children if not c.is_named] == ["${", "#", "}"] and \
                    [c.type for c in kids] in ([], ["variable_name"], ["subscript"]):
                self.word(n, ctx)        # `${#x}`, `${#a[@]}`: a length is a number
            else:
                self._arith_word(self.word(n, ctx), ctx)
        elif t == "subscript":
            self._subscript(n, ctx)
        elif t == "variable_assignment":          # `for ((i=0; ...))`
            name, value = n.child_by_field_name("name"), n.child_by_field_name("value")
            if value is not None:
                self._arith(value, ctx)
            if name is not None and name.type == "variable_name":
                self._int_set(name.text.decode("utf-8", "replace"), ctx)
            elif name is not None:
                self._arith(name, ctx)
        elif t in ("string", "raw_string", "concatenation"):
            self._arith_word(self.word(n, ctx), ctx)
        else:
            if t == "binary_expression" and n.named_children and \
                    n.named_children[0].type == "variable_name" and \
                    any(not c.is_named and c.type.endswith("=") and c.type not in
                        ("==", "!=", "<=", ">=") for c in n.children):
                # `(( i = EXPR ))`, `i += 2`: the left side is set to a number, not evaluated
                key = n.named_children[0].text.decode("utf-8", "replace")
                op = next(c.type for c in n.children if not c.is_named)
                if op != "=":
                    self._arith_var(key, ctx)
                for c in n.named_children[1:]:
                    self._arith(c, ctx)
                self._int_set(key, ctx)
                return
            if t in ("postfix_expression", "unary_expression"):
                for c in n.named_children:     # `i++`: i is evaluated, then holds a number
                    self._arith(c, ctx)
                    if c.type == "variable_name" and any(
                            x.type in ("++", "--") for x in n.children):
                        self._int_set(c.text.decode("utf-8", "replace"), ctx)
                return
            for c in n.named_children:
                self._arith(c, ctx)

    def _int_set(self, key: str, ctx: _Ctx) -> None:
        self._state_var(key)
        ctx.vars[key] = None
        self.var_inner.pop(key, None)
        self.var_pattern.pop(key, None)
        self.int_known.add(key)

    def _arith_var(self, key: str, ctx: _Ctx) -> None:
        if key in SHELL_NUMBERS or key in self.int_known and ctx.vars.get(key, "") is None:
            return
        v = ctx.vars.get(key) if key in ctx.vars else None
        if v is None or not (_NUMBER.match(v) or v.strip() == ""):
            self.unresolved(f"an arithmetic expression over ${key}, whose value is not a "
                            "static number (bash evaluates it as code)")

    def _arith_word(self, w: "Word", ctx: _Ctx) -> None:
        """A word whose VALUE bash evaluates as an arithmetic expression."""
        if w.value is None:
            m = _ONE_VARIABLE.match(w.raw)
            if m is None or m.group(1) not in self.int_known \
                    or ctx.vars.get(m.group(1), "") is not None:
                self.unresolved("an arithmetic expression whose text is not known")
        elif not _NUMBER.match(w.value):
            self._arith_text(w.value, ctx)

    def _arith_text(self, text: str, ctx: _Ctx) -> None:
        if ctx.depth > MAX_DEPTH:
            self.unresolved(f"nested deeper than {MAX_DEPTH} levels")
            return
        tree = parser().parse(("((" + text + "))").encode("utf-8", "surrogatepass"))
        root = tree.root_node
        kids = root.named_children
        if root.has_error or len(kids) != 1 or kids[0].type != "compound_statement":
            self.unresolved(f"an arithmetic expression agentdeck does not parse ({text[:40]})")
            return
        sub = ctx.child(depth=ctx.depth + 1)
        sub.vars = ctx.vars
        for c in kids[0].named_children:
            self._arith(c, sub)

    def _subscript(self, n, ctx: _Ctx) -> None:
        """`a[i]`: the index of an indexed array is arithmetic; of a `declare -A` one, a word."""
        name = n.child_by_field_name("name") or next(
            (c for c in n.named_children if c.type == "variable_name"), None)
        key = name.text.decode("utf-8", "replace") if name is not None else ""
        for c in n.named_children:
            if name is not None and c == name:
                continue
            if key in self.assoc or c.type == "word" and c.text in (b"@", b"*"):
                self._parts(c, ctx, [], True)
            else:
                self._arith(c, ctx)

    def _name_arg(self, w: "Word", what: str, ctx: _Ctx) -> None:
        """A variable NAME given as a word (`read NAME`, `printf -v NAME`, `test -v NAME`,
        `declare NAME`): bash evaluates a subscript in it (`'a[$(cmd)]'` runs cmd)."""
        if w.value is None:
            self.unresolved(f"{what} of a variable whose name is not static")
            return
        v = w.value.split("=", 1)[0] if what == "declare" else w.value
        if "[" in v:
            key, rest = v.split("[", 1)
            if not rest.endswith("]"):
                self.unresolved(f"{what} of a name agentdeck does not read ({v[:40]})")
            elif key not in self.assoc and not rest[:-1] in ("@", "*"):
                self._arith_text(rest[:-1], ctx)
            elif any(ch in rest for ch in "$`"):
                self.unresolved(f"{what} of a subscript agentdeck does not evaluate ({v[:40]})")

    def _reparsed(self, text: str, ctx: _Ctx) -> "Word":
        """A heredoc body the parser did not split: read as a double-quoted string."""
        body = text.replace('"', '\\"')
        tree = parser().parse(('"' + body + '"').encode("utf-8", "surrogatepass"))
        root = tree.root_node
        node = root.named_children[0] if root.named_children else None
        if node is not None and node.type == "command":
            node = node.named_children[0] if node.named_children else None
            node = node.named_children[0] if node is not None and node.named_children else None
        if root.has_error or node is None or node.type != "string":
            self.unresolved("a heredoc body agentdeck does not parse")
            return Word(None, "*")
        return self.word(node, ctx)

    def _unknown_pattern(self, n) -> str:
        """The glob standing for an expansion whose value is not known: a loop variable bound
        to a glob's matches is that glob; anything else could be any text."""
        names = [c for c in n.named_children if c.type == "variable_name"]
        if n.type == "simple_expansion" or len(n.named_children) == 1:
            key = names[0].text.decode("utf-8", "replace") if names else ""
            if key in self.var_pattern:
                return self.var_pattern[key]
        return "*"

    def _var(self, key: str, ctx) -> str | None:
        """The value of $key as this line set it, None when not known. A value not known is
        opaque (a rule that could apply makes the command unresolved), except: what a command
        substitution assigned (judged by the words its commands were given), a loop variable
        bound to a glob (judged by the glob), a function's or script's positional parameters
        (judged at the call, whose words are the program's operands) and the shell's own
        numbers ($?, $$, $!, $#)."""
        if key in ctx.vars:
            if ctx.vars[key] is None:
                if key in self.var_inner:
                    self._inner_words += self.var_inner[key]
                elif key not in self.var_pattern:
                    self._opaque.append(f"the value of ${key} is not known")
            return ctx.vars[key]
        if key == "HOME":
            return self.home or None
        if key == "PWD":
            return ctx.cwd
        if key == "$":
            return "self"       # the shell's own pid: /proc/$$ is the shell's /proc/self
        if key == "_":
            self._opaque.append("$_ (the last word of the command before) is not known")
            return None
        if ctx.args is not None and (key in ("@", "*", "#") or key.isdigit()):
            return self._positional(key, ctx)
        if key in ("?", "!", "#", "-", "0"):
            return None
        if key in ("@", "*") or key.isdigit():
            if not ctx.fn:
                self._opaque.append(f"the positional parameter ${key} is not known")
            return None
        self._opaque.append(f"the value of ${key} is not known (set outside this command)")
        return None

    def _set_positional(self, name: str, argv: list["Word"], ctx: _Ctx) -> None:
        """`shift [N]` and `set [--] WORDS`: the positional parameters after them (red team
        round 11: `f() { shift; cat "$1"/id_rsa; }; f /tmp ~/.ssh`)."""
        words = argv[1:]
        if name == "shift":
            if ctx.args is None:
                return
            n = words[0].value if words else "1"
            if n is None or not n.isdigit():
                ctx.args = [Word(None, "*", False, "$@")]        # shifted by a count not known
            else:
                ctx.args = ctx.args[int(n):]
            return
        k = 0
        while k < len(words):
            v = words[k].value
            if v is None or v[:1] not in "-+" or v == "--":
                break
            if v[-1:] == "o":
                k += 1                          # `set -o pipefail`: its option's name
            k += 1
        if k < len(words) and words[k].value == "--":
            ctx.args = list(words[k + 1:])
        elif k < len(words):
            ctx.args = list(words[k:])

    def _set_flags(self, vals: list) -> None:
        """`set -a` / `set -o allexport` (and `+a`): every later assignment is exported."""
        for i, v in enumerate(vals):
            if v is None:
                continue
            prev = vals[i - 1] if i else None
            if prev is not None and prev[:1] in "-+" and prev.endswith("o") and v == "allexport":
                self.allexport = prev[0] == "-"
            elif v[:1] in "-+" and not v.startswith("--") and "a" in v[1:] and v[1:].isalpha():
                self.allexport = v[0] == "-"

    def _case_attr(self, vname: str, opts: str) -> None:
        """`declare -l|-u|-c NAME`: NAME's later assignments are converted (the last of the
        three given wins, as in bash)."""
        for ch in opts:
            if ch in "luc":
                self.case_vars[vname] = ch

    def _after_branches(self, before: dict, ctx: _Ctx) -> None:
        """After a construct whose parts may or may not run: a variable it changed is not
        known (opaque where a rule could apply)."""
        for k in set(ctx.vars) | set(before):
            if ctx.vars.get(k, _MISSING) != before.get(k, _MISSING):
                ctx.vars[k] = None
                self.var_inner.pop(k, None)
                self.var_pattern.pop(k, None)

    def _positional(self, key: str, ctx) -> str | None:
        """$0, $1..., $#, $@ and $* of a call judged here (ctx.args): the call's words. A word
        of the call that is not known is not known here either (judged as at the definition)."""
        args = ctx.args or []
        if key == "#":
            return str(len(args))
        if key.isdigit():
            k = int(key)
            w = ctx.arg0 if k == 0 else args[k - 1] if k <= len(args) else Word.lit("")
            return None if w is None else w.value
        vals = [w.value for w in args]
        if any(v is None for v in vals):
            return None
        if len(vals) == 1:
            return vals[0]
        if any(c in v for v in vals for c in _IFS) or "" in vals:
            self._opaque.append(f"${key} of words that hold blanks (or are empty)")
            return None
        self._split_next = len(vals) > 1 and key == "@"
        return " ".join(vals)

    def _define(self, n, ctx: _Ctx) -> None:
        """A function definition: kept, so a call of it later in the line is judged as its body
        with the call's words as its parameters (its body is also judged here, with them not
        known). bash's handler for names not found runs for any command line: unresolved."""
        name_node = n.child_by_field_name("name")
        body = n.child_by_field_name("body")
        if name_node is None or body is None:
            return
        name = name_node.text.decode("utf-8", "replace")
        if name == "command_not_found_handle":
            self.unresolved("command_not_found_handle runs for any command name the shell does "
                            "not find, with its words")
        self.functions[name] = (body, _shell_of(ctx.via), _surely_runs(n))

    def _call(self, name: str, argv: list["Word"], ctx: _Ctx) -> bool:
        """A call of a function this line defined (in the same shell: not through a wrapper,
        `command` or another shell), judged as its body with the call's words as $1...; True
        when it is one."""
        fn = self.functions.get(name)
        if fn is None or fn[1] != _shell_of(ctx.via):
            return False
        self.calls += 1
        if self.calls > MAX_CALLS or ctx.depth >= MAX_DEPTH:
            self.unresolved(f"more than {MAX_CALLS} function calls (or nested too deeply) are "
                            "not followed")
            return True
        sub = ctx.child(depth=ctx.depth + 1, fn=True)
        sub.arg0, sub.args = ctx.arg0, list(argv[1:])
        self.stmt(fn[0], sub)
        return True

    # -- commands
    def command(self, n, ctx: _Ctx, redirects) -> None:
        if n.child_count > MAX_ARGS:
            self.unresolved(f"a command with more than {MAX_ARGS} words is not followed")
            return
        argv: list[Word] = []
        prefix: dict[str, str | None] = {}
        prefix_path: tuple[list[str], bool] | None = None
        reds = list(redirects)
        # `cmd 0<F`: the grammar reads the 0 as an argument; glued to a redirection it is the
        # descriptor (bash's own reading)
        fd_at = self.redirect_starts | {c.start_byte for c in n.children
                                        if c.type.endswith("redirect")}
        self.redirect_starts = set()         # not the commands nested in this one's words
        glued = 0
        kids = n.children
        for i, c in enumerate(kids):
            field = n.field_name_for_child(i)
            if c.type == "number" and c.end_byte in fd_at and c.text.isdigit():
                continue
            if not c.is_named and c.text == b"$" and i + 1 < len(kids) \
                    and kids[i + 1].type == "string" and kids[i + 1].start_byte == c.end_byte:
                continue        # `echo $"text"`: a locale string, "text" in the C locale
            if i and not c.type.endswith("redirect") and c.start_byte == kids[i - 1].end_byte \
                    and not kids[i - 1].type.endswith("redirect") and not glued \
                    and kids[i - 1].text != b"$":
                # two words the grammar split where bash reads one (`rm -r$"f" x`: no blank
                # between them): what bash runs is not what the words say
                glued = 1
                self.unresolved("a word the parser split where the shell reads one")
            if c.type == "variable_assignment":
                name = c.child_by_field_name("name")
                value = c.child_by_field_name("value")
                w = self.word(value, ctx) if value is not None else Word.lit("")
                key = name.text.decode() if name is not None else ""
                if name is not None and name.type == "subscript":
                    self._subscript(name, ctx)
                self._state_var(key)
                self._command_var(key, w, ctx)
                prefix[key] = w.value
                if key == "PATH":
                    prefix_path = self._path_dirs(w, ctx)
            elif c.type == "command_name":
                argv.append(self.word(c.named_children[0], ctx) if c.named_children
                            else Word.lit(c.text.decode("utf-8", "replace")))
            elif c.type.endswith("redirect"):
                reds += self.redirect(c, ctx)
            elif c.type in _STATEMENTS:           # `time ( ... )`: a statement, not a word
                self.stmt(c, ctx.child())
            elif field == "argument" or c.is_named and c.type != "comment":
                argv.append(self.word(c, ctx))
        if [a.value for a in argv] == ["exec"] and any(m in ("r", "rw") for m, _ in reds):
            fed = self._fed_by([r for r in reds if r[0] in ("r", "rw")], ctx)
            ctx.stdin, ctx.fed = fed.stdin, fed.fed     # `exec < F`: the rest of the line reads F
        if not argv:
            for k, v in prefix.items():      # `R=rm` alone: an assignment for what follows
                ctx.vars[k] = v
                if k in ctx.env:
                    ctx.env[k] = v           # an exported variable stays exported
            if prefix_path is not None:
                self.path_change = prefix_path
            return
        if prefix and argv[0].value in SPECIAL_BUILTINS:
            # `x=v :`: in POSIX mode (and in dash, `sh`) the assignment stays after a special
            # builtin, in bash's own mode it does not: after it, x is not known (round 12)
            for k in prefix:
                ctx.vars[k] = None
                self.var_inner.pop(k, None)
                self.var_pattern.pop(k, None)
        if prefix:                           # `X=v cmd`: in the program's environment
            ctx = ctx.child(env={**ctx.env, **prefix})
        saved_env, self.prefix_env = self.prefix_env, prefix
        if prefix_path is not None:          # `PATH=./bin:$PATH rm ...`: for this command only
            saved, self.path_change = self.path_change, prefix_path
            self.run(argv, reds, ctx)
            self.path_change = saved
        else:
            self.run(argv, reds, ctx)
        self.prefix_env = saved_env

    def run(self, argv: list[Word], reds, ctx: _Ctx, feeds=None) -> None:
        """One simple command, after expansion: wrappers are looked through, shells and evals
        are resolved, cd is followed."""
        argv = [w for a in argv for f in _split_fields(a) for w in _split_brace(f)]
        if not argv:
            return            # `$EMPTY` alone: nothing runs
        if len(argv) > MAX_ARGS:
            self.unresolved(f"a command with more than {MAX_ARGS} words is not followed")
            return
        head = argv[0]
        if head.value is None:
            self.unresolved("a variable or substitution in command position")
            self.out.commands.append(Cmd(argv, reds, ctx.cwd, ctx.via, feeds, ctx.stdin))
            return
        if head.glob or head.alts:
            self.unresolved("a glob or brace expansion in command position")
        written_before, may_write_before = _Before(self, len(self.written_at)), self.may_write
        for m, w in reds:
            if m in ("w", "rw") and w.value is not None:
                self._wrote(self.path(w.value, ctx.cwd))
        name = program_name(head.value)
        if head.value in self.functions and self._call(head.value, argv, ctx) \
                and self.functions[head.value][2]:
            # a function of this line, named like a program or not (`echo() { cat "$@"; }`):
            # its body ran (the definition in force at the call), with the call's words as its
            # parameters; the call itself is its redirections (as `:`'s). One whose definition
            # may not have run (in a branch, a subshell, `$(...)`, a job in the background: red
            # team round 12) is judged as its body and as the program both
            self.out.commands.append(Cmd([Word.lit(":")], reds, ctx.cwd, ctx.via, feeds,
                                         ctx.stdin, ctx.env))
            return
        if name == "set":
            self._set_flags([a.value for a in argv[1:]])
        if name in ("shift", "set") and not ctx.via:
            self._set_positional(name, argv, ctx)
        if not P.known_program(name):
            real = self._installed_as(head.value, ctx)
            if real:                 # `editor`: /etc/alternatives/editor -> /usr/bin/vim.basic
                name = real
                argv = [Word.lit(real)] + argv[1:]
        spec = P.short_options(name)
        if spec is not None:                 # `sed -nfs.sed`: `-n -f s.sed`, as getopt reads it
            argv = [argv[0]] + _split_short(name, spec, argv[1:])
        argv = [argv[0]] + self._long_spelled(name, argv[1:], spec)   # `--outp=F`: `--output=F`
        if name not in P.WRAPPERS and name not in P.CHDIR_OPTION:
            # `tmux new -c DIR CMD`: CMD's relative names are DIR's (a wrapper's folder is its
            # command's, below; make's is read with its makefile, and its operands' in paths)
            ctx = self._run_folder(name, [a.value for a in argv[1:]], None, ctx)
        if name in P.SAME_EFFECT:   # `rm -r --interactive=never`: the option whose effect it has
            argv = [argv[0]] + [Word.lit(P.same_effect(name, a.value)) if a.value is not None
                                and P.same_effect(name, a.value) else a for a in argv[1:]]
        if any(m in ("w", "rw") for m, _ in reds) or name in WRITES_OPERANDS or name == "git" \
                or name not in _NO_WRITES and name not in P.META and name not in P.MENTION \
                and name not in P.READ and name not in P.WRAPPERS and name not in P.SHELLS:
            self.may_write = True
        if name in STATE_BUILTINS or name == "hash" and any(
                a.value is None or a.value.startswith("-") and "p" in a.value for a in argv[1:]):
            # (`hash -r` only forgets where programs were found; `hash -p F name` says where)
            self.unresolved(f"{name} changes what later text runs")
        if name == "deactivate" and self.activated:
            self.unresolved("deactivate puts back a PATH and PYTHONHOME saved before, which are "
                            "not known here")
        what = _line_option(name, [a.value for a in argv[1:]])
        if what:
            self.unresolved(f"{name} {what}")
        if name == "env" and any(a.value is not None and (
                a.value.startswith("--split-string") or a.value.startswith("--s")
                or a.value.startswith("-") and not a.value.startswith("--")
                and "S" in a.value[1:].split("u", 1)[0].split("C", 1)[0])
                for a in argv[1:]):
            self.unresolved("env -S splits its argument into a command")
        if name in DYNAMIC_ASSIGN:
            self._dynamic_assign(name, argv, ctx)
        self._evaluated_args(name, argv, ctx)
        tree_before = len(self.written_at)
        self._record_made(name, argv, ctx)
        as_program = self._program_run(head.value, name, ctx, written_before, tree_before)
        if as_program:
            self.run([Word.lit(as_program)] + argv[1:], reds,
                     ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,)), feeds)
        if name in WRITES_OPERANDS:          # `cp evil t.sh; bash t.sh`: t.sh is written here
            ended = False
            for a in argv[1:]:
                if a.value == "--":
                    ended = True
                elif a.value and (ended or not a.value.startswith("-")):
                    self._wrote(self.path(a.value.split("=", 1)[-1] if name == "dd"
                                               else a.value, ctx.cwd))
        if self.dash_written:
            for a in argv[1:]:
                if a.glob and a.value is not None and a.value[:1] in "*?[":
                    a.opaque = a.opaque or ("a glob that can match a file named like an option, "
                                            "made earlier in this command")
        cmd = Cmd(argv, reds, ctx.cwd, ctx.via, feeds, ctx.stdin, ctx.env)
        here = [w for m, w in reds if m == "here"]
        if here and P.names_from_stdin(name, [a.value for a in argv[1:]]):
            # `cpio -o <<< FILE`: the lines it is given are the files it reads
            cmd.feeds = list(cmd.feeds) + [Word.lit(x) for w in here if w.value
                                           for x in w.value.split("\n") if x.strip()]
        vals0 = [a.value for a in argv[1:]]
        if not here and any(m in ("r", "rw") for m, _ in reds) and P.names_from_stdin(name, vals0):
            # `cpio -o < LIST`, `zip -@ x.zip < LIST`: the file's lines are the files it reads
            listed = self._fed_by(reds, ctx).fed
            if listed is None:
                self.unresolved(f"{name} reads the names of its files from a file agentdeck "
                                "cannot read at decision time")
            else:
                cmd.feeds = list(cmd.feeds) + [Word.lit(x) for x in listed.split("\n")
                                               if x.strip()][:256]
        for lf in P.list_files(name, vals0)[:8]:
            # `tar -cf - -T LIST`, `rsync --files-from=LIST`: LIST names the files it reads,
            # and is read itself (`du --files0-from=F` prints the names it cannot find)
            ltext = None
            if lf is not None:
                # (a glob is the files it matches: `date -f ~/.ss?/id_rs?`)
                named = self.fs.glob(self.path(lf, ctx.cwd)) if any(c in lf for c in "*?[") else []
                cmd.redirects = list(cmd.redirects) + [("r", Word.lit(x)) for x in named[:16] or [lf]]
                p = self.path(lf, ctx.cwd)
                if not p.startswith(("/dev/", "/proc/")) and p not in written_before:
                    ltext = self.fs.read_script(p, MAX_SCRIPT + 1)
                    if ltext is None and not self.fs.exists(p) and not may_write_before:
                        continue             # no such file: the program fails
            if ltext is None or len(ltext) > MAX_SCRIPT:
                self.unresolved(f"{name} reads the names of its files from {lf}, which "
                                "agentdeck cannot read at decision time")
                continue
            lnames = [x for x in ltext.replace("\0", "\n").split("\n") if x.strip()][:256]
            cmd.feeds = list(cmd.feeds) + [Word.lit(x) for x in lnames]
        if here:
            cmd.stdin = "heredoc"
        self.out.commands.append(cmd)
        if "/" in head.value and ctx.depth < MAX_DEPTH:
            # `./myrm -rf x` where myrm is a link to /bin/rm (made by an earlier call): the
            # program run is the one the word resolves to on disk; both are judged
            real = self.fs.realpath(self.path(head.value, ctx.cwd))
            if real and program_name(real) != name:
                self.run([Word.lit(real)] + argv[1:], reds,
                         ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,)), feeds)
            elif real and not real.startswith(P.SYSTEM_PROGRAM_PREFIXES):
                # a copy (or another hard-linked name) of a system program made in an earlier
                # call: `/tmp/del -rf DIR` where /tmp/del holds /bin/rm's bytes
                same = self.fs.same_program(real, P.COMPARED_PROGRAMS)
                if same and program_name(same) != name:
                    self.run([Word.lit(same)] + argv[1:], reds,
                             ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,)), feeds)
        if name in ("cd", "pushd", "popd"):
            self.chdir(name, argv, ctx)
            self.visited.append(ctx.cwd)
            return
        vals = [a.value for a in argv[1:]]
        for text in P.sed_commands(name, vals):      # sed '1e rm -rf x': a shell command line
            self.line(text, ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,), stdin=None))
        code = P.runs_code(name, vals)
        if code:
            self.unresolved(code)
        self.carried(name, vals, here, ctx, cmd)
        stood = P.stands_for(name, vals)       # python3 -m zipfile -e A D: unzip -o A -d D
        if stood is None:
            self.unresolved(f"{name} runs another program's code with words that are not static")
        for words in stood or []:
            self.run([Word.lit(w) for w in words], [],
                     ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,)))
        if name in P.INTERPRETERS:           # os.symlink(T, L) in inline code: `ln -s T L`
            texts = [t for t in P.inline_texts(name, vals) if t] + [w.value for w in here if w.value]
            links = P.code_links("\n".join(texts)) if texts else []
            if links is None:
                self.unresolved(f"{name}'s code makes a link whose names are not literals")
            for words in links or []:
                self.run([Word.lit(w) for w in words], [],
                         ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,)))
        if name in P._MAKES:
            self._make_vars(name, vals, ctx)
        if name == "env":                      # env PAGER=... git log
            env_given: dict[str, str | None] = {}
            for a in argv[1:]:
                if a.value is not None and "=" in a.value and not a.value.startswith("-"):
                    self._state_var(a.value.split("=", 1)[0])     # env BASH_ENV=f bash
                    self._command_var(a.value.split("=", 1)[0],
                                      Word.lit(a.value.split("=", 1)[1]), ctx)
                    env_given[a.value.split("=", 1)[0]] = a.value.split("=", 1)[1]
                elif a.value is not None and not a.value.startswith("-"):
                    break
            if env_given:
                ctx = ctx.child(env={**ctx.env, **env_given})
        written = P.runs_written_file(name, ctx.cwd, self.written, self.home)
        if written:
            what = written[1:].split("/", 1)[0] if written.startswith("\0") else written
            self.unresolved(f"{name} runs commands from {what}, written earlier in this "
                            "command")
        elif name in P.RUNS_FROM_FILES:
            self.runs_from_files(name, vals, ctx)
        if name == "git":
            key = P.git_config_code(vals)
            if key:
                self.written.add(f"\0git config {key}/.git/config")
        if name in P.INLINE_OPTIONS or name in P._AWKS:
            self.inline_code(name, vals, ctx, cmd)
        if name == "sed":                    # sed's w and r commands name files it writes, reads
            for text in P.sed_script_texts(vals):
                self._sed_files(text, cmd, ctx)
        if name in P.PROGRAM_FILES:          # sed -f F, awk -f F, make -f F, python3 F, perl F
            self.program_files(name, vals, ctx, cmd, written_before, may_write_before)
        if name in P.MODULE_PATHS:           # python3 -m M, a module written where it imports
            self.modules(name, vals, ctx, cmd, written_before, may_write_before)
        if name in P.INCLUDERS:              # cpp F, groff F: the files F's directives include
            self._includes(name, vals, reds, ctx)
        for shell in P.shell_program(name, vals):     # su -s PROGRAM: PROGRAM runs
            if shell is None:
                self.unresolved(f"{name} runs a shell program whose name is not static")
            else:
                self.run([Word.lit(shell)], [], ctx.child(depth=ctx.depth + 1,
                                                          via=ctx.via + (name,)))
        at = P.shell_text(name, vals)
        if at is not None:                             # script -qc TEXT, su -c TEXT, flock F -c TEXT
            given = vals[-2 - at] if at <= -2 else vals[at] if at >= 0 else None
            shtext = given.split("=", 1)[1] if at <= -2 and given is not None else given
            if shtext is None:
                self.unresolved(f"{name} runs a shell command line that is not static")
            else:
                tctx = ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,), stdin=None)
                tctx.vars.update(P.shell_text_vars(name, vals))   # split's $FILE
                self.line(shtext, tctx)
            return
        if name in P.BIND_PROGRAMS:
            srcs, inner, why = P.bind_mounts(name, vals)
            if why:
                self.unresolved(why)
            bctx = ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,))
            for src in srcs[:16]:
                if src is None:
                    self.unresolved(f"{name} mounts a path that is not static")
                    continue
                # a bind shows the folder under another name, to read and to change: judged
                # as reading and writing everything below it
                self.run([Word.lit("tar"), Word.lit("-cf"), Word.lit("/dev/null"),
                          Word.lit(src)], [], bctx.child())
                self.run([Word.lit("chmod"), Word.lit("-R"), Word.lit("u+w"), Word.lit(src)],
                         [], bctx.child())
            if inner is not None:
                self.run(argv[1 + inner:], reds, bctx.child())
                return
        if name in ("apply_patch", "applypatch"):
            # Codex's patch tool run from its shell (`cd DIR && apply_patch <<'EOF'`): every
            # path the patch names is written, relative to the folder the line is in there
            from .vocabulary import patch_paths   # local: only for a patch run from a shell
            texts = [w.value for m, w in reds if m == "here"] + [a.value for a in argv[1:]]
            if any(t is None for t in texts):
                self.unresolved(f"{name} applies a patch that is not static")
            for t in texts:
                touched = patch_paths(t or "")
                if touched:
                    self.out.commands.append(Cmd([Word.lit(":")], [("w", Word.lit(p))
                                                                   for p in touched[:64]],
                                                 ctx.cwd, ctx.via + (name,), None, None))
        if (name in P.SSH_CONFIG_READERS or name == "git" and P._git_subcommand(vals) in (
                "push", "fetch", "pull", "clone", "ls-remote", "submodule", "remote")) \
                and not any(str(v).startswith("ssh config") for v in ctx.via):   # `ProxyCommand ssh`
            self._ssh_config(ctx)
        if name == "ssh":
            remote = P.ssh_command(vals)
            if remote is None:
                self.unresolved("ssh runs a command that is not static")
            elif remote:
                # the remote shell runs the words joined with blanks, in the home; on this
                # machine's own names that is a line run here, judged as one
                sctx = ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,), stdin=None)
                sctx.prev, sctx.cwd = sctx.cwd, self.path("~", ctx.cwd)
                self.line(" ".join(remote), sctx)
            elif any(v is not None and not v.startswith("-") for v in vals):
                # no command: the remote shell runs what the line feeds ssh, in the home
                sctx = ctx.child(via=ctx.via + (name,))
                sctx.prev, sctx.cwd = sctx.cwd, self.path("~", ctx.cwd)
                self.shell(name, [Word.lit(name)], here, sctx, reds, may_write_before)
        if P.bare_shell(name, vals):
            # `echo CMDS | unshare -r`, `| su`, `| script -q /dev/null`: given no command, it
            # starts the user's shell, which runs what the line feeds it, as `| sh` does
            self.shell(name, [Word.lit(name)], here, ctx, reds, may_write_before)
        if name in P.SHELL_JOIN and not (name == "watch" and any(
                v in ("-x", "--exec") for v in vals)):
            joined = P.joined_command(name, vals)
            if joined is None:
                self.unresolved(f"{name} runs a command that is not static")
            elif joined[0]:
                cmd_words, extra = joined
                # parallel with no ::: takes its arguments from the pipe, as xargs does
                jctx = ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,),
                                 stdin="xargs" if name != "watch" and not extra else None)
                self.line(" ".join(cmd_words + [_quote(x) for x in extra]), jctx)
            return
        if name in P.WRAPPERS:
            rest = P.unwrap(name, [a.value for a in argv[1:]])
            if rest is not None:
                # `env -C DIR cmd`: cmd's relative paths are DIR's (as `cd DIR && cmd`)
                wctx = self._run_folder(name, vals, rest, ctx.child(via=ctx.via + (name,)))
                if rest < len(argv) - 1:
                    self.run(argv[1 + rest:], reds, wctx, feeds)
                return
            self.unresolved(f"{name}: its command could not be found in its arguments")
            return
        if name == "xargs":
            rest = P.xargs_command([a.value for a in argv[1:]])
            xcmd = argv[1 + rest:] if rest is not None and rest < len(argv) - 1 else [Word.lit("echo")]
            rep = P.xargs_replace([a.value for a in argv[1:]])
            here = [w for m, w in reds if m == "here"]
            lines_in = here[-1].value if here else ctx.fed if ctx.stdin == "pipe" else None
            if rep and lines_in is not None and not any(m == "r" for m, _ in reds):
                # `echo .ssh | xargs -I{} cat ~/{}/id_rsa`: the lines it reads are known, so
                # each command it runs is (-I: one line each, leading blanks dropped)
                got = [ln.lstrip(" \t") for ln in lines_in.split("\n") if ln.strip()]
                if len(got) > 16:
                    self.unresolved("xargs -I runs a command for each of more than 16 lines")
                    return
                for ln in got:
                    self.run([Word.lit(a.value.replace(rep, ln)) if a.value is not None
                              and rep in a.value else a for a in xcmd], [],
                             ctx.child(via=ctx.via + ("xargs",)), None)
                return
            if rep:     # `xargs -I% rm -r% x`: a word holding the text it replaces is not known
                xcmd = _replaced(xcmd, rep, "xargs")
            # its operands come from the pipe: the pipeline fills the command's feeds
            fed = [w for m, w in reds if m == "r"]
            for k, a in enumerate(argv[1:1 + (rest if rest is not None else len(argv))]):
                v = a.value or ""
                if v in ("-a", "--arg-file") or v.startswith(("--arg-file=", "-a")) and len(v) > 2 \
                        and not v.startswith("--") or v.startswith("--arg-file="):
                    src = v.split("=", 1)[1] if "=" in v else v[2:] if len(v) > 2 else (
                        argv[k + 2].raw if k + 2 < len(argv) else "")
                    fed.append(Word(None, "*", False, src or "a file"))
            if fed:     # `xargs cat < list`, `xargs cat < <(...)`: the words it appends are read
                unknown = Word(None, "*", False, fed[-1].raw)
                unknown.inner = list(fed[-1].inner)
                unknown.opaque = f"xargs appends the words it reads from {fed[-1].raw[:40]}"
                feeds = list(feeds or []) + [unknown]
            here = [w for m, w in reds if m == "here"]
            if here:    # `xargs rm <<< PATH`, a heredoc: the words it appends are its text's
                feeds = list(feeds or []) + _xargs_words(here[-1])
            self.run(xcmd, [], ctx.child(via=ctx.via + ("xargs",), stdin="xargs"), feeds)
            return
        if name == "find":
            self.find(argv, ctx)
            return
        if name in P.SHELLS:
            self.shell(name, argv, here, ctx, reds, may_write_before)
            return
        if name == "eval":
            words = [a.value for a in argv[1:] if a.value is not None]
            if len(words) < len(argv) - 1:
                self.unresolved("eval of text that is not static")
            else:
                self.line(" ".join(words), ctx.child(depth=ctx.depth + 1, via=ctx.via + ("eval",)))
            return
        if name in ("source", "."):
            sourced = argv[1].value if len(argv) > 1 else None
            if sourced and "/" not in sourced and self.path_change is not None:
                # bash looks a name without / up on PATH first: a PATH this line changed
                # (`PATH=~/.ssh source id_rsa` reads the key, its lines echoed as errors)
                dirs, dirs_unknown = self.path_change
                if dirs_unknown:
                    self.unresolved(f"{name} {sourced[:40]} is looked up on a PATH that is not known")
                for d in dirs[:16]:
                    self.run([Word.lit("cat"), Word.lit(posixpath.join(self.path(d, ctx.cwd), sourced))],
                             [], ctx.child(via=ctx.via + (name,)))
            self.script(argv[1] if len(argv) > 1 else None, ctx, name, here, may_write_before)
            return
        if "/" in head.value:                       # ./script.sh: read it when it is a shell script
            p = self.path(head.value, ctx.cwd)
            if p in self.made_from:
                return                   # judged as the program it was copied from (above)
            if p in self.written and p not in self.made_sources:
                # (a copy's source is among cp's operands, which count as written)
                self.unresolved(f"{head.value} is written earlier in this command and then run")
                return
            text = self.fs.read_script(p, MAX_SCRIPT + 1)
            if text is None:
                if self.waits and not self.fs.exists(p):
                    self.unresolved(f"{head.value}, {_WAITED}")
                return                   # a program not there, or one that is not a file
            if len(text) > MAX_SCRIPT:
                self.unresolved(f"{head.value} is longer than {MAX_SCRIPT // 1024} KiB")
                return
            if P.is_shell_script(text):
                self.line(text, ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,)))
                return
            interp = P.shebang_program(text)     # `#!/usr/bin/env python3`: its program file
            if interp in P.PROGRAM_FILES and P.program_language(interp) == "code":
                self.program_text(interp, "code", text, ctx, cmd)

    def _record_made(self, name: str, argv: list[Word], ctx: _Ctx) -> None:
        """What this command makes for later ones: the program a copy or link of a program
        is (`cp /bin/rm ./x`, `ln -s /bin/rm ~/bin/del`, `install /bin/rm d/`), and the folders
        it fills with files it cannot list (an archive extracted, a branch checked out, a
        folder copied or moved, a repository cloned)."""
        vals = [a.value for a in argv[1:]]
        if name in ("cp", "ln", "install", "mv") and all(v is not None for v in vals):
            takes = P.DEST_VALUED.get(name, frozenset())
            ops: list[str] = []
            tdir = None
            i = 0
            while i < len(vals):
                v = vals[i] or ""
                if v in ("-t", "--target-directory") and i + 1 < len(vals):
                    tdir, i = vals[i + 1], i + 2
                    continue
                if v.startswith("--target-directory="):
                    tdir = v.split("=", 1)[1]
                elif v in takes:
                    i += 2
                    continue
                elif not v.startswith("-") or v == "-":
                    ops.append(v)
                i += 1
            srcs, dests = (ops, [tdir]) if tdir else (ops[:-1], ops[-1:])
            deep = name == "mv" or any(v in ("-r", "-R", "-a", "--recursive", "--archive") or (
                v[:1] == "-" and v[1:2] != "-" and any(c in v for c in "rRa")) for v in vals if v)
            for src in srcs:
                sp = self.path(src, ctx.cwd)
                real = self.made_from.get(sp) or self.fs.realpath(sp) or sp
                folder = self.fs.is_dir(real) or deep and not self.fs.exists(real)
                known = sp in self.made_from or (self.fs.exists(real) and sp not in self.written
                                                 and real not in self.written)
                for d in dests:
                    dp = self.path(d or ".", ctx.cwd)
                    for place in (dp, posixpath.join(dp, posixpath.basename(sp))):
                        if folder:
                            self._tree(place)     # a folder copied: its files not listed
                        elif known:                      # (else: written, then run: unresolved)
                            self.made_from[place] = real
                            self.made_names[posixpath.basename(place)] = real
                            self.made_sources.add(real)
        vs = [v for v in vals]
        ext = P.extraction(name, vs)
        if ext is not None:
            self._tree(self.path(ext[0] or ".", ctx.cwd))
        if name == "git":
            gt = P.git_tree_write(vs)
            if gt is not None and gt[1] == "maybe-paths" and not self.fs.exists(
                    self.path(gt[2][0], self.path(P.git_folder(vs) or ".", ctx.cwd))):
                gt = (gt[0], "tree" if len(gt[2]) == 1 else "paths", gt[2][1:])
            if gt is not None and gt[1] == "tree":
                self._tree(self.path(gt[0] or P.git_folder(vs) or ".", ctx.cwd))
            for where, kind in P.output_writes(name, vs, [v for v in vs if v and v[:1] != "-"]):
                if kind == "new-tree":
                    self._tree(self.path(where, ctx.cwd))
        if name in ("rsync", "scp") and len([v for v in vs if v and v[:1] != "-"]) >= 2:
            last = [v for v in vs if v and v[:1] != "-"][-1]
            self._tree(self.path(last, ctx.cwd))

    def _wrote(self, p: str) -> None:
        if p not in self.written:
            self.written.add(p)
            self.written_at[p] = len(self.written_at)
            base = posixpath.basename(p)
            self.written_names.setdefault(base, []).append(p)
            self.dash_written = self.dash_written or base.startswith("-")

    def _tree(self, d: str) -> None:
        self.tree_dirs.setdefault(d, len(self.written_at))
        self.written_at.setdefault("\0tree:" + d, len(self.written_at))

    def _under_tree(self, p: str, mark: int) -> str | None:
        """The folder (filled before `mark`) that path `p` lies in, or None."""
        d = posixpath.dirname(p)
        for _ in range(64):
            if self.tree_dirs.get(d, mark) < mark:
                return d
            if d in ("/", ""):
                return None
            d = posixpath.dirname(d)
        return None

    def _program_run(self, word: str, name: str, ctx: _Ctx, written: "_Before",
                     trees: int) -> str:
        """The program a command's program word runs when this line made it (a copy or link
        of a program: that program's path), or "" (the word itself). A program word under a
        folder this line filled with files it cannot list, a name a changed PATH finds in a
        folder this line wrote, or a PATH not known, is unresolved."""
        if name in P.SHELL_BUILTINS:
            return ""
        if "/" in word:
            p = self.path(word, ctx.cwd)
            if p in self.made_from:
                return self.made_from[p]
            under = self._under_tree(p, trees)
            if under is not None and p not in written:
                self.unresolved(f"{word} runs from {under}, a folder this command line fills "
                                "with files agentdeck cannot list")
            return ""
        if self.path_change is None:
            made = self.made_names.get(name, "")
            if made and program_name(made) != name:
                return made          # `ln -s /bin/rm ~/bin/del; del -rf x`: PATH may find it
            if any(w in written and w not in self.made_from
                   for w in self.written_names.get(name, ())[:64]):
                self.unresolved(f"{name} may be the file of that name this command line wrote")
            return ""
        dirs, unknown = self.path_change
        if unknown:
            self.unresolved(f"PATH is set to folders not known here: {name} may be any program")
        for d in dirs:
            q = posixpath.join(d, name)
            if q in self.made_from:
                return self.made_from[q]
            if q in written or self._under_tree(q + "/x", trees) is not None:
                self.unresolved(f"{name} is looked up in {d}, where this command line writes")
                return ""
            if self.fs.exists(q):
                real = self.fs.realpath(q)
                return real if real and program_name(real) != name else q
        return ""

    def _sed_files(self, text: str, cmd: Cmd, ctx: _Ctx) -> None:
        for mode, f in P.sed_files(text):
            cmd.redirects.append((mode, Word.lit(f)))
            if mode == "w":
                self._wrote(self.path(f, ctx.cwd))

    def program_files(self, name: str, vals: list, ctx: _Ctx, cmd: Cmd, written_before,
                      may_write: bool) -> None:
        """A program read from a file (programs.PROGRAM_FILES: `sed -f F`, `awk -f F`, `make -f
        F`, `python3 F`, `perl F`, ...): its text, read at decision time, is judged as the same
        program given inline would be; one that cannot be read then (its name not static, a
        device, written earlier in this command line, missing while an earlier command of the
        line may have made it, unreadable, longer than MAX_SCRIPT) is unresolved. make with no
        -f reads its default makefile in its -C folder or the working folder."""
        lang = P.program_language(name)
        files: list[str | None] = list(P.program_files(name, vals))
        fed = [w for m, w in cmd.redirects if m == "r"]
        if lang == "code" and fed and P.program_from_stdin(name, vals):
            files.append(fed[-1].value)      # `python3 < F`, `node - 0< F`: F is the program
        folder = ctx.cwd
        if lang == "make":
            folder = self._run_folder(name, vals, None, ctx.child()).cwd
            # MAKEFILES= files are read before the default makefile, not instead of it
            if not P.program_files(name, [v for v in vals
                                          if not (v or "").startswith("MAKEFILES=")]):
                for d in P.DEFAULT_MAKEFILES:
                    p = posixpath.join(folder, d)
                    if p in written_before or self.fs.exists(p):
                        files.append(p)
                        break
        for f in files[:8]:
            if f is None:
                self.unresolved(f"{name} reads its program from a file whose name is not static")
                continue
            if f.startswith("file://"):
                f = f[len("file://"):]
            elif "://" in f or f.startswith(("npm:", "jsr:", "http:", "https:")):
                self.unresolved(f"{name} runs a program fetched from {f[:60]}")
                continue
            p = self.path(f, folder)
            if lang == "code" and self.fs.is_dir(p):
                p = posixpath.join(p, "__main__.py")     # python3 DIR runs DIR/__main__.py
            if p.startswith(("/dev/", "/proc/")):
                self.unresolved(f"{name} reads its program from {f}: what it reads is not known")
                continue
            if p in written_before:
                self.unresolved(f"{name} reads its program from {f}, written earlier in this "
                                "command")
                continue
            text = self.fs.read_script(p, MAX_SCRIPT + 1)
            if text is None:
                if self.fs.exists(p) or may_write:
                    self.unresolved(f"{name} reads its program from {f}, which agentdeck cannot "
                                    "read at decision time")
                elif self.waits:
                    self.unresolved(f"{name} reads its program from {f}, {_WAITED}")
                continue                 # no such file, and nothing in the line made it
            if len(text) > MAX_SCRIPT:
                self.unresolved(f"{name} reads its program from {f}, longer than "
                                f"{MAX_SCRIPT // 1024} KiB")
                continue
            self.program_text(name, lang, text, ctx, cmd, folder, written_before, may_write)

    def runs_from_files(self, name: str, vals: list, ctx: _Ctx) -> None:
        """What a program runs from files in the folder it works in, read now (runfiles.py):
        package.json's scripts for npm and its kin, git's aliases, the config values git runs
        and its hooks. Each is judged as the command line it is, in the folder it runs in; a
        file that is there but cannot be read, or names what is not known, is unresolved."""
        if name in R().NPM_LIKE:
            self._package_scripts(name, vals, ctx)
        elif name == "git":
            self._git_files(vals, ctx)

    def _ssh_config(self, ctx: _Ctx) -> None:
        """The commands ssh's configuration runs (`ProxyCommand`, `LocalCommand`,
        `KnownHostsCommand`, `RemoteCommand`, `Match exec "CMD"`), in the user's ~/.ssh/config
        and the system's /etc/ssh/ssh_config with what it includes, read now and each resolved
        as a line: a file written in an earlier call runs in every later ssh, scp, sftp and git
        over ssh (red team round 7: `Match exec` in /etc/ssh/ssh_config.d, then `ssh -G x`). A
        command with `%` tokens has them as any word; an Include agentdeck cannot follow is
        unresolved."""
        todo = [posixpath.join(self.home or "/", ".ssh", "config"), "/etc/ssh/ssh_config"]
        for cfg, text in self._config_files(todo, "ssh runs commands from its configuration", 32):
            for key, value in P.ssh_config_lines(text):
                if key == "include":
                    for pat in value.split():
                        pat = self.path(pat, posixpath.join(self.home or "/", ".ssh")
                                        if cfg.startswith(self.home or "\0") else "/etc/ssh")
                        found = self.fs.glob(pat) if any(c in pat for c in "*?[") else [pat]
                        todo += sorted(found)[:16]
                elif value.lower() != "none":
                    self.line(P.ssh_tokens(value), ctx.child(
                        depth=ctx.depth + 1, via=ctx.via + (f"ssh config {key}",), stdin=None))

    def _config_files(self, todo: list[str], what: str, limit: int):
        """(path, text) of each configuration file in `todo`, in order, each once, at most
        `limit`; the caller appends the files one includes to `todo` as it reads it."""
        seen: set[str] = set()
        while todo and len(seen) < limit:
            cfg = todo.pop(0)
            if cfg in seen:
                continue
            seen.add(cfg)
            if cfg in self.written:
                # (`printf '[core]\n\tfsmonitor = CMD' > ~/.config/git/config; git status`: what
                # it holds then is not what is on disk now; red team round 9)
                self.unresolved(f"{what} ({cfg}), written earlier in this command")
                continue
            text = self._read_small(cfg, what)
            if text:
                yield cfg, text

    def _read_small(self, p: str, what: str) -> str | None:
        """The text of file `p` (None when there is none); one that is there but cannot be read
        or is longer than MAX_SCRIPT is unresolved, as `what`."""
        text = self.fs.read_script(p, MAX_SCRIPT + 1)
        if text is None:
            if self.fs.exists(p) and not self.fs.is_dir(p):
                self.unresolved(f"{what} ({p}) cannot be read at decision time")
            return None
        if len(text) > MAX_SCRIPT:
            self.unresolved(f"{what} ({p}) is longer than {MAX_SCRIPT // 1024} KiB")
            return None
        return text

    def _npm_config(self, name: str, folder: str, ctx: _Ctx) -> None:
        """npm's config can make its scripts run through another program (`script-shell`,
        `shell`, `node-options` with `--require`, yarn's `yarnPath`): the project's and the
        user's `.npmrc`/`.yarnrc`/`.yarnrc.yml`, and `npm_config_*` variables, read now; a key
        of those there is unresolved (what it runs is not judged), as is such a file written
        earlier in this command."""
        env = {**(self.env or {}), **{k: v for k, v in ctx.env.items()}, **self.prefix_env}
        for k in env:
            if k.lower().replace("-", "_") in ("npm_config_script_shell", "npm_config_shell",
                                                "npm_config_node_options", "yarn_yarn_path",
                                                "npm_config_userconfig", "npm_config_globalconfig"):
                self.unresolved(f"{name} runs its scripts as {k} says")
                return
        home = self.home or "/"
        for p in (posixpath.join(folder, ".npmrc"), posixpath.join(home, ".npmrc"),
                  posixpath.join(folder, ".yarnrc"), posixpath.join(folder, ".yarnrc.yml"),
                  posixpath.join(home, ".yarnrc"), posixpath.join(home, ".yarnrc.yml")):
            if p in self.written:
                self.unresolved(f"{name} reads {p}, written earlier in this command")
                return
            text = self._read_small(p, f"{name} reads its config")
            if text and re.search(r"(?im)^\s*[\"']?(?:script-shell|shell|node-options|"
                                  r"yarnPath|yarn-path|onload-script)[\"']?\s*[=:]", text):
                self.unresolved(f"{name} runs its scripts through a program {p} names")
                return

    def _package_scripts(self, name: str, vals: list, ctx: _Ctx) -> None:
        got = R().package_scripts(name, vals)
        if got is None:
            return
        folder_opt, names, why = got
        if why:
            self.unresolved(why)
            return
        start = self.path(folder_opt, ctx.cwd) if folder_opt else ctx.cwd
        folder = start
        for _ in range(32):                  # npm's project: the nearest package.json above
            if self.fs.exists(posixpath.join(folder, "package.json")):
                break
            up = posixpath.dirname(folder)
            if up == folder:
                return
            folder = up
        self._npm_config(name, folder, ctx)
        text = self._read_small(posixpath.join(folder, "package.json"),
                                f"{name} runs scripts from package.json")
        if text is None:
            return
        scripts = R().scripts_of(text)
        if scripts is None:
            self.unresolved(f"{name} runs scripts from {folder}/package.json, which is not "
                            "JSON agentdeck can read")
            return
        for s in names:
            if s in scripts:
                self.line(scripts[s], ctx.child(cwd=folder, depth=ctx.depth + 1,
                                                via=ctx.via + (f"{name} script {s}",),
                                                stdin=None))

    def _git_files(self, vals: list, ctx: _Ctx) -> None:
        rf = R()
        start = self.path(P.git_folder(vals) or ".", ctx.cwd)
        gitdir, top = None, start
        given = next((vals[i + 1] for i, v in enumerate(vals[:-1]) if v == "--git-dir"), None)
        given = given or next((v.split("=", 1)[1] for v in vals
                               if v is not None and v.startswith("--git-dir=")), None)
        given = given or (self.prefix_env.get("GIT_DIR") if "GIT_DIR" in self.prefix_env
                          else ctx.env.get("GIT_DIR"))
        if given is not None:
            gitdir = self.path(given, start)
            if gitdir in self.written or any(w.startswith(gitdir + "/") for w in self.written):
                self.unresolved(f"git uses {given}, written earlier in this command")
                return
        else:
            d = start
            for _ in range(64):
                dot = posixpath.join(d, ".git")
                if dot in self.written or any(w.startswith(dot + "/") for w in self.written):
                    # `echo 'gitdir: X' > .git; git status`: which repository (and whose
                    # config, which runs code) git uses is decided by what the line wrote
                    self.unresolved("git reads .git, written earlier in this command")
                    return
                if self.fs.is_dir(dot):
                    gitdir, top = dot, d
                    break
                if self.fs.exists(dot):      # a worktree's or submodule's `gitdir: X` file
                    text = self._read_small(dot, "git reads its folder from .git")
                    if text and text.startswith("gitdir:"):
                        gitdir, top = self.path(text[7:].strip(), d), d
                    break
                up = posixpath.dirname(d)
                if up == d:
                    break
                d = up
        env = self.env or {}
        # the system's file (root writes it), then the repository's (its worktree file too:
        # extensions.worktreeConfig), then the user's
        configs: list[str] = [env.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig"]
        if gitdir:
            configs += [posixpath.join(gitdir, "config"), posixpath.join(gitdir, "config.worktree")]
            common = self.fs.read_script(posixpath.join(gitdir, "commondir"), 4096)
            if common:
                configs.append(posixpath.join(self.path(common.strip(), gitdir), "config"))
        xdg = env.get("XDG_CONFIG_HOME") or posixpath.join(self.home or "/", ".config")
        configs += [env.get("GIT_CONFIG_GLOBAL") or posixpath.join(self.home or "/", ".gitconfig"),
                    posixpath.join(xdg, "git", "config")]
        entries: list[tuple[str, str]] = []
        for cfg, text in self._config_files(configs, "git runs commands from its config", 16):
            got = rf.git_config(text)
            entries += got
            for inc in rf.git_includes(got):         # include.path: relative to the file
                configs.append(self.path(inc, posixpath.dirname(cfg)))
        entries += rf.command_line_config(vals)
        sub = ctx.child(cwd=top, depth=ctx.depth + 1, stdin=None)
        # git's ext:: transport runs its URL as a command: a remote named on the line, a
        # remote's url in the config, or a url rewritten into one (url.ext::X.insteadOf)
        urls = [v for v in vals if v is not None and "ext::" in v.lower()] + [
            v for k, v in entries if k.lower().endswith((".url", ".pushurl"))
            and v.lower().startswith("ext::")]
        for url in urls[:8]:
            at = url.lower().index("ext::")
            argv = P.git_ext_argv(url[at + 5:]) if url.lower().startswith("ext::") else None
            if argv is None:
                self.unresolved("git's ext:: transport runs a command agentdeck does not read")
                continue
            self.run([Word.lit(w) for w in argv], [], sub.child(via=ctx.via + ("git ext::",)))
        if any(k.lower().startswith("url.ext::") for k, _ in entries):
            self.unresolved("git rewrites a url into an ext:: command (url.ext::...insteadOf)")
        for key, line in rf.git_commands(entries):
            self.line(line, sub.child(via=ctx.via + (f"git config {key}",)))
        name = P._git_subcommand(vals)
        if name in ("clone", "init") and any(k.lower() == "init.templatedir" for k, _ in entries):
            # the template folder's hooks are copied into the new repository and run by it
            self.unresolved(f"git {name} copies hooks from the template folder its config names")
        alias = rf.git_alias(entries, name) if name else None
        if alias is not None:
            rest = vals[vals.index(name) + 1:]
            if any(v is None for v in rest):
                self.unresolved(f"git alias {name} is given words that are not static")
            words = " ".join(_quote(v) for v in rest if v is not None)
            text = alias[1:] if alias.startswith("!") else "git " + alias
            self.line(f"{text} {words}".strip(), sub.child(via=ctx.via + (f"git alias {name}",)))
        hooks = rf.git_hooks_path(entries)
        folder = self.path(hooks, top) if hooks else (posixpath.join(gitdir, "hooks")
                                                      if gitdir else None)
        if folder:
            for hook in rf.GIT_HOOKS:
                p = posixpath.join(folder, hook)
                if self.fs.exists(p):
                    self.line(_quote(p), sub.child(via=ctx.via + (f"git hook {hook}",)))

    def modules(self, name: str, vals: list, ctx: _Ctx, cmd: Cmd, written_before,
                may_write: bool) -> None:
        """An interpreter that imports modules from folders (P.MODULE_PATHS): the folders on
        its module path (the working folder for `python3 -m`/`-c`, the script's own folder,
        the folders its path variable names, set on the line or before the command). A module
        file written earlier in the line into one of them (or a folder the line fills) may be
        what it imports: unresolved. `python3 -m M` runs M's file from the first folder that
        has it: judged as the program it is, as `python3 FILE` is."""
        var, exts = P.MODULE_PATHS[name]
        value = self.prefix_env[var] if var in self.prefix_env else ctx.vars.get(var, "")
        if var in self.prefix_env or var in ctx.vars:
            if value is None:
                self.unresolved(f"{var}= names folders that are not static")
                return
        dirs = [self.path(d, ctx.cwd) for d in (value or "").split(":") if d]
        dirs += [self.path(d, ctx.cwd) for d in P.module_dirs(name, vals, ctx.cwd)]
        dirs = list(dict.fromkeys(dirs))
        for p in self.written:
            if p.startswith("\0"):
                continue
            d = posixpath.dirname(p)
            for top in dirs:
                if (d == top and p.endswith(exts)) or (
                        p.startswith(top.rstrip("/") + "/") and p.endswith(exts)
                        and any(posixpath.basename(p) == e.lstrip("/") for e in exts
                                if e.startswith("/"))):
                    self.unresolved(f"{name} may import {p}, written earlier in this command")
                    return
        mark = getattr(written_before, "mark", None)
        for t, when in self.tree_dirs.items():
            if mark is not None and when >= mark:
                continue                  # filled by this command itself, after it imports
            if any(t == top or t.startswith(top.rstrip("/") + "/") or
                   top.startswith(t.rstrip("/") + "/") for top in dirs):
                self.unresolved(f"{name} imports from {t}, which this command line fills")
                return
        if name.startswith(("python", "pypy")):
            # red team round 9: `python3 -c "import evil"`, `python3 -m unittest evil` and a
            # package's __init__.py ran a file of the working folder unread
            self._local_imports(name, vals, dirs, ctx, cmd)
        mod = P.run_module(name, vals)
        if mod is None:
            return
        if mod == "":
            self.unresolved(f"{name} -m names a module that is not static")
            return
        rel = mod.replace(".", "/")
        for top in dirs:
            for cand in (f"{top}/{rel}.py", f"{top}/{rel}/__main__.py"):
                if cand in written_before:
                    self.unresolved(f"{name} -m {mod} runs {cand}, written earlier in this "
                                    "command")
                    return
                text = self.fs.read_script(cand, MAX_SCRIPT + 1)
                if text is None:
                    continue
                if len(text) > MAX_SCRIPT:
                    self.unresolved(f"{name} -m {mod} runs {cand}, longer than "
                                    f"{MAX_SCRIPT // 1024} KiB")
                    return
                self.program_text(name, "code", text, ctx, cmd)
                # the modules it imports, and (a package run with -m) the package's own
                # __init__.py, which runs before its __main__.py
                self._local_imports(name, [], dirs, ctx, cmd, [text, f"import {mod}"])
                return

    def _includes(self, name: str, vals: list, reds, ctx: _Ctx) -> None:
        """The files a program's input includes (programs.INCLUDERS: `#include "F"`, `.so F`,
        `.incbin "F"`, `\\input{F}`), from its operand files read now, a heredoc or herestring
        and the text the line pipes to it: each is judged as a file it reads, relative to the
        file that names it. An operand written earlier in the line is unresolved."""
        texts: list[tuple[str, str]] = []
        for v in [v for v in vals if v is not None and not v.startswith("-")][:8]:
            p = self.path(v, ctx.cwd)
            if p in self.written:
                self.unresolved(f"{name} reads {p}, written earlier in this command, and the "
                                "files it includes")
                return
            text = self.fs.read_script(p, MAX_SCRIPT)
            if text:
                texts.append((posixpath.dirname(p), text))
        texts += [(ctx.cwd, w.value) for m, w in reds if m == "here" and w.value]
        if ctx.stdin == "pipe" and ctx.fed:
            texts.append((ctx.cwd, ctx.fed))
        for folder, text in texts:
            for f in P.include_targets(name, text):
                self.run([Word.lit("cat"), Word.lit(self.path(f, folder))], [],
                         ctx.child(via=ctx.via + (name,), stdin=None))

    def _local_imports(self, name: str, vals: list, dirs: list[str], ctx: _Ctx, cmd: Cmd,
                       texts: list[str] | None = None) -> None:
        """The modules of the folders on Python's path (`dirs`: the working folder, the
        script's) that its code imports by a literal name, and their packages' __init__.py,
        read now and judged as its code is, with what they import in turn (16 files at most);
        one written earlier in the line, or too long, is unresolved."""
        if texts is None:
            texts = [w.value for m, w in cmd.redirects if m == "here" and w.value]
            texts += [t for _, t in P.inline_code_at(name, vals) if t]
            texts.insert(0, "")             # (the modules `-m unittest M ...` is given)
        seen: set[str] = set()
        todo, first = list(texts), True
        while todo and len(seen) < 16:
            text = todo.pop(0)
            for mod in P.python_imports(text, vals if first else None):
                parts = mod.split(".")
                for top in dirs[:4]:
                    cands = [f"{top}/{'/'.join(parts[:k])}/__init__.py"
                             for k in range(1, len(parts) + 1)]
                    cands.append(f"{top}/{'/'.join(parts)}.py")
                    found = False
                    for c in cands:
                        if c in seen:
                            found = True
                            continue
                        if c in self.written:
                            self.unresolved(f"{name} imports {c}, written earlier in this command")
                            return
                        got = self.fs.read_script(c, MAX_SCRIPT + 1)
                        if got is None:
                            continue
                        seen.add(c)
                        found = True
                        if len(got) > MAX_SCRIPT:
                            self.unresolved(f"{name} imports {c}, longer than "
                                            f"{MAX_SCRIPT // 1024} KiB")
                            return
                        self.program_text(name, "code", got, ctx, cmd)
                        todo.append(got)
                    if found:
                        break                # (the first folder on the path that has it)
            first = False

    def program_text(self, name: str, lang: str, text: str, ctx: _Ctx, cmd: Cmd,
                     folder: str | None = None, written_before=None,
                     may_write: bool = False) -> None:
        """A program's text read from its file, judged as that program given it inline: the
        paths it names (kept on the command as text, as -c's), sed's e, w and r commands, awk's
        and the interpreters' commands, a makefile's recipes."""
        cmd.redirects.append(("here", Word.lit(text)))
        sub = ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,), stdin=None, fed=None)
        if ctx.depth >= MAX_DEPTH:
            self.unresolved(f"nested deeper than {MAX_DEPTH} levels")
            return
        if lang == "sed":
            for line in P.sed_commands("sed", ["-e", text]):
                self.line(line, sub)
            why = P.runs_code("sed", ["-e", text])
            if why:
                self.unresolved(why)
            self._sed_files(text, cmd, ctx)
        elif lang == "awk":
            why = P.runs_code(name, [text])
            if why:
                self.unresolved(why)
            self.code_text(name, text, ctx)
        elif lang == "make":
            self._make_includes(name, text, ctx, cmd, folder or ctx.cwd, written_before,
                                may_write)
            if folder and folder != ctx.cwd:     # `make -C DIR`: its recipes run in DIR
                sub.prev, sub.cwd = sub.cwd, folder
            for line, unknown in P.make_recipes(text)[:256]:
                before = list(self.out.unresolved)
                self.line(line, sub)
                if unknown and len(self.out.unresolved) > len(before):
                    # a make variable set outside the makefile: what runs is read at run time
                    for why in self.out.unresolved[len(before):]:
                        why = f"{name} runs a recipe with a variable set outside it ({why})"
                        if why not in self.out.dynamic:
                            self.out.dynamic.append(why)
                    self.out.unresolved = before
        else:
            self.code_text(name, text, ctx)

    def _make_includes(self, name: str, text: str, ctx: _Ctx, cmd: Cmd, folder: str,
                       written_before, may_write: bool) -> None:
        """The makefiles a makefile includes (`include F`, `-include F`, `sinclude F`): each is
        read and judged as the makefile itself; one written earlier in the line, one whose name
        is not static (a variable make sets at run time, a glob), or one that cannot be read
        while the line may have made it, is unresolved."""
        for inc in P.make_includes(text)[:16]:
            if inc is None:
                self.unresolved(f"{name} includes a makefile whose name is not static")
                continue
            p = self.path(inc, folder)
            if p in self.written or (written_before is not None and p in written_before):
                self.unresolved(f"{name} includes {inc}, written earlier in this command")
                continue
            sub = self.fs.read_script(p, MAX_SCRIPT + 1)
            if sub is None:
                if self.fs.exists(p) or may_write:
                    self.unresolved(f"{name} includes {inc}, which agentdeck cannot read at "
                                    "decision time")
                continue
            if len(sub) > MAX_SCRIPT or ctx.depth >= MAX_DEPTH:
                self.unresolved(f"{name} includes {inc}, too large or too deep to follow")
                continue
            self.program_text(name, "make", sub, ctx.child(depth=ctx.depth + 1), cmd, folder,
                              written_before, may_write)

    def carried(self, name: str, vals: list, here: list, ctx: _Ctx, cmd: Cmd) -> None:
        """A command a program is given to run (P.carried: `tmux new CMD`, `git rebase -x CMD`,
        `sqlite3 db '.system CMD'`, `gdb -ex 'shell CMD'`, `at now <<< CMD`): a line or argv
        is resolved as a command of its own; code it runs that is not read is unresolved."""
        if name not in P.OPTION_CARRIERS and name not in ("tmux", "screen"):
            return
        stdin = "heredoc" if here else ctx.stdin
        text = here[-1].value if here else ctx.fed if ctx.stdin == "pipe" else None
        if not here and any(m in ("r", "rw") for m, _ in cmd.redirects):
            fed = self._fed_by(cmd.redirects, ctx)      # `sqlite3 db < F`: F is what it runs
            stdin, text = fed.stdin, fed.fed
        lines, argvs, why = P.carried(name, vals, text, stdin)
        sub = ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,), stdin=None)
        for line in lines:
            self.line(line, sub.child())
        for words in argvs:
            self.run([Word.lit(w) for w in words], [], sub.child())
        if why:
            self.unresolved(why)

    def inline_code(self, name: str, vals: list, ctx: _Ctx, cmd: Cmd) -> None:
        """An interpreter's program given as text (-c, -e, awk's program, or read from stdin: a
        heredoc, a herestring, a pipe): when it starts processes, the commands its string
        literals spell are resolved as commands of their own (a literal that looks like a
        command line as a line, a list of literals as an argv); a spawning call whose command is
        not a literal, or a program read from a pipe that is not known, is `dynamic`. A
        program read from stdin is kept on the command as text ("here") so the path rules read
        it as they read -c's."""
        texts = P.inline_texts(name, vals)
        if P.program_from_stdin(name, vals):
            here = [w for m, w in cmd.redirects if m == "here"]
            if here:
                texts += [w.value for w in here]
            elif ctx.stdin == "pipe":
                texts.append(ctx.fed)
                if ctx.fed is not None:
                    cmd.redirects.append(("here", Word.lit(ctx.fed)))
        for text in texts:
            if text is None:
                why = f"{name} runs a program that is not known here (read at run time)"
                if why not in self.out.dynamic:
                    self.out.dynamic.append(why)
                continue
            self.code_text(name, text, ctx)

    def code_text(self, name: str, text: str, ctx: _Ctx) -> None:
        """One program text of an interpreter (inline or read from its file): when it starts
        processes, the commands its literals spell are resolved; a spawning call whose command
        is not a literal is `dynamic`. Code that imports agentdeck's package may run any of its
        commands that change the guard (P.OWN_GUARD_COMMANDS): each is resolved as run."""
        if P.imports_own(text):
            own = ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,), stdin=None, fed=None)
            for word in P.OWN_GUARD_COMMANDS:
                self.run([Word.lit(P.OWN_DIST), Word.lit(word)], [], own)
        loads, unknown = P.code_loads(text)
        if name in P.PROGRAM_FILES and P.program_language(name) == "code":
            # runpy.run_path("F"), require("/abs/f.js"), perl's do "F": F runs as this
            # interpreter's program, judged as `name F` is
            lctx = ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,), stdin=None, fed=None)
            for f in loads:
                if ctx.depth < MAX_DEPTH:
                    self.run([Word.lit(name), Word.lit(f)], [], lctx.child())
            if unknown:
                why = f"{name}'s code loads code from a file it names at run time"
                if why not in self.out.dynamic:
                    self.out.dynamic.append(why)
        if not P.spawns(text, name):
            return
        sub = ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,), stdin=None, fed=None)
        if name in P._BACKTICK_STRINGS:
            text = text.replace("`", "'")
        dyn = P.spawn_dynamic(text)
        if dyn:
            why = f"{name}'s code runs a command it builds at run time ({dyn})"
            if why not in self.out.dynamic:
                self.out.dynamic.append(why)
        lines, argvs = P.code_commands(text[:MAX_SCRIPT])
        for words in argvs[:64]:
            self.run([Word(None, "*", False, "an element the code computes")
                      if w == P.CODE_WORD else Word.lit(w) for w in words], [], sub)
        for line in lines[:64]:
            if ctx.depth >= MAX_DEPTH:
                break
            data = line.encode("utf-8", "surrogatepass")
            if len(data) > MAX_TEXT or parser().parse(data).root_node.has_error:
                continue             # not a command line any shell would run
            before = list(self.out.unresolved)
            self.line(line, sub)
            if not any(c in line.strip() for c in " \t\n;|&"):
                self.out.unresolved = before   # one word ("child_process"): a name, not a line

    def _dynamic_assign(self, name: str, argv: list[Word], ctx: _Ctx) -> None:
        """`read x`, `mapfile a`, `printf -v x`, `getopts o x`: the variables they set take
        values from input, not from this line: not known (opaque where a rule could apply)."""
        vals = [a.value for a in argv[1:]]
        if name == "printf":
            names = [vals[i + 1] for i, v in enumerate(vals[:-1]) if v == "-v"]
            names += [v[2:] for v in vals if v and v.startswith("-v") and len(v) > 2]
        else:
            names = [v for v in vals if v and (v[0].isalpha() or v[0] == "_")]
            names += {"read": ["REPLY"], "mapfile": ["MAPFILE"], "readarray": ["MAPFILE"],
                      "getopts": ["OPTARG", "OPTIND"]}.get(name, [])
        if any(v is None for v in vals) and name != "printf":
            self.unresolved(f"{name} into a variable whose name is not static")
        for k in names:
            if k is None:
                self.unresolved(f"{name} into a variable whose name is not static")
                continue
            k = k.split("[", 1)[0]
            if k in self.int_vars and not (name == "getopts" and k == "OPTIND"):
                # bash evaluates what it assigns to an integer variable as arithmetic (red
                # team round 11: `declare -i v; read v <<< 'a[$(cmd)]'` runs cmd)
                self.unresolved(f"{name} into {k}, an integer variable (bash evaluates the "
                                "value as arithmetic)")
            self._state_var(k)
            ctx.vars[k] = None
            self.var_inner.pop(k, None)
            self.var_pattern.pop(k, None)

    def _evaluated_args(self, name: str, argv: list[Word], ctx: _Ctx) -> None:
        """Builtins that evaluate an argument's VALUE: `let EXPR` (arithmetic), the variable
        names of `read`, `printf -v`, `test -v`, `unset`, `getopts` (their subscripts are
        arithmetic) and the callback of `mapfile -C` (shell code)."""
        args = argv[1:]
        vals = [a.value for a in args]
        if name == "let":
            for a in args:
                self._arith_word(a, ctx)
        elif name in ("read", "unset", "getopts"):
            opts_with_value = {"read": "adeinNptu", "unset": "", "getopts": ""}[name]
            i, skip_first = 0, name == "getopts"
            while i < len(args):
                v = vals[i]
                if v is not None and v.startswith("-") and v != "-":
                    if any(ch in opts_with_value for ch in v[1:]) and v[-1] in opts_with_value:
                        i += 1
                    i += 1
                    continue
                if skip_first:
                    skip_first = False
                else:
                    self._name_arg(args[i], name, ctx)
                i += 1
        elif name == "printf":
            for i, v in enumerate(vals[:-1]):
                if v == "-v":
                    self._name_arg(args[i + 1], "printf -v", ctx)
            for a in args:
                if a.value is not None and a.value.startswith("-v") and len(a.value) > 2:
                    self._name_arg(Word.lit(a.value[2:]), "printf -v", ctx)
        elif name in ("test", "["):
            for i, v in enumerate(vals[:-1]):
                if v == "-v":
                    self._name_arg(args[i + 1], "test -v", ctx)
        elif name == "wait":        # `wait -n -p VAR`: VAR is assigned the job's pid
            for i, v in enumerate(vals):
                var: Word | None = None
                if v is not None and v.startswith("-") and v.endswith("p") and "p" not in v[1:-1]:
                    var = args[i + 1] if i + 1 < len(args) else None
                elif v is not None and v.startswith("-") and "p" in v[1:]:
                    var = Word.lit(v[v.index("p", 1) + 1:])
                if var is not None:
                    self._name_arg(var, "wait -p", ctx)
                    if var.value:
                        self._state_var(var.value)
                        ctx.vars[var.value.split("[", 1)[0]] = None   # a pid, not known here
        elif name in ("mapfile", "readarray"):
            for i, v in enumerate(vals):
                if v is not None and v.startswith("-") and "C" in v[1:]:
                    cb = v[v.index("C") + 2:] if not v.endswith("C") else \
                        (vals[i + 1] if i + 1 < len(vals) else "")
                    if cb is None:
                        self.unresolved(f"{name} -C runs a callback that is not static")
                    elif cb.strip():
                        self.line(cb + " 0 line",
                                  ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,)))

    def find(self, argv: list[Word], ctx: _Ctx) -> None:
        vals = [a.value for a in argv[1:]]
        starts: list[Word] = []
        i = 0
        while i < len(vals) and vals[i] in ("-H", "-L", "-P", "-D") or i < len(vals) and \
                str(vals[i]).startswith("-O"):      # its options come before its folders
            i += 2 if vals[i] == "-D" else 1
        while i < len(vals):
            v = vals[i]
            if v is not None and v.startswith(("-", "(", "!")):
                break
            starts.append(argv[1 + i])
            i += 1
        if not starts:
            starts = [Word.lit(".")]
        j = i
        while j < len(vals):
            if vals[j] in ("-exec", "-execdir", "-ok", "-okdir"):
                k = j + 1
                while k < len(vals) and vals[k] not in (";", "+"):
                    k += 1
                sub = _replaced([a for a in argv[1 + j + 1:1 + k] if a.value != "{}"], "{}", "find")
                if sub:     # (find -L, -follow: the links below its folders are followed)
                    # and a command given what find found (`-exec cat {} +`) opens each name,
                    # following a link to its target (red team round 8: a relative link
                    # copied into the folder with `cp -P` pointed at the key)
                    by_find = any(v in ("-L", "-follow") for v in vals if v is not None)
                    follow = by_find or any("{}" in (a.value or "") for a in argv[1 + j + 1:1 + k])
                    tags: tuple[str, ...] = ("find -L" if follow else "find",)
                    if follow and not by_find and P.find_names_tag(vals[i:j]):
                        tags += (P.find_names_tag(vals[i:j]),)   # the names it passes on
                    fctx = ctx.child(via=ctx.via + tags)
                    if vals[j] in ("-execdir", "-okdir"):
                        self._find_dirs(sub, starts, fctx)
                    else:
                        self.run(sub, [], fctx, list(starts))
                j = k
            j += 1

    def _find_dirs(self, sub: list[Word], starts: list[Word], ctx: _Ctx) -> None:
        """`find START ... -execdir CMD \\;`: CMD runs in the folder of each file found, so its
        relative names are that folder's: a START that is a file (`find ~/.ssh/id_rsa.pub
        -execdir cat id_rsa`) runs CMD in its folder; a folder runs it there and in any folder
        below, so a relative name in CMD is not known (unresolved) unless START has none."""
        relative = [a for a in sub[1:] if a.value is not None and not a.value.startswith(("-", "/", "~"))
                    and a.value not in (";", "+")]
        for w in starts[:16]:
            if w.value is None:
                self.unresolved("find -execdir runs its command in folders that are not static")
                continue
            start = self.path(w.value, ctx.cwd)
            folder = start if self.fs.is_dir(start) else posixpath.dirname(start)
            dctx = ctx.child()
            dctx.prev, dctx.cwd = dctx.cwd, folder
            self.run(sub, [], dctx, [w])
            if relative and self.fs.is_dir(start) and any(
                    self.fs.is_dir(c) for pat in ("*", ".[!.]*")
                    for c in self.fs.glob(posixpath.join(start, pat))[:4096]):
                self.unresolved(f"find -execdir runs {sub[0].raw or 'its command'} in every folder "
                                f"below {w.value[:40]}, where its relative names are not known")

    def shell(self, name: str, argv: list[Word], here: list[Word], ctx: _Ctx,
              ctx_reds=(), may_write: bool = False) -> None:
        vals = [a.value for a in argv[1:]]
        sub = ctx.child(depth=ctx.depth + 1, via=ctx.via + (name,), stdin=None)
        sub.vars.update(ctx.env)            # `X=v bash -c '... $X'`: its environment's value
        # the options first, as the shell reads them: -c takes its text from the first word
        # after every option (`bash -c -e 'cmd'`, `bash -c -- 'cmd'`), -s (or `-`) reads the
        # script from stdin and makes the words after the options its parameters
        i, text_arg, from_stdin = 0, False, False
        while i < len(vals):
            v = vals[i]
            if v is None:
                self.unresolved(f"{name} with an argument that is not static")
                return
            if v == "--":
                i += 1
                break
            if v == "-":
                i, from_stdin = i + 1, True
                break
            if v == "--posix":
                self.unresolved(f"{name} --posix: special builtins are found before functions, "
                                "and an assignment before one stays")
            if v in ("--rcfile", "--init-file"):
                # the start-up file an interactive shell sources first (red team round 9:
                # `bash --rcfile F -i -c true`): its text is judged as the shell's own
                if i + 1 < len(vals):
                    self.script(argv[2 + i], ctx, f"{name} {v}", (), may_write)
                i += 2
                continue
            if v.startswith("--"):
                i += 1
                continue
            if v[:1] in ("-", "+") and len(v) > 1:
                if v[0] == "-":
                    text_arg = text_arg or "c" in v[1:]
                    from_stdin = from_stdin or "s" in v[1:]
                # -o NAME, -O NAME (also at the end of a cluster: `-eo pipefail`): a shopt
                # option or one of `set -o` the resolver does not read changes how the text is
                # read (`bash -O dotglob -c 'cat ~/*/id_rsa'`: the glob matches ~/.ssh)
                if v[-1] in "oO":
                    opt = vals[i + 1] if i + 1 < len(vals) else None
                    if v[-1] == "O" or opt not in P.PLAIN_SET_OPTIONS:
                        self.unresolved(f"{name} {v} {opt or ''}: a shell option that changes "
                                        "how the text is read")
                i += 2 if v[-1] in "oO" else 1
                continue
            break
        rest = vals[i:]
        if text_arg:
            if not rest or rest[0] is None:
                self.unresolved(f"{name} -c of text that is not static")
                return
            # `bash -c TEXT NAME ARGS...`: $0 is NAME, $1... the words after it
            sub.arg0 = argv[i + 2] if len(argv) > i + 2 else Word.lit(name)
            sub.args = list(argv[i + 3:])
            self.line(rest[0], sub)
            return
        if rest and not from_stdin:
            # bash script.sh ARGS...: $1... are ARGS
            self.script(argv[1 + i], ctx, name, here, may_write, args=list(argv[2 + i:]))
            return
        fed = [w for m, w in ctx_reds if m == "r"]
        if fed:                             # `sh < t.sh`: the file is the script
            self.script(fed[-1], ctx, name, may_write=may_write)
            return
        if here:
            for w in here:
                if w.value is None:
                    self.unresolved(f"{name} fed a heredoc that is not static")
                else:
                    self.line(w.value, sub)
            return
        if ctx.stdin == "pipe" and ctx.fed is not None:
            self.line(ctx.fed, sub)         # `printf 'ls\n' | sh`: the text it is fed, known
        elif ctx.stdin in ("pipe", "xargs"):
            self.unresolved(f"{name} fed from a pipe")

    def script(self, w: Word | None, ctx: _Ctx, how: str, here=(), may_write: bool = False,
               args: list[Word] | None = None) -> None:
        """A shell's script file (`bash F`, `sh < F`, `source F`): its text, read at decision
        time, resolved as lines of their own; one that cannot be read then (a device, written
        earlier in this line, unreadable, longer than MAX_SCRIPT, or missing while an earlier
        command of the line may have made it) is unresolved."""
        if w is None or w.value is None:
            self.unresolved(f"{how} of a file that is not static")
            return
        p = self.path(w.value, ctx.cwd)
        if p.startswith(("/dev/", "/proc/")):
            # `bash /dev/stdin <<< '...'`: the script is what the shell is fed, never read here
            body = [h for h in here if h.value is not None]
            if p in ("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0") and body and len(body) == len(here):
                for h in body:
                    self.line(h.value or "", ctx.child(depth=ctx.depth + 1, fn=True,
                                                       via=ctx.via + (how,)))
            else:
                self.unresolved(f"{how} of {w.value}: what it reads is not known")
            return
        if p in self.written:
            self.unresolved(f"{how} of {w.value}, written earlier in this command")
            return
        text = self.fs.read_script(p, MAX_SCRIPT + 1)
        if text is None:
            if self.fs.exists(p) or may_write:
                self.unresolved(f"{how} of {w.value}: it cannot be read at decision time")
            elif self.waits:
                self.unresolved(f"{how} of {w.value}, {_WAITED}")
            return                       # no such file, and nothing in the line made it
        if len(text) > MAX_SCRIPT:
            self.unresolved(f"{how} of {w.value}, longer than {MAX_SCRIPT // 1024} KiB")
            return
        venv = venv_dir(text) if how in ("source", ".") else None
        if venv is not None:
            # a generated venv activate script (core/policy/activate.py): judged by its effect,
            # its bin/ first on PATH; its `deactivate` restores values not known here
            quoted = "'" + (venv + "/bin").replace("'", "'\\''") + "'"
            self.line(f"PATH={quoted}:\"$PATH\"",
                      ctx.child(depth=ctx.depth + 1, via=ctx.via + (how,), fn=True))
            self.activated = True
            return
        sub = ctx.child(depth=ctx.depth + 1, via=ctx.via + (how,), fn=True)
        if args is not None:
            sub.arg0, sub.args = w, args
        self.line(text, sub)

    def path(self, value: str, cwd: str) -> str:
        return normalize(value, cwd, self.home)

    def folder(self, w: Word, cwd: str) -> str | None:
        """The folder a word names as the shell would change to it: a glob (bash character
        classes too, core/policy/fs.py shell_pattern) expanded against the disk at decision
        time, its one match; None when it matches several."""
        if w.glob and w.pattern:
            found = self.fs.glob(self.path(w.pattern, cwd))
            if len(found) == 1:
                return found[0]
            if found:
                return None
        return self.path(w.value if w.value is not None else w.pattern, cwd)


_PROC_LINK = None


def proc_unknown(path: str) -> str:
    """Why a /proc or /dev/fd path names what this command cannot know (another process's
    folder, an open file descriptor the line did not make), or ""."""
    import re   # local: only for /proc and /dev/fd paths

    global _PROC_LINK
    if _PROC_LINK is None:
        # any process or thread name ($$, $BASHPID, a number, self): what is not resolved
        # exactly below is not known
        _PROC_LINK = re.compile(r"^/proc/[^/]+(?:/task/[^/]+)?/(?:cwd|root|fd|exe|map_files)(?:/|$)"
                                r"|^/dev/fd/(?:[3-9]|\d\d+)(?:/|$)")
    m = _PROC_LINK.match(path)
    if m is None:
        return ""
    if path.startswith(("/proc/self/cwd", "/proc/self/root", "/proc/thread-self/cwd",
                        "/proc/thread-self/root")):
        return ""             # normalize() resolves these to the folder and to /
    return f"{path[:40]} names another process's folder or an open file not known here"


def R():
    """core/policy/runfiles.py, imported on the first program that reads commands from files."""
    from . import runfiles   # local: only for npm-like and git commands, off the common path
    return runfiles


def _quote(s: str) -> str:
    """One word as shell text that reads back as that word."""
    return "'" + s.replace("'", "'\\''") + "'"


def normalize(value: str, cwd: str, home: str) -> str:
    """An absolute, normalized path (`.`, `..`, `//` gone; `~`, `~user` and `$HOME` expanded);
    symlinks are resolved by core/policy/paths.py, which asks the file system."""
    if value == "~" or value.startswith("~/"):
        value = (home or "/") + value[1:]
    elif value.startswith("~") and len(value) > 1:
        user, _, rest = value[1:].partition("/")
        other = _user_home(user, home)
        if other:
            value = other.rstrip("/") + ("/" + rest if rest else "")
    elif value.startswith("$HOME/") or value == "$HOME":
        value = (home or "/") + value[5:]
    elif value[:2] == "~+" and value[2:3] in ("", "/"):
        value = (cwd or "/") + value[2:]
    if not value.startswith("/"):
        value = posixpath.join(cwd or "/", value)
    if value.startswith(("/proc/self/", "/proc/thread-self/")):
        # magic links, resolved before `..` is: /proc/self/cwd/.. is the folder's parent
        head, _, rest = value.partition("-self/" if value.startswith("/proc/thread") else "/self/")
        link, _, tail = rest.partition("/")
        if link in ("cwd", "root"):
            value = ((cwd or "/") if link == "cwd" else "/") + ("/" + tail if tail else "")
    if value.startswith("/proc/") and re.search(r"/\.\.(?:/|$)", value):
        return value        # the kernel follows each magic link before `..`: left as it is
    out = posixpath.normpath(value)
    return "/" + out.lstrip("/") if out.startswith("//") else out


def _user_home(user: str, home: str) -> str | None:
    if home and posixpath.basename(home.rstrip("/")) == user:
        return home
    try:
        import pwd
        return pwd.getpwnam(user).pw_dir
    except (ImportError, KeyError, OSError, ValueError):
        return None


def _unescape(s: str, escapable: str | None = None) -> str:
    """Backslashes removed as the shell does: unquoted, every `\\x` is `x`; inside double quotes
    (`escapable` = '$`"\\' and newline) only those characters are escaped. A backslash-newline
    is a line continuation: both go."""
    if "\\" not in s:
        return s
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s) and (escapable is None or s[i + 1] in escapable):
            if s[i + 1] != "\n":
                out.append(s[i + 1])
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def _number_form(n) -> bool:
    """`$?`, `${#}`, `$RANDOM` (bash's own numbers) or a `${#x}` / `${#a[@]}` length."""
    if n.type not in ("simple_expansion", "expansion"):
        return False
    kids = n.named_children
    toks = [c.type for c in n.children if not c.is_named]
    if toks == ["${", "#", "}"]:
        return [c.type for c in kids] in ([], ["variable_name"], ["subscript"])
    return len(kids) == 1 and kids[0].type in ("variable_name", "special_variable_name") \
        and all(t in ("$", "${", "}") for t in toks) \
        and kids[0].text.decode("utf-8", "replace") in SHELL_NUMBERS


def _backquoted_inner(n) -> str | None:
    """The text bash parses inside a backquoted substitution holding a backslash escape of
    a backquote, `$` or a backslash (the backslash removed), None for any other one."""
    kids = n.children
    if not kids or kids[0].type != "`" or not re.search(rb"\\[`$\\]", n.text):
        return None
    body = n.text.decode("utf-8", "replace")[1:]
    body = body[:-1] if body.endswith("`") else body
    return re.sub(r"\\([`$\\])", r"\1", body)


_DQ_ESCAPABLE = '$`"\\\n'
_IFS = " \t\n"         # the default IFS (an IFS= assignment makes the line unresolved)
LOOP_VALUES = 64        # the values a `for` body is followed with (past it: unresolved)
LOOP_WALKS = 256        # loop bodies followed in one command line, nested ones included
MAX_WORD = 64 * 1024    # a word whose value grows longer (x=$x$x ...) is not known


def _pipe_role(cmd: Cmd) -> str | None:
    """A pipeline stage's effect on the names it is given (P.pipe_filter); a command xargs runs
    prints what it prints (`xargs cat`: the files' text, not names), unless it lists the names
    it was given (`xargs grep -l`)."""
    vals = [a.value for a in cmd.argv[1:]]
    if cmd.stdin == "xargs":
        if cmd.name in ("grep", "egrep", "fgrep", "rg") and any(
                v in ("-l", "-L", "--files-with-matches", "--files-without-match") for v in vals):
            return "pass"
        return "rewrite"
    return P.pipe_filter(cmd.name, vals)


def _replaced(words: list, rep: str, who: str) -> list:
    """`words` with each one that holds `rep` (the text xargs -I or find -exec puts a name
    in) made a word whose value is not known: `rm -r{} x` may be `rm -rf x`."""
    out = []
    for k, a in enumerate(words):
        if a.value is not None and rep in a.value:
            w = Word(None, _escape(a.value).replace(_escape(rep), "*"), False, a.raw)
            if k == 0 or a.value.startswith("-") or who == "xargs" and a.value != rep:
                # the program itself, or a word that may be an option (find's names start
                # with its folders, a line xargs reads may start with `-`), or a word that
                # joins a line xargs reads to other text (`~/{}/id_rsa`: the line may be
                # `.ssh`, a hidden name, or hold `/`; red team round 10): not known
                w.opaque = f"a word {who} fills in at run time ({a.value[:40]})"
            out.append(w)
        else:
            out.append(a)
    return out


def _printed(cmds: list) -> str | None:
    """What a substitution prints, when it is one command whose output is a pure function of
    static words (`echo`, `printf` of a plain format or `%s`, `dirname`, `basename`, `pwd`);
    None otherwise. Trailing newlines go, as `$(...)` removes them."""
    if len(cmds) != 1:
        return None
    c = cmds[0]
    if c.name == "cat" and len(c.argv) == 1 and len(c.redirects) == 1 \
            and c.redirects[0][0] == "here" and c.redirects[0][1].value is not None and not c.via:
        # `$(cat <<'EOF' ... EOF)`: the heredoc's text (a commit message)
        return c.redirects[0][1].value.rstrip("\n")
    if c.redirects or c.via or c.stdin or any(a.value is None or a.glob or a.alts
                                              or a.fields is not None for a in c.argv):
        return None
    name, args = c.name, [a.value for a in c.argv[1:]]
    out: str | None = None
    if name == "echo":
        nl = True
        while args and len(args[0]) > 1 and args[0][0] == "-" and set(args[0][1:]) <= set("neE"):
            if "e" in args[0]:
                return None               # escapes interpreted: not followed
            nl = nl and "n" not in args[0]
            args = args[1:]
        out = " ".join(args) + ("\n" if nl else "")
    elif name == "printf":
        if args and args[0] == "--":
            args = args[1:]
        if not args or args[0].startswith("-"):
            return None
        fmt, rest = args[0], args[1:]
        if fmt in ("%s", "%s\\n") and len(rest) == 1:
            out = rest[0] + ("\n" if fmt.endswith("n") else "")
        elif not rest and "%" not in fmt and "\\" not in fmt:
            out = fmt
        else:
            return None
    elif name in ("dirname", "basename") and args and not args[0].startswith("-"):
        if name == "dirname" and len(args) == 1:
            out = posixpath.dirname(args[0].rstrip("/")) or "."
        elif name == "basename" and len(args) in (1, 2):
            b = posixpath.basename(args[0].rstrip("/"))
            out = b[:-len(args[1])] if len(args) == 2 and b.endswith(args[1]) and b != args[1] else b
        else:
            return None
    elif name == "pwd" and not args:
        out = c.cwd
    if out is None:
        return None
    return out.rstrip("\n")


def _fields(parts) -> list[str]:
    """Field splitting as the shell does with the default IFS: only the text of unquoted
    expansions (quoted None) splits, on runs of blanks; quoted text and literals join the
    field they touch."""
    fields: list[str] = []
    cur: str | None = None
    for v, _, q in parts:
        if q is None:
            segs = v.replace("\t", " ").replace("\n", " ").split(" ")
            for k, seg in enumerate(segs):
                if k and cur is not None:
                    fields.append(cur)
                    cur = None
                if seg:
                    cur = (cur or "") + seg
        else:
            cur = (cur or "") + v
    if cur is not None:
        fields.append(cur)
    return fields


def _split_fields(w: Word) -> list[Word]:
    if w.fields is None:
        return [w]
    out = []
    for f in w.fields:
        g = any(c in "*?[" for c in f)
        x = Word(f, f if g else _escape(f), g, w.raw)
        x.opaque = w.opaque
        out.append(x)
    return out


_C_ESC = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
          "f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


def _ansi_c(s: str) -> str:
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c != "\\" or i + 1 >= len(s):
            out.append(c)
            i += 1
            continue
        n = s[i + 1]
        if n in _C_ESC:
            out.append(_C_ESC[n])
            i += 2
        elif n == "x":
            h = ""
            j = i + 2
            while j < len(s) and len(h) < 2 and s[j] in "0123456789abcdefABCDEF":
                h += s[j]
                j += 1
            out.append(chr(int(h, 16)) if h else "\\x")
            i = j
        elif n in "01234567":
            o = ""
            j = i + 1
            while j < len(s) and len(o) < 3 and s[j] in "01234567":
                o += s[j]
                j += 1
            out.append(chr(int(o, 8)))
            i = j
        elif n in "uU":
            h = ""
            j = i + 2
            while j < len(s) and len(h) < (4 if n == "u" else 8) and s[j] in "0123456789abcdefABCDEF":
                h += s[j]
                j += 1
            try:
                out.append(chr(int(h, 16)) if h else "\\" + n)
            except (ValueError, OverflowError):
                out.append("?")
            i = j
        elif n == "c" and i + 2 < len(s):
            out.append(chr(ord(s[i + 2]) & 0x1F))   # `\cX`: control-X (`\c@` is NUL)
            i += 3
        else:
            out.append("\\" + n)
            i += 2
    return "".join(out)


def _tilde(w: Word, home: str, parts) -> Word:
    if not home or not parts:
        return w
    first_v, _, first_q = parts[0]
    if first_q or first_v is UNKNOWN or not (first_v == "~" or first_v.startswith("~/")):
        return w
    if w.value is not None:
        w.value = home + w.value[1:]
    if w.pattern.startswith("~"):
        w.pattern = _escape(home) + w.pattern[1:]
    return w


_QUOTED_BRACES = str.maketrans({"{": "\x01", "}": "\x02", ",": "\x03"})
_UNQUOTE_BRACES = str.maketrans({"\x01": "{", "\x02": "}", "\x03": ","})


def _brace_values(parts, home: str) -> list[str] | None:
    text = "".join(v.translate(_QUOTED_BRACES) if q else v for v, _, q in parts)
    alts = expand_braces(text)
    if len(alts) < 2 and (not alts or alts[0] == text):
        return None                  # no expansion (`{x}`, `{}`); `{s..s}` is one word: `s`
    out = []
    for a in alts:
        a = a.translate(_UNQUOTE_BRACES)
        if home and (a == "~" or a.startswith("~/")):
            a = home + a[1:]
        out.append(a)
    return out


def _split_brace(w: Word) -> list[Word]:
    """`a{b,c}d` -> abd acd (unquoted braces; bounded by expand_braces)."""
    if not w.alts:
        return [w]
    out = [Word(a, a if w.glob else _escape(a), w.glob, w.raw) for a in w.alts]
    for x in out:
        x.opaque = w.opaque          # a list cut at BRACE_LIMIT: every word of it says so
    return out


BRACE_LIMIT = 64   # words one brace expansion is followed to (past it: the word is opaque)


def expand_braces(s: str, limit: int = BRACE_LIMIT) -> list[str]:
    """Bash brace expansion of one unquoted word (comma lists and a..b ranges, nested)."""
    depth, start = 0, -1
    for i, c in enumerate(s):
        if c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "}" and depth:
            depth -= 1
            if depth == 0:
                body = s[start + 1:i]
                alts = _brace_alts(body)
                if alts is None:
                    continue
                pre, post = s[:start], s[i + 1:]
                out: list[str] = []
                for a in alts:
                    for tail in expand_braces(post, limit):
                        out += expand_braces(pre + a + tail, limit) if "{" in a else [pre + a + tail]
                        if len(out) >= limit:
                            return out[:limit]
                return out
    return [s]


def _brace_alts(body: str) -> list[str] | None:
    parts, depth, cur = [], 0, ""
    for c in body:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    if len(parts) > 1:
        return parts
    if ".." in body:
        # a sequence `{a..b}` or `{a..b..step}` (bash: a negative step counts the same way)
        seq = body.split("..")
        if len(seq) not in (2, 3):
            return None
        a, b = seq[0], seq[1]
        inc = seq[2] if len(seq) == 3 else "1"
        if not re.fullmatch(r"[+-]?\d+", inc):
            return None
        n = abs(int(inc)) or 1          # bash takes a zero step as 1
        if re.fullmatch(r"[+-]?\d+", a) and re.fullmatch(r"[+-]?\d+", b) \
                and abs(int(b) - int(a)) // n < 64:
            step = n if int(b) >= int(a) else -n
            width = max(len(a), len(b)) if (a.lstrip("+-").startswith("0") and len(a.lstrip("+-")) > 1
                                            or b.lstrip("+-").startswith("0") and len(b.lstrip("+-")) > 1) else 0
            return [str(x).zfill(width) if width else str(x)
                    for x in range(int(a), int(b) + (1 if step > 0 else -1), step)]
        if len(a) == 1 and len(b) == 1 and a.isascii() and b.isascii() and a.isalpha() and b.isalpha():
            step = n if ord(b) >= ord(a) else -n
            return [chr(x) for x in range(ord(a), ord(b) + (1 if step > 0 else -1), step)]
    return None


def resolve(text: str, cwd: str, env, fs, home: str | None = None) -> Parsed:
    r = Resolver(env, fs, home)
    try:
        r.line(text, _Ctx(cwd or "/", {}, 0))
    except RecursionError:
        r.unresolved("nested too deeply to follow")
    if r.visited:
        folders = list(dict.fromkeys(r.visited + [cwd or "/"]))
        if len(folders) > MAX_FOLDERS:
            r.unresolved(f"the line changes folder more than {MAX_FOLDERS - 1} times")
        for c in r.out.commands:
            c.alts = tuple(f for f in folders[:MAX_FOLDERS] if f != c.cwd)
    return r.out
