"""The drill's recipe for OpenCode: one real offline turn (`opencode run`) against the scripted
model server (core/drill runs it), verified with the CLI version in RUNNER.verified
(docs/facts/opencode.md section 6; re-checked by tests/clients/test_opencode_real.py).

Offline: OPENCODE_CONFIG_CONTENT (a config layer from the environment, merged over the user's
file) names a provider on 127.0.0.1 (the OpenAI Chat wire, the bundled openai-compatible package)
and makes its model the default, so the copy of opencode.json is not edited for it; `--auto` so
the shell call runs without a user (the plugin and OpenCode's own denies still hold under it).
XDG_CONFIG_HOME points at the folder above the scratch copy. The copy holds the npm stub that
keeps OpenCode from running `npm install @opencode-ai/plugin` at start (~71 s of retries
offline), and every MCP server of the operator's is switched off for the turn.
"""
from __future__ import annotations

import json
from pathlib import Path

from ...formats.errors import FormatError
from ...formats.jsonc import JsonDoc
from ...host import Host
from ..parts.drill import Prepared, Runner
from . import SPEC
from .facts import OPENCODE, VERIFIED

#: the provider and model of the turn (an OpenCode config layer, JSON); {port} is filled in
PROVIDER = json.dumps({
    "model": "agentdeck-drill/gpt-5.4", "small_model": "agentdeck-drill/gpt-5.4",
    "autoupdate": False, "share": "disabled",
    "provider": {"agentdeck-drill": {
        "npm": "@ai-sdk/openai-compatible", "name": "agentdeck drill",
        "options": {"baseURL": "http://127.0.0.1:{port}/v1", "apiKey": "agentdeck-drill"},
        "models": {"gpt-5.4": {"name": "agentdeck drill", "tool_call": True}}}},
}, separators=(",", ":"))

_OTHERS = "OpenCode's agentdeck plugin implements tool.execute.before only"

RUNNER = Runner(
    target=SPEC.name, binary=SPEC.binary, verified=VERIFIED, wire="chat",
    home_var=SPEC.home_env,
    env={OPENCODE.config_content_env: PROVIDER, "OPENCODE_DISABLE_AUTOUPDATE": "1",
         "OPENCODE_DISABLE_MODELS_FETCH": "1"},
    args=("run", "--auto"),
    copy=(*OPENCODE.config_files, OPENCODE.plugins_dir, OPENCODE.persona_file),
    fires=("pre_tool_use",),
    unreachable={e: _OTHERS for e in (
        "session_start", "session_end", "user_prompt_submit", "post_tool_use",
        "post_tool_use_failure", "permission_request", "stop", "subagent_start",
        "subagent_stop", "pre_compact", "notification", "error")},
    tail=("{prompt}",),                       # the prompt is the last argument
    credential_vars=("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENCODE_API_KEY",
                     # config layers that would change the turn's provider; OPENCODE_PURE and
                     # OPENCODE_PERMISSION pass: the drill shows what they do to the guard
                     OPENCODE.config_content_env, OPENCODE.config_env, OPENCODE.config_dir_env),
    shell_tools=(("bash", "command"),),
    # no file_tool: a gpt model's turn is offered apply_patch, not write
)


def npm_stub() -> dict[str, bytes]:
    """The files that make OpenCode skip its start-up npm install in a home (docs/facts/
    opencode.md section 1): a lock listing the dependency, and node_modules/ present."""
    return {"package-lock.json": (json.dumps(OPENCODE.npm_stub) + "\n").encode(),
            "node_modules/.agentdeck-drill": b""}


def prepare(host: Host, real: Path, copy: Path) -> Prepared:
    """The npm stub, and the copy's opencode.json with every MCP server "enabled": false (a
    server the operator has would start, or wait, in the turn)."""
    files = npm_stub()
    text = host.read_text(copy / OPENCODE.config_file)
    if not text:
        return [], files
    try:
        doc = JsonDoc.parse(text, jsonc=True)
    except FormatError:
        return [], files
    servers = doc.get((OPENCODE.mcp_key,), None)
    if isinstance(servers, dict) and servers:
        for name in servers:
            if isinstance(servers[name], dict):
                doc.set((OPENCODE.mcp_key, name, OPENCODE.mcp_enabled_key), False)
        files[OPENCODE.config_file] = doc.text().encode()
    return [], files


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.drill import DrillPart
    from . import drill as _this
    _conforms: DrillPart = _this
