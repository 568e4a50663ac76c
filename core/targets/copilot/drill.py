"""The drill's recipe for GitHub Copilot CLI: one real offline turn against the scripted model
server (core/drill runs it), verified with the CLI version in RUNNER.verified
(docs/facts/copilot.md section 8, "A real turn offline"; re-checked by
tests/clients/test_drill_real.py).

Offline: COPILOT_OFFLINE with a provider base URL on 127.0.0.1 (the OpenAI Chat wire); the
operator's MCP servers are switched off for the turn (Copilot waits for each one before a turn).
"""
from __future__ import annotations

import json
from pathlib import Path

from ...host import Host, HostError
from ..parts.drill import Prepared, Runner
from . import SPEC

RUNNER = Runner(
    target=SPEC.name, binary=SPEC.binary, verified="1.0.102", wire="chat", home_var=SPEC.home_env,
    env={"COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": "http://127.0.0.1:{port}/v1",
         "COPILOT_MODEL": "gpt-5.4", "COPILOT_AUTO_UPDATE": "false"},
    args=("-p", "{prompt}", "--allow-all-tools", "--no-auto-update"),
    copy=("settings.json", "hooks", "mcp-config.json", "copilot-instructions.md", "agents",
          "skills"),
    fires=("session_start", "user_prompt_submit", "pre_tool_use", "permission_request",
           "post_tool_use", "stop", "session_end"),
    unreachable={
        "user_prompt_transformed": "fires only when something transforms the prompt",
        "post_tool_use_failure": "did not fire for a failing or denied tool in 1.0.102",
        "pre_compact": "needs a long conversation", "notification": "interactive sessions only",
        "subagent_start": "needs a sub-agent", "subagent_stop": "needs a sub-agent",
        "error": "fires on a model error only", "pre_mcp_tool_call": "MCP servers are off"},
    # Copilot unpacks a 235 MB bundle into $XDG_CACHE_HOME/copilot/pkg on first run: the
    # scratch cache links to the one the operator already has instead of unpacking another
    cache_links=("copilot/pkg",),
    credential_vars=("COPILOT_GITHUB_TOKEN", "GITHUB_COPILOT_TOKEN", "COPILOT_PROVIDER_API_KEY"),
    # no file_tool: the turn (gpt-5.4) is offered no whole-file tool (bash, view, glob, rg, ...)
)


def _json(host: Host, path: Path):
    try:
        raw = host.read_bytes(path)
        return json.loads(raw) if raw else None
    except (ValueError, HostError):            # an unreadable file adds nothing
        return None


def config_files(host: Host) -> dict[str, bytes]:
    """A config.json holding only the operator's trustedFolders (the only key agentdeck reads
    from it; never tokens)."""
    from ...disk import DiskView
    from .hooks import trusted_folders

    return {"config.json": (json.dumps({"trustedFolders": trusted_folders(DiskView(host))})
                            + "\n").encode()}


def prepare(host: Host, real: Path, copy: Path) -> Prepared:
    """Every MCP server in mcp-config.json switched off for the run, and config.json
    (config_files)."""
    args: list[str] = []
    data = _json(host, real / "mcp-config.json")
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    for name in servers if isinstance(servers, dict) else {}:
        args += ["--disable-mcp-server", str(name)]
    return args, config_files(host)


def why_not_fired(row: HookEventInfo) -> str | None:
    if row.state == "disabled-by-operator":
        return "disabled by you (settings.json disabledHooks)"
    return None


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..output import HookEventInfo
    from ..parts.drill import DrillPart
    from . import drill as _this
    _conforms: DrillPart = _this
