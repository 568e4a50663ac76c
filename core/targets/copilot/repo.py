"""Copilot's `repo` part (core/targets/parts/repo.py): the repository hook file agentdeck writes
for the repository scope is Copilot's `.github/hooks/*.json`, read by three readers at once --
Copilot CLI (only in a trusted folder), VS Code agent mode and the Copilot cloud agent (default
branch, fresh clone, Linux, only `bash` entries run).

Sources: docs/facts/copilot.md section 9 (Copilot CLI 1.0.102, verified; the cloud agent
constraints, the two dialects behind one row, VS Code and cloud agent controls); VS Code's
hookTypes.ts HOOKS_BY_TARGET[VSCode] and hookSchema.ts (bash -> linux/osx, timeoutSec ->
timeout, cwd relative to the workspace root).

The event keys are the PascalCase aliases (`event_key`): Copilot CLI accepts them and VS Code
needs them (`Stop`, never `AgentStop`, which both drop). A PascalCase key makes Copilot send
snake_case fields with Claude tool names; VS Code sends its own payload. The default handler
(agentdeck.core.hookhandler, with AGENTDECK_TARGET=repo) tells them apart (this package's
dialect.py). `cwd: "."` is the repository root for all three readers.
"""
from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..parts.repo import (HookCommand, HookSwitch, RepoFacts, RepoFile, RepoHooks, RepoLine,
                          RepoReader, RepoRow, SetupWorkflow, line_of)
from . import SPEC
from .facts import COPILOT, copilot_disable_key, resolve_event as _resolve_event
from ...wording import noun_for

if TYPE_CHECKING:  # pragma: no cover
    from ...disk import DiskView
    from ...host import Host
    from ...model import Profile

HOOKS_DIR = ".github/hooks"
HOOKS_FILE = ".github/hooks/agentdeck.json"
WRAPPER = ".github/hooks/agentdeck-hook.sh"
WORKFLOW = ".github/workflows/copilot-setup-steps.yml"
SETUP_JOB = "copilot-setup-steps"
REPO_SETTINGS = (".github/copilot/settings.json", ".github/copilot/settings.local.json")
#: Claude-format hook files that Copilot CLI and VS Code read in a repository
CLAUDE_FORMAT = (".claude/settings.json", ".claude/settings.local.json")

# ---- the three readers, as data ------------------------------------------------------------
READERS: dict[str, dict[str, str]] = {
    "copilot-cli": {
        "title": "Copilot CLI",
        "loads": "in a trusted folder only (config.json trustedFolders, or an ancestor of the "
                 "session's folder); accepts camelCase and the PascalCase aliases",
    },
    "vscode": {
        "title": "VS Code agent mode",
        "loads": "from the workspace's .github/hooks/*.json (and .claude/settings*.json); "
                 "fires its 8 PascalCase events; ignores matchers, so a hook sees every tool",
    },
    "cloud-agent": {
        "title": "Copilot cloud agent",
        "loads": "only .github/hooks/*.json of the default branch, in a fresh Linux clone; only "
                 "`bash` entries run; `ask` is treated as deny; permissionRequest and "
                 "notification never fire",
    },
}

#: The events VS Code agent mode fires, by their (PascalCase) key.
VSCODE_EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PreCompact",
                 "SubagentStart", "SubagentStop", "Stop")
#: Keys that look right and are dropped: silently by Copilot CLI (docs/facts/copilot.md),
#: rejected by VS Code; with the spelling both read.
REJECTED_KEYS = {"AgentStop": "Stop", "UserPromptSubmitted": "UserPromptSubmit"}
#: Events that never fire in the cloud agent, and why.
CLOUD_NEVER_FIRES = {
    "permissionRequest": "tools are pre-approved there",
    "notification": "the cloud agent is non-interactive",
}
#: Payload dialects, named as core.hookhandler labels them (`dialect` in the audit record).
DIALECTS = {
    "copilot-pascal": "snake_case fields (session_id, tool_name, tool_input), Claude tool names "
                      "(Bash, Read, Write), ISO timestamp",
    "vscode": "VS Code's own payload (hookEventName, sessionId, tool_name with VS Code tool ids "
              "such as run_in_terminal, tool_input)",
}
#: Which dialect each reader sends under a PascalCase key.
READER_DIALECT = {"copilot-cli": "copilot-pascal", "vscode": "vscode",
                  "cloud-agent": "copilot-pascal"}

def _settings_switch(who: str) -> HookSwitch:
    """disableAllHooks in a Copilot settings.json (the home's or the repository's)."""
    return HookSwitch(
        key="disableAllHooks", level="error", who=who,
        on_true="disableAllHooks is true in {file}: Copilot CLI runs none of {who} (admin policy "
                "hooks still run)",
        fix="set it to false or remove it",
        on_invalid="disableAllHooks is {value} in {file}: one invalid value makes Copilot "
                   "ignore the whole file",
        invalid_fix="use true or false",
        on_unparsed="{file} does not parse ({error}): Copilot ignores the whole file",
        stops_ours=True)


FACTS = RepoFacts(
    target=SPEC.name, verified=COPILOT.verified_versions[-1],
    readers={k: RepoReader(v["title"], v["loads"]) for k, v in READERS.items()},
    files=(
        RepoFile(f"{HOOKS_DIR}/*.json", "repo-hooks-file", tuple(READERS),
                 "another hook file: all three readers run it alongside agentdeck's",
                 jsonc=False, hook_file=True),
        *(RepoFile(rel, "repo-settings-hooks", ("copilot-cli",),
                   "inline hooks in the repository's Copilot settings: Copilot CLI runs them "
                   "alongside agentdeck's",
                   switch=_settings_switch("every hook of this repository"))
          for rel in REPO_SETTINGS),
        *(RepoFile(rel, "repo-claude-hooks", ("copilot-cli", "vscode"),
                   "Claude-format hooks: Copilot CLI and VS Code run them too (the cloud agent "
                   "does not)",
                   switch=HookSwitch(
                       key="disableAllHooks", level="info",
                       on_true="{rel} has disableAllHooks: true: VS Code skips the hooks of that "
                               "file (agentdeck's .github/hooks file is not affected)"))
          for rel in CLAUDE_FORMAT),
    ),
    hooks=RepoHooks(
        dir=HOOKS_DIR, file=HOOKS_FILE, wrapper=WRAPPER, readers=tuple(READERS),
        version=COPILOT.hook_file_version, wrong_timeout_keys=COPILOT.wrong_timeout_keys,
        rejected_keys=REJECTED_KEYS, dialects=DIALECTS,
        wrapper_comment=(
            "# Committed with the repository. Copilot CLI (in a trusted folder), VS Code agent mode\n"
            "# and the Copilot cloud agent run it from the repository root as\n"
            f"#   {WRAPPER} <Event>\n"),
        switches_ok="no disableAllHooks turns these hooks off (user settings.json, "
                    ".github/copilot/settings*.json)",
        setup=SetupWorkflow(
            path=WORKFLOW, job=SETUP_JOB,
            begin="# >>> agentdeck: hook handler for the Copilot cloud agent (managed) >>>",
            end="# <<< agentdeck <<<",
            header=("# Copilot cloud agent setup: GitHub runs the copilot-setup-steps job before "
                    "the agent\n"
                    "# starts (outside the agent's firewall). Written by agentdeck; the steps "
                    "outside the\n"
                    "# agentdeck markers are yours to add.\n"
                    'name: "Copilot Setup Steps"\n')),
    ),
)


# ---- the carrier's functions (parts/repo.py) --------------------------------------------------
def registered_events(profile: "Profile") -> tuple[list[str], list[str]]:
    from .hooks import registered_events as events
    return events(profile)


def resolve_event(key: str) -> tuple[str, str | None] | None:
    return _resolve_event(key)


def disable_key(key: str, action: dict[str, Any]) -> str:
    return copilot_disable_key(key, action)


def event_key(event: str) -> str:
    """The key agentdeck writes for a Copilot event in the shared repo file: its PascalCase
    alias (accepted by Copilot CLI, needed by VS Code), or the camelCase name when the event has
    no alias (then VS Code never fires it)."""
    for alias, ev in COPILOT.pascal_aliases.items():
        if ev == event and alias not in REJECTED_KEYS:
            return alias
    return event


def reader_view(event: str, key: str) -> dict[str, dict[str, Any]]:
    """What each reader does with `key` (registered for Copilot `event`)."""
    out: dict[str, dict[str, Any]] = {}
    pascal = key != event
    cli_dialect = "copilot-pascal" if pascal else "copilot-camel"
    out["copilot-cli"] = {"fires": True, "dialect": cli_dialect,
                          "note": "in a trusted folder"}
    if key in VSCODE_EVENTS:
        note = "matchers ignored: the handler sees every tool" if event in (
            "preToolUse", "postToolUse") else ""
        out["vscode"] = {"fires": True, "dialect": "vscode", "note": note}
    else:
        out["vscode"] = {"fires": False, "dialect": None,
                         "note": "not one of VS Code's events: never fires there"}
    if event in CLOUD_NEVER_FIRES:
        out["cloud-agent"] = {"fires": False, "dialect": None,
                              "note": f"never fires there: {CLOUD_NEVER_FIRES[event]}"}
    else:
        note = "`ask` is treated as deny" if event == "preToolUse" else ""
        out["cloud-agent"] = {"fires": True, "dialect": cli_dialect, "note": note}
    return out


def describe_event(key: str, event: str, readers: dict[str, dict[str, Any]]) -> str:
    """One plan line: which reader gets which payload dialect for this key."""
    parts = []
    for r, v in readers.items():
        title = READERS[r]["title"]
        if v["fires"]:
            d = "snake_case payload" if v["dialect"] == "copilot-pascal" else (
                "its own payload" if v["dialect"] == "vscode" else "camelCase payload")
            parts.append(f"{title}: {d}" + (f" ({v['note']})" if v["note"] and r != "copilot-cli"
                                             else ""))
        else:
            parts.append(f"{title}: {v['note']}")
    spelled = f"{key} (= {event})" if key != event else key
    return f"{spelled} -- " + "; ".join(parts)


def action(key: str, timeout: int) -> dict[str, Any]:
    return {"type": "command", "bash": f"{WRAPPER} {key}", "cwd": ".", "timeoutSec": int(timeout)}


def render_hooks_file(actions: dict[str, dict[str, Any]]) -> str:
    obj = {"version": COPILOT.hook_file_version, "hooks": {k: [a] for k, a in actions.items()}}
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def file_reason(keys: str, timeout: int) -> str:
    """The plan's reason for agentdeck's hook file."""
    return (f"one file for Copilot CLI, VS Code and the cloud agent: {keys} as "
            f"`{WRAPPER} <Event>` run from the repository root (cwd \".\"), "
            f"timeoutSec {timeout}; PascalCase keys, which every reader accepts")


def trust(view: "DiskView", root: Path) -> dict[str, Any]:
    """Whether Copilot CLI loads the repository's hooks here: the repository or one of its
    ancestors in config.json `trustedFolders` (the only thing read from that file; observed on
    1.0.102: an ancestor's trust covers the folders below it), or COPILOT_ALLOW_ALL=true."""
    from .hooks import trusted_folders

    host = view.host
    folders = trusted_folders(view)
    via = None
    subfolders: list[str] = []
    for f in folders:
        fp = Path(host.realpath(os.path.expanduser(f)))
        if fp == root or fp in root.parents:
            if via is None or len(str(fp)) > len(via):
                via = str(fp)
        elif root in fp.parents:
            subfolders.append(str(fp))
    allow_all = host.env.get("COPILOT_ALLOW_ALL") == "true"
    return {"trusted": via is not None or allow_all, "via": via, "subfolders": subfolders,
            "allow_all": allow_all, "config": str(SPEC.home(host) / COPILOT.config_file)}


def plan_lines(events: list[dict[str, Any]], trust: dict[str, Any], root: Path,
               host: "Host") -> list[RepoLine]:
    """The plan's lines about the readers: what each does per event, the payload dialects, the
    `bash`-only actions, and whether Copilot CLI trusts the folder."""
    out = [RepoLine("note", "one hook file, three readers: " + "; ".join(
        f"{v['title']} reads it {v['loads']}" for v in READERS.values()))]
    for e in events:
        out.append(RepoLine("note", describe_event(e["key"], e["event"], e["readers"])))
    out.append(RepoLine("note", "payload dialects: snake_case = " + DIALECTS["copilot-pascal"]
                        + "; VS Code = " + DIALECTS["vscode"]
                        + "; the default handler (AGENTDECK_TARGET=repo) reads both"))
    out.append(RepoLine("warn", "the actions have a `bash` command only: the cloud agent runs "
                        "nothing else, and on Windows (no POSIX shell) Copilot CLI and VS Code "
                        "have no command to run for them"))
    if trust["trusted"]:
        via = ("COPILOT_ALLOW_ALL=true" if trust["via"] is None
               else ("this folder" if trust["via"] == str(root) else trust["via"]))
        out.append(RepoLine("note", f"Copilot CLI trusts this repository ({via}, in "
                            f"{host.display(trust['config'])} trustedFolders): its sessions "
                            "here load these hooks"))
    else:
        extra = (f" (only subfolders are: {', '.join(trust['subfolders'])})"
                 if trust["subfolders"] else "")
        out.append(RepoLine("warn", f"Copilot CLI does not trust this folder{extra}: it loads "
                            "repository hooks only in a trusted folder. Trust it when Copilot "
                            "asks at startup (agentdeck never writes config.json)"))
    return out


def home_hooks(host: "Host") -> Path:
    """agentdeck's hook file in the home: Copilot CLI runs it in the repository too."""
    from .hooks import HOOKS_FILE as HOME_FILE
    return SPEC.home(host) / "hooks" / HOME_FILE


def home_twice(shown: str) -> RepoLine:
    """The plan's line when the home's hook file (`home_hooks`, as shown) exists too."""
    return RepoLine("warn", f"{shown} also registers agentdeck's hooks for Copilot CLI: in a "
                    "trusted repository it runs both, so each event is handled twice (audit "
                    f"records with target {SPEC.name} and target repo)")


def home_twice_row(shown: str) -> RepoRow:
    """The doctor's row for the same."""
    return RepoRow("warning", "hooks.others", f"{shown} (your home's agentdeck hooks) and this "
                   "repository's both fire in Copilot CLI sessions here: each event is handled "
                   f"twice (audit records with target {SPEC.name} and target repo)",
                   fix="keep one of them, or accept the double audit lines")


def home_switches(host: "Host") -> list[tuple[Path, HookSwitch]]:
    return [(SPEC.home(host) / "settings.json", _settings_switch("every user and repository hook"))]


def reader_rows(trust: dict[str, Any], keys: list[tuple[str, str]], found: bool, root: Path,
                host: "Host") -> list[RepoRow]:
    """One doctor row per reader: what it will do with agentdeck's hook file."""
    src = f"{HOOKS_FILE} ({len(keys)} events)" if found else "agentdeck's hook file is missing"
    cfg = host.display(trust["config"])
    out: list[RepoRow] = []
    if trust["trusted"]:
        via = ("COPILOT_ALLOW_ALL=true" if trust["via"] is None else
               ("the folder itself" if trust["via"] == str(root) else f"its ancestor {trust['via']}"))
        out.append(RepoRow("ok", "reader.copilot-cli", f"Copilot CLI: this folder is trusted "
                           f"({via} in {cfg} trustedFolders): sessions here load {src} with "
                           "snake_case payloads (PascalCase keys)"))
    else:
        sub = (f"; only these subfolders are trusted: {', '.join(trust['subfolders'])} (sessions "
               "started there do load them)" if trust["subfolders"] else "")
        out.append(RepoRow("warning", "reader.copilot-cli", f"Copilot CLI: {root} is not in {cfg} "
                           f"trustedFolders, so Copilot CLI loads none of its repository hooks{sub}",
                           fix="start `copilot` in the folder and trust it when asked (agentdeck "
                               "never writes config.json)"))
    if not found:
        return out
    fires = [k for k, _ in keys if k in VSCODE_EVENTS]
    never = [k for k, _ in keys if k not in VSCODE_EVENTS]
    out.append(RepoRow("info", "reader.vscode",
                       f"VS Code agent mode: fires {', '.join(fires) or 'none'} with its own "
                       "payload (hookEventName, sessionId, VS Code tool ids)"
                       + (f"; never fires {', '.join(never)}" if never else "")
                       + "; it ignores matchers, so the handler sees every tool and must filter "
                         "on tool_name itself (the default handler audits every call)"))
    cloud = [k for k, e in keys if e not in CLOUD_NEVER_FIRES]
    dead = [k for k, e in keys if e in CLOUD_NEVER_FIRES]
    out.append(RepoRow("info", "reader.cloud-agent",
                       f"Copilot cloud agent: from the default branch, runs the bash command of "
                       f"{', '.join(cloud) or 'none'} (snake_case payloads; cwd the fresh clone)"
                       + (f"; {', '.join(dead)} never fire there" if dead else "")
                       + "; a PreToolUse answer of `ask` counts as deny there"))
    return out


def unparsed_row(rel: str, error: str) -> RepoRow:
    return RepoRow("error", "hooks.file", f"{rel} is not valid JSON ({error}): Copilot CLI "
                   "rejects the whole file (comments are not allowed in hook files)",
                   fix="fix the JSON")


def hook_file_rows(rel: str, text: str | None, data: Any) -> list[RepoRow | HookCommand]:
    """One hook file of .github/hooks as the three readers take it: its version, each event key,
    each action (matchers, timeout keys, a `bash` command), in file order; the commands to check
    as `HookCommand`s."""
    if not isinstance(data, dict) or not isinstance(data.get("hooks"), dict):
        return [RepoRow("error", "hooks.file", f"{rel} has no \"hooks\" object: no reader runs "
                        "anything from it")]
    out: list[RepoRow | HookCommand] = []
    version = COPILOT.hook_file_version
    if "version" in data and data["version"] != version:
        out.append(RepoRow("error", "hooks.file", f"{rel}: \"version\": {data['version']!r} makes "
                           f"Copilot CLI reject the whole file (only {version} is accepted)",
                           fix=f'set "version": {version} or remove it',
                           line=line_of(text, '"version"')))
    for key, actions in data["hooks"].items():
        line = line_of(text, json.dumps(key))
        if key in REJECTED_KEYS:
            out.append(RepoRow("error", "hooks.events", f"{rel}: {key!r} is silently dropped by "
                               "Copilot CLI and rejected by VS Code",
                               fix=f"spell it {REJECTED_KEYS[key]!r}", line=line))
            continue
        resolved = _resolve_event(key)
        if resolved is None:
            out.append(RepoRow("warning", "hooks.events", f"{rel}: {key!r} is not a hook event: "
                               "Copilot CLI drops it without a word", line=line))
            continue
        event, pascal = resolved
        if pascal is None and event_key(event) != event:
            out.append(RepoRow("info", "hooks.events", f"{rel}: {key!r} is Copilot CLI's camelCase "
                               f"spelling; VS Code reads the PascalCase {event_key(event)!r} (which "
                               "Copilot CLI accepts too, with a snake_case payload)", line=line))
        if not isinstance(actions, list):
            out.append(RepoRow("error", "hooks.file", f"{rel}: {key!r} is not a list: Copilot CLI "
                               "rejects the whole file", line=line))
            continue
        for a in actions:
            out += _action_rows(rel, key, event, a, text)
    return out


def _action_rows(rel: str, key: str, event: str, a: Any, text: str | None
                 ) -> list[RepoRow | HookCommand]:
    out: list[RepoRow | HookCommand] = []
    if not isinstance(a, dict):
        return out
    nested = a.get("hooks")
    for sub in (nested if isinstance(nested, list) else [a]):
        if not isinstance(sub, dict):
            continue
        matcher = a.get("matcher", sub.get("matcher"))
        if matcher not in (None, "", "*"):
            out.append(RepoRow("warning", "hooks.matchers", f"{rel}: {key} has matcher "
                               f"{matcher!r}: VS Code ignores matchers, so there this hook runs "
                               "for every tool",
                               fix="filter on tool_name inside the hook command itself",
                               line=line_of(text, json.dumps(matcher))))
        for wrong in COPILOT.wrong_timeout_keys:
            if wrong in sub:
                out.append(RepoRow("warning", "hooks.timeout", f"{rel}: {key} uses {wrong!r}, "
                                   "which Copilot CLI silently ignores (the hook then has no "
                                   "timeout)", fix=f"use {json.dumps(COPILOT.timeout_key)}",
                                   line=line_of(text, json.dumps(wrong))))
        if sub.get("type", "command") == "command":
            bash = sub.get("bash") or sub.get("command")
            if not bash:
                out.append(RepoRow("warning", "hooks.cloud", f"{rel}: a {key} action has no "
                                   "`bash` command: the cloud agent (Linux, bash entries only) "
                                   "skips it"))
                continue
            out.append(HookCommand(key, event, str(bash), sub.get("cwd")))
    return out


def command_fails(event: str) -> str:
    return ("preToolUse then denies every tool call in Copilot CLI and the cloud agent "
            "(a command that fails is a deny there)" if event == "preToolUse"
            else "the hook fails on every call")


def live_probe(root: Path) -> tuple[str, Callable[..., Any]]:
    """(what is asked, in words; the probe of the host) for `doctor --repo --live`:
    `hooks.discover` with projectPaths = the repository, which runs no hook."""
    from .probes import hooks_discover
    return "Copilot CLI (hooks.discover)", partial(hooks_discover, project_paths=[str(root)])


def live_rows(res: Any, expected: dict[str, str], trusted: bool) -> list[RepoRow]:
    """The rows of the probe's result (a ProbeResult) against agentdeck's hook file
    (`expected`: {disable key: event})."""
    check = "live.discover"
    if res.skipped_reason:
        return [RepoRow("skipped", check, f"Copilot CLI: {res.skipped_reason}")]
    if not res.ok:
        return [RepoRow("error", check, f"Copilot CLI hooks.discover failed: {res.error}")]
    out: list[RepoRow] = []
    rows = [h for h in (res.data or {}).get("hooks", []) if h.get("origin") == "repository"]
    ours = [h for h in rows if str(h.get("source", "")).endswith(HOOKS_FILE)]
    for e in (res.data or {}).get("errors", []):
        out.append(RepoRow("error", check, f"Copilot CLI reports: {e}"))
    if not trusted:
        if rows:
            out.append(RepoRow("warning", check, f"Copilot CLI loaded {len(rows)} repository "
                               f"{noun_for(len(rows), 'hook')} although agentdeck found no trust for this folder"))
        else:
            out.append(RepoRow("info", check, "Copilot CLI (hooks.discover) loads no repository "
                               "hook here: the folder is not trusted"))
        return out
    got = {h.get("disableKey"): h for h in ours}
    missing = [ev for k, ev in expected.items() if k not in got]
    off = [h["hookType"] for h in ours if h.get("enabled") is False]
    if missing:
        out.append(RepoRow("error", check, f"Copilot CLI did not load {len(missing)} of "
                           f"agentdeck's repository hooks ({', '.join(missing[:5])})"))
    if off:
        out.append(RepoRow("warning", check, f"Copilot CLI loaded but disabled (settings.json "
                           f"disabledHooks) {', '.join(off)}"))
    if not missing and not off:
        out.append(RepoRow("ok", check, f"Copilot CLI loads agentdeck's {len(ours)} repository "
                           f"hooks here, all enabled ({len(rows) - len(ours)} other repository "
                           f"{noun_for(len(rows) - len(ours), 'hook')})"))
    return out


if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.repo import RepoPart
    from . import repo as _this
    _conforms: RepoPart = _this
