"""`agentdeck doctor --repo DIR`: what each reader will do with a repository's hooks.

    from agentdeck.core.doctor.repo_checks import repo_findings
    findings = repo_findings(host, "/path/to/repo", "default", live=False)

Every Finding has target "repo" and a check id `repo.<area>.<what>`; its path is relative to
the repository when the file is inside it (else shown with the home as `~`). What a CLI reads
from a repository is its target's repo part (core/targets/parts/repo.py); the checks loop over
them (core.targets.repo: parts, the CARRIER of agentdeck's hook file). Static checks read files
only: the carrier's hook files (`.github/hooks/*.json`) and setup workflow, each part's
repository files (`.github/copilot/settings*.json`, `.claude/settings*.json`,
`.qwen/settings.json`) and the carrier's home files with a switch (Copilot's `settings.json`:
disableAllHooks) and its trust (`config.json`, of which only `trustedFolders` is read, never
printed beyond the folders that concern this repository). `git` is asked (read-only) whether the
files are committed, executable and not ignored. `live` also asks the carrier's installed CLI
(Copilot's `hooks.discover` with projectPaths = the repository), which runs no hook.
"""
from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any, Callable

from .. import engine
from ..disk import DiskView
from ..errors import UserError
from ..host import Host
from ..plan import KEPT_CLASSES, Plan
from ..targets import repo as R
from ..targets.parts.repo import HookCommand, line_of
from ..targets.repo import HANDLER_PROGRAM, handler_missing_here, repo_root, with_repo
from . import report
from .findings import Finding
from ..wording import count_of

T = "repo"


class _Out:
    """Collects findings; a path inside the repository is shown relative to it, any other with
    the home as `~`."""
    def __init__(self, host: Host, root: Path):
        self.host = host
        self.root = root
        self.view = DiskView(host)     # the one reader, shared with the repository plan
        self.findings: list[Finding] = []

    def show(self, path) -> str:
        p = Path(path)
        if p == self.root:
            return str(p)
        try:
            return str(p.relative_to(self.root))
        except ValueError:
            return self.host.display(p)

    def add(self, result: str, check: str, message: str, fix: str = "", path=None,
            line: int | None = None, live: bool = False) -> None:
        self.findings.append(Finding(T, result, check, " ".join(message.split()),
                                     " ".join(fix.split()),
                                     self.show(path) if path is not None else None,
                                     line, live))


def _rel(root: Path, p: str | Path) -> str:
    try:
        return str(Path(p).relative_to(root))
    except ValueError:
        return str(p)


def _load(view, path: Path, jsonc: bool) -> tuple[str | None, Any, str | None]:
    """(text, data, parse error) of a JSON file; (None, None, None) when absent. Read through
    the one reader (core.disk), so the message is the plan's."""
    ld = view.load(path, "jsonc" if jsonc else "json")
    if ld.error is not None:
        err = f"line {ld.line}: {ld.error}" if ld.line else ld.error
        if ld.text is None:     # unreadable, as the host says it: path[:line:col]: message
            where = f"{path}:{ld.line}:{ld.col}" if ld.line else str(path)
            err = f"{where}: {ld.error}"
        return ld.text, None, err
    return ld.text, ld.data, None


# ---- checks ----------------------------------------------------------------------------------
def _plan(host: Host, root: Path, profile: str, out: _Out) -> Any:
    try:
        plan: Plan = engine.build_plan(host, profile, scope=engine.RepoScope(root),
                                       view=out.view)
    except UserError as e:
        out.add("error", "repo.plan", f"the repository plan cannot be computed: {e}",
                fix="fix the file it names, then run the doctor again")
        return None
    pending = [i for i in plan.items if plan.action(i) in ("write", "remove")]
    kept = [i for i in plan.items if i.cls in KEPT_CLASSES]
    if pending:
        out.add("warning", "repo.plan",
                f"{count_of(len(pending), 'change')} pending: "
                + ", ".join(f"{i.cls} {i.label}" for i in pending[:4]),
                fix=f"review with `agentdeck plan --repo {root}`, then `agentdeck apply --repo "
                    f"{root}` and commit the files")
    for i in kept:
        out.add("warning", "repo.plan", f"{i.label}: {i.cls}: {i.reason}", path=i.path,
                fix="keep yours, or take the profile's with `agentdeck apply --repo ... --take "
                    f"{i.label.split(' ')[0]}`")
    if not pending and not kept:
        out.add("ok", "repo.plan", "the repository's hooks are as the profile wants")
    return plan


def _handler(host: Host, plan: Any, out: _Out) -> None:
    """Whether the committed wrapper finds the profile's handler on this machine's PATH: without
    it every hook fires, exits 0 and enforces nothing."""
    got = plan.output.get("repo") if plan is not None else None
    hooks = got.repo.hooks if got is not None and got.repo is not None else None
    if hooks is None or hooks.on_path is None:   # no handler planned, or a path: the plan says why
        return
    cmd = str(hooks.handler or HANDLER_PROGRAM)
    prog = shlex.split(cmd)[0] if cmd.strip() else HANDLER_PROGRAM
    missing = handler_missing_here(host, prog)
    if missing:
        out.add("warning", "repo.handler", missing[0], fix=missing[1])
    else:
        out.add("ok", "repo.handler", f"{prog} is on this machine's PATH "
                f"({host.display(host.which(prog) or prog)}): the committed wrapper runs it")


_COUNT = ("no", "one", "two", "three", "four", "five", "six")


def _hook_file_checks(host: Host, root: Path, out: _Out) -> dict[str, Any]:
    """Parse every hook file of the carrier's folder (.github/hooks/*.json); the carrier checks
    each event key and action against its readers (hook_file_rows), the commands are checked
    here. Returns {path: data} of the files that parse."""
    C = R.CARRIER
    parsed: dict[str, Any] = {}
    hooks_dir = root / R.HOOKS_DIR
    files = [hooks_dir / f for f in host.listdir(hooks_dir)
             if f.endswith(".json") and host.is_file(hooks_dir / f)]
    if not files:
        n = len(R.READERS)
        out.add("warning", "repo.hooks.file", f"{R.HOOKS_DIR} has no hook files: none of the "
                f"{_COUNT[n] if n < len(_COUNT) else n} readers runs a repository hook here",
                fix=f"agentdeck apply --repo {root}")
        return parsed
    for p in files:
        rel = _rel(root, p)
        text, data, err = _load(out.view, p, jsonc=False)
        if err:
            row = C.unparsed_row(rel, err)
            out.add(row.result, f"repo.{row.check}", row.message, fix=row.fix, path=p,
                    line=row.line)
            continue
        if isinstance(data, dict) and isinstance(data.get("hooks"), dict):
            parsed[str(p)] = data
        for item in C.hook_file_rows(rel, text, data):
            if isinstance(item, HookCommand):
                _command_target(host, root, rel, p, item.key, item.event, item.command, item.cwd,
                                text, out)
            else:
                out.add(item.result, f"repo.{item.check}", item.message, fix=item.fix, path=p,
                        line=item.line)
    return parsed


def _command_target(host: Host, root: Path, rel: str, p: Path, key: str, event: str, bash: str,
                    cwd: Any, text: str | None, out: _Out) -> None:
    """A command that runs a script by a relative path must find it from the hook's working
    directory (the repository root, or `cwd` relative to it) in a fresh clone."""
    try:
        words = shlex.split(bash)
    except ValueError:
        return
    if not words:
        return
    prog = words[0]
    if os.path.isabs(prog) or "/" not in prog or "$" in prog:
        if os.path.isabs(prog) and not str(Path(prog)).startswith(str(root)):
            out.add("warning", "repo.hooks.portable", f"{rel}: {key} runs {prog}, a path on this "
                    "machine: teammates' clones and the cloud agent do not have it", path=p,
                    line=line_of(text, prog))
        return
    base = root / (cwd if isinstance(cwd, str) and not os.path.isabs(cwd) else ".")
    script = Path(host.realpath(base / prog)) if not os.path.isabs(str(cwd or "")) else Path(str(cwd)) / prog
    where = _rel(root, script)

    fail = R.CARRIER.command_fails(event)
    if not host.is_file(script):
        out.add("error", "repo.hooks.script", f"{rel}: {key} runs {prog}, but {where} does not "
                f"exist: {fail}", path=p, line=line_of(text, prog))
    elif not host.is_executable(script):
        out.add("error", "repo.hooks.script", f"{rel}: {key} runs {where}, which is not "
                f"executable: {fail}", path=script, fix=f"chmod +x {where} and commit the mode")


def _git_checks(host: Host, root: Path, out: _Out) -> None:
    git = host.which("git")
    if git is None:
        out.add("skipped", "repo.git.committed", "git is not on PATH: cannot tell whether the "
                "hook files are committed")
        return
    inside = host.run([git, "-C", str(root), "rev-parse", "--show-toplevel"], timeout=10)
    if inside.returncode != 0:
        out.add("warning", "repo.git.committed", f"{root} is not a git repository: the cloud "
                "agent reads hooks only from a GitHub repository's default branch",
                path=root)
        return
    top = Path(host.realpath(inside.stdout.strip()))
    if top != root:
        out.add("warning", "repo.git.committed", f"{root} is inside the repository {top}: "
                f"Copilot CLI and the cloud agent read {R.HOOKS_DIR} at the repository root",
                path=root, fix=f"use --repo {top}")
    paths = [p for p in (R.HOOKS_FILE, R.WRAPPER, R.WORKFLOW) if p and host.is_file(root / p)]
    if not paths:
        return
    ls = host.run([git, "-C", str(root), "ls-files", "-s", "--", *paths], timeout=10)
    staged = {}
    for ln in ls.stdout.splitlines():
        meta, _, name = ln.partition("\t")
        staged[name] = meta.split()[0] if meta else ""
    ign = host.run([git, "-C", str(root), "check-ignore", "--", *paths], timeout=10)
    ignored = set(ign.stdout.split())
    problems = False
    for rel in paths:
        if rel in ignored and rel not in staged:
            out.add("error", "repo.git.committed", f"{rel} is ignored by git: it never reaches "
                    "teammates' clones or the cloud agent", path=root / rel,
                    fix=f"un-ignore it (git check-ignore -v {rel}) and commit it")
            problems = True
        elif rel not in staged:
            out.add("warning", "repo.git.committed", f"{rel} is not committed: teammates' clones "
                    "and the cloud agent (default branch) do not have it yet", path=root / rel,
                    fix=f"git add {rel} && git commit, then push to the default branch")
            problems = True
        elif rel == R.WRAPPER and staged[rel] != "100755":
            out.add("error", "repo.git.committed", f"{rel} is committed without the executable "
                    "bit: in a fresh clone every hook fails (preToolUse: every tool call denied)",
                    path=root / rel, fix=f"git update-index --chmod=+x {rel} && git commit")
            problems = True
    if not problems:
        out.add("ok", "repo.git.committed", "the hook files are in git's index (the wrapper as "
                "executable); the cloud agent sees them once they are on the default branch")


def _disable_all(host: Host, root: Path, out: _Out) -> None:
    """Each switch that turns hooks off (the targets' repo parts: HookSwitch), where it is set."""
    found = False
    for path, sw in R.switch_files(host, root):
        text, data, err = _load(out.view, path, jsonc=True)
        words = {"file": host.display(path), "rel": _rel(root, path), "who": sw.who}
        if err:
            if sw.on_unparsed:
                out.add("error", "repo.settings.disable-all",
                        sw.on_unparsed.format(error=err, value="", **words), path=path)
            continue
        if not isinstance(data, dict) or sw.key not in data:
            continue
        v = data[sw.key]
        line = line_of(text, json.dumps(sw.key))
        if v is True:
            out.add(sw.level, "repo.settings.disable-all",
                    sw.on_true.format(value="true", error="", **words), path=path, line=line,
                    fix=sw.fix)
            found = found or sw.stops_ours
        elif not isinstance(v, bool) and sw.on_invalid:
            out.add("error", "repo.settings.disable-all",
                    sw.on_invalid.format(value=repr(v), error="", **words), path=path, line=line,
                    fix=sw.invalid_fix)
            found = found or sw.stops_ours
    if not found:
        out.add("ok", "repo.settings.disable-all", R.CARRIER.FACTS.hooks.switches_ok)


def _other_sources(host: Host, root: Path, out: _Out) -> None:
    any_ = False
    titles = R.all_readers()
    for src in R.repo_hook_sources(out.view, root):
        any_ = True
        rel = _rel(root, src["path"])
        data = src["data"]
        if isinstance(data, dict) and "__unreadable__" in data:
            if src["kind"] != "repo-hooks-file":     # hook files are reported by repo.hooks.file
                out.add("error", "repo.hooks.others", f"{rel} does not parse "
                        f"({data['__unreadable__']}): its reader ignores it", path=src["path"])
            continue
        readers = ", ".join(titles[r].title for r in src["readers"])
        ev = ", ".join(src["events"]) or "no events"
        if src["runs_agentdeck"] and R.reads_ours(src):
            out.add("warning", "repo.hooks.others", f"{rel} also runs agentdeck's handler ({ev}): "
                    f"{readers} fire those events twice", path=src["path"],
                    fix=f"keep agentdeck's hooks in {R.HOOKS_FILE} only")
        elif src["runs_agentdeck"]:
            out.add("info", "repo.hooks.others", f"{rel} runs agentdeck's handler ({ev}), read by "
                    f"{readers}: with agentdeck's hooks in the home for that CLI too, those "
                    "events fire twice", path=src["path"])
        else:
            out.add("info", "repo.hooks.others", f"{rel} ({ev}) also fires: read by {readers}, "
                    "alongside agentdeck's hooks", path=src["path"])
    home = R.CARRIER.home_hooks(host)
    if host.is_file(home):
        any_ = True
        row = R.CARRIER.home_twice_row(host.display(home))
        out.add(row.result, f"repo.{row.check}", row.message, fix=row.fix, path=home)
    if not any_:
        out.add("ok", "repo.hooks.others", "no other hook source in this repository fires "
                "alongside agentdeck's")


def _readers(host: Host, root: Path, parsed: dict[str, Any], out: _Out) -> None:
    """One finding per reader of agentdeck's hook file (the carrier's): what it will do with
    the repository's hooks."""
    ours = parsed.get(str(root / R.HOOKS_FILE))
    keys = list(ours["hooks"]) if isinstance(ours, dict) else []
    resolved = [(k, R.CARRIER.resolve_event(k)) for k in keys]
    events = [(k, r[0]) for k, r in resolved if r is not None]
    trust = R.trust_of(out.view, root)
    for row in R.CARRIER.reader_rows(trust, events, bool(ours), root, host):
        out.add(row.result, f"repo.{row.check}", row.message, fix=row.fix)
    _cloud_setup(host, root, out)


def _cloud_setup(host: Host, root: Path, out: _Out) -> None:
    if not R.WORKFLOW:          # the carrier's readers have no setup workflow
        return
    path = root / R.WORKFLOW
    text = out.view.load(path).text
    if text is None:
        out.add("warning", "repo.cloud.setup", f"no {R.WORKFLOW}: in the cloud agent the "
                f"wrapper finds no {R.HANDLER_PROGRAM} and exits 0, so nothing is handled there",
                fix=f"agentdeck apply --repo {root} --cloud-setup")
    elif R.SETUP_BEGIN in text:
        out.add("ok", "repo.cloud.setup", f"{R.WORKFLOW} has agentdeck's step: the cloud agent's "
                "runner installs the handler before the agent starts", path=path)
    elif R.HANDLER_PROGRAM in text or "agentdeck" in text:
        out.add("info", "repo.cloud.setup", f"{R.WORKFLOW} mentions agentdeck (not agentdeck's "
                "managed step): make sure it puts the handler on PATH", path=path)
    else:
        out.add("warning", "repo.cloud.setup", f"{R.WORKFLOW} does not install the handler: in "
                "the cloud agent the wrapper exits 0 and nothing is handled there", path=path,
                fix=f"agentdeck apply --repo {root} --cloud-setup")


def _live(host: Host, root: Path, parsed: dict[str, Any], out: _Out,
          say: Callable[[str], None]) -> None:
    """The carrier's CLI asked what it loads here, on a scratch copy of its home
    (core/doctor/isolated.py): the home is left as it was."""
    from . import isolated   # local: the scratch-home prober loads only for doctor --repo --live

    C = R.CARRIER
    asked, probe = C.live_probe(root)
    say(f"repo: asking {asked}")
    res = isolated.run(host, R.CARRIER_NAME, probe)
    data = parsed.get(str(root / R.HOOKS_FILE))
    expected: dict[str, str] = {}
    if isinstance(data, dict):
        for k, acts in data["hooks"].items():
            r = C.resolve_event(k)
            if r is None or not isinstance(acts, list):
                continue
            for a in acts:
                try:
                    expected[C.disable_key(k, a)] = r[0]
                except (ValueError, TypeError):
                    pass
    trusted = bool(R.trust_of(out.view, root)["trusted"])
    for row in C.live_rows(res, expected, trusted):
        out.add(row.result, f"repo.{row.check}", row.message, fix=row.fix, live=True)


# ---- entry points ----------------------------------------------------------------------------
def repo_findings(host: Host, repo_dir: str | os.PathLike, profile: str = "default",
                  live: bool = False, progress: Callable[[str], None] | None = None
                  ) -> list[Finding]:
    """Every finding about the repository at `repo_dir`, in table order."""
    root = repo_root(repo_dir)
    out = _Out(host, root)
    if not host.is_dir(root):
        out.add("error", "repo.folder", f"{root} is not a folder", path=root)
        return out.findings
    host = with_repo(host, root)
    out.host = host
    out.view = DiskView(host)
    say = progress or (lambda _m: None)
    say("repo: planning")
    plan = _plan(host, root, profile, out)
    _handler(host, plan, out)
    say("repo: reading hook files")
    parsed = _hook_file_checks(host, root, out)
    _git_checks(host, root, out)
    _disable_all(host, root, out)
    _other_sources(host, root, out)
    _readers(host, root, parsed, out)
    if live:
        _live(host, root, parsed, out, say)
    return out.findings


def main(args, host: Host) -> int:
    """`agentdeck doctor --repo DIR [--live] [--json]`."""
    profile = getattr(args, "profile", None) or "default"
    live = bool(getattr(args, "live", False))
    findings = repo_findings(host, args.repo, profile, live=live)
    if getattr(args, "json", False):
        print(json.dumps(report.to_json(findings, profile=profile, live=live, targets=[T]),
                         indent=2, ensure_ascii=False))
    else:
        sys.stdout.write(f"repository {repo_root(args.repo)}\n")
        sys.stdout.write(report.render_text(findings, profile=profile, live=live,
                                            verbose=getattr(args, "verbose", False)))
    return report.exit_code(findings)
