"""Live probes of GitHub Copilot CLI (`agentdeck doctor --live`): what it actually loaded, asked
on a scratch copy of its home (core/doctor/isolated.py), and every difference from what its
files say (the static model, doctor.py) and from what the plan intends, as findings.

`hooks.discover` over `copilot --headless --stdio` (JSON-RPC, LSP framing) and
`copilot mcp list --json`; neither starts a session, so no operator hook or MCP server runs.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ...host import Host
from ..checks.jsonrpc import RpcChild, null_result
from ..checks.live import seconds, tilde, unavailable
from ..checks.probing import not_installed, rpc, rpc_result, run_json
from ..output import hooks_of
from ..parts.doctor import Context, Finding, Out
from ..parts.probes import Prepared, Probe, ProbeResult
from . import SPEC
from .doctor import model
from .facts import COPILOT
from ...wording import count_of

T = SPEC.name
HOOKS, SETTINGS, MCP = (f"{T}.live.hooks", f"{T}.live.settings", f"{T}.live.mcp")
#: the live check ids, in table order
LIVE_CHECKS = (HOOKS, SETTINGS, MCP)
#: what the probes read of the home (the scratch copy holds these; config.json: scratch_setup)
SCRATCH_COPY = ("settings.json", "hooks", "mcp-config.json")
#: `copilot --version` must not update itself
VERSION_ENV = {"COPILOT_AUTO_UPDATE": "false"}


def scratch_setup(host: Host, real: Path, copy: Path) -> Prepared:
    """A config.json holding only the operator's trustedFolders (the one key agentdeck reads
    from it), as the drill's copy has."""
    from .drill import config_files
    return [], config_files(host)


def probes(home: Path, args: list[str]) -> list[tuple[str, Probe]]:
    return [(f"{T}.hooks", hooks_discover), (f"{T}.mcp", mcp_list)]


_SETTINGS_LOG_LINE = re.compile(r"\[(?:WARNING|ERROR)\] \[\w*[Ss]ettings\] (?P<text>.*)$")


def _settings_warnings(host: Host, before: set[str]) -> list[str]:
    """Settings warnings (unknown keys, values that could not be loaded) that this probe's
    Copilot process wrote to $COPILOT_HOME/logs: the server does not return them."""
    logs = SPEC.home(host) / COPILOT.logs_dir
    out: list[str] = []
    for name in host.listdir(logs):
        if name in before or not name.endswith(".log"):
            continue
        try:
            text = host.read_text(logs / name) or ""
        except Exception:
            continue
        for line in text.splitlines():
            m = _SETTINGS_LOG_LINE.search(line)
            if m and m.group("text") not in out:
                out.append(m.group("text"))
    return out


def hooks_discover(host: Host, project_paths: list[str] | None = None,
                   timeout: float = 20) -> ProbeResult:
    """`hooks.discover` over `copilot --headless --stdio`: every loaded hook with hookType,
    origin, source, enabled and disableKey, plus the server's `errors`/`warnings` and the
    settings warnings the process logged (`settings_warnings`)."""
    probe = "hooks.discover"
    exe = host.which(COPILOT.binary)
    if exe is None:
        return not_installed(T, probe, COPILOT.binary)
    logs_before = set(host.listdir(SPEC.home(host) / COPILOT.logs_dir))
    params: dict[str, Any] = {}
    if project_paths:
        params["projectPaths"] = [str(p) for p in project_paths]

    def talk(child: RpcChild, deadline: float) -> Any:
        return rpc_result(child.request("hooks.discover", params, deadline), "hooks.discover")

    res = rpc(host, T, probe,
               [exe, "--headless", "--no-auto-update", "--stdio", "--no-auto-login"],
               "lsp", null_result, talk, timeout, env={"COPILOT_AUTO_UPDATE": "false"})
    if res.ok and isinstance(res.data, dict):
        res.data["settings_warnings"] = _settings_warnings(host, logs_before)
    return res


def mcp_list(host: Host, timeout: float = 20) -> ProbeResult:
    """`copilot mcp list --json`: the servers Copilot would start, with `enabled` and `source`
    (entries it cannot use are silently omitted)."""
    return run_json(host, T, "mcp list", COPILOT.binary, ["mcp", "list", "--json"], timeout)


# ==== what the answers say ========================================================================

def compare(ctx: Context, results: dict[str, ProbeResult | None], outs: dict[str, Out]) -> None:
    m = model(ctx)
    home = SPEC.home(ctx.host)
    hooks_out, set_out, mcp_out = (outs[HOOKS], outs[SETTINGS], outs[MCP])
    res = results.get(f"{T}.hooks")
    if not unavailable(res, hooks_out, "hooks.discover") and res is not None:
        _hooks(ctx, m, res, hooks_out, home)
        warns = (res.data or {}).get("settings_warnings") or []
        for w in warns:
            set_out.warning(f"Copilot logged: {tilde(ctx, str(w))}",
                            fix="see copilot.settings.unknown-keys above",
                            path=home / "settings.json")
        if not warns:
            set_out.ok("Copilot loaded settings.json without a warning")
    else:
        set_out.findings = [Finding(f.target, f.result, set_out.check.id, f.message, f.fix, f.path,
                                    f.line, True) for f in hooks_out.findings]
    res = results.get(f"{T}.mcp")
    if not unavailable(res, mcp_out, "copilot mcp list --json"):
        _mcp(ctx, m, res, mcp_out)


def _source(ctx: Context, a) -> str:
    if a.origin == "inline":
        return "global settings"
    try:
        return str(a.path.relative_to(SPEC.home(ctx.host)))
    except ValueError:
        return str(a.path)


def _hooks(ctx: Context, m, res, out: Out, home: Path) -> None:
    data = res.data if isinstance(res.data, dict) else {}
    found = [h for h in data.get("hooks") or [] if isinstance(h, dict)]
    by_key = {(h.get("hookType"), h.get("disableKey")) for h in found}
    by_source: dict[tuple[object, object], list[dict]] = {}
    for h in found:
        by_source.setdefault((h.get("source"), h.get("hookType")), []).append(h)
    expected = [a for a in m.actions if a.origin in ("user", "inline")]
    matched: set[int] = set()
    disabled = set(k for k in (m.settings_data or {}).get("disabledHooks") or [] if isinstance(k, str))
    for a in expected:
        src = _source(ctx, a)
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
    plan, _ = ctx.plan(T)
    hooks_info = hooks_of(plan.output, T) if plan is not None else None
    pending = plan is not None and any(
        plan.action(i) in ("write", "remove") and i.group == "hooks" for i in plan.for_target(T))
    if hooks_info is not None and not pending:
        for ev in hooks_info.events:
            key = ev.disable_key
            if (ev.event, key) not in by_key:
                if not any(h.get("hookType") == ev.event and h.get("source", "").endswith(
                        "agentdeck.json") for h in found):
                    out.error(f"the profile registers {ev.event} and the file is in sync, but "
                              "Copilot did not discover it", fix="`agentdeck apply`, then re-run")
                continue
            hit = next(h for h in found if (h.get("hookType"), h.get("disableKey")) == (ev.event, key))
            want_on = ev.state == "active"
            if bool(hit.get("enabled")) != want_on:
                out.warning(f"agentdeck's {ev.event} hook: the plan expects it "
                            f"{'active' if want_on else 'disabled by you'}, Copilot reports it "
                            f"{'enabled' if hit.get('enabled') else 'disabled'}")
    for h in found:
        if id(h) in matched:
            continue
        if h.get("origin") == "user" and any(_source(ctx, a) == h.get("source") for a in expected):
            continue
        if h.get("origin") == "user":
            out.warning(f"Copilot loads a {h.get('hookType')} hook from {h.get('source')} that the "
                        "doctor expected it to drop: the facts may be out of date")
        else:
            out.info(f"Copilot also loads a {h.get('hookType')} hook from {h.get('source')} "
                     f"({h.get('origin')})")
    for e in data.get("errors") or []:
        out.error(f"Copilot reports: {tilde(ctx, str(e))}",
                  fix="see copilot.hooks.* above for the file and line")
    for w in data.get("warnings") or []:
        out.warning(f"Copilot reports: {tilde(ctx, str(w))}")
    if not out.findings:
        out.ok(f"Copilot discovered all {count_of(len(expected), 'hook')} the files define, as expected "
               f"({seconds(res)})")


def _mcp(ctx: Context, m, res, out: Out) -> None:
    data = res.data if isinstance(res.data, dict) else {}
    got = data.get("mcpServers")
    listed = got if isinstance(got, dict) else {}
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
    plan, _ = ctx.plan(T)
    mcp = plan.output[T].mcp if plan is not None and T in plan.output else None
    pending = plan is not None and any(
        plan.action(i) in ("write", "remove") and i.group in ("mcp", "settings")
        for i in plan.for_target(T))
    if mcp is not None and not pending:
        for row in mcp.servers:
            n = row.name
            if row.dropped or n not in user:
                continue
            if bool(user[n].get("enabled")) != row.enabled:
                out.warning(f"MCP server {n!r}: the plan wants it "
                            f"{'enabled' if row.enabled else 'disabled'} ({row.reason}), "
                            f"Copilot reports it {'enabled' if user[n].get('enabled') else 'disabled'}")
    if not out.findings:
        on = sum(1 for e in user.values() if e.get("enabled"))
        out.ok(f"Copilot lists {count_of(len(user), 'server')} from mcp-config.json ({on} enabled), as "
               f"expected ({seconds(res)})")


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.probes import ProbesPart
    from . import probes as _this
    _conforms: ProbesPart = _this
