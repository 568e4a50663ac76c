"""The drill's recipe for Qwen Code: one real offline turn (`qwen -p`) against the scripted model
server (core/drill runs it), verified with the CLI version in RUNNER.verified
(docs/facts/qwen.md, the install and turn recipe at the top; re-checked by
tests/clients/test_qwen_real.py).

Offline: `--auth-type openai` with a base URL on 127.0.0.1 (the OpenAI Chat wire) and a dummy
key; `--yolo` so the shell call runs without a user (hooks and the policy still run under it);
QWEN_HOME points at the scratch copy. The operator's MCP servers stay off for the turn: an
allowlist naming no server (`--allowed-mcp-server-names`).
"""
from __future__ import annotations

import json
from pathlib import Path

from ...formats.errors import FormatError
from ...formats.jsonc import JsonDoc
from ...host import Host
from ..parts.drill import Prepared, Runner
from ..spec import MANIFEST_NAME
from . import SPEC
from .facts import VERIFIED

DENY_KEY = ("permissions", "deny")

#: a server name no profile has: the command-line allowlist then starts none of the operator's
NO_SERVER = "agentdeck-drill-no-server"

RUNNER = Runner(
    target=SPEC.name, binary=SPEC.binary, verified=VERIFIED, wire="chat",
    home_var=SPEC.home_env,
    #: QWEN_CODE_NO_RELAUNCH: the turn runs in the first node process instead of a relaunched
    #: copy of itself (one start-up of the CLI less, ~2 s of CPU; the same turn and hooks)
    env={"QWEN_CODE_SUPPRESS_YOLO_WARNING": "1", "QWEN_CODE_NO_RELAUNCH": "true"},
    #: the allowlist first: it takes every value up to the next option (the prompt would be one)
    args=("--allowed-mcp-server-names", NO_SERVER,
          "--auth-type", "openai", "--openai-base-url", "http://127.0.0.1:{port}/v1",
          "--openai-api-key", "agentdeck-drill", "-m", "gpt-5.4", "--yolo"),
    copy=("settings.json", "QWEN.md", "AGENTS.md", "skills", "output-language.md"),
    #: and Notification: Qwen announces the sign-in (`auth_success`) at the start of a turn
    fires=("session_start", "notification", "user_prompt_submit", "pre_tool_use",
           "post_tool_use", "stop"),
    unreachable={
        "session_end": "Qwen Code fires SessionEnd only on an interactive exit or /clear, not "
                       "in -p mode",
        "permission_request": "the drill runs under --yolo",
        "post_tool_use_failure": "the drill's commands do not fail",
        "subagent_start": "needs a sub-agent", "subagent_stop": "needs a sub-agent",
        "pre_compact": "needs a long conversation",
        "error": "fires on a model error only"},
    #: UserPromptSubmit fires again, with an empty prompt, when a tool's result goes back
    per_request=("user_prompt_submit",),
    tail=("{prompt}",),                       # the prompt is the last argument
    credential_vars=("OPENAI_API_KEY", "OPENAI_BASE_URL", "DASHSCOPE_API_KEY", "QWEN_API_KEY"),
    shell_tools=(("run_shell_command", "command"),),
    file_tool=("write_file", "file_path", "content"),
)


def prepare(host: Host, real: Path, copy: Path) -> Prepared:
    """The allowlist in RUNNER.args keeps every MCP server off. The copy's settings.json leaves
    out the permissions.deny entries agentdeck wrote (permissions.py): Qwen checks its own deny
    list before PreToolUse, so a path rule's example would be refused before agentdeck's hook
    sees it, and the drill proves the hook's deny by its audit line. That layer is proven on
    its own by tests/clients/test_qwen_real.py (the hook made inert)."""
    ours = _our_deny_entries(host, real)
    text = host.read_text(copy / "settings.json") if ours else None
    if not text:
        return [], {}
    try:
        doc = JsonDoc.parse(text, jsonc=True)
    except FormatError:
        return [], {}
    deny = doc.get(DENY_KEY, None)
    if not isinstance(deny, list) or not any(e in ours for e in deny):
        return [], {}
    doc.set(DENY_KEY, [e for e in deny if e not in ours])
    return [], {"settings.json": doc.text().encode()}


def _our_deny_entries(host: Host, real: Path) -> set[str]:
    """The permissions.deny members agentdeck's manifest records for <real>/settings.json."""
    try:
        raw = json.loads(host.read_text(real / MANIFEST_NAME) or "{}")
    except ValueError:
        return set()
    path = str(real / "settings.json")
    return {e["member"] for e in (raw.get("entries") or []) if isinstance(e, dict)
            and e.get("path") == path and list(e.get("key") or []) == list(DENY_KEY)
            and isinstance(e.get("member"), str)}


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.drill import DrillPart
    from . import drill as _this
    _conforms: DrillPart = _this
