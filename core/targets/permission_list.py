"""A CLI's own deny list of Claude-style entries, `Read(<path>)` / `Edit(<path>)` in a settings
file's `permissions.deny`: each [[policy.paths]] deny rule also written there, so the path stays
denied when the hook is gone. Shared by the targets whose CLI reads such a list (each package's
permissions.py says how its CLI spells a path: a path_spelling.Dialect, and the entry per access).

    translate(rule, dialect, entry) -> Translation(entries=["Read(~/.ssh/id_*[...])", ...], ...)
    add_to(target, st, trs, settings_path, settings, manifest, display, cli=, title=, fmt=)

Plan items: each entry is ONE member of the list at ("permissions", "deny") (Desired.member,
matched by the exact string): the operator's entries are never compared, rewritten, reordered or
removed; an entry the operator had before agentdeck stays theirs (not recorded as ours, so
uninstall leaves it); uninstall removes exactly the entries agentdeck added.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from ..desired import Desired, DesiredState
from .output import DenyEntry, PathRuleEntries, PermissionsInfo
from .path_spelling import Dialect, Translation, translate_paths

DENY_KEY = ("permissions", "deny")


def translate(rule: dict, d: Dialect, entry: Mapping[str, str]) -> Translation:
    """The deny-list entries of one [[policy.paths]] rule (plain data): `entry` names the entry
    kind per access ({"read": "Read", "write": "Edit"}); path_spelling.translate_paths does the
    rest (an except spelled into the patterns, or the path left to the hook)."""
    return translate_paths(rule, d, lambda a, pat: f"{entry[a]}({pat})",
                           f"{d.cli}'s permissions.deny")


def _ours(manifest, settings_path: Path) -> set[str]:
    """The permissions.deny entries agentdeck recorded as its own members."""
    return {e.member for e in manifest.entries.values()
            if e.kind == "key" and e.path == str(settings_path) and e.member
            and list(e.key) == list(DENY_KEY)}


def on_disk_entries(settings: dict | None) -> list[Any] | None:
    perms = (settings or {}).get("permissions")
    deny = perms.get("deny") if isinstance(perms, dict) else None
    return deny if isinstance(deny, list) else None


def add_to(target: str, st: DesiredState, trs: list[Translation], settings_path: Path,
           settings: dict | None, manifest, display, *, cli: str, title: str,
           fmt: str = "json") -> PermissionsInfo:
    """Add one member item per entry agentdeck contributes; returns the report
    (PermissionsInfo: the file, a DenyEntry per entry, each rule's translation). `cli`/`title`:
    the CLI's short name and title, for the messages ("Claude", "Claude Code")."""
    rules = tuple(PathRuleEntries.of(t) for t in trs)
    entries: list[DenyEntry] = []

    def report() -> PermissionsInfo:
        return PermissionsInfo(file=str(settings_path), entries=tuple(entries), rules=rules)

    wanted: dict[str, str] = {}
    for t in trs:
        for e in t.entries:
            wanted.setdefault(e, t.rule)
    if not wanted:
        return report()
    perms = (settings or {}).get("permissions")
    if perms is not None and not isinstance(perms, dict):
        st.warn(f"{display(settings_path)}: \"permissions\" is not an object, so {cli} ignores "
                "it; agentdeck writes no permissions.deny entry until you fix it (the hook still "
                "enforces the [[policy.paths]] rules)")
        return report()
    raw = on_disk_entries(settings)
    if isinstance(perms, dict) and "deny" in perms and raw is None:
        st.warn(f"{display(settings_path)}: permissions.deny is not a list; agentdeck leaves it "
                "alone and writes no entry (the hook still enforces the [[policy.paths]] rules)")
        return report()
    have = list(raw or [])
    ours = _ours(manifest, settings_path)
    for entry, rule in wanted.items():
        if entry in have and entry not in ours:
            entries.append(DenyEntry(entry, rule, "yours"))
            continue
        entries.append(DenyEntry(entry, rule, "ours" if entry in have else "new"))
        st.add(Desired(target, settings_path, "key", entry, key=DENY_KEY, member=entry, fmt=fmt,
                       label=f"permissions.deny {entry}", group="hooks",
                       reason=f"policy path rule {rule}: {title}'s own deny, which holds "
                              "without the hook; your entries in the list stay as they are"))
    return report()
