"""How each CLI runs one real offline turn against the scripted model server: data, with the
CLI version each recipe was verified for (FACTS.md "Running a real session offline",
re-checked 2026-12-01 by tests/clients/test_drill_real.py).

A runner names the CLI's binary, the environment and arguments that point it at
http://127.0.0.1:{port} (the placeholder is filled in inside the network sandbox, where the
server is started), the CLI home variable the drill redirects to a scratch copy, which files of
that home the copy holds (what the CLI must read; never credentials or the CLI's own state), and
which events a one-tool turn can fire. `prepare(...)` functions add what depends on the
operator's files (MCP servers to switch off, Codex trust entries re-keyed to the copy).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..host import Host

_BARE = re.compile(r"[A-Za-z0-9_-]+")
PROMPT = "agentdeck drill: run the shell commands you are given."
#: variables never passed to a drilled CLI: the turn needs no account, and a token could make a
#: CLI try to sign in
CREDENTIAL_VARS = ("GITHUB_TOKEN", "GH_TOKEN", "COPILOT_GITHUB_TOKEN", "GITHUB_COPILOT_TOKEN",
                   "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "OPENAI_API_KEY",
                   "OPENAI_BASE_URL", "CODEX_API_KEY", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN",
                   "ANTHROPIC_BASE_URL", "CLAUDE_CODE_OAUTH_TOKEN", "COPILOT_PROVIDER_API_KEY",
                   "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
                   "GOOGLE_APPLICATION_CREDENTIALS")


@dataclass(frozen=True)
class Runner:
    target: str
    binary: str
    verified: str                          # the CLI version this recipe was verified for
    wire: str                              # what the CLI sends: chat | responses | messages
    home_var: str                          # the CLI home variable pointed at the scratch copy
    env: dict[str, str]                    # {port} is the scripted server's port
    args: tuple[str, ...]                  # after the binary; {prompt} is PROMPT
    copy: tuple[str, ...]                  # files/dirs of the CLI home the scratch copy holds
    #: canonical events (core.hookhandler) a turn with two shell calls fires, and the ones it
    #: cannot (why, for the report)
    fires: tuple[str, ...]
    unreachable: dict[str, str] = field(default_factory=dict)
    #: canonical events that fire once per model request, not once per occurrence
    per_request: tuple[str, ...] = ()
    timeout: float = 60.0


COPILOT = Runner(
    target="copilot", binary="copilot", verified="1.0.102", wire="chat", home_var="COPILOT_HOME",
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
)

CODEX = Runner(
    target="codex", binary="codex", verified="0.171.0", wire="responses", home_var="CODEX_HOME",
    env={},
    args=("exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox",
          "-c", "model_provider=agentdeck_drill", "-c", "model=gpt-5.4",
          "-c", 'model_providers.agentdeck_drill={name="agentdeck-drill",'
                'base_url="http://127.0.0.1:{port}/v1",wire_api="responses"}',
          "-c", "features.plugins=false", "-c", "check_for_update_on_startup=false",
          "-c", "analytics.enabled=false", "-c", "history.persistence=\"none\""),
    copy=("config.toml", "hooks.json", "AGENTS.md", "AGENTS.override.md", "rules",
          "managed_config.toml", "requirements.toml"),
    fires=("session_start", "user_prompt_submit", "pre_tool_use", "post_tool_use", "stop",
           "session_end"),
    unreachable={"permission_request": "cannot fire under `codex exec` (approval is never)",
                 "subagent_start": "needs a sub-agent", "subagent_stop": "needs a sub-agent",
                 "pre_compact": "needs a long conversation"},
    per_request=("pre_model_request", "post_model_request"),
)

CLAUDE = Runner(
    target="claude", binary="claude", verified="2.1.332", wire="messages",
    home_var="CLAUDE_CONFIG_DIR",
    env={"ANTHROPIC_BASE_URL": "http://127.0.0.1:{port}", "ANTHROPIC_API_KEY": "agentdeck-drill",
         "DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
         "ENABLE_TOOL_SEARCH": "false"},
    args=("-p", "{prompt}", "--allowedTools", "Bash", "--model", "sonnet"),
    copy=("settings.json", "CLAUDE.md", "agents", "commands", "skills", "output-styles"),
    fires=("session_start", "user_prompt_submit", "pre_tool_use", "post_tool_use", "stop",
           "session_end"),
    unreachable={"permission_request": "the drill allows Bash up front",
                 "post_tool_use_failure": "the drill's commands do not fail",
                 "subagent_start": "needs a sub-agent", "subagent_stop": "needs a sub-agent",
                 "pre_compact": "needs a long conversation",
                 "notification": "interactive sessions only",
                 "error": "fires on a model error only"},
)

RUNNERS: dict[str, Runner] = {r.target: r for r in (COPILOT, CODEX, CLAUDE)}


def cli_home(host: Host, target: str) -> Path:
    return {"copilot": host.copilot_home, "codex": host.codex_home,
            "claude": host.claude_home}[target]


# ---- what depends on the operator's files -----------------------------------------------------

def _json(host: Host, path: Path):
    from ..host import HostError

    try:
        raw = host.read_bytes(path)
        return json.loads(raw) if raw else None
    except (ValueError, HostError):            # an unreadable file adds nothing
        return None


def copilot_extra(host: Host, real: Path, scratch: Path) -> tuple[list[str], dict[str, bytes]]:
    """Every MCP server in mcp-config.json switched off for the run (Copilot waits for each one
    before a turn), and a config.json holding only the operator's trustedFolders (the only key
    agentdeck reads from it; never tokens)."""
    from ..disk import DiskView
    from ..targets.copilot.hooks import trusted_folders

    args: list[str] = []
    data = _json(host, real / "mcp-config.json")
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    for name in servers if isinstance(servers, dict) else {}:
        args += ["--disable-mcp-server", str(name)]
    files = {"config.json": (json.dumps({"trustedFolders": trusted_folders(DiskView(host))}) + "\n").encode()}
    return args, files


def _codex_config(host: Host, real: Path) -> dict:
    import tomllib

    from ..host import HostError

    try:
        raw = host.read_bytes(real / "config.toml")
    except HostError:                          # unreadable: Codex will say so itself
        raw = None
    try:
        return tomllib.loads(raw.decode("utf-8")) if raw else {}
    except (ValueError, UnicodeDecodeError):
        return {}


def codex_extra(host: Host, real: Path, scratch: Path) -> tuple[list[str], dict[str, bytes]]:
    """The trust entries re-keyed to the copy (codex_trust_args), and every MCP server switched
    off (enabled=false)."""
    cfg = _codex_config(host, real)
    args = codex_trust_args(host, real, scratch, cfg)
    servers = cfg.get("mcp_servers")
    for name in servers if isinstance(servers, dict) else {}:
        seg = str(name) if _BARE.fullmatch(str(name)) else _toml(str(name))
        args += ["-c", f"mcp_servers.{seg}.enabled=false"]
    return args, {}


def codex_trust_args(host: Host, real: Path, scratch: Path, cfg: dict | None = None) -> list[str]:
    """Codex trust entries are keyed by the hooks file's path: the copy's hooks.json has another
    path, so each [hooks.state] entry is passed again (a -c override, config.toml is not edited)
    under the copy's path with its values unchanged: a hook untrusted or modified in the home
    stays so in the copy (the drill's turn, the doctor's live probes)."""
    cfg = _codex_config(host, real) if cfg is None else cfg
    args: list[str] = []
    state = ((cfg.get("hooks") or {}).get("state") or {}) if isinstance(cfg.get("hooks"), dict) else {}
    subs = [(str(real / "hooks.json"), str(scratch / "hooks.json")),
            (str(real / "config.toml"), str(scratch / "config.toml"))]
    entries = []
    for key, value in state.items() if isinstance(state, dict) else []:
        new = key
        for a, b in subs:
            if key.startswith(a + ":"):
                new = b + key[len(a):]
        if isinstance(value, dict):
            inner = ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()
                              if isinstance(v, (str, bool, int)))
            entries.append(f"{_toml(new)} = {{{inner}}}")
    if entries:
        args += ["-c", "hooks.state={" + ", ".join(entries) + "}"]
    return args


def claude_extra(host: Host, real: Path, scratch: Path) -> tuple[list[str], dict[str, bytes]]:
    """No .claude.json in the copy: its user MCP servers stay off, and the account data in it
    is not copied."""
    return ["--strict-mcp-config"], {}


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return json.dumps(str(v))     # a TOML basic string is a JSON string for these values


EXTRA: dict[str, Callable[[Host, Path, Path], tuple[list[str], dict[str, bytes]]]] = {
    "copilot": copilot_extra, "codex": codex_extra, "claude": claude_extra}
