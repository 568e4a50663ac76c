"""Command rules matched on argv (`command` + `args` of a [[policy.rules]] entry).

    {"command": ["rm"], "args": ["-r|-R|--recursive", "-f|--force"]}

matches a simple command whose program (its path reduced to its name) is one of `command` and
whose arguments hold every group of `args`, in any order. A group is alternatives split on `|`:
- a short option `-r` is present in any cluster (`-rf`, `-fr`, `-Rf` for `-R`): every letter of a
  cluster is an option of its own;
- a long option `--force` is present as itself, as `--force=...`, or as an unambiguous prefix the
  program accepts (`--for`: GNU getopt takes any prefix, so every prefix counts);
- any other alternative is a word that must appear among the arguments (an fnmatch pattern);
`--` ends the options: what follows is never an option.
"""
from __future__ import annotations

from fnmatch import fnmatchcase


def _options(args: list[str]) -> tuple[set[str], set[str], list[str]]:
    """(short option letters, long option names, positional words) of argv[1:]."""
    short: set[str] = set()
    long: set[str] = set()
    words: list[str] = []
    ended = False
    for a in args:
        if ended or a == "-" or not a.startswith("-"):
            words.append(a)
            continue
        if a == "--":
            ended = True
            continue
        if a.startswith("--"):
            long.add(a[2:].split("=", 1)[0])
        else:
            short.update(a[1:])
            words.append(a)          # `find -delete`, `-exec`: single-dash words too
    return short, long, words


def _alt_present(alt: str, short: set[str], long: set[str], words: list[str]) -> bool:
    if alt.startswith("--") and len(alt) > 2:
        name = alt[2:]
        return any(name == got or (len(got) >= 1 and name.startswith(got)) for got in long)
    if alt.startswith("-") and len(alt) == 2:
        return alt[1] in short
    if alt.startswith("-"):
        return alt in words or all(c in short for c in alt[1:])
    return any(fnmatchcase(w, alt) for w in words)


def matches(rule: dict, name: str, args: list[str]) -> bool:
    """Whether one simple command (program name, its arguments with values known) is the
    rule's. Arguments whose value is not known are left out by the caller."""
    names = rule.get("command")
    names = [names] if isinstance(names, str) else names or []
    if name not in names:
        return False
    short, long, words = _options(args)
    for group in rule.get("args") or []:
        alts = [a for a in group.split("|") if a]
        if not any(_alt_present(a, short, long, words) for a in alts):
            return False
    return True
