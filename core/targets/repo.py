"""Repository scope: the hooks a repository carries for several readers at once.

    plan = engine.build_repo_plan(host, "/path/to/repo", "default")

Unlike the home targets, this adapter plans into a repository (`RepoTarget(root)`); its
manifest lives in agentdeck's state dir, keyed by the repository's path
(`<state dir>/repos/<sha256(real path)[:16]>.json`), never inside the repository. Plan, apply,
manifest and uninstall are the engine's own.

What a CLI reads from a repository is its target's `repo` part (core/targets/parts/repo.py):
this module loops over the registry's targets and asks each. One part carries agentdeck's hook
file (`CARRIER`, the part with `FACTS.hooks`): today Copilot's `.github/hooks/*.json`, read by
Copilot CLI (in a trusted folder), VS Code agent mode and the Copilot cloud agent
(core/targets/copilot/repo.py says who reads what, with which payload). The other parts name
the repository files their CLI reads hooks from (reported as other hook sources; a switch in
them that turns hooks off, by the doctor).

Items (group in brackets), every path inside the repository (the carrier's paths; Copilot's
shown):

  [hooks]  .github/hooks/agentdeck-hook.sh (file, 0755)  the committed wrapper: finds the profile's
                                                          handler on PATH where it runs; no path
                                                          outside the repository
           .github/hooks/agentdeck.json (file)            one action per event (the carrier's
                                                          `action`):
               {"type": "command", "bash": ".github/hooks/agentdeck-hook.sh <Key>",
                "cwd": ".", "timeoutSec": 30}
  [cloud]  .github/workflows/copilot-setup-steps.yml      only on request (`--cloud-setup`): a step
                                                          that installs the handler for the cloud
                                                          agent; the whole file when there is none,
                                                          else a managed block at the end of the
                                                          setup job's steps (or a notice when it
                                                          cannot be placed safely)

The default handler (agentdeck.core.hookhandler, with AGENTDECK_TARGET=repo) tells the readers'
payloads apart. `cwd: "."` is the repository root for every reader, so the relative command
also works in a session started in a subfolder and in the cloud agent's fresh clone.

Its report is typed (TargetOutput.repo, a RepoReport of core/targets/output.py; paths
absolute): the root and manifest, the carrier's readers (RepoReaderInfo), agentdeck's hook file
(RepoHooks: the wrapper, the handler and whether it is on this machine's PATH, each event as a
RepoEventInfo with what each reader does with it, a RepoReaderCell), the carrier's trust
(RepoTrust), the other hook sources (RepoHookSource) and the cloud setup step
(RepoCloudSetup). The repository pane (core/views/repo.py) and the doctor's repository checks
read it.
"""
from __future__ import annotations

import dataclasses
import fnmatch
import hashlib
import json
import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..desired import Desired, DesiredState
from ..disk import DiskView
from ..policy import compiled as compiled_policy
from ..errors import UserError
from . import registry
from .parts.repo import HookSwitch, RepoFile, RepoReader
from .registry import TargetSpec
from ..host import Host, HostError
from ..manifest import Manifest
from ..model import Profile
from .base import DEFAULT_OPTIONS, RunOptions, Target
from .output import (RepoCloudSetup, RepoEventInfo, RepoHooks, RepoHookSource, RepoReaderCell,
                     RepoReaderInfo, RepoReport, RepoTrust)
from .wrapper import WRAPPER_MODE

T = "repo"
HANDLER_PROGRAM = "agentdeck-hook"
#: `cloud_setup` value that takes agentdeck's recorded setup step out again
CLOUD_SETUP_REMOVE = "remove"


# ---- the targets' repo parts -----------------------------------------------------------------
def parts() -> list[tuple[str, Any]]:
    """(target name, repo part) of every registered target that has one, in display order."""
    return [(s.name, registry.part(s.name, "repo")) for s in registry.TARGETS
            if registry.has_part(s.name, "repo")]


def carrier() -> tuple[str, Any]:
    """(target name, repo part) of the target that carries agentdeck's repository hook file."""
    found = [(n, p) for n, p in parts() if p.FACTS.hooks is not None]
    if len(found) != 1:
        raise RuntimeError("exactly one registered target's repo part must carry the repository "
                           f"hook file (FACTS.hooks); found {[n for n, _ in found] or 'none'}")
    return found[0]


def all_readers() -> dict[str, RepoReader]:
    """Every reader any target's repo part names, by id."""
    out: dict[str, RepoReader] = {}
    for _, p in parts():
        out.update(p.FACTS.readers)
    return out


def repo_files() -> list[RepoFile]:
    """Every repository file a reader loads hooks from, besides agentdeck's (display order)."""
    return [f for _, p in parts() for f in p.FACTS.files]


CARRIER_NAME, CARRIER = carrier()
_HOOKS = CARRIER.FACTS.hooks
HOOKS_DIR: str = _HOOKS.dir
HOOKS_FILE: str = _HOOKS.file
WRAPPER: str = _HOOKS.wrapper
_SETUP = _HOOKS.setup
WORKFLOW: str = _SETUP.path if _SETUP is not None else ""
SETUP_JOB: str = _SETUP.job if _SETUP is not None else ""
SETUP_BEGIN: str = _SETUP.begin if _SETUP is not None else ""
SETUP_END: str = _SETUP.end if _SETUP is not None else ""
#: the readers of agentdeck's hook file (RepoReport.readers)
READERS: dict[str, dict[str, str]] = {
    k: {"title": CARRIER.FACTS.readers[k].title, "loads": CARRIER.FACTS.readers[k].loads}
    for k in _HOOKS.readers}
REJECTED_KEYS = dict(_HOOKS.rejected_keys)
DIALECTS = dict(_HOOKS.dialects)
event_key = CARRIER.event_key
reader_view = CARRIER.reader_view
trust_of = CARRIER.trust


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
            if rel and p.endswith(os.sep + rel):
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
        f"{_HOOKS.wrapper_comment}"
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


# ---- the cloud reader's setup workflow (the carrier's SetupWorkflow) --------------------------

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
        f"- name: Install the agentdeck hook handler ({WRAPPER} runs it)",
        "  run: |",
        f"    pipx install {shlex.quote(spec)}",
        '    echo "${PIPX_BIN_DIR:-$HOME/.local/bin}" >> "$GITHUB_PATH"',
    ]
    return "".join(indent + ln + "\n" for ln in lines)


def setup_markers(indent: str) -> tuple[str, str]:
    return indent + SETUP_BEGIN, indent + SETUP_END


def render_workflow(spec: str) -> str:
    """The whole setup workflow for a repository that has none."""
    indent = " " * 6
    begin, end = setup_markers(indent)
    return (
        f"{_SETUP.header}"
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
        f"    runs-on: {_SETUP.runs_on}\n"
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
    "") when the setup job's (SETUP_JOB) `steps:` block list is the last thing in the file,
    else (None, why). Line-based on purpose (no YAML library): it only accepts the plain block
    layout GitHub's own template uses and refuses everything else."""
    lines = text.splitlines()
    jobs_i = next((i for i, ln in enumerate(lines)
                   if ln.rstrip() == "jobs:" or re.match(r"^jobs\s*:\s*(#.*)?$", ln)), None)
    if jobs_i is None:
        return None, "it has no top-level `jobs:`"
    job_i: int | None = None
    job_ind = 0
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
    steps_i: int | None = None
    steps_ind = 0
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
    item_ind: int | None = None
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


def _paths(host: Host, root: Path, f: RepoFile) -> list[Path]:
    """The files `f` names in the repository ("<dir>/*.json": each such file of the folder)."""
    folder, _, pattern = f.path.rpartition("/")
    if not any(c in pattern for c in "*?["):
        return [root / f.path]
    return [root / folder / fn for fn in host.listdir(root / folder)
            if fnmatch.fnmatchcase(fn, pattern)]


def repo_hook_sources(view: DiskView, root: Path) -> list[dict]:
    """Every other hook source in the repository that a reader loads, as the targets' repo parts
    name them (RepoFile): (kind, path, events, readers, note, runs_agentdeck, data)."""
    host = view.host
    out: list[dict] = []
    for f in repo_files():
        for p in _paths(host, root, f):
            if p == root / HOOKS_FILE:
                continue
            if f.hook_file:
                if not host.is_file(p):
                    continue
                data = _json_quiet(view, p, jsonc=f.jsonc)
            else:
                data = _json_quiet(view, p, jsonc=f.jsonc)
                if not (isinstance(data, dict) and "hooks" in data):
                    continue
            out.append({"kind": f.kind, "path": str(p), "events": _events_of(data),
                        "readers": list(f.readers), "note": f.note, "data": data})
    for src in out:
        src["runs_agentdeck"] = HANDLER_PROGRAM in json.dumps(src["data"]) if src["data"] else False
    return out


def reads_ours(src: dict) -> bool:
    """Whether a reader of this other source reads agentdeck's hook file too (then an event both
    register fires twice in it)."""
    return bool(set(src["readers"]) & set(READERS))


def switch_files(host: Host, root: Path) -> list[tuple[Path, HookSwitch]]:
    """Every file with a switch that turns hooks off, in the order the doctor reports them: the
    carrier's home files, then the repository's (the targets' repo parts, display order)."""
    out: list[tuple[Path, HookSwitch]] = list(CARRIER.home_switches(host))
    for f in repo_files():
        if f.switch is not None:
            out += [(p, f.switch) for p in _paths(host, root, f)]
    return out


# ---- the adapter -----------------------------------------------------------------------------
#: the repository scope's one target (not in the registry's home targets: core/scopes.py
#: plans it); its manifest is in the state dir, keyed by the repository (manifest_path_for)
_CARRIER_SPEC = registry.spec(CARRIER_NAME)
SPEC = TargetSpec(name=T, title=f"Repository ({HOOKS_DIR})", short="Repository",
                  binary=_CARRIER_SPEC.binary, npm_package=_CARRIER_SPEC.npm_package,
                  home_env="", home_dirname="",
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
        if not host.exists(root / ".git"):
            st.note(f"{root} has no .git: the cloud agent reads these hooks only from a GitHub "
                    "repository's default branch, so commit and push them there")
        self._hooks(profile, view, st)
        self._cloud_setup(profile, view, manifest, st)
        return st

    # ---- hooks ---------------------------------------------------------------------------------
    def _hooks(self, profile: Profile, view: DiskView, st: DesiredState) -> None:
        from .wrapper import resolve_handler

        host = view.host
        root = self.root
        info = RepoHooks(file=str(root / HOOKS_FILE), wrapper=str(root / WRAPPER),
                         handler=profile.hooks.command, timeout=profile.hooks.timeout)
        trust = trust_of(view, root)
        sources = repo_hook_sources(view, root)
        st.output.repo = RepoReport(
            root=str(root), manifest=str(self.manifest_path(host)),
            readers=MappingProxyType({k: RepoReaderInfo(v["title"], v["loads"])
                                      for k, v in READERS.items()}),
            hooks=info, trust=RepoTrust(
                trusted=bool(trust.get("trusted")), via=trust.get("via"),
                subfolders=tuple(trust.get("subfolders") or ()),
                allow_all=bool(trust.get("allow_all")), config=str(trust.get("config") or "")),
            other_sources=tuple(RepoHookSource(
                kind=s["kind"], path=s["path"], events=tuple(s["events"]),
                readers=tuple(s["readers"]), note=s["note"],
                runs_agentdeck=bool(s["runs_agentdeck"])) for s in sources))
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
        info.handler_path = handler.resolved
        prog = argv[0]
        if os.path.isabs(os.path.expanduser(prog)) or prog.startswith("~"):
            st.warn(f"the hook handler {prog!r} is a path on this machine: teammates' clones and "
                    "the cloud agent will not have it (the wrapper then exits 0 and nothing is "
                    f"handled); a handler found on PATH, like {HANDLER_PROGRAM}, travels")
        else:
            missing = handler_missing_here(host, prog)
            info.on_path = missing is None
            if missing:
                st.warn("; ".join(missing))
        events, warns = CARRIER.registered_events(profile)
        for w in warns:
            st.warn(w)
        if not events:
            st.warn("no hook events left to register")
            return
        actions: dict[str, dict] = {}
        rows: list[dict[str, Any]] = []          # the carrier's plan lines read these
        for ev in events:
            key = event_key(ev)
            act = CARRIER.action(key, profile.hooks.timeout)
            actions[key] = act
            readers = reader_view(ev, key)
            rows.append({"event": ev, "key": key, "command": act["bash"], "action": act,
                         "disable_key": CARRIER.disable_key(key, act), "readers": readers})
        info.events = tuple(RepoEventInfo(
            event=r["event"], key=r["key"], command=r["command"], action=r["action"],
            disable_key=r["disable_key"],
            readers=MappingProxyType({k: RepoReaderCell(bool(v.get("fires")), v.get("dialect"),
                                                        str(v.get("note") or ""))
                                      for k, v in r["readers"].items()}))
            for r in rows)
        st.add(Desired(T, root / WRAPPER, "file", render_repo_wrapper(argv), mode=WRAPPER_MODE,
                       label=WRAPPER, group="hooks",
                       reason=f"committed and executable: runs the profile's handler "
                              f"({profile.hooks.command}) found on PATH where the hook runs; "
                              "names no path outside the repository"))
        compiled_policy.add_to(st, profile, host, T, root)
        keys = ", ".join(actions)
        st.add(Desired(T, root / HOOKS_FILE, "file", CARRIER.render_hooks_file(actions),
                       label=f"{HOOKS_FILE} ({len(actions)} events)", group="hooks",
                       reason=CARRIER.file_reason(keys, profile.hooks.timeout)))
        # what each reader does, per event, and whether the carrier's CLI loads the file here
        for line in CARRIER.plan_lines(rows, trust, root, host):
            (st.warn if line.level == "warn" else st.note)(line.message)
        home_hooks = CARRIER.home_hooks(host)
        if view.state(home_hooks).exists:
            line = CARRIER.home_twice(host.display(home_hooks))
            (st.warn if line.level == "warn" else st.note)(line.message)
        titles = all_readers()
        for src in sources:
            rel = os.path.relpath(src["path"], root)
            data = src["data"]
            if isinstance(data, dict) and "__unreadable__" in data:
                st.warn(f"other hook source {rel} does not parse ({data['__unreadable__']})")
                continue
            ev = f" ({', '.join(src['events'])})" if src["events"] else ""
            readers = ", ".join(titles[r].title for r in src["readers"])
            twice = src["runs_agentdeck"] and reads_ours(src)
            level = st.warn if twice else st.note
            dup = ("; it runs agentdeck's handler too, so those events fire twice" if twice else
                   "; it runs agentdeck's handler too (with agentdeck's hooks in the home for "
                   "that CLI, those events fire twice)" if src["runs_agentdeck"] else "")
            level(f"other hook source: {rel}{ev}: read by {readers}{dup}")
        info.byte_stable = ("the registered action names the committed wrapper, not the "
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
        info = RepoCloudSetup(file=str(path), arg=arg)
        if st.output.repo is not None:
            st.output.repo.cloud_setup = info
        if _SETUP is None:          # the carrier's cloud reader has no setup workflow
            info.note = "no setup workflow is known for the readers of this hook file"
            if arg not in (False, CLOUD_SETUP_REMOVE):
                st.warn("cloud setup step not planned: " + info.note)
            return
        if arg == CLOUD_SETUP_REMOVE or (arg is False and not recorded):
            info.note = ("not requested (--cloud-setup adds a step that installs the handler "
                         "for the cloud agent)")
            return
        if isinstance(arg, str) and arg.strip():
            spec, explicit = arg.strip(), True
        else:
            spec, explicit = rec_spec or default_spec(), bool(rec_spec)
        prog = shlex.split(profile.hooks.command)[0] if profile.hooks.command else None
        if prog and os.path.basename(prog) != HANDLER_PROGRAM and not explicit:
            info.note = (f"the profile's handler {prog!r} is not agentdeck's; name what installs "
                         "it with --cloud-setup=SPEC (a pip/pipx requirement)")
            st.warn("cloud setup step not planned: " + info.note)
            return
        info.wanted, info.spec = True, spec
        text = view.text(path)
        kinds = {e.kind for e in recorded}
        mode = "file" if "file" in kinds else "block" if "block" in kinds else (
            "file" if text is None else "block")
        warnings = []
        if not explicit:
            warnings.append(f"installs `{spec}` with pipx from PyPI; if your team installs "
                            "agentdeck from elsewhere, pass --cloud-setup=SPEC (a git URL, a "
                            "wheel path in the repository)")
        reason = (f"GitHub runs the {SETUP_JOB} job before the cloud agent starts: this "
                  f"step installs the hook handler ({spec}) so the committed wrapper finds it")
        if mode == "file":
            info.mode = "file"
            st.add(Desired(T, path, "file", render_workflow(spec), label=WORKFLOW, group="cloud",
                           reason=reason, warnings=warnings, meta={"spec": spec}))
            return
        indent = _marker_indent(text or "")
        why = ""
        if indent is None:
            indent, why = steps_anchor(text or "")
        if indent is None:
            info.note = (f"{WORKFLOW} exists and agentdeck cannot place its step safely ({why}); "
                         "add the step by hand")
            st.warn(info.note + ":\n" + setup_step(spec, "      ").rstrip("\n"))
            return
        info.mode = "block"
        begin, end = setup_markers(indent)
        st.add(Desired(T, path, "block", setup_step(spec, indent), markers=(begin, end),
                       placement="bottom", label=f"{WORKFLOW} (agentdeck's step)", group="cloud",
                       reason=reason + "; your other steps are kept", warnings=warnings,
                       meta={"spec": spec}))
