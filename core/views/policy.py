"""The Policy tab's view of one target: the profile's guardrail rules and how that CLI enforces
each (built from core.policy.enforcement.describe()'s data)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .info import mapping, rows, strs

#: readers that are not targets, by the name the operator knows them
OTHER_CLIS = {"vscode": "VS Code"}


def cli_name(name: str | None) -> str:
    """A CLI as the operator knows it ("GitHub Copilot CLI"), never a payload dialect's id."""
    from ..targets import registry

    if not name:
        return "?"
    return OTHER_CLIS.get(name) or registry.title(name)


def verified_line(verified: dict) -> str:
    """`{"copilot-camel": "1.0.102", "copilot-pascal": "1.0.102"}` as "GitHub Copilot CLI
    1.0.102": one entry per CLI and version (the dialects are how one CLI sends its hooks)."""
    from ..facts.hook_channels import DIALECT_CLI

    shown = [f"{cli_name(DIALECT_CLI.get(d, (d, ''))[0])} {v}" for d, v in verified.items()]
    return ", ".join(dict.fromkeys(shown))


@dataclass(frozen=True)
class Channel:
    """How one CLI enforces a command rule: the event, how it denies, what ask becomes."""
    cli: str                        # the CLI's name as shown
    event: str
    how: str
    ask_becomes: str = ""
    note: str = ""


@dataclass(frozen=True)
class PathLayer:
    """Who enforces a path rule in one CLI: its hook (per tool), its own layer, and its sandbox
    where that is a layer of its own ("" where the CLI has none agentdeck writes)."""
    cli: str
    tools: str                      # "read: ...; write: ...; shell: ..."
    native: str
    floor: str = ""


@dataclass(frozen=True)
class PathRule:
    id: str
    decision: str
    access: tuple[str, ...]
    paths: tuple[str, ...]
    excepted: tuple[str, ...] = ()
    reason: str = ""
    enforced_by: tuple[PathLayer, ...] = ()


@dataclass(frozen=True)
class CommandRule:
    id: str
    decision: str
    tool: str = "any"
    command: tuple[str, ...] = ()   # argv rule: the program names
    args: tuple[str, ...] = ()
    match: str = ""                 # regex rule
    covers: str = ""
    reason: str = ""
    channels: tuple[Channel, ...] = ()


@dataclass(frozen=True)
class PolicyView:
    on_error: str = "?"
    on_error_exit: int | None = None
    on_error_meaning: str = ""
    verified: str = ""              # "GitHub Copilot CLI 1.0.102"
    paths: tuple[PathRule, ...] = ()
    rules: tuple[CommandRule, ...] = ()
    unresolved: str = "ask"
    self_protection: str = ""
    caveats: tuple[str, ...] = ()
    limits: tuple[str, ...] = ()


def _path_rule(r: dict) -> PathRule:
    layers = []
    for e in rows(r.get("enforced_by")):
        tools = mapping(e.get("tools"))
        layers.append(PathLayer(cli=cli_name(e.get("cli")),
                                tools="; ".join(f"{k}: {v}" for k, v in tools.items() if v),
                                native=str(e.get("native") or ""),
                                floor=str(e.get("floor") or "")))
    return PathRule(id=str(r.get("id") or "?"), decision=str(r.get("decision") or "?"),
                    access=strs(r.get("access")), paths=strs(r.get("paths")),
                    excepted=strs(r.get("except")), reason=str(r.get("reason") or ""),
                    enforced_by=tuple(layers))


def _command_rule(r: dict) -> CommandRule:
    cmd = r.get("command")
    names = strs(cmd) if isinstance(cmd, list) else ((str(cmd),) if cmd else ())
    return CommandRule(
        id=str(r.get("id") or "?"), decision=str(r.get("decision") or "?"),
        tool=str(r.get("tool", "any")), command=names, args=strs(r.get("args")),
        match=str(r.get("match") or ""), covers=str(r.get("covers") or ""),
        reason=str(r.get("reason") or ""),
        channels=tuple(Channel(cli=cli_name(c.get("cli") or c.get("dialect")),
                               event=str(c.get("event", "")), how=str(c.get("how") or ""),
                               ask_becomes=str(c.get("ask_becomes") or ""),
                               note=str(c.get("note") or ""))
                       for c in rows(r.get("channels"))))


def of(data: Any) -> PolicyView:
    """describe()'s data for one target as the tab's view."""
    d = data if isinstance(data, dict) else {}
    on_error = mapping(d.get("on_error"))
    verified = mapping(d.get("verified"))
    exit_ = on_error.get("exit")
    return PolicyView(
        on_error=str(on_error.get("value", "?")),
        on_error_exit=exit_ if isinstance(exit_, int) else None,
        on_error_meaning=str(on_error.get("meaning") or ""),
        verified=verified_line(verified) if verified else "",
        paths=tuple(_path_rule(r) for r in rows(d.get("paths"))),
        rules=tuple(_command_rule(r) for r in rows(d.get("rules"))),
        unresolved=str(d.get("unresolved") or "ask"),
        self_protection=str(d.get("self_protection") or ""),
        caveats=strs(d.get("caveats")), limits=strs(d.get("limits")))


def for_plan(host: Any, profile: str, targets: list[str]) -> dict[str, PolicyView] | None:
    """The Policy tab's view per target, or None when this build has no guardrail policy."""
    try:
        from ..policy.compiled import policy_of
        from ..policy.enforcement import describe
    except ImportError:
        return None
    from .. import profiles

    pol = policy_of(profiles.resolve(host, profile))
    return {t: of(describe(pol, t)) for t in targets}
