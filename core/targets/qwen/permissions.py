"""Qwen Code's own deny for protected paths: each [[policy.paths]] deny rule, also written as
entries of `permissions.deny` in <qwen home>/settings.json, so the path stays denied when the
hook is gone (removed, emptied, timed out, or answering allow).

    translate(rule) -> Translation(entries=["Read(~/.ssh/id_*[^b])", ...], ...)
    add_to(st, policy, settings_path, settings, manifest, display)   # the plan's member items

How a rule becomes entries (observed, facts.py "its own deny for file paths"; docs/facts/qwen.md
section 7):

  access read  -> Read(<path>)    (Qwen's Read covers read_file, grep_search, glob, list_directory)
  access write -> Edit(<path>)    (covers edit, write_file, notebook_edit)
  ~/x -> ~/x, /x -> //x (a single leading `/` is the project root there); a relative path,
  `$HOME/...` or `~user` is left to the hook.

Qwen has no exceptions, so an except is spelled into the pattern as for Claude
(core/targets/path_spelling.py), with Qwen's negated class `[^c]` (`[!c]` is not one there);
matching is case-sensitive. The list is Claude's (core/targets/permission_list.py): one member
item per entry, the operator's entries never touched, uninstall removes exactly agentdeck's.
"""
from __future__ import annotations

from pathlib import Path

from ...desired import DesiredState
from .. import permission_list
from ..output import PermissionsInfo
from ..path_spelling import Dialect, Translation
from . import facts as F

T = "qwen"

QWEN = Dialect(cli="Qwen", home=F.PERMISSION_ROOTS["home"], absolute=F.PERMISSION_ROOTS["absolute"],
               unsupported=F.PERMISSION_UNSUPPORTED, ignore_case=False, negated_class=True,
               negation=F.PERMISSION_NEGATION)


def translate(rule: dict) -> Translation:
    """The Qwen permissions.deny entries of one [[policy.paths]] rule (plain data)."""
    tr = permission_list.translate(rule, QWEN, F.PERMISSION_ENTRY)
    if tr.entries:
        tr.notes.append("Qwen applies them to a shell command's file operands too (cat, a glob "
                        "of the file), not to interpreters, $HOME/... paths or a search of the "
                        "folder (grep_search): the hook covers those")
    return tr


def translations(policy: dict | None) -> list[Translation]:
    return [translate(r) for r in (policy or {}).get("paths") or [] if isinstance(r, dict)]


def add_to(st: DesiredState, policy: dict | None, settings_path: Path, settings: dict | None,
           manifest, display, fmt: str = "jsonc") -> PermissionsInfo:
    """Add one member item per entry agentdeck contributes; returns the report
    (PermissionsInfo: a DenyEntry per entry, each rule's translation)."""
    return permission_list.add_to(T, st, translations(policy), settings_path, settings, manifest,
                                  display, cli="Qwen", title="Qwen Code", fmt=fmt)
