"""Claude Code's own deny for protected paths: each [[policy.paths]] deny rule, also written as
entries of `permissions.deny` in ~/.claude/settings.json, so the path stays denied when the
hook is gone (removed, emptied, timed out, or never run).

    translate(rule) -> Translation(entries=["Read(~/.ssh/id_*[ac...-])", ...], ...)
    add_to(st, policy, view, manifest, settings)   # the plan's member items

How a rule becomes entries (the observed syntax: facts.py, "its own deny for file paths"):

  access read  -> Read(<path>)    (Claude also refuses Edit/Write of a Read-denied file)
  access write -> Edit(<path>)    (covers Edit and Write; `Write(...)` enforces nothing)
  ~/x -> ~/x, /x -> //x; a relative path, `$HOME/...` or `~user` is left to the hook.

Claude has no exceptions (an allow never beats a deny, there is no `!`), so an `except` is
spelled into the pattern where that is exact: a rule path ending in `*` with an except `*<S>` in
the same directory (S literal, e.g. `~/.ssh/id_*` except `~/.ssh/*.pub`) becomes one entry per
character of S: "ends in a character other than S's last", "ends in <other>b", ... ("names
not ending in .pub"), each class written over PERMISSION_CLASS_ALPHABET. Every entry is a subset of
what the rule denies (nothing the rule allows is denied, case variants aside: Claude matches
case-insensitively); a name ending in a character outside that alphabet is left to the hook.
An except agentdeck cannot spell that way leaves that path to the hook alone, and says so.

Plan items: each entry is ONE member of the list at ("permissions", "deny") (Desired.member,
matched by the exact string): the operator's entries are never compared, rewritten, reordered or
removed; an entry the operator had before agentdeck stays theirs (not recorded as ours, so
uninstall leaves it); uninstall removes exactly the entries agentdeck added.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ...desired import Desired, DesiredState
from ..path_spelling import Dialect, Translation, minus, spell_path
from . import facts as F

T = "claude"
DENY_KEY = ("permissions", "deny")


CLAUDE = Dialect(cli="Claude", home=F.PERMISSION_ROOTS["home"],
                 absolute=F.PERMISSION_ROOTS["absolute"], unsupported=F.PERMISSION_UNSUPPORTED,
                 ignore_case=True, negated_class=False, alphabet=F.PERMISSION_CLASS_ALPHABET)


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
        ce, why = spell_path(e, CLAUDE)
        if ce is None:
            tr.skipped = [(p, f"except {e}: {why}") for p in paths]
            return tr
        exc.append(ce)
    for p in paths:
        cp, why = spell_path(p, CLAUDE)
        if cp is None:
            tr.skipped.append((p, why))
            continue
        pats, why, exact = minus(cp, exc, CLAUDE)
        if pats is None:
            tr.skipped.append((p, why))
            continue
        if not pats:
            tr.skipped.append((p, why))
            continue
        for a in access:
            for pat in pats:
                entry = f"{F.PERMISSION_ENTRY[a]}({pat})"
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
