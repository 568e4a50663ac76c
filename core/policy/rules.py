"""Rule evaluation: which decision a tool call (or a prompt) gets.

Three kinds of rule, all plain data (the compiled policy, core/policy/compiled.py):

    {"id": "no-force-push", "tool": "shell", "match": "git\\s+push\\b.*--force", ...}
        a regex searched in each raw subject (command line, path, server/tool, URL, prompt);
        on a command line it is evadable (quoting, variables, other spellings)
    {"id": "no-rm-rf", "tool": "shell", "command": ["rm"], "args": ["-r|-R", "-f"], ...}
        matched on the argv of every simple command the line would run (core/policy/argv.py)
    paths: {"id": "keys", "paths": ["~/.ssh/id_*"], "except": [...], "access": [...], ...}
        protected files, on every tool that touches a file and on shell operands and
        redirections (core/policy/paths.py)

Deny wins over ask, ask over allow; no match allows. A batch gets the strongest decision of its
calls. A shell command the parser cannot resolve (core/policy/shellparse.py) gets the policy's
`unresolved` decision (rule "unresolved") whenever an argv or path rule could apply.

The shell parser is imported only when a shell call meets an argv or path rule; a regex is
compiled the first time a call of its class is seen. Standard library only, plus the parser.
"""
from __future__ import annotations

import re

from .vocabulary import Call

TYPE_CHECKING = False   # (not typing's: the hook handler imports this module)
if TYPE_CHECKING:
    from .paths import PathRules

DECISIONS = ("allow", "ask", "deny")
_RANK = {"allow": 0, "ask": 1, "deny": 2}
TOOLS = ("shell", "read", "write", "mcp", "web", "prompt", "any")

_COMPILED: dict[str, re.Pattern] = {}


def _rx(pattern: str) -> re.Pattern:
    p = _COMPILED.get(pattern)
    if p is None:
        p = _COMPILED[pattern] = re.compile(pattern)
    return p


UNRESOLVED_RULE = "unresolved"
INLINE_RULE = "inline-code"    # [policy] inline_code = "ask"


class Verdict:
    """A decision with the rule that made it (rule None: nothing matched, or no policy)."""
    __slots__ = ("decision", "rule", "reason", "call")

    def __init__(self, decision: str = "allow", rule: str | None = None, reason: str = "",
                 call: Call | None = None):
        self.decision, self.rule, self.reason, self.call = decision, rule, reason, call

    def stronger(self, other: "Verdict") -> "Verdict":
        return other if _RANK[other.decision] > _RANK[self.decision] else self

    def __repr__(self) -> str:  # pragma: no cover
        return f"Verdict({self.decision!r}, {self.rule!r})"


def _applies(rule: dict, cls: str, kind: str = "") -> bool:
    tool = rule.get("tool", "any")
    if cls == "prompt":
        return tool == "prompt"
    if kind == "delegate" and tool == "prompt":
        return True         # a sub-agent's prompt (a workflow, a later turn's) is a prompt too
    return tool == cls or (tool == "any" and cls != "prompt")


def evaluate_call(rules: list[dict], call: Call) -> Verdict:
    """The regex rules alone (argv and path rules need evaluate_doc's context)."""
    best = Verdict(call=call)
    for rule in rules:
        if not _applies(rule, call.cls, call.kind) or not isinstance(rule.get("match"), str):
            continue
        rx = _rx(rule["match"])
        if any(rx.search(s) for s in call.subjects if isinstance(s, str)):
            v = Verdict(rule["decision"], rule.get("id"), rule.get("reason") or "", call)
            if best.rule is None or _RANK[v.decision] > _RANK[best.decision]:
                best = v
            if v.decision == "deny":
                break
    return best


def evaluate(rules: list[dict], calls: list[Call]) -> Verdict:
    """The decision for a whole pre-tool event: the strongest over its calls (a batch is
    denied when any call in it is)."""
    best = Verdict(call=calls[0] if calls else None)
    for call in calls:
        v = evaluate_call(rules, call)
        if v.rule is not None and (best.rule is None or _RANK[v.decision] > _RANK[best.decision]):
            best = v
        if best.decision == "deny":
            break
    return best


class Context:
    """What a decision needs besides the rules: the home (~, $HOME), the call's cwd, the
    handler's environment and the file system (core/policy/fs.py)."""
    __slots__ = ("home", "cwd", "env", "_fs", "_paths")

    def __init__(self, home: str, cwd: str, env=None, fs=None):
        self.home, self.cwd, self.env = home, cwd or home or "/", env or {}
        self._fs = fs
        self._paths: PathRules | None = None

    @property
    def fs(self):
        """The file system (the disk by default), made when a path or argv rule first asks: a
        policy of regex rules alone never imports core.policy.fs on the handler's path."""
        if self._fs is None:
            from .fs import DiskFS
            self._fs = DiskFS()
        return self._fs

    def path_rules(self, doc: dict):
        if self._paths is None:
            from .paths import PathRules
            self._paths = PathRules(doc.get("paths") or [], self.home, self.fs)
        return self._paths


def _display(ctx: Context, p: str) -> str:
    h = (ctx.home or "").rstrip("/")
    return "~" + p[len(h):] if h and (p == h or p.startswith(h + "/")) else p


def _path_verdict(ctx: Context, hits, call: Call) -> Verdict | None:
    best = None
    for rule, path, access in hits:
        reason = rule.get("reason") or f"{_display(ctx, path)} is protected"
        v = Verdict(rule.get("decision", "deny"), rule.get("id"),
                    f"{reason} ({access} {_display(ctx, path)})", call)
        if best is None or _RANK[v.decision] > _RANK[best.decision]:
            best = v
    return best


def _shell_verdict(doc: dict, call: Call, ctx: Context, argv_rules: list[dict]) -> Verdict | None:
    from .argv import matches
    from .shellparse import normalize, resolve
    from .zshforms import is_zsh, zsh_only   # local: with the resolver, for a shell call

    paths = ctx.path_rules(doc)
    # the folder the command runs in: the call's own (a shell tool's `directory`) over the payload's
    cwd = normalize(call.cwd, ctx.cwd, ctx.home) if call.cwd else ctx.cwd
    best: Verdict | None = None

    def take(v: Verdict | None) -> None:
        nonlocal best
        if v is not None and (best is None or _RANK[v.decision] > _RANK[best.decision]):
            best = v

    zsh = is_zsh(ctx.env)
    for text in call.subjects:
        if not isinstance(text, str) or not text.strip():
            continue
        why_zsh = zsh_only(text) if zsh else ""
        if why_zsh and (argv_rules or paths):
            take(Verdict(doc.get("unresolved") or "ask", UNRESOLVED_RULE,
                         "agentdeck cannot tell what this command runs: the CLI runs it in zsh, "
                         "and " + why_zsh, call))
        parsed = resolve(text, cwd, ctx.env, ctx.fs, ctx.home)
        for cmd in parsed.commands:
            name = cmd.name
            known = [a.value for a in cmd.argv[1:] if a.value is not None]
            if cmd.stdin == "xargs":       # xargs appends what the pipe gave it: options too
                # (a `--` the producer was given is its own, not a word of the pipe)
                known += [w.value for w in cmd.feeds if w.value is not None and w.value != "--"]
            for rule in argv_rules:
                if matches(rule, name, known):
                    take(Verdict(rule["decision"], rule.get("id"), rule.get("reason") or "", call))
            handed = _handed_command(cmd, argv_rules)
            if handed:
                take(Verdict(doc.get("unresolved") or "ask", UNRESOLVED_RULE,
                             "agentdeck cannot tell what this command runs: " + handed, call))
            if paths:
                take(_path_verdict(ctx, paths.for_command(cmd), call))
                for alt in cmd.alts:     # a folder the line may run it in (shellparse.resolve)
                    take(_path_verdict(ctx, paths.for_command(_in_folder(cmd, alt)), call))
                if paths.unknown:      # a tree written, or a folder walked, whose files cannot be known
                    take(Verdict(doc.get("unresolved") or "ask", UNRESOLVED_RULE,
                                 "agentdeck cannot tell what this command reads or writes: "
                                 + paths.unknown[0], call))
                    paths.unknown.clear()
            if doc.get("inline_code") == "ask":
                from . import programs as P   # local: only when inline code is asked
                if P.inline_program(name, [a.value for a in cmd.argv[1:]]):
                    take(Verdict("ask", INLINE_RULE,
                                 f"{name} runs an inline program ([policy] inline_code = "
                                 "\"ask\": every inline program is asked)", call))
            if call.kind == "session":
                from . import programs as P   # local: only for a session tool's command
                # stdin from a file (`python3 < F`): what it runs is F, judged as its program
                fed = cmd.stdin or ("file" if any(m == "r" for m, _ in cmd.redirects) else None)
                if P.takes_commands(name, [a.value for a in cmd.argv[1:]], fed):
                    take(Verdict(doc.get("unresolved") or "ask", UNRESOLVED_RULE,
                                 f"agentdeck cannot tell what this command runs: {name} takes "
                                 "commands typed into its session later, which no hook is "
                                 "shown", call))
            why = _not_evaluated(cmd, argv_rules, bool(paths), ctx.fs)
            if why:
                take(Verdict(doc.get("unresolved") or "ask", UNRESOLVED_RULE,
                             "agentdeck cannot tell what this command runs: " + why, call))
        if parsed.dynamic and argv_rules:
            take(Verdict(doc.get("unresolved") or "ask", UNRESOLVED_RULE,
                         "agentdeck cannot tell what this command runs: "
                         + "; ".join(parsed.dynamic[:3]), call))
        if parsed.unresolved:
            decision = doc.get("unresolved") or "ask"
            take(Verdict(decision, UNRESOLVED_RULE,
                         "agentdeck cannot tell what this command runs: "
                         + "; ".join(parsed.unresolved[:3]), call))
    return best


def _in_folder(cmd, folder: str):
    """`cmd` as it would run in `folder`."""
    from .shellparse import Cmd   # local: the resolver loads with a shell call
    c = Cmd(cmd.argv, cmd.redirects, folder, cmd.via, cmd.feeds, cmd.stdin, cmd.env)
    return c


def _handed_command(cmd, argv_rules: list[dict]) -> str:
    """Why a program no table models may run a command an argv rule denies, or "": among its
    words, a program the rule names followed by words the rule matches (`setarch x86_64 rm -r
    -f /`, `pyenv exec rm -rf x`), or one word that is such a command line (`runner "rm -rf
    x"`). A program the tables model (a wrapper, a shell, git, echo, grep ...) is judged by
    what the resolver made of it."""
    if not argv_rules or len(cmd.argv) < 2:
        return ""
    from . import programs as P   # local: the program tables only when a command is judged
    from .argv import matches   # local: as in _shell_verdict (argv rules only)
    from .shellparse import program_name   # local: the resolver loads with a shell call

    names: set[str] = set()
    for r in argv_rules:
        c = r.get("command")
        names.update(c if isinstance(c, list) else [c] if c else [])
    if not names or P.modelled(cmd.name):
        return ""
    vals = [a.value for a in cmd.argv[1:]]
    for i, v in enumerate(vals):
        if v is None:
            continue
        if program_name(v) in names:
            rest = [x for x in vals[i + 1:] if x is not None]
            if any(matches(r, program_name(v), rest) for r in argv_rules):
                return (f"{cmd.name}, a program agentdeck does not know, is given "
                        f"`{' '.join([v] + rest)[:60]}`, which a rule denies as a command")
        elif any(ch in v for ch in " \t\n;|&") and any(n in v for n in names):
            words = v.replace(";", " ; ").replace("|", " | ").replace("&", " & ").split()
            for j, w in enumerate(words):
                rest = words[j + 1:]
                for k, x in enumerate(rest):
                    if x in (";", "|", "&"):
                        rest = rest[:k]
                        break
                if program_name(w) in names and any(
                        matches(r, program_name(w), rest) for r in argv_rules):
                    return (f"{cmd.name}, a program agentdeck does not know, is given "
                            f"\"{v[:60]}\", a command line a rule denies")
    return ""


def _not_evaluated(cmd, argv_rules: list[dict], has_paths: bool, fs=None) -> str:
    """Why a rule could apply to `cmd` through a word the resolver does not evaluate, or "":
    an argument of a program an argv rule names that is not known (an opaque form, a function's
    or script's positional parameters, what xargs appends from a pipe that is not known), or,
    with path rules, an opaque operand or redirection of a program that touches files (echo
    and printf only mention theirs)."""
    from . import programs as P   # local: the program tables only when a command is judged

    name = cmd.name
    args = list(cmd.argv[1:])
    if cmd.stdin == "xargs":
        args += list(cmd.feeds)
    named = False
    for r in argv_rules:
        c = r.get("command")
        if name in (c if isinstance(c, list) else [c]):
            named = True
    if named:
        for a in args:
            if a.opaque:
                return a.opaque
            if a.value is None:
                # what a substitution prints, a variable not known, a pipe's words: any of them
                # could be an option the rule names
                return f"an argument of {name} that is not known ({a.raw[:40] or 'from a pipe'})"
            if a.glob and a.value[:1] in "*?[" and fs is not None:
                # `rm *` with a file named `-rf` in the folder: the glob makes the option
                import posixpath   # local: only for a glob given to a program a rule names
                folder = cmd.cwd or "/"
                for m in fs.glob(posixpath.join(folder, a.pattern)) or []:
                    if posixpath.basename(m).startswith("-"):
                        return (f"{a.raw[:40]} given to {name} matches {posixpath.basename(m)}, "
                                "a file named like an option")
    if has_paths:
        for m, w in cmd.redirects:
            if m != "here" and w.opaque:
                return w.opaque
        # echo/printf only mention their words, ls/stat/test/cd/... only look at names (cd to a
        # folder not known is unresolved by the resolver itself)
        if name not in P.MENTION and name not in P.META:
            for a in cmd.argv[1:]:
                if a.opaque:
                    return a.opaque
                if a.value is None and a.inner and not a.raw.startswith(("<(", ">(")) and not all(P.names_only(c.name, [
                        x.value for x in c.argv[1:]]) for c in a.inner):
                    # `cat $(find ~/.ssh -name id_rsa)`, `cat "$(cat pathfile)"`: the path is
                    # what a command prints at run time (a `<(...)` is a pipe whose commands
                    # are judged themselves)
                    return f"an operand of {name} printed at run time ({a.raw[:40]})"
            if cmd.stdin == "xargs":
                for a in cmd.feeds:
                    if a.opaque:
                        return a.opaque
    return ""


def evaluate_doc(doc: dict, calls: list[Call], ctx: Context) -> Verdict:
    """The decision for a pre-tool event under a whole compiled policy (regex, argv and path
    rules, and `unresolved`)."""
    rules = doc.get("rules") or []
    argv_rules = [r for r in rules if r.get("command") and r.get("tool", "shell") == "shell"]
    has_paths = bool(doc.get("paths"))
    best = Verdict(call=calls[0] if calls else None)
    for call in calls:
        cands: list[Verdict | None] = [evaluate_call(rules, call)]
        if call.cls == "shell" and (argv_rules or has_paths or doc.get("inline_code") == "ask"):
            cands.append(_shell_verdict(doc, call, ctx, argv_rules))
        elif has_paths and call.cls in ("read", "write", "mcp", "other", "web"):
            paths = ctx.path_rules(doc)
            paths.unknown.clear()
            cands.append(_path_verdict(ctx, paths.for_call(call, ctx.cwd), call))
            if paths.unknown:      # a path whose meaning depends on the process that opens it
                cands.append(Verdict(doc.get("unresolved") or "ask", UNRESOLVED_RULE,
                                     "agentdeck cannot tell what this call reads or writes: "
                                     + paths.unknown[0], call))
                paths.unknown.clear()
        for v in cands:
            if v is not None and v.rule is not None and (
                    best.rule is None or _RANK[v.decision] > _RANK[best.decision]):
                best = v
        if best.decision == "deny":
            break
    return best


def evaluate_prompt(rules: list[dict], prompt: str) -> Verdict:
    return evaluate_call(rules, Call("prompt", "prompt", [prompt]))


def check_rule(rule: dict) -> str | None:
    """Why a rule (as data) cannot be used, or None."""
    if not isinstance(rule, dict):
        return "a rule must be a table"
    if not isinstance(rule.get("id"), str) or not rule["id"]:
        return "a rule needs an id"
    if rule.get("tool", "any") not in TOOLS:
        return f"tool {rule.get('tool')!r} is not one of {', '.join(TOOLS)}"
    if rule.get("decision") not in DECISIONS:
        return f"decision {rule.get('decision')!r} is not one of {', '.join(DECISIONS)}"
    if rule.get("command") is not None:
        names = rule["command"]
        names = [names] if isinstance(names, str) else names
        if not isinstance(names, list) or not names or not all(isinstance(n, str) and n
                                                               for n in names):
            return "command must be a program name or a list of names"
        if not isinstance(rule.get("args", []), list) or not all(
                isinstance(a, str) for a in rule.get("args", [])):
            return "args must be a list of strings"
        return None
    if not isinstance(rule.get("match"), str):
        return "match must be a regular expression (a string)"
    try:
        re.compile(rule["match"])
    except re.error as e:
        return f"match {rule['match']!r} is not a valid regular expression: {e}"
    return None
