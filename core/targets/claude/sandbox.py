"""Claude Code's command sandbox as a floor under protected paths: each [[policy.paths]] deny rule,
also written as `sandbox.filesystem.denyRead` / `denyWrite` entries in ~/.claude/settings.json,
so a Bash command cannot open the file whatever built its path (`python3 -c` joining pieces at
run time, which neither the hook nor permissions.deny can read).

    translate(rule) -> Translation(entries=[("denyRead", "~/.ssh/id_*[ac...-]"), ...], ...)
    add_to(st, policy, settings_path, settings, manifest, display)  # the plan's member items

Claude Code 2.1.332 (observed, facts.py SANDBOX): the sandbox (bubblewrap on Linux) denies the
open itself; `~/` is the home and `/` the root; globs are expanded with `*` and positive classes
as in the rule, no negated class, case-sensitive matching. So a rule becomes

  access read  -> denyRead  <pattern>
  access write -> denyWrite <pattern>

with an except spelled into the patterns as for permissions.deny (path_spelling.minus, a
positive class over the same alphabet), or that path left to the hook.

With the sandbox on, Claude also enforces permissions.deny's Read(...)/Edit(...) entries in it
(observed), so agentdeck's permissions entries are part of the floor as well; the sandbox's own
entries keep it when those are not written (a profile that owns "permissions") or were removed.

agentdeck never switches the sandbox on (it changes how every Bash command runs: writes outside
the working folder fail, network goes through its proxy): entries are added only while the
operator's own settings.json has `sandbox.enabled: true`. Otherwise nothing is written and the
plan says why. The layer is open to a command the model marks `dangerouslyDisableSandbox` unless
the operator also sets `sandbox.allowUnsandboxedCommands: false`, and to every command when
bubblewrap or socat is missing unless `sandbox.failIfUnavailable` is true (Claude then runs them
unsandboxed without a word): the plan warns while either is open.

Plan items: each entry is ONE member of the list at its key (Desired.member, matched by the exact
string), like permissions.deny (permission_list.py): the operator's entries are never compared,
rewritten or removed; one they had before stays theirs; uninstall removes exactly ours.
"""
from __future__ import annotations

from pathlib import Path

from ...desired import Desired, DesiredState
from ..output import PathRuleEntries, SandboxEntry, SandboxInfo
from ..path_spelling import Dialect, Translation, translate_paths
from . import facts as F

T = "claude"

SANDBOX = Dialect(cli="Claude's sandbox", home=F.SANDBOX_ROOTS["home"],
                  absolute=F.SANDBOX_ROOTS["absolute"], unsupported=F.SANDBOX_UNSUPPORTED,
                  ignore_case=False, negated_class=False, alphabet=F.PERMISSION_CLASS_ALPHABET)

#: the entry kind per access: the last key of its list
KIND = {a: key[-1] for a, key in F.SANDBOX_KEYS.items()}


def translate(rule: dict) -> Translation:
    """The sandbox entries of one [[policy.paths]] rule: (kind, pattern) pairs (plain data)."""
    tr = translate_paths(rule, SANDBOX, lambda a, pat: (KIND[a], pat), "Claude's sandbox")
    if tr.entries:
        tr.notes.append("only for Bash commands Claude runs in its sandbox: not under "
                        "sandbox.enabled false, and not for a command the model marks "
                        "dangerouslyDisableSandbox unless sandbox.allowUnsandboxedCommands is false")
    return tr


def translations(policy: dict | None) -> list[Translation]:
    return [translate(r) for r in (policy or {}).get("paths") or [] if isinstance(r, dict)]


def _ours(manifest, settings_path: Path) -> set[tuple[str, str]]:
    return {(e.key[-1], e.member) for e in manifest.entries.values()
            if e.kind == "key" and e.path == str(settings_path) and e.member
            and tuple(e.key) in F.SANDBOX_KEYS.values()}


def _why_not(settings: dict | None) -> str:
    """Why agentdeck writes no entry on this settings file, or ""."""
    sb = (settings or {}).get("sandbox")
    if not isinstance(sb, dict) or sb.get("enabled") is not True:
        return ("settings.json does not set sandbox.enabled to true: agentdeck does not switch "
                "Claude's sandbox on (it changes how every Bash command runs)")
    fs = sb.get("filesystem")
    if fs is not None and not isinstance(fs, dict):
        return "sandbox.filesystem in settings.json is not an object"
    for key in F.SANDBOX_KEYS.values():
        if isinstance(fs, dict) and key[-1] in fs and not isinstance(fs[key[-1]], list):
            return f"sandbox.filesystem.{key[-1]} in settings.json is not a list"
    return ""


def add_to(st: DesiredState, policy: dict | None, settings_path: Path, settings: dict | None,
           manifest, display) -> SandboxInfo:
    """Add one member item per entry agentdeck contributes, when the operator's sandbox is on;
    returns the report (SandboxInfo: whether it is on and why nothing is written, its ways out,
    a SandboxEntry per entry, each rule's translation)."""
    trs = translations(policy)
    rules = tuple(PathRuleEntries.of(t) for t in trs)
    wanted: dict[tuple[str, str], str] = {}
    for t in trs:
        for e in t.entries:
            wanted.setdefault(e, t.rule)
    if not wanted:
        return SandboxInfo(file=str(settings_path), rules=rules)
    why = _why_not(settings)
    if why:
        if "not switch" not in why:
            st.warn(f"{display(settings_path)}: {why}; agentdeck writes no sandbox entry until "
                    "you fix it (the hook still enforces the [[policy.paths]] rules)")
        return SandboxInfo(file=str(settings_path), rules=rules,
                           why=why + "; the hook and permissions.deny still enforce the rules")
    sb = (settings or {})["sandbox"]
    escape = sb.get("allowUnsandboxedCommands") is not False
    fail_open = sb.get("failIfUnavailable") is not True
    holes = ([("a command the model marks dangerouslyDisableSandbox (set sandbox."
               "allowUnsandboxedCommands to false)")] if escape else []) + (
        [("every command when bubblewrap or socat is missing: Claude then runs them unsandboxed "
          "without a word (set sandbox.failIfUnavailable to true)")] if fail_open else [])
    if holes:
        st.warn(f"{display(settings_path)}: the sandbox entries agentdeck writes do not hold for "
                + "; nor for ".join(holes))
    fs = sb.get("filesystem") if isinstance(sb.get("filesystem"), dict) else {}
    ours = _ours(manifest, settings_path)
    entries: list[SandboxEntry] = []
    for (kind, pattern), rule in wanted.items():
        key = F.SANDBOX_KEYS["read" if kind == KIND["read"] else "write"]
        have = fs.get(kind) or []
        if pattern in have and (kind, pattern) not in ours:
            entries.append(SandboxEntry(kind, pattern, rule, "yours"))
            continue
        entries.append(SandboxEntry(kind, pattern, rule, "ours" if pattern in have else "new"))
        st.add(Desired(T, settings_path, "key", pattern, key=key, member=pattern, fmt="json",
                       label=f"sandbox.filesystem.{kind} {pattern}", group="hooks",
                       reason=f"policy path rule {rule}: Claude's sandbox (you turned it on) "
                              "denies the file to every sandboxed command, whatever builds its "
                              "path; your entries in the list stay as they are"))
    return SandboxInfo(file=str(settings_path), enabled=True, escape=escape, fail_open=fail_open,
                       entries=tuple(entries), rules=rules)
