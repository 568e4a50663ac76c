"""Live checks (`agentdeck doctor --live`): ask each installed CLI what it actually loaded and turn
every difference from what the files say (the static model) and from what the plan intends into a
finding.

The probes (agentdeck.core.doctor.probes) run concurrently, each under its own timeout; none of them runs an
operator hook or MCP server (`claude mcp list` is never used). Each CLI runs on a scratch copy of
what it reads (core/doctor/isolated.py), so the home is left as it was. A CLI that is not
installed gives `skipped` with the reason.
"""
from __future__ import annotations

import re
from functools import partial
from pathlib import Path
from typing import Any

from .context import Ctx
from .findings import Finding
from .registry import Check, Out

#: the live check ids per target, in table order
LIVE_CHECKS = {
    "copilot": ("copilot.live.hooks", "copilot.live.settings", "copilot.live.mcp"),
    "codex": ("codex.live.config", "codex.live.hooks", "codex.live.mcp"),
    "claude": ("claude.live.doctor",),
}


def _out(ctx: Ctx, check_id: str) -> Out:
    return Out(ctx, Check(check_id, check_id.split(".", 1)[0], lambda c, o: None, ""), live=True)


def _wanted(ctx: Ctx, targets: list[str], isos: dict) -> list[tuple[str, Any]]:
    """(result key, probe) pairs; a probe of a target in `isos` runs on its scratch copy
    (core/doctor/isolated.py) and its answer comes back with the home's paths."""
    from . import probes as P

    def on(t: str, fn):
        iso = isos.get(t)
        return fn if iso is None else partial(_isolated, iso, fn)

    wanted: list[tuple[str, Any]] = []
    if "copilot" in targets:
        wanted += [("copilot.hooks", on("copilot", P.copilot_hooks_discover)),
                   ("copilot.mcp", on("copilot", P.copilot_mcp_list))]
    if "codex" in targets:
        iso = isos.get("codex")
        args = iso.args if iso is not None else []
        home = iso.host.home if iso is not None else ctx.host.home
        wanted += [("codex.config", on("codex", partial(P.codex_startup_config, args=args))),
                   ("codex.hooks", on("codex", partial(P.codex_hooks_list, cwds=[str(home)],
                                                       args=args))),
                   ("codex.mcp", on("codex", P.codex_mcp_list))]
    if "claude" in targets:
        wanted += [("claude.doctor", on("claude", P.claude_doctor))]
    return wanted


def _isolated(iso, fn, _host):
    """Run a probe on the scratch copy; its answer with the home's paths."""
    res = fn(iso.host)
    res.data, res.error = iso.back(res.data), iso.back(res.error)
    return res


def _isolate(ctx: Ctx, targets: list[str]):
    """The scratch copies of the installed targets (None, {} when there is nothing to run)."""
    from ..targets import registry
    from . import isolated

    installed = [t for t in targets if ctx.host.which(registry.spec(t).binary)]
    if not installed:
        return None, {}
    root = isolated.run_root(ctx.host)
    isos = {}
    try:
        for t in installed:
            isos[t] = isolated.make(ctx.host, root, t)
    except BaseException:
        isolated.remove(ctx.host, root)
        raise
    return root, isos


def start(ctx: Ctx, targets: list[str]):
    """Start the probes in the background and return a function that waits for them and
    compares their answers with the files and the plan (in the caller's thread). The runner
    calls this before the static checks, so the CLIs start up while agentdeck reads files.
    Each CLI runs on a scratch copy of what it reads (core/doctor/isolated.py): the home is
    left as it was."""
    import threading
    from . import isolated
    from . import probes as P

    root, isos = _isolate(ctx, targets)
    wanted = _wanted(ctx, targets, isos)
    ctx.say(f"asking {', '.join(t for t in targets)} what they loaded "
            f"({len(wanted)} probes at once)")
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["results"] = P.run_all(ctx.host, [fn for _, fn in wanted])
        except BaseException as e:   # re-raised in the caller's thread
            box["error"] = e
        finally:
            if root is not None:
                isolated.remove(ctx.host, root)

    th = threading.Thread(target=work, name="agentdeck-live-probes", daemon=True)
    th.start()

    def finish() -> list[Finding]:
        th.join()
        if "error" in box:
            raise box["error"]
        return compare(ctx, targets, dict(zip([k for k, _ in wanted], box["results"])))
    return finish


def run(ctx: Ctx, targets: list[str]) -> list[Finding]:
    """Probe and compare, in one go."""
    return start(ctx, targets)()


def compare(ctx: Ctx, targets: list[str], results: dict) -> list[Finding]:
    ctx.memo["live_results"] = results        # the org layer's live rows read them too
    out: list[Finding] = []
    for t in targets:
        ctx.say(f"{t}: comparing with the files and the plan")
        fn = {"copilot": _copilot, "codex": _codex, "claude": _claude}[t]
        outs = {cid: _out(ctx, cid) for cid in LIVE_CHECKS[t]}
        try:
            fn(ctx, results, outs)
        except Exception as e:  # a comparison bug must not hide the others
            o = next(iter(outs.values()))
            o.error(f"the live comparison failed: {e.__class__.__name__}: {e}",
                    fix="this is a bug in agentdeck; please report it with this line")
        for cid in LIVE_CHECKS[t]:
            out.extend(outs[cid].findings)
    return out


def _unavailable(res, out: Out, what: str) -> bool:
    """Report a probe that gave no answer; True when there is nothing to compare."""
    if res is None:
        out.skipped(f"{what}: not run")
        return True
    if res.skipped_reason:
        out.skipped(res.skipped_reason)
        return True
    if not res.ok and res.data is None:
        out.warning(f"could not ask the CLI ({what}): {res.error}",
                    fix="run the command by hand to see why")
        return True
    return False


def _seconds(res) -> str:
    return f"{res.seconds:.1f}s"


# ==== Copilot =====================================================================================

def _copilot(ctx: Ctx, results: dict, outs: dict[str, Out]) -> None:
    from ..targets.copilot import doctor as cc

    m = cc.model(ctx)
    home = ctx.host.copilot_home
    hooks_out, set_out, mcp_out = (outs["copilot.live.hooks"], outs["copilot.live.settings"],
                                   outs["copilot.live.mcp"])
    res = results.get("copilot.hooks")
    if not _unavailable(res, hooks_out, "hooks.discover"):
        _copilot_hooks(ctx, m, res, hooks_out, home)
        warns = (res.data or {}).get("settings_warnings") or []
        for w in warns:
            set_out.warning(f"Copilot logged: {_tilde(ctx, str(w))}",
                            fix="see copilot.settings.unknown-keys above",
                            path=home / "settings.json")
        if not warns:
            set_out.ok("Copilot loaded settings.json without a warning")
    else:
        set_out.findings = [Finding(f.target, f.result, set_out.check.id, f.message, f.fix, f.path,
                                    f.line, True) for f in hooks_out.findings]
    res = results.get("copilot.mcp")
    if not _unavailable(res, mcp_out, "copilot mcp list --json"):
        _copilot_mcp(ctx, m, res, mcp_out)


def _copilot_source(ctx: Ctx, a) -> str:
    if a.origin == "inline":
        return "global settings"
    try:
        return str(a.path.relative_to(ctx.host.copilot_home))
    except ValueError:
        return str(a.path)


def _copilot_hooks(ctx: Ctx, m, res, out: Out, home: Path) -> None:
    data = res.data if isinstance(res.data, dict) else {}
    found = [h for h in data.get("hooks") or [] if isinstance(h, dict)]
    by_key = {(h.get("hookType"), h.get("disableKey")) for h in found}
    by_source: dict[tuple[str, str], list[dict]] = {}
    for h in found:
        by_source.setdefault((h.get("source"), h.get("hookType")), []).append(h)
    expected = [a for a in m.actions if a.origin in ("user", "inline")]
    matched: set[int] = set()
    disabled = set(k for k in (m.settings_data or {}).get("disabledHooks") or [] if isinstance(k, str))
    for a in expected:
        src = _copilot_source(ctx, a)
        cands = by_source.get((src, a.event), [])
        hit = next((h for h in cands if a.key and h.get("disableKey") == a.key), None)
        if hit is None and a.key is None and cands:
            hit = cands[0]
        if hit is None and cands:
            hit = next((h for h in cands if id(h) not in matched), None)
            if hit is not None:
                out.warning(f"{a.event} hook in {src}: Copilot's disable key {str(hit.get('disableKey'))[:12]} "
                            f"differs from the one the doctor computes ({str(a.key)[:12]}): the facts "
                            "may be out of date, and disabledHooks entries may not match",
                            fix="compare with `/hooks` in Copilot", path=a.path, line=a.line)
        if hit is None:
            who = "agentdeck registered" if a.ours else "the file defines"
            (out.error if a.ours else out.warning)(
                f"{who} a {a.event} hook in {src}, but Copilot did not discover it",
                fix="check copilot.hooks.* above; `agentdeck apply` rewrites agentdeck's hooks file",
                path=a.path, line=a.line)
            continue
        matched.add(id(hit))
        want_on = a.key not in disabled if a.key else None
        if want_on is not None and bool(hit.get("enabled")) != want_on:
            out.warning(f"{a.event} hook in {src}: Copilot reports it "
                        f"{'enabled' if hit.get('enabled') else 'disabled'}, but disabledHooks "
                        f"says {'enabled' if want_on else 'disabled'}", path=a.path, line=a.line)
    # what the plan intends for agentdeck's own hooks (only where the file is as planned)
    plan, _ = ctx.plan("copilot")
    hooks_info = (plan.info.get("copilot") or {}).get("hooks") if plan is not None else None
    pending = plan is not None and any(
        plan.action(i) in ("write", "remove") and i.group == "hooks" for i in plan.for_target("copilot"))
    if isinstance(hooks_info, dict) and not pending:
        for ev in hooks_info.get("events") or []:
            key = ev.get("disable_key")
            if (ev.get("event"), key) not in by_key:
                if not any(h.get("hookType") == ev.get("event") and h.get("source", "").endswith(
                        "agentdeck.json") for h in found):
                    out.error(f"the profile registers {ev.get('event')} and the file is in sync, but "
                              "Copilot did not discover it", fix="`agentdeck apply`, then re-run")
                continue
            hit = next(h for h in found if (h.get("hookType"), h.get("disableKey")) == (ev.get("event"), key))
            want_on = ev.get("state") == "active"
            if bool(hit.get("enabled")) != want_on:
                out.warning(f"agentdeck's {ev.get('event')} hook: the plan expects it "
                            f"{'active' if want_on else 'disabled by you'}, Copilot reports it "
                            f"{'enabled' if hit.get('enabled') else 'disabled'}")
    for h in found:
        if id(h) in matched:
            continue
        if h.get("origin") == "user" and any(_copilot_source(ctx, a) == h.get("source") for a in expected):
            continue
        if h.get("origin") == "user":
            out.warning(f"Copilot loads a {h.get('hookType')} hook from {h.get('source')} that the "
                        "doctor expected it to drop: the facts may be out of date")
        else:
            out.info(f"Copilot also loads a {h.get('hookType')} hook from {h.get('source')} "
                     f"({h.get('origin')})")
    for e in data.get("errors") or []:
        out.error(f"Copilot reports: {_tilde(ctx, str(e))}",
                  fix="see copilot.hooks.* above for the file and line")
    for w in data.get("warnings") or []:
        out.warning(f"Copilot reports: {_tilde(ctx, str(w))}")
    if not out.findings:
        out.ok(f"Copilot discovered all {len(expected)} hook(s) the files define, as expected "
               f"({_seconds(res)})")


_MAX_CLI_TEXT = 300


def _tilde(ctx: Ctx, text: str) -> str:
    """A CLI's message for the table: one line, absolute paths under the home shown as ~, and
    cut at a readable length (long enumerations such as "Valid events: ...")."""
    h = str(ctx.host.home)
    text = re.sub(re.escape(h) + r"(?=/|\b)", "~", " ".join(text.split()))
    return text if len(text) <= _MAX_CLI_TEXT else text[:_MAX_CLI_TEXT - 1].rstrip() + "…"


def _copilot_mcp(ctx: Ctx, m, res, out: Out) -> None:
    data = res.data if isinstance(res.data, dict) else {}
    listed = data.get("mcpServers") if isinstance(data.get("mcpServers"), dict) else {}
    user = {n: e for n, e in listed.items() if isinstance(e, dict) and e.get("source") == "user"}
    disabled = set(n for n in (m.settings_data or {}).get("disabledMcpServers") or [] if isinstance(n, str))
    path = m.mcp.path if m.mcp is not None else None
    for name in m.servers:
        if name not in user:
            out.error(f"MCP server {name!r} is in mcp-config.json, but Copilot does not list it "
                      "(silently omitted)", fix="compare the entry with `copilot mcp list --json`",
                      path=path, line=m.mcp.line_of("mcpServers", name) if m.mcp else None)
            continue
        want_on = name not in disabled
        if bool(user[name].get("enabled")) != want_on:
            out.warning(f"MCP server {name!r}: Copilot reports it "
                        f"{'enabled' if user[name].get('enabled') else 'disabled'}, settings.json "
                        f"says {'enabled' if want_on else 'disabled'}")
    for name in m.dropped:
        if name in user:
            out.warning(f"MCP server {name!r}: the doctor expected Copilot to drop it, but Copilot "
                        "lists it: the facts may be out of date", path=path)
    # what the plan intends (the MCP pane's switches)
    plan, _ = ctx.plan("copilot")
    info = (plan.info.get("copilot") or {}).get("mcp") if plan is not None else None
    pending = plan is not None and any(
        plan.action(i) in ("write", "remove") and i.group in ("mcp", "settings")
        for i in plan.for_target("copilot"))
    if isinstance(info, dict) and not pending:
        for row in info.get("servers") or []:
            n = row.get("name")
            if row.get("dropped") or n not in user:
                continue
            if bool(user[n].get("enabled")) != bool(row.get("enabled")):
                out.warning(f"MCP server {n!r}: the plan wants it "
                            f"{'enabled' if row.get('enabled') else 'disabled'} ({row.get('reason')}), "
                            f"Copilot reports it {'enabled' if user[n].get('enabled') else 'disabled'}")
    if not out.findings:
        on = sum(1 for e in user.values() if e.get("enabled"))
        out.ok(f"Copilot lists {len(user)} server(s) from mcp-config.json ({on} enabled), as "
               f"expected ({_seconds(res)})")


# ==== Codex =======================================================================================

def _codex(ctx: Ctx, results: dict, outs: dict[str, Out]) -> None:
    from ..targets.codex import doctor as cx

    m = cx.model(ctx)
    cfg_out, hooks_out, mcp_out = (outs["codex.live.config"], outs["codex.live.hooks"],
                                   outs["codex.live.mcp"])
    res = results.get("codex.config")
    if not _unavailable(res, cfg_out, "codex app-server --strict-config --print-startup-config"):
        if res.ok:
            cfg_out.ok(f"Codex loads config.toml under --strict-config ({_seconds(res)})")
        else:
            err = (res.data or {}).get("error") if isinstance(res.data, dict) else None
            d = (err or {}).get("data") or {} if isinstance(err, dict) else {}
            msg = (err or {}).get("message") if isinstance(err, dict) else None
            cfg_out.error(f"Codex refuses the config under --strict-config: {_tilde(ctx, msg or str(res.error))}",
                          fix="an unknown field is only ignored without --strict-config; a wrong "
                              "type or transport makes Codex fall back to its defaults",
                          path=d.get("filePath"), line=d.get("line"))
    res = results.get("codex.hooks")
    if not _unavailable(res, hooks_out, "hooks/list over codex app-server"):
        _codex_hooks(ctx, m, res, hooks_out)
    res = results.get("codex.mcp")
    if not _unavailable(res, mcp_out, "codex mcp list --json"):
        _codex_mcp(ctx, m, res, mcp_out)


def _codex_hooks(ctx: Ctx, m, res, out: Out) -> None:
    from ..targets.codex.facts import CODEX
    from ..targets.codex import doctor as cx

    data = res.data if isinstance(res.data, dict) else {}
    rows = data.get("data") or []
    entry = rows[0] if rows and isinstance(rows[0], dict) else {}
    listed = {h.get("key"): h for h in entry.get("hooks") or [] if isinstance(h, dict)}
    plan, _ = ctx.plan("codex")
    ours_keys = set()
    info = (plan.info.get("codex") or {}).get("hooks") if plan is not None else None
    if isinstance(info, dict):
        ours_keys = {ev.get("key") for ev in info.get("events") or [] if ev.get("registered_now")}
    expected_keys = set()
    not_trusted: list[tuple[str, str]] = []
    for h in m.handlers:
        key = h.state_key
        expected_keys.add(key)
        got = listed.get(key)
        ours = key in ours_keys or h.state_key in ours_keys
        if got is None:
            (out.error if ours else out.warning)(
                f"{'agentdeck registered' if ours else 'the file defines'} the {h.event} hook "
                f"`{h.handler.get('command')}`, but Codex does not list it",
                fix="check codex.hooks.* above", path=h.path, line=h.line)
            continue
        if h.trusted_hash and got.get("currentHash") and got["currentHash"] != h.trusted_hash:
            out.warning(f"{h.event} hook: Codex hashes it as {got['currentHash'][:19]}, the doctor "
                        f"as {h.trusted_hash[:19]}: the facts may be out of date", path=h.path,
                        line=h.line)
        expected_status = cx.trust_status(m, h)
        status = got.get("trustStatus")
        if status and status != expected_status and status != "managed":
            out.warning(f"{h.event} hook: Codex reports trust {status!r}, the doctor expected "
                        f"{expected_status!r}", path=h.path, line=h.line)
        if bool(got.get("enabled")) != cx.handler_enabled(m, h):
            out.warning(f"{h.event} hook: Codex reports it {'enabled' if got.get('enabled') else 'disabled'}, "
                        "config.toml [hooks.state] says otherwise", path=h.path, line=h.line)
        if ours and status in ("untrusted", "modified"):
            not_trusted.append((h.event, status))
    if not_trusted:
        groups = "; ".join(f"{st}: {', '.join(e for e, s2 in not_trusted if s2 == st)}"
                           for st in dict.fromkeys(s2 for _, s2 in not_trusted))
        out.info(f"Codex confirms {len(not_trusted)} of agentdeck's hooks are not trusted "
                 f"({groups}): they do not run until trusted",
                 fix="`agentdeck apply --trust-hooks` (or `/hooks` in Codex)")
    for key, got in listed.items():
        if key not in expected_keys:
            out.info(f"Codex also loads a {got.get('eventName')} hook from "
                     f"{_tilde(ctx, str(got.get('sourcePath')))} ({got.get('source')})")
    for e in entry.get("errors") or []:
        msg = e.get("message") if isinstance(e, dict) else str(e)
        out.error(f"Codex reports: {_tilde(ctx, str(msg))}")
    for w in entry.get("warnings") or []:
        out.warning(f"Codex reports: {_tilde(ctx, str(w))}")
    machine = []       # about this machine, not a configuration: said after the verdict
    for w in data.get("configWarnings") or []:
        text = _tilde(ctx, " ".join(str(w).split()))
        if CODEX.sandbox_missing_warning in text.lower():
            machine.append(text)
        elif CODEX.config_invalid_warning.split(";")[0] in text:
            out.error(f"Codex reports: {text}", fix="see codex.live.config")
        elif "config" in text.lower():
            out.warning(f"Codex reports: {text}")
        else:
            out.info(f"Codex reports: {text}")
    if not out.findings:
        out.ok(f"Codex lists all {len(m.handlers)} hook(s) as expected ({_seconds(res)})")
    for text in machine:
        out.info(f"this machine, not agentdeck's configuration: {text}",
                 fix="install bubblewrap with the OS package manager (e.g. `apt install "
                     "bubblewrap`); nothing in agentdeck or config.toml needs changing")


def _codex_mcp(ctx: Ctx, m, res, out: Out) -> None:
    if not res.ok:
        out.error(f"Codex cannot load its configuration: {_tilde(ctx, str(res.error))}",
                  fix="see codex.config.* and codex.mcp.invalid above")
        return
    rows = res.data if isinstance(res.data, list) else []
    listed = {r.get("name"): r for r in rows if isinstance(r, dict)}
    servers = (m.config_data or {}).get("mcp_servers") or {}
    for name, e in servers.items() if isinstance(servers, dict) else []:
        if name not in listed:
            out.error(f"MCP server {name!r} is in config.toml, but Codex does not list it",
                      path=m.config.path, line=m.config.line_of("mcp_servers", name))
            continue
        want = not (isinstance(e, dict) and e.get("enabled") is False)
        if bool(listed[name].get("enabled")) != want:
            out.warning(f"MCP server {name!r}: Codex reports it "
                        f"{'enabled' if listed[name].get('enabled') else 'disabled'}, config.toml "
                        f"says {'enabled' if want else 'disabled'}")
    plan, _ = ctx.plan("codex")
    info = (plan.info.get("codex") or {}).get("mcp") if plan is not None else None
    pending = plan is not None and any(plan.action(i) in ("write", "remove") and i.group == "mcp"
                                       for i in plan.for_target("codex"))
    if isinstance(info, dict) and not pending:
        for row in info.get("servers") or []:
            n = row.get("name")
            if n in listed and not row.get("dropped") and bool(listed[n].get("enabled")) != bool(row.get("enabled")):
                out.warning(f"MCP server {n!r}: the plan wants it "
                            f"{'enabled' if row.get('enabled') else 'disabled'}, Codex reports it "
                            f"{'enabled' if listed[n].get('enabled') else 'disabled'}")
    if not out.findings:
        out.ok(f"Codex lists {len(listed)} MCP server(s), as config.toml says ({_seconds(res)})")


# ==== Claude ======================================================================================

def _claude(ctx: Ctx, results: dict, outs: dict[str, Out]) -> None:
    from ..targets.claude.facts import CLAUDE

    out = outs["claude.live.doctor"]
    res = results.get("claude.doctor")
    if _unavailable(res, out, "claude doctor"):
        return
    data = res.data if isinstance(res.data, dict) else {}
    for p in data.get("problems") or []:
        f = p.get("file")
        line = None
        if f and p.get("path"):
            keys = []
            for part in str(p["path"]).split("."):
                if part.isdigit():
                    break
                keys.append(part)
            ld = ctx.json(Path(f), jsonc=False)
            line = ld.line_of(*keys) if keys and ld.ok else None
        what = f"{p.get('path')}: " if p.get("path") else ""
        message = str(p.get("message"))
        if message.startswith(CLAUDE.doctor_env_problem):
            # about the doctor's own environment, which need not be the one Claude starts in
            out.info(f"claude doctor: {what}{_tilde(ctx, message)} (in the doctor's environment; "
                     "Claude may be started with a different one)",
                     fix=_tilde(ctx, p.get("fix") or "set it where Claude Code is started"),
                     path=f, line=line)
            continue
        out.error(f"claude doctor: {what}{_tilde(ctx, message)}",
                  fix=_tilde(ctx, p.get("fix") or "fix the setting named"),
                  path=f, line=line)
    if not res.ok:
        out.warning(f"claude doctor failed: {_tilde(ctx, str(res.error))}")
    if not out.findings:
        out.ok(f"claude doctor reports no invalid settings ({_seconds(res)})")
