"""The Org tab's view of one target: the CLI's organisation layer as found on this machine
(core/org/found.py, what the doctor's `<target>.org.layer` row is made from) -- whether
agentdeck's org file is installed in the system layer, what it enforces (the compiled policy's
rules, the layer's keys such as managed-hooks-only), whether every file on its path passes the
ownership rule, and, when the doctor ran its live checks, whether the CLI itself sees the org
hook (the doctor's `<target>.org.live` row). Read-only: the app never writes the system layer;
the view says which command does.

A target whose package has no org part has no org layer: its view says only that.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, Iterable

from ..facts import org as F
from ..targets import registry


@dataclass(frozen=True)
class OrgKey:
    """A key of the layer that agentdeck writes (the target's org facts), as found."""
    name: str                       # in words: "managed hooks only"
    key: str                        # its key path in the layer file: "allowManagedHooksOnly"
    value: str = ""                 # as found, JSON ("" when not set)

    @property
    def set(self) -> bool:
        return bool(self.value)


@dataclass(frozen=True)
class OrgRule:
    """A rule of the compiled policy the org hook decides with."""
    id: str
    decision: str
    kind: str                       # "path" or "command"
    what: str
    access: tuple[str, ...] = ()


@dataclass(frozen=True)
class OrgLive:
    """The live doctor's `<target>.org.live` row: does the installed CLI see the org hook?"""
    result: str                     # ok | warning | error
    message: str
    fix: str = ""


@dataclass(frozen=True)
class OrgView:
    target: str
    title: str                      # the CLI as the operator knows it
    #: the target's package has an org part (else: no org layer, nothing else is said)
    has_layer: bool = False
    #: agentdeck's org file is in the CLI's system layer
    installed: bool = False
    #: not installed, but a file of someone else's (the administrator's) is at `path`
    foreign: bool = False
    #: a file at `path` may be the administrator's (a block's file, or the CLI's own name)
    shared: bool = False
    path: str = ""                  # the layer file as the CLI reads it (/etc/...)
    #: the system file the layer's keys are in, when not `path` (another file of the CLI's)
    keys_path: str = ""
    file: str = ""                  # the file read: the root prefix in front of `path`
    prefix: str = "/"               # the root prefix (AGENTDECK_ORG_ROOT; "/" on a real machine)
    kind: str = ""                  # "file" (a drop-in of agentdeck's own) or "block"
    verified: str = ""              # the CLI version the layer was observed with
    hook_event: str = ""            # the event the org hook is registered for
    #: the file runs agentdeck's org hook (False: changed by hand, or an older agentdeck)
    runs_hook: bool = False
    policy_file: str = ""           # the compiled policy, as the org hook reads it
    #: the compiled policy was found and read (False: missing or not a compiled policy)
    policy_found: bool = False
    rules: tuple[OrgRule, ...] = ()
    #: each file on the path that fails the ownership rule (root-owned, writable by no one
    #: else, no symlink, every parent), in words naming the file
    ownership: tuple[str, ...] = ()
    #: what the target says is wrong with the layer file's text
    problems: tuple[str, ...] = ()
    keys: tuple[OrgKey, ...] = ()
    limits: tuple[str, ...] = ()
    #: the CLI reports its managed sources offline (a live check is possible at all)
    live_probe: bool = False
    #: the doctor's live checks ran (this app's last doctor run)
    live_checked: bool = False
    live: OrgLive | None = None

    @property
    def ownership_ok(self) -> bool:
        return self.installed and not self.ownership

    @property
    def denies(self) -> int:
        return sum(1 for r in self.rules if r.decision == "deny")

    @property
    def result(self) -> str:
        """What the doctor's `<target>.org.layer` row says: ok, warning, error ("" when there
        is no row: not installed)."""
        if not self.installed:
            return ""
        if self.ownership or not self.policy_found or self.problems:
            return "error"
        return "ok" if self.runs_hook else "warning"

    @property
    def command(self) -> str:
        """The command that installs or changes the layer (the app never writes it)."""
        return self.org("apply")

    def org(self, action: str) -> str:
        """`sudo agentdeck org ACTION`, with the root prefix the layer is read under."""
        root = "" if self.prefix == "/" else f" --root {self.prefix}"
        return f"sudo agentdeck org {action}{root}"


def _words(option: str) -> str:
    return option.replace("_", " ")


def _value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dict):        # a table of names ("<name>" in the key path)
        return ", ".join(str(k) for k in value)
    if isinstance(value, list):        # a list of names (or of one-key tables naming one)
        names = [v if isinstance(v, str) else
                 (next(iter(v.values())) if isinstance(v, dict) and len(v) == 1 else None)
                 for v in value]
        if all(isinstance(n, str) for n in names):
            return ", ".join(str(n) for n in names) if names else "[] (none)"
        return f"{len(value)} entr{'y' if len(value) == 1 else 'ies'}"
    return json.dumps(value, ensure_ascii=False)


def of(host: Any, target: str) -> OrgView:
    """`target`'s org layer under the host's root prefix (core.org.found), without a live row
    (`with_live` adds the doctor's)."""
    title = registry.title(target)
    if target not in F.names():
        return OrgView(target, title)
    from ..org.found import found

    lay = found(host, target)
    facts = lay.facts
    base = OrgView(target, title, has_layer=True, path=facts.path, file=str(lay.file),
                   prefix=str(lay.prefix), kind=facts.kind, verified=facts.verified,
                   hook_event=facts.pre_tool_event, keys_path=facts.keys_path,
                   policy_file=f"{F.LIB_DIR}/policy/{target}.json",
                   limits=tuple(facts.limits), live_probe=lay.live_probe,
                   shared=facts.shared)
    if not lay.present:
        return dataclasses.replace(base, foreign=lay.foreign)
    return dataclasses.replace(
        base, installed=True, runs_hook=lay.runs_hook, policy_found=lay.rules is not None,
        rules=tuple(OrgRule(r.id, r.decision, r.kind, r.what, r.access)
                    for r in lay.rules or ()),
        ownership=lay.ownership, problems=tuple(p.message for p in lay.problems),
        keys=tuple(OrgKey(_words(k.option), ".".join(k.key), _value(k.value))
                   for k in lay.keys))


def with_live(view: OrgView, findings: Iterable[Any] | None, live_done: bool) -> OrgView:
    """`view` with the doctor's `<target>.org.live` row from `findings` (the doctor's last
    run, each a core.doctor Finding); `live_done`: that run included the live checks."""
    row = next((f for f in findings or () if getattr(f, "check", "") == f"{view.target}.org.live"),
               None)
    live = OrgLive(str(row.result), str(row.message), str(row.fix or "")) if row is not None \
        else None
    return dataclasses.replace(view, live_checked=bool(live_done), live=live)


def for_targets(host: Any, targets: Iterable[str]) -> dict[str, OrgView]:
    return {t: of(host, t) for t in targets}
