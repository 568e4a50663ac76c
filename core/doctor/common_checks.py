"""Checks every target has (installed version, the plan's drift, manifests vs disk) and the
helpers the per-target modules share (hook commands, persona markers, skill links, secrets).
"""
from __future__ import annotations

import difflib
import re
import shlex
import stat
from pathlib import Path
from typing import Any, Iterable

from .context import TARGETS, Ctx
from .registry import Out, register

# ---- installed version ---------------------------------------------------------------------------


def _version(target: str):
    def fn(ctx: Ctx, out: Out) -> None:
        from ..facts.versions import in_verified_range, verified_label

        info = ctx.cli(target)
        if info.exe is None:
            out.skipped(info.note, fix=f"install it (npm install -g "
                                       f"{_facts(target).npm_package}) if you use it")
            return
        if info.version is None:
            out.skipped(info.note)
            return
        verified = verified_label(target)
        where = ctx.show(info.exe)
        if in_verified_range(target, info.version):
            out.ok(f"{_facts(target).binary} {info.version} ({where}); the doctor's facts were "
                   f"verified for {verified}")
        else:
            out.warning(f"{_facts(target).binary} {info.version} is outside the range the doctor's "
                        f"facts were verified for ({verified}): event names, keys and spellings "
                        "may have changed, so a clean report means less",
                        fix=f"pin {_facts(target).npm_package}@{_facts(target).verified_versions[1]}, "
                            "or re-check with `agentdeck doctor --live`, which asks the CLI itself")
    return fn


def _facts(target: str):
    from ..facts import FACTS_BY_TARGET
    return FACTS_BY_TARGET[target]


# ---- the plan's drift ----------------------------------------------------------------------------

def _labels(items, n: int = 4) -> str:
    names = [i.label or i.path for i in items]
    more = f" and {len(names) - n} more" if len(names) > n else ""
    return ", ".join(names[:n]) + more


def _plan(target: str):
    def fn(ctx: Ctx, out: Out) -> None:
        if ctx.adapter(target) is None:
            out.skipped(f"agentdeck has no {target} adapter in this build: nothing to compare with "
                        "the profile")
            return
        plan, err = ctx.plan(target)
        if err is not None:
            out.error(f"cannot compute the plan for profile {ctx.profile}: "
                      f"{getattr(err, 'msg', None) or err}",
                      fix="fix the file named (other checks here point at the problem), then "
                          "`agentdeck plan`", path=getattr(err, "path", None),
                      line=getattr(err, "line", None))
            return
        man, _ = ctx.manifest(target)
        installed = man is not None and bool(man.entries)
        items = plan.for_target(target)
        pending = [i for i in items if plan.action(i) in ("write", "remove")]
        conflicts = [i for i in items if i.cls == "conflict"]
        foreign = [i for i in items if i.cls == "foreign"]
        if pending and not installed:
            out.info(f"profile {ctx.profile} is not installed for {target}: {len(pending)} "
                     f"item(s) to add ({_labels(pending)})",
                     fix="review with `agentdeck plan`, then `agentdeck apply`")
        elif pending:
            out.warning(f"{len(pending)} change(s) pending: the files differ from what profile "
                        f"{ctx.profile} wants ({_labels(pending)})",
                        fix="review with `agentdeck plan`, then `agentdeck apply`")
        if conflicts:
            out.warning(f"{len(conflicts)} conflict(s): changed by you and wanted differently by "
                        f"the profile ({_labels(conflicts)}); yours is kept until you decide",
                        fix="`agentdeck apply` asks keep or take for each")
        if foreign:
            out.info(f"{len(foreign)} item(s) exist and were not written by agentdeck; kept as "
                     f"they are ({_labels(foreign)})",
                     fix="`agentdeck apply --take <id>` to let the profile's value win")
        if not (pending or conflicts or foreign):
            out.ok(f"in sync with profile {ctx.profile}" if installed else
                   f"profile {ctx.profile} wants nothing for {target}")
    return fn


def _takeover(target: str):
    """Another tool's install in this home (core/targets/takeover.py): taken over, or not yet."""
    def fn(ctx: Ctx, out: Out) -> None:
        if ctx.adapter(target) is None:
            out.skipped(f"agentdeck has no {target} adapter in this build")
            return
        plan, err = ctx.plan(target)
        if err is not None:
            out.skipped("the plan could not be computed (see the plan check)")
            return
        found = (plan.info.get(target) or {}).get("found") or []
        if not found:
            out.ok("no other tool's hook install found here")
            return
        by_id = {i.id: i for i in plan.for_target(target)}
        for f in found:
            pending, both = [], []
            for p in f["parts"]:
                it = by_id.get(p.get("item") or "")
                if it is not None and (plan.action(it) != "none" or it.cls in ("conflict", "foreign")):
                    pending.append(p["what"])
                elif p["fate"] == "kept" and p["what"] in ("hooks", "hooks file"):
                    both.append(p["note"])
            if f.get("warning"):
                out.warning(f"{f['title']}: {f['warning']}")
            if pending:
                out.warning(f"{f['title']}; not taken over yet: {', '.join(pending)}",
                            fix="`agentdeck plan` shows the group (docs/migrating.md); `agentdeck "
                                "apply` carries it out (decide its persona with --keep/--take)")
            for note in both:
                out.warning(f"{f['title']}: {note}")
            if not pending and not both:
                done = [p["what"] for p in f["parts"] if p["fate"] in ("set aside", "replaced")]
                out.ok(f"{f['title']}; taken over" + (f" ({', '.join(done)})" if done else "")
                       + "; the rest is kept as it is")
    return fn


# ---- manifests vs disk ---------------------------------------------------------------------------

def _manifest(target: str):
    def fn(ctx: Ctx, out: Out) -> None:
        ad = ctx.adapter(target)
        if ad is None:
            out.skipped(f"agentdeck has no {target} adapter in this build")
            return
        man, err = ctx.manifest(target)
        path = ad.manifest_path(ctx.host)
        if err is not None:
            out.error(getattr(err, "msg", None) or str(err), path=path,
                      line=getattr(err, "line", None),
                      fix="move the manifest aside and re-run `agentdeck apply` (it re-adopts "
                          "what already matches the profile)")
            return
        if man is None or not man.entries:
            out.ok("agentdeck has written nothing here (no manifest)")
            return
        from ..disk import DiskView
        from ..errors import UserError
        from ..plan import _actual

        disk = DiskView(ctx.host)
        changed, deleted, unreadable = [], [], []
        for e in man.entries.values():
            try:
                _, afp = _actual(disk, e, e.kind, Path(e.path), e.key, e.fmt,
                                 tuple(e.markers) if e.markers else ("", ""), None)
                if e.kind == "file" and afp is not None and ":" in e.fingerprint:
                    st = disk.state(Path(e.path))
                    afp = f"{st.sha}:{(st.mode or 0):o}"
            except UserError as ue:
                unreadable.append((e, ue))
                continue
            label = e.label or ctx.show(e.path)
            if afp is None:
                deleted.append(label)
            elif afp != e.fingerprint:
                changed.append(label)
        for e, ue in unreadable:
            out.warning(f"cannot compare {e.label or ctx.show(e.path)} with the manifest: "
                        f"{getattr(ue, 'msg', ue)}", path=getattr(ue, "path", None) or e.path,
                        line=getattr(ue, "line", None))
        if changed:
            out.info(f"{len(changed)} item(s) changed on disk since agentdeck wrote them "
                     f"({_short(changed)}); kept as you left them",
                     fix="`agentdeck plan` shows each; `agentdeck apply --take <id>` restores one",
                     path=path)
        if deleted:
            out.info(f"{len(deleted)} item(s) deleted since agentdeck wrote them "
                     f"({_short(deleted)}); not re-added",
                     fix="`agentdeck apply --take <id>` writes one again", path=path)
        if not (changed or deleted or unreadable):
            out.ok(f"all {len(man.entries)} recorded item(s) are on disk as agentdeck wrote them",
                   path=path)
    return fn


def _short(names: list[str], n: int = 4) -> str:
    more = f" and {len(names) - n} more" if len(names) > n else ""
    return ", ".join(names[:n]) + more


for _t in TARGETS:
    register(f"{_t}.version", _t, _version(_t), ok="", needs_home=False)
    register(f"{_t}.plan", _t, _plan(_t), ok="", needs_home=False)
    register(f"{_t}.manifest", _t, _manifest(_t), ok="", needs_home=False)
    register(f"{_t}.takeover", _t, _takeover(_t), ok="", needs_home=False)


# ==== helpers for the per-target modules ==========================================================

def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate `name` most likely meant: same letters ignoring case and `_`/`-`, else the
    closest spelling."""
    cands = list(candidates)

    def norm(s: str) -> str:
        return re.sub(r"[_\-\s]", "", s).lower()

    for c in cands:
        if norm(c) == norm(name):
            return c
    close = difflib.get_close_matches(name, cands, n=1, cutoff=0.75)
    return close[0] if close else None


def find_line(text: str | None, needle: str, start: int | None = None) -> int | None:
    """First 1-based line at or after `start` whose text contains `needle`."""
    if not text:
        return None
    for i, ln in enumerate(text.splitlines(), 1):
        if start is not None and i < start:
            continue
        if needle in ln:
            return i
    return None


# ---- hook commands: the agentdeck wrapper and the handler ----------------------------------------

WRAPPER_NAME = "agentdeck-hook.sh"
WRAPPER_MARK = "# Written by agentdeck for "
_SHELL_WORDS = {
    "echo", "printf", "true", "false", ":", "exit", "exec", "cd", "test", "[", "set", "export",
    "eval", "command", "if", "for", "while", "case", "{", "(", "!", "env", "sh", "bash", "read",
    "cat", "sleep", "trap", "umask", "type",
}
_INTERPRETERS = {"python", "python3", "node", "bash", "sh", "zsh", "ruby", "perl", "deno", "bun",
                 "uv", "uvx", "npx"}


class CommandFinding:
    """What the doctor found about one hook command."""

    def __init__(self, kind: str, result: str, message: str, fix: str = ""):
        self.kind = kind          # "wrapper" | "handler"
        self.result = result      # "ok" | "warning" | "error"
        self.message = message
        self.fix = fix


def _expand(ctx: Ctx, word: str) -> str:
    if word.startswith("~/") or word == "~":
        return str(ctx.host.home) + word[1:]
    for var in ("$HOME", "${HOME}"):
        if word.startswith(var):
            return str(ctx.host.home) + word[len(var):]
    m = re.match(r"^\$\{?([A-Z_][A-Z0-9_]*)\}?(/.*)$", word)
    if m and ctx.host.env.get(m.group(1)):
        return ctx.host.env[m.group(1)] + m.group(2)
    return word


def split_command(command: str) -> list[str] | None:
    """The words of a hook command, env assignments dropped; None when it cannot be split."""
    try:
        words = shlex.split(command, comments=False)
    except ValueError:
        return None
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words = words[1:]
    return words


def check_program(ctx: Ctx, word: str) -> str | None:
    """None when `word` (a command's argv[0]) can be run; else why not."""
    if "$" in word or "`" in word:
        return None                   # decided at run time; nothing to say
    p = _expand(ctx, word)
    if "/" in p:
        path = Path(p)
        if not path.is_absolute():
            return None               # relative to the CLI's cwd: cannot tell
        if not ctx.host.exists(path):
            return f"{ctx.show(path)} does not exist"
        if ctx.host.is_dir(path):
            return f"{ctx.show(path)} is a directory"
        if not ctx.host.is_executable(path):
            return f"{ctx.show(path)} is not executable"
        return None
    if p in _SHELL_WORDS:
        return None
    if ctx.host.which(p) is None:
        return f"{p} is not on PATH"
    return None


def is_wrapper_path(ctx: Ctx, word: str) -> bool:
    return Path(_expand(ctx, word)).name == WRAPPER_NAME


def wrapper_handler(ctx: Ctx, wrapper: Path) -> tuple[str | None, str | None]:
    """(the handler program the agentdeck wrapper execs, why it cannot be read)."""
    ld = ctx.read(wrapper)
    if not ld.exists or ld.text is None:
        return None, ld.error
    for ln in ld.text.splitlines():
        s = ln.strip()
        if s.startswith("exec "):
            words = split_command(s[len("exec "):])
            if words:
                return words[0], None
    return None, "no `exec` line"


def inspect_command(ctx: Ctx, command: Any, exec_program: str | None = None) -> list[CommandFinding]:
    """Findings for one hook command (the shell string a CLI runs through /bin/sh), or for an
    `exec` program. Covers the agentdeck wrapper (missing, not executable, its handler not found)
    and any other handler program (not found, not executable)."""
    out: list[CommandFinding] = []
    if exec_program is not None:
        words = [exec_program]
    elif isinstance(command, str) and command.strip():
        words = split_command(command)
        if not words:
            return out
    else:
        return out
    prog = words[0]
    if is_wrapper_path(ctx, prog):
        wpath = Path(_expand(ctx, prog))
        if not wpath.is_absolute():
            return out
        if not ctx.host.exists(wpath):
            out.append(CommandFinding("wrapper", "error",
                                      f"the agentdeck hook wrapper {ctx.show(wpath)} is missing: "
                                      "every hook that calls it fails",
                                      "`agentdeck apply` writes it again"))
            return out
        if not ctx.host.is_executable(wpath):
            mode = ctx.host.mode(wpath)
            out.append(CommandFinding("wrapper", "error",
                                      f"the agentdeck hook wrapper {ctx.show(wpath)} is not "
                                      f"executable (mode {mode:o}): every hook that calls it fails"
                                      if mode is not None else
                                      f"the agentdeck hook wrapper {ctx.show(wpath)} is not executable",
                                      f"chmod 755 {ctx.show(wpath)}, or `agentdeck apply`"))
            return out
        handler, why = wrapper_handler(ctx, wpath)
        if handler is None:
            out.append(CommandFinding("wrapper", "warning",
                                      f"cannot read the handler from {ctx.show(wpath)} ({why})",
                                      "`agentdeck apply` writes the wrapper again"))
            return out
        problem = check_program(ctx, handler)
        if problem:
            out.append(CommandFinding("handler", "error",
                                      f"the hook handler the wrapper runs is not found ({problem}): "
                                      "the hooks run but do nothing",
                                      "install it (for agentdeck's own handler: the agentdeck "
                                      "package provides `agentdeck-hook`), or set [hooks] command "
                                      "in your profile and `agentdeck apply`"))
        return out
    problem = check_program(ctx, prog)
    if problem is None and Path(prog).name in _INTERPRETERS and len(words) > 1:
        script = words[1]
        if not script.startswith("-"):
            sp = _expand(ctx, script)
            if sp.startswith("/") and not ctx.host.exists(Path(sp)):
                problem = f"its script {ctx.show(sp)} does not exist"
    if problem:
        out.append(CommandFinding("handler", "error", f"hook command not found: {problem}",
                                  "install the program or fix the path in the hook"))
    return out


# ---- persona markers -----------------------------------------------------------------------------

def persona_markers(ctx: Ctx, out: Out, path: Path) -> None:
    from ..formats.blocks import BlockError, find_block
    from ..targets.persona import PERSONA_MARKERS

    ld = ctx.read(path)
    if not ld.exists:
        out.ok(f"no {ctx.show(path)}")
        return
    if ld.error:
        out.error(f"cannot read it: {ld.error}", path=path, line=ld.line)
        return
    try:
        span = find_block(ld.text, *PERSONA_MARKERS, path=str(path))
    except BlockError as e:
        out.error(f"agentdeck's persona markers are broken: {e.msg}; apply refuses to edit the file",
                  fix="leave exactly one begin and one end marker line (or delete both and "
                      "`agentdeck apply` adds the block again)", path=path, line=e.line)
        return
    out.ok("persona block intact" if span else "no agentdeck persona block (your own file)",
           path=path)


# ---- skill links ---------------------------------------------------------------------------------

def skill_links(ctx: Ctx, out: Out, dirs: list[tuple[Path, str]]) -> None:
    """Dangling symlinks in skill folders. `dirs`: (folder, note such as "shared with Codex")."""
    found = 0
    for d, note in dirs:
        for name in ctx.host.listdir(d):
            p = d / name
            if not ctx.host.is_symlink(p):
                continue
            found += 1
            if not ctx.host.exists(p, follow=True):
                try:
                    target = ctx.host.readlink(p)
                except OSError:
                    target = "?"
                extra = f" ({note})" if note else ""
                out.warning(f"skill link {name} points at {ctx.show(target)}, which does not "
                            f"exist: the skill is silently missing{extra}",
                            fix=f"remove the link or restore its target (rm {ctx.show(p)})",
                            path=p)
    if not out.findings:
        where = ", ".join(ctx.show(d) for d, _ in dirs)
        out.ok(f"{found} skill link(s), none dangling ({where})")


# ---- secrets -------------------------------------------------------------------------------------

def literal_secrets(ctx: Ctx, out: Out, sources: list[tuple[Path, Any]]) -> list[Path]:
    """Report literal credentials in config values; returns the files that hold any."""
    from ..secrets import scan_text, scan_value

    holders: list[Path] = []
    for path, value in sources:
        hits = scan_text(value) if isinstance(value, str) else scan_value(value)
        if not hits:
            continue
        holders.append(path)
        desc = "; ".join(f"{h.where or 'text'}: {h.kind} ({h.excerpt})" for h in hits[:4])
        more = f" and {len(hits) - 4} more" if len(hits) > 4 else ""
        out.warning(f"{len(hits)} literal credential(s) in the file: {desc}{more}",
                    fix="take it from the environment instead (Codex: bearer_token_env_var / "
                        "env_vars; Copilot/Claude: an env reference where the CLI supports one), "
                        "and rotate it if this file was ever shared",
                    path=path)
    return holders


def file_modes(ctx: Ctx, out: Out, holders: list[Path], credential_files: list[Path]) -> None:
    """Secret-bearing files readable by others: world-readable is an error, group-readable a
    warning. `holders`: files with literal credentials; `credential_files`: the CLI's own token
    stores (only their mode is read, never their contents)."""
    seen: set[str] = set()
    for path, why in [(p, "holds a literal credential") for p in holders] + \
                     [(p, "is where the CLI keeps its login tokens") for p in credential_files]:
        if str(path) in seen or not ctx.host.is_file(path):
            continue
        seen.add(str(path))
        mode = ctx.host.mode(path)
        if mode is None:
            continue
        if mode & stat.S_IROTH:
            out.error(f"{ctx.show(path)} {why} and is world-readable (mode {mode:o})",
                      fix=f"chmod 600 {ctx.show(path)}", path=path)
        elif mode & stat.S_IRGRP:
            out.warning(f"{ctx.show(path)} {why} and is group-readable (mode {mode:o})",
                        fix=f"chmod 600 {ctx.show(path)}", path=path)
    if not out.findings:
        n = len(seen)
        out.ok(f"{n} secret-bearing file(s), none readable by others" if n else
               "no secret-bearing files")
