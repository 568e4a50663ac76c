"""MCP servers for Codex: the profile's target-neutral mcp.json (the Claude / .mcp.json shape)
translated into `[mcp_servers.<name>]` tables of $CODEX_HOME/config.toml (docs/facts/codex.md,
Codex 0.171.0).

Translation, per server:

- no `type` key: Codex infers the transport (`command` -> stdio, `url` -> streamable HTTP);
- stdio: `command`, `args`, `env`. Codex passes `env` values literally, so a value that is
  exactly `${NAME}` (or `$NAME`) under the key NAME becomes an `env_vars` entry (Codex copies
  that variable from its own environment); a `${OTHER}` under another name, or text mixed with a
  variable, cannot be expressed and is dropped with a warning;
- streamable HTTP: `url`; the header `Authorization: Bearer ${VAR}` becomes
  `bearer_token_env_var = "VAR"`; another header whose value is exactly `${VAR}` becomes
  `env_http_headers = {Header = "VAR"}`; a literal header value goes to `http_headers` only when
  the secret scanner finds no credential in it (otherwise dropped with a warning: a credential
  never lands in config.toml through a header); a header mixing text and a variable is dropped;
- SSE servers are dropped with a warning (Codex has no SSE client);
- `tools` (Copilot's allowlist) becomes `enabled_tools` unless it is `["*"]`; Copilot-only fields
  (`timeout` in ms, `auth`, `oidc`) are not translated; any other field passes through only when
  Codex knows it (`cwd`, `env_vars`, `enabled_tools`, `disabled_tools`, `startup_timeout_sec`,
  `tool_timeout_sec`, ...): `codex app-server --strict-config` rejects unknown fields;
- the profile's codex/config.toml `[mcp_servers.<name>]` is merged on top (native wins), and a
  server that is only there is written as the profile gives it (same key filter);
- literal credentials in command, args, env or url are reported, and config.toml is then
  written 0600.

`enabled = false` is set by the caller (mcpDefaultDisabled), never `enabled = true`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ...model import McpServer
from ...secrets import scan_text, scan_value

_VAR = r"[A-Za-z_][A-Za-z0-9_]*"
ENV_ONLY = re.compile(rf"^\s*(?:\$\{{({_VAR})\}}|\$({_VAR}))\s*$")
BEARER_ENV = re.compile(rf"^\s*[Bb]earer\s+(?:\$\{{({_VAR})\}}|\$({_VAR}))\s*$")
HAS_VAR = re.compile(rf"\$\{{{_VAR}[^}}]*\}}|\$[A-Za-z_]")
SCANNED_FIELDS = ("command", "args", "env", "url", "http_headers", "cwd")


def _facts():
    from .facts import CODEX
    return CODEX


def known_keys() -> tuple[str, ...]:
    f = _facts()
    return f.mcp_stdio_keys + f.mcp_http_keys + f.mcp_common_keys


@dataclass
class Translation:
    name: str
    transport: str                      # "stdio" | "http" | "sse"
    entry: dict | None = None           # the [mcp_servers.<name>] table; None: not written
    warnings: list[str] = field(default_factory=list)
    secret_hits: list[str] = field(default_factory=list)

    @property
    def secret(self) -> bool:
        return bool(self.secret_hits)


def env_var_of(value: str) -> str | None:
    m = ENV_ONLY.match(value or "")
    return (m.group(1) or m.group(2)) if m else None


def transport_of(entry: Any) -> str:
    if isinstance(entry, dict) and entry.get("url") and not entry.get("command"):
        return "http"
    return "stdio"


def _headers(name: str, headers: dict[str, str], out: dict, tr: Translation) -> None:
    env_headers: dict[str, str] = {}
    literal: dict[str, str] = {}
    for h, v in headers.items():
        v = "" if v is None else str(v)
        m = BEARER_ENV.match(v)
        if h.lower() == "authorization" and m:
            var = m.group(1) or m.group(2)
            if "bearer_token_env_var" in out:
                tr.warnings.append(f"MCP server {name}: a second Authorization header is dropped")
                continue
            out["bearer_token_env_var"] = var
            continue
        var = env_var_of(v)
        if var:
            env_headers[h] = var
            continue
        if HAS_VAR.search(v):
            tr.warnings.append(f"MCP server {name}: header {h} mixes text and a variable ({v!r}); "
                               "Codex can only take a whole header value from the environment "
                               "(env_http_headers) or a bearer token (bearer_token_env_var), so "
                               "it is dropped")
            continue
        hits = scan_text(v, f"headers.{h}")
        if hits:
            kinds = ", ".join(sorted({x.kind for x in hits}))
            tr.warnings.append(f"MCP server {name}: header {h} holds a literal credential ({kinds}); "
                               "it is not written to config.toml -- put it in an environment "
                               f"variable and use \"${{VAR}}\" in the profile")
            continue
        literal[h] = v
    if literal:
        out["http_headers"] = literal
    if env_headers:
        out["env_http_headers"] = env_headers


def _env(name: str, env: dict[str, str], out: dict, tr: Translation) -> None:
    plain: dict[str, str] = {}
    passed: list[str] = []
    for k, v in env.items():
        v = "" if v is None else str(v)
        var = env_var_of(v)
        if var is not None:
            if var == k:
                passed.append(k)
            else:
                tr.warnings.append(f"MCP server {name}: env {k} = {v!r} is dropped: Codex passes "
                                   "env values literally and can only copy a variable under its "
                                   f"own name (env_vars = [\"{var}\"] would set {var}, not {k})")
            continue
        if HAS_VAR.search(v):
            tr.warnings.append(f"MCP server {name}: env {k} mixes text and a variable ({v!r}); "
                               "Codex would pass it literally, so it is dropped")
            continue
        plain[k] = v
    if plain:
        out["env"] = plain
    if passed:
        out["env_vars"] = passed


def _filter_keys(name: str, entry: dict, tr: Translation, source: str) -> dict:
    allowed = set(known_keys())
    out = {}
    for k, v in entry.items():
        if k == "type":
            continue   # Codex infers the transport; a type key is rejected
        if k == "bearer_token":
            tr.warnings.append(f"MCP server {name}: an inline bearer_token is rejected by Codex; "
                               "use bearer_token_env_var (dropped)")
            continue
        if k not in allowed:
            tr.warnings.append(f"MCP server {name}: field {k!r} from {source} is not a Codex "
                               "MCP field (--strict-config rejects it); dropped")
            continue
        out[k] = v
    return out


def translate(name: str, srv: McpServer | None, native: dict | None) -> Translation:
    """The config.toml table for one server (see the module docstring)."""
    if srv is None:
        tr = Translation(name, transport_of(native))
        out: dict[str, Any] = {}
    else:
        tr = Translation(name, srv.transport)
        if tr.transport == "sse":
            tr.warnings.append(f"MCP server {name} uses SSE, which Codex does not support (it has "
                               "no SSE client); not written for Codex")
            return tr
        problem = srv.check()
        if problem:
            tr.warnings.append(f"MCP server {name}: {problem}; not written")
            return tr
        out = {}
        if tr.transport == "stdio":
            out["command"] = srv.command
            if srv.args:
                out["args"] = list(srv.args)
            if srv.env:
                _env(name, dict(srv.env), out, tr)
        else:
            out["url"] = srv.url
            if srv.headers:
                _headers(name, dict(srv.headers), out, tr)
        if srv.tools is not None and "*" not in srv.tools:
            out["enabled_tools"] = list(srv.tools)   # an allowlist ("*": all, nothing to write)
        if srv.timeout is not None:
            tr.warnings.append(f"MCP server {name}: timeout ({srv.timeout}, Copilot's, in ms) is not "
                               "translated; set startup_timeout_sec / tool_timeout_sec in the "
                               "profile's codex/config.toml")
        if srv.auth or srv.oidc:
            tr.warnings.append(f"MCP server {name}: auth/oidc are Copilot settings; for Codex run "
                               f"`codex mcp login {name}` if the server needs OAuth")
        extras = dict(srv.model_extra or {})
        out.update(_filter_keys(name, extras, tr, "mcp.json"))
    if native:
        nat = _filter_keys(name, dict(native), tr, "codex/config.toml")
        for k, v in nat.items():
            if isinstance(v, dict) and isinstance(out.get(k), dict):
                out[k] = {**out[k], **v}
            else:
                out[k] = v
    if "command" not in out and "url" not in out:
        tr.warnings.append(f"MCP server {name}: neither command nor url; not written")
        return tr
    if "command" in out and "url" in out:
        tr.warnings.append(f"MCP server {name}: both command and url are set; Codex reads it as "
                           "a stdio server")
    for f in SCANNED_FIELDS:
        if f in out:
            for hit in scan_value(out[f], f):
                tr.secret_hits.append(f"{hit.where}: {hit.kind} ({hit.excerpt})")
    if tr.secret_hits:
        tr.warnings.append(f"MCP server {name}: literal credentials in the profile "
                           f"({'; '.join(tr.secret_hits)}); config.toml is written 0600 -- "
                           "prefer a credential from the environment")
    tr.transport = transport_of(out)
    tr.entry = out
    return tr
