"""Codex's own deny for protected paths: each [[policy.paths]] deny rule on reads, also written
into the operator's own sandbox permission profile in config.toml, so a sandboxed shell command
cannot open the file even when the hook is gone.

    translate(rule) -> Translation(entries=[("~/.ssh/id_*[!b]", "none"), ...], ...)
    profile_name(config) -> (the profile agentdeck adds to, or None, why not)
    add_to(st, policy, config_path, config, profile_sets_permissions, display) -> the info block

Codex 0.171.0 (observed, facts.py PERMISSIONS): `[permissions.<name>.filesystem]` entries
`"<pattern>" = "none"` deny reading and writing; `[!c]` negates a class; matching is
case-sensitive. An EXACT path that does not exist can stop every session from starting (bwrap
"Can't get type of source ...", nondeterministically), a glob that matches nothing cannot; so
every entry is a glob, an exact path written as a one-file glob (`~/.aws/credential[s]`):

  access read (with or without write) -> "<glob>" = "none"   (writing is denied too)
  access write only                   -> left to the hook: a glob can only be "none", which
                                         would deny reading, which the rule allows

and an except is spelled into the pattern as for Claude (path_spelling.py), with `[!c]`.

agentdeck never chooses a permission profile for the operator (that changes how every command
runs): entries are added only when config.toml's `default_permissions` names a profile the
operator defined there ([permissions.<name>]). Otherwise nothing is written and the plan, like
`policy show`, says the hook is the only layer. Each entry is its own key item at
("permissions", <name>, "filesystem", <glob>): an entry the operator wrote is theirs (the usual
three-state rule: a different value is a conflict to decide, the same value is kept at
uninstall), and uninstall removes exactly the keys agentdeck added. The layer holds only while
Codex sandboxes its commands: `--dangerously-bypass-approvals-and-sandbox` switches it off.
"""
from __future__ import annotations

from pathlib import Path

from ...desired import Desired, DesiredState
from ..output import PathRuleEntries, PermissionProfileInfo, ProfileEntry
from ..path_spelling import Dialect, Translation, minus, spell_path

T = "codex"
_GLOB = "*?["

CODEX = Dialect(cli="Codex", home="~/", absolute="/", unsupported=("{", "}", "\\"),
                ignore_case=False, negated_class=True)


def _as_glob(pattern: str) -> str | None:
    """An exact path as a glob matching only it (its last character in a class), or None."""
    if any(c in pattern for c in _GLOB):
        return pattern
    last = pattern[-1]
    if last in "!^-]/":
        return None
    return f"{pattern[:-1]}[{last}]"


def translate(rule: dict) -> Translation:
    """The filesystem entries of one [[policy.paths]] rule in a Codex permission profile."""
    tr = Translation(str(rule.get("id") or ""))
    paths = [p for p in rule.get("paths") or [] if isinstance(p, str)]
    access = set(rule.get("access") or [])
    if rule.get("decision") != "deny":
        tr.skipped = [(p, f"decision {rule.get('decision')}: only deny rules are written to "
                          "Codex's permission profile") for p in paths]
        return tr
    if "read" not in access:
        tr.skipped = [(p, "a write-only rule: a Codex entry that holds for a missing file can "
                          "only be \"none\", which would deny reading too") for p in paths]
        return tr
    exc: list[str] = []
    for e in rule.get("except") or []:
        ce, why = spell_path(e, CODEX)
        if ce is None:
            tr.skipped = [(p, f"except {e}: {why}") for p in paths]
            return tr
        exc.append(ce)
    for p in paths:
        cp, why = spell_path(p, CODEX)
        if cp is None:
            tr.skipped.append((p, why))
            continue
        pats, why, exact = minus(cp, exc, CODEX)
        if not pats:
            tr.skipped.append((p, why))
            continue
        globs = [_as_glob(x) for x in pats]
        if None in globs:
            tr.skipped.append((p, "its last character cannot be written as a one-file glob"))
            continue
        for g in globs:
            if g not in [e[0] for e in tr.entries]:
                tr.entries.append((g, "none"))
        tr.written.append((p, ("as a one-file glob" if globs != pats else "as it is")
                           if exact else why))
    if tr.entries:
        if "write" not in access:
            tr.notes.append("\"none\" also denies writing these files in Codex")
        if any("**" in e[0] for e in tr.entries):
            tr.notes.append("Codex expands '**' only as deep as the profile's glob_scan_max_depth "
                            "on Linux (it warns when that is not set)")
        tr.notes.append("a sandbox rule for Codex's sandboxed shell commands (not under "
                        "--dangerously-bypass-approvals-and-sandbox); globs are expanded when a "
                        "command starts, so a file it creates itself is not covered")
    return tr


def translations(policy: dict | None) -> list[Translation]:
    return [translate(r) for r in (policy or {}).get("paths") or [] if isinstance(r, dict)]


def profile_name(config: dict | None) -> tuple[str | None, str]:
    """The operator's own permission profile that config.toml selects, or None and why not."""
    name = (config or {}).get("default_permissions")
    if not isinstance(name, str) or not name:
        return None, ("config.toml selects no permission profile (default_permissions); "
                      "agentdeck does not choose one for you")
    if name.startswith(":"):
        return None, (f"default_permissions is the built-in {name}, which agentdeck does not "
                      f"change; a profile of your own (extends = \"{name}\") gets this layer")
    perms = (config or {}).get("permissions")
    prof = perms.get(name) if isinstance(perms, dict) else None
    if not isinstance(prof, dict):
        return None, f"default_permissions names {name}, which config.toml does not define"
    fs = prof.get("filesystem")
    if fs is not None and not isinstance(fs, dict):
        return None, f"[permissions.{name}] filesystem is not a table; agentdeck leaves it alone"
    return name, ""


def add_to(st: DesiredState, policy: dict | None, config_path: Path, config: dict | None,
           profile_sets_permissions: bool, display) -> PermissionProfileInfo | None:
    """One key item per entry, in the operator's own profile; returns the report
    (PermissionProfileInfo: the file, the profile or why none, a ProfileEntry per entry, each
    rule's translation) or None when the policy has no [[policy.paths]] rule."""
    trs = translations(policy)
    if not trs:
        return None
    rules = tuple(PathRuleEntries.of(t) for t in trs)
    if profile_sets_permissions:
        name, why = None, ("the profile's codex/config.toml sets permissions itself; agentdeck "
                           "adds no entry")
    else:
        name, why = profile_name(config)
    if name is None:
        if any(t.entries for t in trs):
            st.note(f"[[policy.paths]] rules: the hook is the only layer in Codex here: {why}")
        return PermissionProfileInfo(file=str(config_path), rules=rules, profile=None, why=why)
    entries: list[ProfileEntry] = []
    for t in trs:
        for pat, value in t.entries:
            entries.append(ProfileEntry(pat, value, t.rule))
            st.add(Desired(T, config_path, "key", value,
                           key=("permissions", name, "filesystem", pat), fmt="toml",
                           label=f"permissions.{name}.filesystem {pat}", group="hooks",
                           reason=f"policy path rule {t.rule}: your permission profile {name} "
                                  f"denies it to sandboxed commands ({value}), without the hook"))
    return PermissionProfileInfo(file=str(config_path), entries=tuple(entries), rules=rules,
                                 profile=name, why=why)
