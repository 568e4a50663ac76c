"""Repository scope: the hooks a repository carries for three readers at once.

    plan = engine.build_repo_plan(host, "/path/to/repo", "default")

Unlike the home targets, this adapter plans into a repository (`RepoTarget(root)`); its
manifest lives in agentdeck's state dir, keyed by the repository's path
(`<state dir>/repos/<sha256(real path)[:16]>.json`), never inside the repository. Plan, apply,
manifest and uninstall are the engine's own.

Items (group in brackets), every path inside the repository:

  [hooks]  .github/hooks/agentdeck-hook.sh (file, 0755)  the committed wrapper: finds the profile's
                                                          handler on PATH where it runs; no path
                                                          outside the repository
           .github/hooks/agentdeck.json (file)            one action per event:
               {"type": "command", "bash": ".github/hooks/agentdeck-hook.sh <Key>",
                "cwd": ".", "timeoutSec": 30}
  [cloud]  .github/workflows/copilot-setup-steps.yml      only on request (`--cloud-setup`): a step
                                                          that installs the handler for the cloud
                                                          agent; the whole file when there is none,
                                                          else a managed block at the end of the
                                                          copilot-setup-steps job's steps (or a
                                                          notice when it cannot be placed safely)

Three readers, one file (READERS): Copilot CLI (only in a trusted folder), VS Code agent mode and
the Copilot cloud agent (default branch, fresh clone, Linux, only `bash` entries run). The event
keys are the PascalCase aliases (`event_key`): Copilot CLI accepts them (docs/facts/copilot.md,
verified on 1.0.102) and VS Code needs them (`Stop`, never `AgentStop`, which both drop). A
PascalCase key makes Copilot send snake_case fields with Claude tool names; VS Code sends its own
payload. The default handler (agentdeck.core.hookhandler, with AGENTDECK_TARGET=repo) tells them apart.

`cwd: "."` is the repository root for all three readers (GitHub's and VS Code's hook references:
"relative to repository root"), so the relative command also works in a session started in a
subfolder and in the cloud agent's fresh clone.

The `info` dict (plain data for the app's repository pane; paths absolute):

  info = {
    "root": str, "manifest": str,
    "hooks": {"file": str, "wrapper": str, "handler": str | None, "handler_path": str | None,
              "on_path": bool | None,   # the handler (a bare name) is on this machine's PATH
              "timeout": int,
              "events": [{"event": "preToolUse", "key": "PreToolUse", "command": str,
                          "action": {...}, "disable_key": str,
                          "readers": {"copilot-cli" | "vscode" | "cloud-agent":
                                      {"fires": bool, "dialect": str | None, "note": str}}}]},
    "readers": {"copilot-cli" | "vscode" | "cloud-agent": {"title": str, "loads": str}},
    "trust": {"trusted": bool, "via": str | None, "subfolders": [str]},   # config.json trustedFolders
    "other_sources": [{"kind", "path", "events", "readers", "note", "runs_agentdeck"}],
    "cloud_setup": {"wanted": bool, "mode": "file" | "block" | None, "file": str,
                    "spec": str | None, "arg": <the cloud_setup argument>, "note": str},
  }
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..desired import Desired, DesiredState
from ..disk import DiskView
from ..policy import compiled as compiled_policy
from ..errors import UserError
from .registry import TargetSpec
from ..host import Host, HostError
from ..manifest import Manifest
from ..model import Profile
from .base import DEFAULT_OPTIONS, RunOptions, Target
from .wrapper import WRAPPER_MODE

T = "repo"
HOOKS_DIR = ".github/hooks"
HOOKS_FILE = ".github/hooks/agentdeck.json"
WRAPPER = ".github/hooks/agentdeck-hook.sh"
WORKFLOW = ".github/workflows/copilot-setup-steps.yml"
SETUP_JOB = "copilot-setup-steps"
REPO_SETTINGS = (".github/copilot/settings.json", ".github/copilot/settings.local.json")
CLAUDE_SETTINGS = (".claude/settings.json", ".claude/settings.local.json")
HANDLER_PROGRAM = "agentdeck-hook"
#: `cloud_setup` value that takes agentdeck's recorded setup step out again
CLOUD_SETUP_REMOVE = "remove"

# ---- the three readers, as data ------------------------------------------------------------
#: Sources: docs/facts/copilot.md section 9 (Copilot CLI 1.0.102, verified; the cloud agent
#: constraints, the two dialects behind one row, VS Code and cloud agent controls);
#: VS Code's hookTypes.ts HOOKS_BY_TARGET[VSCode] and hookSchema.ts (bash -> linux/osx,
#: timeoutSec -> timeout, cwd relative to the workspace root).
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


def _facts():
    from .copilot import facts
    return facts


def event_key(event: str) -> str:
    """The key agentdeck writes for a Copilot event in the shared repo file: its PascalCase
    alias (accepted by Copilot CLI, needed by VS Code), or the camelCase name when the event has
    no alias (then VS Code never fires it)."""
    facts = _facts()
    for alias, ev in facts.COPILOT.pascal_aliases.items():
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


# ---- paths -----------------------------------------------------------------------------------
def repo_root(repo_dir: str | os.PathLike) -> Path:
    """The repository folder as agentdeck keys it: absolute, symlinks resolved."""
    p = Path(os.path.realpath(os.path.abspath(os.path.expanduser(str(repo_dir)))))
    return p


@dataclass
class RepoHost(Host):
    """The operator's Host with the repository as one more folder agentdeck may change (the
    engine's confinement: manifest entries, deletions and restores must lie inside the home,
    the CLI homes, the state dir -- and, at repository scope, this repository)."""
    repo_root: Path | None = None

    def roots(self) -> list[str]:
        base = getattr(super(), "roots", None)
        out = list(base()) if base is not None else []
        if self.repo_root is not None:
            for s in (os.path.normpath(os.path.abspath(self.repo_root)),
                      os.path.realpath(self.repo_root)):
                if s not in out:
                    out.append(s)
        return out


def with_repo(host: Host, root: Path) -> RepoHost:
    """`host` (same home, env and state dir) allowed to change the repository at `root`."""
    values = {f.name: getattr(host, f.name) for f in dataclasses.fields(Host) if f.init}
    out = RepoHost(**values, repo_root=root)
    for k, v in vars(host).items():          # per-instance state the Host keeps (counters, ...)
        if k not in values and k != "repo_root":
            setattr(out, k, v)
    return out


def manifest_path_for(host: Host, root: Path) -> Path:
    digest = hashlib.sha256(str(root).encode("utf-8")).hexdigest()[:16]
    return host.state_dir / "repos" / f"{digest}.json"


def journal_repo_root(host: Host) -> Path | None:
    """The repository an interrupted apply was changing, or None. Its journal lists every path
    the apply was to write, the repository's manifest among them: a root is accepted only when
    one of agentdeck's repository files lies under it AND the journal writes that root's own
    manifest (`manifest_path_for`), so a journal cannot widen what recovery may touch."""
    from ..apply import journal_path

    try:
        raw = host.read_bytes(journal_path(host))
        obj = json.loads(raw) if raw else None
    except (HostError, ValueError):
        return None
    ops = obj.get("ops") if isinstance(obj, dict) else None
    if not isinstance(ops, list):
        return None
    paths = [r["path"] for r in ops if isinstance(r, dict) and isinstance(r.get("path"), str)]
    manifests = {p for p in paths if Path(p).parent == host.state_dir / "repos"}
    for p in paths:
        for rel in (HOOKS_FILE, WRAPPER, WORKFLOW):
            if p.endswith(os.sep + rel):
                root = Path(p[: -len(rel) - 1])
                if str(manifest_path_for(host, root)) in manifests:
                    return root
    return None


# ---- the committed wrapper -------------------------------------------------------------------
def handler_missing_here(host: Host, prog: str) -> tuple[str, str] | None:
    """None when `prog` (a bare name) is on this machine's PATH, where the committed wrapper
    looks for it; else (the problem, the fix). A handler installed beside agentdeck but not on
    PATH (a venv not activated) counts as missing: the wrapper does not look there."""
    if host.which(prog):
        return None
    from .wrapper import OWN_HANDLER, own_handler

    beside = own_handler(host) if prog == OWN_HANDLER else None
    how = (f"it is installed at {host.display(beside)}: put {host.display(os.path.dirname(beside))} "
           "on PATH" if beside else
           "install it for your user (`pipx install .` from agentdeck's clone puts it in "
           "~/.local/bin)")
    return (f"{prog} is not on this machine's PATH: hooks fire but enforce nothing here (the "
            "committed wrapper finds no handler, exits 0 and every tool call goes through)",
            f"{how}, and start the CLI or VS Code from a shell that has it (docs/repo-scope.md: "
            "the handler on every machine)")


def render_repo_wrapper(argv: list[str]) -> str:
    """The wrapper committed with the repository. Unlike the home wrapper it names no absolute
    path: the handler is found on PATH wherever the hook runs (a teammate's machine, the cloud
    agent's runner), and AGENTDECK_STATE_DIR is left to the handler's default there. A missing
    handler exits 0 with a note on stderr: Copilot's preToolUse treats any other non-zero exit
    as a deny."""
    prog = argv[0]
    qprog = shlex.quote(prog)
    exec_line = " ".join(shlex.quote(a) for a in argv)
    shown = prog.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`")
    return (
        "#!/bin/sh\n"
        "# Written by agentdeck (repository scope): runs the hook handler for one event.\n"
        "# Committed with the repository. Copilot CLI (in a trusted folder), VS Code agent mode\n"
        "# and the Copilot cloud agent run it from the repository root as\n"
        "#   .github/hooks/agentdeck-hook.sh <Event>\n"
        "# It names no path outside the repository: the handler is found on PATH where the hook\n"
        "# runs. Edit the profile and re-apply, not this file.\n"
        "AGENTDECK_EVENT=\"${1:-}\"\n"
        "AGENTDECK_TARGET=repo\n"
        "export AGENTDECK_EVENT AGENTDECK_TARGET\n"
        f"if ! command -v {qprog} >/dev/null 2>&1; then\n"
        f"  echo \"agentdeck: hook handler {shown} not found on PATH; event $AGENTDECK_EVENT "
        "not handled\" >&2\n"
        "  exit 0\n"
        "fi\n"
        f"exec {exec_line} \"$AGENTDECK_EVENT\"\n"
    )


def action_for(key: str, timeout: int) -> dict:
    return {"type": "command", "bash": f"{WRAPPER} {key}", "cwd": ".", "timeoutSec": int(timeout)}


def render_hooks_file(actions: dict[str, dict]) -> str:
    obj = {"version": 1, "hooks": {k: [a] for k, a in actions.items()}}
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


# ---- the cloud agent's setup workflow ----------------------------------------------------------
SETUP_BEGIN = "# >>> agentdeck: hook handler for the Copilot cloud agent (managed) >>>"
SETUP_END = "# <<< agentdeck <<<"


def default_spec() -> str:
    try:
        from importlib.metadata import version
        v = version("agentdeck")
    except Exception:
        v = "0.1.0"
    return f"agentdeck=={v}"


def setup_step(spec: str, indent: str) -> str:
    """Our step's lines (the block body), each prefixed with `indent` (the steps list's)."""
    lines = [
        "- name: Install the agentdeck hook handler (.github/hooks/agentdeck-hook.sh runs it)",
        "  run: |",
        f"    pipx install {shlex.quote(spec)}",
        '    echo "${PIPX_BIN_DIR:-$HOME/.local/bin}" >> "$GITHUB_PATH"',
    ]
    return "".join(indent + ln + "\n" for ln in lines)


def setup_markers(indent: str) -> tuple[str, str]:
    return indent + SETUP_BEGIN, indent + SETUP_END


def render_workflow(spec: str) -> str:
    """The whole copilot-setup-steps.yml for a repository that has none."""
    indent = " " * 6
    begin, end = setup_markers(indent)
    return (
        "# Copilot cloud agent setup: GitHub runs the copilot-setup-steps job before the agent\n"
        "# starts (outside the agent's firewall). Written by agentdeck; the steps outside the\n"
        "# agentdeck markers are yours to add.\n"
        'name: "Copilot Setup Steps"\n'
        "on:\n"
        "  workflow_dispatch:\n"
        "  push:\n"
        "    paths:\n"
        f"      - {WORKFLOW}\n"
        "  pull_request:\n"
        "    paths:\n"
        f"      - {WORKFLOW}\n"
        "jobs:\n"
        f"  {SETUP_JOB}:\n"
        "    runs-on: ubuntu-latest\n"
        "    permissions:\n"
        "      contents: read\n"
        "    steps:\n"
        f"{begin}\n{setup_step(spec, indent)}{end}\n"
    )


_KEY_LINE = re.compile(r"^(?P<indent>\s*)(?P<key>[A-Za-z0-9_.\"'-]+)\s*:\s*(?P<rest>.*)$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _content(line: str) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith("#")


def steps_anchor(text: str) -> tuple[str | None, str]:
    """Where a step can be appended to an existing workflow: (indent of the steps list's items,
    "") when the copilot-setup-steps job's `steps:` block list is the last thing in the file,
    else (None, why). Line-based on purpose (no YAML library): it only accepts the plain block
    layout GitHub's own template uses and refuses everything else."""
    lines = text.splitlines()
    jobs_i = next((i for i, ln in enumerate(lines)
                   if ln.rstrip() == "jobs:" or re.match(r"^jobs\s*:\s*(#.*)?$", ln)), None)
    if jobs_i is None:
        return None, "it has no top-level `jobs:`"
    job_i = job_ind = None
    for i in range(jobs_i + 1, len(lines)):
        ln = lines[i]
        if not _content(ln):
            continue
        if _indent(ln) == 0:
            break
        m = _KEY_LINE.match(ln)
        if m and m.group("key").strip("\"'") == SETUP_JOB and not m.group("rest").split("#")[0].strip():
            job_i, job_ind = i, _indent(ln)
            break
    if job_i is None:
        return None, f"it has no `{SETUP_JOB}` job"
    steps_i = steps_ind = None
    for i in range(job_i + 1, len(lines)):
        ln = lines[i]
        if not _content(ln):
            continue
        if _indent(ln) <= job_ind:
            break
        m = _KEY_LINE.match(ln)
        if m and m.group("key") == "steps":
            if m.group("rest").split("#")[0].strip():
                return None, "its `steps:` is not a block list"
            steps_i, steps_ind = i, _indent(ln)
            break
    if steps_i is None:
        return None, f"its `{SETUP_JOB}` job has no `steps:`"
    item_ind = None
    for i in range(steps_i + 1, len(lines)):
        ln = lines[i]
        if not _content(ln):
            continue
        if _indent(ln) <= steps_ind and not (_indent(ln) == steps_ind and ln.lstrip().startswith("- ")):
            return None, "its steps are not at the end of the file"
        if item_ind is None:
            if not ln.lstrip().startswith("-"):
                return None, "its `steps:` is not a block list"
            item_ind = _indent(ln)
    if "\t" in text:
        return None, "it uses tabs"
    return " " * (item_ind if item_ind is not None else steps_ind + 2), ""


def _marker_indent(text: str) -> str | None:
    for ln in text.splitlines():
        if ln.strip() == SETUP_BEGIN:
            return ln[: len(ln) - len(ln.lstrip(" "))]
    return None


# ---- other hook sources in the repository ----------------------------------------------------
def _json_quiet(view: DiskView, path: Path, *, jsonc: bool) -> Any:
    """Parsed data, None when absent, {"__unreadable__": message} when it does not parse."""
    ld = view.load(path, "jsonc" if jsonc else "json")
    if ld.error is not None:
        return {"__unreadable__": f"line {ld.line}: {ld.error}" if ld.line else ld.error}
    return ld.data if ld.exists else None


def _events_of(data: Any) -> list[str]:
    hooks = data.get("hooks") if isinstance(data, dict) else None
    return list(hooks) if isinstance(hooks, dict) else []


def repo_hook_sources(view: DiskView, root: Path) -> list[dict]:
    """Every other hook source in the repository that one of the three readers loads alongside
    agentdeck's file: (kind, path, events, readers, note, runs_agentdeck, data)."""
    host = view.host
    out: list[dict] = []
    hooks_dir = root / HOOKS_DIR
    for fn in host.listdir(hooks_dir):
        p = hooks_dir / fn
        if not fn.endswith(".json") or p == root / HOOKS_FILE or not host.is_file(p):
            continue
        data = _json_quiet(view, p, jsonc=False)
        out.append({"kind": "repo-hooks-file", "path": str(p), "events": _events_of(data),
                    "readers": ["copilot-cli", "vscode", "cloud-agent"],
                    "note": "another hook file: all three readers run it alongside agentdeck's",
                    "data": data})
    for rel in REPO_SETTINGS:
        p = root / rel
        data = _json_quiet(view, p, jsonc=True)
        if isinstance(data, dict) and "hooks" in data:
            out.append({"kind": "repo-settings-hooks", "path": str(p), "events": _events_of(data),
                        "readers": ["copilot-cli"],
                        "note": "inline hooks in the repository's Copilot settings: Copilot CLI "
                                "runs them alongside agentdeck's", "data": data})
    for rel in CLAUDE_SETTINGS:
        p = root / rel
        data = _json_quiet(view, p, jsonc=True)
        if isinstance(data, dict) and "hooks" in data:
            out.append({"kind": "repo-claude-hooks", "path": str(p), "events": _events_of(data),
                        "readers": ["copilot-cli", "vscode"],
                        "note": "Claude-format hooks: Copilot CLI and VS Code run them too "
                                "(the cloud agent does not)", "data": data})
    for src in out:
        src["runs_agentdeck"] = HANDLER_PROGRAM in json.dumps(src["data"]) if src["data"] else False
    return out


def trust_of(view: DiskView, root: Path) -> dict[str, Any]:
    """Whether Copilot CLI loads the repository's hooks here: the repository or one of its
    ancestors in config.json `trustedFolders` (the only thing read from that file; observed on
    1.0.102: an ancestor's trust covers the folders below it), or COPILOT_ALLOW_ALL=true."""
    from .copilot.hooks import trusted_folders

    host = view.host
    folders = trusted_folders(view)
    via = None
    subfolders: list[str] = []
    for f in folders:
        fp = Path(os.path.realpath(os.path.expanduser(f)))
        if fp == root or fp in root.parents:
            if via is None or len(str(fp)) > len(via):
                via = str(fp)
        elif root in fp.parents:
            subfolders.append(str(fp))
    allow_all = host.env.get("COPILOT_ALLOW_ALL") == "true"
    return {"trusted": via is not None or allow_all, "via": via, "subfolders": subfolders,
            "allow_all": allow_all, "config": str(host.copilot_home / "config.json")}


# ---- the adapter -----------------------------------------------------------------------------
#: the repository scope's one target (not in the registry's home targets: core/scopes.py
#: plans it); its manifest is in the state dir, keyed by the repository (manifest_path_for)
SPEC = TargetSpec(name=T, title="Repository (.github/hooks)", short="Repository",
                  binary="copilot", npm_package="@github/copilot", home_env="", home_dirname="",
                  package=__package__, adapter_module=__name__, adapter_class="RepoTarget")


class RepoTarget(Target):
    """A target that plans into a repository instead of the home."""
    spec = SPEC
    title = SPEC.title          # a class attribute too (titles for renderers before an instance)

    def __init__(self, repo_dir: str | os.PathLike, cloud_setup: bool | str = False):
        self.root = repo_root(repo_dir)
        self.cloud_setup = cloud_setup

    def manifest_path(self, host: Host) -> Path:
        return manifest_path_for(host, self.root)

    def check_root(self, host: Host) -> None:
        if not host.is_dir(self.root):
            raise UserError("not a folder (--repo needs the repository's folder)",
                            path=str(self.root))
        if self.root == Path(os.path.realpath(host.home)):
            raise UserError("this is the home itself, not a repository; plan the home without "
                            "--repo", path=str(self.root))

    # -------------------------------------------------------------------------------------------
    def desired(self, profile: Profile, view: DiskView,
                options: RunOptions = DEFAULT_OPTIONS) -> DesiredState:
        host = view.host
        if options.cloud_setup is not False:
            self.cloud_setup = options.cloud_setup
        self.check_root(host)
        st = DesiredState(T)
        root = self.root
        manifest = view.manifest(T, self.manifest_path(host))
        st.info = {"root": str(root), "manifest": str(self.manifest_path(host)),
                   "readers": {k: dict(v) for k, v in READERS.items()}}
        if not host.exists(root / ".git"):
            st.note(f"{root} has no .git: the cloud agent reads these hooks only from a GitHub "
                    "repository's default branch, so commit and push them there")
        self._hooks(profile, view, st)
        self._cloud_setup(profile, view, manifest, st)
        return st

    # ---- hooks ---------------------------------------------------------------------------------
    def _hooks(self, profile: Profile, view: DiskView, st: DesiredState) -> None:
        from .copilot import hooks as copilot_hooks

        host = view.host
        from .wrapper import resolve_handler

        facts = _facts()
        root = self.root
        info: dict[str, Any] = {
            "file": str(root / HOOKS_FILE), "wrapper": str(root / WRAPPER),
            "handler": profile.hooks.command, "handler_path": None, "on_path": None,
            "timeout": profile.hooks.timeout, "events": []}
        st.info["hooks"] = info
        st.info["trust"] = trust_of(view, root)
        sources = repo_hook_sources(view, root)
        st.info["other_sources"] = [{k: v for k, v in s.items() if k != "data"} for s in sources]
        if not profile.hooks.command:
            st.warn("the profile names no hook handler ([hooks] command); no repository hooks "
                    "are planned")
            return
        try:
            argv = shlex.split(profile.hooks.command)
        except ValueError as e:
            st.warn(f"the hook handler command {profile.hooks.command!r} cannot be parsed ({e}); "
                    "no repository hooks are planned")
            return
        if not argv:
            st.warn("the hook handler command is empty; no repository hooks are planned")
            return
        handler = resolve_handler(host, profile.hooks.command)
        info["handler_path"] = handler.resolved
        prog = argv[0]
        if os.path.isabs(os.path.expanduser(prog)) or prog.startswith("~"):
            st.warn(f"the hook handler {prog!r} is a path on this machine: teammates' clones and "
                    "the cloud agent will not have it (the wrapper then exits 0 and nothing is "
                    f"handled); a handler found on PATH, like {HANDLER_PROGRAM}, travels")
        else:
            missing = handler_missing_here(host, prog)
            info["on_path"] = missing is None
            if missing:
                st.warn("; ".join(missing))
        events, warns = copilot_hooks.registered_events(profile)
        for w in warns:
            st.warn(w)
        if not events:
            st.warn("no hook events left to register")
            return
        actions: dict[str, dict] = {}
        for ev in events:
            key = event_key(ev)
            act = action_for(key, profile.hooks.timeout)
            actions[key] = act
            readers = reader_view(ev, key)
            info["events"].append({"event": ev, "key": key, "command": act["bash"], "action": act,
                                   "disable_key": facts.copilot_disable_key(key, act),
                                   "readers": readers})
        st.add(Desired(T, root / WRAPPER, "file", render_repo_wrapper(argv), mode=WRAPPER_MODE,
                       label=WRAPPER, group="hooks",
                       reason=f"committed and executable: runs the profile's handler "
                              f"({profile.hooks.command}) found on PATH where the hook runs; "
                              "names no path outside the repository"))
        compiled_policy.add_to(st, profile, host, T, root)
        keys = ", ".join(actions)
        st.add(Desired(T, root / HOOKS_FILE, "file", render_hooks_file(actions),
                       label=f"{HOOKS_FILE} ({len(actions)} events)", group="hooks",
                       reason=f"one file for Copilot CLI, VS Code and the cloud agent: {keys} as "
                              f"`{WRAPPER} <Event>` run from the repository root (cwd \".\"), "
                              f"timeoutSec {profile.hooks.timeout}; PascalCase keys, which every "
                              "reader accepts"))
        # what each reader does, per event
        st.note("one hook file, three readers: " + "; ".join(
            f"{v['title']} reads it {v['loads']}" for v in READERS.values()))
        for e in info["events"]:
            st.note(describe_event(e["key"], e["event"], e["readers"]))
        st.note("payload dialects: snake_case = " + DIALECTS["copilot-pascal"] + "; VS Code = "
                + DIALECTS["vscode"] + "; the default handler (AGENTDECK_TARGET=repo) reads both")
        st.warn("the actions have a `bash` command only: the cloud agent runs nothing else, and "
                "on Windows (no POSIX shell) Copilot CLI and VS Code have no command to run for "
                "them")
        trust = st.info["trust"]
        if trust["trusted"]:
            via = ("COPILOT_ALLOW_ALL=true" if trust["via"] is None
                   else ("this folder" if trust["via"] == str(root) else trust["via"]))
            st.note(f"Copilot CLI trusts this repository ({via}, in {host.display(trust['config'])}"
                    " trustedFolders): its sessions here load these hooks")
        else:
            extra = (f" (only subfolders are: {', '.join(trust['subfolders'])})"
                     if trust["subfolders"] else "")
            st.warn(f"Copilot CLI does not trust this folder{extra}: it loads repository hooks "
                    "only in a trusted folder. Trust it when Copilot asks at startup (agentdeck "
                    "never writes config.json)")
        home_hooks = host.copilot_home / "hooks" / copilot_hooks.HOOKS_FILE
        if view.state(home_hooks).exists:
            st.warn(f"{host.display(home_hooks)} also registers agentdeck's hooks for Copilot CLI: "
                    "in a trusted repository it runs both, so each event is handled twice "
                    "(audit records with target copilot and target repo)")
        for src in sources:
            rel = os.path.relpath(src["path"], root)
            data = src["data"]
            if isinstance(data, dict) and "__unreadable__" in data:
                st.warn(f"other hook source {rel} does not parse ({data['__unreadable__']})")
                continue
            ev = f" ({', '.join(src['events'])})" if src["events"] else ""
            readers = ", ".join(READERS[r]["title"] for r in src["readers"])
            level = st.warn if src["runs_agentdeck"] else st.note
            dup = "; it runs agentdeck's handler too, so those events fire twice" \
                if src["runs_agentdeck"] else ""
            level(f"other hook source: {rel}{ev}: read by {readers}{dup}")
        info["byte_stable"] = ("the registered action names the committed wrapper, not the "
                               "handler: changing the handler leaves every action and its "
                               "disable key unchanged")

    # ---- cloud setup ---------------------------------------------------------------------------
    def _cloud_setup(self, profile: Profile, view: DiskView, manifest: Manifest,
                     st: DesiredState) -> None:
        root = self.root
        path = root / WORKFLOW
        arg = self.cloud_setup
        recorded = [e for e in manifest.entries.values() if e.path == str(path)]
        rec_spec = next((e.meta.get("spec") for e in recorded
                         if isinstance(e.meta, dict) and e.meta.get("spec")), None)
        info: dict[str, Any] = {"wanted": False, "mode": None, "file": str(path), "spec": None,
                                "arg": arg, "note": ""}
        st.info["cloud_setup"] = info
        if arg == CLOUD_SETUP_REMOVE or (arg is False and not recorded):
            info["note"] = ("not requested (--cloud-setup adds a step that installs the handler "
                            "for the cloud agent)")
            return
        if isinstance(arg, str) and arg.strip():
            spec, explicit = arg.strip(), True
        else:
            spec, explicit = rec_spec or default_spec(), bool(rec_spec)
        prog = shlex.split(profile.hooks.command)[0] if profile.hooks.command else None
        if prog and os.path.basename(prog) != HANDLER_PROGRAM and not explicit:
            info["note"] = (f"the profile's handler {prog!r} is not agentdeck's; name what installs "
                            "it with --cloud-setup=SPEC (a pip/pipx requirement)")
            st.warn("cloud setup step not planned: " + info["note"])
            return
        info.update(wanted=True, spec=spec)
        text = view.text(path)
        kinds = {e.kind for e in recorded}
        mode = "file" if "file" in kinds else "block" if "block" in kinds else (
            "file" if text is None else "block")
        warnings = []
        if not explicit:
            warnings.append(f"installs `{spec}` with pipx from PyPI; if your team installs "
                            "agentdeck from elsewhere, pass --cloud-setup=SPEC (a git URL, a "
                            "wheel path in the repository)")
        reason = ("GitHub runs the copilot-setup-steps job before the cloud agent starts: this "
                  f"step installs the hook handler ({spec}) so the committed wrapper finds it")
        if mode == "file":
            info["mode"] = "file"
            st.add(Desired(T, path, "file", render_workflow(spec), label=WORKFLOW, group="cloud",
                           reason=reason, warnings=warnings, meta={"spec": spec}))
            return
        indent = _marker_indent(text or "")
        why = ""
        if indent is None:
            indent, why = steps_anchor(text or "")
        if indent is None:
            info["note"] = (f"{WORKFLOW} exists and agentdeck cannot place its step safely ({why}); "
                            "add the step by hand")
            st.warn(info["note"] + ":\n" + setup_step(spec, "      ").rstrip("\n"))
            return
        info["mode"] = "block"
        begin, end = setup_markers(indent)
        st.add(Desired(T, path, "block", setup_step(spec, indent), markers=(begin, end),
                       placement="bottom", label=f"{WORKFLOW} (agentdeck's step)", group="cloud",
                       reason=reason + "; your other steps are kept", warnings=warnings,
                       meta={"spec": spec}))
