"""GitHub Copilot CLI target: the complete install of docs/facts/copilot.md (1.0.102).

Every part is its own plan item with its own class and reason (group in brackets):

  [hooks]    $COPILOT_HOME/agentdeck-hook.sh (0755, file)      the wrapper (agentdeck.core.targets.wrapper)
             $COPILOT_HOME/hooks/agentdeck.json (file)         the registration (copilot_hooks)
  [settings] settings.json keys (JSONC, comments kept):        disableAllHooks (pinned false),
             statusLine (command form, only when the profile sets one), disabledMcpServers
             (computed, one item), and the profile's copilot/settings.json keys, type-checked
             against core.targets.copilot.facts (one invalid value voids all of settings.json)
  [mcp]      mcp-config.json ("mcpServers", name), one key item per server (mcp_copilot)
  [env]      <state dir>/copilot.env (0600, file) + a block at the bottom of ~/.bashrc
             (directives, browser)
  [persona]  copilot-instructions.md, a managed block at the top (agentdeck.core.targets.persona)
  [skills]   ~/.agents/skills/<skill> links and <command>/SKILL.md files (skills)
  [agents]   $COPILOT_HOME/agents/<name>.md (agents.translate)

What agentdeck manages is recorded in the sidecar $COPILOT_HOME/.agentdeck-managed.json, never
inside settings.json (Copilot warns about unknown keys on every launch). config.json (auth,
trusted folders) is never written; only its trustedFolders list is read, to report repo hooks.

Its typed output (core/targets/output.py): `found` (another tool's install, takeover.record),
`browser` (capability BROWSER: browser.BrowserResolution.typed(), which browser the directives
resolve to) and `mcp` (an McpInfo: mcp-config.json, settings.json that holds
disabledMcpServers, the list this plan leaves there as off_list_planned, each server's
McpServerInfo with enabled_now as settings.json says now), and (every path absolute):

  (its hooks: TargetOutput.hooks, a HooksInfo of core/targets/output.py: hooks/agentdeck.json,
  agentdeck-hook.sh, each event's action as `entry` with its disable_key and state
  ("active" | "disabled-by-operator"), whether this apply changes the key and re-enables a hook
  the operator disabled; other_sources: "inline-settings" | "user-hooks-file" | "repo-hooks" |
  "repo-claude-hooks" | "policy")
  (the env file of its directives, capability ENV_FILE: TargetOutput.env, an EnvInfo: the
  file, ~/.bashrc, the file's variable lines, each variable's value and directive, and the
  caveat that non-interactive shells do not see them)
  (its skills, commands and agents, capability SKILLS: TargetOutput.skills, a SkillsInfo)
"""
from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from types import MappingProxyType
from typing import AbstractSet as Set, Any

from ...desired import Desired, DesiredState
from ...disk import MISSING, DiskView
from .. import registry
from ...policy import compiled as compiled_policy
from .facts import COPILOT
from ...errors import UserError
from ...host import Host
from ...digest import canonical
from ...formats.jsonc import MISSING as ABSENT
from ...manifest import Manifest, entry_id
from ...model import Profile
from . import browser as browser_mod
from .. import skills, takeover
from ..hook_events import disable_all_pin_reason
from . import agents, directives
from . import hooks as copilot_hooks
from . import mcp as mcp_copilot
from ..mcp_switches import not_written, report
from ..output import EnvInfo, EnvVariable, McpInfo, McpServerInfo, SkillAgent, tool_names
from ..base import DEFAULT_OPTIONS, RunOptions, Target
from ..persona import PERSONA_MARKERS, build_persona
from ..wrapper import WRAPPER_MODE
from . import SPEC
from ...wording import count_of

T = "copilot"
#: keys a profile's copilot/settings.json may not set, and why
RESERVED_SETTINGS = {
    "hooks": "an inline hooks key would run alongside hooks/agentdeck.json and fire every hook "
             "twice; agentdeck registers hooks in hooks/agentdeck.json only",
    "trustedFolders": "folder trust lives in config.json, which agentdeck never writes; in "
                      "settings.json it is an unknown key",
    "disabledHooks": "the per-hook disable list is yours (Copilot's /hooks writes it); "
                     "agentdeck does not manage it",
    "enabledMcpServers": "Copilot records your /mcp enable here; agentdeck reads it and never "
                         "writes it",
}


class CopilotTarget(Target):
    spec = registry.spec(T)

    # the run's choices: Target.profile_for applies directives and MCP switches
    # (mcp_switches.py); the app keeps them in the operator's layer (core/overlay.py)

    def migrate_manifest(self, manifest: Manifest, view: DiskView) -> None:
        path = SPEC.home(view.host) / "settings.json"
        try:
            data = view.data(path, "jsonc")
        except UserError:
            return                       # the plan reports the broken file
        _disabled_members(manifest, path, data.get("disabledMcpServers")
                          if isinstance(data, dict) else None)

    # -------------------------------------------------------------------------------------------
    def desired(self, profile: Profile, view: DiskView,
                options: RunOptions = DEFAULT_OPTIONS) -> DesiredState:
        st = DesiredState(T)
        host = view.host
        home = SPEC.home(host)
        settings_path = home / "settings.json"
        settings = view.data(settings_path, "jsonc")
        if settings is not None and not isinstance(settings, dict):
            raise UserError("expected an object at the top level", path=str(settings_path))
        manifest = view.manifest(T, self.manifest_path(host))
        found = takeover.detect(view, T, manifest)   # another tool's install: taken over

        self._hooks(profile, view, settings, st, found)
        profile_disabled = self._settings(profile, host, st)
        self._mcp(profile, view, settings, manifest, profile_disabled, st,
                  keep=takeover.tool_servers(found))
        self._env(profile, host, st)
        persona = build_persona(profile, "Copilot CLI").rstrip("\n") + "\n"   # as read back
        replaces, why = takeover.persona_replaces(found)
        st.add(Desired(T, home / "copilot-instructions.md", "block", persona, markers=PERSONA_MARKERS,
                       placement="top", label="persona", group="persona",
                       replaces=replaces, pinned=replaces is not None,
                       reason=why or "the profile's AGENTS.md chain and compiled rules; your text "
                                     "outside the markers is kept"))
        takeover.record(st, found)
        self._skills(profile, view, st)
        for w in profile.directive_warnings:
            st.warn(w)
        return st

    # ---- hooks ---------------------------------------------------------------------------------
    def _hooks(self, profile: Profile, view: DiskView, settings: dict | None, st: DesiredState,
               found: list) -> None:
        host = view.host
        home = SPEC.home(host)
        hp = copilot_hooks.plan_hooks(profile, view, settings)
        if hp.wrapper_text is not None:
            st.add(Desired(T, home / copilot_hooks.WRAPPER_NAME, "file", hp.wrapper_text,
                           mode=WRAPPER_MODE, label="hook wrapper", group="hooks",
                           reason=f"execs the profile's handler ({profile.hooks.command}) for each "
                                  "event, so the registered hooks stay byte-stable"))
            compiled_policy.add_to(st, profile, host, T)
        if hp.hooks_text is not None:
            evs = hp.info.events
            off = [e.event for e in evs if e.state == "disabled-by-operator"]
            state = (f"{len(off)} disabled by you in disabledHooks ({', '.join(off)}), the rest active"
                     if off else "all active")
            rekeyed = [e.event for e in evs if e.changes_key]
            if rekeyed:
                state += (f"; this changes the registered action, and so the disable key, of "
                          f"{count_of(len(rekeyed), 'hook')}")
            st.add(Desired(T, home / "hooks" / copilot_hooks.HOOKS_FILE, "file", hp.hooks_text,
                           label=f"hooks ({len(evs)} events)", group="hooks",
                           warnings=hp.item_warnings,
                           reason=f"registers {', '.join(e.event for e in evs)} as "
                                  f"`{host.display(home / copilot_hooks.WRAPPER_NAME)} <event>`, "
                                  f"timeoutSec {profile.hooks.timeout}; {state}"))
        aside = takeover.add_aside_items(found, st) if hp.hooks_text is not None else set()
        takeover.kept_unless_set_aside(found, aside)
        for n in hp.notices:
            st.warn(n)
        back = {str(f.aside) for f in found if f.back}
        for src in hp.info.other_sources:
            if src.path in back:
                src.note = ("kept (the take-over above says why), so both run; take that "
                            "item to set it aside")
            elif src.path in aside:
                src.note = "set aside by this plan (the take-over above); skip that item and both run"
            level = st.warn if src.kind == "inline-settings" else st.note
            ev = f" ({', '.join(src.events)})" if src.events else ""
            level(f"other hook source: {host.display(src.path)}{ev}: {src.note}")
        st.output.hooks = hp.info

    # ---- settings.json -------------------------------------------------------------------------
    def _settings(self, profile: Profile, host: Host, st: DesiredState) -> Any:
        """The settings.json key items; returns the profile's own disabledMcpServers (or None),
        which joins the computed list in _mcp."""
        from .settings import check_setting

        path = SPEC.home(host) / "settings.json"
        st.add(Desired(T, path, "key", False, key=("disableAllHooks",), fmt="jsonc", pinned=True,
                       label="disableAllHooks", group="settings",
                       reason=disable_all_pin_reason("Copilot CLI", COPILOT.disable_all_stops_user_hooks,
                                                     COPILOT.verified_versions[1])))
        native = dict(profile.native.get("copilot/settings.json", {}))
        for key, why in RESERVED_SETTINGS.items():
            if key in native:
                native.pop(key)
                st.warn(f"the profile's copilot/settings.json key {key!r} is dropped: {why}")
        if "disableAllHooks" in native:
            v = native.pop("disableAllHooks")
            if v is not False:
                st.warn(f"the profile's disableAllHooks {v!r} is ignored: agentdeck pins it to false")
        profile_disabled = native.pop("disabledMcpServers", None)
        if "statusLine" in native:
            sl = native.pop("statusLine")
            value, problem = normalize_status_line(sl)
            problem = problem or check_setting("statusLine", value)
            if problem:
                st.warn(f"the profile's statusLine is not written: {problem}")
            else:
                st.add(Desired(T, path, "key", value, key=("statusLine",), fmt="jsonc",
                               label="statusLine", group="settings",
                               reason="the profile's status line command (session JSON on stdin)"))
        for key in sorted(native):
            value = native[key]
            problem = check_setting(key, value)
            if problem:
                st.warn(f"the profile's copilot/settings.json key {key!r} is not written: {problem} "
                        "(one invalid value makes Copilot ignore the whole settings.json)")
                continue
            st.add(Desired(T, path, "key", value, key=(key,), fmt="jsonc", label=key,
                           group="settings", reason="set by the profile's copilot/settings.json"))
        return profile_disabled

    # ---- MCP -----------------------------------------------------------------------------------
    def _mcp(self, profile: Profile, view: DiskView, settings: dict | None, manifest: Manifest,
             profile_disabled: Any, st: DesiredState, keep: Set[str] = frozenset()) -> None:
        """keep: servers of a tool install being taken over (takeover.py): not default-disabled."""
        host = view.host
        home = SPEC.home(host)
        mcp_path = home / "mcp-config.json"
        settings_path = home / "settings.json"
        mdoc = view.json(mcp_path, jsonc=COPILOT.mcp_file_jsonc)
        on_disk = mdoc.data.get("mcpServers") if mdoc is not None and isinstance(mdoc.data, dict) else None
        on_disk = on_disk if isinstance(on_disk, dict) else {}
        native = (profile.native.get("copilot/mcp-config.json", {}) or {}).get("mcpServers") or {}
        if not isinstance(native, dict):
            st.warn("the profile's copilot/mcp-config.json mcpServers is not an object; ignored")
            native = {}
        names = list(profile.mcp_servers) + [n for n in native if n not in profile.mcp_servers]
        d = profile.directives
        always = set(d.mcpAlwaysEnabled)
        operator_enabled = _str_list((settings or {}).get("enabledMcpServers"))
        actual_disabled = (settings or {}).get("disabledMcpServers")
        if actual_disabled is not None and not isinstance(actual_disabled, list):
            raise UserError("disabledMcpServers: expected a list of server names",
                            path=str(settings_path))
        if profile_disabled is not None and not isinstance(profile_disabled, list):
            st.warn("the profile's disabledMcpServers must be a list of names; ignored")

        # 1. translate the profile's servers
        written: dict[str, mcp_copilot.Translation] = {}
        for name in names:
            skills.safe_name(name, "MCP server name")
            nat = native.get(name)
            if nat is not None and not isinstance(nat, dict):
                st.warn(f"copilot/mcp-config.json server {name!r} is not an object; ignored")
                nat = None
            written[name] = mcp_copilot.translate(name, profile.mcp_servers.get(name), nat)
        ok = [n for n, tr in written.items() if tr.entry is not None]

        # 2. servers agentdeck wrote before that the profile no longer wants and that will go
        #    (the engine removes a recorded server unless you changed it since)
        dropped: set[str] = set()
        for e in manifest.entries.values():
            if (e.kind == "key" and e.path == str(mcp_path) and len(e.key) == 2
                    and e.key[0] == "mcpServers" and e.key[1] not in ok):
                now = on_disk.get(e.key[1], MISSING)
                if now is MISSING or canonical(now) == e.fingerprint:
                    dropped.add(e.key[1])
        operators = [n for n in on_disk if n not in written and n not in dropped]

        # 3. which servers agentdeck wants disabled, and the disabledMcpServers list
        ours: list[str] = []
        if d.mcpDefaultDisabled:   # never re-disable a server you enabled with /mcp enable
            ours = [n for n in ok + operators if n not in always and n not in operator_enabled
                    and n not in keep]
        for n in _str_list(profile_disabled):   # the profile's explicit list wins
            if n not in ours:
                ours.append(n)
        # each name agentdeck disables is its own member of the operator's list: added
        # when missing, removed (only it) when no longer wanted or on uninstall; a name that was
        # there before agentdeck is the operator's and never becomes ours
        members = _disabled_members(manifest, settings_path, actual_disabled)
        have = _str_list(actual_disabled)
        contributed = [n for n in ours if n in members or n not in have]
        withdrawn = {n for n in members if n not in contributed}
        now_disabled = set(have)
        final_disabled = (now_disabled - withdrawn) | set(contributed)
        common: dict[str, Any] = dict(planned_disabled=final_disabled, disabled_now=now_disabled,
                      ours=set(contributed),
                      always=always, operator_enabled=operator_enabled)

        # 4. one key item per profile server
        servers_info: list[McpServerInfo] = []
        for name, tr in written.items():
            if tr.entry is None:
                servers_info.append(not_written(st, name, tr.transport, tr.warnings))
                continue
            row = _server_info(name, tr.transport, "profile", tr.entry.get("tools"),
                               warnings=tr.warnings, secret=tr.secret, **common)
            servers_info.append(row)
            st.add(Desired(T, mcp_path, "key", tr.entry, key=("mcpServers", name),
                           fmt="jsonc" if COPILOT.mcp_file_jsonc else "json",
                           label=f"MCP server {name}", group="mcp", warnings=list(tr.warnings),
                           secret=tr.secret, file_mode=0o600 if tr.secret else None,
                           reason=f"{tr.transport} server from the profile; {_state_phrase(row)}"))
        for name in operators:
            entry = on_disk[name]
            hits = mcp_copilot.operator_secret_hits(entry)
            warns = ((f"MCP server {name} (yours) holds literal credentials: {'; '.join(hits)}",)
                     if hits else ())
            servers_info.append(_server_info(
                name, mcp_copilot.transport_of(entry) if isinstance(entry, dict) else "stdio",
                "operator", entry.get("tools") if isinstance(entry, dict) else None,
                warnings=warns, secret=bool(hits), **common))
            mode = view.state(mcp_path).mode
            if hits and mode is not None and mode & 0o077:
                st.warn(f"your MCP server {name} holds a literal credential and "
                        f"{host.display(mcp_path)} is mode {mode:o}; consider chmod 600")

        # 5. the disabledMcpServers members
        why = "mcpDefaultDisabled" if d.mcpDefaultDisabled else "the profile"
        for name in contributed:
            st.add(Desired(T, settings_path, "key", name, key=("disabledMcpServers",),
                           member=name, fmt="jsonc", label=f"disabledMcpServers: {name}",
                           group="settings",
                           reason=f"{why}: {name} is configured but not connected until "
                                  f"`/mcp enable {name}`; the other names in the list are yours "
                                  "and stay as they are"))
        for n in sorted(always & (now_disabled - set(contributed) - withdrawn)):
            st.warn(f"{n} is in mcpAlwaysEnabled but you disabled it yourself; agentdeck never "
                    f"removes your entries (run `/mcp enable {n}` in Copilot to connect it)")
        want_list = [n for n in have if n not in withdrawn] + [n for n in contributed if n not in have]
        report(st, McpInfo(file=str(mcp_path), settings=str(settings_path),
                           default_disabled=d.mcpDefaultDisabled,
                           always_enabled=tuple(sorted(always)), servers=tuple(servers_info),
                           off_list_planned=tuple(want_list)))

    # ---- env file + ~/.bashrc ------------------------------------------------------------------
    def _env(self, profile: Profile, host: Host, st: DesiredState) -> None:
        d = profile.directives
        res = browser_mod.resolve(host, d.browserCommand, d.suppressBrowserLaunch, SPEC.home(host))
        env = directives.EnvPlan()
        directives.allow_all(d.allowAll, env)
        directives.channels(d.channels, env)
        directives.browser(res, env)
        for w in res.warnings + env.warnings:
            st.warn(w)
        for n in res.notes + env.notes:
            st.note(n)
        st.output.browser = res.typed()
        env_path = host.state_dir / directives.ENV_FILE_NAME
        bashrc = host.home / ".bashrc"
        text = directives.render_env_file(profile.name, env.variables) if env.variables else None
        st.output.env = EnvInfo(
            file=str(env_path), bashrc=str(bashrc),
            lines=tuple(ln for ln in (text or "").splitlines() if ln and not ln.startswith("#")),
            variables=MappingProxyType({k: EnvVariable(v, env.sources[k])
                                        for k, v in env.variables}),
            caveat=directives.NON_INTERACTIVE_CAVEAT)
        if not env.variables:
            return
        names = ", ".join(k for k, _ in env.variables)
        st.add(Desired(T, env_path, "file", text, mode=0o600, secret=True,
                       label="directives env file", group="env",
                       reason=f"{names} from the profile's _agentdeck directives"))
        st.add(Desired(T, bashrc, "block", directives.bashrc_block(env_path),
                       markers=directives.BASHRC_MARKERS, placement="bottom",
                       label="~/.bashrc sources the env file", group="env",
                       reason=f"exports {names} in interactive shells"))
        st.note(f"{names}: {directives.NON_INTERACTIVE_CAVEAT}")

    # ---- skills, commands, agents --------------------------------------------------------------
    def _skills(self, profile: Profile, view: DiskView, st: DesiredState) -> None:
        host = view.host
        info = skills.shared_skill_items(
            T, profile, view, st, "Copilot has no slash commands: the command becomes a "
                                  "model-discoverable skill")
        written: list[SkillAgent] = []
        for name in sorted(profile.agents):
            tr = agents.translate(name, profile.agents[name])
            path = SPEC.home(host) / "agents" / f"{name}.md"
            written.append(SkillAgent(name, str(path), tuple(tr.warnings)))
            st.add(Desired(T, path, "file", tr.text, label=f"agent {name}", group="agents",
                           warnings=tr.warnings,
                           reason="the profile's agent, translated to Copilot's tool names"))
        st.output.skills = dataclasses.replace(info, agents=tuple(written))


# ---- helpers ----------------------------------------------------------------------------------------

def _disabled_members(manifest: Manifest, settings_path: Path, actual: Any) -> set[str]:
    """The disabledMcpServers names agentdeck recorded as its own members. A record of the list
    as one value (agentdeck before 16.1, `meta["contributed"]`) is read as member records of the
    names it contributed that are still there, so the upgrade neither restores the old list nor
    drops a name (the manifest is rewritten in this form at the next apply)."""
    from ...manifest import Entry

    whole = entry_id(str(settings_path), "key", ("disabledMcpServers",))
    old = manifest.entries.get(whole)
    if old is not None and not old.member:
        del manifest.entries[whole]
        contributed = (old.meta or {}).get("contributed") if isinstance(old.meta, dict) else None
        for n in _str_list(contributed):
            if n in _str_list(actual):
                e = Entry(str(settings_path), "key", canonical(n), key=["disabledMcpServers"],
                          fmt="jsonc", value=n, prior=ABSENT, created_file=old.created_file,
                          created_dirs=list(old.created_dirs or []),
                          label=f"disabledMcpServers: {n}", member=n)
                manifest.entries[e.id] = e
    return {e.member for e in manifest.entries.values()
            if e.kind == "key" and e.path == str(settings_path) and e.member
            and list(e.key) == ["disabledMcpServers"]}


def _state_phrase(row: McpServerInfo) -> str:
    return {
        "default-disabled": f"configured but not connected until `/mcp enable {row.name}` "
                            "(mcpDefaultDisabled)",
        "operator-disabled": "disabled by you (disabledMcpServers)",
        "always-enabled": "enabled (mcpAlwaysEnabled)",
        "operator-enabled": "enabled by you (enabledMcpServers)",
        "enabled": "enabled",
    }.get(row.reason, row.reason)


def _str_list(v: Any) -> list[str]:
    return [x for x in v if isinstance(x, str)] if isinstance(v, list) else []


def _server_info(name: str, transport: str, origin: str, tools: Any, planned_disabled: set[str],
                 disabled_now: set[str], ours: set[str], always: set[str],
                 operator_enabled: list[str], warnings: Sequence[str],
                 secret: bool) -> McpServerInfo:
    """One row of the MCP report's servers: its state as this plan wants it, and why."""
    enabled = name not in planned_disabled
    if not enabled:
        reason = "default-disabled" if name in ours else "operator-disabled"
    elif name in always:
        reason = "always-enabled"
    elif name in operator_enabled:
        reason = "operator-enabled"
    else:
        reason = "enabled"
    return McpServerInfo(name=name, transport=transport, origin=origin, enabled=enabled,
                         enabled_now=name not in disabled_now, reason=reason,
                         tools=tool_names(tools) if isinstance(tools, list) else None,
                         secret=secret, warnings=tuple(warnings))


def normalize_status_line(value: Any) -> tuple[Any, str | None]:
    """statusLine in Copilot's command form: {"type": "command", "command": str} (a plain string
    is taken as the command)."""
    if isinstance(value, str) and value.strip():
        return {"type": "command", "command": value}, None
    if isinstance(value, dict):
        if value.get("type", "command") != "command":
            return None, f"type must be \"command\", not {value.get('type')!r}"
        cmd = value.get("command")
        if not isinstance(cmd, str) or not cmd.strip():
            return None, "it needs a non-empty \"command\" string"
        out = {"type": "command", "command": cmd}
        for k, v in value.items():
            if k not in out:
                out[k] = v
        return out, None
    return None, "expected a command string or {\"type\": \"command\", \"command\": ...}"
