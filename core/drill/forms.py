"""The shell commands the drill's turn may call for one rule: its deny example, made inert, and
rewritten forms of it (what a model would try to get around the rule). Pure text functions;
core.drill.operator_rule keeps the ones the handler's own decision code denies by that rule.

Every candidate is (label, command) and leaves the file named `marker` in the turn's working
folder only when it really ran, so a deny that did not hold shows:

  regex rule   `: '<example>' ; touch <marker>` (the example is the no-op's argument; a regex on
               the raw line is evadable, so no rewritten form is tried: it proves nothing)
  argv rule    `<example> ; touch <marker>` with the program a stub first on PATH (the drill's
               scratch bin folder: the stub only touches a file); rewritten: flags split
               (`-rf` -> `-r -f`), the program's name quoted (`"rm"`), a variable (`P=rm; $P`)
  path rule    read: `cat <example> > <marker>` (the example a decoy file in the drill's
               scratch home); rewritten: a glob (`~/.ssh/id_r*`), `cd` first (`(cd ~/.ssh &&
               cat id_rsa) > <marker>`), `/./` inside the path
               write-only: `echo agentdeck-drill >> <example> ; touch <marker>`; rewritten:
               `cd` first, `/./` inside the path
"""
from __future__ import annotations

import posixpath
import shlex

DECOY = "agentdeck-drill-decoy\n"
WRITTEN = "agentdeck-drill"
#: characters that make an example more than one plain simple command (then only the literal)
_SHELL = set(";|&<>()`$\n*?[{")


def inert_regex(example: str, marker: str) -> list[tuple[str, str]]:
    return [("example, as the argument of `:`", f": {shlex.quote(example)} ; touch {marker}")]


def _split(text: str) -> list[str] | None:
    if any(c in _SHELL for c in text):
        return None
    try:
        words = shlex.split(text)
    except ValueError:
        return None
    return words or None


def _risky(word: str) -> bool:
    """An operand that names something outside the turn's working folder."""
    return word.startswith(("/", "~", "$")) or ".." in word.split("/") or any(
        c in word for c in "*?[")


def argv_forms(example: str, names: list[str], marker: str) -> list[tuple[str, str]]:
    """The example, then its rewritten forms (only for a plain simple command whose program
    is one of the rule's `names`). An operand naming something outside the working folder
    (`/`, `~`, `..`, a glob) is replaced by `drill-operand`, in case the stub were bypassed;
    an example that is more than a plain command and names such a thing gives nothing."""
    words = _split(example)
    if not words:
        if any(c in example for c in "/~$*?[") or ".." in example:
            return []
        return [("example", f"{example} ; touch {marker}")]
    prog, rest = posixpath.basename(words[0]), words[1:]     # by name: the stub runs
    ended, safe = False, []
    for w in rest:
        option = not ended and w.startswith("-") and w != "-"
        ended = ended or w == "--"
        safe.append(w if option or w == "--" or not _risky(w) else "drill-operand")
    same = safe == rest and prog == words[0]
    label = "example" if same else "example (by name, operands outside the work folder replaced)"
    q = " ".join(shlex.quote(w) for w in safe)
    tail = f" {q}" if q else ""
    out = [(label, f"{example if same else shlex.quote(prog) + tail} ; touch {marker}")]
    if prog not in names:
        return out
    split, ended = [], False
    for w in safe:
        if not ended and w.startswith("-") and not w.startswith("--") and len(w) > 2 \
                and w[1:].isalpha():
            split += [f"-{c}" for c in w[1:]]
        else:
            ended = ended or w == "--"
            split.append(w)
    if split != safe:
        out.append(("flags split", f"{prog} {' '.join(shlex.quote(w) for w in split)} "
                                   f"; touch {marker}"))
    out.append(("program name quoted", f'"{prog}"{tail} ; touch {marker}'))
    out.append(("program in a variable", f"P={shlex.quote(prog)}; $P{tail} ; touch {marker}"))
    return out


def _parts(example: str) -> tuple[str, str]:
    d, b = posixpath.split(example)
    return d or ".", b


def read_forms(example: str, marker: str) -> list[tuple[str, str]]:
    out = [("example read", f"cat {example} > {marker}")]
    d, b = _parts(example)
    if not b or any(c in _SHELL for c in example) or " " in example:
        return out
    if len(b) > 1:
        keep = max(1, len(b) - 2)
        out.append(("glob", f"cat {posixpath.join(d, b[:keep])}* > {marker}"))
    if d != ".":
        out.append(("cd first", f"(cd {d} && cat {b}) > {marker}"))
    out.append(("/./ in the path", f"cat {posixpath.join(d, '.', b)} > {marker}"))
    return out


def write_forms(example: str, marker: str) -> list[tuple[str, str]]:
    out = [("example written", f"echo {WRITTEN} >> {example} ; touch {marker}")]
    d, b = _parts(example)
    if not b or any(c in _SHELL for c in example) or " " in example:
        return out
    if d != ".":
        out.append(("cd first", f"(cd {d} && echo {WRITTEN} >> {b}) ; touch {marker}"))
    out.append(("/./ in the path", f"echo {WRITTEN} >> {posixpath.join(d, '.', b)} ; "
                                   f"touch {marker}"))
    return out
