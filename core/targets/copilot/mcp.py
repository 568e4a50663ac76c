"""MCP servers for Copilot's `$COPILOT_HOME/mcp-config.json`, and the `disabledMcpServers` list.

Translation of one profile server (the target-neutral mcp.json shape, with the profile's
copilot/mcp-config.json entry of the same name merged over it):

- type: stdio/local -> "local" (command, args, env); http/streamable-http -> "http", sse -> "sse"
  (url, headers). A server missing its command or url is dropped with a warning (Copilot would
  silently omit it).
- tools: defaults to ["*"]. Copilot's list is an exact-name allowlist: a partial wildcard such as
  "gh-*" matches nothing (the server shows 0 tools, no error), so it is flagged.
- auth and oidc: written false for http/sse servers unless the profile sets them; with OAuth on a
  401 opens a browser at session start.
- a header value that takes its credential from the environment (`${VAR}`, `$VAR`) is dropped
  with a warning: Copilot sends header values literally and has no env indirection; agentdeck never
  writes the resolved value.
- the secret scanner (agentdeck.core.secrets) runs over url, command, args, env and headers; a literal
  credential is reported (kind and where, value redacted) and makes the item secret, so
  mcp-config.json is written 0600.

Each server is its own key item at ("mcpServers", name): ownership is per server, a server the
profile drops is removed, and the operator's own servers are never touched.

disabledMcpServers (settings.json) is ONE key item holding the whole list. Its value is computed
from what is on disk so that the three-state rule stays stable and an operator's own `/mcp
disable x` / `/mcp enable x` is never treated as a conflict (see `disabled_list`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...model import McpServer
from ...secrets import is_env_reference, scan_value

SCANNED_FIELDS = ("url", "command", "args", "env", "headers")


@dataclass
class Translation:
    """One MCP server in mcp-config.json's form (entry None: dropped), its warnings."""
    name: str
    entry: dict[str, Any] | None          # None: dropped
    transport: str
    warnings: list[str] = field(default_factory=list)
    secret_hits: list[str] = field(default_factory=list)   # "headers.Authorization: github_token (ghp_…)"

    @property
    def secret(self) -> bool:
        return bool(self.secret_hits)


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def transport_of(entry: dict) -> str:
    t = entry.get("type")
    if t in ("http", "streamable-http"):
        return "http"
    if t == "sse":
        return "sse"
    if t in ("stdio", "local"):
        return "stdio"
    return "http" if entry.get("url") and not entry.get("command") else "stdio"


def translate(name: str, srv: McpServer | None, native: dict | None) -> Translation:
    """One server as Copilot's mcp-config.json entry (key order fixed: re-runs are byte-stable)."""
    base = srv.model_dump(exclude_none=True) if srv is not None else {}
    raw = _merge(base, native or {})
    transport = transport_of(raw)
    tr = Translation(name, None, transport)
    out: dict[str, Any] = {}
    if transport == "stdio":
        out["type"] = "local"
        if not raw.get("command"):
            tr.warnings.append(f"MCP server {name}: a local server needs a 'command'; not written")
            return tr
        out["command"] = raw["command"]
        args = raw.get("args")
        out["args"] = list(args) if isinstance(args, list) else ([] if args is None else args)
        if raw.get("env"):
            out["env"] = dict(raw["env"]) if isinstance(raw["env"], dict) else raw["env"]
    else:
        out["type"] = transport
        if not raw.get("url"):
            tr.warnings.append(f"MCP server {name}: an {transport} server needs a 'url'; not written")
            return tr
        out["url"] = raw["url"]
        raw_headers = raw.get("headers") or {}
        if not isinstance(raw_headers, dict):
            tr.warnings.append(f"MCP server {name}: 'headers' must map names to strings; not written")
            return tr
        headers = {}
        for hk, hv in raw_headers.items():
            if isinstance(hv, str) and is_env_reference(hv):
                tr.warnings.append(
                    f"MCP server {name}: header {hk} dropped: its value {hv!r} names an environment "
                    "variable, and Copilot sends header values literally (it has no env "
                    "indirection); agentdeck never writes the resolved value")
                continue
            headers[hk] = hv
        if headers:
            out["headers"] = headers
    tools = raw.get("tools")
    if tools is None:
        tools = ["*"]
    out["tools"] = list(tools) if isinstance(tools, list) else tools
    partial = [t for t in (tools if isinstance(tools, list) else [])
               if isinstance(t, str) and "*" in t and t != "*"]
    if partial:
        tr.warnings.append(
            f"MCP server {name}: tools {', '.join(partial)} match nothing: Copilot's tools list takes "
            "exact names or \"*\", so this server will offer 0 tools")
    if raw.get("timeout") is not None:
        out["timeout"] = raw["timeout"]
    if transport != "stdio":
        out["auth"] = bool(raw["auth"]) if raw.get("auth") is not None else False
        out["oidc"] = bool(raw["oidc"]) if raw.get("oidc") is not None else False
    elif raw.get("auth") is not None or raw.get("oidc") is not None:
        for k in ("auth", "oidc"):
            if raw.get(k) is not None:
                out[k] = bool(raw[k])
    # native fields Copilot understands that the neutral shape does not name (cwd, ...)
    for k, v in raw.items():
        if k not in out and k not in ("type", "headers", "env", "args", "tools", "url", "command",
                                      "auth", "oidc", "timeout"):
            out[k] = v
    problem = _type_problem(out)
    if problem:
        tr.warnings.append(f"MCP server {name}: {problem}; not written (Copilot silently omits "
                           "a server it cannot read)")
        return tr
    for f in SCANNED_FIELDS:
        if f in out:
            for hit in scan_value(out[f], f):
                tr.secret_hits.append(f"{hit.where}: {hit.kind} ({hit.excerpt})")
    if tr.secret_hits:
        tr.warnings.append(
            f"MCP server {name}: literal credentials in the profile ({'; '.join(tr.secret_hits)}); "
            "mcp-config.json is written 0600 -- prefer a credential from the environment")
    tr.entry = out
    return tr


def _is_str_map(v: Any) -> bool:
    return isinstance(v, dict) and all(isinstance(k, str) and isinstance(x, str) for k, x in v.items())


def _type_problem(entry: dict) -> str | None:
    """The first field whose type Copilot would reject (the native override is free-form)."""
    for f in ("command", "url", "cwd"):
        if f in entry and not isinstance(entry[f], str):
            return f"'{f}' must be a string"
    for f in ("args", "tools"):
        if f in entry and not (isinstance(entry[f], list) and all(isinstance(x, str) for x in entry[f])):
            return f"'{f}' must be a list of strings"
    for f in ("env", "headers"):
        if f in entry and not _is_str_map(entry[f]):
            return f"'{f}' must map names to strings"
    t = entry.get("timeout")
    if t is not None and (isinstance(t, bool) or not isinstance(t, int) or t <= 0):
        return "'timeout' must be a positive number of milliseconds"
    return None


def operator_secret_hits(entry: Any) -> list[str]:
    if not isinstance(entry, dict):
        return []
    hits = []
    for f in SCANNED_FIELDS:
        if f in entry:
            hits += [f"{h.where}: {h.kind} ({h.excerpt})" for h in scan_value(entry[f], f)]
    return hits


def disabled_list(actual: list | None, recorded: list | None, ours: list[str],
                  dropped: set[str], contributed: list[str] | None) -> tuple[list[str], list[str]]:
    """(the disabledMcpServers value to want, the names agentdeck contributed to it).

    Inputs: the list on disk (`actual`), the list agentdeck last wrote or adopted (`recorded`,
    None when never), the names agentdeck wants disabled now (`ours`, in order), the servers
    agentdeck is removing from mcp-config.json (`dropped`), and the names agentdeck contributed
    last time (`contributed`, kept in the manifest entry's meta; None when never recorded).

    Why computed from disk: the list is shared with Copilot itself (`/mcp disable` appends,
    `/mcp enable` removes the name and records it in enabledMcpServers) and with the operator's
    hand edits, but it is one settings key, so it is one plan item. Its desired value is "what is
    there now, minus what agentdeck added and no longer wants, minus servers agentdeck removes,
    plus what agentdeck wants that is missing". With the three-state rule that gives:

    - `/mcp disable x` (the disk gains x): desired == actual, a noop that only updates the record,
      never a conflict -- this run or any later one; x is not ours, so agentdeck never removes it;
    - `/mcp enable x` puts x in enabledMcpServers, which takes it out of `ours`: noop again;
    - a hand edit deleting one of ours (without /mcp enable): desired then has the same members as
      the recorded list, and the recorded list (same order) is wanted, so the planner reports a
      hand-edit and keeps theirs, stably, instead of a conflict;
    - the profile adds a server: actual == recorded, desired grows: an update;
    - the profile stops wanting one of ours (mcpAlwaysEnabled, the app's toggle, the directive
      turned off) or drops the server: its name leaves the list: an update.

    A name counts as agentdeck's only if agentdeck added it (it was not on disk already): a
    server the operator had disabled before stays disabled even when the profile later wants it
    enabled, and the pane shows it as disabled by the operator.
    """
    have = [n for n in (actual or []) if isinstance(n, str)]
    before = set(contributed or [])
    withdraw = (before - set(ours)) | dropped
    kept = [n for n in have if n not in withdraw]
    added_now = [n for n in ours if n not in kept]
    contributed_now = [n for n in ours if n in before or n in added_now]
    want_set = set(kept) | set(ours)
    if actual is not None and not (set(have) & withdraw) and set(have) == want_set:
        return (list(actual) if len(have) == len(actual) else kept), contributed_now
    if recorded is not None and all(isinstance(n, str) for n in recorded) and set(recorded) == want_set:
        return list(recorded), contributed_now
    return kept + added_now, contributed_now
