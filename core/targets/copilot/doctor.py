"""GitHub Copilot CLI checks: read settings.json, hooks/*.json, mcp-config.json and the env file
as Copilot would (docs/facts/copilot.md, Copilot 1.0.102) and report what it would silently ignore.

From config.json only `trustedFolders` is ever read (to find repo hooks); nothing else in it is
read or printed.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...disk import Loaded
from ...formats.blocks import BlockError, get_block
from ..checks import files, fires_twice, secret_files
from ..checks import hook_commands as commands
from ..checks.values import find_line, suggest
from ..parts.doctor import Context, Out, Problem, check
from ..parts.doctor import emit as _emit
from . import SPEC, facts
from .browser import _is_explorer
from .directives import BASHRC_MARKERS, ENV_FILE_NAME, NON_INTERACTIVE_CAVEAT
from .hooks import HOOKS_FILE, WRAPPER_NAME, other_hook_sources, trusted_folders
from .settings import TYPES
from ...wording import count_of, noun_for

T = SPEC.name
#: the CLI loads the shared ~/.agents/skills (reported under the first selected one that does)
SHARES_AGENTS_SKILLS = True


def _home(ctx: Context) -> Path:
    return SPEC.home(ctx.host)


def _f():
    return facts


# ==== the model: what Copilot would load ==========================================================

@dataclass
class Action:
    """One hook action Copilot would load (after its own validation)."""
    path: Path
    origin: str                   # "user" (hooks/*.json) | "inline" (settings.json) | "repo"
    event_key: str                # as written
    event: str                    # camelCase
    index: int
    action: dict
    line: int | None
    key: str | None               # disableKey, when computable
    ours: bool = False            # in agentdeck's registration file


@dataclass
class Model:
    settings: Loaded
    settings_data: dict | None
    hook_files: list[Path] = field(default_factory=list)       # user hook files
    actions: list[Action] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    mcp: Loaded | None = None
    servers: dict[str, dict] = field(default_factory=dict)     # name -> entry Copilot keeps
    dropped: dict[str, str] = field(default_factory=dict)      # name -> why it is dropped

    def of(self, suffix: str) -> list[Problem]:
        return [p for p in self.problems if p.check == suffix]


def model(ctx: Context) -> Model:
    if T in ctx.memo:
        return ctx.memo[T]
    f = _f()
    home = _home(ctx)
    settings = ctx.json(home / f.COPILOT.settings_file, jsonc=True)
    sdata = settings.data if settings.ok and isinstance(settings.data, dict) else None
    m = Model(settings, sdata)
    ctx.memo[T] = m
    # user hook files
    hooks_dir = home / f.COPILOT.hooks_dir
    for name in ctx.host.listdir(hooks_dir):
        p = hooks_dir / name
        if name.endswith(".json") and ctx.host.is_file(p):
            m.hook_files.append(p)
            _hook_file(ctx, m, p, "user", ours=(name == HOOKS_FILE))
    # inline hooks in settings.json
    if sdata is not None and "hooks" in sdata:
        hooks = sdata["hooks"]
        if not isinstance(hooks, dict):
            m.problems.append(Problem("hooks.parse", "error",
                                      "settings.json `hooks` must be an object of events",
                                      "remove it, or use hooks/*.json", settings.path,
                                      settings.line_of("hooks")))
        else:
            _hooks_object(ctx, m, settings, hooks, "inline", ("hooks",), ours=False)
    # repo hooks of trusted folders (config.json: trustedFolders only)
    from .hooks import trusted_folders
    for folder in trusted_folders(ctx.view):
        d = Path(folder) / f.COPILOT.repo_hook_dir
        for name in ctx.host.listdir(d):
            p = d / name
            if name.endswith(".json") and ctx.host.is_file(p):
                _hook_file(ctx, m, p, "repo", ours=False)
    _mcp_model(ctx, m)
    return m


def _hook_file(ctx: Context, m: Model, path: Path, origin: str, ours: bool) -> None:
    f = _f()
    ld = ctx.json(path, jsonc=f.COPILOT.hook_files_jsonc)   # observed: plain JSON
    rejected = "Copilot rejects the whole file: none of its hooks load"
    if ld.error:
        hint = (" (hook files are plain JSON: no comments or trailing commas)"
                if ld.text and ("//" in ld.text or "/*" in ld.text or re.search(r",\s*[}\]]", ld.text))
                else "")
        m.problems.append(Problem("hooks.parse", "error", f"not valid JSON: {ld.error}{hint}; {rejected}",
                                  "fix the JSON (`python -m json.tool` points at it)", path, ld.line))
        return
    data = ld.data
    if not isinstance(data, dict):
        m.problems.append(Problem("hooks.parse", "error", f"the top level must be an object; {rejected}",
                                  'use {"version": 1, "hooks": {...}}', path, 1))
        return
    if "version" in data:
        v = data["version"]
        if isinstance(v, bool) or v != f.COPILOT.hook_file_version:
            m.problems.append(Problem("hooks.parse", "error",
                                      f"\"version\": {json.dumps(v)} is not {f.COPILOT.hook_file_version}; "
                                      f"{rejected}", f'set "version": {f.COPILOT.hook_file_version} or '
                                      "remove it", path, ld.line_of("version")))
            return
    hooks = data.get("hooks")
    if hooks is None:
        m.problems.append(Problem("hooks.parse", "warning", "no \"hooks\" key: nothing loads from "
                                  "this file", 'add {"hooks": {"<event>": [...]}}', path, 1))
        return
    if not isinstance(hooks, dict):
        m.problems.append(Problem("hooks.parse", "error", f"\"hooks\" must be an object of events; {rejected}",
                                  "", path, ld.line_of("hooks")))
        return
    bad = [k for k, v in hooks.items() if not isinstance(v, list)]
    if bad:
        m.problems.append(Problem("hooks.parse", "error",
                                  f"the value of {', '.join(bad)} is not an array; {rejected}",
                                  f'write "{bad[0]}": [ {{...action...}} ]', path,
                                  ld.line_of("hooks", bad[0])))
        return
    _hooks_object(ctx, m, ld, hooks, origin, ("hooks",), ours=ours)


def _hooks_object(ctx: Context, m: Model, ld: Loaded, hooks: dict, origin: str,
                  prefix: tuple[str, ...], ours: bool) -> None:
    f = _f()
    facts = f.COPILOT
    for key, actions in hooks.items():
        line = ld.line_of(*prefix, key)
        resolved = f.resolve_event(key)
        if resolved is None:
            if key in facts.callback_only_events:
                why = "is a callback-only event: Copilot rejects it in hook files"
            else:
                why = "is not an event Copilot knows: its hooks are silently dropped"
            hint = suggest(key, list(facts.hook_events) + list(facts.pascal_aliases))
            m.problems.append(Problem("hooks.events", "error", f"event {key!r} {why}"
                                      + (f" (did you mean {hint!r}?)" if hint else ""),
                                      f"rename it to {hint!r}" if hint else
                                      f"use one of: {', '.join(facts.hook_events)}",
                                      ld.path, line))
            continue
        event, _ = resolved
        if not isinstance(actions, list):
            continue  # reported by the file-level check (inline: nothing else to say)
        flat: list[tuple[int, Any, bool]] = []
        for i, a in enumerate(actions):
            if isinstance(a, dict) and isinstance(a.get("hooks"), list) and not any(
                    k in a for k in ("type", "bash", "powershell", "command", "exec", "url")):
                for inner in a["hooks"]:         # Claude-style group, one level deep
                    if isinstance(inner, dict) and "matcher" not in inner and "matcher" in a:
                        inner = {**inner, "matcher": a["matcher"]}
                    flat.append((i, inner, True))
            else:
                flat.append((i, a, False))
        for i, a, grouped in flat:
            _action(ctx, m, ld, origin, key, event, i, a, line, grouped, ours)


_TIMEOUTISH = re.compile(r"(?i)^time_?out")


def _action(ctx: Context, m: Model, ld: Loaded, origin: str, key: str, event: str, i: int, a: Any,
            line: int | None, grouped: bool, ours: bool) -> None:
    facts = _f().COPILOT
    where = f"{key}[{i}]"
    skip = "Copilot skips this hook"
    if not isinstance(a, dict):
        m.problems.append(Problem("hooks.schema", "error", f"{where} is not an object; {skip}", "",
                                  ld.path, line))
        return
    # timeout spellings first: they do not skip the action
    for k in a:
        if k in facts.wrong_timeout_keys or (_TIMEOUTISH.match(k) and k != facts.timeout_key
                                             and k not in facts.timeout_aliases):
            has = facts.timeout_key in a or any(al in a for al in facts.timeout_aliases)
            m.problems.append(Problem(
                "hooks.timeout-spelling", "warning",
                f"{where} sets {k!r}, which Copilot ignores: "
                + ("its timeoutSec applies" if has else "this hook runs with no timeout at all"),
                f"rename it to {facts.timeout_key!r}", ld.path,
                find_line(ld.text, f'"{k}"', line)))
    kind = a.get("type", "command")
    if kind not in facts.action_types:
        m.problems.append(Problem("hooks.schema", "error", f"{where} has type {kind!r}: Invalid hook "
                                  f"type; {skip}", f"use one of {', '.join(facts.action_types)}",
                                  ld.path, line))
        return
    if kind == "prompt" and event not in facts.prompt_events:
        m.problems.append(Problem("hooks.schema", "error", f"{where}: a prompt hook is only valid on "
                                  f"{', '.join(facts.prompt_events)}; {skip}", "", ld.path, line))
        return
    if kind == "command":
        shell = [k for k in ("bash", "powershell", "command") if k in a]
        if bool(shell) == ("exec" in a):
            m.problems.append(Problem("hooks.schema", "error",
                                      f"{where} needs either 'exec' or 'bash'/'powershell'/'command' "
                                      f"(not both, not neither); {skip}", "", ld.path, line))
            return
        for k in shell + (["exec"] if "exec" in a else []):
            if not isinstance(a[k], str) or not a[k].strip():
                m.problems.append(Problem("hooks.schema", "error", f"{where}.{k} must be a non-empty "
                                          f"string; {skip}", "", ld.path, line))
                return
    if kind == "http":
        url = a.get("url")
        if not isinstance(url, str) or not url:
            m.problems.append(Problem("hooks.schema", "error", f"{where}: an http hook needs a url; {skip}",
                                      "", ld.path, line))
            return
        if event in facts.https_only_http_events and not url.startswith("https://"):
            m.problems.append(Problem("hooks.schema", "error", f"{where}: {event} http hooks must use "
                                      f"https; {skip}", "", ld.path, line))
            return
    for tk in (facts.timeout_key, *facts.timeout_aliases):
        if tk in a:
            v = a[tk]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0:
                m.problems.append(Problem("hooks.schema", "error", f"{where}.{tk} must be a positive "
                                          f"number of seconds, not {json.dumps(v)}; {skip}", "",
                                          ld.path, find_line(ld.text, f'"{tk}"', line)))
                return
            break
    if "matcher" in a and (not isinstance(a["matcher"], str) or a["matcher"] == "") \
            and event in facts.matcher_events:
        m.problems.append(Problem("hooks.schema", "error", f"{where}.matcher must be a non-empty "
                                  f"regex string; {skip}", "remove it to match every tool",
                                  ld.path, line))
        return
    k = None
    if not grouped:
        try:
            k = _f().copilot_disable_key(key, a)
        except (ValueError, TypeError):
            k = None
    m.actions.append(Action(ld.path, origin, key, event, i, a, line, k, ours))


def _mcp_model(ctx: Context, m: Model) -> None:
    facts = _f().COPILOT
    p = _home(ctx) / facts.mcp_file
    ld = ctx.json(p, jsonc=facts.mcp_file_jsonc)
    m.mcp = ld
    if not ld.ok or not isinstance(ld.data, dict):
        return
    servers = ld.data.get("mcpServers")
    if not isinstance(servers, dict):
        return
    for name, e in servers.items():
        why = _mcp_drop_reason(e)
        if why:
            m.dropped[name] = why
        else:
            m.servers[name] = e


def _mcp_drop_reason(e: Any) -> str | None:
    """Why Copilot 1.0.102 silently omits this mcp-config.json entry (observed), or None."""
    facts = _f().COPILOT
    if not isinstance(e, dict):
        return "the entry is not an object"
    t = e.get("type")
    if t is not None and t not in facts.mcp_transports:
        return f"type {json.dumps(t)} is not one of {', '.join(facts.mcp_transports)}"
    if "args" in e and not isinstance(e["args"], list):
        return "args is not an array"
    if t in facts.mcp_url_transports:
        if not isinstance(e.get("url"), str) or not e["url"]:
            return f"a {t} server needs a url"
    elif t in facts.mcp_command_transports:
        if not isinstance(e.get("command"), str) or not e["command"]:
            return f"a {t} server needs a command"
    elif not e.get("command") and not e.get("url"):
        return "it has neither a command nor a url"
    return None


# ==== settings.json ===============================================================================

def _settings_path(ctx: Context) -> Path:
    return _home(ctx) / _f().COPILOT.settings_file


@check("copilot.settings.parse", ok="settings.json parses")
def settings_parse(ctx: Context, out: Out) -> None:
    m = model(ctx)
    ld = m.settings
    if not ld.exists:
        out.ok("no settings.json (Copilot's defaults apply)", path=ld.path)
    elif ld.error:
        out.error(f"settings.json does not parse: {ld.error}; Copilot ignores the whole file",
                  fix="fix it at the line shown (comments and trailing commas are fine: it is JSONC)",
                  path=ld.path, line=ld.line)
    elif not isinstance(ld.data, dict):
        out.error("the top level of settings.json must be an object; Copilot ignores the file",
                  path=ld.path, line=1)
    else:
        out.ok(f"settings.json parses ({count_of(len(ld.data), 'key')})", path=ld.path)


@check("copilot.settings.types", ok="every known setting has the right type")
def settings_types(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.settings_data is None:
        if m.settings.exists:
            out.skipped("settings.json does not parse (see copilot.settings.parse)")
        else:
            out.ok("no settings.json")
        return
    f = _f()
    for key, value in m.settings_data.items():
        canon = f.SETTINGS_LEGACY_ALIASES.get(key, key)
        rule = TYPES.get(canon)
        if rule is not None and not rule[0](value):
            out.error(f"{key} is {json.dumps(value)[:60]} but must be {rule[1]}: one invalid value "
                      "makes Copilot ignore the WHOLE settings.json (every other setting too)",
                      fix=f"set {key} to {rule[1]}, or remove it", path=m.settings.path,
                      line=m.settings.line_of(key))


@check("copilot.settings.unknown-keys", ok="every top-level key is one Copilot knows")
def settings_unknown(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.settings_data is None:
        if m.settings.exists:
            out.skipped("settings.json does not parse (see copilot.settings.parse)")
        else:
            out.ok("no settings.json")
        return
    f = _f()
    facts = f.COPILOT
    for key in m.settings_data:
        if key in f.SETTINGS_KEYS or key in f.SETTINGS_LEGACY_ALIASES:
            continue
        if key in facts.settings_misplaced_keys:
            msg = (f"{key!r} is not a settings.json key (it lives in "
                   f"{facts.settings_misplaced_keys[key]}): Copilot warns at every start and "
                   "ignores it")
            fix = f"remove it; Copilot keeps {key} in {facts.settings_misplaced_keys[key]} itself"
        else:
            hint = suggest(key, f.SETTINGS_KEYS)
            msg = (f"unknown top-level key {key!r}: Copilot warns at every start and ignores it"
                   + (f" (did you mean {hint!r}?)" if hint else ""))
            fix = f"rename it to {hint!r}" if hint else "remove it (keep your own notes elsewhere)"
        out.warning(msg, fix=fix, path=m.settings.path, line=m.settings.line_of(key))


# ==== hooks =======================================================================================

@check("copilot.hooks.parse", ok="every hook file loads")
def hooks_parse(ctx: Context, out: Out) -> None:
    m = model(ctx)
    _emit(out, m.of("hooks.parse"))
    if not out.findings:
        n = len(m.hook_files)
        out.ok(f"{count_of(n, 'hook file')} in {ctx.show(_home(ctx) / 'hooks')}, all load"
               if n else "no hook files")


@check("copilot.hooks.events", ok="every hook event is one Copilot knows")
def hooks_events(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.events"))


@check("copilot.hooks.timeout-spelling", ok="every hook timeout is spelled timeoutSec")
def hooks_timeouts(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.timeout-spelling"))


@check("copilot.hooks.schema", ok="every hook action is valid")
def hooks_schema(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.schema"))


@check("copilot.hooks.disable-all", ok="disableAllHooks is not set")
def hooks_disable_all(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.settings_data is None or m.settings_data.get("disableAllHooks") is not True:
        if m.settings_data is not None and m.settings_data.get("disableAllHooks") is False:
            out.ok("disableAllHooks is false")
        return
    n = len([a for a in m.actions if a.origin in ("user", "inline", "repo")])
    line = m.settings.line_of("disableAllHooks")
    if n and not _f().COPILOT.disable_all_stops_user_hooks:
        # observed with the verified version: the setting is read, yet every user hook still runs
        out.error(f"disableAllHooks is true, yet Copilot {_f().COPILOT.verified_versions[1]} still runs the {n} user "
                  f"{noun_for(n, 'hook')} (observed in a real turn): the setting does not switch them off",
                  fix="`/hooks` disables single hooks (disabledHooks); `agentdeck uninstall "
                  "--target copilot` removes agentdeck's; remove disableAllHooks",
                  path=m.settings.path, line=line)
    elif n:
        out.error(f"disableAllHooks is true: none of the {n} user and repo {noun_for(n, 'hook')} run "
                  "(admin policy hooks still do)", fix="set \"disableAllHooks\": false (or "
                  "remove it); `/hooks` disables single hooks", path=m.settings.path, line=line)
    elif not _f().COPILOT.disable_all_stops_user_hooks:
        out.warning(f"disableAllHooks is true, but Copilot {_f().COPILOT.verified_versions[1]} "
                    "does not switch user hooks off with it (observed in a real turn)",
                    fix="remove it; `/hooks` disables single hooks", path=m.settings.path,
                    line=line)
    else:
        out.warning("disableAllHooks is true: any hook you add will not run",
                    fix="set it to false or remove it", path=m.settings.path, line=line)


@check("copilot.hooks.inline-and-files", ok="hooks are defined in one place")
def hooks_inline(ctx: Context, out: Out) -> None:
    m = model(ctx)
    inline = [a for a in m.actions if a.origin == "inline"]
    files = [a for a in m.actions if a.origin == "user"]
    if not inline:
        return
    if not files:
        out.ok(f"{count_of(len(inline), 'inline hook')} in settings.json, no hook files")
        return
    by_key = {(a.event, a.key) for a in files if a.key}
    twice = [a for a in inline if a.key and (a.event, a.key) in by_key]
    line = m.settings.line_of("hooks")
    if twice:
        evs = ", ".join(sorted({a.event for a in twice}))
        out.warning(f"{count_of(len(twice), 'hook')} {noun_for(len(twice), 'is', 'are')} defined both inline in settings.json and in "
                    f"hooks/*.json ({evs}): Copilot loads both, so they fire twice",
                    fix="remove the settings.json `hooks` key (agentdeck registers hooks in "
                        "hooks/agentdeck.json)", path=m.settings.path, line=line)
    else:
        out.warning(f"settings.json has {count_of(len(inline), 'inline hook')} besides {len(files)} in "
                    "hooks/*.json: both run (no duplicates now, but one added to both places "
                    "would fire twice)", fix="keep hooks in one place: hooks/*.json",
                    path=m.settings.path, line=line)


def _command_findings(ctx: Context, kind: str, out: Out) -> None:
    m = model(ctx)
    seen: set[tuple[str, str]] = set()
    for a in m.actions:
        act = a.action
        if act.get("type", "command") != "command":
            continue
        cmd = act.get("bash", act.get("command"))
        prog = act.get("exec") if "exec" in act else None
        for cf in commands.inspect_command(ctx, cmd, prog):
            if cf.kind != kind or (cf.message, str(a.path)) in seen:
                continue
            seen.add((cf.message, str(a.path)))
            out.add(cf.result, f"{a.event_key}: {cf.message}", cf.fix, a.path, a.line)


@check("copilot.hooks.wrapper", ok="no hook calls a missing or non-executable agentdeck wrapper")
def hooks_wrapper(ctx: Context, out: Out) -> None:
    _command_findings(ctx, "wrapper", out)
    if not out.findings:
        uses = any(commands.is_wrapper_path(ctx, (commands.split_command(
            str(a.action.get("bash", a.action.get("command", "")))) or [""])[0]) for a in model(ctx).actions)
        if not uses:
            out.ok("no hook calls the agentdeck wrapper")


@check("copilot.hooks.handler", ok="every hook command is found")
def hooks_handler(ctx: Context, out: Out) -> None:
    _command_findings(ctx, "handler", out)
    if not out.findings:
        out.ok(f"{count_of(len(model(ctx).actions), 'hook')}; every command is found" if model(ctx).actions
               else "no hooks")


@check("copilot.hooks.disabled", ok="no hook is disabled in disabledHooks")
def hooks_disabled(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.settings_data is None:
        return
    keys = m.settings_data.get("disabledHooks")
    if not isinstance(keys, list) or not keys:
        return
    keys = [k for k in keys if isinstance(k, str)]
    by_key = {a.key: a for a in m.actions if a.key}
    off = [by_key[k] for k in keys if k in by_key]
    stale = [k for k in keys if k not in by_key]
    line = m.settings.line_of("disabledHooks")
    for a in off:
        who = "agentdeck's" if a.ours else "a"
        out.info(f"{who} {a.event} hook in {ctx.show(a.path)} is disabled by you (disabledHooks): "
                 "Copilot discovers it but does not run it",
                 fix="`/hooks` in Copilot enables it again", path=m.settings.path, line=line)
    if stale:
        out.info(f"{len(stale)} disabledHooks entr{'y' if len(stale) == 1 else 'ies'} match no "
                 f"hook ({', '.join(k[:8] for k in stale[:4])}...): the hook is gone, or its "
                 "command or timeout changed -- which gives it a new key, so a hook you disabled "
                 "may be running again",
                 fix="check `/hooks` in Copilot; remove the stale keys", path=m.settings.path,
                 line=line)


# ==== MCP =========================================================================================

@check("copilot.mcp.parse", ok="mcp-config.json parses")
def mcp_parse(ctx: Context, out: Out) -> None:
    m = model(ctx)
    ld = m.mcp
    if ld is None or not ld.exists:
        out.ok("no mcp-config.json")
        return
    if ld.error:
        out.error(f"mcp-config.json does not parse: {ld.error}; Copilot loads none of its servers "
                  "(and says only the misleading `mcpServers: Required`)",
                  fix="fix the JSON at the line shown", path=ld.path, line=ld.line)
        return
    if not isinstance(ld.data, dict) or not isinstance(ld.data.get("mcpServers"), dict):
        out.error("mcp-config.json has no \"mcpServers\" object: Copilot loads no server from it",
                  fix='use {"mcpServers": {"name": {...}}}', path=ld.path, line=1)
        return
    out.ok(f"mcp-config.json parses ({count_of(len(ld.data['mcpServers']), 'server')})", path=ld.path)


@check("copilot.mcp.dropped", ok="no MCP server is silently dropped")
def mcp_dropped(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.mcp is None:
        return
    for name, why in m.dropped.items():
        out.error(f"MCP server {name!r} is silently omitted by Copilot: {why}",
                  fix="fix the entry (type local|stdio with a command and an args array, or "
                      "http|sse with a url)", path=m.mcp.path,
                  line=m.mcp.line_of("mcpServers", name))


@check("copilot.mcp.tools-wildcard", ok="no MCP tools list uses a partial wildcard")
def mcp_wildcards(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.mcp is None:
        return
    for name, e in m.servers.items():
        tools = e.get("tools")
        if not isinstance(tools, list):
            continue
        partial = [t for t in tools if isinstance(t, str) and "*" in t and t != "*"]
        if partial:
            exact = [t for t in tools if isinstance(t, str) and "*" not in t]
            effect = ("so the server offers no tools at all" if not exact and "*" not in tools
                      else "those entries match nothing")
            out.warning(f"MCP server {name!r}: tools {', '.join(partial)} are taken literally "
                        f"(Copilot's tools list is exact names or \"*\"), {effect}",
                        fix='list the exact tool names, or use ["*"]', path=m.mcp.path,
                        line=m.mcp.line_of("mcpServers", name, "tools") or
                        m.mcp.line_of("mcpServers", name))


@check("copilot.mcp.disabled-unknown", ok="disabledMcpServers names only configured servers")
def mcp_disabled_unknown(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.settings_data is None:
        return
    names = m.settings_data.get("disabledMcpServers")
    if not isinstance(names, list):
        return
    known = set(m.servers) | set(m.dropped) | set(_f().COPILOT.builtin_mcp_servers)
    known |= _repo_mcp_names(ctx)
    for n in names:
        if isinstance(n, str) and n not in known:
            hint = suggest(n, sorted(known))
            out.warning(f"disabledMcpServers names {n!r}, but no such server is configured"
                        + (f" (did you mean {hint!r}? that one is NOT disabled)" if hint else ""),
                        fix=f"remove {n!r} from disabledMcpServers" + (f" or rename it to {hint!r}"
                                                                      if hint else ""),
                        path=m.settings.path, line=m.settings.line_of("disabledMcpServers"))


def _repo_mcp_names(ctx: Context) -> set[str]:
    names: set[str] = set()
    for folder in trusted_folders(ctx.view):
        for rel in _f().COPILOT.repo_mcp_files:
            ld = ctx.json(Path(folder) / rel, jsonc=True)
            if ld.ok and isinstance(ld.data, dict) and isinstance(ld.data.get("mcpServers"), dict):
                names |= set(ld.data["mcpServers"])
    return names


def browser_env(ctx: Context) -> tuple[str | None, str, bool]:
    """(COPILOT_DEBUG_BROWSER as Copilot would see it, where it comes from, whether it reaches
    Copilot): the environment first, then agentdeck's env file (which reaches Copilot only
    through the ~/.bashrc block)."""
    v = ctx.host.env.get("COPILOT_DEBUG_BROWSER")
    if v is not None:
        return v, "the environment", True
    vals = _env_file_values(ctx)
    if "COPILOT_DEBUG_BROWSER" in vals:
        return vals["COPILOT_DEBUG_BROWSER"], ctx.show(_env_file(ctx)) or "", _bashrc_sources(ctx)
    return None, "", False


def _bashrc_sources(ctx: Context) -> bool:
    ld = ctx.read(ctx.host.home / ".bashrc")
    try:
        return ld.text is not None and bool(ld.text) and get_block(ld.text, *BASHRC_MARKERS) is not None
    except BlockError:
        return False


@check("copilot.mcp.oauth-wsl", ok="no OAuth browser problem")
def mcp_oauth_wsl(ctx: Context, out: Out) -> None:
    m = model(ctx)
    value, where, reaches = browser_env(ctx)
    launcher_problem = None
    if value is not None and not reaches:
        launcher_problem = (f"COPILOT_DEBUG_BROWSER is set in {where}, but ~/.bashrc does not "
                            "source that file, so Copilot never sees it")
    elif value is not None:
        try:
            argv = json.loads(value)
        except ValueError:
            argv = None
        if not (isinstance(argv, list) and argv and all(isinstance(x, str) for x in argv)):
            launcher_problem = (f"COPILOT_DEBUG_BROWSER in {where} is not a JSON array of strings "
                                f"({value[:40]!r}): Copilot cannot launch it")
        else:
            if _is_explorer(argv[0]):
                launcher_problem = ("COPILOT_DEBUG_BROWSER is explorer.exe, which ignores the URL "
                                    "and opens File Explorer")
            elif commands.check_program(ctx, argv[0]):
                launcher_problem = (f"COPILOT_DEBUG_BROWSER in {where} names {argv[0]}, and "
                                    f"{commands.check_program(ctx, argv[0])}")
    if launcher_problem:
        out.warning(launcher_problem + ": OAuth logins for MCP servers open nothing",
                    fix='set browserCommand: "auto" in your profile\'s _agentdeck block and '
                        '`agentdeck apply`', path=_env_file(ctx) if "environment" not in where else None)
        return
    if not ctx.host.is_wsl:
        out.ok("not WSL: Copilot opens your own browser for MCP OAuth")
        return
    oauth = [n for n, e in m.servers.items()
             if e.get("type") in _f().COPILOT.mcp_url_transports
             and (e.get("auth") is True or e.get("oidc") is True)]
    if oauth and value is None:
        out.warning(f"WSL, and MCP {noun_for(len(oauth), 'server')} {', '.join(oauth)} "
                f"{'has' if len(oauth) == 1 else 'have'} OAuth on, with no "
                    "COPILOT_DEBUG_BROWSER: a 401 opens a browser inside WSL, which has no "
                    "Windows session, and the session waits",
                    fix='set browserCommand: "auto" (wslview, Chrome or Edge) in your profile\'s '
                        '_agentdeck block and `agentdeck apply`; wslu provides wslview',
                    path=m.mcp.path if m.mcp else None)
    elif oauth:
        out.ok(f"WSL: OAuth for {', '.join(oauth)} goes to COPILOT_DEBUG_BROWSER ({where})")
    else:
        out.ok("WSL, but no MCP server has OAuth on")


# ==== env file, shell block, COPILOT_ALLOW_ALL ====================================================

def _env_file(ctx: Context) -> Path:
    return ctx.host.state_dir / ENV_FILE_NAME


def _env_file_values(ctx: Context) -> dict[str, str]:
    ld = ctx.read(_env_file(ctx))
    if not ld.exists or ld.text is None:
        return {}
    from ...formats.envfile import parse_env   # local: loads only when a copilot.env exists
    return parse_env(ld.text)


_RC_FILES = (".bashrc", ".bash_profile", ".profile", ".zshrc", ".zprofile", ".zshenv")
_ALLOW_RE = re.compile(r"^\s*(?:export\s+)?COPILOT_ALLOW_ALL=(?P<v>\S*)")


@check("copilot.env.allow-all", ok="COPILOT_ALLOW_ALL is unset or exactly true", needs_home=False)
def env_allow_all(ctx: Context, out: Out) -> None:
    why = ("Copilot compares it with the literal \"true\": any other value grants only the tools "
           "axis, while folder trust, repo hooks in prompt mode and plugins stay off")
    v = ctx.host.env.get("COPILOT_ALLOW_ALL")
    if v is not None and v != "true":
        out.warning(f"COPILOT_ALLOW_ALL={v!r} in the environment: {why}",
                    fix="export COPILOT_ALLOW_ALL=true, or unset it")
    vals = _env_file_values(ctx)
    if "COPILOT_ALLOW_ALL" in vals and vals["COPILOT_ALLOW_ALL"] != "true":
        ef = _env_file(ctx)
        out.warning(f"COPILOT_ALLOW_ALL={vals['COPILOT_ALLOW_ALL']!r} in the env file: {why}",
                    fix="set allowAll: true in the profile's _agentdeck block and `agentdeck apply`",
                    path=ef, line=find_line(ctx.read(ef).text, "COPILOT_ALLOW_ALL"))
    for rc in _RC_FILES:
        p = ctx.host.home / rc
        ld = ctx.read(p)
        if not ld.text:
            continue
        for i, ln in enumerate(ld.text.splitlines(), 1):
            mm = _ALLOW_RE.match(ln)
            if mm:
                val = mm.group("v").strip("'\"")
                if val != "true":
                    out.warning(f"{rc} sets COPILOT_ALLOW_ALL={mm.group('v')}: {why}",
                                fix="write COPILOT_ALLOW_ALL=true", path=p, line=i)
    if not out.findings:
        set_ = v == "true" or vals.get("COPILOT_ALLOW_ALL") == "true"
        out.ok("COPILOT_ALLOW_ALL is exactly true" if set_ else "COPILOT_ALLOW_ALL is not set")


@check("copilot.env.shell-block", ok="no agentdeck env file", needs_home=False)
def env_shell_block(ctx: Context, out: Out) -> None:
    ef = _env_file(ctx)
    bashrc = ctx.host.home / ".bashrc"
    ld = ctx.read(bashrc)
    body = None
    if ld.text:
        try:
            body = get_block(ld.text, *BASHRC_MARKERS, path=str(bashrc))
        except BlockError as e:
            out.error(f"agentdeck's block in ~/.bashrc is broken: {e.msg}; the env file is not "
                      "sourced and apply refuses to edit the file",
                      fix="leave exactly one begin and one end marker line", path=bashrc, line=e.line)
            return
    if not ctx.host.is_file(ef):
        if body is not None:
            out.info(f"~/.bashrc sources {ctx.show(ef)}, which does not exist: nothing is exported",
                     fix="`agentdeck apply` (or remove the block)", path=bashrc)
        return
    names = ", ".join(_env_file_values(ctx)) or "no variables"
    if body is None:
        out.warning(f"{ctx.show(ef)} exists ({names}) but ~/.bashrc does not source it: "
                    "Copilot never sees these variables",
                    fix="`agentdeck apply` adds the block to ~/.bashrc (or source the file from "
                        "your shell's rc file yourself)", path=ef)
        return
    out.info(f"{names}: {NON_INTERACTIVE_CAVEAT}",
             fix="for such launches, export them where that launcher reads its environment",
             path=ef)


# ==== persona, skills, secrets ====================================================================

@check("copilot.persona.markers", ok="persona markers intact")
def persona(ctx: Context, out: Out) -> None:
    files.persona_markers(ctx, out, _home(ctx) / _f().COPILOT.persona_file)


@check("copilot.skills.links", ok="no dangling skill links", needs_home=False)
def skills(ctx: Context, out: Out) -> None:
    files.skill_links(ctx, out, files.skill_dirs(ctx, T, [(_home(ctx) / "skills", "")]))


def _secret_sources(ctx: Context) -> list[tuple[Path, Any]]:
    m = model(ctx)
    src: list[tuple[Path, Any]] = []
    if m.settings_data is not None:
        src.append((m.settings.path, m.settings_data))
    if m.mcp is not None and m.mcp.ok:
        src.append((m.mcp.path, m.mcp.data))
    for p in m.hook_files:
        ld = ctx.json(p, jsonc=_f().COPILOT.hook_files_jsonc)
        if ld.ok:
            src.append((p, ld.data))
    ef = ctx.read(_env_file(ctx))
    if ef.text:
        src.append((ef.path, ef.text))
    return src


@check("copilot.secrets.literal", ok="no literal credentials in Copilot's config files")
def secrets_literal(ctx: Context, out: Out) -> None:
    ctx.memo[f"{T}.secret-holders"] = secret_files.literal_secrets(ctx, out, _secret_sources(ctx))


@check("copilot.secrets.file-mode", ok="secret-bearing files are private")
def secrets_modes(ctx: Context, out: Out) -> None:
    holders = ctx.memo.get(f"{T}.secret-holders")
    if holders is None:
        holders = secret_files.literal_secrets(ctx, Out(ctx, out.check), _secret_sources(ctx))
    secret_files.file_modes(ctx, out, holders, [_home(ctx) / _f().COPILOT.config_file])


# ==== registered after the rest (the table keeps this order within an area) ====

@check("copilot.hooks.fires-twice", ok="no event agentdeck registers is registered again by "
                                       "another source that runs")
def copilot_fires_twice(ctx: Context, out: Out) -> None:
    """An event of agentdeck's hooks file registered again by another tool's hooks file (or a
    copy of ours), the inline `hooks` key, or a trusted repository's .claude/settings.json. The
    operator's own extra hook files with their own commands are theirs: not reported."""
    m = model(ctx)
    disabled = set()
    dh = (m.settings_data or {}).get("disabledHooks")
    if isinstance(dh, list):
        disabled = {k for k in dh if isinstance(k, str)}
    wrapper = str(_home(ctx) / WRAPPER_NAME)
    by_path: dict[str, list] = {}
    for a in m.actions:
        if not (a.key and a.key in disabled):
            by_path.setdefault(str(a.path), []).append(a)
    ours = [p for p, acts in by_path.items() if any(a.ours for a in acts)]
    if not ours:
        return
    sources = {p: {ctx.canonical_event(a.event) for a in by_path[p]} for p in ours}
    labels = {p: "agentdeck's hooks file" for p in ours}
    inline = str(m.settings.path)
    skip = set()
    for p, acts in by_path.items():
        if p in ours:
            continue
        cmds = [str(a.action.get("bash") or a.action.get("command") or "") for a in acts]
        tool = fires_twice.other_tool(Path(p), cmds)
        if p == inline:
            label = "settings.json `hooks`"
            # identical actions inline and in our file: copilot.hooks.inline-and-files says so
            keys = {(a.event, a.key) for o in ours for a in by_path[o] if a.key}
            for a in acts:
                if (a.event, a.key) in keys:
                    x, y = sorted((ours[0], p))
                    skip.add((x, y, ctx.canonical_event(a.event)))
        elif any(wrapper in c for c in cmds):
            label = "a copy of agentdeck's hooks"
        elif tool:
            label = f"{tool}'s hooks file"
        else:
            continue
        sources[p] = {ctx.canonical_event(a.event) for a in acts}
        labels[p] = label
    for src in other_hook_sources(ctx.view, m.settings_data):
        if src.kind == "repo-claude-hooks":
            p = src.path
            sources[p] = {ctx.canonical_event(e) for e in src.events}
            labels[p] = "Claude-format hooks of a trusted repository, which Copilot loads"
    fires_twice.report(ctx, out, sources, labels, skip, ours=set(ours))
