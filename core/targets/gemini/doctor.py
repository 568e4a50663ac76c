"""Gemini CLI checks: ~/.gemini/settings.json (JSON with comments), the inline hooks in it and the
switches that turn them off (hooksConfig), the environment variable that moves the system layer,
its MCP servers and their off switch, GEMINI.md -- against core/targets/gemini/facts.py (Gemini CLI
0.61.0, docs/facts/gemini.md)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...disk import Loaded
from ..checks import excluded_settings, files, nested_hooks, secret_files
from ..checks import hook_commands as commands
from ..mcp_excluded import get as _get
from ..parts.doctor import Context, Out, Problem, check
from ..parts.doctor import emit as _emit
from . import SPEC
from .facts import GEMINI
from .health import project_file
from ...wording import count_of

T = SPEC.name

#: Gemini reads the shared ~/.agents/skills folder too (docs/facts/gemini.md section 6)
SHARES_AGENTS_SKILLS = True


def _home(ctx: Context) -> Path:
    return SPEC.home(ctx.host)


@dataclass
class Model:
    settings: Loaded | None = None
    data: dict | None = None
    handlers: list[nested_hooks.Handler] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def of(self, suffix: str) -> list[Problem]:
        return [p for p in self.problems if p.check == suffix]


def model(ctx: Context) -> Model:
    if T in ctx.memo:
        return ctx.memo[T]
    m = Model()
    ctx.memo[T] = m
    ld = ctx.json(_home(ctx) / GEMINI.settings_file, jsonc=GEMINI.settings_jsonc)
    if not ld.exists:
        return m
    m.settings = ld
    m.data = ld.data if ld.ok and isinstance(ld.data, dict) else None
    if m.data is not None and "hooks" in m.data:
        nested_hooks.read(m.problems, m.handlers, ld, m.data["hooks"], GEMINI, SPEC.title)
    return m


# ==== settings ====================================================================================

@check("gemini.settings.parse", ok="settings.json parses")
def settings_parse(ctx: Context, out: Out) -> None:
    m = model(ctx)
    ld = m.settings
    if ld is None:
        out.ok("no settings.json (Gemini CLI's defaults apply)")
    elif ld.error:
        out.error(f"settings.json does not parse: {ld.error}; Gemini CLI reports it and runs "
                  "without the file's settings (agentdeck's hooks among them)",
                  fix="fix the JSON at the line shown", path=ld.path, line=ld.line)
    elif m.data is None:
        out.error("the top level of settings.json must be an object: Gemini CLI ignores the file",
                  path=ld.path, line=1)
    else:
        out.ok(f"settings.json parses ({count_of(len(m.data), 'key')})", path=ld.path)


# ==== hooks and the switches that turn them off ====================================================

@check("gemini.hooks.enabled", ok="hooksConfig.enabled is not false")
def hooks_enabled(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.data is None or m.settings is None:
        return
    if _get(m.data, GEMINI.hooks_enabled_key) is not False:
        return
    n = len(m.handlers)
    (out.error if n else out.warning)(
        "hooksConfig.enabled is false in settings.json: Gemini CLI runs no hook"
        + (f", none of the {n} in this file" if n else ""),
        fix="remove it or set it true", path=m.settings.path,
        line=m.settings.line_of(*GEMINI.hooks_enabled_key))


@check("gemini.hooks.disabled-name",
       ok="agentdeck's hook name is not in hooksConfig.disabled")
def hooks_disabled_name(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.data is None or m.settings is None:
        return
    disabled = _get(m.data, GEMINI.hooks_disabled_key)
    if not isinstance(disabled, list):
        return
    names = {h.handler.get("name") for h in m.handlers if isinstance(h.handler, dict)}
    for name in disabled:
        if name == GEMINI.hook_name:
            out.error(f"hooksConfig.disabled lists \"{name}\": Gemini CLI runs none of "
                      "agentdeck's hooks (the lists of every layer are merged, so no other layer "
                      "can turn them back on)", fix=f"remove \"{name}\" from hooksConfig.disabled",
                      path=m.settings.path, line=m.settings.line_of(*GEMINI.hooks_disabled_key))
        elif isinstance(name, str) and name in names:
            out.info(f"hooksConfig.disabled lists your hook \"{name}\": it does not run",
                     path=m.settings.path, line=m.settings.line_of(*GEMINI.hooks_disabled_key))


@check("gemini.hooks.system-path", ok=f"{GEMINI.system_settings_env} is not set",
       needs_home=False)
def hooks_system_path(ctx: Context, out: Out) -> None:
    """The variable points the system layer (the one an administrator pins hooks on in) at any
    file the user chooses (observed: a missing file, and the system hooks were gone)."""
    var = GEMINI.system_settings_env
    value = ctx.host.env.get(var)
    if value:
        out.warning(f"{var} is set ({value}): Gemini CLI reads that file instead of "
                    f"{GEMINI.system_settings_file}, so the system layer's hooks and pinned "
                    "hooksConfig are whatever that file holds", fix=f"unset {var}")


@check("gemini.hooks.project-switch",
       ok="the folder agentdeck was started in does not switch Gemini's hooks off",
       needs_home=False)
def hooks_project_switch(ctx: Context, out: Out) -> None:
    """A working folder's .gemini/settings.json (a cloned repository's) with
    hooksConfig.enabled: false or agentdeck's name in hooksConfig.disabled: Gemini reads it in
    a trusted folder, and then runs none of agentdeck's hooks in a session started there."""
    path = project_file(ctx.host)
    if path is None:
        return
    ld = ctx.json(path, jsonc=True)
    data = ld.data if ld.ok and isinstance(ld.data, dict) else None
    if data is None:
        return
    if _get(data, GEMINI.hooks_enabled_key) is False:
        out.error(f"{ctx.host.display(path)} has hooksConfig.enabled: false: a Gemini session "
                  "started in this folder runs no hook, agentdeck's among them, once Gemini "
                  "trusts the folder", fix="remove it, or do not trust the folder",
                  path=path, line=ld.line_of(*GEMINI.hooks_enabled_key))
    disabled = _get(data, GEMINI.hooks_disabled_key)
    if isinstance(disabled, list) and GEMINI.hook_name in disabled:
        out.error(f"{ctx.host.display(path)} lists \"{GEMINI.hook_name}\" in "
                  "hooksConfig.disabled: a Gemini session started in this folder runs none of "
                  "agentdeck's hooks, once Gemini trusts the folder",
                  fix=f"remove \"{GEMINI.hook_name}\" from it", path=path,
                  line=ld.line_of(*GEMINI.hooks_disabled_key))


@check("gemini.hooks.events", ok="every hook event is one Gemini CLI knows")
def hooks_events(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.events"))


@check("gemini.hooks.timeout-spelling", ok="every hook timeout is spelled timeout")
def hooks_timeouts(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.timeout-spelling"))


@check("gemini.hooks.timeout-unit", ok="every hook timeout is in milliseconds")
def hooks_timeout_unit(ctx: Context, out: Out) -> None:
    for h in model(ctx).handlers:
        t = h.handler.get(GEMINI.timeout_key) if isinstance(h.handler, dict) else None
        if isinstance(t, (int, float)) and not isinstance(t, bool) and 0 < t < 1000:
            out.warning(f"{h.event}: timeout {t} is {t} milliseconds: Gemini CLI reads a hook's "
                        "timeout in milliseconds, so the hook is stopped almost at once (and "
                        "the call then runs)", fix=f"write it in milliseconds ({int(t) * 1000})",
                        path=h.path, line=h.line)


@check("gemini.hooks.schema", ok="every hook is in Gemini CLI's nested shape")
def hooks_schema(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.schema"))


def _command_findings(ctx: Context, kind: str, out: Out) -> None:
    commands.report_commands(ctx, model(ctx).handlers, kind, out)


@check("gemini.hooks.wrapper", ok="no hook calls a missing or non-executable agentdeck wrapper")
def hooks_wrapper(ctx: Context, out: Out) -> None:
    _command_findings(ctx, "wrapper", out)


@check("gemini.hooks.handler", ok="every hook command is found")
def hooks_handler(ctx: Context, out: Out) -> None:
    _command_findings(ctx, "handler", out)


# ==== MCP =========================================================================================

@check("gemini.mcp.off-switch", ok="every MCP server meant to be off is in mcp.excluded")
def mcp_off_switch(ctx: Context, out: Out) -> None:
    """"disabled"/"enabled" on an entry are not Gemini's (it has no per-entry switch)."""
    m = model(ctx)
    if m.data is None or m.settings is None:
        return
    ld, data = m.settings, m.data
    excluded_settings.mcp_off_switch(out, ld, data, GEMINI, SPEC.title, "does not read")


@check("gemini.mcp.invalid", ok="every MCP server entry is valid")
def mcp_invalid(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.data is not None and m.settings is not None:
        excluded_settings.mcp_invalid(out, m.settings, m.data)


# ==== persona, skills, secrets ====================================================================

@check("gemini.persona.markers", ok="persona markers intact")
def persona(ctx: Context, out: Out) -> None:
    files.persona_markers(ctx, out, _home(ctx) / GEMINI.persona_file)


@check("gemini.persona.read", ok="Gemini CLI reads GEMINI.md")
def persona_read(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.data is not None and m.settings is not None:
        excluded_settings.persona_read(out, m.settings, m.data, GEMINI, SPEC.title)


@check("gemini.skills.links", ok="no dangling skill links")
def skills(ctx: Context, out: Out) -> None:
    files.skill_links(ctx, out, files.skill_dirs(ctx, T, [(_home(ctx) / GEMINI.skills_dir, "")]))


def _secret_sources(ctx: Context) -> list[tuple[Path, Any]]:
    m = model(ctx)
    return excluded_settings.secret_sources(m.settings, m.data)


@check("gemini.secrets.literal", ok="no literal credentials in Gemini CLI's settings",
       needs_home=False)
def secrets_literal(ctx: Context, out: Out) -> None:
    ctx.memo[f"{T}.secret-holders"] = secret_files.literal_secrets(ctx, out, _secret_sources(ctx))


@check("gemini.secrets.file-mode", ok="secret-bearing files are private", needs_home=False)
def secrets_modes(ctx: Context, out: Out) -> None:
    holders = ctx.memo.get(f"{T}.secret-holders")
    if holders is None:
        holders = secret_files.literal_secrets(ctx, Out(ctx, out.check), _secret_sources(ctx))
    secret_files.file_modes(ctx, out, holders, [])
