"""What `agentdeck policy show` / `policy test` say and try for Qwen Code
(core/targets/parts/policy.py; docs/facts/qwen.md section 2, "What a PreToolUse answer does").

The templates carry the fields Qwen Code 0.24.4 sent in real offline turns (docs/facts/qwen.md
section 2, "Payloads"; tests/fixtures/payloads/qwen/): Claude Code's hook schema plus an ISO
`timestamp`, `permission_mode`, `prompt_id` and, on a pre-tool call, `tool_call_id` beside
`tool_use_id`; its snake_case tools (run_shell_command, monitor, read_file, grep_search, glob,
write_file, edit, notebook_edit, web_fetch) and `mcp__<server>__<tool>` with no server field.
A shell tool's `directory` (an absolute folder of the workspace) is where its command runs: the
corpus's dir-read and dir-write forms send a file's name alone with its folder there.
list_directory lists names only (no path rule acts on it), so no read form sends it.
"""
from __future__ import annotations

from typing import Any

from ...policy.templates import PreToolTemplate, PromptTemplate, snake, snake_prompt, spelled
from ..layers import Layer, guarded
from ..path_spelling import NativeDeny
from .dialect import MCP_NAMES

CAVEATS = {
    "qwen": ["Qwen Code lets the tool run on a crash, a timeout, any exit but 2, and an exit 2 "
             "with nothing on stderr: agentdeck denies with a hookSpecificOutput deny on stdout "
             "(exit 0, the reason on stderr too), the form another hook's allow cannot outrank",
             "a hook of a Qwen extension (in the user's ~/.qwen/extensions) answering allow "
             "outranks every settings file's hooks: it lets a denied call run",
             "a folder's .qwen/settings.json with disableAllHooks turns every hook off in a "
             "session started there (folder trust is off by default, so Qwen reads any "
             "folder's): agentdeck-self denies an agent writing one, but a cloned repository can "
             "carry one: `agentdeck doctor` and `status` report the one of the folder they are "
             "started in, no other folder's; security.folderTrust.enabled: "
             "true in ~/.qwen/settings.json makes Qwen ignore an untrusted folder's settings",
             "list_directory (opt-in) lists a folder's names: a path rule does not act on it",
             "Qwen Code loads the first .env walking up from the working folder into its own "
             "environment at start, so every command it runs inherits those values: a rule "
             "that denies reading .env files cannot keep them from `printenv` (seen in a real "
             "0.24.4 turn); keep secrets out of a .env where Qwen is started"],
}

#: what the built-in rule agentdeck-self keeps an agent from writing (docs/facts/qwen.md
#: section 2, "Switches"): the user settings.json holds agentdeck's hooks and its
#: disableAllHooks turns every hook off; the wrapper they call; and a working folder's
#: .qwen/settings.json, whose disableAllHooks turns the user's hooks off too in the next
#: session started there (folder trust is off by default, so Qwen reads any folder's)
#: -- and the .env files Qwen loads into its environment at start (~/.qwen/.env, a folder's
#: .qwen/.env): a QWEN_HOME set there moves its whole home, and Qwen then runs without
#: agentdeck's hooks and its own deny list. (A folder's plain .env is loaded too when it has no
#: .qwen/.env: not guarded, since agents edit project .env files as ordinary work; the doctor
#: reports one that moves QWEN_HOME: docs/policy.md "What a hook-level guard cannot stop".)
#: each such file as a fact with its version (core/targets/layers.py): Qwen loads the first
#: .env found walking up from the working folder (.qwen/.env before .env in each folder), then
#: the home's; QWEN_HOME there moves its home away from agentdeck's hooks and its deny list
LAYERS = (
    Layer("**/.qwen/settings.json", "a working folder's project settings: disableAllHooks there "
          "switches the user's hooks off (reported by qwen.hooks.project-disable-all, which knows "
          "folder trust)", "0.24.4", "observed", keys=("disableAllHooks",), report=False),
    Layer(".env", "~/.qwen/.env, loaded at start when no working folder has one: QWEN_HOME "
          "there drops agentdeck's hooks", "0.24.4", "observed", kind="env",
          vars=("QWEN_HOME", "AGENTDECK_")),
    Layer("**/.qwen/.env", "a working folder's (or a parent's) .qwen/.env, loaded at start: as "
          "~/.qwen/.env", "0.24.4", "documented", kind="env", vars=("QWEN_HOME", "AGENTDECK_"),
          parents=True),
    Layer("**/.env", "a working folder's (or a parent's, or the home's) .env, loaded at start in "
          "a trusted folder when no .qwen/.env comes first: QWEN_CODE_SIMPLE or "
          "QWEN_CODE_SAFE_MODE there starts Qwen with no hook (QWEN_HOME and loader variables "
          "are dropped from a project's .env)", "0.24.4", "documented", kind="env",
          vars=("QWEN_CODE_SIMPLE", "QWEN_CODE_SAFE_MODE", "AGENTDECK_"), parents=True),
)
#: files naming programs Qwen Code 0.24.4 starts by itself beyond settings.json's mcpServers
#: (guarded above): extensions (their hooks and MCP servers; an extension's hook answering
#: allow was observed to run beside agentdeck's: docs/facts/qwen.md) and the system folder
STARTS = ("extensions/**", "extensions", "/etc/qwen-code/**",
          # subagents (their frontmatter's mcpServers), skills and hook files: the folders
          # Qwen Code 0.24.4 itself lists as its configuration a model must not change
          "agents/**", "agents", "**/.qwen/agents/**", "skills/**", "**/.qwen/skills/**",
          "**/.qwen/hooks/**",
          # custom commands: a command file's `!{...}` runs a shell command when it is expanded
          "commands/**", "commands", "**/.qwen/commands/**")
GUARDED = guarded(("settings.json", "agentdeck-hook.sh", "**/.qwen/settings.json", ".env",
                   "**/.qwen/.env", *STARTS), LAYERS)

#: no RUNTIME_FLOOR: Qwen Code 0.24.4's tools.executionSandbox limits writes, not reads, and takes
#: no deny list (facts.py SANDBOX), so `policy show` says "nothing"

#: Qwen's own path deny (facts.py PERMISSIONS; docs/facts/qwen.md section 7): every
#: [[policy.paths]] deny rule it can spell is written there (permissions.py)
def _native_deny() -> NativeDeny:
    from . import facts                    # local: see __getattr__
    from .permissions import translate     # local: see __getattr__

    return NativeDeny(
        verified=facts.PERMISSIONS_VERIFIED, facts=facts.PERMISSIONS, translate=translate,
        layer="Qwen Code permissions.deny (~/.qwen/settings.json)", written=True)


def __getattr__(name: str) -> Any:
    # NATIVE_DENY is made when first asked for: every apply reads each target's GUARDED
    # (the compiled policy's agentdeck-self rule), and this target's facts and translation
    # need not load for another target's plan
    if name == "NATIVE_DENY":
        value = globals()[name] = _native_deny()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

_ISO = "2026-12-01T09:00:00.000Z"
_PROMPT_ID = "policy-test########0"


def _qwen(tool: str, args: dict) -> dict:
    return snake("PreToolUse", tool, args, permission_mode="yolo", prompt_id=_PROMPT_ID,
                 timestamp=_ISO, tool_call_id="call_1", tool_use_id="toolu_1",
                 transcript_path="/tmp/chats/policy-test.jsonl")


def _split(path: str) -> tuple[str, str]:
    """(folder, name) of a path: run_shell_command's `directory` and the rest."""
    head, _, tail = path.rpartition("/")
    return head or "/", tail


PRE_TOOL = {
    "qwen": PreToolTemplate("qwen", "qwen", "PreToolUse", _qwen, {
        "shell": [("run_shell_command", lambda s: {"command": s, "is_background": False,
                                                   "description": "run"}),
                  ("monitor", lambda s: {"command": s, "description": "watch"})],
        "read": [("read_file", lambda s: {"file_path": s}),
                 ("grep_search", lambda s: {"pattern": ".", "path": s})],
        "write": [("write_file", lambda s: {"file_path": s, "content": "x"}),
                  ("edit", lambda s: {"file_path": s, "old_string": "a", "new_string": "b"}),
                  ("notebook_edit", lambda s: {"notebook_path": s, "new_source": "x"})],
        "web": [("web_fetch", lambda s: {"url": s, "prompt": "summarize"})],
        "search": [("grep_search", lambda s: {"pattern": "KEY", "path": s}),
                   ("grep_search", lambda s: {"pattern": "KEY", "glob": "*", "path": s})],
        "glob": [("glob", lambda s: {"pattern": s}),
                 ("glob", lambda s: {"pattern": _split(s)[1], "path": _split(s)[0]})],
        "mcp-path": [("mcp__github__get_file", lambda s: {"path": s})],
        # the command names the file alone, `directory` is its folder (an absolute path)
        "dir-read": [("run_shell_command", lambda s: {"command": f"cat {_split(s)[1]}",
                                                      "directory": _split(s)[0]})],
        "dir-write": [("run_shell_command", lambda s: {"command": f"echo x > {_split(s)[1]}",
                                                       "directory": _split(s)[0]})],
        "delegate": [("agent", lambda s: {"description": "look", "prompt": s})],
        "unknown-path": [("future_file_tool", lambda s: {"file_path": s})],
        # tool_call naming a shell tool (PreToolUse names the tool itself; judged the same)
        "dispatch": [("tool_call", lambda s: {"name": "run_shell_command",
                                              "arguments": {"command": s}}),
                     ("tool_call", lambda s: {"name": "monitor", "arguments": {"command": s}})],
    }, [spelled(MCP_NAMES)]),
}

PROMPTS = {
    "qwen": PromptTemplate("qwen", "qwen", "UserPromptSubmit",
                           lambda p: snake_prompt("UserPromptSubmit", p, permission_mode="yolo",
                                                  prompt_id=_PROMPT_ID, timestamp=_ISO,
                                                  transcript_path="/tmp/chats/policy-test.jsonl",
                                                  submitted_prompt=p)),
}


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.policy import PolicyModule
    from . import policy as _this
    _conforms: PolicyModule = _this
