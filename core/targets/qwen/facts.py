"""Qwen Code: facts as data, verified against @qwen-code/qwen-code 0.24.4.

Source: docs/facts/qwen.md (real offline turns against the scripted model server, reproduced
by tests/clients/qwen_probe.py; the section of each fact is named beside it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Mapping

from ...facts.versions import CliFacts, frozen_map
from ..path_spelling import NativeFact
from . import SPEC as _SPEC

VERIFIED = "0.24.4"

#: the 22 hook events 0.24.4 registers (section 2, "Hooks"); any other name is skipped with
#: a UI warning only (nothing on stderr in -p mode)
HOOK_EVENTS = (
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
    "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "Stop", "MessageDisplay",
    "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "SessionEnd", "SessionDelete",
    "PermissionRequest", "PermissionDenied", "StopFailure", "TodoCreated", "TodoCompleted",
    "InstructionsLoaded",
)


@dataclass(frozen=True, kw_only=True)
class QwenFacts(CliFacts):
    settings_file: ClassVar[str] = "settings.json"    # hooks inline, in Claude Code's nested schema
    #: the first .env found walking up from the working folder (its .qwen/.env before its .env),
    #: else the home's: observed in 0.24.4 real turns (a folder .env's PYTHONPATH reached the
    #: hook handler's interpreter before the wrapper isolated it)
    env_files: ClassVar[tuple[str, ...]] = ("**/.qwen/.env", "**/.env", ".env")
    #: section 1: JSON with comments (strip-json-comments, a BOM stripped)
    settings_jsonc: ClassVar[bool] = True
    #: section 1: a settings file without `"$version": 4` is rewritten by Qwen on every start
    #: (re-serialized, comments moved); one with it is left byte-identical. So every
    #: settings.json agentdeck writes carries it.
    settings_version_key: ClassVar[str] = "$version"
    settings_version: ClassVar[int] = 4
    #: section 2: hooks in settings.json fire as written (no enabling flag)
    handler_types: ClassVar[tuple[str, ...]] = ("command", "http", "prompt")
    #: section 2: a timeout >= this is read as legacy milliseconds
    timeout_ms_from: ClassVar[int] = 1000
    #: section 2: `disableAllHooks: true` in the user file stops every hook, system hooks too
    disable_all_key: ClassVar[str] = "disableAllHooks"
    #: section 3: the off switch that keeps a configured server from starting is the name in
    #: `mcp.excluded`; "disabled"/"enabled" on the entry and the legacy top-level
    #: excludeMCPServers are ignored (the server starts)
    mcp_off_key: ClassVar[tuple[str, ...]] = ("mcp", "excluded")
    mcp_allow_key: ClassVar[tuple[str, ...]] = ("mcp", "allowed")
    mcp_ignored_entry_keys: ClassVar[tuple[str, ...]] = ("disabled", "enabled")
    mcp_legacy_keys: ClassVar[tuple[str, ...]] = ("excludeMCPServers", "allowMCPServers")
    #: section 3: stdio `command`/`args`/`env`/`cwd`; `url` (SSE) or `httpUrl` (streamable HTTP)
    mcp_stdio_fields: ClassVar[tuple[str, ...]] = ("command", "args", "env", "cwd", "timeout",
                                                   "trust", "description", "includeTools",
                                                   "excludeTools")
    #: section 3: `qwen mcp list` STARTS every configured server, excluded ones too: never a probe
    unsafe_commands: ClassVar[tuple[tuple[str, ...], ...]] = (("mcp", "list"),)
    #: section 4: the persona files read by default (in the home and the project); a
    #: `context.fileName` replaces the default names
    persona_file: ClassVar[str] = "QWEN.md"
    persona_defaults: ClassVar[tuple[str, ...]] = ("QWEN.md", "AGENTS.md")
    persona_name_key: ClassVar[tuple[str, ...]] = ("context", "fileName")
    #: section 5: SKILL.md skills under <home>/skills/<name>/
    skills_dir: ClassVar[str] = "skills"
    #: section 2: a user's `security.folderTrust.enabled: true` ignores an untrusted folder's
    #: project settings (its hooks do not fire)
    folder_trust_key: ClassVar[tuple[str, ...]] = ("security", "folderTrust", "enabled")


QWEN = QwenFacts(
    target="qwen",
    binary=_SPEC.binary,
    npm_package=_SPEC.npm_package,
    verified_versions=(VERIFIED, VERIFIED),
    #: section 6: `qwen --version` prints the bare version on one line
    version_regex=r"^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)\s*$",
    home_env=_SPEC.home_env,
    home_dirname=_SPEC.home_dirname,
    hook_events=HOOK_EVENTS,
    matcher_events=(),                       # observed on PreToolUse only: no claim made
    timeout_key="timeout",                   # seconds (section 2)
    timeout_aliases=(),
    wrong_timeout_keys=("timeoutSec", "timeout_ms"),
    default_timeout_sec=60,                  # a command hook's default (section 2)
    event_default_timeouts=frozen_map({}),
    canonical_events=frozen_map({
        "session_start": "SessionStart",
        #: fires only on interactive exit, /clear and the ACP agent; not in -p mode
        "session_end": "SessionEnd",
        "user_prompt_submit": "UserPromptSubmit", "pre_tool_use": "PreToolUse",
        "post_tool_use": "PostToolUse", "post_tool_use_failure": "PostToolUseFailure",
        "permission_request": "PermissionRequest", "stop": "Stop",
        "subagent_start": "SubagentStart", "subagent_stop": "SubagentStop",
        "pre_compact": "PreCompact", "notification": "Notification",
        "error": "StopFailure",
    }),
)

#: this target's facts, under the name every target's facts module gives them
FACTS = QWEN


# ---- its own deny for file paths: permissions.deny (section 7) ---------------------------------
# Observed 2026-12-02 in real offline turns (a scripted model calling the named tool, a scratch
# home with no hook registered, --yolo; tests/clients/test_qwen_real.py re-runs the default
# profile's rule with agentdeck's hook made inert). agentdeck writes each [[policy.paths]] deny
# rule there (permissions.py); the policy part's NATIVE_DENY names it.

PERMISSIONS_VERIFIED = VERIFIED

#: how a rule path is written in a Read(...)/Edit(...) entry: `~/` is the home ($HOME), `//`
#: the filesystem root (a single leading `/` is the project root, a bare name the working folder)
PERMISSION_ROOTS = {"home": "~/", "absolute": "//"}

#: the entry kinds, per access: Read covers read_file, grep_search, glob and list_directory; Edit
#: covers edit, write_file and notebook_edit (`Write(...)` is write_file alone)
PERMISSION_ENTRY = {"read": "Read", "write": "Edit"}

#: what a rule path may not hold for its Qwen entry: `{a,b}` is an alternative there (literal in
#: agentdeck's rules), `[!x]` is not a negation and `[^x]` is one (the reverse of agentdeck's),
#: `(`/`)` are extended globs, `\\` an escape
PERMISSION_UNSUPPORTED = ("[!", "[^", "{", "}", "(", ")", "\\")

#: how an "any character but c" class is written: `[^c]` (`[!c]` is a class holding `!`)
PERMISSION_NEGATION = "^"

#: the words of a tool result when permissions.deny refuses the call (observed with
#: PERMISSIONS_VERIFIED, below)
PERMISSION_REFUSAL = "denied by permission rules"

#: what permissions.deny does, as observed
PERMISSIONS: tuple[NativeFact, ...] = tuple(
    NativeFact(c, "observed", PERMISSIONS_VERIFIED) for c in (
    "permissions.deny in ~/.qwen/settings.json (Claude-style entries) holds under --yolo with no "
    "hook registered: the tool result is `This \"read_file\" invocation was denied by "
    "permission rules. Matching deny rule: ...` and the file is not read",
    "`~/` is the home directory and `//` the filesystem root (`Read(//<abs path>)`); a bare "
    "name is relative to the working folder, and a single leading `/` the project root (its "
    "resolvePathPattern in the bundle)",
    "`*`, a class (`~/.aws/credential[s]`) and `[^b]` are globs (`Read(~/.ssh/id_*[^b])` denied id_rsa and let id_rsa.pub "
    "through); `[!b]` is NOT a negation (`Read(~/.ssh/id_*[!b])` denied id_rsa.pub and let "
    "id_rsa through); `{a,b}` IS an alternative (`Read(~/.ssh/{id_rsa,x})` denied id_rsa)",
    "matching is case-sensitive: `~/.SSH/ID_RSA` was not matched by a `~/.ssh/id_*` rule",
    "paths are normalized before matching: ~/.ssh/./id_rsa was denied",
    "Read denies are applied to shell reads: `cat ~/.ssh/id_rsa` and `cat ~/.ssh/id_r*` were "
    "denied, `cat ~/.ssh/id_rsa.pub` ran",
    "Read denies are NOT applied to `cat \"$HOME/.ssh/id_rsa\"`, interpreters (`python3 -c "
    "open(...)`) or grep_search of the folder (`path: ~/.ssh` returned the key's line)",
    "Edit denies stop write_file and edit of the file, and a shell `echo x >> file`",
))


# ---- its command sandbox (tools.executionSandbox) -------------------------------------------------
# Observed 2026-12-04 in real offline turns (a scripted model calling run_shell_command, scratch
# home, no hook, --yolo, bubblewrap 0.8.0 installed); the accepted keys are its bundle's
# parseExecutionSandboxSettings (chunk-KY4HZXLV.js). No layer agentdeck could write a deny list
# into: the policy part has no RUNTIME_FLOOR, so `policy show` says "nothing".

SANDBOX_VERIFIED = VERIFIED

SANDBOX: tuple[NativeFact, ...] = tuple(
    NativeFact(c, "observed", SANDBOX_VERIFIED) for c in (
    "`tools.executionSandbox: {\"backend\": \"bwrap\", \"filesystem\": \"read-only\", "
    "\"network\": \"closed\"}` in ~/.qwen/settings.json: a shell `python3 -c` that builds "
    "~/.ssh/id_rsa at run time printed the key (the sandbox limits writes, not reads)",
    "it takes only `backend` (auto | bwrap), `filesystem` (read-only | workspace-write) and "
    "`network` (open | closed): with an extra `denyRead` key Qwen exits 1 before the turn "
    "(`tools.executionSandbox requires literal filesystem ... Unknown fields ... are not "
    "supported`), so it has no deny list to write a rule into",
))
