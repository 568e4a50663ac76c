"""A [[policy.paths]] rule path, minus its excepts, spelled as one CLI's own deny patterns; and
the record a target's policy part describes that CLI's own path deny with (NativeDeny).

Shared by the targets that write their CLI's own deny (each package's permissions.py: Claude's
and Qwen's permissions.deny, a Codex permission profile). Neither CLI has exceptions, so an except is
spelled into the patterns where that is exact:

  <dir>/<name>*  except  <dir>/*<S>  (S literal)
      -> one pattern per character of S: "<dir>/<name>*<not S[-1]>", "... <not S[-2]>S[-1]", ...
         i.e. the names that do not end in S; "<not c>" is `[!c]` or `[^c]` where the CLI negates
         classes (Codex, Qwen) and a positive class over an alphabet where it does not (Claude)
  a name with a fixed ending (*_rsa, *.pem, id_rsa) is compared with S: written as it is when
      the two cannot overlap, dropped when the except covers it

Anything else leaves that path to the hook, with the reason. Every pattern is a subset of what
the rule denies: nothing the rule allows is denied (case variants aside where a CLI ignores case).
"""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from typing import Any, Callable

_GLOB = "*?["


@dataclass
class Translation:
    """One rule in one CLI's own deny layer."""
    rule: str
    entries: list[Any] = field(default_factory=list)     # the CLI's entries, in order
    #: (rule path, how it is expressed) for every path written
    written: list[tuple[str, str]] = field(default_factory=list)
    #: (rule path, why not) for every path left to the hook alone
    skipped: list[tuple[str, str]] = field(default_factory=list)
    #: what the entries cover differently from the rule (plain text)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class NativeFact:
    """One thing a CLI's own path deny does, with the version it was verified for."""
    claim: str
    source: str            # observed (run for real) | documented (the CLI's own help text only)
    verified: str          # the CLI version it was observed for


@dataclass(frozen=True)
class NativeDeny:
    """A CLI's own deny for file paths, the one that holds without agentdeck's hook (a target's
    policy part's NATIVE_DENY, core/targets/parts/policy.py; core/native_layers.py reads it).

    written    True: agentdeck writes each [[policy.paths]] deny rule it can spell into `layer`;
               "conditional": only when `why` holds; False: never (`why` says why the hook is
               the only layer agentdeck installs)
    translate  rule -> Translation: the layer's entries for one rule (written True/"conditional")
    """
    verified: str                          # the CLI version the facts were observed for
    facts: tuple[NativeFact, ...]
    layer: str | None = None               # the layer's name, where agentdeck writes into it
    written: bool | str = False
    why: str = ""
    translate: Callable[[dict], Translation] | None = None


@dataclass(frozen=True)
class Dialect:
    cli: str                        # "Claude", "Codex": for the reasons
    home: str                       # how the home is written: "~/"
    absolute: str                   # how the filesystem root is written: "//" or "/"
    unsupported: tuple[str, ...]    # substrings that mean something else there
    ignore_case: bool               # the CLI matches case-insensitively
    negated_class: bool             # the CLI has a negated class ("any character but c")
    alphabet: str = ""              # else: the characters a "not c" class is written over
    negation: str = "!"             # the class's negation mark: `[!c]` (Codex), `[^c]` (Qwen)


def spell_path(p: object, d: Dialect) -> tuple[str | None, str]:
    """(the CLI's spelling of a rule path, or None, why not)."""
    if not isinstance(p, str) or not p.strip():
        return None, "not a path"
    bad = [c for c in d.unsupported if c in p]
    if bad:
        return None, f"{' '.join(bad)} means something else in a {d.cli} pattern"
    if p.startswith("~/"):
        rest, root = p[2:], d.home
    elif p.startswith("/"):
        rest, root = p.lstrip("/"), d.absolute
    else:
        return None, (f"not under ~/ or /: {d.cli} would resolve it against another directory "
                      "than the call's working directory")
    parts = [s for s in rest.split("/") if s not in ("", ".")]
    if not parts or ".." in parts:
        return None, "names no file below the root" if not parts else "holds '..'"
    return root + "/".join(parts), ""


def _split(p: str) -> tuple[str, str]:
    d, _, name = p.rpartition("/")
    return d, name


def _literal_tail(name: str) -> str:
    """The fixed characters a glob name ends with (after its last `*`, `?` or class)."""
    cut = max(name.rfind("*"), name.rfind("?"), name.rfind("]"))
    return name[cut + 1:]


def _not(c: str, d: Dialect) -> str:
    if d.negated_class:
        return f"[{d.negation}{c}]"
    chars = "".join(x for x in d.alphabet if x != (c.lower() if d.ignore_case else c))
    return f"[{chars}]"


def minus(path: str, excepts: list[str], d: Dialect) -> tuple[list[str] | None, str, bool]:
    """The patterns for `path` minus every except (all in the CLI's spelling):
    (patterns, or None when it cannot be spelled; why; exact) -- [] when all of it is excepted."""
    fold = (lambda s: s.lower()) if d.ignore_case else (lambda s: s)
    dr, name = _split(path)
    suffixes: list[str] = []
    for e in excepts:
        de, ne = _split(e)
        if de != dr:
            if any(c in de + dr for c in _GLOB):
                return None, f"except {e} may overlap it in a way {d.cli} cannot express", False
            continue                              # another directory: no overlap
        if not any(c in ne for c in _GLOB):       # a literal name
            if ne == name:
                return [], f"except {e} names it", True
            if fnmatch.fnmatchcase(fold(ne), fold(name)):
                return None, (f"except {e} is one of the names it matches ({d.cli} has no "
                              "exceptions)"), False
            continue
        if ne.startswith("*") and ne[1:] and not any(c in ne[1:] for c in _GLOB):
            suffixes.append(ne[1:])
            continue
        return None, f"except {e} is not a '*<suffix>' pattern {d.cli} could express", False
    if not suffixes:
        return [path], "", True
    tail = name if not any(c in name for c in _GLOB) else _literal_tail(name)
    literal = tail == name
    if tail:                                      # id_rsa, *_rsa: compare the fixed ending
        for s in suffixes:
            if fold(tail).endswith(fold(s)) and len(tail) >= len(s):
                if tail.endswith(s):
                    return [], f"except *{s} covers it", True
                return None, f"it differs from except *{s} only in case ({d.cli} ignores case)", False
            if not literal and fold(s).endswith(fold(tail)):
                return None, f"except *{s} may overlap it in a way {d.cli} cannot express", False
        return [path], "", True                   # its ending rules every except out
    if len(suffixes) > 1 or not name.endswith("*") or name.endswith("**"):
        return None, (f"only one '*<suffix>' except on a name ending in '*' can be expressed "
                      f"({d.cli} has no exceptions)"), False
    s = suffixes[0]
    head = f"{dr}/{name}"                          # ends in "*"
    pats = [head + _not(s[len(s) - 1 - i], d) + s[len(s) - i:] for i in range(len(s))]
    how = f"spelled as names not ending in {s}"
    if not d.negated_class:
        how += f" (a name ending in a character outside {d.alphabet} is left to the hook)"
    return pats, how, False


def translate_paths(rule: dict, d: Dialect, entry: Callable[[str, str], object],
                    where: str) -> Translation:
    """The entries of one [[policy.paths]] rule in a CLI's own path list (plain data):
    `entry(access, pattern)` makes one entry; `where` names the list in the words of a rule it
    does not take. The lists have no exceptions, so an except is spelled into the patterns
    (minus) or leaves the path to the hook. Claude's and Qwen's permissions.deny
    (targets/permission_list.py) and Claude's sandbox (targets/claude/sandbox.py) are this."""
    tr = Translation(str(rule.get("id") or ""))
    paths = [p for p in rule.get("paths") or [] if isinstance(p, str)]
    if rule.get("decision") != "deny":
        tr.skipped = [(p, f"decision {rule.get('decision')}: only deny rules are written "
                          f"to {where}") for p in paths]
        return tr
    access = [a for a in ("read", "write") if a in (rule.get("access") or [])]
    exc: list[str] = []
    for e in rule.get("except") or []:
        ce, why = spell_path(e, d)
        if ce is None:
            tr.skipped = [(p, f"except {e}: {why}") for p in paths]
            return tr
        exc.append(ce)
    for p in paths:
        cp, why = spell_path(p, d)
        if cp is None:
            tr.skipped.append((p, why))
            continue
        pats, why, exact = minus(cp, exc, d)
        if not pats:            # None: it cannot be spelled; []: all of it is excepted
            tr.skipped.append((p, why))
            continue
        for a in access:
            for pat in pats:
                made = entry(a, pat)
                if made not in tr.entries:
                    tr.entries.append(made)
        tr.written.append((p, "as it is" if exact else why))
    return tr

