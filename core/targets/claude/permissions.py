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

Plan items (core/targets/permission_list.py, shared with Qwen Code's list): each entry is ONE
member of the list at ("permissions", "deny") (Desired.member, matched by the exact string): the
operator's entries are never compared, rewritten, reordered or removed; an entry the operator
had before agentdeck stays theirs (not recorded as ours, so uninstall leaves it); uninstall
removes exactly the entries agentdeck added.
"""
from __future__ import annotations

from pathlib import Path

from ...desired import DesiredState
from .. import permission_list
from ..output import PermissionsInfo
from ..path_spelling import Dialect, Translation
from . import facts as F

T = "claude"


CLAUDE = Dialect(cli="Claude", home=F.PERMISSION_ROOTS["home"],
                 absolute=F.PERMISSION_ROOTS["absolute"], unsupported=F.PERMISSION_UNSUPPORTED,
                 ignore_case=True, negated_class=False, alphabet=F.PERMISSION_CLASS_ALPHABET)


def translate(rule: dict) -> Translation:
    """The Claude permissions.deny entries of one [[policy.paths]] rule (plain data)."""
    tr = permission_list.translate(rule, CLAUDE, F.PERMISSION_ENTRY)
    if tr.entries:
        access = rule.get("access") or []
        tr.notes.append("Claude matches case-insensitively: case variants of these paths are "
                        "denied too")
        if "read" in access and "write" not in access:
            tr.notes.append("a Read deny also stops Claude's Edit and Write of these files")
        tr.notes.append("Claude applies them to simple Bash reads and writes of the file too, not "
                        "to Bash globs, recursive readers or interpreters (the hook covers those)")
    return tr


def translations(policy: dict | None) -> list[Translation]:
    return [translate(r) for r in (policy or {}).get("paths") or [] if isinstance(r, dict)]


def add_to(st: DesiredState, policy: dict | None, settings_path: Path, settings: dict | None,
           manifest, display) -> PermissionsInfo:
    """Add one member item per entry agentdeck contributes; returns the report
    (PermissionsInfo: a DenyEntry per entry, each rule's translation)."""
    return permission_list.add_to(T, st, translations(policy), settings_path, settings, manifest,
                                  display, cli="Claude", title="Claude Code")
