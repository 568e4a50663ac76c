"""Every registered target's pre-tool and prompt payload templates, for `agentdeck policy test`.

A template builds the payload a CLI sends when it calls a tool of one class on one subject
(the command, path, "server/tool" or URL of a rule example). Each target's policy part
(core/targets/<name>/policy.py PRE_TOOL and PROMPTS; interface core/targets/parts/policy.py,
shapes in core/policy/templates.py) holds its own, and those of the scopes its dialect module
speaks for (the repository's hooks: Copilot's PascalCase and VS Code's); this module gathers
them in the registry's order. The captured fixtures in tests/fixtures/payloads/ are checked
against the templates by tests/unit/test_policy_payloads.py.

    for label, caller, event, payload in shapes("shell", "git push --force"): ...
"""
from __future__ import annotations

from typing import Any, Iterator

from ..targets import registry
from .templates import CWD, S, PreToolTemplate, PromptTemplate

__all__ = ["CWD", "S", "pre_tool", "prompts", "shapes", "tool_shapes"]

_CACHE: dict[str, dict[str, Any]] = {}


def _gather(attr: str) -> dict[str, Any]:
    if attr not in _CACHE:
        out: dict[str, Any] = {}
        for name in registry.BUILTIN:
            if registry.has_part(name, "policy"):
                for label, t in getattr(registry.part(name, "policy"), attr, {}).items():
                    out.setdefault(label, t)
        _CACHE[attr] = out
    return _CACHE[attr]


def pre_tool() -> dict[str, PreToolTemplate]:
    """template label -> PreToolTemplate, every registered target's, in the registry's order."""
    return _gather("PRE_TOOL")


def prompts() -> dict[str, PromptTemplate]:
    """dialect label -> PromptTemplate, every registered target's."""
    return _gather("PROMPTS")


def __getattr__(attr: str) -> Any:
    """DIALECTS: template label -> (caller, event, build), as `policy test` runs them."""
    if attr == "DIALECTS":
        return {label: (t.caller, t.event, t.build) for label, t in pre_tool().items()}
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


def _mcp(subject: str) -> tuple[str, str]:
    server, _, tool = subject.partition("/")
    return server, tool or "tool"


def tool_shapes(form: str, subject: str) -> Iterator[tuple[str, str, str, dict]]:
    """(template label:tool, caller, event, payload) for every way each template sends a call
    of `form` (a class, or a corpus form: search, glob, mcp-path) on `subject`."""
    for label, t in pre_tool().items():
        if form == "mcp":
            server, tool = _mcp(subject)
            for name_of in t.mcp:
                name, extra = name_of(server, tool)
                yield f"{label}:{name}", t.caller, t.event, {**t.build(name, {}), **extra}
            continue
        for name, args in t.tools.get(form, []):
            yield f"{label}:{name}", t.caller, t.event, t.build(name, args(subject))


def shapes(cls: str, subject: str) -> Iterator[tuple[str, str, str, dict]]:
    """(dialect label, caller, event, payload) for every way each dialect sends a call of
    `cls` on `subject`; for cls "any", the shell shapes (an example is a command)."""
    if cls == "prompt":
        for label, p in prompts().items():
            yield label, p.caller, p.event, p.build(subject)
        return
    yield from tool_shapes("shell" if cls == "any" else cls, subject)


def channel_label(label: str) -> str:
    """The Dialect label whose channel answers a shape's label ("<template>:<tool>")."""
    base = label.split(":", 1)[0]
    t = pre_tool().get(base) or prompts().get(base)
    return t.dialect if t is not None else base
