"""One tool vocabulary: every dialect's tool call mapped onto shell | read | write | mcp | web.

    calls = tool_calls(payload)      # [Call(cls, name, subjects), ...]; several for a batch

A Call's `subjects` are the strings a rule's regex is searched in: the command (shell), the
path(s) (read, write: every path of an apply_patch), "server/tool" (mcp), the URL(s) (web).
Anything unrecognized is class "other" (only `tool = "any"` rules see it, searched in its name
and its string arguments).

Dialects covered (field names as the CLIs send them, see tests/fixtures/payloads/):
- Copilot camelCase: `toolName` + `toolArgs` (an object in 1.0.102, a JSON string in older
  builds), the batched `toolCalls[]` of older builds ({name, args}); tools bash, view, create,
  edit, str_replace_editor (its nested `command` decides), write_bash, fetch/web_fetch, glob,
  grep, rg (rg and glob name their directories in `paths`: a string or a list), apply_patch,
  MCP tools as `<server>-<tool>`; preMcpToolCall's `serverName`/`toolName`.
- Copilot PascalCase / Claude / Codex: `tool_name` + `tool_input`: Bash, Read, Write, Edit,
  MultiEdit, NotebookEdit, NotebookRead, Glob, Grep, LS, WebFetch, WebSearch, mcp__server__tool
  (Claude also sends `mcp_server: {name}`);
  Codex's exec_command {cmd}, shell {command: [argv]}, apply_patch {command | input | patch}.
- VS Code agent mode: run_in_terminal, create_file, replace_string_in_file,
  multi_replace_string_in_file, insert_edit_into_file, edit_notebook_file, apply_patch,
  read_file, list_dir, file_search, grep_search, fetch_webpage, mcp_<server>_<tool>.

Standard library only: the hook handler imports this on every pre-tool call.
"""
from __future__ import annotations

import json
import re

CLASSES = ("shell", "read", "write", "mcp", "web", "prompt", "other")


class Call:
    """`kind` refines a read: "search" (a recursive content search: Grep, grep, rg, search),
    "glob" (names matching a pattern; subjects = [pattern, base dir, ...]), "list" (a directory's
    names) or "" (a file). `texts`: the string arguments of an mcp or other call (for paths)."""
    __slots__ = ("cls", "name", "subjects", "kind", "texts")

    def __init__(self, cls: str, name: str, subjects: list[str], kind: str = "",
                 texts: list[str] | None = None):
        self.cls, self.name, self.subjects = cls, name, subjects
        self.kind, self.texts = kind, texts or []

    def to_json(self) -> dict:
        return {"class": self.cls, "name": self.name, "subjects": self.subjects}

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Call({self.cls!r}, {self.name!r}, {self.subjects!r})"


#: folded tool name (lower case, no "_" "-") -> class
_BY_NAME = {
    # shell
    "bash": "shell", "shell": "shell", "execcommand": "shell", "runinterminal": "shell",
    "writebash": "shell", "powershell": "shell", "localshell": "shell", "runcommand": "shell",
    "terminal": "shell", "exec": "shell", "unifiedexec": "shell",
    # read
    "read": "read", "view": "read", "readfile": "read", "notebookread": "read", "glob": "read",
    "grep": "read", "ls": "read", "listdir": "read", "filesearch": "read", "grepsearch": "read",
    "readnotebookcellOutput".lower(): "read", "search": "read", "codebase": "read", "rg": "read",
    # write
    "write": "write", "edit": "write", "multiedit": "write", "notebookedit": "write",
    "create": "write", "createfile": "write", "replacestringinfile": "write",
    "multireplacestringinfile": "write", "inserteditintofile": "write",
    "editnotebookfile": "write", "applypatch": "write", "strreplace": "write", "insert": "write",
    "createdirectory": "write", "editfile": "write", "writefile": "write",
    # web
    "webfetch": "web", "websearch": "web", "fetch": "web", "fetchwebpage": "web",
    "websearchtool": "web", "webfetchtool": "web",
}
#: str_replace_editor's nested command -> class
_EDITOR_COMMANDS = {"view": "read", "create": "write", "str_replace": "write", "insert": "write",
                    "undo_edit": "write", "delete": "write"}
_PATH_KEYS = ("file_path", "filePath", "path", "notebook_path", "notebookPath", "target_file",
              "dirPath", "directory", "filename", "file",
              "paths")    # Copilot 1.0.102 rg/glob: one directory or a list of them
_URL_KEYS = ("url", "urls", "uri", "query")
_SHELL_KEYS = ("command", "cmd", "input", "script", "commandLine", "chars")
#: patterns are compiled on first use (re's cache), not at import: the handler imports this
#: module on every pre-tool call and most calls never need them
_PATCH_FILE = (r"(?m)^\*\*\* (?:Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$"
               r"|^(?:\+\+\+|---) (?:[ab]/)?(\S.*?)\s*$")


_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def fold(name: str) -> str:
    """`name` lower-cased with everything but [a-z0-9] dropped (no regex: one compile less on
    the handler's path)."""
    return "".join(c for c in name.lower() if c in _ALNUM)


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


def patch_paths(text: str) -> list[str]:
    """Every path an apply_patch (or a unified diff) touches."""
    out: list[str] = []
    for m in re.finditer(_PATCH_FILE, text):
        p = m.group(1) or m.group(2) or m.group(3)
        if p and p != "/dev/null" and p not in out:
            out.append(p)
    return out


def _shell_subjects(args: dict) -> list[str]:
    v = None
    for k in _SHELL_KEYS:
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


#: how a read tool reads (folded name -> kind); the rest read one file
_READ_KIND = {"grep": "search", "grepsearch": "search", "rg": "search", "search": "search",
              "codebase": "search", "glob": "glob", "filesearch": "glob", "ls": "list",
              "listdir": "list"}
_PATTERN_KEYS = ("pattern", "glob", "query", "includePattern")


def _spelled(servers, clis: tuple[str, ...]) -> list[tuple[str, str]]:
    """(spelling, real name) of each known server as those CLIs spell it in a tool name
    (core/facts/mcp_names.py), longest spelling first: `a-b-x` is server `a-b`, not `a`."""
    from ..facts.mcp_names import spell
    out = {(spell(c, s), s) for s in servers if isinstance(s, str) and s for c in clis}
    return sorted(out, key=lambda p: (-len(p[0]), p))


def _mcp(name: str, servers=(), server_name: str | None = None) -> tuple[str, str] | None:
    """(server, tool) of an MCP tool name: mcp__server__tool (Claude, Codex), mcp_server_tool
    (VS Code), <server>-<tool> (Copilot CLI, for the servers the profile installs). Each CLI
    spells the names (core/facts/mcp_names.py: Codex turns `my-srv` into `my_srv`, Copilot
    `srv.v1` into `srv-v1`): a known server's spelling is mapped back to its name, and
    `server_name` (Claude's payload carries it) is the server's name as it is. The tool part
    stays as the CLI spelled it."""
    if name.startswith("mcp__"):
        rest = name[5:]
        if server_name:
            for spelling, _real in _spelled([server_name], ("claude", "codex")):
                if rest.startswith(spelling + "__"):
                    return server_name, rest[len(spelling) + 2:]
        for spelling, real in _spelled(servers, ("codex", "claude")) if servers else ():
            if rest.startswith(spelling + "__") and len(rest) > len(spelling) + 2:
                return real, rest[len(spelling) + 2:]
        server, _, tool = rest.partition("__")
        return server_name or server, tool
    for spelling, real in _spelled(servers, ("copilot",)) if servers else ():
        if name.startswith(spelling + "-") and len(name) > len(spelling) + 1:
            return real, name[len(spelling) + 1:]
    if name.startswith("mcp_") and name.count("_") >= 2:
        server, _, tool = name[4:].partition("_")
        return server, tool
    return None


def classify(name: str, args: dict, mcp_servers=(), server_name: str | None = None) -> Call:
    """One tool call as a Call. `server_name`: the MCP server the payload names (Claude)."""
    name = name if isinstance(name, str) else ""
    mcp = _mcp(name, mcp_servers, server_name)
    if mcp:
        return Call("mcp", name, [f"{mcp[0]}/{mcp[1]}"], texts=_strings(args)[:50])
    f = fold(name)
    if f == "strreplaceeditor" or (f in ("edit", "editor") and isinstance(args.get("command"), str)
                                   and args["command"] in _EDITOR_COMMANDS):
        cls = _EDITOR_COMMANDS.get(args.get("command") if isinstance(args.get("command"), str)
                                   else "", "write")
        return Call(cls, name, _first_str(args, _PATH_KEYS))
    cls = _BY_NAME.get(f, "other")
    if cls == "shell":
        return Call("shell", name, _shell_subjects(args))
    if cls == "write":
        return Call("write", name, _write_subjects(name, args))
    if cls == "read":
        kind = _READ_KIND.get(f, "")
        if kind == "glob":
            return Call("read", name, _first_str(args, _PATTERN_KEYS)[:1]
                        + _first_str(args, _PATH_KEYS), kind)      # every base directory
        return Call("read", name, _first_str(args, _PATH_KEYS), kind)
    if cls == "web":
        return Call("web", name, _first_str(args, _URL_KEYS))
    texts = _strings(args)[:50]
    return Call("other", name, [name, *texts[:20]], texts=texts)


def tool_calls(payload: dict, mcp_servers=()) -> list[Call]:
    """Every tool call a pre-tool payload carries (a batch gives several). `mcp_servers`: the
    names of the MCP servers the profile installs, which each CLI spells in its tool names
    (Copilot CLI `<server>-<tool>`, Codex and Claude `mcp__<server>__<tool>`)."""
    if not isinstance(payload, dict):
        return []
    if isinstance(payload.get("toolCalls"), list):          # Copilot camelCase, batched
        return [classify(c.get("name") or c.get("toolName") or "",
                         tool_args(c.get("args", c.get("toolArgs"))), mcp_servers)
                for c in payload["toolCalls"] if isinstance(c, dict)]
    if "serverName" in payload and "toolName" in payload:   # Copilot preMcpToolCall
        return [Call("mcp", str(payload.get("toolName")),
                     [f"{payload.get('serverName')}/{payload.get('toolName')}"],
                     texts=_strings(tool_args(payload.get("arguments")))[:50])]
    if "toolName" in payload:                                # Copilot camelCase, one call
        return [classify(payload["toolName"], tool_args(payload.get("toolArgs")), mcp_servers)]
    if "tool_name" in payload:                               # Claude, Codex, VS Code, Pascal
        srv = payload.get("mcp_server")                      # Claude: {name, source}
        srv = srv.get("name") if isinstance(srv, dict) else None
        return [classify(payload["tool_name"], tool_args(payload.get("tool_input")), mcp_servers,
                         srv if isinstance(srv, str) and srv else None)]
    return []
