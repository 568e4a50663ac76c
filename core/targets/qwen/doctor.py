"""Qwen Code checks: ~/.qwen/settings.json (JSON with comments), the inline hooks in it, its
MCP servers and their off switch, QWEN.md and whether Qwen reads it -- against
core/targets/qwen/facts.py (Qwen Code 0.24.4, docs/facts/qwen.md)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...disk import Loaded
from ..checks import excluded_settings, files, nested_hooks, secret_files
from ..checks import hook_commands as commands
from ..parts.doctor import Context, Out, Problem, check
from ..parts.doctor import emit as _emit
from . import SPEC
from .facts import QWEN
from .health import project_reason, project_switch
from ...wording import count_of

T = SPEC.name

#: Qwen reads the shared ~/.agents/skills folder too (docs/facts/qwen.md section 5)
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
    ld = ctx.json(_home(ctx) / QWEN.settings_file, jsonc=QWEN.settings_jsonc)
    if not ld.exists:
        return m
    m.settings = ld
    m.data = ld.data if ld.ok and isinstance(ld.data, dict) else None
    if m.data is not None and "hooks" in m.data:
        nested_hooks.read(m.problems, m.handlers, ld, m.data["hooks"], QWEN, SPEC.title)
    return m


# ==== settings ====================================================================================

@check("qwen.settings.parse", ok="settings.json parses")
def settings_parse(ctx: Context, out: Out) -> None:
    m = model(ctx)
    ld = m.settings
    if ld is None:
        out.ok("no settings.json (Qwen Code's defaults apply)")
    elif ld.error:
        out.error(f"settings.json does not parse: {ld.error}; Qwen Code stops every run with "
                  "exit 1 until it is fixed", fix="fix the JSON at the line shown",
                  path=ld.path, line=ld.line)
    elif m.data is None:
        out.error("the top level of settings.json must be an object: Qwen Code stops every run",
                  path=ld.path, line=1)
    else:
        out.ok(f"settings.json parses ({count_of(len(m.data), 'key')})", path=ld.path)


@check("qwen.settings.version", ok=f"settings.json carries \"{QWEN.settings_version_key}\"")
def settings_version(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.data is None or m.settings is None:
        return
    key, want = QWEN.settings_version_key, QWEN.settings_version
    have = m.data.get(key)
    if have is None:
        out.warning(f"settings.json has no \"{key}\": Qwen Code rewrites the whole file on its "
                    "next start (re-serialized, comments moved)",
                    fix=f"add \"{key}\": {want} (agentdeck apply writes it with its hooks)",
                    path=m.settings.path)
    elif have != want:
        out.info(f"\"{key}\" is {have!r}; agentdeck's facts are of version {want} "
                 f"(Qwen Code {QWEN.verified_versions[1]})", path=m.settings.path,
                 line=m.settings.line_of(key))


# ==== hooks =======================================================================================

@check("qwen.hooks.disable-all", ok="disableAllHooks is not set")
def hooks_disable_all(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.data is None or m.settings is None:
        return
    value = m.data.get(QWEN.disable_all_key)
    if value in (None, False):
        return
    n = len(m.handlers)
    # observed: a truthy value of any type disables them (a string "no" did)
    what = "true" if value is True else f"{value!r} (any value but false counts)"
    (out.error if n else out.warning)(
        f"disableAllHooks is {what} in settings.json: "
        + (f"none of the {count_of(n, 'hook')} run, the system file's neither" if n else
           "any hook you add will not run"),
        fix="set it to false or remove it", path=m.settings.path,
        line=m.settings.line_of(QWEN.disable_all_key))


@check("qwen.hooks.project-disable-all",
       ok="the folder agentdeck was started in does not switch Qwen's hooks off", needs_home=False)
def hooks_project_disable_all(ctx: Context, out: Out) -> None:
    """A working folder's .qwen/settings.json (a cloned repository's) with a truthy
    disableAllHooks: the user's hooks do not run in a session started there."""
    found = project_switch(ctx.host)
    why = project_reason(ctx.host)
    if found is None or why is None:
        return
    out.error(why, fix=f"remove {QWEN.disable_all_key} from it, or set "
                       "security.folderTrust.enabled: true in ~/.qwen/settings.json",
              path=found[0])


@check("qwen.hooks.events", ok="every hook event is one Qwen Code knows")
def hooks_events(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.events"))


@check("qwen.hooks.timeout-spelling", ok="every hook timeout is spelled timeout")
def hooks_timeouts(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.timeout-spelling"))


@check("qwen.hooks.timeout-unit", ok="every hook timeout is in seconds")
def hooks_timeout_unit(ctx: Context, out: Out) -> None:
    for h in model(ctx).handlers:
        t = h.handler.get(QWEN.timeout_key) if isinstance(h.handler, dict) else None
        if isinstance(t, (int, float)) and not isinstance(t, bool) and t >= QWEN.timeout_ms_from:
            out.warning(f"{h.event}: timeout {t} is read as milliseconds ({t / 1000:g} s): Qwen "
                        f"Code takes a value of {QWEN.timeout_ms_from} or more as legacy "
                        "milliseconds", fix=f"write it in seconds ({max(1, round(t / 1000))})",
                        path=h.path, line=h.line)
        elif t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or t <= 0):
            out.warning(f"{h.event}: timeout {t!r} is not a positive number: Qwen Code uses "
                        f"{QWEN.default_timeout_sec:g} s instead", fix="write a number of seconds",
                        path=h.path, line=h.line)


@check("qwen.hooks.schema", ok="every hook is in Qwen Code's nested shape")
def hooks_schema(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.schema"))


def _command_findings(ctx: Context, kind: str, out: Out) -> None:
    commands.report_commands(ctx, model(ctx).handlers, kind, out)


@check("qwen.hooks.wrapper", ok="no hook calls a missing or non-executable agentdeck wrapper")
def hooks_wrapper(ctx: Context, out: Out) -> None:
    _command_findings(ctx, "wrapper", out)


@check("qwen.hooks.handler", ok="every hook command is found")
def hooks_handler(ctx: Context, out: Out) -> None:
    _command_findings(ctx, "handler", out)


# ==== MCP =========================================================================================

@check("qwen.mcp.off-switch", ok="every MCP server meant to be off is in mcp.excluded")
def mcp_off_switch(ctx: Context, out: Out) -> None:
    """The switches Qwen ignores (observed: the server starts): "disabled"/"enabled" on an
    entry, the legacy top-level excludeMCPServers."""
    m = model(ctx)
    if m.data is None or m.settings is None:
        return
    ld, data = m.settings, m.data
    excluded_settings.mcp_off_switch(out, ld, data, QWEN, SPEC.title, "ignores")
    for k in QWEN.mcp_legacy_keys:
        if k in data:
            out.warning(f"{k} is a legacy key Qwen Code ignores in a \"$version\": "
                        f"{QWEN.settings_version} file (it warns on every start)",
                        fix="use mcp.excluded / mcp.allowed", path=ld.path, line=ld.line_of(k))


@check("qwen.mcp.invalid", ok="every MCP server entry is valid")
def mcp_invalid(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.data is not None and m.settings is not None:
        excluded_settings.mcp_invalid(out, m.settings, m.data)


# ==== persona, skills, secrets ====================================================================

@check("qwen.persona.markers", ok="persona markers intact")
def persona(ctx: Context, out: Out) -> None:
    files.persona_markers(ctx, out, _home(ctx) / QWEN.persona_file)


@check("qwen.persona.read", ok="Qwen Code reads QWEN.md")
def persona_read(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.data is not None and m.settings is not None:
        excluded_settings.persona_read(out, m.settings, m.data, QWEN, SPEC.title)


@check("qwen.skills.links", ok="no dangling skill links")
def skills(ctx: Context, out: Out) -> None:
    # the shared ~/.agents/skills (where agentdeck links the profile's skills for Qwen) when
    # Qwen is the selected target it is reported under, then Qwen's own folder
    files.skill_links(ctx, out, files.skill_dirs(ctx, T, [(_home(ctx) / QWEN.skills_dir, "")]))


def _secret_sources(ctx: Context) -> list[tuple[Path, Any]]:
    m = model(ctx)
    return excluded_settings.secret_sources(m.settings, m.data)


@check("qwen.secrets.literal", ok="no literal credentials in Qwen Code's settings",
       needs_home=False)
def secrets_literal(ctx: Context, out: Out) -> None:
    ctx.memo[f"{T}.secret-holders"] = secret_files.literal_secrets(ctx, out, _secret_sources(ctx))


@check("qwen.secrets.file-mode", ok="secret-bearing files are private", needs_home=False)
def secrets_modes(ctx: Context, out: Out) -> None:
    holders = ctx.memo.get(f"{T}.secret-holders")
    if holders is None:
        holders = secret_files.literal_secrets(ctx, Out(ctx, out.check), _secret_sources(ctx))
    secret_files.file_modes(ctx, out, holders, [])
