"""Claude Code's own deny for protected paths: each [[policy.paths]] deny rule, also written as
entries of `permissions.deny` in ~/.claude/settings.json, so the path stays denied when the
hook is gone (removed, emptied, timed out, or never run).

    translate(rule) -> Translation(entries=["Read(~/.ssh/id_*[ac...-])", ...], ...)
    add_to(st, policy, view, manifest, settings)   # the plan's member items

How a rule becomes entries (the observed syntax: core/facts/native_deny.py):

  access read  -> Read(<path>)    (Claude also refuses Edit/Write of a Read-denied file)
  access write -> Edit(<path>)    (covers Edit and Write; `Write(...)` enforces nothing)
  ~/x -> ~/x, /x -> //x; a relative path, `$HOME/...` or `~user` is left to the hook.

Claude has no exceptions (an allow never beats a deny, there is no `!`), so an `except` is
spelled into the pattern where that is exact: a rule path ending in `*` with an except `*<S>` in
the same directory (S literal, e.g. `~/.ssh/id_*` except `~/.ssh/*.pub`) becomes one entry per
character of S: "ends in a character other than S's last", "ends in <other>b", ... ("names
not ending in .pub"), each class written over CLAUDE_CLASS_ALPHABET. Every entry is a subset of
what the rule denies (nothing the rule allows is denied, case variants aside: Claude matches
case-insensitively); a name ending in a character outside that alphabet is left to the hook.
An except agentdeck cannot spell that way leaves that path to the hook alone, and says so.

Plan items: each entry is ONE member of the list at ("permissions", "deny") (Desired.member,
matched by the exact string): the operator's entries are never compared, rewritten, reordered or
removed; an entry the operator had before agentdeck stays theirs (not recorded as ours, so
uninstall leaves it); uninstall removes exactly the entries agentdeck added.
"""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..desired import Desired, DesiredState
from ..facts import native_deny as F

T = "claude"
DENY_KEY = ("permissions", "deny")
_GLOB = "*?["


@dataclass
class Translation:
    rule: str
    entries: list[str] = field(default_factory=list)
    #: (rule path, how it is expressed) for every path written
    written: list[tuple[str, str]] = field(default_factory=list)
    #: (rule path, why not) for every path left to the hook alone
    skipped: list[tuple[str, str]] = field(default_factory=list)
    #: what the entries cover differently from the rule (plain text)
    notes: list[str] = field(default_factory=list)


def _claude_path(p: str) -> tuple[str | None, str]:
    """(the Claude spelling of a rule path, or None, why not)."""
    if not isinstance(p, str) or not p.strip():
        return None, "not a path"
    bad = [c for c in F.CLAUDE_UNSUPPORTED if c in p]
    if bad:
        return None, (f"{' '.join(bad)} has another meaning in a Claude permission entry "
                      "(no negated classes, no braces)")
    if p.startswith("~/"):
        rest, root = p[2:], F.CLAUDE_ROOTS["home"]
    elif p.startswith("/"):
        rest, root = p.lstrip("/"), F.CLAUDE_ROOTS["absolute"]
    else:
        return None, ("not under ~/ or /: Claude resolves a relative entry against its project "
                      "root, agentdeck against the call's working directory")
    parts = [s for s in rest.split("/") if s not in ("", ".")]
    if not parts or ".." in parts:
        return None, "names no file below the root" if not parts else "holds '..'"
    return root + "/".join(parts), ""


def _split(p: str) -> tuple[str, str]:
    d, _, name = p.rpartition("/")
    return d, name


def _cls(excluded: str) -> str:
    chars = "".join(c for c in F.CLAUDE_CLASS_ALPHABET if c != excluded.lower())
    return f"[{chars}]"


def _literal_tail(name: str) -> str:
    """The fixed characters a glob name ends with (after its last `*`, `?` or class)."""
    cut = max(name.rfind("*"), name.rfind("?"), name.rfind("]"))
    return name[cut + 1:]


def _minus(path: str, exc: list[str]) -> tuple[list[str] | None, str, bool]:
    """The Claude patterns for `path` minus every except (both in Claude spelling):
    (patterns or None when it cannot be spelled, why, exact) -- [] when everything is excepted."""
    d, name = _split(path)
    suffixes: list[str] = []
    for e in exc:
        de, ne = _split(e)
        if de != d:
            if any(c in de + d for c in _GLOB):
                return None, f"except {e} may overlap it in a way Claude cannot express", False
            continue                              # another directory: no overlap
        if not any(c in ne for c in _GLOB):       # a literal name
            if ne == name:
                return [], f"except {e} names it", True
            if fnmatch.fnmatchcase(ne.lower(), name.lower()):
                return None, f"except {e} is one of the names it matches (Claude has no exceptions)", False
            continue
        if ne.startswith("*") and not any(c in ne[1:] for c in _GLOB) and ne[1:]:
            suffixes.append(ne[1:])
            continue
        return None, f"except {e} is not a '*<suffix>' pattern Claude could express", False
    if not suffixes:
        return [path], "", True
    if not any(c in name for c in _GLOB):         # a literal name: inside the except or not
        for s in suffixes:
            if name.endswith(s):
                return [], f"except *{s} covers it", True
            if name.lower().endswith(s.lower()):
                return None, f"it differs from except *{s} only in case (Claude ignores case)", False
        return [path], "", True
    tail = _literal_tail(name)
    if tail:                                      # e.g. *_rsa: compare its fixed ending
        for s in suffixes:
            a, b = tail.lower(), s.lower()
            if a.endswith(b) and len(tail) >= len(s):
                if tail.endswith(s):
                    return [], f"except *{s} covers it", True
                return None, f"it differs from except *{s} only in case (Claude ignores case)", False
            if b.endswith(a):                     # the ending fits inside the suffix: may overlap
                return None, f"except *{s} may overlap it in a way Claude cannot express", False
        return [path], "", True                   # its ending rules every except out
    if len(suffixes) > 1 or not name.endswith("*") or name.endswith("**"):
        return None, ("only one '*<suffix>' except on a name ending in '*' can be expressed "
                      "(Claude has no exceptions)"), False
    s = suffixes[0]
    head = f"{d}/{name}"                           # ends in "*"
    pats = [head + _cls(s[len(s) - 1 - i]) + s[len(s) - i:] for i in range(len(s))]
    return pats, (f"spelled as names not ending in {s} (a name ending in a character outside "
                  f"{F.CLAUDE_CLASS_ALPHABET} is left to the hook)"), False


def translate(rule: dict) -> Translation:
    """The Claude permissions.deny entries of one [[policy.paths]] rule (plain data)."""
    tr = Translation(str(rule.get("id") or ""))
    paths = [p for p in rule.get("paths") or [] if isinstance(p, str)]
    if rule.get("decision") != "deny":
        tr.skipped = [(p, f"decision {rule.get('decision')}: only deny rules are written "
                          "to Claude's permissions.deny") for p in paths]
        return tr
    access = [a for a in ("read", "write") if a in (rule.get("access") or [])]
    exc: list[str] = []
    for e in rule.get("except") or []:
        ce, why = _claude_path(e)
        if ce is None:
            tr.skipped = [(p, f"except {e}: {why}") for p in paths]
            return tr
        exc.append(ce)
    for p in paths:
        cp, why = _claude_path(p)
        if cp is None:
            tr.skipped.append((p, why))
            continue
        pats, why, exact = _minus(cp, exc)
        if pats is None:
            tr.skipped.append((p, why))
            continue
        if not pats:
            tr.skipped.append((p, why))
            continue
        for a in access:
            for pat in pats:
                entry = f"{F.CLAUDE_ENTRY[a]}({pat})"
                if entry not in tr.entries:
                    tr.entries.append(entry)
        tr.written.append((p, "as it is" if exact else why))
    if tr.entries:
        tr.notes.append("Claude matches case-insensitively: case variants of these paths are "
                        "denied too")
        if "read" in access and "write" not in access:
            tr.notes.append("a Read deny also stops Claude's Edit and Write of these files")
        tr.notes.append("Claude applies them to simple Bash reads and writes of the file too, not "
                        "to Bash globs, recursive readers or interpreters (the hook covers those)")
    return tr


def translations(policy: dict | None) -> list[Translation]:
    return [translate(r) for r in (policy or {}).get("paths") or [] if isinstance(r, dict)]


def _ours(manifest, settings_path: Path) -> set[str]:
    """The permissions.deny entries agentdeck recorded as its own members."""
    return {e.member for e in manifest.entries.values()
            if e.kind == "key" and e.path == str(settings_path) and e.member
            and list(e.key) == list(DENY_KEY)}


def on_disk_entries(settings: dict | None) -> list[Any] | None:
    perms = (settings or {}).get("permissions")
    deny = perms.get("deny") if isinstance(perms, dict) else None
    return deny if isinstance(deny, list) else None


def add_to(st: DesiredState, policy: dict | None, settings_path: Path, settings: dict | None,
           manifest, display) -> dict:
    """Add one member item per entry agentdeck contributes; returns the info block
    ({"file", "entries": [{"entry", "rule", "state"}], "rules": [...]})."""
    trs = translations(policy)
    info: dict[str, Any] = {"file": str(settings_path), "entries": [],
                            "rules": [{"id": t.rule, "entries": list(t.entries),
                                       "written": [list(x) for x in t.written],
                                       "skipped": [list(x) for x in t.skipped],
                                       "notes": list(t.notes)} for t in trs]}
    wanted: dict[str, str] = {}
    for t in trs:
        for e in t.entries:
            wanted.setdefault(e, t.rule)
    if not wanted:
        return info
    perms = (settings or {}).get("permissions")
    if perms is not None and not isinstance(perms, dict):
        st.warn(f"{display(settings_path)}: \"permissions\" is not an object, so Claude ignores "
                "it; agentdeck writes no permissions.deny entry until you fix it (the hook still "
                "enforces the [[policy.paths]] rules)")
        return info
    raw = on_disk_entries(settings)
    if isinstance(perms, dict) and "deny" in perms and raw is None:
        st.warn(f"{display(settings_path)}: permissions.deny is not a list; agentdeck leaves it "
                "alone and writes no entry (the hook still enforces the [[policy.paths]] rules)")
        return info
    have = list(raw or [])
    ours = _ours(manifest, settings_path)
    for entry, rule in wanted.items():
        if entry in have and entry not in ours:
            info["entries"].append({"entry": entry, "rule": rule, "state": "yours"})
            continue
        info["entries"].append({"entry": entry, "rule": rule,
                                "state": "ours" if entry in have else "new"})
        st.add(Desired(T, settings_path, "key", entry, key=DENY_KEY, member=entry, fmt="json",
                       label=f"permissions.deny {entry}", group="hooks",
                       reason=f"policy path rule {rule}: Claude Code's own deny, which holds "
                              "without the hook; your entries in the list stay as they are"))
    return info
