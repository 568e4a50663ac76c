"""The org layer as found on this machine, read-only and as any user: for one CLI, whether its
system layer holds agentdeck's org file, what that file and the compiled policy beside the
handler enforce, and whether every file on the path passes the ownership rule
(core.org.ownership). The doctor's `<target>.org.layer` row (core/doctor/org_checks.py) and the
app's Org tab (core/views/org.py) are both made from it.

It reads only what every user can read (the layer files and the compiled policies are 0644);
agentdeck's state for the layer (/var/lib/agentdeck, root's 0700) is not read. The root prefix
is "/" unless the host's AGENTDECK_ORG_ROOT names another (tests, an image being built).
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..facts import org as F
from ..host import Host
from ..targets import registry
from ..targets.parts.org import OrgFacts, OrgProblem, layer_problems
from . import handler, ownership

#: the host's environment variable that puts a root prefix in front of every system path
ROOT_ENV = "AGENTDECK_ORG_ROOT"


def prefix(host: Host) -> Path:
    """The root prefix the org layer is read under: "/" unless AGENTDECK_ORG_ROOT says."""
    return Path(host.env.get(ROOT_ENV) or "/")


@dataclass(frozen=True)
class SetKey:
    """A key of the CLI's layer that agentdeck writes (the org part's FACTS.keys), as found."""
    option: str                     # agentdeck's name for it ("managed_hooks_only")
    key: tuple[str, ...]            # its key path in the layer file
    value: Any = None               # the value found (None: not set)

    @property
    def set(self) -> bool:
        return self.value is not None


@dataclass(frozen=True)
class PolicyRule:
    """One rule of the compiled policy the org hook decides with."""
    id: str
    decision: str
    kind: str                       # "path" ([[policy.paths]]) or "command" ([[policy.rules]])
    what: str                       # the paths, or the command rule's program or pattern
    access: tuple[str, ...] = ()    # a path rule's access (read, write)


@dataclass(frozen=True)
class FoundLayer:
    target: str
    facts: OrgFacts
    prefix: Path
    file: Path                      # the layer file, the prefix in front
    keys_file: Path                 # the file its keys are in (the layer file, or another)
    policy_file: Path               # the compiled policy the org hook reads
    text: str | None                # the layer file's text (None: not there)
    #: the layer file runs agentdeck's org hook (False: changed by hand, an older agentdeck)
    runs_hook: bool
    #: each file on the path (and the interpreter) that fails the ownership rule, in words
    ownership: tuple[str, ...]
    #: the compiled policy's rules (None: missing or not a compiled policy)
    rules: tuple[PolicyRule, ...] | None
    #: what the target's org part says is wrong with the layer file's text
    problems: tuple[OrgProblem, ...]
    keys: tuple[SetKey, ...]
    #: the CLI reports its managed sources offline (the org part's LIVE_PROBE): the live doctor
    #: then has a `<target>.org.live` row saying whether the CLI sees the org hook
    live_probe: bool = False
    #: a file is at the layer's path that is not agentdeck's (the administrator's own
    #: requirements.toml or system settings, without agentdeck's block or hook): no org layer
    foreign: bool = False

    @property
    def present(self) -> bool:
        """agentdeck's org file is there (the doctor shows a row for the CLI)."""
        return self.text is not None


def ours(facts: OrgFacts, text: str) -> bool:
    """`text`, found at the layer's path, is agentdeck's org file: a drop-in of agentdeck's own
    name always is; a file the administrator may have there too (facts.shared) only with
    agentdeck's block marker or the org hook's entry in it."""
    if not facts.shared:
        return True
    return f"{F.LIB_DIR}/{handler.ENTRY}" in text or any(m in text for m in facts.marks)


def _policy_rules(raw: str | None) -> tuple[PolicyRule, ...] | None:
    try:
        doc = json.loads(raw or "")
        rules, paths = doc["rules"], doc.get("paths") or []
        out = [PolicyRule(str(p.get("id") or "?"), str(p.get("decision") or "?"), "path",
                          ", ".join(str(x) for x in p.get("paths") or []),
                          tuple(str(a) for a in p.get("access") or []))
               for p in paths]
        for r in rules:
            cmd = r.get("command")
            what = ("|".join(str(c) for c in cmd) if isinstance(cmd, list) else str(cmd or "")) \
                or (f"/{r['match']}/" if r.get("match") else "")
            out.append(PolicyRule(str(r.get("id") or "?"), str(r.get("decision") or "?"),
                                  "command", what))
        return tuple(out)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _document(path: Path, text: str) -> dict[str, Any] | None:
    """The layer file as data, by its kind of file (a JSON drop-in, a TOML requirements file)."""
    try:
        data = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (ValueError, tomllib.TOMLDecodeError):
        return None
    return data if isinstance(data, dict) else None


#: a part of a key path that stands for each name of the table at that level
ANY_NAME = "<name>"


def _dig(doc: Any, key: tuple[str, ...]) -> Any:
    """The value at `key` (None: not set); at a part "<name>", {name: value} for each name of
    that table whose value has the rest of the path (None when none has)."""
    cur: Any = doc
    for n, k in enumerate(key):
        if not isinstance(cur, dict):
            return None
        if k == ANY_NAME:
            got = {name: _dig(v, key[n + 1:]) for name, v in cur.items()}
            got = {name: v for name, v in got.items() if v is not None}
            return got or None
        if k not in cur:
            return None
        cur = cur[k]
    return cur


def found(host: Host, target: str, root: Path | None = None) -> FoundLayer:
    """`target`'s org layer under `root` (default: the host's prefix). The target must have an
    org part (core.facts.org.names())."""
    root = prefix(host) if root is None else root
    at = lambda p: root / p.lstrip("/")  # noqa: E731
    part = registry.part(target, "org")
    facts: OrgFacts = part.FACTS
    layer = at(facts.path)
    keys_file = at(facts.keys_path) if facts.keys_path else layer
    text = host.read_text(layer) if host.is_file(layer) else None
    lib = at(F.LIB_DIR)
    policy = lib / "policy" / f"{target}.json"
    probe = getattr(part, "LIVE_PROBE", None) is not None and hasattr(part, "live_check")
    if text is None or not ours(facts, text):
        return FoundLayer(target, facts, root, layer, keys_file, policy, None, False, (), None,
                          (), (), probe, foreign=text is not None)
    runs = handler.hook_command(target, facts.pre_tool_event).split(" || ")[0] in text
    bad = ownership.interpreter_problems(host, F.PYTHON)
    for p in dict.fromkeys((layer, keys_file, *map(at, facts.runs), lib / handler.ENTRY,
                            policy)):
        bad += ownership.problems(host, p, root)
    rules = _policy_rules(host.read_text(policy) if host.is_file(policy) else None)
    keys_text = text if keys_file == layer else \
        (host.read_text(keys_file) if host.is_file(keys_file) else None)
    doc = _document(keys_file, keys_text) if keys_text is not None else None
    keys = tuple(SetKey(opt, tuple(k), _dig(doc, tuple(k))) for opt, k in facts.keys.items())
    return FoundLayer(target, facts, root, layer, keys_file, policy, text, runs,
                      tuple(dict.fromkeys(bad)), rules, tuple(layer_problems(part, text)), keys,
                      probe)


def all_found(host: Host, targets: list[str] | None = None) -> dict[str, FoundLayer]:
    """`found` for each of `targets` (default: all) that has an org layer."""
    names = F.names()
    return {t: found(host, t) for t in (targets if targets is not None else names)
            if t in names}
