"""Live probes of OpenAI Codex CLI (`agentdeck doctor --live`): what it actually loaded, asked on
a scratch copy of its home (core/doctor/isolated.py), and every difference from what its files
say (the static model, doctor.py) and from what the plan intends, as findings.

`codex app-server --strict-config --print-startup-config` (is config.toml valid?), `hooks/list`
over `codex app-server` (JSON lines) and `codex mcp list --json`; none starts a session, so no
operator hook or MCP server runs.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any, Sequence

from ...host import Host
from ..checks.jsonrpc import RpcChild, decline
from ..checks.live import seconds, tilde, unavailable
from ..checks.probing import CLIENT_INFO, not_installed, rpc, rpc_result, run_json
from ..output import hooks_of
from ..parts.doctor import Context, Out
from ..parts.probes import Prepared, Probe, ProbeResult
from . import SPEC
from .doctor import handler_enabled, model, trust_status
from .facts import CODEX
from ...wording import count_of

T = SPEC.name
CONFIG, HOOKS, MCP = (f"{T}.live.config", f"{T}.live.hooks", f"{T}.live.mcp")
#: the live check ids, in table order
LIVE_CHECKS = (CONFIG, HOOKS, MCP)
#: what the probes read of the home (the scratch copy holds these)
SCRATCH_COPY = ("config.toml", "hooks.json", "managed_config.toml", "requirements.toml")


def scratch_setup(host: Host, real: Path, copy: Path) -> Prepared:
    """The trust entries of [hooks.state] are keyed by the hooks file's path, so each is passed
    again under the copy's path (`-c hooks.state=...`, the drill's re-keying; nothing is
    edited)."""
    from .drill import trust_args
    return trust_args(host, real, copy), {}


def probes(home: Path, args: list[str]) -> list[tuple[str, Probe]]:
    """Codex answers `hooks/list` for the home it runs in (`home`)."""
    return [(f"{T}.config", partial(startup_config, args=args)),
            (f"{T}.hooks", partial(hooks_list, cwds=[str(home)], args=args)),
            (f"{T}.mcp", mcp_list)]


def startup_config(host: Host, timeout: float = 20, args: Sequence[str] = ()) -> ProbeResult:
    """`codex app-server --strict-config --print-startup-config`: ok when config.toml is valid.
    On failure `error` is Codex's message with file:line:col and `data` its JSON error
    (`data.error.data` has filePath, line, column)."""
    res = run_json(host, T, "startup config", SPEC.binary,
                   ["app-server", "--strict-config", "--print-startup-config", *args], timeout)
    if not res.ok and isinstance(res.data, dict) and isinstance(res.data.get("error"), dict):
        res.error = res.data["error"].get("message") or res.error
    return res


def hooks_list(host: Host, cwds: list[str], timeout: float = 20,
               args: Sequence[str] = ()) -> ProbeResult:
    """`hooks/list` over `codex app-server` (JSON lines): per cwd, every hook with key,
    eventName, command, matcher, timeoutSec, source, enabled, currentHash and trustStatus.
    `data` is the result ({"data": [...]}) plus `configWarnings` the server announced. With no
    cwds Codex answers for its own working directory (the host's home). `args`: config
    overrides (`-c hooks.state=...`: core/doctor/isolated.py)."""
    exe = host.which(SPEC.binary)
    if exe is None:
        return not_installed(T, "hooks/list", SPEC.binary)

    def talk(child: RpcChild, deadline: float) -> Any:
        rpc_result(child.request("initialize", {"clientInfo": CLIENT_INFO,
                                                "capabilities": {"experimentalApi": True}},
                                 deadline), "initialize")
        child.notify("initialized")
        result = rpc_result(child.request("hooks/list", {"cwds": [str(c) for c in cwds]},
                                          deadline), "hooks/list")
        out = dict(result or {})
        out["configWarnings"] = [n.get("params", {}).get("summary") for n in child.notifications
                                 if n.get("method") == "configWarning"]
        return out

    return rpc(host, T, "hooks/list", [exe, "app-server", *args], "jsonl", decline, talk,
               timeout, jsonrpc_field=False)


def mcp_list(host: Host, timeout: float = 20) -> ProbeResult:
    """`codex mcp list --json` (accepts unknown fields; reports bad TOML and wrong types)."""
    return run_json(host, T, "mcp list", SPEC.binary, ["mcp", "list", "--json"], timeout)


# ==== what the answers say ========================================================================

def compare(ctx: Context, results: dict[str, ProbeResult | None], outs: dict[str, Out]) -> None:
    m = model(ctx)
    cfg_out, hooks_out, mcp_out = outs[CONFIG], outs[HOOKS], outs[MCP]
    res = results.get(f"{T}.config")
    if not unavailable(res, cfg_out, "codex app-server --strict-config --print-startup-config") and res is not None:
        if res.ok:
            cfg_out.ok(f"Codex loads config.toml under --strict-config ({seconds(res)})")
        else:
            err = (res.data or {}).get("error") if isinstance(res.data, dict) else None
            d = (err or {}).get("data") or {} if isinstance(err, dict) else {}
            msg = (err or {}).get("message") if isinstance(err, dict) else None
            cfg_out.error(f"Codex refuses the config under --strict-config: {tilde(ctx, msg or str(res.error))}",
                          fix="an unknown field is only ignored without --strict-config; a wrong "
                              "type or transport makes Codex fall back to its defaults",
                          path=d.get("filePath"), line=d.get("line"))
    res = results.get(f"{T}.hooks")
    if not unavailable(res, hooks_out, "hooks/list over codex app-server"):
        _hooks(ctx, m, res, hooks_out)
    res = results.get(f"{T}.mcp")
    if not unavailable(res, mcp_out, "codex mcp list --json"):
        _mcp(ctx, m, res, mcp_out)


def _hooks(ctx: Context, m, res, out: Out) -> None:
    data = res.data if isinstance(res.data, dict) else {}
    rows = data.get("data") or []
    entry = rows[0] if rows and isinstance(rows[0], dict) else {}
    listed = {h.get("key"): h for h in entry.get("hooks") or [] if isinstance(h, dict)}
    plan, _ = ctx.plan(T)
    info = hooks_of(plan.output, T) if plan is not None else None
    ours_keys = {ev.key for ev in info.registered()} if info is not None else set()
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
        expected_status = trust_status(m, h)
        status = got.get("trustStatus")
        if status and status != expected_status and status != "managed":
            out.warning(f"{h.event} hook: Codex reports trust {status!r}, the doctor expected "
                        f"{expected_status!r}", path=h.path, line=h.line)
        if bool(got.get("enabled")) != handler_enabled(m, h):
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
                     f"{tilde(ctx, str(got.get('sourcePath')))} ({got.get('source')})")
    for e in entry.get("errors") or []:
        msg = e.get("message") if isinstance(e, dict) else str(e)
        out.error(f"Codex reports: {tilde(ctx, str(msg))}")
    for w in entry.get("warnings") or []:
        out.warning(f"Codex reports: {tilde(ctx, str(w))}")
    machine = []       # about this machine, not a configuration: said after the verdict
    for w in data.get("configWarnings") or []:
        text = tilde(ctx, " ".join(str(w).split()))
        if CODEX.sandbox_missing_warning in text.lower():
            machine.append(text)
        elif CODEX.config_invalid_warning.split(";")[0] in text:
            out.error(f"Codex reports: {text}", fix="see codex.live.config")
        elif "config" in text.lower():
            out.warning(f"Codex reports: {text}")
        else:
            out.info(f"Codex reports: {text}")
    if not out.findings:
        out.ok(f"Codex lists all {count_of(len(m.handlers), 'hook')} as expected ({seconds(res)})")
    for text in machine:
        out.info(f"this machine, not agentdeck's configuration: {text}",
                 fix="install bubblewrap with the OS package manager (e.g. `apt install "
                     "bubblewrap`); nothing in agentdeck or config.toml needs changing")


def _mcp(ctx: Context, m, res, out: Out) -> None:
    if not res.ok:
        out.error(f"Codex cannot load its configuration: {tilde(ctx, str(res.error))}",
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
    plan, _ = ctx.plan(T)
    mcp = plan.output[T].mcp if plan is not None and T in plan.output else None
    pending = plan is not None and any(plan.action(i) in ("write", "remove") and i.group == "mcp"
                                       for i in plan.for_target(T))
    if mcp is not None and not pending:
        for row in mcp.servers:
            n = row.name
            if n in listed and not row.dropped and bool(listed[n].get("enabled")) != row.enabled:
                out.warning(f"MCP server {n!r}: the plan wants it "
                            f"{'enabled' if row.enabled else 'disabled'}, Codex reports it "
                            f"{'enabled' if listed[n].get('enabled') else 'disabled'}")
    if not out.findings:
        out.ok(f"Codex lists {count_of(len(listed), 'MCP server')}, as config.toml says ({seconds(res)})")


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.probes import ProbesPart
    from . import probes as _this
    _conforms: ProbesPart = _this
