"""Claude Code target (docs/facts/claude.md, Claude Code 2.1.332).

Every part is its own plan item with its own class and reason (group in brackets):

  [hooks]    <claude home>/agentdeck-hook.sh (0755, file)   the wrapper (agentdeck.core.targets.wrapper)
             settings.json ("hooks", <Event>) member items  one matcher group per event (below)
  [settings] settings.json keys: statusLine (command form) and whatever the profile's
             claude/settings.json sets, one key item per top-level key
  [hooks]    settings.json ("permissions", "deny") member items: each [[policy.paths]] deny
             rule as Claude's own Read(...)/Edit(...) entries, the layer that holds without
             the hook (agentdeck.core.targets.claude.permissions)
  [hooks]    settings.json ("sandbox", "filesystem", "denyRead" | "denyWrite") member items:
             the same rules in Claude's command sandbox, only while the operator's settings
             turn it on (sandbox.enabled true): the floor under code that builds its own paths
             (agentdeck.core.targets.claude.sandbox)
  [mcp]      .claude.json ("mcpServers", name), one key item per server that is on; a server
             that is off (mcpDefaultDisabled, the profile's disabledMcpServers) is not written
             until it is enabled: Claude Code has no user-level off switch (targets/claude/facts.py)
  [persona]  <claude home>/CLAUDE.md, a managed block at the top (agentdeck.core.targets.persona)
  [skills]   <claude home>/skills/<skill> links to the profile's skill folders;
             <claude home>/commands/<name>.md, the profile's commands as they are (Claude has
             slash commands)
  [agents]   <claude home>/agents/<name>.md, the profile's agents as they are (Claude format)

<claude home> is ~/.claude, or CLAUDE_CONFIG_DIR when set (then .claude.json lives inside it
too). What agentdeck manages is recorded in the sidecar <claude home>/.agentdeck-managed.json.

Hooks, and why they are list-member items. Claude keeps hooks inline in settings.json,
`{"hooks": {"<Event>": [<matcher group>, ...]}}`, and the operator often has groups of their own
in the very events agentdeck registers. The obvious shapes are all wrong:

- one key item ("hooks",) holding the whole object clobbers the operator's events;
- one key item per event holding the full list makes the operator's groups part of agentdeck's
  value: their first hook in PreToolUse turns our install into a "hand-edit", a group they add
  later becomes a "conflict" the next time the profile changes, and a group they added after our
  first write is lost when uninstall restores "what was there before";
- merging their groups into our desired value fixes the first two and keeps the third.

So each event is a *member* item (agentdeck.core.desired.Desired.member): the item is ONE element of the
list at ("hooks", <Event>) -- the matcher group whose JSON contains the path of agentdeck's
wrapper. The three-state rule applies to that group alone: the operator's groups are never
compared, rewritten, reordered or removed; our group is appended on first install and replaced in
place later; the operator editing or deleting our group is a hand-edit (kept, reported, not
re-added); removing it (profile change, uninstall) takes out only our group, and the event key
and `hooks` object only when that leaves them empty.

.claude.json: Claude rewrites this file itself while it runs. agentdeck edits only its own
`mcpServers` entries, and the applier re-checks the file's bytes right before replacing it (as for
every file in a plan, after the stale-plan check at the start): if Claude wrote it in between,
the apply stops, puts back what it already wrote, and says so. A file Claude left half-written
does not parse, and the plan refuses it with file:line:col.

The `info` dict (same shape as the Copilot adapter's where the concept is shared):

  (its hooks: TargetOutput.hooks, a HooksInfo of core/targets/output.py, built by
  core/targets/settings_hooks.py: settings.json, the wrapper, each event's matcher group as
  `entry`, registered_now, operator_groups, `also` for PreSkillShellCommand (decided as
  pre_tool_use), the events skipped, and the operator's own hooks in settings.json as its
  other_sources)
  (with paths rules, its permissions.deny entries: TargetOutput.permissions, a
  PermissionsInfo: the file, a DenyEntry per entry, state "new" | "ours" | "yours", each rule's
  translation)
  (with paths rules, its sandbox entries: TargetOutput.sandbox, a SandboxInfo: whether the
  operator switched the sandbox on and why nothing is written, its ways out (escape,
  fail_open), a SandboxEntry per denyRead/denyWrite entry, each rule's translation)
  (its MCP servers: TargetOutput.mcp, an McpInfo of core/targets/output.py)
  (its skills, commands and agents: TargetOutput.skills, a SkillsInfo)
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ...desired import Desired, DesiredState
from ...disk import DiskView
from ...policy import compiled as compiled_policy
from ...errors import UserError
from .. import registry
from ...host import Host
from ...model import McpServer, Profile
from ...secrets import scan_value
from .. import skills, takeover
from ..base import DEFAULT_OPTIONS, RunOptions, Target
from ..settings_shape import not_carried
from ..settings_hooks import WRAPPER_NAME, plan_settings_hooks
from ..mcp_switches import ON_REASONS, not_written, report, switch_reason
from ..output import (McpInfo, McpServerInfo, PermissionsInfo, SandboxInfo, SkillAgent,
                      SkillCommand, SkillLink, SkillsInfo)
from ..mcp_switches import profile_disabled as profile_disabled_servers
from ..persona import PERSONA_MARKERS, build_persona
from . import SPEC
from .paths import claude_json
from ...wording import noun_for

T = "claude"

#: keys a profile's claude/settings.json may not set, and why
RESERVED_SETTINGS = {
    "hooks": "agentdeck registers the profile's [hooks] handler itself, next to your own hooks; "
             "declare hooks in profile.toml",
}
SCANNED_FIELDS = ("command", "args", "env", "url", "headers")


def translate_mcp(name: str, srv: McpServer) -> tuple[dict | None, list[str], list[str]]:
    """(the .claude.json entry or None, warnings, secret hits) for one neutral server. The neutral
    shape is Claude's own (.mcp.json), so this only normalizes `type` and drops Copilot fields."""
    warnings: list[str] = []
    problem = srv.check()
    if problem:
        return None, [f"MCP server {name}: {problem}; not written"], []
    t = srv.transport
    out: dict[str, Any] = {"type": t}
    if t == "stdio":
        out["command"] = srv.command
        if srv.args:
            out["args"] = list(srv.args)
        if srv.env:
            out["env"] = dict(srv.env)
    else:
        out["url"] = srv.url
        if srv.headers:
            out["headers"] = dict(srv.headers)
    dropped = not_carried(srv)
    if dropped:
        warnings.append(f"MCP server {name}: {', '.join(dropped)} are Copilot settings; not "
                        "written for Claude Code")
    for k, v in (srv.model_extra or {}).items():
        out.setdefault(k, v)
    hits = [f"{h.where}: {h.kind} ({h.excerpt})" for f in SCANNED_FIELDS if f in out
            for h in scan_value(out[f], f)]
    if hits:
        warnings.append(f"MCP server {name}: literal credentials in the profile "
                        f"({'; '.join(hits)}); .claude.json is written 0600 -- prefer \"${{VAR}}\" "
                        "(Claude expands it)")
    return out, warnings, hits


class ClaudeTarget(Target):
    spec = registry.spec(T)

    def desired(self, profile: Profile, view: DiskView,
                options: RunOptions = DEFAULT_OPTIONS) -> DesiredState:
        st = DesiredState(T)
        host = view.host
        home = SPEC.home(host)
        settings_path = home / "settings.json"
        settings = view.data(settings_path, "json")
        if settings is not None and not isinstance(settings, dict):
            raise UserError("expected an object at the top level", path=str(settings_path))
        self._hooks(profile, view, settings, st)
        self._settings(profile, host, st)
        self._permissions(profile, view, settings, st)
        self._sandbox(profile, view, settings, st)
        self._mcp(profile, view, st)
        st.add(Desired(T, home / "CLAUDE.md", "block", build_persona(profile, "Claude Code"),
                       markers=PERSONA_MARKERS, placement="top", label="persona", group="persona",
                       reason="the profile's AGENTS.md chain and compiled rules; your text outside "
                              "the markers is kept"))
        self._skills(profile, view, st)
        takeover.record(st, takeover.detect(view, T))   # another tool's install
        return st

    # ---- hooks: inline in settings.json, the nested schema (targets/settings_hooks.py) -----------
    def _hooks(self, profile: Profile, view: DiskView, settings: dict | None, st: DesiredState) -> None:
        from .facts import CLAUDE

        home = SPEC.home(view.host)
        plan_settings_hooks(T, "Claude Code", CLAUDE, profile, view, settings,
                            home / "settings.json", home / WRAPPER_NAME, st,
                            lambda: compiled_policy.add_to(st, profile, view.host, T))

    # ---- settings.json -------------------------------------------------------------------------
    def _settings(self, profile: Profile, host: Host, st: DesiredState) -> None:
        path = SPEC.home(host) / "settings.json"
        native = dict(profile.native.get("claude/settings.json", {}))
        for key, why in RESERVED_SETTINGS.items():
            if key in native:
                native.pop(key)
                st.warn(f"the profile's claude/settings.json key {key!r} is dropped: {why}")
        if "statusLine" in native:
            sl = native.pop("statusLine")
            if isinstance(sl, str):
                sl = {"type": "command", "command": sl}
            if (not isinstance(sl, dict) or sl.get("type", "command") != "command"
                    or not isinstance(sl.get("command"), str) or not sl["command"].strip()):
                st.warn("the profile's statusLine is not written: Claude Code needs "
                        '{"type": "command", "command": "..."}')
            else:
                sl = {"type": "command", **{k: v for k, v in sl.items() if k != "type"}}
                st.add(Desired(T, path, "key", sl, key=("statusLine",), fmt="json",
                               label="statusLine", group="settings",
                               reason="the profile's status line command (session JSON on stdin)"))
        for key in sorted(native):
            value = native[key]
            hits = scan_value(value, key)
            warns = [f"{h.where}: literal credential ({h.kind}, {h.excerpt}); settings.json is "
                     "written 0600" for h in hits]
            st.add(Desired(T, path, "key", value, key=(key,), fmt="json", label=key,
                           group="settings", warnings=warns, secret=bool(hits),
                           file_mode=0o600 if hits else None,
                           reason="set by the profile's claude/settings.json"))

    # ---- the [[policy.paths]] rules in Claude's own layers: permissions.deny, the sandbox -------
    def _owned_by_profile(self, profile: Profile, key: str, st: DesiredState,
                          what: str) -> tuple[dict | None, bool]:
        """The compiled policy when its [[policy.paths]] rules go into settings.json's `key`
        (None when there is none), and whether the profile's claude/settings.json sets `key`
        itself (its own value is what Claude gets: warned, and the report says no entry)."""
        policy = compiled_policy.policy_of(profile)
        if not (policy or {}).get("paths"):
            return None, False                       # no [[policy.paths]] rule: nothing to add
        if key in profile.native.get("claude/settings.json", {}):
            st.warn(f"the profile's claude/settings.json sets \"{key}\" itself, so agentdeck "
                    f"adds no {what} entry for the [[policy.paths]] rules (the hook still "
                    f"enforces them); add the entries `agentdeck policy show` lists to that "
                    f"file, or drop its \"{key}\"")
            return None, True
        return policy, False

    def _permissions(self, profile: Profile, view: DiskView, settings: dict | None,
                     st: DesiredState) -> None:
        from . import permissions as claude_permissions

        host = view.host
        path = SPEC.home(host) / "settings.json"
        policy, owned = self._owned_by_profile(profile, "permissions", st, "permissions.deny")
        if owned:
            st.output.permissions = PermissionsInfo(file=str(path))
        if policy is None:
            return
        manifest = view.manifest(T, self.manifest_path(host))
        st.output.permissions = claude_permissions.add_to(st, policy, path, settings, manifest,
                                                          host.display)

    def _sandbox(self, profile: Profile, view: DiskView, settings: dict | None,
                 st: DesiredState) -> None:
        from . import sandbox as claude_sandbox   # local: only a profile with path rules needs it

        host = view.host
        path = SPEC.home(host) / "settings.json"
        policy, owned = self._owned_by_profile(profile, "sandbox", st, "sandbox.filesystem")
        if owned:
            st.output.sandbox = SandboxInfo(file=str(path),
                                            why="the profile sets \"sandbox\" itself")
        if policy is None:
            return
        manifest = view.manifest(T, self.manifest_path(host))
        st.output.sandbox = claude_sandbox.add_to(st, policy, path, settings, manifest,
                                                  host.display)

    # ---- MCP -----------------------------------------------------------------------------------
    def _mcp(self, profile: Profile, view: DiskView, st: DesiredState) -> None:
        """One key item per server the profile keeps on. Claude Code has no user-level off switch
        (core/targets/claude/facts.py: observed), so a default-disabled or profile-disabled server is
        kept out of .claude.json until it is enabled (the app's MCP switch, mcpAlwaysEnabled):
        then it is written, and Claude starts it."""
        from .facts import CLAUDE

        host = view.host
        path = claude_json(host)
        data = view.data(path, "json")
        on_disk = data.get("mcpServers") if isinstance(data, dict) else None
        on_disk = on_disk if isinstance(on_disk, dict) else {}
        d = profile.directives
        always = set(d.mcpAlwaysEnabled)
        profile_disabled = profile_disabled_servers(profile)
        servers: list[McpServerInfo] = []
        off: list[str] = []
        for name, srv in profile.mcp_servers.items():
            skills.safe_name(name, "MCP server name")
            entry, warnings, hits = translate_mcp(name, srv)
            if entry is None:
                servers.append(not_written(st, name, srv.transport, warnings))
                continue
            reason = switch_reason(profile, name, profile_disabled)
            on = reason in ON_REASONS
            if on:
                why = "; enabled (mcpAlwaysEnabled)" if reason == "always-enabled" else ""
                st.add(Desired(T, path, "key", entry, key=("mcpServers", name), fmt="json",
                               label=f"MCP server {name}", group="mcp", warnings=warnings,
                               secret=bool(hits), file_mode=0o600,
                               reason=f"{entry['type']} server from the profile{why}"))
            else:
                off.append(name)
            servers.append(McpServerInfo(
                name=name, transport=entry["type"], origin="profile", enabled=on,
                enabled_now=name in on_disk, reason=reason, secret=bool(hits),
                warnings=tuple(warnings)))
        for name, entry in on_disk.items():
            if name in profile.mcp_servers:
                continue
            servers.append(McpServerInfo(
                name=name,
                transport=entry.get("type", "stdio") if isinstance(entry, dict) else "stdio",
                origin="operator", enabled=True, enabled_now=True, reason="enabled"))
        if profile.mcp_servers:
            st.note(f"Claude Code rewrites {host.display(path)} while it runs: apply with no Claude "
                    "session open; agentdeck re-checks the file right before writing and stops if "
                    "it changed")
        if off and CLAUDE.mcp_off_means == "not-registered":
            st.note(f"MCP {noun_for(len(off), 'server')} {', '.join(off)} off: not written to "
                    f"{host.display(path)} until you enable {noun_for(len(off), 'it', 'them')} "
                    "(the app's MCP switch, or mcpAlwaysEnabled); Claude "
                    "Code has no user-level setting that keeps a configured server from starting")
        report(st, McpInfo(file=str(path), default_disabled=d.mcpDefaultDisabled,
                           always_enabled=tuple(sorted(always)), servers=tuple(servers)))

    # ---- skills, commands, agents --------------------------------------------------------------
    def _skills(self, profile: Profile, view: DiskView, st: DesiredState) -> None:
        host = view.host
        home = SPEC.home(host)
        links: list[SkillLink] = []
        commands: list[SkillCommand] = []
        agents: list[SkillAgent] = []
        for name in sorted(profile.skills):
            skills.safe_name(name, "skill name")
            target = skills.skill_copy(T, name, profile.skills[name], view, st)
            link = home / "skills" / name
            state = "ours" if view.link(link) == target else (
                "yours (kept)" if view.present(link) else "new")
            links.append(SkillLink(name, target, state))
            st.add(Desired(T, link, "link", target, label=f"skill {name}", group="skills",
                           reason="the profile's skill, linked into Claude's skills folder"))
        for name in sorted(profile.commands):
            skills.safe_name(name, "command name")
            path = home / "commands" / f"{name}.md"
            text = profile.commands[name]
            commands.append(SkillCommand(name, str(path), "planned"))
            st.add(Desired(T, path, "file", text if text.endswith("\n") else text + "\n",
                           label=f"command /{name}", group="skills",
                           reason="the profile's slash command, as it is"))
        for name in sorted(profile.agents):
            skills.safe_name(name, "agent name")
            path = home / "agents" / f"{name}.md"
            text = profile.agents[name]
            doc = skills.parse_frontmatter(text)
            warns = []
            described = doc.meta.get("description")
            if not isinstance(described, str) or not described.strip():
                warns.append(f"agent {name} has no description; Claude Code uses the description "
                             "to decide when to delegate to it")
            agents.append(SkillAgent(name, str(path), tuple(warns)))
            st.add(Desired(T, path, "file", text if text.endswith("\n") else text + "\n",
                           label=f"agent {name}", group="agents", warnings=warns,
                           reason="the profile's agent, as it is (agents are written in Claude's format)"))
        st.output.skills = SkillsInfo(dir=str(home / "skills"), links=tuple(links),
                                      commands=tuple(commands), agents=tuple(agents))
