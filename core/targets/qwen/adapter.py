"""Qwen Code target (docs/facts/qwen.md, Qwen Code 0.24.4).

Every part is its own plan item (group in brackets):

  [hooks]    <qwen home>/agentdeck-hook.sh (0755, file)  the wrapper (core/targets/wrapper.py)
             settings.json ("hooks", <Event>) member items: one matcher group per event, in
             Claude Code's nested schema, next to the operator's groups
             (core/targets/settings_hooks.py)
             settings.json ("permissions", "deny") member items: each [[policy.paths]] deny
             rule as Qwen's own Read(...)/Edit(...) entries, which hold without the hook
             (core/targets/qwen/permissions.py)
  [settings] settings.json ("$version",) = 4 while the file lacks it: Qwen rewrites a settings
             file without it on every start (re-serialized, comments moved), so a file agentdeck
             wrote would change under it; whatever the profile's qwen/settings.json sets, one key
             item per top-level key
  [mcp]      settings.json ("mcpServers", name), one key item per profile server; a server that
             is off (mcpDefaultDisabled, the profile's disabledMcpServers) is written AND named in
             ("mcp", "excluded") as a member of the operator's list: that list is the switch Qwen
             honours ("disabled": true on the entry is ignored: the server starts)
  [persona]  <qwen home>/QWEN.md, a managed block at the top (core/targets/persona.py)
  [skills]   ~/.agents/skills/<skill> links and <command>/SKILL.md, shared with the other CLIs
             that read that folder (core/targets/skills.py shared_skill_items)

<qwen home> is ~/.qwen, or QWEN_HOME when set. settings.json is JSON with comments, edited in
place (comments kept). What agentdeck manages is recorded in <qwen home>/.agentdeck-managed.json.

Its output has the shape of Claude Code's (core/targets/claude/adapter.py), where the concept
is shared, typed (core/targets/output.py): TargetOutput.hooks, .mcp, .skills (the shared
~/.agents/skills) and .permissions (permissions.deny entries, when the profile has paths rules).
"""
from __future__ import annotations

from pathlib import Path

from ...desired import Desired, DesiredState
from ...disk import DiskView
from ...errors import UserError
from ...model import McpServer, Profile
from ...policy import compiled as compiled_policy
from ...secrets import scan_value
from .. import registry, settings_shape, skills
from ..base import DEFAULT_OPTIONS, RunOptions, Target
from ..mcp_excluded import plan_mcp
from ..output import PermissionsInfo
from ..persona import PERSONA_MARKERS, build_persona
from ..settings_hooks import WRAPPER_NAME, plan_settings_hooks
from .facts import QWEN

T = "qwen"
FMT = "jsonc" if QWEN.settings_jsonc else "json"

#: keys a profile's qwen/settings.json may not set, and why
RESERVED_SETTINGS = {
    "hooks": "agentdeck registers the profile's [hooks] handler itself, next to your own hooks; "
             "declare hooks in profile.toml",
    "mcpServers": "declare MCP servers in the profile's mcp.json; agentdeck writes them",
    QWEN.settings_version_key: "agentdeck writes it while the file lacks it",
}


def translate_mcp(name: str, srv: McpServer) -> tuple[dict | None, list[str], list[str]]:
    """(the settings.json mcpServers entry or None, warnings, secret hits) for one neutral
    server. Qwen's stdio entry is {command, args, env, cwd, timeout}; a remote one `url` (SSE)
    or `httpUrl` (streamable HTTP) with `headers` (docs/facts/qwen.md section 3)."""
    return settings_shape.translate_mcp(name, srv, registry.spec(T).title, "\"${VAR}\" (Qwen expands it)")


class QwenTarget(Target):
    spec = registry.spec(T)

    def desired(self, profile: Profile, view: DiskView,
                options: RunOptions = DEFAULT_OPTIONS) -> DesiredState:
        st = DesiredState(T)
        host = view.host
        home = self.spec.home(host)
        settings_path = home / QWEN.settings_file
        settings = view.data(settings_path, FMT)
        if settings is not None and not isinstance(settings, dict):
            raise UserError("expected an object at the top level", path=str(settings_path))
        manifest = view.manifest(T, self.manifest_path(host))
        plan_settings_hooks(T, self.spec.title, QWEN, profile, view, settings, settings_path,
                            home / WRAPPER_NAME, st,
                            lambda: compiled_policy.add_to(st, profile, host, T), fmt=FMT)
        self._settings(profile, settings, settings_path, st)
        self._permissions(profile, settings, settings_path, manifest, host, st)
        self._mcp(profile, view, settings, settings_path, manifest, st)
        self._version(st, settings, settings_path, manifest)
        st.add(Desired(T, home / QWEN.persona_file, "block", build_persona(profile, self.spec.title),
                       markers=PERSONA_MARKERS, placement="top", label="persona", group="persona",
                       reason="the profile's AGENTS.md chain and compiled rules; your text outside "
                              "the markers is kept"))
        self._persona_read(settings, settings_path, view, st)
        info = skills.shared_skill_items(
            T, profile, view, st, "Qwen Code's own command files are not verified by agentdeck: "
                                  "the command becomes a model-discoverable skill")
        if profile.agents:
            st.note(f"the profile's agents ({', '.join(sorted(profile.agents))}) are not installed "
                    "for Qwen Code: its agent files are not verified by agentdeck")
        st.output.skills = info
        return st

    # ---- "$version": written while missing, so Qwen never rewrites the file ------------------
    def _version(self, st: DesiredState, settings: dict | None, path: Path, manifest) -> None:
        key = QWEN.settings_version_key
        ours = any(e.kind == "key" and e.path == str(path) and list(e.key) == [key]
                   for e in manifest.entries.values())
        if not any(d.path == path for d in st.items):
            return                  # nothing of agentdeck's in the file: its bytes are yours
        if not ours and settings is not None and key in settings:
            return                  # yours (Qwen wrote it, or you did)
        st.add(Desired(T, path, "key", QWEN.settings_version, key=(key,), fmt=FMT,
                       label=key, group="settings",
                       reason=f"Qwen Code rewrites a settings file without \"{key}\": "
                              f"{QWEN.settings_version} on every start; with it the file stays "
                              "as agentdeck and you wrote it"))

    # ---- permissions.deny: the [[policy.paths]] rules, Qwen's own layer ---------------------
    def _permissions(self, profile: Profile, settings: dict | None, path: Path, manifest, host,
                     st: DesiredState) -> None:
        from . import permissions as qwen_permissions  # local: only [[policy.paths]] rules need it

        policy = compiled_policy.policy_of(profile)
        if not (policy or {}).get("paths"):
            return                                   # no [[policy.paths]] rule: nothing to add
        if "permissions" in profile.native.get(f"{T}/settings.json", {}):
            # the profile owns the whole key: its own deny list is what Qwen gets
            st.warn(f"the profile's {T}/settings.json sets \"permissions\" itself, so "
                    "agentdeck adds no permissions.deny entry for the [[policy.paths]] rules "
                    "(the hook still enforces them); add the entries `agentdeck policy show` "
                    "lists to that file, or drop its \"permissions\"")
            st.output.permissions = PermissionsInfo(file=str(path))
            return
        st.output.permissions = qwen_permissions.add_to(st, policy, path, settings, manifest,
                                                        host.display, fmt=FMT)

    # ---- the profile's qwen/settings.json --------------------------------------------------
    def _settings(self, profile: Profile, settings: dict | None, path: Path,
                  st: DesiredState) -> None:
        native = dict(profile.native.get(f"{T}/settings.json", {}))
        for key, why in RESERVED_SETTINGS.items():
            if key in native:
                native.pop(key)
                st.warn(f"the profile's {T}/settings.json key {key!r} is dropped: {why}")
        for key in sorted(native):
            value = native[key]
            hits = scan_value(value, key)
            warns = [f"{h.where}: literal credential ({h.kind}, {h.excerpt}); settings.json is "
                     "written 0600" for h in hits]
            st.add(Desired(T, path, "key", value, key=(key,), fmt=FMT, label=key,
                           group="settings", warnings=warns, secret=bool(hits),
                           file_mode=0o600 if hits else None,
                           reason=f"set by the profile's {T}/settings.json"))

    # ---- MCP: mcpServers entries, and mcp.excluded as the off switch -------------------------
    def _mcp(self, profile: Profile, view: DiskView, settings: dict | None, path: Path,
             manifest, st: DesiredState) -> None:
        plan_mcp(T, QWEN, FMT, translate_mcp, profile, view, settings, path, manifest, st)

    # ---- whether Qwen reads the persona file at all ------------------------------------------
    def _persona_read(self, settings: dict | None, path: Path, view: DiskView,
                      st: DesiredState) -> None:
        unread = settings_shape.persona_unread(settings, QWEN, self.spec.title,
                                               view.host.display(path))
        if unread:
            st.warn(unread)
