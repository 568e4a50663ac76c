"""Claude Code checks: ~/.claude/settings.json (and settings.local.json), the inline hooks in
them, the user MCP servers in .claude.json (only its top-level mcpServers is read), CLAUDE.md --
against core.targets.claude.facts (Claude Code 2.1.332)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...disk import Loaded
from ..checks import files, nested_hooks, secret_files
from ..checks import hook_commands as commands
from ..checks.values import KIND_TEXT, suggest, type_ok
from ..parts.doctor import Context, Out, Problem, check
from ..parts.doctor import emit as _emit
from . import SPEC, facts
from .paths import claude_json
from ...wording import count_of

T = SPEC.name


def _home(ctx: Context) -> Path:
    return SPEC.home(ctx.host)


def _f():
    return facts


@dataclass
class Model:
    settings: list[tuple[Loaded, dict | None]] = field(default_factory=list)
    handlers: list[nested_hooks.Handler] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    claude_json: Loaded | None = None
    mcp: dict | None = None

    def of(self, suffix: str) -> list[Problem]:
        return [p for p in self.problems if p.check == suffix]


def model(ctx: Context) -> Model:
    if T in ctx.memo:
        return ctx.memo[T]
    facts = _f().CLAUDE
    m = Model()
    ctx.memo[T] = m
    for name in (facts.settings_file, facts.local_settings_file):
        ld = ctx.json(_home(ctx) / name, jsonc=facts.settings_jsonc)
        if not ld.exists:
            continue
        data = ld.data if ld.ok and isinstance(ld.data, dict) else None
        m.settings.append((ld, data))
        if data is not None and "hooks" in data:
            _hooks(m, ld, data["hooks"])
    cj = ctx.json(claude_json(ctx.host), jsonc=facts.settings_jsonc)
    m.claude_json = cj
    if cj.ok and isinstance(cj.data, dict) and isinstance(cj.data.get("mcpServers"), dict):
        m.mcp = cj.data["mcpServers"]
    return m


def _hooks(m: Model, ld: Loaded, hooks: Any) -> None:
    nested_hooks.read(m.problems, m.handlers, ld, hooks, _f().CLAUDE, "Claude Code")


# ==== settings ====================================================================================

@check("claude.settings.parse", ok="settings.json parses")
def settings_parse(ctx: Context, out: Out) -> None:
    m = model(ctx)
    for ld, data in m.settings:
        if ld.error:
            out.error(f"{ld.path.name} does not parse: {ld.error}; Claude Code ignores the whole "
                      "file (it is plain JSON: no comments)", fix="fix the JSON at the line shown",
                      path=ld.path, line=ld.line)
        elif data is None:
            out.error(f"the top level of {ld.path.name} must be an object", path=ld.path, line=1)
        else:
            out.ok(f"{ld.path.name} parses ({count_of(len(data), 'key')})", path=ld.path)
    if not m.settings:
        out.ok("no settings.json (Claude Code's defaults apply)")


@check("claude.settings.types", ok="known settings have the right types")
def settings_types(ctx: Context, out: Out) -> None:
    facts = _f().CLAUDE
    for ld, data in model(ctx).settings:
        if data is None:
            continue
        for key, kind in facts.settings_key_types.items():
            if key in data and not type_ok(data[key], kind):
                out.error(f"{key} is {json.dumps(data[key])[:50]} but must be {KIND_TEXT[kind]}: "
                          "Claude Code reports the setting invalid", fix=f"write {key} as "
                          f"{KIND_TEXT[kind]}", path=ld.path, line=ld.line_of(key))


@check("claude.settings.unknown-keys", ok="every top-level key is one Claude Code knows")
def settings_unknown(ctx: Context, out: Out) -> None:
    facts = _f().CLAUDE
    for ld, data in model(ctx).settings:
        if data is None:
            continue
        for key in data:
            if key in facts.settings_keys:
                continue
            hint = suggest(key, sorted(facts.settings_keys))
            out.warning(f"unknown top-level key {key!r}: Claude Code ignores it without a word "
                        "(`claude doctor` does not flag it)"
                        + (f" (did you mean {hint!r}?)" if hint else ""),
                        fix=f"rename it to {hint!r}" if hint else "remove it",
                        path=ld.path, line=ld.line_of(key))


# ==== hooks =======================================================================================

@check("claude.hooks.disable-all", ok="disableAllHooks is not set")
def hooks_disable_all(ctx: Context, out: Out) -> None:
    m = model(ctx)
    for ld, data in m.settings:
        if data is not None and data.get("disableAllHooks") is True:
            n = len(m.handlers)
            (out.error if n else out.warning)(
                f"disableAllHooks is true in {ld.path.name}: "
                + (f"none of the {count_of(n, 'hook')} (nor the status line) run" if n else
                   "any hook you add will not run"),
                fix="set it to false or remove it", path=ld.path, line=ld.line_of("disableAllHooks"))


@check("claude.sandbox.tools", ok="Claude's sandbox is off, or bubblewrap and socat are found")
def sandbox_tools(ctx: Context, out: Out) -> None:
    """Claude Code 2.1.332 (facts.py SANDBOX, observed): with the sandbox on and bubblewrap or
    socat missing it runs every Bash command unsandboxed without a word, or refuses to start
    when sandbox.failIfUnavailable is true."""
    for ld, data in model(ctx).settings:
        sb = (data or {}).get("sandbox")
        if not isinstance(sb, dict) or sb.get("enabled") is not True:
            continue
        missing = [n for n in ("bwrap", "socat") if ctx.host.which(n) is None]
        if not missing:
            continue
        what = " and ".join(missing) + (" is" if len(missing) == 1 else " are")
        fix = "install them (apt-get install bubblewrap socat)"
        if sb.get("failIfUnavailable") is True:
            out.error(f"sandbox.enabled is true in {ld.path.name} but {what} not on PATH: Claude "
                      "Code refuses to start (sandbox.failIfUnavailable is true)",
                      fix=fix, path=ld.path, line=ld.line_of("sandbox"))
        else:
            out.warning(f"sandbox.enabled is true in {ld.path.name} but {what} not on PATH: "
                        "Claude Code runs every Bash command unsandboxed, without a word, so "
                        "its sandbox.filesystem denies (agentdeck's floor under protected "
                        "paths) do not hold", fix=fix + ", and set sandbox.failIfUnavailable "
                        "to true", path=ld.path, line=ld.line_of("sandbox"))


@check("claude.sandbox.project-off",
       ok="no project settings file where agentdeck was started switches Claude's sandbox off",
       needs_home=False)
def sandbox_project_off(ctx: Context, out: Out) -> None:
    """With the user's sandbox on, a project's .claude/settings.json or settings.local.json (the
    working folder's, or a parent's) with sandbox.enabled false, or a sandbox.filesystem
    allowRead, undoes the floor for sessions started there (Claude Code 2.1.332: facts.py
    SANDBOX, observed)."""
    from ...formats.errors import FormatError   # local: only when the user's sandbox is on
    from ...formats.jsonc import JsonDoc         # local: as above
    from ..project_layers import folders         # local: as above
    from .health import PROJECT_SETTINGS         # local: as above

    if not any(isinstance(sb, dict) and sb.get("enabled") is True
               for sb in ((d or {}).get("sandbox") for _, d in model(ctx).settings)):
        return
    for folder in folders(ctx.host):
        for rel in PROJECT_SETTINGS:
            path = folder / rel
            text = ctx.host.read_text(path) if ctx.host.is_file(path) else None
            if not text:
                continue
            try:
                data = JsonDoc.parse(text, path=str(path)).data
            except FormatError:
                continue
            sb = data.get("sandbox") if isinstance(data, dict) else None
            if not isinstance(sb, dict):
                continue
            got = sb.get("filesystem")
            fs = got if isinstance(got, dict) else {}
            what = ("sets sandbox.enabled to false" if sb.get("enabled") is False else
                    "re-opens paths with sandbox.filesystem.allowRead" if fs.get("allowRead")
                    else "")
            if what:
                shown = ctx.host.display(path)
                out.warning(f"{shown} (in the folder agentdeck was started in, or a parent) "
                            f"{what}: a Claude Code session started there is not held by your "
                            "sandbox's denies (agentdeck's floor under protected paths)",
                            fix=f"remove \"sandbox\" from {shown}", path=path)


@check("claude.hooks.project-disable-all",
       ok="no project settings file where agentdeck was started switches Claude's hooks off",
       needs_home=False)
def hooks_project_disable_all(ctx: Context, out: Out) -> None:
    """A project's .claude/settings.json or settings.local.json (the working folder's, or a
    parent's) with disableAllHooks: true: no hook runs in a session started there."""
    from .health import project_reasons   # local: the doctor's path only

    for path, why, fix in project_reasons(ctx.host):
        out.error(why, fix=fix, path=path)


@check("claude.hooks.events", ok="every hook event is one Claude Code knows")
def hooks_events(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.events"))


@check("claude.hooks.timeout-spelling", ok="every hook timeout is spelled timeout")
def hooks_timeouts(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.timeout-spelling"))


@check("claude.hooks.schema", ok="every hook is in Claude Code's nested shape")
def hooks_schema(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.schema"))


def _command_findings(ctx: Context, kind: str, out: Out) -> None:
    commands.report_commands(ctx, model(ctx).handlers, kind, out)


@check("claude.hooks.wrapper", ok="no hook calls a missing or non-executable agentdeck wrapper")
def hooks_wrapper(ctx: Context, out: Out) -> None:
    _command_findings(ctx, "wrapper", out)


@check("claude.hooks.handler", ok="every hook command is found")
def hooks_handler(ctx: Context, out: Out) -> None:
    _command_findings(ctx, "handler", out)


# ==== MCP =========================================================================================

@check("claude.mcp.invalid", ok="every user MCP server entry is valid", needs_home=False)
def mcp_invalid(ctx: Context, out: Out) -> None:
    m = model(ctx)
    cj = m.claude_json
    if cj is None or not cj.exists:
        out.ok(f"no {ctx.show(claude_json(ctx.host))}")
        return
    if cj.error:
        out.error(f"{cj.path.name} does not parse: {cj.error}; Claude Code moves a corrupted file "
                  "to backups/ and starts without your MCP servers", path=cj.path, line=cj.line)
        return
    if m.mcp is None:
        out.ok("no user MCP servers")
        return
    facts = _f().CLAUDE
    for name, e in m.mcp.items():
        line = cj.line_of("mcpServers", name)
        why = None
        if not isinstance(e, dict):
            why = "the entry is not an object"
        else:
            t = e.get("type", "stdio")
            if t not in facts.mcp_types:
                why = f"type {json.dumps(t)} is not one of {', '.join(facts.mcp_types)}"
            elif "args" in e and not isinstance(e["args"], list):
                why = "args is not an array"
            elif t in facts.mcp_url_types and not (isinstance(e.get("url"), str) and e["url"]):
                why = f"a {t} server needs a url"
            elif t not in facts.mcp_url_types and not (isinstance(e.get("command"), str) and e["command"]):
                why = "a stdio server needs a command"
        if why:
            out.error(f"MCP server {name!r} is skipped by Claude Code: {why}",
                      fix="fix the entry (`claude mcp add` writes a valid one)", path=cj.path,
                      line=line)
    if not out.findings:
        out.ok(f"{count_of(len(m.mcp), 'user MCP server')}, all valid", path=cj.path)


# ==== persona, skills, secrets ====================================================================

@check("claude.persona.markers", ok="persona markers intact")
def persona(ctx: Context, out: Out) -> None:
    files.persona_markers(ctx, out, _home(ctx) / _f().CLAUDE.persona_file)


@check("claude.skills.links", ok="no dangling skill links")
def skills(ctx: Context, out: Out) -> None:
    files.skill_links(ctx, out, [(_home(ctx) / _f().CLAUDE.skills_dir, "")])


def _secret_sources(ctx: Context) -> list[tuple[Path, Any]]:
    m = model(ctx)
    src: list[tuple[Path, Any]] = [(ld.path, data) for ld, data in m.settings if data is not None]
    if m.mcp is not None and m.claude_json is not None:
        src.append((m.claude_json.path, {"mcpServers": m.mcp}))   # nothing else of it is read
    return src


@check("claude.secrets.literal", ok="no literal credentials in Claude Code's config files",
       needs_home=False)
def secrets_literal(ctx: Context, out: Out) -> None:
    ctx.memo[f"{T}.secret-holders"] = secret_files.literal_secrets(ctx, out, _secret_sources(ctx))


@check("claude.secrets.file-mode", ok="secret-bearing files are private", needs_home=False)
def secrets_modes(ctx: Context, out: Out) -> None:
    holders = ctx.memo.get(f"{T}.secret-holders")
    if holders is None:
        holders = secret_files.literal_secrets(ctx, Out(ctx, out.check), _secret_sources(ctx))
    secret_files.file_modes(ctx, out, holders,
                      [_home(ctx) / n for n in _f().CLAUDE.credential_files])


# ==== registered after the rest (the table keeps this order within an area) ====

@check("claude.hooks.fires-twice", ok="no event runs agentdeck's handler twice")
def claude_fires_twice(ctx: Context, out: Out) -> None:
    """Claude runs every matcher group: agentdeck's wrapper registered twice for one event (in
    settings.json and settings.local.json, or twice in one file) runs it twice. Events are
    compared as Claude names them: PreSkillShellCommand, which agentdeck registers beside
    PreToolUse and decides as it (facts: also_events), is another event, not a copy."""
    from .adapter import WRAPPER_NAME

    m = model(ctx)
    wrapper = str(_home(ctx) / WRAPPER_NAME)
    seen: dict[str, list[str]] = {}
    for h in m.handlers:
        cmd = h.handler.get("command") if isinstance(h.handler, dict) else None
        if isinstance(cmd, str) and wrapper in cmd:
            seen.setdefault(str(h.event), []).append(str(h.path))
    for ev, paths in sorted(seen.items()):
        if len(paths) > 1:
            where = " and ".join(sorted({str(ctx.show(p)) for p in paths}))
            out.warning(f"fires twice: {ev} calls agentdeck's hook wrapper {len(paths)} times "
                        f"({where}); Claude runs every group",
                        fix="keep agentdeck's one group per event (agentdeck apply writes it; "
                            "remove the copy)", path=paths[-1])


# MCP servers that name environment variables: Claude Code expands `${VAR}` (and
# `${VAR:-default}`) in a server's command, args, env, url and headers, and warns on every
# start when VAR is unset
_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}")


def refs(value, path: str = "") -> list[tuple[str, str]]:
    """(variable, where) for every ${VAR} without a default in a JSON-like value."""
    out = []
    if isinstance(value, str):
        out += [(m.group(1), path) for m in _REF.finditer(value) if not m.group(2)]
    elif isinstance(value, dict):
        for k, v in value.items():
            out += refs(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += refs(v, f"{path}[{i}]")
    return out


@check("claude.mcp.env-vars", ok="every ${VAR} an MCP server names is set", needs_home=False)
def claude_env_vars(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if not isinstance(m.mcp, dict) or m.claude_json is None:
        return
    for name, entry in m.mcp.items():
        for var, where in refs(entry):
            if var not in ctx.host.env:
                out.warning(f"MCP server {name!r} uses ${{{var}}} ({where}), which is not set "
                            "here: Claude Code expands it to nothing and warns on every start",
                            fix=f"export {var} where Claude runs, or give a default: "
                                f"${{{var}:-value}}",
                            path=m.claude_json.path,
                            line=m.claude_json.line_of("mcpServers", name))
