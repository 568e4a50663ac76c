"""Capture the hook payloads the real CLIs send, into tests/fixtures/payloads/.

    python tests/clients/capture_payloads.py            # every CLI with hooks (each ~1-3 s)
    python tests/clients/capture_payloads.py --mcp      # an MCP tool call instead: mcp-*.json
    python tests/clients/capture_payloads.py gemini     # those CLIs only

For each CLI: a scratch home with agentdeck's default profile applied, the hook handler swapped
for a capturing one (it saves stdin per event, then runs agentdeck-hook), and one real offline
turn against tests/clients/scripted_model.py that runs one shell command. The payloads are
saved with their volatile values (paths, ids, times) replaced by placeholders, so re-capturing
gives the same files unless a CLI changes what it sends.

With --mcp the profile (extending _base) installs tests/clients/mcp_marker_server.py as the MCP
server `Srv.Dot` with the tool `leave.marker-v2` (names each CLI spells differently, see
each target's dialect part, MCP_NAMES,), the scripted model calls that tool, and the pre-tool payloads are saved
as mcp-<event>.json; for Copilot also its preMcpToolCall (registered for the capture only: agentdeck
does not register it, it cannot deny) and permissionRequest.
"""
from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from clientkit import install_all, scratch_host  # noqa: E402
from offline_turn import run_turn  # noqa: E402
from scripted_model import ScriptedModel  # noqa: E402

from agentdeck.core import engine  # noqa: E402
from agentdeck.core.targets import dialects, registry  # noqa: E402


def tool_name(target: str, server: str, tool: str) -> str:
    """The name `target`'s pre-tool hook sees for `tool` of `server` (its dialect part's
    MCP_NAMES, core/targets/<name>/dialect.py)."""
    return dialects.module(target).MCP_NAMES.tool_name(server, tool)


OUT = HERE.parent / "fixtures" / "payloads"
COMMAND = "echo agentdeck-capture > captured.txt"
PROMPT = "run the scripted command"
MCP_SERVER, MCP_TOOL = "Srv.Dot", "leave.marker-v2"
#: the events whose MCP payloads are kept: each CLI's pre-tool event (its dialect's first), and
#: Copilot's two more (preMcpToolCall, registered for the capture only, and permissionRequest)
MORE_MCP_EVENTS = {"copilot": ("preMcpToolCall", "permissionRequest")}


def mcp_events(target: str) -> tuple[str, ...]:
    return (dialects.speaker(target).default.events[0], *MORE_MCP_EVENTS.get(target, ()))
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
#: OpenCode's session ids (ses_ and 26 characters)
_SESSION = re.compile(r"\bses_[0-9A-Za-z]{26}\b")


def _capture_handler(bindir: Path, store: Path) -> None:
    """An `agentdeck-capture` program: saves stdin as <store>/<target>-<event>.json, then hands
    it to the real handler (so the turn behaves as installed)."""
    bindir.mkdir(parents=True, exist_ok=True)
    real = Path(sys.executable).parent / "agentdeck-hook"
    script = bindir / "agentdeck-capture"
    script.write_text(
        "#!/bin/sh\n"
        f'f="{store}/$AGENTDECK_TARGET-$1.json"\n'
        'cat > "$f"\n'
        f'exec "{real}" "$1" < "$f"\n')
    script.chmod(0o755)


def normalize(value, base: str):
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in ("timestamp",) and isinstance(v, (int, float)):
                out[k] = 1764493200000
            elif k in ("timestamp",) and isinstance(v, str):
                out[k] = "2026-12-01T09:00:00.000Z"
            elif k in ("duration_ms",):
                out[k] = 1
            elif k in ("transcript_path", "transcriptPath") and isinstance(v, str):
                out[k] = "<transcript>"
            else:
                out[k] = normalize(v, base)
        return out
    if isinstance(value, list):
        return [normalize(v, base) for v in value]
    if isinstance(value, str):
        return _SESSION.sub("<session>", _UUID.sub("<uuid>", value.replace(base, "<base>")))
    return value


def capture(target: str, clients, mcp: bool = False) -> dict[str, dict]:
    base = Path(tempfile.mkdtemp(prefix=f"capture-{target}-"))
    host = scratch_host(base, clients)
    store = base / "store"
    store.mkdir()
    _capture_handler(base / "bin", store)
    host.env["PATH"] = f"{base / 'bin'}{os.pathsep}{host.env['PATH']}"
    prof = host.config_dir / "profiles" / "capture"
    prof.mkdir(parents=True)
    (prof / "profile.toml").write_text(f'[profile]\nextends = ["{"_base" if mcp else "default"}"]\n'
                                       '[hooks]\ncommand = "agentdeck-capture"\n')
    if mcp:
        host.env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{host.env['PATH']}"
        (prof / "mcp.json").write_text(json.dumps({"mcpServers": {MCP_SERVER: {
            "command": sys.executable,
            "args": [str(HERE / "mcp_marker_server.py"), str(base / "marker"), MCP_TOOL]}}}))
    engine.apply_plan(host, engine.build_plan(host, "capture", [target],
                                              trust_hooks=target == "codex"))
    if mcp and target == "copilot":     # agentdeck does not register preMcpToolCall
        (host.home / ".copilot" / "hooks" / "capture-mcp.json").write_text(json.dumps(
            {"version": 1, "hooks": {"preMcpToolCall": [{
                "type": "command", "bash": f'cat > "{store}/copilot-preMcpToolCall.json"',
                "timeoutSec": 10}]}}))
    work = base / "work"
    work.mkdir()
    name = tool_name(target, MCP_SERVER, MCP_TOOL)
    model = (ScriptedModel(command="", call=(name, {"note": "hello"})) if mcp
             else ScriptedModel(command=COMMAND))
    with model as m:
        r = run_turn(host, target, m.url, PROMPT, work,
                     {"ENABLE_TOOL_SEARCH": "false"} if mcp and target == "claude" else None,
                     allow=(name,) if mcp else ())
    if r.returncode != 0:
        raise SystemExit(f"{target}: the turn failed ({r.returncode}): {r.stderr[-500:]}")
    if mcp and not (base / "marker").exists():
        raise SystemExit(f"{target}: the MCP tool {name} did not run")
    out = {}
    for f in sorted(store.glob(f"{target}-*.json")):
        try:
            payload = json.loads(f.read_text())
        except ValueError:
            continue
        # named by the payload's own event where it names one (OpenCode's plugin runs the
        # wrapper for pre_tool_use with a tool.execute.before payload), else by the hook's
        event = (payload.get("hook_event_name") if isinstance(payload, dict) else None) \
            or f.stem[len(target) + 1:]
        if mcp and event not in mcp_events(target):
            continue
        out[event] = normalize(payload, str(base))
    return out


def main() -> int:
    mcp = "--mcp" in sys.argv[1:]
    clients = install_all()
    names = [a for a in sys.argv[1:] if not a.startswith("-")]
    for target in names or [n for n in registry.NAMES if registry.has_part(n, "dialect")]:
        if target in clients.failures:
            print(f"{target}: not installed ({clients.failures[target]})")
            continue
        got = capture(target, clients, mcp)
        d = OUT / target
        d.mkdir(parents=True, exist_ok=True)
        for event, payload in got.items():
            (d / f"{'mcp-' if mcp else ''}{event}.json").write_text(json.dumps(payload, indent=2, sort_keys=True) + "\n")
        print(f"{target}: {', '.join(sorted(got))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
