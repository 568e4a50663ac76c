"""The drill's recipe for Claude Code: one real offline turn (`claude -p`) against the scripted
model server (core/drill runs it), verified with the CLI version in RUNNER.verified
(docs/facts/claude.md section 4, "A real turn offline"; re-checked by
tests/clients/test_drill_real.py).

Offline: ANTHROPIC_BASE_URL on 127.0.0.1 (the Messages wire) with a dummy key; no .claude.json
in the scratch copy, so the operator's user MCP servers stay off and their account data is not
copied.
"""
from __future__ import annotations

from pathlib import Path

from ...host import Host
from ..parts.drill import Prepared, Runner
from . import SPEC

RUNNER = Runner(
    target=SPEC.name, binary=SPEC.binary, verified="2.1.332", wire="messages",
    home_var=SPEC.home_env,
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
                 "error": "fires on a model error only",
                 "PreSkillShellCommand": "runs a skill's own `!command` lines only: the "
                                         "drill's turn loads no skill"},
    credential_vars=("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL",
                     "CLAUDE_CODE_OAUTH_TOKEN"),
    file_tool=("Write", "file_path", "content"),     # once allowed (--allowedTools)
)


def prepare(host: Host, real: Path, copy: Path) -> Prepared:
    """No .claude.json in the copy: its user MCP servers stay off, and the account data in it
    is not copied."""
    return ["--strict-mcp-config"], {}


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.drill import DrillPart
    from . import drill as _this
    _conforms: DrillPart = _this
