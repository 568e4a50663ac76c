"""OpenAI Codex CLI checks: config.toml, hooks.json (and [[hooks.<Event>]] in config.toml), hook
trust in `[hooks.state."<key>"]`, MCP servers, AGENTS.md -- against core.targets.codex.facts
(Codex 0.171.0)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...disk import Loaded
from ..checks import files, fires_twice, secret_files
from ..checks import hook_commands as commands
from ..checks.values import KIND_TEXT, find_line, suggest, type_ok
from ..parts.doctor import Context, Out, Problem, check
from ..parts.doctor import emit as _emit
from . import SPEC, facts
from ...wording import count_of, noun_for

T = SPEC.name
#: the CLI loads the shared ~/.agents/skills (reported under the first selected one that does)
SHARES_AGENTS_SKILLS = True


def _home(ctx: Context) -> Path:
    return SPEC.home(ctx.host)


def _f():
    return facts


@dataclass
class Handler:
    path: Path                  # hooks.json or config.toml
    event: str                  # PascalCase as written (valid)
    group: int
    index: int
    matcher: str | None
    handler: dict
    line: int | None
    state_key: str
    trusted_hash: str | None    # what Codex would compute (None: not computable)


@dataclass
class Model:
    config: Loaded
    config_data: dict | None
    hooks_json: Loaded
    handlers: list[Handler] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    sources: set[str] = field(default_factory=set)     # "hooks.json", "config.toml"

    def of(self, suffix: str) -> list[Problem]:
        return [p for p in self.problems if p.check == suffix]


def model(ctx: Context) -> Model:
    if T in ctx.memo:
        return ctx.memo[T]
    facts = _f().CODEX
    home = _home(ctx)
    cfg = ctx.toml(home / facts.config_file)
    cdata = cfg.data if cfg.ok and isinstance(cfg.data, dict) else None
    hj = ctx.json(home / facts.hooks_file, jsonc=facts.hooks_json_jsonc)
    m = Model(cfg, cdata, hj)
    ctx.memo[T] = m
    _hooks_json(ctx, m)
    if cdata is not None and isinstance(cdata.get("hooks"), dict):
        events = {k: v for k, v in cdata["hooks"].items()
                  if k != facts.hook_state_table.split(".", 1)[1]}
        if events:
            _events(ctx, m, cfg, events, ("hooks",))
    return m


def _hooks_json(ctx: Context, m: Model) -> None:
    facts = _f().CODEX
    ld = m.hooks_json
    if not ld.exists:
        return
    rejected = "Codex skips the whole file: none of its hooks load"
    if ld.error:
        m.problems.append(Problem("hooks.parse", "error", f"not valid JSON: {ld.error}; {rejected}",
                                  "fix the JSON (no comments or trailing commas)", ld.path, ld.line))
        return
    if not isinstance(ld.data, dict):
        m.problems.append(Problem("hooks.parse", "error", f"the top level must be an object; {rejected}",
                                  "", ld.path, 1))
        return
    extra = [k for k in ld.data if k not in facts.hooks_json_top_keys]
    if extra:
        m.problems.append(Problem("hooks.parse", "error",
                                  f"top-level {noun_for(len(extra), 'key')} {', '.join(map(repr, extra))} "
                 f"{'is' if len(extra) == 1 else 'are'} not allowed "
                                  f"(only {' and '.join(facts.hooks_json_top_keys)}); {rejected}",
                                  f"remove {extra[0]!r}" + (" (Copilot's hook files have a version "
                                                            "key; Codex's must not)"
                                                            if "version" in extra else ""),
                                  ld.path, ld.line_of(extra[0])))
        # report what else is wrong in the file as well (Codex loads none of it)
    hooks = ld.data.get("hooks")
    if hooks is None:
        return
    if not isinstance(hooks, dict):
        m.problems.append(Problem("hooks.parse", "error", f"\"hooks\" must be an object; {rejected}",
                                  "", ld.path, ld.line_of("hooks")))
        return
    _events(ctx, m, ld, hooks, ("hooks",), rejected_already=bool(extra))


def _events(ctx: Context, m: Model, ld: Loaded, hooks: dict, prefix: tuple[str, ...],
            rejected_already: bool = False) -> None:
    """Every problem of the file's hooks, also after one that makes Codex reject the whole file
    too; the file's handlers count as loaded only when nothing rejects it."""
    f = _f()
    facts = f.CODEX
    is_toml = ld.path.name == facts.config_file
    rejected = ("Codex cannot load config.toml" if is_toml else
                "Codex skips the whole file: none of its hooks load")
    found_any = False
    first_handler = len(m.handlers)
    bad = rejected_already
    for event, groups in hooks.items():
        line = ld.line_of(*prefix, event)
        if event not in facts.hook_events:
            hint = suggest(event, facts.hook_events)
            m.problems.append(Problem("hooks.events", "error",
                                      f"event {event!r} is not one Codex knows: its hooks are "
                                      "silently dropped" + (f" (did you mean {hint!r}?)" if hint else ""),
                                      f"rename it to {hint!r}" if hint else
                                      f"use one of: {', '.join(facts.hook_events)}", ld.path, line))
            continue
        if not isinstance(groups, list):
            m.problems.append(Problem("hooks.parse", "error", f"{event} must be an array of matcher "
                                      f"groups; {rejected}", "", ld.path, line))
            bad = True
            continue
        for gi, g in enumerate(groups):
            if not isinstance(g, dict) or not isinstance(g.get("hooks"), list):
                m.problems.append(Problem("hooks.parse", "error",
                                          f"{event}[{gi}] must be {{\"matcher\": ..., \"hooks\": [...]}} "
                                          f"(Claude's shape, not a flat action); {rejected}",
                                          'wrap the action: {"hooks": [{"type": "command", ...}]}',
                                          ld.path, line))
                bad = True
                continue
            matcher = g.get("matcher")
            for hi, h in enumerate(g["hooks"]):
                where = f"{event}[{gi}].hooks[{hi}]"
                if not isinstance(h, dict):
                    m.problems.append(Problem("hooks.parse", "error", f"{where} is not an object; "
                                              f"{rejected}", "", ld.path, line))
                    bad = True
                    continue
                for k in h:
                    if k in facts.wrong_timeout_keys or (re.match(r"(?i)^time_?out", k)
                                                         and k != facts.timeout_key):
                        dflt = facts.default_timeout(event)
                        m.problems.append(Problem(
                            "hooks.timeout-spelling", "warning",
                            f"{where} sets {k!r}, which Codex ignores: the default of "
                            f"{dflt:g}s applies" + (f" (its {facts.timeout_key!r} applies)"
                                                   if facts.timeout_key in h else ""),
                            f"rename it to {facts.timeout_key!r} (seconds)", ld.path,
                            find_line(ld.text, k, line)))
                kind = h.get("type", "command")
                if kind in facts.skipped_handler_types:
                    m.problems.append(Problem("hooks.schema", "warning",
                                              f"{where}: {kind} hooks are not supported yet; Codex "
                                              "skips it", "", ld.path, line))
                    continue
                if kind not in facts.handler_types:
                    m.problems.append(Problem("hooks.parse", "error", f"{where} has type {kind!r}; "
                                              f"{rejected}", f"use type {facts.handler_types[0]!r}",
                                              ld.path, line))
                    bad = True
                    continue
                if not isinstance(h.get("command"), str) or not h["command"].strip():
                    m.problems.append(Problem("hooks.parse", "error", f"{where} has no command; "
                                              f"{rejected}", "", ld.path, line))
                    bad = True
                    continue
                to = h.get(facts.timeout_key)
                if to is not None and (isinstance(to, bool) or not isinstance(to, int) or to < 0):
                    m.problems.append(Problem("hooks.parse", "error",
                                              f"{where}.{facts.timeout_key} is {json.dumps(to)}: it "
                                              f"must be a whole number of seconds; {rejected}",
                                              f"write \"{facts.timeout_key}\": "
                                              f"{max(1, int(to)) if isinstance(to, (int, float)) and not isinstance(to, bool) else 30}",
                                              ld.path, find_line(ld.text, facts.timeout_key, line)))
                    bad = True
                    continue
                try:
                    th = f.codex_trusted_hash(event, matcher if isinstance(matcher, str) else None, [h])
                except (ValueError, TypeError, KeyError):
                    th = None
                src = str(Path(ctx.host.realpath(ld.path.parent)) / ld.path.name)  # as Codex names it
                m.handlers.append(Handler(ld.path, event, gi, hi,
                                          matcher if isinstance(matcher, str) else None, h, line,
                                          f.codex_hook_state_key(src, event, gi, hi), th))
                found_any = True
    if bad:                    # Codex rejects the file: none of its hooks is loaded
        del m.handlers[first_handler:]
    elif found_any:
        m.sources.add(ld.path.name)


# ==== config.toml =================================================================================

@check("codex.config.parse", ok="config.toml parses")
def config_parse(ctx: Context, out: Out) -> None:
    m = model(ctx)
    ld = m.config
    if not ld.exists:
        out.ok("no config.toml (Codex's defaults apply)", path=ld.path)
    elif ld.error:
        out.error(f"config.toml does not parse: {ld.error}; Codex cannot load its configuration",
                  fix="fix the TOML at the line shown", path=ld.path, line=ld.line)
    else:
        out.ok(f"config.toml parses ({count_of(len(ld.data), 'top-level key')})", path=ld.path)


@check("codex.config.types", ok="known keys have the right types")
def config_types(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.config_data is None:
        if m.config.exists:
            out.skipped("config.toml does not parse (see codex.config.parse)")
        else:
            out.ok("no config.toml")
        return
    facts = _f().CODEX
    for key, kind in facts.config_key_types.items():
        if key in m.config_data and not type_ok(m.config_data[key], kind):
            out.error(f"{key} must be {KIND_TEXT[kind]}, not {json.dumps(m.config_data[key], default=str)[:50]}: "
                      "Codex cannot load its configuration", fix=f"write {key} as {KIND_TEXT[kind]}",
                      path=m.config.path, line=m.config.line_of(key))


@check("codex.config.unknown-keys", ok="every top-level key is one Codex knows")
def config_unknown(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.config_data is None:
        if m.config.exists:
            out.skipped("config.toml does not parse (see codex.config.parse)")
        else:
            out.ok("no config.toml")
        return
    facts = _f().CODEX
    for key in m.config_data:
        if key in facts.config_keys:
            continue
        hint = suggest(key, sorted(facts.config_keys))
        out.warning(f"unknown top-level key {key!r}: Codex ignores it (and `--strict-config` "
                    "refuses it)" + (f" (did you mean {hint!r}?)" if hint else ""),
                    fix=(f"rename it to {hint!r}" if hint else "remove it")
                        + "; `agentdeck doctor --live` asks Codex itself",
                    path=m.config.path, line=m.config.line_of(key))


# ==== MCP =========================================================================================

@check("codex.mcp.invalid", ok="every MCP server entry is valid")
def mcp_invalid(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if m.config_data is None:
        if m.config.exists:
            out.skipped("config.toml does not parse (see codex.config.parse)")
        else:
            out.ok("no config.toml")
        return
    facts = _f().CODEX
    servers = m.config_data.get(facts.mcp_table)
    if servers is None:
        out.ok("no MCP servers")
        return
    if not isinstance(servers, dict):
        out.error(f"{facts.mcp_table} must be a table of servers: Codex cannot load its configuration",
                  path=m.config.path, line=m.config.line_of(facts.mcp_table))
        return
    fatal = "Codex cannot load its configuration (every setting falls back to the defaults)"
    known = set(facts.mcp_stdio_keys) | set(facts.mcp_http_keys) | set(facts.mcp_common_keys)
    for name, e in servers.items():
        line = m.config.line_of(facts.mcp_table, name)
        if not isinstance(e, dict):
            out.error(f"MCP server {name!r} is not a table: {fatal}", path=m.config.path, line=line)
            continue
        for k in facts.mcp_fatal_keys:
            if k in e:
                out.error(f"MCP server {name!r} sets {k!r}, which Codex refuses: {fatal}",
                          fix="put the token in an environment variable and name it with "
                              "bearer_token_env_var", path=m.config.path, line=line)
        has_cmd, has_url = "command" in e, "url" in e
        if not has_cmd and not has_url:
            out.error(f"MCP server {name!r} has neither command nor url (invalid transport): {fatal}",
                      fix="add command (stdio) or url (streamable HTTP)", path=m.config.path, line=line)
        if has_cmd and not isinstance(e["command"], str):
            out.error(f"MCP server {name!r}: command must be a string: {fatal}", path=m.config.path,
                      line=line)
        if "args" in e and not type_ok(e["args"], "str_list"):
            out.error(f"MCP server {name!r}: args must be an array of strings: {fatal}",
                      path=m.config.path, line=line)
        if "enabled" in e and not isinstance(e["enabled"], bool):
            out.error(f"MCP server {name!r}: enabled must be true or false: {fatal}",
                      path=m.config.path, line=line)
        for k in e:
            if k in facts.mcp_ignored_keys:
                out.warning(f"MCP server {name!r} sets {k!r}: Codex has no such key (it infers the "
                            "transport from command or url) and ignores it",
                            fix=f"remove {k!r}", path=m.config.path, line=line)
            elif k not in known and k not in facts.mcp_fatal_keys:
                out.warning(f"MCP server {name!r}: unknown key {k!r} is ignored",
                            fix=f"remove {k!r}", path=m.config.path, line=line)


# ==== hooks =======================================================================================

@check("codex.hooks.parse", ok="hooks load")
def hooks_parse(ctx: Context, out: Out) -> None:
    m = model(ctx)
    _emit(out, m.of("hooks.parse"))
    if not out.findings:
        out.ok(f"{count_of(len(m.handlers), 'hook')} load" if m.handlers else "no hooks")


@check("codex.hooks.events", ok="every hook event is one Codex knows")
def hooks_events(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.events"))


@check("codex.hooks.timeout-spelling", ok="every hook timeout is spelled timeout")
def hooks_timeouts(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.timeout-spelling"))


@check("codex.hooks.schema", ok="every hook handler is supported")
def hooks_schema(ctx: Context, out: Out) -> None:
    _emit(out, model(ctx).of("hooks.schema"))


@check("codex.hooks.inline-and-file", ok="hooks are defined in one place")
def hooks_inline(ctx: Context, out: Out) -> None:
    m = model(ctx)
    facts = _f().CODEX
    if {facts.hooks_file, facts.config_file} <= m.sources:
        mine = {(h.event, json.dumps(h.handler, sort_keys=True)) for h in m.handlers
                if h.path.name == facts.hooks_file}
        twice = [h for h in m.handlers if h.path.name == facts.config_file
                 and (h.event, json.dumps(h.handler, sort_keys=True)) in mine]
        extra = (f"; {len(twice)} of them are in both and fire twice" if twice else "")
        out.warning(f"hooks are defined both in hooks.json and in config.toml [hooks]: Codex loads "
                    f"both (and warns about it){extra}",
                    fix="keep them in one place", path=m.config.path,
                    line=m.config.line_of("hooks"))


def _state(m: Model) -> dict:
    st = ((m.config_data or {}).get("hooks") or {})
    st = st.get(_f().CODEX.hook_state_table.split(".", 1)[1]) if isinstance(st, dict) else None
    return st if isinstance(st, dict) else {}


def trust_status(m: Model, h: Handler) -> str:
    """untrusted | trusted | modified, as Codex 0.171.0 computes it (observed)."""
    rec = _state(m).get(h.state_key)
    if not isinstance(rec, dict) or "trusted_hash" not in rec:
        return "untrusted"
    return "trusted" if rec.get("trusted_hash") == h.trusted_hash else "modified"


def _runs_our_wrapper(ctx: Context, h: Handler) -> bool:
    """Whether the hook's command runs agentdeck's wrapper in this Codex home."""
    from .hooks import WRAPPER_NAME   # local: the hooks module only for a hook to judge
    cmd = h.handler.get("command")
    return isinstance(cmd, str) and str(_home(ctx) / WRAPPER_NAME) in cmd


def handler_enabled(m: Model, h: Handler) -> bool:
    rec = _state(m).get(h.state_key)
    return not (isinstance(rec, dict) and rec.get("enabled") is False)


@check("codex.hooks.trust", ok="every hook is trusted")
def hooks_trust(ctx: Context, out: Out) -> None:
    m = model(ctx)
    if not m.handlers:
        out.ok("no hooks")
        return
    untrusted, modified = [], []
    for h in m.handlers:
        if h.trusted_hash is None:
            continue
        st = trust_status(m, h)
        if st == "untrusted":
            untrusted.append(h)
        elif st == "modified":
            modified.append(h)
        if not handler_enabled(m, h):
            out.info(f"{h.event} hook `{h.handler.get('command')}` is disabled by you "
                     f"([hooks.state] enabled = false)", fix="`/hooks` in Codex enables it",
                     path=m.config.path, line=m.config.line_of("hooks", "state", h.state_key))
    for path in dict.fromkeys(h.path for h in untrusted):
        hs = [h for h in untrusted if h.path == path]
        ours = [h for h in hs if _runs_our_wrapper(ctx, h)]
        if ours:
            # agentdeck's own: its guard and audit do not run at all until Codex trusts them
            evs = ", ".join(dict.fromkeys(h.event for h in ours))
            out.warning(f"{count_of(len(ours), 'agentdeck hook')} in {path.name} not trusted "
                        f"yet ({evs}): Codex does not run {noun_for(len(ours), 'it', 'them')}, "
                        "so agentdeck's guard and audit do not run in Codex",
                        fix="`agentdeck apply --trust-hooks` (or trust them with `/hooks` in "
                            "Codex)", path=path, line=ours[0].line)
        others = [h for h in hs if h not in ours]
        if others:
            evs = ", ".join(dict.fromkeys(h.event for h in others))
            out.info(f"{count_of(len(others), 'hook')} in {path.name} not trusted yet ({evs}): "
                     "Codex does not run them until you review and trust them",
                     fix="trust them with `/hooks` in Codex", path=path, line=others[0].line)
    for h in modified:
        out.warning(f"{h.event} hook `{h.handler.get('command')}` changed since it was trusted "
                    "(modified): Codex does not run it until it is trusted again",
                    fix="review it and trust it again (`/hooks` in Codex; agentdeck's own: "
                        "`agentdeck apply --trust-hooks`)", path=h.path, line=h.line)
    if not out.findings:
        out.ok(f"{count_of(len(m.handlers), 'hook')}, all trusted")


def _command_findings(ctx: Context, kind: str, out: Out) -> None:
    commands.report_commands(ctx, model(ctx).handlers, kind, out)


@check("codex.hooks.wrapper", ok="no hook calls a missing or non-executable agentdeck wrapper")
def hooks_wrapper(ctx: Context, out: Out) -> None:
    _command_findings(ctx, "wrapper", out)


@check("codex.hooks.handler", ok="every hook command is found")
def hooks_handler(ctx: Context, out: Out) -> None:
    _command_findings(ctx, "handler", out)


# ==== persona, skills, secrets ====================================================================

@check("codex.persona.markers", ok="persona markers intact")
def persona(ctx: Context, out: Out) -> None:
    files.persona_markers(ctx, out, _home(ctx) / _f().CODEX.persona_file)


@check("codex.skills.links", ok="no dangling skill links", needs_home=False)
def skills(ctx: Context, out: Out) -> None:
    dirs = files.skill_dirs(ctx, T, [])
    if not dirs:
        out.ok(f"~/.agents/skills is reported under {files.shared_skills_owner(ctx)}")
        return
    files.skill_links(ctx, out, dirs)


def _secret_sources(ctx: Context) -> list[tuple[Path, Any]]:
    m = model(ctx)
    src: list[tuple[Path, Any]] = []
    if m.config_data is not None:
        src.append((m.config.path, m.config_data))
    if m.hooks_json.ok:
        src.append((m.hooks_json.path, m.hooks_json.data))
    return src


@check("codex.secrets.literal", ok="no literal credentials in Codex's config files")
def secrets_literal(ctx: Context, out: Out) -> None:
    ctx.memo[f"{T}.secret-holders"] = secret_files.literal_secrets(ctx, out, _secret_sources(ctx))


@check("codex.secrets.file-mode", ok="secret-bearing files are private")
def secrets_modes(ctx: Context, out: Out) -> None:
    holders = ctx.memo.get(f"{T}.secret-holders")
    if holders is None:
        holders = secret_files.literal_secrets(ctx, Out(ctx, out.check), _secret_sources(ctx))
    secret_files.file_modes(ctx, out, holders,
                      [_home(ctx) / n for n in _f().CODEX.credential_files])


# ==== registered after the rest (the table keeps this order within an area) ====

@check("codex.hooks.fires-twice", ok="no event is registered by two hook sources that run")
def codex_fires_twice(ctx: Context, out: Out) -> None:
    m = model(ctx)
    sources: dict[str, set[str]] = {}
    labels: dict[str, str] = {}
    for h in m.handlers:
        if trust_status(m, h) != "trusted" or not handler_enabled(m, h):
            continue                       # Codex will not run it
        p = str(h.path)
        sources.setdefault(p, set()).add(ctx.canonical_event(h.event))
        labels[p] = "hooks.json" if Path(p).name == "hooks.json" else "config.toml [hooks]"
    fires_twice.report(ctx, out, sources, labels)


@check("codex.mcp.env-vars", ok="every variable an MCP server reads is set")
def codex_env_vars(ctx: Context, out: Out) -> None:
    m = model(ctx)
    servers = (m.config_data or {}).get("mcp_servers")
    if not isinstance(servers, dict):
        return
    for name, e in servers.items():
        if not isinstance(e, dict):
            continue
        wanted = []
        if isinstance(e.get("bearer_token_env_var"), str):
            wanted.append((e["bearer_token_env_var"], "bearer_token_env_var"))
        if isinstance(e.get("env_http_headers"), dict):
            wanted += [(v, f"env_http_headers.{k}") for k, v in e["env_http_headers"].items()
                       if isinstance(v, str)]
        off = e.get("enabled") is False        # Codex neither starts it nor reads its token
        for var, where in wanted:
            if var not in ctx.host.env:
                line = m.config.line_of("mcp_servers", name)
                if off:
                    out.info(f"MCP server {name!r} is off (enabled = false); once switched on it "
                             f"reads {var} ({where}), which is not set here",
                             fix=f"export {var} where Codex runs before you switch it on",
                             path=m.config.path, line=line)
                    continue
                out.warning(f"MCP server {name!r} reads {var} ({where}), which is not set here: "
                            "Codex sends no token / header and the server refuses or asks to "
                            "sign in", fix=f"export {var} where Codex runs",
                            path=m.config.path, line=line)
