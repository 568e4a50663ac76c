"""The `policy` part: what `agentdeck policy show` and `policy test` say and try per target.

core/targets/<name>/policy.py provides (module attributes):

    CAVEATS    {caller: [str]}: what the Policy tab says about enforcement in the hooks of the
               target (and of every scope its dialect module speaks for, core/targets/parts/
               dialect.py SPEAKERS), plain text
    NATIVE_DENY (optional) NativeDeny (core/targets/path_spelling.py): the CLI's own deny for
               file paths, the one that holds without agentdeck's hook: the facts observed about
               it (NativeFact: claim, observed | documented, the version verified; kept in the
               package's facts.py), the version they were verified for, whether agentdeck writes
               a [[policy.paths]] deny rule into it (True, "conditional" with `why` saying when,
               or False with `why` saying why not), the layer's name, and `translate(rule)` ->
               Translation, the layer's entries for one rule (the package's permissions.py).
               core/native_layers.py reads it for `policy show` and the Policy tab
    GUARDED    (optional) the CLI's files the built-in rule agentdeck-self keeps an agent from
               writing, beside agentdeck's own (core/policy/compiled.py self_protection): a
               path relative to the target's home (the settings its hooks are in, agentdeck's
               wrapper there), or a glob starting with `**/` for a file the CLI reads from any
               working folder (a project settings file that can switch the hooks off)
    STARTS     (optional) the CLI's files that name programs it starts by itself at its next
               start (MCP servers, plugins, extensions), in GUARDED's forms (or an absolute
               glob: the system-wide managed folder): a model's write there would run code
               outside any hook, so they are in GUARDED too
    guarded_paths (optional) host -> [Path]: guarded files whose place is not under the
               target's home (Claude Code's ~/.claude.json beside ~/.claude)
    FLOOR      (optional) NativeDeny, as NATIVE_DENY, for the CLI's sandbox where it is a layer
               of its own beside the path deny (Claude Code's sandbox.filesystem lists): `policy
               show` prints its entries per rule as "<cli> sandbox: ..."
    RUNTIME_FLOOR (optional) what stops code that builds its own paths at run time
               (`python3 -c "open(chr(47)+...)"`), which no hook can read: the layer below the
               hook that holds for it, as observed for the version named, or absent: "nothing"
               (`policy show` says so per CLI)
    PRE_TOOL   {template label: PreToolTemplate}: how each dialect the target's hooks (and the
               scopes it speaks for) receive sends a pre-tool call, for `policy test`:
                 dialect  the Dialect label whose channel answers it
                 caller   AGENTDECK_TARGET of those hooks (the target, or the scope: "repo")
                 event    the pre-tool event as registered
                 build    (tool name, args) -> payload, with the fields the real CLI sent
                 tools    {form: [(tool name, args of a subject)]}: forms shell, read, write, web
                          and the evasion corpus's search, glob, mcp-path, dir-read, dir-write
                          (a shell tool's own folder argument, Qwen's `directory`; a form with
                          no tool: absent; Codex has no read tool)
                 mcp      [(server, tool) -> (tool name, extra payload fields)]: how it names an
                          MCP tool (templates.spelled(MCP_NAMES) for the CLI's own spelling)
               A label is "<dialect label>" or "<dialect label>-<variant>" (older builds'
               shapes); `policy test` names each case "<label>:<tool name>".
    PROMPTS    {dialect label: PromptTemplate(dialect, caller, event, build(prompt) -> payload)}

The shapes and the shared builders (snake: Claude Code's hook schema, snake_prompt, patch,
named, spelled; the session id S and working folder CWD every template carries) are
core/policy/templates.py, re-exported here; core/policy/payloads.py gathers every registered
target's templates in the registry's order. A target without the part gets no caveats and no
`policy test` cases (its rules are still enforced by the handler).

The hook handler never imports a policy part: its own facts are the dialect part's.
"""
from __future__ import annotations

from ...policy.templates import (  # noqa: F401  (the part's shapes and shared builders)
    CWD, PROMPT_CWD, S, McpForm, PreToolTemplate, PromptTemplate, ToolForm, named, patch, snake,
    snake_prompt, spelled)
from ..path_spelling import NativeDeny, NativeFact, Translation  # noqa: F401  (NATIVE_DENY)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from typing import Protocol

    class PolicyModule(Protocol):
        """What core/targets/<name>/policy.py provides."""
        @property
        def CAVEATS(self) -> dict[str, list[str]]: ...
        @property
        def PRE_TOOL(self) -> dict[str, PreToolTemplate]: ...
        @property
        def PROMPTS(self) -> dict[str, PromptTemplate]: ...
