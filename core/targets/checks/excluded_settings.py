"""The doctor checks of a settings.json whose MCP off switch is a list of names (`mcp.excluded`,
core/targets/mcp_excluded.py) and whose persona file is named in `context.fileName`: the shape
Gemini CLI and its fork Qwen Code share. Each target's doctor registers its own checks (its ids)
and passes its facts, its title and its words; the rules are written once here."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from ...disk import Loaded
from ..mcp_excluded import get
from ..parts.doctor import Out


class SettingsFacts(Protocol):
    @property
    def mcp_off_key(self) -> tuple[str, ...]: ...
    @property
    def mcp_ignored_entry_keys(self) -> tuple[str, ...]: ...
    @property
    def persona_file(self) -> str: ...
    @property
    def persona_name_key(self) -> tuple[str, ...]: ...


def mcp_off_switch(out: Out, ld: Loaded, data: dict, facts: SettingsFacts, title: str,
                   ignores: str) -> None:
    """mcp.excluded that is not a list (every server starts), and a server not in it that sets
    an entry switch the CLI `ignores` (its words: "does not read", "ignores")."""
    servers = data.get("mcpServers")
    servers = servers if isinstance(servers, dict) else {}
    excluded = get(data, facts.mcp_off_key)
    if excluded is not None and not isinstance(excluded, list):
        out.error(f"mcp.excluded is not a list of server names: {title} starts every server",
                  fix='write it as ["name", ...]', path=ld.path, line=ld.line_of("mcp", "excluded"))
        excluded = []
    names = {n for n in excluded or [] if isinstance(n, str)}
    for name, entry in servers.items():
        if not isinstance(entry, dict) or name in names:
            continue
        for k in facts.mcp_ignored_entry_keys:
            v = entry.get(k)
            if (k == "disabled" and v is True) or (k == "enabled" and v is False):
                out.warning(f"MCP server {name!r} sets {k}: {str(v).lower()}, which {title} "
                            f"{ignores}: the server starts", fix=f'add "{name}" to mcp.excluded',
                            path=ld.path, line=ld.line_of("mcpServers", name))


def mcp_invalid(out: Out, ld: Loaded, data: dict) -> None:
    """A server entry the CLI cannot start: not an object, no command/url/httpUrl, bad args."""
    servers = data.get("mcpServers")
    if not isinstance(servers, dict):
        return
    for name, e in servers.items():
        why = None
        if not isinstance(e, dict):
            why = "the entry is not an object"
        elif not any(isinstance(e.get(k), str) and e[k] for k in ("command", "url", "httpUrl")):
            why = "it has no command, url or httpUrl"
        elif "args" in e and not isinstance(e["args"], list):
            why = "args is not an array"
        if why:
            out.error(f"MCP server {name!r} cannot start: {why}", fix="fix the entry",
                      path=ld.path, line=ld.line_of("mcpServers", name))


def persona_read(out: Out, ld: Loaded, data: dict, facts: SettingsFacts, title: str) -> None:
    """context.fileName set to names without the persona file: the CLI does not read it."""
    names = get(data, facts.persona_name_key)
    if names is None:
        return
    listed = [names] if isinstance(names, str) else [n for n in names if isinstance(n, str)] \
        if isinstance(names, list) else []
    if facts.persona_file not in listed:
        out.warning(f"context.fileName is {names!r}: {title} reads only those files, not "
                    f"{facts.persona_file} (agentdeck's persona)",
                    fix=f'add "{facts.persona_file}" to context.fileName', path=ld.path,
                    line=ld.line_of(*facts.persona_name_key))


def secret_sources(ld: Loaded | None, data: dict | None) -> list[tuple[Path, Any]]:
    """The settings file and its parsed value, where literal credentials are looked for."""
    return [(ld.path, data)] if ld is not None and data is not None else []
