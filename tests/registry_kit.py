"""Per-target test data read from the registry and each target's parts, so a test parametrized
over core.targets.registry covers every target (tests/unit/test_target_lists_in_tests.py)
without naming one.

    HOOKED                         registered targets whose hooks speak a dialect (shell hooks)
    PROMPTED                       those whose hooks also see the operator's prompt
    shell_payload(t, "ls")         (event, payload) of t's main shell tool running `ls`, as its
                                   hooks send it (the `agentdeck policy test` templates)
    pre_event(t)                   the event agentdeck's handler is run with for t's pre-tool call
    deny_exit(t)                   the exit code t's hooks deny with (Qwen's: 0 and JSON)
    denied(t, code, stdout)        whether t's CLI reads that answer as a deny
    mcp_key(t)                     the key t's MCP file holds its servers under
    settings_file(t)               t's own settings file, relative to the home
"""
from __future__ import annotations

import json

from agentdeck.core.policy.payloads import shapes
from agentdeck.core.targets import dialects, registry
from agentdeck.core.targets.spec import PLUGIN

HOOKED = [n for n in registry.NAMES if registry.has_part(n, "dialect")]


def dialect(target: str) -> dialects.Dialect:
    """The dialect target's own hooks speak first (its Speaker's default)."""
    s = dialects.speaker(target)
    assert s is not None, f"{target} has no dialect part"
    return s.default


#: the targets whose hooks see the operator's prompt (OpenCode's plugin sees tool calls only)
PROMPTED = [n for n in HOOKED if dialect(n).events[1]]


def shell_payload(target: str, command: str) -> tuple[str, dict]:
    """(event, payload) of a call of `target`'s main shell tool (its dialect's first shell
    template) running `command`."""
    label = dialect(target).label
    for lbl, caller, event, payload in shapes("shell", command):
        if caller == target and lbl.startswith(f"{label}:"):
            return event, payload
    raise AssertionError(f"no shell payload template for {target}")


def pre_event(target: str) -> str:
    """The event agentdeck's handler is run with for a pre-tool call of `target`: its hooks'
    own event (the dialect's first), or, for an in-process plugin, which runs agentdeck's
    wrapper for agentdeck's canonical event (OpenCode's tool.execute.before runs it for
    pre_tool_use), the canonical one."""
    return "pre_tool_use" if registry.spec(target).enforcement == PLUGIN \
        else dialect(target).events[0]


def deny_exit(target: str) -> int:
    return int(dialect(target).pre_tool["deny_exit"])


def denied(target: str, code: int, stdout: str) -> bool:
    """Whether `target`'s CLI takes (exit code, stdout) as a deny of a pre-tool call: its deny
    exit with, for a CLI that denies with exit 0, the decision in the JSON it reads."""
    if code != deny_exit(target):
        return False
    if code != 0:
        return True
    try:
        doc = json.loads(stdout)
    except ValueError:
        return False
    row = doc.get("hookSpecificOutput", doc) if isinstance(doc, dict) else {}
    return isinstance(row, dict) and row.get("permissionDecision") == "deny"


def wrapper_of(host, target: str):
    """Where agentdeck's hook wrapper for `target` is on `host`: in the target's home, under
    the one name every hooked target gives it (core/targets/checks/hook_commands.py)."""
    from agentdeck.core.targets.checks.hook_commands import WRAPPER_NAME
    from tests.target_homes import target_home

    return target_home(host, target) / WRAPPER_NAME


def pairs(names: list[str]) -> list[tuple[str, str]]:
    """A sample of ordered pairs of `names` that grows linearly, not factorially, and drops no
    name: each one with its neighbours in the list (cyclically), in both orders. With two names,
    both orders of the one pair."""
    n = len(names)
    if n < 2:
        return []
    out: list[tuple[str, str]] = []
    for i in range(n if n > 2 else 1):
        a, b = names[i], names[(i + 1) % n]
        for p in ((a, b), (b, a)):
            if p not in out:
                out.append(p)
    return out


def home_files(target: str) -> tuple[list[str], str | None]:
    """(the files `target`'s default plan reads and edits in place on an empty home -- its
    key and block items' files --, the file its hooks are registered in), relative to the
    home. Planned on a scratch home (no CLI home variables), so usable at collection."""
    import tempfile
    from pathlib import Path

    from agentdeck.core import engine
    from agentdeck.core.host import Host

    with tempfile.TemporaryDirectory() as d:
        root = Path(d).resolve()
        h = Host.from_environment(root, env={"PATH": "/usr/bin:/bin"})
        plan = engine.build_plan(h, "default", [target])
        under = [Path(i.path) for i in plan.items if i.kind in ("key", "block")]
        files = sorted({str(p.relative_to(root)) for p in under if p.is_relative_to(root)})
        hooks = plan.output[target].hooks
        f = hooks.file if hooks is not None else None
        return files, str(Path(f).relative_to(root)) if f else None


def plan_paths(target: str) -> dict[str, str]:
    """label -> the path (relative to the home) of each item of `target`'s default plan on an
    empty scratch home ("persona", ...), and "mcp" -> the file its MCP servers are written in."""
    import tempfile
    from pathlib import Path

    from agentdeck.core import engine
    from agentdeck.core.host import Host

    with tempfile.TemporaryDirectory() as d:
        root = Path(d).resolve()
        h = Host.from_environment(root, env={"PATH": "/usr/bin:/bin"})
        plan = engine.build_plan(h, "default", [target])
        out = {i.label: str(Path(i.path).relative_to(root)) for i in plan.items
               if Path(i.path).is_relative_to(root)}
        mcp = plan.output[target].mcp
        if mcp is not None and mcp.file:
            out["mcp"] = str(Path(mcp.file).relative_to(root))
        return out


def mcp_key(target: str) -> tuple[str, ...]:
    """The key under which `target`'s MCP file holds its servers ("mcpServers", Codex's
    "mcp_servers", OpenCode's "mcp"): the parent key of a profile server's item in its
    default plan on an empty scratch home."""
    import tempfile
    from pathlib import Path

    from agentdeck.core import engine
    from agentdeck.core.host import Host

    with tempfile.TemporaryDirectory() as d:
        h = Host.from_environment(Path(d).resolve(), env={"PATH": "/usr/bin:/bin"})
        plan = engine.build_plan(h, "default", [target])
        keys = {tuple(i.key[:-1]) for i in plan.items if i.group == "mcp" and i.kind == "key"
                and i.label.startswith("MCP server ")}
    assert len(keys) == 1, f"{target}: its MCP servers are not under one key: {keys}"
    return keys.pop()


def settings_file(target: str) -> str:
    """`target`'s own settings file (the first of the CLI files its spec lets a profile carry:
    settings.json, config.toml, opencode.json), relative to the home."""
    s = registry.spec(target)
    return f"{s.home_dirname}/{s.profile_files[0]}"
