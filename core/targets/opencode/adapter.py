"""OpenCode target (docs/facts/opencode.md, OpenCode 1.18.33).

Every part is its own plan item (group in brackets):

  [hooks]    <home>/agentdeck-hook.sh (0755, file)  the wrapper (core/targets/wrapper.py)
             <home>/plugins/agentdeck.js (file)     agentdeck's plugin (plugin.py): OpenCode has
             no shell hooks; it loads every plugin in that folder and awaits its
             tool.execute.before before each tool call; the plugin runs the wrapper and throws to
             deny
  [settings] opencode.json ("$schema",) while the file lacks it: OpenCode writes it into a file
             without it at its next start, so a file agentdeck wrote would change under it;
             whatever the profile's opencode/opencode.json sets, one key item per top-level key
  [mcp]      opencode.json ("mcp", name), one key item per profile server, in OpenCode's shape
             ({type: local, command: [...], environment} | {type: remote, url, headers});
             a server that is off (mcpDefaultDisabled, the profile's disabledMcpServers) is
             written with "enabled": false, the switch OpenCode honours
  [persona]  <home>/AGENTS.md, a managed block at the top (core/targets/persona.py): OpenCode
             reads it as global instructions

<home> is $XDG_CONFIG_HOME/opencode (~/.config/opencode by default). opencode.json is JSON with
comments, edited in place (comments kept). What agentdeck manages is recorded in
<home>/.agentdeck-managed.json.

Its typed output (core/targets/output.py): `hooks`, a HooksInfo for the one plugin hook
(`channel` "plugin", `file` the plugin, `off_switch` what loads no plugin), and its MCP servers
(TargetOutput.mcp, core/targets/output.py: reasons "enabled" | "always-enabled" |
"default-disabled" | "profile-disabled" | "operator-disabled" | "not-written").
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ...desired import Desired, DesiredState
from ...disk import DiskView
from ...errors import UserError
from ...model import McpServer, Profile
from ...policy import compiled as compiled_policy
from ...secrets import scan_value
from .. import registry, skills
from .. import wrapper as wrapper_mod
from ..base import DEFAULT_OPTIONS, RunOptions, Target
from ..settings_shape import not_carried
from ..hook_events import wanted_events
from ..mcp_switches import ON_REASONS, not_written, report, switch_reason
from ..output import (HookEventInfo, HooksInfo, McpInfo, McpServerInfo,
                      SkippedHookEvent)
from ..mcp_switches import profile_disabled as profile_disabled_servers
from ..persona import PERSONA_MARKERS, build_persona
from ..settings_hooks import WRAPPER_NAME
from . import plugin
from .facts import OPENCODE

T = "opencode"
FMT = "jsonc" if OPENCODE.config_jsonc else "json"

#: keys a profile's opencode/opencode.json may not set, and why
RESERVED_SETTINGS = {
    OPENCODE.mcp_key: "declare MCP servers in the profile's mcp.json; agentdeck writes them",
    OPENCODE.schema_key: "agentdeck writes it while the file lacks it",
}
SCANNED_FIELDS = ("command", "environment", "url", "headers")


_VAR = r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}"


def env_refs(value: Any) -> Any:
    """A profile's `${VAR}` references in OpenCode's spelling, `{env:VAR}` (OpenCode substitutes
    that in any config string, docs/facts/opencode.md section 1; `${VAR}` it leaves as text)."""
    if isinstance(value, str):
        return re.sub(_VAR, r"{env:\1}", value)
    if isinstance(value, list):
        return [env_refs(v) for v in value]
    if isinstance(value, dict):
        return {k: env_refs(v) for k, v in value.items()}
    return value


def translate_mcp(name: str, srv: McpServer, on: bool) -> tuple[dict | None, list[str], list[str]]:
    """(the opencode.json mcp entry or None, warnings, secret hits) for one neutral server:
    {type: "local", command: [command, *args], environment} or {type: "remote", url, headers};
    "enabled": false when the server is off (docs/facts/opencode.md section 3)."""
    warnings: list[str] = []
    problem = srv.check()
    if problem:
        return None, [f"MCP server {name}: {problem}; not written"], []
    out: dict[str, Any] = {}
    if srv.transport == "stdio":
        out["type"] = "local"
        out["command"] = [srv.command, *(srv.args or [])]
        if srv.env:
            out["environment"] = dict(srv.env)
    else:
        out["type"] = "remote"
        out["url"] = srv.url
        if srv.headers:
            out["headers"] = dict(srv.headers)
    out = env_refs(out)
    if not on:
        out[OPENCODE.mcp_enabled_key] = False
    dropped = not_carried(srv)
    if dropped:
        warnings.append(f"MCP server {name}: {', '.join(dropped)} are Copilot settings; not "
                        "written for OpenCode")
    hits = [f"{h.where}: {h.kind} ({h.excerpt})" for f in SCANNED_FIELDS if f in out
            for h in scan_value(out[f], f)]
    if hits:
        warnings.append(f"MCP server {name}: literal credentials in the profile "
                        f"({'; '.join(hits)}); opencode.json is written 0600 -- prefer "
                        "\"{env:VAR}\" (OpenCode substitutes it)")
    return out, warnings, hits


class OpenCodeTarget(Target):
    spec = registry.spec(T)

    def desired(self, profile: Profile, view: DiskView,
                options: RunOptions = DEFAULT_OPTIONS) -> DesiredState:
        st = DesiredState(T)
        host = view.host
        home = self.spec.home(host)
        config_path = home / OPENCODE.config_file
        config = view.data(config_path, FMT)
        if config is not None and not isinstance(config, dict):
            raise UserError("expected an object at the top level", path=str(config_path))
        manifest = view.manifest(T, self.manifest_path(host))
        self._plugin(profile, view, home, st)
        self._settings(profile, config_path, st)
        self._mcp(profile, config, config_path, st)
        self._schema(st, config, config_path, manifest)
        st.add(Desired(T, home / OPENCODE.persona_file, "block",
                       build_persona(profile, self.spec.title), markers=PERSONA_MARKERS,
                       placement="top", label="persona", group="persona",
                       reason="the profile's AGENTS.md chain and compiled rules; your text outside "
                              "the markers is kept"))
        if profile.skills or profile.commands:
            st.note("the profile's skills and commands are not installed for OpenCode: its "
                    "skill folders are not verified by agentdeck")
        if profile.agents:
            st.note(f"the profile's agents ({', '.join(sorted(profile.agents))}) are not installed "
                    "for OpenCode: its agent files are not verified by agentdeck")
        return st

    # ---- the plugin and the wrapper it runs ----------------------------------------------------
    def _plugin(self, profile: Profile, view: DiskView, home: Path, st: DesiredState) -> None:
        host = view.host
        wrapper_path = home / WRAPPER_NAME
        plugin_path = home / OPENCODE.plugins_dir / plugin.PLUGIN_NAME
        info = HooksInfo(
            channel="plugin", file=str(plugin_path), wrapper=str(wrapper_path),
            handler=profile.hooks.command, timeout=None,
            byte_stable=("the plugin names the wrapper, not the handler: changing the handler "
                         "leaves the plugin unchanged"),
            # OpenCode has no disableAllHooks: what switches the plugin off instead
            off_switch=(f"{OPENCODE.pure_flag} and {OPENCODE.pure_env}=1 load no plugin, "
                        "agentdeck's among them"))
        st.output.hooks = info
        if not profile.hooks.command:
            st.warn("the profile names no hook handler ([hooks] command); agentdeck's plugin is "
                    "not written")
            return
        handler = wrapper_mod.resolve_handler(host, profile.hooks.command, wrapper_path,
                                              read=view.text)
        info.handler_path = handler.resolved
        for w in handler.warnings:
            st.warn(w)
        if not handler.argv:
            return
        events, lacking, warns = wanted_events(profile, dict(OPENCODE.canonical_events))
        for w in warns:
            st.warn(w)
        info.skipped = tuple(SkippedHookEvent(c, "OpenCode's agentdeck plugin implements "
                                                 "tool.execute.before only") for c in lacking)
        if lacking:
            st.note(f"OpenCode's plugin sees tool calls only: {', '.join(lacking)} not registered")
        if not events and not view.present(wrapper_path):
            return
        st.add(Desired(T, wrapper_path, "file",
                       wrapper_mod.render_wrapper(T, handler, host.state_dir),
                       mode=wrapper_mod.WRAPPER_MODE, label="hook wrapper", group="hooks",
                       reason=f"execs the profile's handler ({profile.hooks.command}) for each "
                              "call the plugin sees, so the plugin stays byte-stable"))
        compiled_policy.add_to(st, profile, host, T)
        if not events:
            return
        text = plugin.render(wrapper_path)
        st.add(Desired(T, plugin_path, "file", text, mode=0o644, label="agentdeck plugin",
                       group="hooks",
                       reason="OpenCode loads every plugin in this folder and awaits its "
                              "tool.execute.before before each tool call: it runs the wrapper "
                              "and fails the call unless the handler allows it"))
        for canon, ev in events:
            # event: what the plugin runs the wrapper with (the handler's and the drill's
            # name for it); plugin_hook: OpenCode's plugin hook
            info.events += (HookEventInfo(
                event=plugin.WRAPPER_EVENT, plugin_hook=ev, canonical=canon,
                command=f"{wrapper_path} {plugin.WRAPPER_EVENT}", timeout=None,
                registered_now=view.text(plugin_path) == text),)

    # ---- "$schema": written while missing, so OpenCode never rewrites the file ---------------
    def _schema(self, st: DesiredState, config: dict | None, path: Path, manifest) -> None:
        key = OPENCODE.schema_key
        ours = any(e.kind == "key" and e.path == str(path) and list(e.key) == [key]
                   for e in manifest.entries.values())
        if not any(d.path == path for d in st.items):
            return                  # nothing of agentdeck's in the file: its bytes are yours
        if not ours and config is not None and key in config:
            return                  # yours (OpenCode wrote it, or you did)
        st.add(Desired(T, path, "key", OPENCODE.schema_url, key=(key,), fmt=FMT,
                       label=key, group="settings",
                       reason=f"OpenCode writes \"{key}\" into a config file without it at its "
                              "next start; with it the file stays as agentdeck and you wrote it"))

    # ---- the profile's opencode/opencode.json ------------------------------------------------
    def _settings(self, profile: Profile, path: Path, st: DesiredState) -> None:
        native = dict(profile.native.get(f"{T}/{OPENCODE.config_file}", {}))
        for key, why in RESERVED_SETTINGS.items():
            if key in native:
                native.pop(key)
                st.warn(f"the profile's {T}/{OPENCODE.config_file} key {key!r} is dropped: {why}")
        for key in sorted(native):
            value = native[key]
            hits = scan_value(value, key)
            warns = [f"{h.where}: literal credential ({h.kind}, {h.excerpt}); opencode.json is "
                     "written 0600" for h in hits]
            st.add(Desired(T, path, "key", value, key=(key,), fmt=FMT, label=key,
                           group="settings", warnings=warns, secret=bool(hits),
                           file_mode=0o600 if hits else None,
                           reason=f"set by the profile's {T}/{OPENCODE.config_file}"))

    # ---- MCP: mcp.<name> entries, "enabled": false as the off switch -------------------------
    def _mcp(self, profile: Profile, config: dict | None, path: Path, st: DesiredState) -> None:
        data = config or {}
        on_disk = data.get(OPENCODE.mcp_key)
        if on_disk is not None and not isinstance(on_disk, dict):
            raise UserError(f"{OPENCODE.mcp_key}: expected an object of servers", path=str(path))
        on_disk = on_disk or {}
        d = profile.directives
        disabled = profile_disabled_servers(profile)
        servers: list[McpServerInfo] = []
        for name, srv in profile.mcp_servers.items():
            skills.safe_name(name, "MCP server name")
            reason = switch_reason(profile, name, disabled)
            on = reason in ON_REASONS
            entry, warnings, hits = translate_mcp(name, srv, on)
            if entry is None:
                servers.append(not_written(st, name, srv.transport, warnings))
                continue
            why = {"always-enabled": "; enabled (mcpAlwaysEnabled)",
                   "default-disabled": "; \"enabled\": false until enabled (mcpDefaultDisabled)",
                   "profile-disabled": "; \"enabled\": false (the profile's disabledMcpServers)"
                   }.get(reason, "")
            st.add(Desired(T, path, "key", entry, key=(OPENCODE.mcp_key, name), fmt=FMT,
                           label=f"MCP server {name}", group="mcp", warnings=warnings,
                           secret=bool(hits), file_mode=0o600 if hits else None,
                           reason=f"{srv.transport} server from the profile{why}"))
            now = on_disk.get(name)
            servers.append(McpServerInfo(
                name=name, transport=srv.transport, origin="profile", enabled=on,
                enabled_now=isinstance(now, dict)
                and now.get(OPENCODE.mcp_enabled_key) is not False,
                reason=reason, secret=bool(hits), warnings=tuple(warnings)))
        for name, entry in on_disk.items():
            if name in profile.mcp_servers:
                continue
            off = isinstance(entry, dict) and entry.get(OPENCODE.mcp_enabled_key) is False
            servers.append(McpServerInfo(
                name=name,
                transport="stdio" if isinstance(entry, dict) and entry.get("type") == "local"
                else "http",
                origin="operator", enabled=not off, enabled_now=not off,
                reason="operator-disabled" if off else "enabled"))
        report(st, McpInfo(file=str(path), default_disabled=d.mcpDefaultDisabled,
                           always_enabled=tuple(sorted(d.mcpAlwaysEnabled)),
                           servers=tuple(servers)))
