"""One tool vocabulary: every dialect's tool call mapped onto shell | read | write | mcp | web.

    calls = tool_calls(payload)      # [Call(cls, name, subjects), ...]; several for a batch

A Call's `subjects` are the strings a rule's regex is searched in: the command (shell), the
path(s) (read, write: every path of an apply_patch), "server/tool" (mcp), the URL(s) (web).
Anything unrecognized is class "other" (only `tool = "any"` rules see it, searched in its name
and its string arguments).

The payload shapes (field names as the CLIs send them, see tests/fixtures/payloads/):
- Copilot camelCase: `toolName` + `toolArgs` (an object in 1.0.102, a JSON string in older
  builds), the batched `toolCalls[]` of older builds ({name, args}); preMcpToolCall's
  `serverName`/`toolName`.
- Claude Code's hook schema (Claude, Codex, Copilot PascalCase, VS Code): `tool_name` +
  `tool_input`, and for an MCP tool a field naming the server (Claude's `mcp_server: {name}`).

Which tool names are which class is each target's dialect part's (core/targets/<name>/dialect.py
TOOLS and MCP_NAMES, core/targets/parts/dialect.py), plus SHARED below: a `Vocabulary` gathers
the caller's (the hook handler passes it); without one, every registered dialect's is used.
Argument keys are shared: the path keys (file_path, filePath, path, paths, ...), the command keys
(command, cmd, input, ...: Codex's `shell` sends an argv list), apply_patch texts and unified
diffs (every path they touch), str_replace_editor's nested `command`.

Standard library only: the hook handler imports this on every pre-tool call.
"""
from __future__ import annotations

import json
import re

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any

# the id of the guard's built-in write protection (compiled.py adds the rule; paths.py
# singles it out for a permission change on a folder above the guard's files)
SELF_RULE = "agentdeck-self"

CLASSES = ("shell", "read", "write", "mcp", "web", "prompt", "other")


class Call:
    """`kind` refines a read: "search" (a recursive content search: Grep, grep, rg, search),
    "glob" (names matching a pattern; subjects = [pattern, base dir, ...]), "list" (a
    directory's names) or "" (a file); a shell call "session" (its process may outlive the call
    and take input typed into it later, which reaches no hook); and an other call: "delegate"
    (its text is handed to a model to act on: a sub-agent's prompt, a workflow, a later turn;
    `tool = "prompt"` rules see it too), "unknown" (a tool no vocabulary of the caller
    declares). `texts`: the string arguments of an mcp or other call (for paths). `paths`: an
    other call's path arguments (_PATH_KEYS), each counted as read and written. `cwd`: the
    folder a shell call runs in when its arguments name one (_CWD_KEYS: Qwen's
    run_shell_command `directory`), else "" (the payload's cwd)."""
    __slots__ = ("cls", "name", "subjects", "kind", "texts", "cwd", "paths")

    def __init__(self, cls: str, name: str, subjects: list[str], kind: str = "",
                 texts: list[str] | None = None, cwd: str = "", paths: list[str] | None = None):
        self.cls, self.name, self.subjects = cls, name, subjects
        self.kind, self.texts, self.cwd = kind, texts or [], cwd
        self.paths = paths or []

    def to_json(self) -> dict:
        return {"class": self.cls, "name": self.name, "subjects": self.subjects}

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Call({self.cls!r}, {self.name!r}, {self.subjects!r})"


#: the tools every dialect's vocabulary knows (folded name -> (class, kind)): names several CLIs
#: send and generic ones; each target's dialect part adds its own (TOOLS, core/targets/parts/
#: dialect.py), a dialect shared by several targets its `tools` (core/targets/dialects.py VSCODE).
#: `kind` refines a read ("search", "glob", "list", "" a file, see Call), a shell "session"
#: (the process may outlive the call and take input a hook never sees), "editor" says the
#: call's nested `command` decides (_EDITOR_COMMANDS: view reads, the rest write), and for an
#: other tool "delegate" (see Call) and "dispatch" (the tool calls another one, named in its
#: `name` with its `arguments`: the call is judged as that tool's)
SHARED: dict[str, tuple[str, str]] = {
    # shell
    "bash": ("shell", ""), "shell": ("shell", ""), "powershell": ("shell", ""),
    "exec": ("shell", ""), "runcommand": ("shell", ""), "terminal": ("shell", ""),
    # read
    "read": ("read", ""), "glob": ("read", "glob"), "grep": ("read", "search"),
    "search": ("read", "search"),
    # write
    "write": ("write", ""), "edit": ("write", ""), "applypatch": ("write", ""),
    "strreplace": ("write", ""), "insert": ("write", ""), "createdirectory": ("write", ""),
    "editfile": ("write", ""), "writefile": ("write", ""),
    # web
    "webfetch": ("web", ""), "websearch": ("web", ""), "fetch": ("web", ""),
    "websearchtool": ("web", ""), "webfetchtool": ("web", ""),
}


#: a Vocabulary: the tool names and MCP namings one caller's dialects use, a plain tuple (a class
#: would cost the handler its creation on every call)
#:   tables         dicts of folded name -> (class, kind), the first that has a name says: the
#:                  dialects' own `tools`, the dialect modules' TOOLS, then SHARED
#:   namings        the McpNaming of each (the dialects' mcp_names, the modules' MCP_NAMES)
#:   server_fields  the payload fields that carry an MCP server's real name ({name, ...})
if TYPE_CHECKING:  # pragma: no cover
    Vocabulary = tuple[tuple[dict[str, tuple[str, str]], ...], tuple[Any, ...], tuple[str, ...]]


def vocabulary(modules) -> Vocabulary:
    """The vocabulary of some dialect modules (core/targets/<name>/dialect.py); the handler
    builds one on every pre-tool call, so nothing is copied."""
    tables: list = []
    namings: list = []
    for m in modules:
        for d in m.DIALECTS:
            if d.tools and d.tools not in tables:
                tables.append(d.tools)
            if d.mcp_names is not None and d.mcp_names not in namings:
                namings.append(d.mcp_names)
        own = getattr(m, "TOOLS", None)
        if own:
            tables.append(own)
        own = getattr(m, "MCP_NAMES", None)
        if own is not None and own not in namings:
            namings.append(own)
    tables.append(SHARED)
    return tuple(tables), tuple(namings), tuple({n.server_field: 1 for n in namings
                                                 if n.server_field})


def _tool(tables, folded: str) -> tuple[str, str]:
    """(class, kind) of a folded tool name; ("other", "") for a name nobody declares."""
    for t in tables:
        found = t.get(folded)
        if found is not None:
            return found
    return _OTHER


def names(vocab: Vocabulary) -> dict[str, tuple[str, str]]:
    """Every folded name a vocabulary knows -> (class, kind)."""
    out: dict[str, tuple[str, str]] = {}
    for t in reversed(vocab[0]):
        out.update(t)
    return out


def unknown(vocab: Vocabulary, offered) -> list[str]:
    """The tool names a CLI offers (read from a real turn's request to the model) that `vocab`
    does not know: neither a declared tool nor an MCP tool in one of its namings. The doctor's
    closed-vocabulary check and the clients test over real turns list these."""
    known = names(vocab)
    return sorted({n for n in offered if isinstance(n, str) and n
                   and fold(n) not in known and not _mcp(n, vocab[1])})


_OTHER = ("other", "")
_EVERY: list = []


def every_dialect() -> "Vocabulary":
    """The vocabulary of every registered dialect (a call whose caller is not known)."""
    if not _EVERY:
        from ..targets import dialects
        _EVERY.append(vocabulary(dialects.modules()))
    return _EVERY[0]


#: str_replace_editor's nested command -> class
_EDITOR_COMMANDS = {"view": "read", "create": "write", "str_replace": "write", "insert": "write",
                    "undo_edit": "write", "delete": "write"}
_PATH_KEYS = ("file_path", "filePath", "path", "notebook_path", "notebookPath", "target_file",
              "dirPath", "directory", "filename", "file",
              "paths",    # Copilot 1.0.102 rg/glob: one directory or a list of them
              "scriptPath",   # Claude Code's Workflow: the script file it runs
              "workspacePath",    # Qwen Code's record_artifact: a file of the workspace
              "dir_path",   # Gemini CLI 0.61.0 glob, grep_search, list_directory: the folder
              "absolute_path")   # read_file's key in earlier Qwen Code and Gemini CLI releases
#: more keys an MCP tool names a file with (the reference filesystem server's move_file, ...)
_MCP_PATH_KEYS = ("source", "destination", "src", "dst", "dest", "from", "to", "old_path",
                  "new_path", "root", "cwd", "dir", "folder", "files", "filepath")
_URL_KEYS = ("url", "urls", "uri", "query")
#: a dispatcher's (Qwen's tool_call) keys for the tool it calls and for that tool's arguments
_DISPATCH_NAME_KEYS = ("name", "tool_name", "toolName", "tool")
_DISPATCH_ARG_KEYS = ("arguments", "params", "args", "parameters", "input", "tool_input",
                      "toolArgs")
_SHELL_KEYS = ("command", "cmd", "input", "script", "commandLine", "chars")
#: the keys whose name says "a command": given to a tool nobody declares, the call is a shell
#: call on that value (a declared other tool only on command and cmd: Claude's Workflow
#: `script` is a workflow program, not a shell line)
_COMMAND_KEYS = ("command", "cmd", "commandLine", "command_line", "cmdline", "script",
                 "shell_command", "shellCommand")
#: an MCP tool's keys that hold a command line, and a program its `args`/`argv` list is given
#: to (red team round 8: a shell-like server's `{"line": ...}`, `{"program": "rm", "argv": ...}`)
_MCP_LINE_KEYS = ("line", "command_text", "shell")
_MCP_PROGRAM_KEYS = ("program", "executable", "binary", "exec", "bin")
#: a shell tool's argument naming the folder the command runs in (Qwen Code's run_shell_command
#: `directory`, docs/facts/qwen.md section 2; OpenCode's bash `workdir`, docs/facts/opencode.md
#: section 2; Gemini CLI's run_shell_command `dir_path`): a relative path in the command is read
#: from there
_CWD_KEYS = ("directory", "workdir", "dir_path")
#: patterns are compiled on first use (re's cache), not at import: the handler imports this
#: module on every pre-tool call and most calls never need them
_PATCH_FILE = (r"(?m)^\s*\*\*\*\s*(?:Add|Update|Delete)\s+File:\s*(.+?)\s*$"
               r"|^\s*\*\*\*\s*Move\s+to:\s*(.+?)\s*$"
               r"|^(?:\+\+\+|---) (?:[ab]/)?(\S.*?)\s*$")


from ..targets.dialects import fold  # noqa: E402  (the handler folds event names with it too)


def tool_args(value) -> dict:
    """A tool call's args as a dict (Copilot camelCase sends them as a JSON string); the hook
    handler's audit line uses it too."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return {"_raw": value}
    if value is None:
        return {}
    return value if isinstance(value, dict) else {"_value": value}


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        out = []
        for v in value:
            out += _strings(v)
        return out
    if isinstance(value, dict):
        out = []
        for v in value.values():
            out += _strings(v)
        return out
    return []


def _first_str(args: dict, keys: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for k in keys:
        v = args.get(k)
        if isinstance(v, str) and v:
            out.append(v)
        elif isinstance(v, list) and v and all(isinstance(x, str) for x in v):
            out += v
        if out:
            return out
    return out


def _all_str(args: dict, keys: tuple[str, ...]) -> list[str]:
    """Every string (or list of strings) under any of `keys`."""
    out: list[str] = []
    for k in keys:
        v = args.get(k)
        for x in [v] if isinstance(v, str) else v if isinstance(v, list) else ():
            if isinstance(x, str) and x and x not in out:
                out.append(x)
    return out


def patch_paths(text: str) -> list[str]:
    """Every path an apply_patch (or a unified diff) touches."""
    out: list[str] = []
    for m in re.finditer(_PATCH_FILE, text):
        p = m.group(1) or m.group(2) or m.group(3)
        if p and p != "/dev/null" and p not in out:
            out.append(p)
    return out


def _shell_subjects(args: dict, keys: tuple[str, ...] = _SHELL_KEYS) -> list[str]:
    v = None
    for k in keys:
        if args.get(k) not in (None, ""):
            v = args[k]
            break
    if isinstance(v, list):            # Codex `shell` {command: ["bash", "-lc", "..."]}
        parts = [x for x in v if isinstance(x, str)]
        if len(parts) >= 3 and parts[1] in ("-c", "-lc", "-lic"):
            return [parts[2]]
        return [" ".join(_sh_quote(p) for p in parts)]      # an argv run without a shell
    if isinstance(v, str):
        return [v]
    return _strings(args)[:1]


_SAFE = r"^[A-Za-z0-9_@%+=:,./~-]+$"


def _sh_quote(s: str) -> str:
    return s if s and re.match(_SAFE, s) else "'" + s.replace("'", "'\"'\"'") + "'"


def _write_subjects(name: str, args: dict) -> list[str]:
    texts = [s for s in _strings(args) if "*** Begin Patch" in s or "\n+++ " in s or
             s.startswith("+++ ") or s.startswith("--- ")]
    paths: list[str] = []
    for t in texts:
        paths += [p for p in patch_paths(t) if p not in paths]
    if isinstance(args.get("edits"), list):        # multi_replace_string_in_file, MultiEdit
        for e in args["edits"]:
            if isinstance(e, dict):
                paths += [p for p in _first_str(e, _PATH_KEYS) if p not in paths]
    direct = _first_str(args, _PATH_KEYS)
    return direct + [p for p in paths if p not in direct]


_PATTERN_KEYS = ("pattern", "glob", "query", "includePattern")


def _spelled(servers, namings) -> list[tuple[str, str]]:
    """(spelling, real name) of each known server as those namings spell it in a tool name,
    longest spelling first: `a-b-x` is server `a-b`, not `a`."""
    out = {(n.spell(s), s) for s in servers if isinstance(s, str) and s for n in namings}
    return sorted(out, key=lambda p: (-len(p[0]), p))


def _unhashed(naming, server: str, spelled_server: str, tool: str, whole: str
              ) -> tuple[str, str]:
    """(server, tool) without the `_<7 base-36 digits>` a hashed naming appends to the tool
    (McpNaming.hashed: Qwen Code's `mcp__Srv_Dot__leave_marker-v2_1vmvmv7` is tool
    `leave_marker-v2` of server `Srv.Dot`), when the hash is certain: the server's real name
    had to be spelled, the name is cut to the naming's length, or the hash checks out for the
    name with its `_`s read back as characters a CLI replaces (up to 5 of them; the server's
    real name is then known too). Otherwise the name stays whole (a tool whose own name ends
    that way is not shortened). A name the CLI cut keeps only what it kept."""
    if len(tool) <= 8 or tool[-8] != "_" or not all(c in _BASE36 for c in tool[-7:]):
        return server, tool
    base, digest = tool[:-8], tool[-7:]
    if server != spelled_server or len(whole) == naming.hashed:
        return server, base
    from itertools import product   # local: only for a hashed name (Qwen's) with a suffix
    from agentdeck.core.targets.dialects import name_hash   # local: as above

    s_parts, t_parts = server.split("_"), base.split("_")
    ks, k = len(s_parts) - 1, len(s_parts) + len(t_parts) - 2
    if k > 5:
        return server, tool

    def join(parts: list[str], fill) -> str:
        return parts[0] + "".join(c + p for c, p in zip(fill, parts[1:]))

    for fill in product("_. :/@+", repeat=k):
        real = join(s_parts, fill[:ks])
        if name_hash(f"{naming.prefix}{real}{naming.sep}{join(t_parts, fill[ks:])}") == digest:
            return real, base
    return server, tool


_BASE36 = frozenset("0123456789abcdefghijklmnopqrstuvwxyz")


def _mcp(name: str, namings, servers=(), server_name: str | None = None
         ) -> tuple[str, str] | None:
    """(server, tool) of an MCP tool name, as the dialects' namings (McpNaming, core/targets/
    dialects.py) form it: mcp__server__tool (Claude, Codex), mcp_server_tool (VS Code),
    <server>-<tool> (Copilot CLI, for the servers the profile installs). Each CLI spells the
    names (Codex turns `my-srv` into `my_srv`, Copilot `srv.v1` into `srv-v1`): a known server's
    spelling is mapped back to its name, and `server_name` (Claude's payload carries it) is the
    server's name as it is. The tool part stays as the CLI spelled it. Sure forms are tried
    first, then the known servers' spellings, then loose guesses."""
    first = None
    for n in namings:           # the sure form with the longest prefix the name starts with
        if n.guess == "sure" and n.prefix and name.startswith(n.prefix) and (
                first is None or len(n.prefix) > len(first.prefix)):
            first = n
    if first is not None:
        prefix, sep = first.prefix, first.sep
        same = [n for n in namings if n.guess == "sure" and n.prefix == prefix and n.sep == sep]
        rest = name[len(prefix):]
        hashed = next((n for n in same if n.hashed), None)

        def found(real: str, spelling: str) -> tuple[str, str]:
            tool = rest[len(spelling) + len(sep):]
            if hashed is not None:
                return _unhashed(hashed, real, spelling, tool, name)
            return real, tool

        if server_name:
            for spelling, _real in _spelled([server_name], same):
                if rest.startswith(spelling + sep):
                    return found(server_name, spelling)
        for spelling, real in _spelled(servers, same) if servers else ():
            if rest.startswith(spelling + sep) and len(rest) > len(spelling) + len(sep):
                return found(real, spelling)
        server, _, _tool = rest.partition(sep)
        return found(server_name or server, server)
    if servers:
        for n in namings:
            if n.guess != "servers":
                continue
            for spelling, real in _spelled(servers, [n]):
                head = n.prefix + spelling + n.sep
                if name.startswith(head) and len(name) > len(head):
                    return real, name[len(head):]
    for n in namings:
        if n.guess == "loose" and name.startswith(n.prefix) and n.sep in name[len(n.prefix):]:
            server, _, tool = name[len(n.prefix):].partition(n.sep)
            return server, tool
    return None


def classify(name: str, args: dict, mcp_servers=(), server_name: str | None = None,
             vocab: "Vocabulary | None" = None) -> Call:
    """One tool call as a Call. `server_name`: the MCP server the payload names (Claude).
    `vocab`: the calling dialects' tools (every registered dialect's by default)."""
    vocab = vocab if vocab is not None else every_dialect()
    name = name if isinstance(name, str) else ""
    mcp = _mcp(name, vocab[1], mcp_servers, server_name)
    if mcp:
        # its path arguments (a filesystem server's `path`, `paths`, `source`, `destination`,
        # or any top-level value that looks like a path): judged against the working folder as
        # a file tool's are (core/policy/paths.py)
        paths = _all_str(args, _PATH_KEYS + _MCP_PATH_KEYS)
        given = [v for a in args.values() for v in (a[:50] if isinstance(a, list) else [a])]
        paths += [v for v in given if isinstance(v, str) and v not in paths and _pathlike(v)]
        return Call("mcp", name, [f"{mcp[0]}/{mcp[1]}"], texts=_strings(args)[:50],
                    paths=paths[:50], cwd=_mcp_folder(args))
    # (an MCP tool given a command: tool_calls adds the shell call it runs, _mcp_command)
    f = fold(name)
    found = _tool(vocab[0], f)          # _OTHER itself for a name nobody declares
    if found[1] == "dispatch":
        # the tool it names and that tool's arguments, under any of the keys a dispatcher's
        # schema may use ({name, arguments}, {tool_name, params}, {name, args: "<json>"})
        inner = next((v for v in (args.get(k) for k in _DISPATCH_NAME_KEYS)
                      if isinstance(v, str) and v), None)
        inner_args = next((args[k] for k in _DISPATCH_ARG_KEYS if args.get(k) is not None),
                          None)
        if isinstance(inner, str) and inner and fold(inner) != f:
            return classify(inner, tool_args(inner_args), mcp_servers, server_name, vocab)
        found = _OTHER               # a dispatcher naming nothing (or itself): judged as unknown
    cls, kind = found
    if kind == "editor" or (f in ("edit", "editor") and isinstance(args.get("command"), str)
                            and args["command"] in _EDITOR_COMMANDS):
        command = args.get("command")
        cls = _EDITOR_COMMANDS.get(command if isinstance(command, str) else "", "write")
        return Call(cls, name, _first_str(args, _PATH_KEYS))
    if cls == "shell":
        cwd = next((v for v in (args.get(k) for k in _CWD_KEYS) if isinstance(v, str) and v), "")
        # a session tool's process may take input later that no hook sees (kind "session":
        # core/policy/rules.py makes a program that takes typed commands unresolved)
        return Call("shell", name, _shell_subjects(args), "session" if kind == "session" else "",
                    cwd=cwd)
    if cls == "write":
        return Call("write", name, _write_subjects(name, args))
    if cls == "read":
        if kind == "glob":
            return Call("read", name, _first_str(args, _PATTERN_KEYS)[:1]
                        + _first_str(args, _PATH_KEYS), kind)      # every base directory
        return Call("read", name, _first_str(args, _PATH_KEYS), kind)
    if cls == "web":
        urls = _first_str(args, _URL_KEYS)
        if not urls and isinstance(args.get("prompt"), str):
            # Gemini CLI 0.61.0's web_fetch takes {prompt} with the URLs written inside it
            urls = re.findall(r"https?://[^\s\"'<>)\]]+", args["prompt"])
        return Call("web", name, urls)
    texts = _strings(args)[:50]
    unknown = found is _OTHER
    keys = _COMMAND_KEYS if unknown else _SHELL_KEYS[:2]
    if _first_str(args, keys):
        # a tool agentdeck does not know that is given a command: the strictest role, a shell
        # call (Claude Code's Monitor ran `rm -rf` as "other"); its path-like arguments are
        # still the command's operands or, with none, looked at as an other call's
        return Call("shell", name, _shell_subjects(args, keys), texts=texts)
    # any other tool: every path it is given (_PATH_KEYS, relative ones against the cwd) is
    # read and written, and any path written inside its other arguments too (core/policy/
    # paths.py for_call); a name nobody declares is kind "unknown", and each of its top-level
    # values that looks like a path (no space, a `/` or a leading `.` or `~`) is a path too
    paths = _all_str(args, _PATH_KEYS)
    if unknown:
        # top-level values and the strings of top-level lists (`{"include": ["**/.env"]}`,
        # `{"paths": ["../*"]}`: a tool that takes several paths or globs)
        given = [v for a in args.values() for v in (a[:50] if isinstance(a, list) else [a])]
        paths += [v for v in given if isinstance(v, str) and v not in paths and _pathlike(v)]
    return Call("other", name, [name, *texts[:20]], "unknown" if unknown else kind,
                texts=texts, paths=paths)


#: keys under which an MCP tool is given the folder it acts in (a shell server's `cwd`, a file
#: server's `root` or `directory`, a git server's `repo_path`): its relative paths, its plain
#: names and its command are that folder's
_MCP_FOLDER_KEYS = ("cwd", "working_directory", "workingDirectory", "workdir", "work_dir",
                    "directory", "dir", "root", "base", "base_dir", "baseDir", "repo_path",
                    "repoPath", "repo", "folder", "project_dir", "projectDir")


def _mcp_folder(args) -> str:
    """The folder an MCP tool's arguments say it acts in (_MCP_FOLDER_KEYS), or ""."""
    if not isinstance(args, dict):
        return ""
    return next((v for v in (args.get(k) for k in _MCP_FOLDER_KEYS)
                 if isinstance(v, str) and v and len(v) <= 4096), "")


def _mcp_command(args: dict) -> str | None:
    """The shell line an MCP tool's arguments spell, if they name a command (_COMMAND_KEYS,
    with an `args`/`arguments` list after it, or an `argv` list)."""
    import shlex   # local: only for an MCP call given a command
    if not isinstance(args, dict):
        return None
    cmd = next((args[k] for k in _COMMAND_KEYS + _MCP_LINE_KEYS
                if isinstance(args.get(k), str) and args[k]), None)
    rest = next((args[k] for k in ("args", "arguments", "argv")
                 if isinstance(args.get(k), list)), None)
    if cmd is None and rest is not None:
        # a program and its words (`{"program": "rm", "argv": [...]}`, `{"executable": ...}`)
        cmd = next((shlex.quote(args[k]) for k in _MCP_PROGRAM_KEYS
                    if isinstance(args.get(k), str) and args[k]), None)
    words = [str(w) for w in (rest or [])[:200] if isinstance(w, (str, int, float))]
    if cmd is not None:
        return cmd if not words else cmd + " " + shlex.join(words)
    if rest is not None and words and "argv" in args:
        return shlex.join(words)
    return None


def _pathlike(v: str) -> bool:
    return 0 < len(v) <= 4096 and not any(c.isspace() for c in v) and (
        "/" in v or v.startswith((".", "~")))


def tool_calls(payload: dict, mcp_servers=(), vocab: "Vocabulary | None" = None) -> list[Call]:
    """Every tool call a pre-tool payload carries (a batch gives several). `mcp_servers`: the
    names of the MCP servers the profile installs, which each CLI spells in its tool names
    (Copilot CLI `<server>-<tool>`, Codex and Claude `mcp__<server>__<tool>`). `vocab`: the
    calling dialects' tools and MCP namings (the hook handler passes its caller's); every
    registered dialect's by default. A shell call that runs `apply_patch` with the patch in its
    text (Codex: `apply_patch <<'EOF' ... EOF`) is also the write of every path the patch names."""
    calls = _tool_calls(payload, mcp_servers, vocab)
    if any(c.cls == "mcp" for c in calls):
        # an MCP tool given a command (a shell server's `run {command}`, `exec {argv}`,
        # `start_process {command, args}`) runs it: the command is also judged as a shell call
        if isinstance(payload.get("toolCalls"), list):
            given = [tool_args(c.get("args", c.get("toolArgs"))) for c in payload["toolCalls"]
                     if isinstance(c, dict)]
        else:
            given = [tool_args(next((payload[k] for k in ("tool_input", "toolArgs", "arguments")
                                     if k in payload), None))]
        for c, args in list(zip(calls, given)):
            line = _mcp_command(args) if c.cls == "mcp" else None
            if line:
                calls.append(Call("shell", c.name, [line], cwd=_mcp_folder(args)))
    for c in list(calls):
        if c.cls == "shell":
            for text in c.subjects:
                if isinstance(text, str) and "apply_patch" in text and "*** " in text:
                    touched = patch_paths(text)
                    if touched:
                        calls.append(Call("write", c.name, touched, cwd=c.cwd))
    return calls


def _tool_calls(payload: dict, mcp_servers=(), vocab: "Vocabulary | None" = None) -> list[Call]:
    if not isinstance(payload, dict):
        return []
    vocab = vocab if vocab is not None else every_dialect()
    if isinstance(payload.get("toolCalls"), list):          # Copilot camelCase, batched
        return [classify(c.get("name") or c.get("toolName") or "",
                         tool_args(c.get("args", c.get("toolArgs"))), mcp_servers, vocab=vocab)
                for c in payload["toolCalls"] if isinstance(c, dict)]
    if "serverName" in payload and "toolName" in payload:   # Copilot preMcpToolCall
        return [Call("mcp", str(payload.get("toolName")),
                     [f"{payload.get('serverName')}/{payload.get('toolName')}"],
                     texts=_strings(tool_args(payload.get("arguments")))[:50])]
    if "toolName" in payload:                                # Copilot camelCase, one call
        return [classify(payload["toolName"], tool_args(payload.get("toolArgs")), mcp_servers,
                         vocab=vocab)]
    if "tool_name" in payload:                               # Claude, Codex, VS Code, Pascal
        srv = None
        for field in vocab[2]:      # Claude: mcp_server {name, source}; Gemini CLI:
            v = payload.get(field)  # mcp_context {server_name, tool_name, command, args}
            v = (v.get("name") or v.get("server_name")) if isinstance(v, dict) else None
            if isinstance(v, str) and v:
                srv = v
                break
        return [classify(payload["tool_name"], tool_args(payload.get("tool_input")), mcp_servers,
                         srv, vocab)]
    return []
