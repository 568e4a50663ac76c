"""How OpenAI Codex CLI's hooks talk to agentdeck's handler (the `dialect` part,
core/targets/parts/dialect.py). Standard library only: the handler imports it on every call.

Codex 0.171.0 sends Claude Code's hook schema plus its own fields (observed,
tests/fixtures/payloads/codex/): session_id, turn_id, hook_event_name, tool_name + tool_input
(Bash, exec_command {cmd}, shell {command: [argv]}, apply_patch), transcript_path, model.
"""
from __future__ import annotations

from ..dialects import Dialect, McpNaming, Speaker, camel

VERIFIED = "0.171.0"

CODEX = Dialect(
    "codex", "codex", VERIFIED,
    # one object carrying both stdout shapes lets the tool run (observed): specific alone
    pre_tool={"deny_exit": 2, "shape": "specific", "crash_denies": False, "ask": "deny",
              "ask_note": "Codex has no ask at a hook (codex exec never asks): ask is denied",
              "source": "observed"},
    # exit 2 with the reason on stderr blocks; `codex exec` prints "UserPromptSubmit Blocked"
    prompt={"exit": 2, "shape": "block", "source": "observed",
            "shown": "UserPromptSubmit Blocked"},   # codex exec names the block, not the reason
    path_tools={"read": "none: Codex has no read tool, read rules act on its shell commands' "
                        "operands",
                "write": "apply_patch (every path)", "shell": "exec_command, shell, Bash"})

DIALECTS = (CODEX,)

#: the tools Codex names beyond the shared ones (core/policy/vocabulary.py SHARED: Bash, shell,
#: apply_patch, ...), folded; Codex has no read tool but view_image. Every tool Codex
#: TOOLS_VERIFIED offers the model is here or in SHARED, its role read from the schema the
#: request carries (tests/clients/test_tool_vocabulary_real.py reads them from a real turn); an
#: "other" tool's path arguments still count as read and written (core/policy/vocabulary.py)
TOOLS = {
    # {cmd, tty, yield_time_ms, workdir, ...}: the process keeps running past the call as a
    # session that write_stdin types into, and Codex 0.171.0 shows write_stdin to no hook
    # (observed: `bash` started with tty true, then `cat <key>; touch <marker>` typed into it
    # through write_stdin: the key was printed and the marker made, the hook saw two Bash
    # calls; with tty false the bash exited at once). PreToolUse names exec_command `Bash`
    # with `{command}` alone (tty is not in the payload, workdir becomes its cwd: observed),
    # so every Bash call of Codex is a session's: a program that takes typed commands (a shell
    # or REPL given nothing to run, an editor, a pager: programs.takes_commands) is unresolved
    # there
    "execcommand": ("shell", "session"),
    "bash": ("shell", "session"),
    "localshell": ("shell", ""), "unifiedexec": ("shell", ""),
    # {session_id, chars}: `chars` is typed into a running exec_command session's stdin (a
    # shell's, as often as not): judged as a command line if a hook is ever shown it (Codex
    # 0.171.0 shows none); empty chars only polls
    "writestdin": ("shell", ""),
    "viewimage": ("read", ""),                          # {path}: an image file shown to the model
    "requestuserinput": ("other", ""),                  # {questions}: asks the user (plan mode)
    # the goal of the thread: create_goal's `objective` drives the turns that follow (delegate:
    # the text is a prompt); update_goal sets a status, get_goal reads it
    "creategoal": ("other", "delegate"),                # {objective, token_budget}
    "updategoal": ("other", ""),                        # {status}
    "getgoal": ("other", ""),                           # {}
    # the namespace multi_agent_v1 ("spawning and managing sub-agents") and its tools, offered
    # by these names inside it. spawn_agent starts a sub-agent from `message` (or `items`: text,
    # or a path of an image, audio or skill); send_input's `message` steers one. Neither
    # carries a command: delegate, the text a prompt (docs/policy.md); the sub-agent's own
    # calls reach the hook (tests/clients/test_subagent_hooks_real.py). PreToolUse names them
    # `spawn_agent`, `multi_agent_v1send_input`, `multi_agent_v1wait_agent` (observed in real
    # turns, tests/clients/test_tool_roles_real.py); close and resume were not seen at a hook
    "multiagentv1": ("other", "delegate"),
    "spawnagent": ("other", "delegate"),    # {message | items, fork_context, model, ...}
    "sendinput": ("other", "delegate"),     # {target, message | items, interrupt}
    "multiagentv1sendinput": ("other", "delegate"),
    "closeagent": ("other", ""),            # {target}
    "resumeagent": ("other", ""),           # {id}
    "waitagent": ("other", ""),             # {targets, timeout_ms}
    "multiagentv1waitagent": ("other", ""),
}
#: the Codex version whose offered tools (all of them) TOOLS was checked against
TOOLS_VERIFIED = "0.171.0"

#: the model is offered a Responses namespace `mcp__<server>` holding `<tool>`; the hook sees
#: `mcp__<server>__<tool>` with every character but [A-Za-z0-9_] made `_`
MCP_NAMES = McpNaming("mcp__", "__", "A-Za-z0-9_", "_", "sure", verified=VERIFIED,
                      note="the model is offered a namespace mcp__<server> holding <tool>")


def _home(p: dict) -> Dialect | None:
    if camel(p) or "hookEventName" in p:
        return None
    return CODEX


SPEAKERS = {"codex": Speaker((CODEX,), _home)}


def recognise(p: dict) -> tuple[int, Dialect] | None:
    return (80, CODEX) if "turn_id" in p else None


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.dialect import DialectModule
    from . import dialect as _this
    _conforms: DialectModule = _this
