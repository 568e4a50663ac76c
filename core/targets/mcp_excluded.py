"""MCP servers in a settings.json whose one off switch is a list of names (`mcp.excluded`):
the shape Gemini CLI and its fork Qwen Code share. Each adapter passes its own facts (the keys, with the
version they were verified for), its translation of a profile server and its name; the rules
are the same, so they are written once here.

A server the profile turns off gets its name in the list; a name the operator put there stays
theirs (a profile server they excluded is reported off, "operator-disabled"); the entry's own
"disabled"/"enabled" keys are ignored by these CLIs, which the plan says when an operator's
server sets one."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol

from ..desired import Desired, DesiredState
from ..disk import DiskView
from ..errors import UserError
from ..model import McpServer, Profile
from . import registry, skills
from .mcp_switches import ON_REASONS, not_written, report, switch_reason
from .output import McpInfo, McpServerInfo
from .mcp_switches import profile_disabled as profile_disabled_servers

#: (entry, warnings, literal-credential hits) of one profile server, or (None, warnings, [])
Translate = Callable[[str, McpServer], "tuple[dict | None, list[str], list[str]]"]


class ExcludedFacts(Protocol):
    @property
    def mcp_off_key(self) -> tuple[str, ...]: ...
    @property
    def mcp_ignored_entry_keys(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class SwitchedOff:
    """Servers the operator switched off in a file of the CLI's own (`keys` as the file holds
    them; `norm` the CLI's spelling of a name before it looks one up; `why` the reason shown)."""
    keys: frozenset[str]
    norm: Callable[[str], str]
    why: str

    def has(self, name: str) -> bool:
        return self.norm(name) in self.keys


def names(value: Any) -> list[str]:
    return [n for n in value if isinstance(n, str)] if isinstance(value, list) else []


def get(data: Any, path: tuple[str, ...]) -> Any:
    for k in path:
        if not isinstance(data, dict):
            return None
        data = data.get(k)
    return data


def plan_mcp(target: str, facts: ExcludedFacts, fmt: str, translate: Translate,
             profile: Profile, view: DiskView, settings: dict | None, path: Path, manifest,
             st: DesiredState, switched_off: SwitchedOff | None = None) -> None:
    """The profile's servers as `mcpServers` entries of `path`, the off ones named in the off
    list, and the adapter's MCP report (TargetOutput.mcp) for the views. `switched_off`: the
    servers the operator switched off in a file of the CLI's own that outranks nothing of
    agentdeck's but keeps a server down (Gemini CLI's enablement file)."""
    host = view.host
    title = registry.title(target)
    off_key = facts.mcp_off_key
    shown_key = ".".join(off_key)
    data = settings or {}
    on_disk = data.get("mcpServers")
    on_disk = on_disk if isinstance(on_disk, dict) else {}
    excluded_raw = get(data, off_key)
    if excluded_raw is not None and not isinstance(excluded_raw, list):
        raise UserError(f"{shown_key}: expected a list of server names", path=str(path))
    have = names(excluded_raw)
    mine = {e.member for e in manifest.entries.values()
            if e.kind == "key" and e.path == str(path) and e.member
            and list(e.key) == list(off_key)}
    d = profile.directives
    always = set(d.mcpAlwaysEnabled)
    disabled = profile_disabled_servers(profile)
    servers: list[McpServerInfo] = []
    off: list[str] = []
    for name, srv in profile.mcp_servers.items():
        skills.safe_name(name, "MCP server name")
        entry, warnings, hits = translate(name, srv)
        if entry is None:
            servers.append(not_written(st, name, srv.transport, warnings))
            continue
        reason = switch_reason(profile, name, disabled)
        on = reason in ON_REASONS
        if not on:
            off.append(name)
        elif name in have and name not in mine:
            reason, on = "operator-disabled", False       # you excluded it yourself
        elif switched_off is not None and switched_off.has(name):
            reason, on = "operator-switched-off", False   # you switched it off in the CLI
        why = {"always-enabled": "; enabled (mcpAlwaysEnabled)",
               "default-disabled": "; off until enabled (mcpDefaultDisabled)",
               "profile-disabled": "; off (the profile's disabledMcpServers)",
               "operator-disabled": f"; off: you excluded it ({shown_key})",
               "operator-switched-off": f"; off: {switched_off.why if switched_off else ''}",
               }.get(reason, "")
        st.add(Desired(target, path, "key", entry, key=("mcpServers", name), fmt=fmt,
                       label=f"MCP server {name}", group="mcp", warnings=warnings,
                       secret=bool(hits), file_mode=0o600 if hits else None,
                       reason=f"{srv.transport} server from the profile{why}"))
        servers.append(McpServerInfo(
            name=name, transport=srv.transport, origin="profile", enabled=on,
            enabled_now=name in on_disk and name not in have
            and not (switched_off is not None and switched_off.has(name)),
            reason=reason, secret=bool(hits),
            warnings=tuple(warnings)))
    for name in off:
        if name in have and name not in mine:
            continue                                     # already yours in the list
        st.add(Desired(target, path, "key", name, key=off_key, member=name, fmt=fmt,
                       label=f"{shown_key}: {name}", group="mcp",
                       reason=f"keeps {name} from starting: {title} starts every configured "
                              f"server not named in {shown_key}; the other names in the list "
                              "are yours and stay as they are"))
    for name, entry in on_disk.items():
        if name in profile.mcp_servers:
            continue
        ex = name in have
        flipped = not ex and switched_off is not None and switched_off.has(name)
        servers.append(McpServerInfo(
            name=name,
            transport="stdio" if isinstance(entry, dict) and "command" in entry else "http",
            origin="operator", enabled=not (ex or flipped), enabled_now=not (ex or flipped),
            reason="operator-disabled" if ex else "operator-switched-off" if flipped
            else "enabled"))
        for k in facts.mcp_ignored_entry_keys:
            if isinstance(entry, dict) and k in entry and name not in have:
                st.warn(f"your MCP server {name} sets {k!r}, which {title} does not read: it "
                        f"starts; name it in {shown_key} in {host.display(path)} to keep it off")
    report(st, McpInfo(file=str(path), default_disabled=d.mcpDefaultDisabled,
                       always_enabled=tuple(sorted(always)), servers=tuple(servers)))
