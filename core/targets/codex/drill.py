"""The drill's recipe for the OpenAI Codex CLI: one real offline turn (`codex exec`) against the
scripted model server (core/drill runs it), verified with the CLI version in RUNNER.verified
(docs/facts/codex.md section 6, "A real turn offline"; re-checked by
tests/clients/test_drill_real.py).

Offline: a model provider of the drill's own on 127.0.0.1 (the Responses wire), given with -c
overrides (config.toml is not edited); the operator's MCP servers are switched off and the
hooks' trust entries re-keyed to the scratch copy.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from ...host import Host, HostError
from ..parts.drill import Prepared, Runner
from . import SPEC

_BARE = re.compile(r"[A-Za-z0-9_-]+")

RUNNER = Runner(
    target=SPEC.name, binary=SPEC.binary, verified="0.171.0", wire="responses",
    home_var=SPEC.home_env,
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
    tail=("{prompt}",),                   # codex exec takes the prompt last
    credential_vars=("OPENAI_API_KEY", "OPENAI_BASE_URL", "CODEX_API_KEY"),
)


def _config(host: Host, real: Path) -> dict:
    import tomllib

    try:
        raw = host.read_bytes(real / "config.toml")
    except HostError:                          # unreadable: Codex will say so itself
        raw = None
    try:
        return tomllib.loads(raw.decode("utf-8")) if raw else {}
    except (ValueError, UnicodeDecodeError):
        return {}


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return json.dumps(str(v))     # a TOML basic string is a JSON string for these values


def prepare(host: Host, real: Path, copy: Path) -> Prepared:
    """The trust entries re-keyed to the copy (trust_args), and every MCP server switched
    off (enabled=false)."""
    cfg = _config(host, real)
    args = trust_args(host, real, copy, cfg)
    servers = cfg.get("mcp_servers")
    for name in servers if isinstance(servers, dict) else {}:
        seg = str(name) if _BARE.fullmatch(str(name)) else _toml(str(name))
        args += ["-c", f"mcp_servers.{seg}.enabled=false"]
    return args, {}


def trust_args(host: Host, real: Path, copy: Path, cfg: dict | None = None) -> list[str]:
    """Codex trust entries are keyed by the hooks file's path: the copy's hooks.json has another
    path, so each [hooks.state] entry is passed again (a -c override, config.toml is not edited)
    under the copy's path with its values unchanged: a hook untrusted or modified in the home
    stays so in the copy (the drill's turn, the doctor's live probes)."""
    cfg = _config(host, real) if cfg is None else cfg
    args: list[str] = []
    state = ((cfg.get("hooks") or {}).get("state") or {}) if isinstance(cfg.get("hooks"), dict) else {}
    subs = [(str(real / "hooks.json"), str(copy / "hooks.json")),
            (str(real / "config.toml"), str(copy / "config.toml"))]
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


def why_not_fired(row: HookEventInfo) -> str | None:
    if row.trust_now not in ("trusted", "managed"):
        return f"Codex did not run it: {row.trust_now or 'untrusted'}"
    if not row.enabled:
        return "disabled in config.toml [hooks.state]"
    return None


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..output import HookEventInfo
    from ..parts.drill import DrillPart
    from . import drill as _this
    _conforms: DrillPart = _this
