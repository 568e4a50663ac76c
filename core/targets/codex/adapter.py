"""OpenAI Codex CLI target (docs/facts/codex.md, Codex 0.171.0).

Every part is its own plan item with its own class and reason (group in brackets):

  [hooks]    $CODEX_HOME/agentdeck-hook.sh (0755, file)     the wrapper (agentdeck.core.targets.wrapper)
             $CODEX_HOME/hooks.json (file)                  the registration (codex_hooks): no
                                                            `version` key, matcher groups,
                                                            `timeout` in seconds
             config.toml ("hooks", "state", <key>, "trusted_hash")
                                                            hook trust, ONLY when the operator
                                                            asks (`apply --trust-hooks`, or the
                                                            app's trust action); kept on later
                                                            runs until the hook or profile changes
  [mcp]      config.toml ("mcp_servers", name), one key item per server (mcp_codex): ownership
             per server, the operator's servers are never touched; `enabled = false` under
             mcpDefaultDisabled except mcpAlwaysEnabled names and servers the operator enabled
             (`enabled = true` written by them in config.toml)
  [settings] config.toml keys from the profile's codex/config.toml, one key item per leaf
             (`notify` only when the profile sets it); a `hooks` table there is refused
  [hooks]    config.toml ("permissions", <profile>, "filesystem", <glob>) = "none": each
             [[policy.paths]] deny rule on reads in the operator's own permission profile (the
             one default_permissions names, defined in config.toml), a sandbox layer that holds
             without the hook; no profile of theirs: nothing (agentdeck.core.targets.codex.permissions)
  [persona]  $CODEX_HOME/AGENTS.md, a managed block at the top (agentdeck.core.targets.persona)
  [skills]   ~/.agents/skills/<skill> links and <command>/SKILL.md files, byte-identical to the
             Copilot adapter's for the same profile, so the engine plans each once, records both
             targets as owners, and only releases (never deletes) one another target still owns

config.toml is edited through TomlDoc (tomlkit): the operator's comments, ordering and unknown
tables survive; what agentdeck manages is recorded in the sidecar $CODEX_HOME/.agentdeck-managed.json.
Codex has no custom agents (docs/facts/codex.md): the profile's agents are not installed for Codex.
The events Codex lacks (post_tool_use_failure, notification, error) are skipped with an info line.

The `info` dict (same shape as the Copilot adapter's where the concept is shared):

  (its hooks: TargetOutput.hooks, a HooksInfo of core/targets/output.py: hooks.json,
  agentdeck-hook.sh, config.toml as `config`, the hooks.json path as trust keys name it as
  `trust_source`, trust_requested (this plan was built with --trust-hooks); each event's handler
  as `entry`, its [hooks.state] key, the trusted_hash that trusts it, the trust Codex reports
  after this plan (trust) and today (trust_now), enabled, will_trust; other_sources: the
  config.toml [[hooks.<Event>]] hooks, kind "inline-config")
  (its MCP servers: TargetOutput.mcp, an McpInfo of core/targets/output.py)
  (its skills and commands in the shared ~/.agents/skills: TargetOutput.skills, a SkillsInfo)
  (with paths rules, its permission profile's entries: TargetOutput.permissions, a
  PermissionProfileInfo: the file, the profile or None and why, a ProfileEntry per path, each
  rule's translation)
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from ...desired import Desired, DesiredState
from ...disk import DiskView
from ...policy import compiled as compiled_policy
from ...errors import UserError
from .. import registry
from ...host import Host
from ...manifest import Manifest
from ...model import Profile
from ...secrets import scan_value
from .. import skills, takeover
from . import hooks as codex_hooks
from . import mcp as mcp_codex
from ..mcp_switches import not_written, report
from ..output import HookSourceInfo, McpInfo, McpServerInfo, tool_names
from ..mcp_switches import profile_disabled as profile_disabled_servers
from ..base import DEFAULT_OPTIONS, RunOptions, Target
from ..persona import PERSONA_MARKERS, build_persona
from . import SPEC

T = "codex"

#: top-level keys a profile's codex/config.toml may not set, and why
RESERVED_NATIVE = {
    "hooks": "agentdeck registers hooks in hooks.json, and hook trust is written only when you "
             "ask for it (apply --trust-hooks)",
}


def _flatten(d: dict, prefix: tuple[str, ...] = ()):
    for k, v in d.items():
        if isinstance(v, dict) and v:
            yield from _flatten(v, prefix + (k,))
        else:
            yield prefix + (k,), v


_KIND_NAMES = {"str": "a string", "bool": "true or false", "int": "an integer",
               "table": "a table", "str_list": "a list of strings"}


def _kind_ok(kind: str, v: Any) -> bool:
    if kind == "str":
        return isinstance(v, str)
    if kind == "bool":
        return isinstance(v, bool)
    if kind == "int":
        return isinstance(v, int) and not isinstance(v, bool)
    if kind == "table":
        return isinstance(v, dict)
    if kind == "str_list":
        return isinstance(v, list) and all(isinstance(x, str) for x in v)
    return True


def _jsonable(v: Any) -> bool:
    try:
        json.dumps(v)
        return True
    except (TypeError, ValueError):
        return False


class CodexTarget(Target):
    #: capabilities: TRUST_HOOKS (RunOptions.trust_hooks adds the [hooks.state] trust items)
    spec = registry.spec(T)

    def desired(self, profile: Profile, view: DiskView,
                options: RunOptions = DEFAULT_OPTIONS) -> DesiredState:
        st = DesiredState(T)
        host = view.host
        home = SPEC.home(host)
        config_path = home / "config.toml"
        config = view.data(config_path, "toml")
        if config is not None and not isinstance(config, dict):
            raise UserError("expected a table at the top level", path=str(config_path))
        manifest = view.manifest(T, self.manifest_path(host))

        self._hooks(profile, view, config, manifest, options, st)
        self._native(profile, host, st)
        self._permissions(profile, host, config, st)
        self._mcp(profile, host, config, st)
        found = takeover.detect(view, T, manifest)   # another tool's install
        replaces, why = takeover.persona_replaces(found)
        st.add(Desired(T, home / "AGENTS.md", "block", build_persona(profile, "Codex CLI"),
                       markers=PERSONA_MARKERS, placement="top", label="persona", group="persona",
                       replaces=replaces, pinned=replaces is not None,
                       reason=why or "the profile's AGENTS.md chain and compiled rules; your text "
                                     "outside the markers is kept"))
        takeover.record(st, found)
        info = skills.shared_skill_items(T, profile, view, st,
                                  "Codex has no slash commands (~/.codex/prompts is gone since "
                                  "0.117): the command becomes a model-discoverable skill")
        if info.links or info.commands:
            st.note("~/.agents/skills is shared with Copilot CLI: when both are planned, each "
                    "skill is listed once (under copilot) and recorded for both")
        if profile.agents:
            st.note(f"Codex has no custom agents; the profile's agents "
                    f"({', '.join(sorted(profile.agents))}) are not installed for Codex")
        st.output.skills = info
        return st

    # ---- the [[policy.paths]] rules in the operator's own permission profile ------------------
    def _permissions(self, profile: Profile, host: Host, config: dict | None,
                     st: DesiredState) -> None:
        from . import permissions as codex_permissions

        native = profile.native.get("codex/config.toml", {})
        info = codex_permissions.add_to(
            st, compiled_policy.policy_of(profile), SPEC.home(host) / "config.toml", config,
            "permissions" in native or "default_permissions" in native, host.display)
        if info is not None:
            st.output.permissions = info

    # ---- hooks and trust -----------------------------------------------------------------------
    def _hooks(self, profile: Profile, view: DiskView, config: dict | None, manifest: Manifest,
               options: RunOptions, st: DesiredState) -> None:
        from .. import wrapper as wrapper_mod

        host = view.host
        home = SPEC.home(host)
        config_path = home / "config.toml"
        hp = codex_hooks.plan_hooks(profile, view, config)
        for w in hp.warnings:
            st.warn(w)
        for n in hp.notes:
            st.note(n)
        if hp.lacking:
            st.note(f"Codex has no hook event for {', '.join(hp.lacking)}; "
                    f"{'that event is' if len(hp.lacking) == 1 else 'those events are'} not "
                    "registered for Codex"
                    + (" (Codex's own `notify` program is set only when the profile's "
                       "codex/config.toml sets notify)" if "notification" in hp.lacking else ""))
        if hp.wrapper_text is not None:
            st.add(Desired(T, home / codex_hooks.WRAPPER_NAME, "file", hp.wrapper_text,
                           mode=wrapper_mod.WRAPPER_MODE, label="hook wrapper", group="hooks",
                           reason=f"execs the profile's handler ({profile.hooks.command}) for each "
                                  "event, so the registered hooks (and their trust) stay byte-stable"))
            compiled_policy.add_to(st, profile, host, T)
        if hp.hooks_text is not None:
            n_events = len(hp.hooks)
            st.add(Desired(T, home / codex_hooks.HOOKS_FILE, "file", hp.hooks_text,
                           label=f"hooks ({n_events} events)", group="hooks",
                           reason=f"registers {n_events} events, each calling the wrapper with timeout "
                                  f"{profile.hooks.timeout} s"))
        # trust: agentdeck's own hooks are trusted by default (Codex skips untrusted hooks
        # without a word), unless the operator said no; only ever agentdeck's own content: a
        # hook not registered now is trusted only together with agentdeck's hooks file
        trust_hooks = options.trust_hooks
        hooks_path = home / codex_hooks.HOOKS_FILE
        on_disk = view.text(hooks_path)
        rec_file = manifest.entries.get(str(hooks_path))
        from ...digest import sha256
        # another's hooks file (not the profile's, not what agentdeck last wrote there)
        theirs_now = (hp.hooks_text is not None and on_disk is not None
                      and on_disk != hp.hooks_text
                      and not (rec_file is not None and rec_file.fingerprint == sha256(on_disk)))
        recorded: dict[str, Any] = {}
        for e in manifest.entries.values():
            if (e.kind == "key" and e.path == str(config_path) and len(e.key) == 4
                    and e.key[:2] == ["hooks", "state"] and e.key[3] == "trusted_hash"):
                recorded[e.key[2]] = e.value
        rows = []
        for h in hp.hooks:
            rec = recorded.get(h.key)
            wants: str | None = None
            follows = ""
            if trust_hooks:
                wants = h.hash
                reason = ("--trust-hooks: Codex runs this hook once its exact content is trusted"
                          if options.trust_pinned else
                          "agentdeck trusts its own hooks by default: Codex runs a hook only once "
                          "its exact content is trusted (`--no-trust-hooks`, or the app's choice, "
                          "leaves them untrusted)")
                if not h.registered_now:
                    follows = str(hooks_path)
                    if theirs_now:
                        reason += ("; only with agentdeck's hooks file: "
                                   f"{host.display(hooks_path)} holds other hooks now (take it, "
                                   "and this is trusted with it)")
            if wants is not None:
                st.add(Desired(T, config_path, "key", wants,
                               key=("hooks", "state", h.key, "trusted_hash"), fmt="toml",
                               label=f"trust hook {h.event}", group="hooks", reason=reason,
                               pinned=options.trust_pinned, follows=follows))
            row = h.info(wants, rec, removed=rec is not None and wants is None
                         and rec == h.trusted_hash_on_disk)
            if follows and theirs_now:      # trusted only if the operator takes the hooks file
                row = dataclasses.replace(row, will_trust=False,
                                          trust=h.status_now or "untrusted",
                                          trust_with_hooks_file=True)
            rows.append(row)
        hp.info.events = tuple(rows)
        hp.info.trust_requested = trust_hooks
        st.output.hooks = hp.info
        if rows and theirs_now and not any(r.registered_now for r in rows):
            st.warn(f"hook trust: {host.display(hooks_path)} holds other hooks, not agentdeck's, so "
                    "agentdeck trusts none (never another tool's hooks); take that file "
                    f"(`--take {host.display(hooks_path)}`) and agentdeck's hooks are written and "
                    "trusted in the same apply")
        elif rows:
            level, line = codex_hooks.trust_summary(rows)
            (st.warn if level == "warning" else st.note)(line)
        inline = codex_hooks.inline_hook_events(config)
        if inline:
            hp.info.other_sources = (HookSourceInfo(
                kind="inline-config", path=str(config_path), events=tuple(inline),
                note="config.toml [[hooks.<Event>]] hooks run in addition to hooks.json: a hook "
                     "defined in both fires twice"),)
            st.warn(f"other hook source: {host.display(config_path)} ({', '.join(inline)}): "
                    "config.toml [[hooks.<Event>]] hooks run in addition to hooks.json")

    # ---- native config.toml keys ---------------------------------------------------------------
    def _native(self, profile: Profile, host: Host, st: DesiredState) -> None:
        path = SPEC.home(host) / "config.toml"
        native = dict(profile.native.get("codex/config.toml", {}))
        native.pop("mcp_servers", None)    # merged per server in _mcp
        for key, why in RESERVED_NATIVE.items():
            if key in native:
                native.pop(key)
                st.warn(f"the profile's codex/config.toml table {key!r} is dropped: {why}")
        from .facts import CODEX
        known = getattr(CODEX, "config_keys", None)
        kinds = getattr(CODEX, "config_key_types", None) or {}
        for top in sorted(native):
            if known and top not in known:
                st.warn(f"the profile's codex/config.toml key {top!r} is not written: Codex does not "
                        "know it (`--strict-config` refuses it; a typo?)")
                native.pop(top)
            elif top in kinds and not _kind_ok(kinds[top], native[top]):
                st.warn(f"the profile's codex/config.toml key {top!r} is not written: Codex expects "
                        f"{_KIND_NAMES.get(kinds[top], kinds[top])} there, and a wrong type makes it "
                        "refuse the whole config.toml")
                native.pop(top)
        for keypath, value in _flatten(native):
            label = ".".join(keypath)
            if not _jsonable(value):
                st.warn(f"the profile's codex/config.toml key {label} is not written: its value "
                        "(a TOML date or time) cannot be recorded")
                continue
            hits = scan_value(value, label)
            warns = [f"{h.where}: literal credential ({h.kind}, {h.excerpt}); config.toml is "
                     "written 0600" for h in hits]
            st.add(Desired(T, path, "key", value, key=keypath, fmt="toml", label=label,
                           group="settings", warnings=warns, secret=bool(hits),
                           file_mode=0o600 if hits else None,
                           reason="set by the profile's codex/config.toml"))

    # ---- MCP -----------------------------------------------------------------------------------
    def _mcp(self, profile: Profile, host: Host, config: dict | None, st: DesiredState) -> None:
        path = SPEC.home(host) / "config.toml"
        on_disk = (config or {}).get("mcp_servers")
        on_disk = on_disk if isinstance(on_disk, dict) else {}
        native = profile.native.get("codex/config.toml", {}).get("mcp_servers", {}) or {}
        if not isinstance(native, dict):
            st.warn("the profile's codex/config.toml mcp_servers is not a table; ignored")
            native = {}
        d = profile.directives
        always = set(d.mcpAlwaysEnabled)
        profile_disabled = profile_disabled_servers(profile)
        names = list(profile.mcp_servers) + [n for n in native if n not in profile.mcp_servers]
        servers: list[McpServerInfo] = []
        for name in names:
            skills.safe_name(name, "MCP server name")
            nat = native.get(name)
            if nat is not None and not isinstance(nat, dict):
                st.warn(f"codex/config.toml mcp_servers.{name} is not a table; ignored")
                nat = None
            tr = mcp_codex.translate(name, profile.mcp_servers.get(name), nat)
            if tr.entry is None:
                servers.append(not_written(st, name, tr.transport, tr.warnings))
                continue
            entry = tr.entry
            now = on_disk.get(name)
            enabled_now = not (isinstance(now, dict) and now.get("enabled") is False) if now is not None else False
            if nat is not None and "enabled" in nat:
                reason = "enabled" if entry.get("enabled") is not False else "profile-disabled"
            elif name in always:
                reason = "always-enabled"
            elif isinstance(now, dict) and now.get("enabled") is True:
                entry["enabled"] = True        # the operator switched it on: keep theirs
                reason = "operator-enabled"
            elif d.mcpDefaultDisabled or name in profile_disabled:
                entry["enabled"] = False
                reason = "default-disabled" if d.mcpDefaultDisabled else "profile-disabled"
            else:
                reason = "enabled"
            why = {"default-disabled": "; mcpDefaultDisabled: enabled = false until you enable it",
                   "profile-disabled": "; disabled by the profile",
                   "always-enabled": "; enabled (mcpAlwaysEnabled)",
                   "operator-enabled": "; kept enabled: you set enabled = true"}.get(reason, "")
            st.add(Desired(T, path, "key", entry, key=("mcp_servers", name), fmt="toml",
                           label=f"MCP server {name}", group="mcp", warnings=list(tr.warnings),
                           secret=tr.secret, file_mode=0o600 if tr.secret else None,
                           reason=f"{tr.transport} server from the profile{why}"))
            servers.append(McpServerInfo(
                name=name, transport=tr.transport, origin="profile",
                enabled=entry.get("enabled") is not False, enabled_now=enabled_now,
                reason=reason, tools=tool_names(entry.get("enabled_tools")), secret=tr.secret,
                warnings=tuple(tr.warnings)))
        for name, entry in on_disk.items():
            if name in names:
                continue
            hits = [f"{h.where}: {h.kind} ({h.excerpt})" for f in mcp_codex.SCANNED_FIELDS
                    if isinstance(entry, dict) and f in entry for h in scan_value(entry[f], f)]
            en = not (isinstance(entry, dict) and entry.get("enabled") is False)
            servers.append(McpServerInfo(
                name=name, transport=mcp_codex.transport_of(entry), origin="operator",
                enabled=en, enabled_now=en, reason="enabled" if en else "operator-disabled",
                tools=tool_names(entry.get("enabled_tools")) if isinstance(entry, dict)
                else None,
                secret=bool(hits),
                warnings=(f"MCP server {name} (yours) holds literal credentials: "
                          f"{'; '.join(hits)}",) if hits else ()))
        report(st, McpInfo(file=str(path), default_disabled=d.mcpDefaultDisabled,
                           always_enabled=tuple(sorted(always)), servers=tuple(servers)))
