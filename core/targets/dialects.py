"""Every registered target's hook dialect (core/targets/<name>/dialect.py), looked up by caller or
by label: the hook handler's and the policy's door to them. Standard library only (the handler
imports this on every call).

    s = speaker(env.get("AGENTDECK_TARGET"))   # the calling target's Speaker (or a scope's), None
    d = detect(payload, s)                       # the payload's Dialect (UNKNOWN when nobody knows)
    by_label("codex")                            # a Dialect by the label the audit record carries

A caller is named by the wrapper (core/targets/wrapper.py exports AGENTDECK_TARGET): a registered
target's name imports only that target's dialect module; any other valid name is a scope one of
them speaks for (the repository's hooks: core/targets/copilot/dialect.py). A payload the
caller's speaker leaves open is recognised by asking every registered dialect module.

The plain classes of the dialect part (Dialect, Speaker, McpNaming; the interface is
core/targets/parts/dialect.py) are defined here, beside the lookup, so the handler's hot path
imports one shared module, not two more (the parts package and its module).
"""
from __future__ import annotations

from . import registry

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from types import ModuleType
    from typing import Callable, Iterator


#: the stdout shapes a decision can take (what goes to stdout; the reason R goes to stderr too):
#:   flat      {"permissionDecision": D, "permissionDecisionReason": R}        Copilot camelCase
#:   specific  {"hookSpecificOutput": {"hookEventName": E, "permissionDecision": D,
#:              "permissionDecisionReason": R}}                                 most others
#:   block     {"decision": "block", "reason": R}                               prompt events
#:   None      no JSON: the exit code alone
SHAPES = ("flat", "specific", "block", None)
#: the event name a "specific" shape carries in hookSpecificOutput.hookEventName
SPECIFIC_EVENT = {"pre_tool_use": "PreToolUse", "user_prompt_submit": "UserPromptSubmit"}


class Dialect:
    """One payload shape and its answer channel (plain data, compared by identity).

    pre_tool   how a pre-tool call is answered:
                 deny_exit     exit code that denies
                 shape         the stdout JSON that carries the reason to the model (SHAPES)
                 crash_denies  what a crash (exit 1) does: True blocks, False lets the tool run,
                               None unknown
                 ask           "ask" when the CLI honours a permissionDecision of ask, else what
                               it becomes
                 ask_note      what ask does there, in a sentence
                 ask_at        optional {event as the CLI names it: what ask becomes there}
                               for events where the CLI cannot wait for the user
                 source        observed | documented
    prompt     how a prompt is blocked: exit (the exit code with the block), shape, source, and
               optionally shown: what the CLI prints about it ("reason": the block's reason,
               other text: those words, "": nothing)
    path_tools which of its tools the path rules ([[policy.paths]]) are checked on, as text:
               {"read": ..., "write": ..., "shell": ...}
    events     (pre-tool event, prompt event) as the hooks are registered for this dialect
    tools      the tools this dialect's payloads name beyond its module's TOOLS (same shape:
               folded name -> (class, kind)); for a reader several modules rely on (VSCODE) or
               a second dialect of one CLI (Copilot's PascalCase payloads)
    mcp_names  how this dialect names an MCP tool (McpNaming) when it differs from its
               module's MCP_NAMES; None: the module's
    """
    __slots__ = ("label", "cli", "verified", "pre_tool", "prompt", "path_tools", "events",
                 "tools", "mcp_names")

    def __init__(self, label: str, cli: str, verified: str, pre_tool: dict, prompt: dict,
                 path_tools: dict | None = None,
                 events: tuple[str, str] = ("PreToolUse", "UserPromptSubmit"),
                 tools: "dict[str, tuple[str, str]] | None" = None,
                 mcp_names: "McpNaming | None" = None) -> None:
        self.label, self.cli, self.verified = label, cli, verified
        self.pre_tool, self.prompt, self.path_tools = pre_tool, prompt, path_tools or {}
        self.events, self.tools, self.mcp_names = events, tools or {}, mcp_names

    def __repr__(self) -> str:
        return f"Dialect({self.label!r})"


class Speaker:
    """The hooks registered for one caller (a target, or a scope such as a repository).

    spoken       the dialects those hooks receive, in the order the Policy tab lists them; the
                 first one answers a payload that says nothing about itself
    detect       payload -> the Dialect it is, or None to leave it to every dialect's recognise()
    policy_file  where that caller's hooks read the compiled policy, relative to the hook's
                 working folder (a repository's committed one); None: the state dir's
                 policy/<caller>.json
    """
    __slots__ = ("spoken", "detect", "policy_file")

    def __init__(self, spoken: tuple, detect: "Callable[[dict], Dialect | None]",
                 policy_file: str | None = None) -> None:
        self.spoken, self.detect, self.policy_file = spoken, detect, policy_file

    @property
    def default(self) -> Dialect:
        return self.spoken[0]


class McpNaming:
    """How a CLI's pre-tool hook names an MCP tool (observed; core/targets/<name>/dialect.py).

    prefix, sep    the tool name is prefix + spelled server + sep + spelled tool
    keep, sub      every character outside the class `keep` (a regex class body) becomes `sub`,
                   in the server's name and the tool's alike; keep None: not spelled (the names
                   as they are, unknown to agentdeck)
    guess          how far the name alone says it is an MCP tool: "sure" (the prefix says it and
                   the separator splits it), "servers" (only a known server's spelling says it:
                   no prefix), "loose" (a prefix, but the split is a guess at the first sep);
                   the vocabulary tries sure forms, then known servers, then loose guesses
    server_field   a payload field carrying the server's real name ({name, ...}), if any
    hashed         None, or the longest name the CLI keeps: a whole name that had to be spelled
                   (a character outside `keep`) or is longer than that gets `_<hash>` appended
                   (the 32-bit FNV-1a of the unspelled name over its UTF-16 code units, base
                   36, 7 digits) and is cut to that length, the suffix kept (Qwen Code: 63)
    """
    __slots__ = ("form", "prefix", "sep", "keep", "sub", "guess", "server_field", "verified",
                 "source", "note", "hashed")

    def __init__(self, prefix: str, sep: str, keep: str | None, sub: str, guess: str,
                 server_field: str | None = None, verified: str = "", source: str = "observed",
                 note: str = "", hashed: int | None = None) -> None:
        self.prefix, self.sep, self.keep, self.sub, self.guess = prefix, sep, keep, sub, guess
        self.server_field, self.verified, self.source, self.note = (server_field, verified,
                                                                    source, note)
        self.hashed = hashed
        self.form = prefix + "{server}" + sep + "{tool}"

    def spell(self, name: str) -> str:
        """`name` (a server's or a tool's) as the CLI spells it in an MCP tool name."""
        if self.keep is None:
            return name
        import re
        return re.sub(f"[^{self.keep}]", self.sub, name)

    def tool_name(self, server: str, tool: str) -> str:
        """The name the CLI's pre-tool hook sees for `tool` of `server`."""
        spelled = f"{self.prefix}{self.spell(server)}{self.sep}{self.spell(tool)}"
        if self.hashed is None:
            return spelled
        raw = f"{self.prefix}{server}{self.sep}{tool}"
        if spelled == raw and len(raw) <= self.hashed:
            return spelled
        suffix = "_" + name_hash(raw)
        return spelled[:self.hashed - len(suffix)] + suffix


def name_hash(name: str) -> str:
    """The 7-digit base-36 FNV-1a (32-bit) of `name`'s UTF-16 code units (McpNaming.hashed)."""
    h = 2166136261
    data = name.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        h = ((h ^ (data[i] | data[i + 1] << 8)) * 16777619) & 0xFFFFFFFF
    digits = ""
    while h:
        h, r = divmod(h, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[r] + digits
    return digits.rjust(7, "0")


#: a payload nobody recognises: exit 2 is the one deny every CLI honours
UNKNOWN = Dialect(
    "unknown", "", "",
    pre_tool={"deny_exit": 2, "shape": None, "crash_denies": None, "ask": "deny",
              "ask_note": "an unrecognized payload: exit 2, the one channel every CLI honours",
              "source": "observed"},
    prompt={"exit": 2, "shape": None, "source": "documented"})


# ---- payload evidence the dialect modules share (plain functions of the payload) --------------
#: fields only Copilot's camelCase payloads carry
CAMEL_FIELDS = ("toolCalls", "toolName", "toolArgs", "toolResult")
#: the snake_case fields of Claude Code's hook schema (Claude, Codex, Copilot PascalCase, VS Code)
SNAKE_FIELDS = ("hook_event_name", "session_id", "tool_name", "transcript_path")


def camel(p: dict) -> bool:
    return any(k in p for k in CAMEL_FIELDS)


def snake(p: dict) -> bool:
    return any(k in p for k in SNAKE_FIELDS)


def best(*found: "tuple[int, Dialect] | None") -> "tuple[int, Dialect] | None":
    """The most specific of some recognise() answers (the first of equal scores)."""
    out = None
    for f in found:
        if f is not None and (out is None or f[0] > out[0]):
            out = f
    return out


def iso_time(p: dict) -> bool:
    """An ISO timestamp string (Copilot PascalCase, VS Code), not Copilot camelCase's number."""
    return isinstance(p.get("timestamp"), str)


# ---- VS Code agent mode: a reader shared by several targets ---------------------------------
# It reads Claude Code's settings files and a repository's hook files (.github/hooks), and is
# not a target of its own; its facts are documented only (VS Code's agent hooks, preview: no
# real VS Code ran here). It sends its own payload: `hookEventName`, `sessionId`, an ISO
# `timestamp`, and `tool_name` / `tool_input` with VS Code's tool ids (run_in_terminal, ...).
# Defined here, beside the shared classes, so the handler imports no module more for it.
#: `mcp_<server>_<tool>`: how VS Code spells the names is not known, so the first `_` splits
VSCODE_MCP_NAMES = McpNaming("mcp_", "_", None, "_", "loose", source="documented")
#: VS Code's tool ids (folded, as TOOLS in core/targets/parts/dialect.py)
VSCODE_TOOLS = {
    "runinterminal": ("shell", ""),
    "readfile": ("read", ""), "readnotebookcelloutput": ("read", ""),
    "listdir": ("read", "list"), "filesearch": ("read", "glob"),
    "grepsearch": ("read", "search"), "codebase": ("read", "search"),
    "createfile": ("write", ""), "replacestringinfile": ("write", ""),
    "multireplacestringinfile": ("write", ""), "inserteditintofile": ("write", ""),
    "editnotebookfile": ("write", ""),
    "fetchwebpage": ("web", ""),
}
VSCODE = Dialect(
    "vscode", "vscode", "agent mode, hooks preview (documented only)",
    pre_tool={"deny_exit": 2, "shape": "specific", "crash_denies": False, "ask": "ask",
              "ask_note": "VS Code prompts the user; under Autopilot it answers itself",
              "source": "documented"},
    prompt={"exit": 2, "shape": "block", "source": "documented"},
    path_tools={"read": "read_file, grep_search, file_search",
                "write": "create_file, replace_string_in_file, apply_patch",
                "shell": "run_in_terminal"},
    tools=VSCODE_TOOLS, mcp_names=VSCODE_MCP_NAMES)


def recognise_vscode(p: dict) -> tuple[int, Dialect] | None:
    if "hookEventName" in p:
        return 90, VSCODE
    if iso_time(p) and "sessionId" in p:
        return 50, VSCODE
    return None


# ---- names as the handler and the vocabulary compare them -------------------------------
_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def fold(name: str) -> str:
    """`name` lower-cased with everything but [a-z0-9] dropped (no regex: one compile less on
    the handler's path). A name of ASCII letters, digits, `_` and `-` (every event and tool
    name the CLIs send) takes the string methods' quick path, not a loop over its characters."""
    low = name.lower()
    quick = low.replace("_", "").replace("-", "")
    if quick.isascii() and quick.isalnum():
        return quick
    return "".join(c for c in low if c in _ALNUM)


# ---- the lookup ------------------------------------------------------------------------------
#: the characters of a caller's name (checked without a regex: one compile less per hook call)
_NAME = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


def valid_name(caller: object) -> bool:
    """A caller's name as the wrapper exports it: [a-z0-9_]+ (nothing else is looked up)."""
    return isinstance(caller, str) and bool(caller) and all(c in _NAME for c in caller)


def module(name: str) -> "ModuleType | None":
    """Target `name`'s dialect module, or None when it is not registered or has none. Imports
    that one target's package only."""
    if name not in registry.BUILTIN:
        return None
    wanted = f"{registry.package(name)}.dialect"
    try:
        return registry.part(name, "dialect")
    except ModuleNotFoundError as e:
        if e.name == wanted:
            return None
        raise


def part_modules() -> list[str]:
    """The module names of every registered target's dialect part (what the handler may import
    by name; the org layer's handler copy, core/org/handler.py, takes them along)."""
    return [f"{registry.package(n)}.dialect" for n in registry.BUILTIN
            if registry.has_part(n, "dialect")]


#: (the registry's BUILTIN, its targets' dialect modules) as last looked up: a hook call whose
#: caller says nothing asks for every module more than once (detect, readers, by_label)
_EVERY: list = [None, ()]


def modules() -> "Iterator[ModuleType]":
    """Every registered target's dialect module, in the registry's order."""
    if _EVERY[0] is not registry.BUILTIN:
        _EVERY[:] = [registry.BUILTIN, tuple(m for m in map(module, registry.BUILTIN)
                                             if m is not None)]
    return iter(_EVERY[1])


def owner(caller: str | None) -> str | None:
    """The registered target whose dialect module speaks for `caller` (itself, or the target
    whose CLI reads a scope's hooks), or None."""
    if not valid_name(caller):
        return None
    if caller in registry.BUILTIN:
        m = module(caller)
        return caller if m is not None and caller in m.SPEAKERS else None
    for name in registry.BUILTIN:         # a scope a target's CLI speaks for
        m = module(name)
        if m is not None and caller in m.SPEAKERS:
            return name
    return None


def speaker(caller: str | None) -> Speaker | None:
    """The Speaker of the hooks registered for `caller` (AGENTDECK_TARGET), or None."""
    name = owner(caller)
    m = module(name) if name is not None else None
    return m.SPEAKERS[caller] if m is not None and caller is not None else None


def detect(payload: dict, caller: Speaker | None = None) -> Dialect:
    """The dialect of `payload`: the caller's speaker says, else every registered dialect."""
    if not payload:
        return UNKNOWN
    if caller is not None:
        d = caller.detect(payload)
        if d is not None:
            return d
    found = best(*(m.recognise(payload) for m in modules()))
    return found[1] if found else UNKNOWN


def by_label(label: str | None, caller: Speaker | None = None) -> Dialect:
    """The Dialect the audit record names `label` (UNKNOWN for a label nobody defines)."""
    for d in caller.spoken if caller is not None else ():
        if d.label == label:
            return d
    for m in modules():
        for d in m.DIALECTS:
            if d.label == label:
                return d
    return UNKNOWN


def channel(label: str | None, caller: Speaker | None) -> Dialect:
    """The dialect a decision is answered in: the payload's, or the caller's default when the
    payload said nothing."""
    if label in (None, UNKNOWN.label):
        return caller.default if caller is not None else UNKNOWN
    return by_label(label, caller)


def policy_path(env, state_dir: str) -> str:
    """Where the calling hooks' compiled policy (core/policy/compiled.py) is: AGENTDECK_POLICY,
    else the file the caller's speaker names (a repository's hooks: the policy committed beside
    them, relative to the hooks' cwd), else the state dir's policy/<caller>.json."""
    explicit = env.get("AGENTDECK_POLICY")
    if explicit:
        return explicit
    import os

    target = env.get("AGENTDECK_TARGET") or ""
    s = speaker(target)
    if s is not None and s.policy_file:
        return s.policy_file
    return os.path.join(state_dir, "policy", f"{target if valid_name(target) else 'unknown'}.json")


def every() -> dict[str, Dialect]:
    """label -> Dialect for every registered target's dialects, UNKNOWN last."""
    out: dict[str, Dialect] = {}
    for m in modules():
        for d in m.DIALECTS:
            out.setdefault(d.label, d)
    out[UNKNOWN.label] = UNKNOWN
    return out


def speakers() -> dict[str, Speaker]:
    """caller -> Speaker: every registered target and every scope one of them speaks for."""
    out: dict[str, Speaker] = {}
    for m in modules():
        for caller, s in m.SPEAKERS.items():
            out.setdefault(caller, s)
    return out


def readers(caller: str | None, label: str | None) -> "list[ModuleType]":
    """The dialect modules whose tools and MCP names classify a call (core/policy/vocabulary.py
    Vocabulary.of): the one that speaks for `caller` when the payload's dialect `label` is one
    of its DIALECTS, else every registered one (no caller named, or another CLI's payload)."""
    if not caller:
        return list(modules())
    name = caller if caller in registry.BUILTIN else owner(caller)
    m = module(name) if name is not None else None
    if m is not None and caller in m.SPEAKERS:
        for d in m.DIALECTS:
            if d.label == label:
                return [m]
    return list(modules())
