"""Item kinds as types: what agentdeck manages, one class per kind (as chezmoi's target-state
entries are), behind one interface (base.ItemKind):

- file:   a whole file we generate (value: its text), with a mode          (file.py)
- key:    one key path inside a structured settings file (value: JSON)     (key.py)
- member: one element of the list at a key path, shared with the operator  (key.py; a "key"
          with Desired.member set)
- block:  the body of a managed block between marker lines in a text file  (block.py)
- link:   a symlink (value: the link's target)                             (link.py)
- aside:  another tool's file taken out of the way (it must be absent)     (aside.py)

Each kind owns its fingerprint, how it reads what is on disk, what the manifest records and
the plan shows, and the ops (core/ops.py) that write it and take it out again. The planner,
the applier and the renderer ask the kind (`KINDS[name]`, `kind_of(item)`) instead of naming
it; the serialized form of a kind stays its name (plan JSON, manifests).
"""
from __future__ import annotations

from typing import Any

from .aside import AsideKind
from .base import ASIDE_FP, REAL_IN_THE_WAY, ItemKind, OpContext
from .block import BlockKind
from .file import FileKind
from .key import KeyKind, MemberKind, find_member, with_member, without_member
from .link import LinkKind

FILE, KEY, MEMBER, BLOCK, LINK, ASIDE = (FileKind(), KeyKind(), MemberKind(), BlockKind(),
                                         LinkKind(), AsideKind())

#: every kind, by the name it is written as (Desired.kind, the manifest's and plan JSON's "kind")
KINDS: dict[str, ItemKind] = {k.name: k for k in (FILE, KEY, BLOCK, LINK, ASIDE)}
#: every kind type, the member too (it is written as "key")
ALL: tuple[ItemKind, ...] = (FILE, KEY, MEMBER, BLOCK, LINK, ASIDE)


def kind_of(item: Any) -> ItemKind:
    """The kind of a Desired item or a manifest Entry (a key with `member` set is a member).
    KeyError: a kind that is not registered."""
    k = KINDS[item.kind]
    return MEMBER if k is KEY and getattr(item, "member", None) else k


__all__ = ["ALL", "ASIDE", "ASIDE_FP", "BLOCK", "FILE", "KEY", "KINDS", "LINK", "MEMBER",
           "REAL_IN_THE_WAY", "ItemKind", "OpContext", "find_member", "kind_of", "with_member",
           "without_member"]
