"""How each CLI hears a hook's decision: exit codes and stdout shapes, per payload dialect.

Data only, the standard library only (the hook handler imports this module on its deny / ask
path, never on an allow). Each row names the CLI version it was verified for and whether it
was observed on the real CLI (`observed`) or comes from the vendor's documentation only
(`documented`): the "what denies" tables of docs/facts/copilot.md, codex.md and claude.md
(verified 2026-12-01) are the source of the observed pre-tool rows.

Shapes (what goes to stdout; the reason R always goes to stderr too):
  flat      {"permissionDecision": D, "permissionDecisionReason": R}      Copilot camelCase
  specific  {"hookSpecificOutput": {"hookEventName": E, "permissionDecision": D,
             "permissionDecisionReason": R}}                               Codex, Claude, VS Code,
                                                                           Copilot PascalCase
  block     {"decision": "block", "reason": R}                             prompt events
"""
from __future__ import annotations

#: dialect (as core.hookhandler names it) -> the CLI that sends it and the version verified
DIALECT_CLI: dict[str, tuple[str, str]] = {
    "copilot-camel": ("copilot", "1.0.102"),
    "copilot-pascal": ("copilot", "1.0.102"),
    "vscode": ("vscode", "agent mode, hooks preview (documented only)"),
    "codex": ("codex", "0.171.0"),
    "claude": ("claude", "2.1.332"),
    "unknown": ("", ""),
}

#: pre-tool event: how to deny and how to ask, per dialect.
#:   deny_exit     exit code that denies (2 denies in all three CLIs, observed)
#:   shape         the stdout JSON that carries the reason to the model (the others are ignored
#:                 or, for Codex, one object carrying both shapes lets the tool run: observed)
#:   crash_denies  what a crash (exit 1) does: True = blocks (Copilot), False = the tool runs
#:   ask           "ask" when the CLI honours a permissionDecision of ask, else what it becomes
#:   source        observed | documented
PRE_TOOL: dict[str, dict] = {
    "copilot-camel": {"deny_exit": 2, "shape": "flat", "crash_denies": True, "ask": "ask",
                      "ask_note": "asks in an interactive session; in a non-interactive run "
                                  "(-p) Copilot's answer is undocumented, so it may deny",
                      "source": "observed"},
    "copilot-pascal": {"deny_exit": 2, "shape": "specific", "crash_denies": None, "ask": "ask",
                       "ask_note": "the Copilot cloud agent treats ask as deny (documented)",
                       "source": "observed"},
    "vscode": {"deny_exit": 2, "shape": "specific", "crash_denies": False, "ask": "ask",
               "ask_note": "VS Code prompts the user; under Autopilot it answers itself",
               "source": "documented"},
    "codex": {"deny_exit": 2, "shape": "specific", "crash_denies": False, "ask": "deny",
              "ask_note": "Codex has no ask at a hook (codex exec never asks): ask is denied",
              "source": "observed"},
    "claude": {"deny_exit": 2, "shape": "specific", "crash_denies": False, "ask": "ask",
               "ask_note": "Claude Code asks the user; in -p mode with no user it is denied",
               "source": "observed"},
    "unknown": {"deny_exit": 2, "shape": None, "crash_denies": None, "ask": "deny",
                "ask_note": "an unrecognized payload: exit 2, the one channel every CLI honours",
                "source": "observed"},
}

#: prompt event: how a prompt is blocked, per dialect.
#:   exit   the exit code with the block (Copilot's prompt event ignores exit codes: the JSON
#:          is the channel; Claude and Codex block on exit 2 with the reason on stderr)
#: observed 2026-12-01 (tests/clients/test_policy_real.py): the blocked prompt never reaches the
#: model (no request); Copilot and Claude show the reason, `codex exec` prints "UserPromptSubmit
#: Blocked" (Copilot's -p run then exits 1, Codex and Claude exit 0)
PROMPT: dict[str, dict] = {
    "copilot-camel": {"exit": 0, "shape": "block", "source": "observed"},
    "copilot-pascal": {"exit": 0, "shape": "block", "source": "documented"},
    "vscode": {"exit": 2, "shape": "block", "source": "documented"},
    "codex": {"exit": 2, "shape": "block", "source": "observed"},
    "claude": {"exit": 2, "shape": "block", "source": "observed"},
    "unknown": {"exit": 2, "shape": None, "source": "documented"},
}

#: the event name each dialect expects in hookSpecificOutput.hookEventName
SPECIFIC_EVENT = {"pre_tool_use": "PreToolUse", "user_prompt_submit": "UserPromptSubmit"}

#: what `on_error` means, the same everywhere: "deny" exits 2 (a plain crash, exit 1, would let
#: the tool run in Codex and Claude), "allow" exits 0 and only logs
ON_ERROR_EXIT = {"deny": 2, "allow": 0}

#: caveats per target for the Policy pane (plain text)
CAVEATS: dict[str, list[str]] = {
    "copilot": ["preMcpToolCall cannot deny (the MCP tool still runs): rules on MCP tools are "
                "enforced at preToolUse",
                "a hook that times out lets the tool run (every CLI fails open on a timeout)"],
    "codex": ["Codex runs only trusted hooks, silently skipping untrusted ones: without "
              "`apply --trust-hooks` (or the operator's approval) no rule is enforced",
              "exit 1 lets the tool run: agentdeck denies with exit 2 only"],
    "claude": ["exit 1 lets the tool run: agentdeck denies with exit 2 only"],
    "repo": ["VS Code ignores matchers: every hook sees every tool, the handler filters itself",
             "the Copilot cloud agent treats ask as deny",
             "Copilot CLI loads repository hooks only in a trusted folder"],
}


#: Which of a dialect's tools the path rules ([[policy.paths]]) are checked on (the tool names
#: core/policy/vocabulary.py maps; the shell tool's operands and redirections in every dialect).
#: Verified with the CLI versions of DIALECT_CLI (the clients tests run them in real turns).
PATH_TOOLS: dict[str, dict[str, str]] = {
    "copilot-camel": {"read": "view, str_replace_editor view, rg, grep, glob",
                      "write": "create, edit, str_replace_editor, apply_patch (every path)",
                      "shell": "bash"},
    "copilot-pascal": {"read": "Read, Grep, Glob", "write": "Write, Edit, MultiEdit",
                       "shell": "Bash"},
    "vscode": {"read": "read_file, grep_search, file_search",
               "write": "create_file, replace_string_in_file, apply_patch", "shell": "run_in_terminal"},
    "codex": {"read": "none: Codex has no read tool, read rules act on its shell commands' operands",
              "write": "apply_patch (every path)", "shell": "exec_command, shell, Bash"},
    "claude": {"read": "Read, NotebookRead, Grep, Glob", "write": "Write, Edit, MultiEdit, NotebookEdit",
               "shell": "Bash"},
}

#: What a hook-level guard does not stop, said wherever the policy is described.
LIMITS = [
    "a model that can run code as you can still reach a protected file with enough effort (a path "
    "built at run time, an encoded name, a program that reads it from its own config): the hook "
    "sees the command, not what the program does; the organisation layer, with root-owned files, "
    "is the boundary for that",
    "a `match` regex on the raw command line is evadable (quotes, variables, other spellings): "
    "use command/args rules and [[policy.paths]]",
    "a command the parser cannot resolve gets [policy] unresolved (ask by default; Codex has no "
    "ask, so there it is denied)",
]
