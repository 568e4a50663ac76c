"""What `agentdeck policy show` / `policy test` say and try for Gemini CLI
(core/targets/parts/policy.py; docs/facts/gemini.md sections 2 and 8).

The templates carry the fields Gemini CLI 0.61.0 sent in real offline turns
(tests/fixtures/payloads/gemini/): session_id, transcript_path, cwd, hook_event_name
(BeforeTool / BeforeAgent), an ISO `timestamp`, tool_name and tool_input with its snake_case
tools and their arguments (file_path; dir_path for glob, grep_search, list_directory and the
folder a run_shell_command runs in).
"""
from __future__ import annotations

from typing import Any

from ...policy.templates import PreToolTemplate, PromptTemplate, snake, snake_prompt, spelled
from ..layers import AGENTDECK_PREFIX, LOADER_VARS, Layer, guarded
from ..path_spelling import NativeDeny
from .dialect import MCP_NAMES

CAVEATS = {
    "gemini": ["Gemini CLI lets the tool run when a hook times out or cannot be started: "
               "agentdeck's wrapper answers within its timeout, and denies with exit 2 and the "
               "block JSON on stdout",
               "any settings layer can switch agentdeck's hooks off: hooksConfig.enabled: false "
               "(unless a system settings file pins it true) or the name \"agentdeck\" in "
               "hooksConfig.disabled (merged from every layer, so not even a system file can "
               "take it back); `agentdeck doctor` reports both in ~/.gemini and in the folder "
               "it is started in",
               "GEMINI_CLI_SYSTEM_SETTINGS_PATH moves the system settings file (the layer an "
               "administrator pins hooks in) to any file the user names",
               "a folder's .gemini/settings.json is read only in a trusted folder: agentdeck-self "
               "denies an agent writing one, or trustedFolders.json",
               "web_fetch takes a prompt with the URLs inside it: a web rule sees the URLs "
               "written there",
               "list_directory lists a folder's names: a path rule does not act on it",
               "Gemini CLI loads the first .env walking up from the working folder (and "
               "~/.gemini/.env) into its own environment at start, so every command it runs "
               "inherits those values: a rule that denies reading .env files cannot keep them "
               "from `printenv` (seen in a real 0.61.0 turn); keep secrets out of a .env where "
               "Gemini is started"],
}

#: the files a Gemini session reads that can undo agentdeck's hooks (docs/facts/gemini.md
#: sections 1 and 2): a working folder's .gemini/settings.json (read in a trusted folder:
#: hooksConfig there turns every hook off), and the .env files Gemini loads into its own
#: environment at start (the first found walking up from the working folder, .gemini/.env
#: before .env in each; then ~/.gemini/.env): the hooks it runs inherit it, so an AGENTDECK_
#: variable there reaches agentdeck's handler
LAYERS = (
    Layer("**/.gemini/settings.json", "a working folder's project settings (read when Gemini "
          "trusts the folder): hooksConfig.enabled: false or \"agentdeck\" in "
          "hooksConfig.disabled there switches agentdeck's hooks off (reported by "
          "gemini.hooks.project-switch)", "0.61.0", "observed", report=False),
    Layer(".env", "~/.gemini/.env, loaded into Gemini's environment at start when no working "
          "folder has one: the hooks inherit its variables (an AGENTDECK_ variable there reached "
          "agentdeck's handler)", "0.61.0", "observed", kind="env",
          vars=(AGENTDECK_PREFIX, *LOADER_VARS)),
    Layer("**/.gemini/.env", "a working folder's (or a parent's) .gemini/.env, loaded at start "
          "in a trusted folder: as ~/.gemini/.env", "0.61.0", "documented", kind="env",
          vars=(AGENTDECK_PREFIX, *LOADER_VARS), parents=True),
    Layer("**/.env", "a working folder's (or a parent's, or the home's) .env, the first found "
          "walking up: loaded at start (every variable in a trusted folder), so the hooks "
          "inherit it: a loader variable there runs code in agentdeck's handler", "0.61.0",
          "documented", kind="env", vars=(AGENTDECK_PREFIX, *LOADER_VARS), parents=True),
)
#: what the built-in rule agentdeck-self keeps an agent from writing: the user settings.json
#: (agentdeck's hooks, hooksConfig), the wrapper they call, the trusted folders list (trusting a
#: folder makes Gemini read its .gemini/settings.json), and the LAYERS
#: files naming programs Gemini CLI 0.61.0 starts by itself beyond settings.json's mcpServers
#: (guarded above): extensions (hooks and MCP servers of their own), the MCP enablement file
#: (a server named enabled there starts), the user's policy files (rules of the CLI's own
#: policy engine) and the system folder with its admin policies
STARTS = ("extensions/**", "extensions", "mcp-server-enablement.json", "policies/**",
          "/etc/gemini-cli/**",
          # local agent definitions: an agent's mcp_servers start when the agent runs
          "agents/**", "agents", "**/.gemini/agents/**",
          # custom commands: a command file's `!{...}` runs a shell command when it is expanded
          "commands/**", "commands", "**/.gemini/commands/**")
GUARDED = guarded(("settings.json", "agentdeck-hook.sh", "trustedFolders.json",
                   "**/.gemini/settings.json", ".env", "**/.gemini/.env", *STARTS), LAYERS)

#: no RUNTIME_FLOOR: agentdeck installs no sandbox layer for Gemini CLI, so `policy show` says
#: "nothing"


def _native_deny() -> NativeDeny:
    from . import facts                    # local: see __getattr__

    return NativeDeny(
        verified=facts.POLICY_VERIFIED, facts=facts.POLICY,
        layer="Gemini CLI policy engine (~/.gemini/policies/*.toml)", written=False,
        why="its rules match the text of a call (a regular expression over the arguments or "
            "the command line), not the file the call reaches: a shell glob (`cat keys/id_r*`) "
            "read a key a rule for its name denied, so a [[policy.paths]] rule written there "
            "would hold only for the spellings it lists; agentdeck writes none")


def __getattr__(name: str) -> Any:
    # NATIVE_DENY is made when first asked for (every apply reads each target's GUARDED)
    if name == "NATIVE_DENY":
        value = globals()[name] = _native_deny()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_ISO = "2026-12-04T09:00:00.000Z"
_TRANSCRIPT = "/tmp/.gemini/tmp/work/chats/session-policy-test.jsonl"


def _gemini(tool: str, args: dict) -> dict:
    return snake("BeforeTool", tool, args, timestamp=_ISO, transcript_path=_TRANSCRIPT)


def _split(path: str) -> tuple[str, str]:
    """(folder, name) of a path: run_shell_command's `dir_path` and the rest."""
    head, _, tail = path.rpartition("/")
    return head or "/", tail


PRE_TOOL = {
    "gemini": PreToolTemplate("gemini", "gemini", "BeforeTool", _gemini, {
        "shell": [("run_shell_command", lambda s: {"command": s, "description": "run"})],
        "read": [("read_file", lambda s: {"file_path": s}),
                 ("grep_search", lambda s: {"pattern": ".", "dir_path": s})],
        "write": [("write_file", lambda s: {"file_path": s, "content": "x"}),
                  ("replace", lambda s: {"file_path": s, "instruction": "change it",
                                         "old_string": "a", "new_string": "b"})],
        "web": [("web_fetch", lambda s: {"prompt": f"Summarize {s}"})],
        "search": [("grep_search", lambda s: {"pattern": "KEY", "dir_path": s}),
                   ("grep_search", lambda s: {"pattern": "KEY", "include_pattern": "*",
                                              "dir_path": s})],
        "glob": [("glob", lambda s: {"pattern": s}),
                 ("glob", lambda s: {"pattern": _split(s)[1], "dir_path": _split(s)[0]})],
        "mcp-path": [("mcp_github_get_file", lambda s: {"path": s})],
        # the command names the file alone, `dir_path` is its folder
        "dir-read": [("run_shell_command", lambda s: {"command": f"cat {_split(s)[1]}",
                                                      "dir_path": _split(s)[0]})],
        "dir-write": [("run_shell_command", lambda s: {"command": f"echo x > {_split(s)[1]}",
                                                       "dir_path": _split(s)[0]})],
        "delegate": [("invoke_agent", lambda s: {"agent_name": "generalist", "prompt": s})],
        "unknown-path": [("future_file_tool", lambda s: {"file_path": s})],
    }, [spelled(MCP_NAMES)]),
}

PROMPTS = {
    "gemini": PromptTemplate("gemini", "gemini", "BeforeAgent",
                             lambda p: snake_prompt("BeforeAgent", p, timestamp=_ISO,
                                                    transcript_path=_TRANSCRIPT)),
}


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.policy import PolicyModule
    from . import policy as _this
    _conforms: PolicyModule = _this
