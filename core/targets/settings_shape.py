"""The settings.json shape Gemini CLI and its fork Qwen Code share, besides its MCP off switch
(mcp_excluded.py): an mcpServers entry made from a profile server, and the persona file that
`context.fileName` may leave unread. Each adapter passes its title and its words (how it expands
a variable); the rules are written once here."""
from __future__ import annotations

from typing import Any, Protocol

from ..model import McpServer
from ..secrets import scan_value
from .mcp_excluded import get, names

#: a profile server's fields only Copilot reads: dropped here, with a warning
NOT_CARRIED_MCP_FIELDS = ("tools", "timeout", "auth", "oidc")


def not_carried(srv: Any) -> list[str]:
    """The fields of a profile server only Copilot reads that this one sets (a `tools` of
    ["*"] is every tool, which is what every other CLI does anyway)."""
    return [f for f in NOT_CARRIED_MCP_FIELDS
            if getattr(srv, f) not in (None, False) and not (f == "tools" and srv.tools == ["*"])]


#: the entry's fields scanned for literal credentials
SCANNED_FIELDS = ("command", "args", "env", "url", "httpUrl", "headers")


class PersonaFacts(Protocol):
    @property
    def persona_file(self) -> str: ...
    @property
    def persona_name_key(self) -> tuple[str, ...]: ...


def translate_mcp(name: str, srv: McpServer, title: str,
                  expands: str) -> tuple[dict | None, list[str], list[str]]:
    """(the settings.json mcpServers entry or None, warnings, secret hits) for one neutral
    server: stdio {command, args, env}; a remote one `url` (SSE) or `httpUrl` (streamable HTTP)
    with `headers`. `expands`: the variable reference the CLI expands, said where a literal
    credential is found ('"$VAR" (Gemini expands it)')."""
    warnings: list[str] = []
    problem = srv.check()
    if problem:
        return None, [f"MCP server {name}: {problem}; not written"], []
    t = srv.transport
    out: dict[str, Any] = {}
    if t == "stdio":
        out["command"] = srv.command
        if srv.args:
            out["args"] = list(srv.args)
        if srv.env:
            out["env"] = dict(srv.env)
    else:
        out["httpUrl" if t == "http" else "url"] = srv.url
        if srv.headers:
            out["headers"] = dict(srv.headers)
    dropped = not_carried(srv)
    if dropped:
        warnings.append(f"MCP server {name}: {', '.join(dropped)} are Copilot settings; not "
                        f"written for {title}")
    for k, v in (srv.model_extra or {}).items():
        if k not in ("type", "disabled", "enabled"):
            out.setdefault(k, v)
    hits = [f"{h.where}: {h.kind} ({h.excerpt})" for f in SCANNED_FIELDS if f in out
            for h in scan_value(out[f], f)]
    if hits:
        warnings.append(f"MCP server {name}: literal credentials in the profile "
                        f"({'; '.join(hits)}); settings.json is written 0600 -- prefer "
                        f"{expands}")
    return out, warnings, hits


def persona_unread(settings: dict | None, facts: PersonaFacts, title: str,
                   where: str) -> str | None:
    """The plan's warning when `context.fileName` (in the file shown as `where`) lists names
    without the persona file agentdeck writes; None when the CLI reads it."""
    value = get(settings or {}, facts.persona_name_key)
    listed = [value] if isinstance(value, str) else names(value)
    if value is None or facts.persona_file in listed:
        return None
    return (f"{where} sets context.fileName to {', '.join(listed) or repr(value)}, so {title} "
            f"does not read {facts.persona_file} (the persona agentdeck writes); add "
            f"\"{facts.persona_file}\" to that list")
