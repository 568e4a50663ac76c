"""How the CLIs hear a hook's decision: the facts every channel shares, and the per-dialect rows
gathered from the registered targets.

Each target's own rows (exit codes, stdout shapes, what ask becomes, which tools the path rules
see; with the CLI version verified and whether each was observed on the real CLI or comes from
the vendor's documentation only: the observed pre-tool rows are the "what denies" tables of
docs/facts/copilot.md, codex.md and claude.md, verified 2026-12-01) are its dialect module's
(core/targets/<name>/dialect.py, `Dialect`); VS Code agent mode's are core/targets/dialects.py
(VSCODE). This module only gathers them by label for the readers that list every dialect (the
Policy tab, the tests):

    PRE_TOOL[label], PROMPT[label]   the Dialect's pre_tool / prompt rows
    DIALECT_CLI[label]               (the CLI that sends it, the version verified)
    PATH_TOOLS[label]                the tools path rules are checked on

Standard library only; the hook handler itself never imports this module (it asks the calling
target's dialect directly).
"""
from __future__ import annotations

from typing import Any

from ..targets.dialects import SPECIFIC_EVENT  # noqa: F401  (the shapes' event names)

#: what `on_error` means, the same everywhere: "deny" exits 2 (a plain crash, exit 1, would let
#: the tool run in most CLIs), "allow" exits 0 and only logs
ON_ERROR_EXIT = {"deny": 2, "allow": 0}

#: What a hook-level guard does not stop, said wherever the policy is described.
LIMITS = [
    "a model that can run code as you can still reach a protected file with enough effort (a path "
    "built at run time, an encoded name, a program that reads it from its own config): the hook "
    "sees the command, not what the program does; the organisation layer, with root-owned files, "
    "is the boundary for that",
    "a `match` regex on the raw command line is evadable (quotes, variables, other spellings): "
    "use command/args rules and [[policy.paths]]",
    "a command the parser cannot resolve gets [policy] unresolved (ask by default; where a CLI "
    "has no ask, it is denied)",
]


def __getattr__(name: str):
    from ..targets import dialects

    every = dialects.every()
    value: dict[str, Any]
    if name == "PRE_TOOL":
        value = {label: d.pre_tool for label, d in every.items()}
    elif name == "PROMPT":
        value = {label: d.prompt for label, d in every.items()}
    elif name == "DIALECT_CLI":
        value = {label: (d.cli, d.verified) for label, d in every.items()}
    elif name == "PATH_TOOLS":
        value = {label: d.path_tools for label, d in every.items() if d.path_tools}
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
