"""MCP servers that name environment variables (issue 16.6): Claude Code expands `${VAR}` (and
`${VAR:-default}`) in a server's command, args, env, url and headers, and warns on every start
when VAR is unset; Codex reads a bearer token from `bearer_token_env_var` and headers from
`env_http_headers`. A variable that is not set in the environment the doctor runs in is a
warning naming it (the CLI started from the same shell sees the same environment)."""
from __future__ import annotations

import re

from .context import Ctx
from .registry import Out, check

_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}")


def refs(value, path: str = "") -> list[tuple[str, str]]:
    """(variable, where) for every ${VAR} without a default in a JSON-like value."""
    out = []
    if isinstance(value, str):
        out += [(m.group(1), path) for m in _REF.finditer(value) if not m.group(2)]
    elif isinstance(value, dict):
        for k, v in value.items():
            out += refs(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += refs(v, f"{path}[{i}]")
    return out


@check("claude.mcp.env-vars", ok="every ${VAR} an MCP server names is set", needs_home=False)
def claude_env_vars(ctx: Ctx, out: Out) -> None:
    from . import claude_checks as cl

    m = cl.model(ctx)
    if not isinstance(m.mcp, dict) or m.claude_json is None:
        return
    for name, entry in m.mcp.items():
        for var, where in refs(entry):
            if var not in ctx.host.env:
                out.warning(f"MCP server {name!r} uses ${{{var}}} ({where}), which is not set "
                            "here: Claude Code expands it to nothing and warns on every start",
                            fix=f"export {var} where Claude runs, or give a default: "
                                f"${{{var}:-value}}",
                            path=m.claude_json.path,
                            line=m.claude_json.line_of("mcpServers", name))


@check("codex.mcp.env-vars", ok="every variable an MCP server reads is set")
def codex_env_vars(ctx: Ctx, out: Out) -> None:
    from . import codex_checks as cx

    m = cx.model(ctx)
    servers = (m.config_data or {}).get("mcp_servers")
    if not isinstance(servers, dict):
        return
    for name, e in servers.items():
        if not isinstance(e, dict):
            continue
        wanted = []
        if isinstance(e.get("bearer_token_env_var"), str):
            wanted.append((e["bearer_token_env_var"], "bearer_token_env_var"))
        if isinstance(e.get("env_http_headers"), dict):
            wanted += [(v, f"env_http_headers.{k}") for k, v in e["env_http_headers"].items()
                       if isinstance(v, str)]
        off = e.get("enabled") is False        # Codex neither starts it nor reads its token
        for var, where in wanted:
            if var not in ctx.host.env:
                line = m.config.line_of("mcp_servers", name)
                if off:
                    out.info(f"MCP server {name!r} is off (enabled = false); once switched on it "
                             f"reads {var} ({where}), which is not set here",
                             fix=f"export {var} where Codex runs before you switch it on",
                             path=m.config.path, line=line)
                    continue
                out.warning(f"MCP server {name!r} reads {var} ({where}), which is not set here: "
                            "Codex sends no token / header and the server refuses or asks to "
                            "sign in", fix=f"export {var} where Codex runs",
                            path=m.config.path, line=line)
