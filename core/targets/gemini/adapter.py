"""Gemini CLI target (docs/facts/gemini.md, Gemini CLI 0.61.0).

Every part is its own plan item (group in brackets):

  [hooks]    <gemini home>/agentdeck-hook.sh (0755, file)  the wrapper (core/targets/wrapper.py)
             settings.json ("hooks", <Event>) member items: one matcher group per event in
             Gemini's nested schema (core/targets/settings_hooks.py), each hook carrying
             `"name": "agentdeck"` (the name `hooksConfig.disabled` would list, which the doctor
             looks for) and its timeout in milliseconds
  [settings] whatever the profile's gemini/settings.json sets, one key item per top-level key
  [mcp]      settings.json ("mcpServers", name), one key item per profile server; a server that
             is off (mcpDefaultDisabled, the profile's disabledMcpServers) is written AND named in
             ("mcp", "excluded") as a member of the operator's list: Gemini has no per-entry
             switch (section 4). A server the operator switched off with `/mcp disable`
             (<gemini home>/mcp-server-enablement.json, read, never written) is reported off
  [persona]  <gemini home>/GEMINI.md, a managed block at the top (core/targets/persona.py)
  [skills]   ~/.agents/skills/<skill> links and <command>/SKILL.md, shared with the other CLIs
             that read that folder (Gemini reads it beside ~/.gemini/skills)

<gemini home> is ~/.gemini, or $GEMINI_CLI_HOME/.gemini when that is set. settings.json is
JSON with comments, edited in place (comments kept). What agentdeck manages is recorded in
<gemini home>/.agentdeck-managed.json.

Its typed output (core/targets/output.py) has the shape of Qwen Code's: `hooks` (a HooksInfo
whose `hooks_config` holds what the file says of hooksConfig.enabled / disabled; Gemini CLI has
no disableAllHooks), `mcp` and `skills` (a SkillsInfo: the shared ~/.agents/skills).
"""
from __future__ import annotations

import dataclasses
import shlex
from pathlib import Path

from ...desired import Desired, DesiredState
from ...disk import DiskView
from ...errors import UserError
from ...model import McpServer, Profile
from ...policy import compiled as compiled_policy
from ...secrets import scan_value
from .. import registry, settings_shape, skills
from ..base import DEFAULT_OPTIONS, RunOptions, Target
from ..mcp_excluded import get as _get
from ..mcp_excluded import names as _names
from ..mcp_excluded import SwitchedOff, plan_mcp
from ..output import HooksConfigInfo
from ..persona import PERSONA_MARKERS, build_persona
from ..settings_hooks import WRAPPER_NAME, plan_settings_hooks
from .facts import GEMINI

T = "gemini"
FMT = "jsonc" if GEMINI.settings_jsonc else "json"

#: keys a profile's gemini/settings.json may not set, and why
RESERVED_SETTINGS = {
    "hooks": "agentdeck registers the profile's [hooks] handler itself, next to your own hooks; "
             "declare hooks in profile.toml",
    "mcpServers": "declare MCP servers in the profile's mcp.json; agentdeck writes them",
}


def _falsy(value: object) -> bool:
    """A value JavaScript calls false, as Gemini's `state?.enabled ?? true` tests it (null and
    a missing key count as on)."""
    return isinstance(value, (bool, int, float, str)) and not value


def hook_group(wrapper_path: Path, event: str, timeout: int) -> dict:
    """agentdeck's matcher group for one event: no matcher (every tool), the hook named so a
    `hooksConfig.disabled` entry can be found, its timeout in milliseconds (section 2)."""
    return {"hooks": [{"name": GEMINI.hook_name, "type": "command",
                       "command": f"{shlex.quote(str(wrapper_path))} {event}",
                       "timeout": int(timeout) * 1000}]}


def translate_mcp(name: str, srv: McpServer) -> tuple[dict | None, list[str], list[str]]:
    """(the settings.json mcpServers entry or None, warnings, secret hits) for one neutral
    server: stdio {command, args, env}; a remote one `url` (SSE) or `httpUrl` (streamable
    HTTP) with `headers` (docs/facts/gemini.md section 4)."""
    return settings_shape.translate_mcp(name, srv, registry.spec(T).title, "\"$VAR\" (Gemini expands it)")


class GeminiTarget(Target):
    spec = registry.spec(T)

    def desired(self, profile: Profile, view: DiskView,
                options: RunOptions = DEFAULT_OPTIONS) -> DesiredState:
        st = DesiredState(T)
        host = view.host
        home = self.spec.home(host)
        settings_path = home / GEMINI.settings_file
        settings = view.data(settings_path, FMT)
        if settings is not None and not isinstance(settings, dict):
            raise UserError("expected an object at the top level", path=str(settings_path))
        manifest = view.manifest(T, self.manifest_path(host))
        plan_settings_hooks(T, self.spec.title, GEMINI, profile, view, settings, settings_path,
                            home / WRAPPER_NAME, st,
                            lambda: compiled_policy.add_to(st, profile, host, T), fmt=FMT,
                            group_of=hook_group)
        self._hooks_config(settings, settings_path, view, st)
        self._settings(profile, settings_path, st)
        self._mcp(profile, view, settings, settings_path, manifest, st)
        if profile.personas:
            st.add(Desired(T, home / GEMINI.persona_file, "block",
                           build_persona(profile, self.spec.title), markers=PERSONA_MARKERS,
                           placement="top", label="persona", group="persona",
                           reason="the profile's AGENTS.md chain and compiled rules; your text "
                                  "outside the markers is kept"))
            self._persona_read(settings, settings_path, view, st)
        info = skills.shared_skill_items(
            T, profile, view, st, "Gemini CLI's own command files are not verified by "
                                  "agentdeck: the command becomes a model-discoverable skill")
        if profile.agents:
            st.note(f"the profile's agents ({', '.join(sorted(profile.agents))}) are not installed "
                    "for Gemini CLI: its agent files are not verified by agentdeck")
        st.output.skills = info
        return st

    # ---- hooksConfig: the switches that turn agentdeck's hooks off -----------------------------
    def _hooks_config(self, settings: dict | None, path: Path, view: DiskView,
                      st: DesiredState) -> None:
        hooks = st.output.hooks
        if hooks is None:
            return
        enabled = _get(settings or {}, GEMINI.hooks_enabled_key)
        disabled = _names(_get(settings or {}, GEMINI.hooks_disabled_key))
        # Gemini has no disableAllHooks: its hooksConfig.enabled is the switch (health.py)
        hooks.disable_all_on_disk, hooks.disable_all_stops, hooks.disable_all_effect = \
            None, False, ""
        hooks.hooks_config = HooksConfigInfo(enabled=enabled, disabled=tuple(disabled))
        # seconds, as every target reports them (the file holds milliseconds: hook_group)
        hooks.events = tuple(dataclasses.replace(ev, timeout=hooks.timeout)
                             for ev in hooks.events)
        where = view.host.display(path)
        if enabled is False and hooks.events:
            st.warn(f"{where} has hooksConfig.enabled: false: Gemini CLI runs none of its hooks, "
                    "agentdeck's among them; remove it (or set it true)")
        if GEMINI.hook_name in disabled and hooks.events:
            st.warn(f"{where} lists \"{GEMINI.hook_name}\" in hooksConfig.disabled: Gemini CLI "
                    "does not run agentdeck's hooks; remove the name from that list")

    # ---- the profile's gemini/settings.json ------------------------------------------------
    def _settings(self, profile: Profile, path: Path, st: DesiredState) -> None:
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
        plan_mcp(T, GEMINI, FMT, translate_mcp, profile, view, settings, path, manifest, st,
                 self._switched_off(view, path.parent, st))

    def _switched_off(self, view: DiskView, home: Path, st: DesiredState) -> SwitchedOff:
        """The servers the operator switched off with Gemini's `/mcp disable`: its enablement
        file holds `{name: {"enabled": false}}` under the lower-cased, trimmed name, and a
        server whose entry's `enabled` is falsy does not start (facts.py, section 4). The file is
        Gemini's: read, never written; one Gemini cannot parse is reported, and Gemini then starts
        every server it would start without it."""
        path = home / GEMINI.mcp_enablement_file
        ld = view.load(path, "json")
        where = view.host.display(path)
        keys: set[str] = set()
        if ld.error is not None:
            at = f":{ld.line}:{ld.col}" if ld.line else ""
            st.warn(f"{where}{at}: {ld.error}: Gemini CLI cannot read it either, so the servers "
                    "switched off there with /mcp disable start again")
        elif isinstance(ld.data, dict):
            keys = {k for k, v in ld.data.items() if isinstance(v, dict) and _falsy(v.get("enabled"))}
        return SwitchedOff(frozenset(keys), lambda n: n.strip().lower(),
                           f"you switched it off in Gemini CLI (/mcp disable, {where})")

    # ---- whether Gemini reads the persona file at all ----------------------------------------
    def _persona_read(self, settings: dict | None, path: Path, view: DiskView,
                      st: DesiredState) -> None:
        unread = settings_shape.persona_unread(settings, GEMINI, self.spec.title,
                                               view.host.display(path))
        if unread:
            st.warn(unread)
