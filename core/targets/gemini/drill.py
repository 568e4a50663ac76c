"""The drill's recipe for Gemini CLI: one real offline turn (`gemini --yolo -p`) against the
scripted model server (core/drill runs it), verified with the CLI version in RUNNER.verified
(docs/facts/gemini.md section 7; re-checked by tests/clients/test_gemini_real.py).

Offline: GOOGLE_GEMINI_BASE_URL on 127.0.0.1 (the Gemini API: the server answers the model
router's generateContent with schema-shaped JSON and the turn's streamGenerateContent) and a
dummy GEMINI_API_KEY; the copy's settings select the API-key sign-in (with the base URL set and
no selectedType, Gemini picks a sign-in it then refuses: "Invalid auth method selected.").
`--yolo` so the shell call runs without a user (hooks still run under it);
GEMINI_CLI_TRUST_WORKSPACE trusts the turn's scratch folder (an untrusted one is forced back to
the default approval mode). GEMINI_CLI_HOME points at the scratch copy (Gemini reads
<it>/.gemini). The operator's MCP servers stay off for the turn: an allowlist naming no server
(`--allowed-mcp-server-names`).
"""
from __future__ import annotations

from pathlib import Path

from ...formats.errors import FormatError
from ...formats.jsonc import JsonDoc
from ...host import Host
from ..parts.drill import Prepared, Runner
from . import SPEC
from .facts import VERIFIED

#: a server name no profile has: the allowlist then starts none of the operator's
NO_SERVER = "agentdeck-drill-no-server"

#: what the copy's settings.json is given for the turn (the operator's own file is untouched)
TURN_SETTINGS = {
    ("security", "auth", "selectedType"): "gemini-api-key",
    ("general", "enableAutoUpdate"): False,
    ("general", "enableAutoUpdateNotification"): False,
    ("telemetry", "enabled"): False,
    ("privacy", "usageStatisticsEnabled"): False,
}

RUNNER = Runner(
    target=SPEC.name, binary=SPEC.binary, verified=VERIFIED, wire="genai",
    home_var=SPEC.home_env,
    #: GEMINI_CLI_NO_RELAUNCH: the turn runs in the first node process instead of a relaunched
    #: copy of itself (one start-up of the CLI less, ~1.5 s of CPU; the same turn and hooks)
    env={"GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:{port}",
         "GEMINI_API_KEY": "agentdeck-drill", "GEMINI_CLI_TRUST_WORKSPACE": "true",
         "GEMINI_CLI_NO_RELAUNCH": "true"},
    args=("--yolo", "--allowed-mcp-server-names", NO_SERVER),
    copy=("settings.json", "GEMINI.md", "AGENTS.md", "skills"),
    #: PreCompress fires before every model request (Gemini checks whether to compress the
    #: history each time), SessionEnd at the end of a -p run too (observed)
    fires=("session_start", "user_prompt_submit", "pre_tool_use", "post_tool_use", "stop",
           "session_end", "pre_compact"),
    unreachable={
        "notification": "Gemini CLI notifies only when it asks for a tool's permission; the "
                        "drill runs under --yolo",
    },
    per_request=("pre_compact",),
    tail=("-p", "{prompt}"),                  # the prompt after every other option
    credential_vars=("GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GEMINI_BASE_URL",
                     "GOOGLE_CLOUD_PROJECT", "GOOGLE_GENAI_USE_VERTEXAI", "GOOGLE_GENAI_USE_GCA"),
    shell_tools=(("run_shell_command", "command"),),
    # no file_tool: write_file is offered, but Gemini CLI refuses a project's .gemini/.env
    # itself ("Path not in workspace"), before any hook, so a write through it need not reach one
)


def prepare(host: Host, real: Path, copy: Path) -> Prepared:
    """The copy's settings.json selects the API-key sign-in and no update check or telemetry
    (TURN_SETTINGS), the operator's hooks and everything else kept; a file that does not parse
    is left as it is (Gemini then says why, as it would in a session)."""
    text = host.read_text(copy / "settings.json") if host.is_file(copy / "settings.json") else None
    try:
        doc = JsonDoc.parse(text or "{}", jsonc=True)
    except FormatError:
        return [], {}
    if not isinstance(doc.data, dict):
        return [], {}
    for key, value in TURN_SETTINGS.items():
        doc.set(key, value)
    return [], {"settings.json": doc.text().encode()}


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.drill import DrillPart
    from . import drill as _this
    _conforms: DrillPart = _this
