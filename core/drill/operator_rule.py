"""The drill's rule trials: besides the canary, each drilled CLI's turn calls shell commands made
from the profile's own deny rules, so the drill proves per rule that the deny holds end to end in
the real CLI, for the rule's example and for a rewritten form of it (core.drill.forms).

Nothing the operator's example would do really happens:
  path rules   the example path is a decoy file in the drill's scratch home (or work folder for
               a relative example), holding only "agentdeck-drill-decoy"; an absolute example
               outside them is not tried
  argv rules   a stub of the rule's program is first on PATH (the scratch bin folder, also put
               first by the scratch home's shell start-up files, since /etc/profile resets PATH
               in a login shell); the stub only appends its arguments to drill-stub-<name>.txt,
               one call a line. A CLI may run the program itself (Copilot and Qwen run `git`):
               a rule is judged on the calls the rule denies (stub_calls_denied), not on
               whether the stub ran at all
  regex rules  the example is the argument of `:`, the shell's no-op
and every form leaves its own marker file (drill-rule-<n>.txt) only when it really ran.

A form is kept only when the handler's own decision code (core.policy.rules.evaluate_doc), on
the target's compiled policy with the decoys in place, denies it with that rule's id; a rule is
tried with its example and the first rewritten form so denied. The operator's own rules come
first (later ones first: a profile's rules follow the ones it extends), then agentdeck's shipped
ones in their written order, argv/regex and path rules in turn, at most MAX_RULES rules per turn
(each extra tool call costs a model round trip and the hooks). Every other rule of the compiled
policy is listed as not tried, with why.
"""
from __future__ import annotations

import json
import posixpath
import shlex
import tomllib
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

from .. import profiles
from ..errors import UserError
from ..host import HostError
from ..policy import compiled
from ..policy.rules import Context, evaluate_doc
from ..policy.vocabulary import Call
from . import forms as F

MAX_RULES = 3
NONE = "the profile has no deny rule to try"
#: programs a stub on PATH cannot stand in for (shell builtins), or that the forms use
_NO_STUB = frozenset({"cd", "eval", "exec", "source", ".", "export", "set", "unset", "alias",
                      "builtin", "command", "read", "kill", "echo", "printf", "test", "[",
                      "pwd", "type", "trap", "ulimit", "umask", "wait", "true", "false", ":",
                      "touch", "cat", "sh", "bash", "zsh", "dash", "env", "exit", "return"})


def marker(n: int) -> str:
    return f"drill-rule-{n}.txt"


def stub_marker(name: str) -> str:
    return f"drill-stub-{name}.txt"


@dataclass(frozen=True)
class Form:
    label: str
    command: str
    marker: str                 # in the turn's working folder; exists only if the form ran


@dataclass(frozen=True)
class Trial:
    rule: str
    kind: str                   # regex | argv | path
    example: str
    forms: tuple[Form, ...]
    access: str = ""            # path rules: read | write
    decoy: str = ""             # path rules: the decoy file (absolute)
    stubs: tuple[str, ...] = ()  # argv rules: the programs stubbed on PATH
    note: str = ""


@dataclass(frozen=True)
class Untried:
    rule: str
    kind: str
    why: str


@dataclass
class Trials:
    trials: list[Trial] = field(default_factory=list)
    untried: list[Untried] = field(default_factory=list)
    note: str = ""              # why nothing at all is tried (no policy)
    #: the handler's decision code on the compiled document (what judges a stub's calls)
    sim: "_Sim | None" = field(default=None, repr=False, compare=False)
    #: files the turn's folders must hold (absolute path -> text, None for a folder,
    #: "->target" for a symbolic link): the enforcement matrix's virtual home made real
    tree: dict[str, str | None] = field(default_factory=dict)

    @property
    def commands(self) -> list[str]:
        return [f.command for t in self.trials for f in t.forms]

    @property
    def decoys(self) -> list[str]:
        return [t.decoy for t in self.trials if t.decoy]

    @property
    def stubs(self) -> list[str]:
        return sorted({s for t in self.trials for s in t.stubs})


def _kind(rule: dict) -> str:
    return "argv" if rule.get("command") else "regex"


def _interleave(a: list, b: list) -> list:
    out = []
    for i in range(max(len(a), len(b))):
        out += a[i:i + 1] + b[i:i + 1]
    return out


def _ordered(doc: dict, shipped: frozenset[str] = frozenset()) -> list[tuple[str, dict]]:
    """(kind, rule) pairs: the operator's own rules first, later ones first (a profile's rules
    follow the ones it extends), then the ones agentdeck ships (`shipped` ids) in their
    written order; argv/regex and path rules in turn."""
    rules = [(_kind(r), r) for r in doc.get("rules") or []]
    paths = [("path", r) for r in doc.get("paths") or []]
    own = _interleave([x for x in reversed(rules) if x[1].get("id") not in shipped],
                      [x for x in reversed(paths) if x[1].get("id") not in shipped])
    return own + _interleave([x for x in rules if x[1].get("id") in shipped],
                             [x for x in paths if x[1].get("id") in shipped])


def shipped_ids(host) -> frozenset[str]:
    """The ids of the rules agentdeck's bundled profiles carry."""

    out: set[str] = set()
    root = profiles.bundled_dir()
    for name in host.listdir(root):
        try:
            raw = host.read_bytes(root / name / "profile.toml")
            data = tomllib.loads(raw.decode("utf-8")) if raw else {}
        except (HostError, ValueError, UnicodeDecodeError):
            continue
        pol: dict[str, Any] = data["policy"] if isinstance(data.get("policy"), dict) else {}
        for r in (pol.get("rules") or []) + (pol.get("paths") or []):
            if isinstance(r, dict) and isinstance(r.get("id"), str):
                out.add(r["id"])
    return frozenset(out)


def _examples(policy: dict) -> dict[str, list[str]]:
    out = {}
    for r in (policy.get("rules") or []) + (policy.get("paths") or []):
        if isinstance(r, dict) and isinstance(r.get("id"), str):
            ex = (r.get("examples") or {}).get("deny") or []
            out[r["id"]] = [e for e in ex if isinstance(e, str) and e]
    return out


class _Sim:
    """The handler's decision on a command, with the chosen decoys on a virtual disk."""

    def __init__(self, doc: dict, home: str, work: str):
        self.doc, self.home, self.work = doc, home, work

    def decide(self, command: str, decoys: list[str]) -> tuple[str, str | None]:
        from ..policy.fs import MemoryFS   # local: off the drill's path until a trial is decided

        fs = MemoryFS({self.home: None, self.work: None, **{d: F.DECOY for d in decoys}})
        v = evaluate_doc(self.doc, [Call("shell", "bash", [command])],
                         Context(self.home, self.work, {"HOME": self.home}, fs))
        return v.decision, v.rule


def _decoy_path(example: str, home: str, work: str) -> str | None:
    """Where the decoy of a path example goes, or None when the drill cannot place it (an
    absolute path outside its scratch home and work folder, a glob, `..`)."""
    from ..policy.shellparse import normalize   # local: off the drill's path until a decoy is placed

    if any(c in example for c in "*?[$`\n") or ".." in example.split("/"):
        return None
    p = normalize(example, work, home)
    for root in (home, work):
        if p.startswith(root.rstrip("/") + "/"):
            return p
    return None


def _pick(sim: _Sim, rule_id: str, make, decoys: list[str], n: int,
          start: int = 0) -> tuple[list[Form], str]:
    """The literal form and the first rewritten one the handler denies by `rule_id`, looking
    from the `start`-th rewrite on (the turn's rules take turns, so one drill shows several
    kinds of rewrite); ([], why) when the literal is not so denied. `make(marker)`: the
    candidates, literal first."""
    first = make(marker(n + 1))
    if not first:
        return [], "no form of it can be made inert"
    label, cmd = first[0]
    decision, by = sim.decide(cmd, decoys)
    if (decision, by) != ("deny", rule_id):
        return [], f"{cmd!r} would be {decision} by {by or 'no rule'}"
    out, missed = [Form(label, cmd, marker(n + 1))], []
    rewrites = make(marker(n + 2))[1:]
    k = start % len(rewrites) if rewrites else 0
    for label, cmd in rewrites[k:] + rewrites[:k]:
        decision, by = sim.decide(cmd, decoys)
        if (decision, by) == ("deny", rule_id):
            out.append(Form(label, cmd, marker(n + 2)))
            break
        missed.append(f"{label}: {decision} by {by or 'no rule'}")
    note = ""
    if len(out) == 1 and missed:
        note = "no rewritten form is denied by this rule (" + "; ".join(missed) + ")"
    return out, note


def choose(policy: dict, doc: dict, home: str, work: str, max_rules: int = MAX_RULES,
           shipped: frozenset[str] = frozenset()) -> Trials:
    """The trials of one turn. `policy`: core.policy.compiled.policy_of (its rules carry their
    examples); `doc`: the target's compiled policy; `home`, `work`: the scratch home and working
    folder the turn runs with; `shipped`: ids of agentdeck's own rules (tried after the
    operator's)."""
    examples = _examples(policy)
    sim = _Sim(doc, home, work)
    res = Trials()
    n = 0
    for kind, rule in _ordered(doc, shipped):
        rid = str(rule.get("id"))

        def skip(why: str) -> None:
            res.untried.append(Untried(rid, kind, why))

        if rule.get("decision", "deny") != "deny":
            skip(f"its decision is {rule.get('decision')}: the drill proves denies only")
            continue
        if kind != "path" and rule.get("tool", "any") not in ("shell", "any"):
            skip(f"a {rule.get('tool')} rule: the drill's turn calls only the shell tool")
            continue
        exs = examples.get(rid) or []
        if not exs:
            skip("built-in rule, no deny example" if rule.get("builtin") else "no deny example")
            continue
        names = [c for c in (rule.get("command") or [])] if kind == "argv" else []
        if kind == "argv":
            bad = [c for c in names if c in _NO_STUB or "/" in c]
            if bad:
                skip(f"{', '.join(bad)} cannot be replaced by a stub on PATH (a shell builtin, "
                     "or used by the drill's own forms)")
                continue
        if len(res.trials) >= max_rules:
            skip(f"the drill tries at most {max_rules} rules per turn")
            continue
        why_not = []
        for ex in exs:
            decoy, access = "", ""
            make: Callable[[str], list[tuple[str, str]]]
            if kind == "path":
                decoy = _decoy_path(ex, home, work) or ""
                if not decoy:
                    why_not.append(f"{ex!r} is outside the drill's scratch home and work folder")
                    continue
                access = "read" if "read" in (rule.get("access") or ["read"]) else "write"
                make = partial(F.read_forms if access == "read" else F.write_forms, ex)
            elif kind == "argv":
                make = partial(F.argv_forms, ex, names)
            else:
                make = partial(F.inert_regex, ex)
            decoys = res.decoys + ([decoy] if decoy else [])
            fs, note = _pick(sim, rid, make, decoys, n,
                             sum(1 for t in res.trials if t.kind == kind))
            if not fs:
                why_not.append(f"{ex!r}: {note}")
                continue
            n += len(fs)
            if kind == "regex":
                note = "a regex on the raw line: rewritten forms are not tried (it is evadable)"
            res.trials.append(Trial(rid, kind, ex, tuple(fs), access=access, decoy=decoy,
                                    stubs=tuple(names), note=note))
            break
        else:
            skip("none of its deny examples can be tried: " + "; ".join(why_not))
    res.sim = sim
    return _recheck(res, sim)


def _recheck(res: Trials, sim: _Sim) -> Trials:
    """Every kept form again, with all the turn's decoys in place (a later decoy can change
    what an earlier glob finds)."""
    keep = []
    for t in res.trials:
        bad = [f for f in t.forms if sim.decide(f.command, res.decoys) != ("deny", t.rule)]
        if bad:
            res.untried.append(Untried(t.rule, t.kind, f"{bad[0].command!r} is decided by another "
                                                       "rule once the turn's other decoys exist"))
        else:
            keep.append(t)
    res.trials = keep
    return res


def compiled_doc(host, profile_obj, target: str) -> tuple[dict | None, dict | None, str]:
    """(policy with examples, the target's compiled document, why not): the document is the
    one the install writes (core.policy.compiled.desired_item), so the trials are decided on
    what the handler will read."""

    pol = compiled.policy_of(profile_obj)
    if pol is None or not (pol["rules"] or pol["paths"]):
        return None, None, NONE
    try:
        item = compiled.desired_item(profile_obj, host, target)
    except UserError as e:
        return None, None, f"the profile's policy does not compile: {e}"
    if item is None:
        return None, None, NONE
    return pol, json.loads(item.value), ""


def for_target(host, profile: str, target: str, home: str, work: str) -> Trials:
    pol, doc, why = compiled_doc(host, profiles.resolve(host, profile), target)
    if doc is None or pol is None:
        return Trials(note=why)
    return choose(pol, doc, home, work, shipped=shipped_ids(host))


# ---- what the scratch folder needs for the trials ---------------------------------------------

#: separates a stub call's arguments in its marker file (a control character no argument of
#: the drill's forms holds)
ARG_SEP = "\x1f"


def stub_script(work: str, name: str) -> str:
    """The stub: appends its arguments (ARG_SEP after each) and a line break to its marker."""
    out = shlex.quote(posixpath.join(work, stub_marker(name)))
    return (f"#!/bin/sh\nfor a in \"$@\"; do printf '%s\\037' \"$a\" >> {out}; done\n"
            f"printf '\\n' >> {out}\nexit 0\n")


def stub_calls(text: str) -> list[list[str]]:
    """The calls a stub recorded (stub_script), each its argument list."""
    calls = []
    for i, line in enumerate(text.split("\n")):
        if line or i < text.count("\n"):
            calls.append(line.split(ARG_SEP)[:-1])
    return calls


def stub_calls_denied(trials: Trials, calls: dict[str, list[list[str]]]) -> dict[str, list[str]]:
    """Per argv trial's rule: the stub calls (as command lines) its rule denies. A call the rule
    does not deny (the CLI's own `git status`) is no evidence against the rule."""
    out: dict[str, list[str]] = {}
    if trials.sim is None:
        return out
    for t in trials.trials:
        hits = []
        for name in t.stubs:
            for args in calls.get(name, []):
                cmd = shlex.join([name, *args])
                if trials.sim.decide(cmd, trials.decoys) == ("deny", t.rule):
                    hits.append(cmd)
        if hits:
            out[t.rule] = hits
    return out


def path_line(bin_dir: str) -> str:
    return f'PATH={shlex.quote(bin_dir)}:"$PATH"; export PATH\n'


#: the scratch home's start-up files that put the stub folder first again (a login shell's
#: /etc/profile resets PATH)
RC_FILES = (".profile", ".bash_profile", ".bashrc", ".zshenv")
