#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: agentdeck contributors
# MIT License (see the agentdeck repository's pyproject.toml)
"""agentdeck.fleet.install: agentdeck's plan and apply, as an Ansible module.

The module runs on the managed host and drives the agentdeck installed there only through its
JSON interface (`plan --json`, `apply --json`, `uninstall --json`; docs/plan-format.md in the
agentdeck repository). It computes nothing itself: the plan, the per-file diff, the apply and its
safety checks are agentdeck's own. A real run hands the very plan document it computed back to
`apply --plan -`, so agentdeck refuses (nothing written) when the home changed in between.
"""
from __future__ import annotations

DOCUMENTATION = r"""
---
module: install
short_description: Roll an agentdeck profile out to Copilot CLI, Codex CLI and Claude Code
version_added: "0.1.0"
description:
  - Plans and applies an agentdeck profile on the
    managed host, the same plan C(agentdeck plan) shows and C(agentdeck apply) executes.
  - Runs the C(agentdeck) installed on the managed host through its JSON interface
    (C(plan --json), C(apply --json), C(uninstall --json)); nothing of agentdeck's engine is
    re-implemented here.
  - In check mode the plan is computed and nothing is written; C(changed) is true exactly when
    the plan has changes to files. With C(--diff) each file the plan would change is shown as one
    before/after, with credentials redacted as agentdeck redacts them.
  - A real run applies exactly the plan it computed. agentdeck refuses, and writes nothing, when
    any file it read (or the profile) changed between the plan and the apply; the task then fails
    with agentdeck's one-line message.
  - An item agentdeck would keep because you (or a program) changed it by hand, and a conflict
    between your value and the profile's, fails the task with the plan's one-line reasons until
    O(decisions) names it. A fleet never keeps a hand-edit silently.
  - Bad input on a host (a malformed settings.json, a profile error) fails that host's task with
    agentdeck's one-line error; the other hosts go on.
requirements:
  - agentdeck on the managed host (C(pip install agentdeck) or C(pipx install agentdeck)), a
    version with C(plan --diff), C(plan --uninstall) and C(apply --plan).
options:
  home:
    description:
      - The home to configure. It must exist (agentdeck never creates a home).
      - C(COPILOT_HOME), C(CODEX_HOME) and C(CLAUDE_CONFIG_DIR) default inside it unless set in
        the task's environment.
      - Default is the home of the user the task runs as (after C(become)).
    type: path
  profile:
    description:
      - The profile to install, bundled (C(default)) or the operator's own
        (C(~/.config/agentdeck/profiles/<name>/)). Ignored when O(state=absent).
    type: str
    default: default
  targets:
    description:
      - The CLIs to configure, any of C(copilot), C(codex), C(claude).
      - Default is the profile's targets.
    type: list
    elements: str
  state:
    description:
      - V(present) installs the profile (C(agentdeck apply)); V(absent) removes everything
        agentdeck wrote and puts back what was there before it, byte for byte
        (C(agentdeck uninstall)).
    type: str
    choices: [present, absent]
    default: present
  trust_hooks:
    description:
      - Whether agentdeck trusts its own hooks where the CLI runs only trusted hooks (for Codex,
        their C(trusted_hash) in config.toml). Unset, agentdeck's default applies, which is to
        trust its own hooks (never another tool's) unless the operator's layer says no. V(true)
        is C(--trust-hooks); V(false) is C(--no-trust-hooks), and Codex then skips them (the
        result says so in C(hooks_inert)). Ignored when O(state=absent).
    type: bool
  decisions:
    description:
      - Per-item decisions, a map of item to V(keep), V(take) or V(skip).
      - An item is named as C(agentdeck) names it with C(--keep ID) - its full id (see
        C(agentdeck plan --verbose)), its C(~/...) id, its label (C(disableAllHooks)), or any unique
        part of it - resolved against each host's plan.
      - V(keep) keeps what is on disk (for a planned change, leaves it out); V(take) writes the
        profile's value; V(skip) leaves the item as it is.
      - A decision for an item a host's plan no longer needs (already as the profile wants) is
        ignored on that host; a name that matches no item of a host's plan is reported as a
        warning.
    type: dict
    default: {}
  scope:
    description:
      - V(home) configures a user's home (C(agentdeck plan/apply/uninstall)).
      - V(org) installs the organisation layer into each CLI's root-owned system layer
        (C(agentdeck org plan/apply/uninstall); docs/org.md in the agentdeck repository), which
        the user cannot switch off. It needs root (C(become)); O(home) is then only where the
        profiles are read from (root's home by default), and O(trust_hooks) does not apply.
    type: str
    choices: [home, org]
    default: home
  root:
    description:
      - With O(scope=org), put the org layer under this folder instead of C(/) (every system
        path gets it in front; an image being built, tests).
    type: path
    default: /
  managed_hooks_only:
    description:
      - With O(scope=org), only the org layer's hooks run (Claude Code C(allowManagedHooksOnly),
        Codex C(allow_managed_hooks_only)); the users' own hooks stop.
    type: bool
    default: false
  no_bypass:
    description:
      - With O(scope=org), Claude Code's C(permissions.disableBypassPermissionsMode = disable).
    type: bool
    default: false
  executable:
    description:
      - Path (or name on C(PATH)) of C(agentdeck) on the managed host.
      - Default is C(agentdeck) found on C(PATH).
    type: path
attributes:
  check_mode:
    description: Computes agentdeck's plan and writes nothing, agentdeck's state dir included.
    support: full
  diff_mode:
    description: One before/after per file the plan would change, credentials redacted.
    support: full
  platform:
    description: Runs wherever agentdeck runs.
    support: full
    platforms: posix
notes:
  - The drift gate for CI is this module in check mode; see the collection's
    C(playbooks/drift.yml) and C(docs/fleet.md) in the agentdeck repository.
author:
  - agentdeck contributors (!UNKNOWN)
"""

EXAMPLES = r"""
- name: The organisation layer, which users cannot switch off (root)
  agentdeck.fleet.install:
    scope: org
    profile: team
  become: true

- name: Roll out the team's profile
  agentdeck.fleet.install:
    profile: team
    targets: [copilot, claude]
    decisions:
      disableAllHooks: take          # the profile's value wins over a hand-edit
      "~/.claude/settings.json#[\"model\"]": keep

- name: Review first (nothing is written)
  agentdeck.fleet.install:
    profile: team
  check_mode: true
  diff: true

- name: Take agentdeck's configuration off again, byte for byte
  agentdeck.fleet.install:
    state: absent
"""

RETURN = r"""
summary:
  description: The plan's one-line summary, as C(agentdeck plan) prints it.
  returned: always
  type: str
  sample: "Plan: 3 to add, 1 to change, 0 to remove."
counts:
  description: The plan's counts (C(summary) of the JSON plan without its text).
  returned: always
  type: dict
  sample: {"add": 3, "change": 1, "remove": 0, "hand_edits_kept": 0, "conflicts": 0,
           "record_only": 0, "changes_pending": true}
items:
  description: >-
    The items this run applies (check mode - would apply): each with id, target, path, label,
    class, decision and action (write, remove or record).
  returned: always
  type: list
  elements: dict
written:
  description: Files apply wrote (agentdeck's own manifests included).
  returned: when a real run applied something
  type: list
  elements: str
removed:
  description: Files apply removed.
  returned: when a real run applied something
  type: list
  elements: str
backup_dir:
  description: Where apply kept a copy of each file it replaced (null when it replaced none).
  returned: when a real run applied something
  type: str
undecided:
  description: The hand-edits and conflicts that need an entry in O(decisions) (the task fails).
  returned: on that failure
  type: list
  elements: dict
notices:
  description: agentdeck's notices for each target (level, message, path).
  returned: always
  type: dict
home:
  description: The home that was planned.
  returned: always
  type: str
profile:
  description: The profile planned (C((uninstall)) for O(state=absent)).
  returned: always
  type: str
targets:
  description: The targets planned.
  returned: always
  type: list
  elements: str
mode:
  description: C(install) or C(uninstall).
  returned: always
  type: str
kept:
  description: Removals apply refused for safety, one line each (a path reached through a link out of the home).
  returned: when a real run applied something
  type: list
  elements: str
"""

import json
import os
import pwd

from ansible.module_utils.basic import AnsibleModule

NEEDS_DECISION = ("conflict", "hand-edited", "foreign")
DECISIONS = ("keep", "take", "skip")


class ModuleError(Exception):
    """A one-line reason to fail this host's task."""

    def __init__(self, msg, **extra):
        super().__init__(msg)
        self.msg, self.extra = msg, extra


# ---- talking to agentdeck -----------------------------------------------------------------------

def one_line_error(stderr, rc):
    """agentdeck's one-line error from its stderr; never a traceback."""
    lines = [ln.strip() for ln in (stderr or "").splitlines() if ln.strip()]
    for ln in reversed(lines):
        if ln.startswith("agentdeck: error:"):
            return ln
    if any(ln.startswith("Traceback") for ln in lines):
        return "agentdeck failed (exit %d): %s" % (rc, lines[-1])
    if lines:
        return lines[-1] if lines[-1].startswith("agentdeck") else "agentdeck: " + lines[-1]
    return "agentdeck exited %d without a message" % rc


def run_agentdeck(module, exe, args, data=None, ok=(0,)):
    """(rc, parsed JSON document, stdout text) of one agentdeck command."""
    rc, out, err = module.run_command([exe] + args, data=data, check_rc=False,
                                      environ_update={"PYTHONIOENCODING": "utf-8",
                                                      "NO_COLOR": "1"})
    doc = None
    if rc in ok:
        try:
            doc = json.loads(out)
        except ValueError:
            pass
    if not isinstance(doc, dict):
        # an error (argparse's usage errors exit 2 too, like a plan with changes)
        if not (err or "").strip():
            raise ModuleError("agentdeck %s --json printed no JSON document (exit %d)"
                              % (args[0], rc), rc=rc)
        msg = one_line_error(err, rc)
        if "unrecognized arguments" in msg or "invalid choice" in msg:
            msg += (" (the agentdeck on this host is too old for this module: it needs plan "
                    "--diff, plan --uninstall and apply --plan)")
        raise ModuleError(msg, rc=rc)
    return rc, doc, out


def find_executable(module, executable):
    name = executable or "agentdeck"
    if "/" in name:
        path = name          # type="path": Ansible has expanded ~ and variables already
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        raise ModuleError("agentdeck is not at %s (not an executable file); install it or fix "
                          "the executable option" % name)
    found = module.get_bin_path(name)
    if not found:
        raise ModuleError("agentdeck is not installed on this host (%s is not on PATH); install "
                          "it (pip or pipx) or set the executable option" % name)
    return found


# ---- decisions ----------------------------------------------------------------------------------

def match_item(items, token, home):
    """The plan item `token` names, as agentdeck's own --keep/--take/--skip resolve it: the full
    id, the ~/ id, the label, then any unique part of the id or label. None: no item."""
    full = home.rstrip("/") + token[1:] if token.startswith("~/") else token
    for it in items:
        if it["id"] == full:
            return it
    low = token.lower()
    cands = [it for it in items if (it.get("label") or "").lower() == low]
    if len(cands) == 1:
        return cands[0]
    cands = [it for it in items if low in it["id"].lower() or low in (it.get("label") or "").lower()]
    if len(cands) == 1:
        return cands[0]
    if not cands:
        return None
    raise ModuleError("decisions: %r matches %d items of this host's plan; name it by its full id "
                      "(agentdeck plan --verbose lists them)" % (token, len(cands)))


def flag_for(item, decision):
    """The agentdeck flag (keep, take or skip; "" for the default) that carries `decision` for
    this item, or None when the item offers no such choice (nothing left to decide)."""
    choices = item.get("choices") or []
    if decision in choices:
        return decision
    if decision == "take" and "apply" in choices:
        return ""            # a planned change: applying it is taking the profile's value
    if decision == "keep" and "skip" in choices:
        return "skip"        # keeping what is on disk: leave the change out
    if decision == "skip" and "keep" in choices:
        return "keep"        # leaving a hand-edit as it is: keep it
    return None


def resolve_decisions(items, decisions, home):
    """(flags for agentdeck, ids decided, warnings) for one host's plan."""
    flags, decided, warnings = [], set(), []
    for token, value in (decisions or {}).items():
        value = str(value).strip().lower()
        if value not in DECISIONS:
            raise ModuleError("decisions: %r: %r is not keep, take or skip" % (token, value))
        item = match_item(items, str(token), home)
        if item is None:
            warnings.append("decisions: %r names no item of this host's plan" % token)
            continue
        flag = flag_for(item, value)
        if flag is None:
            if item["class"] in NEEDS_DECISION:
                raise ModuleError("decisions: %s (%s) cannot be %s here; choose %s"
                                  % (item.get("label") or item["id"], item["class"], value,
                                     " or ".join(item.get("choices") or [])))
            continue         # already as decided (e.g. taken at an earlier run)
        decided.add(item["id"])
        if flag:
            flags += ["--" + flag, item["id"]]
    return flags, decided, warnings


def shown(path, home):
    h = home.rstrip("/")
    return "~" + path[len(h):] if path == h or path.startswith(h + "/") else path


def undecided_items(items, decided):
    return [it for it in items if it["class"] in NEEDS_DECISION and it["id"] not in decided]


# ---- results ------------------------------------------------------------------------------------

def item_rows(items):
    keep = ("id", "target", "path", "label", "class", "decision", "action")
    return [dict((k, it.get(k)) for k in keep) for it in items if it.get("action") != "none"]


def ansible_diff(doc, home):
    out = []
    for f in doc.get("files") or []:
        name = shown(f["path"], home)
        out.append({"before_header": name + ("" if f.get("before") is not None else " (absent)"),
                    "after_header": name + ("" if f.get("after") is not None else " (absent)"),
                    "before": f.get("before") or "", "after": f.get("after") or ""})
    return out


def run(module):
    p = module.params
    home = os.path.abspath(p["home"] or pwd.getpwuid(os.getuid()).pw_dir)
    exe = find_executable(module, p["executable"])
    absent = p["state"] == "absent"
    org = p["scope"] == "org"
    if org and p["trust_hooks"]:
        raise ModuleError("trust_hooks does not apply with scope=org (Codex runs the org "
                          "layer's managed hooks with no trust step)")
    if not org and (p["managed_hooks_only"] or p["no_bypass"] or p["root"] not in (None, "/")):
        raise ModuleError("root, managed_hooks_only and no_bypass need scope=org")
    scope = ["org"] if org else []
    common = ["--home", home]
    if org:
        common += ["--root", os.path.abspath(p["root"] or "/")]
    for t in p["targets"] or []:
        common += ["--target", t]
    if not absent:
        common += ["--profile", p["profile"]]
        if p["trust_hooks"] is True:        # None: agentdeck's default (its own hooks trusted)
            common.append("--trust-hooks")
        elif p["trust_hooks"] is False:
            common.append("--no-trust-hooks")
    flags_org = []
    if org and not absent:
        flags_org = ((["--managed-hooks-only"] if p["managed_hooks_only"] else [])
                     + (["--no-bypass"] if p["no_bypass"] else []))
    planning = scope + ["plan", "--json"] + (["--uninstall"] if absent else []) + (
        ["--diff"] if module._diff else []) + flags_org

    doc, text = run_agentdeck(module, exe, planning + common, ok=(0, 2))[1:]
    flags, decided, warnings = resolve_decisions(doc["items"], p["decisions"], home)
    if flags:   # the same plan, with the decisions: what will be shown and applied
        doc, text = run_agentdeck(module, exe, planning + common + flags, ok=(0, 2))[1:]
    for w in warnings:
        module.warn(w)
    for target, notes in (doc.get("notices") or {}).items():
        for n in notes:
            if n.get("level") == "error":
                module.warn("%s: %s" % (target, n.get("message")))

    summary = dict(doc["summary"])
    result = {"changed": bool(summary.get("changes_pending")), "summary": summary.pop("text", ""),
              "counts": summary, "home": home, "mode": doc.get("mode"),
              "profile": doc.get("profile"), "targets": doc.get("targets"),
              "notices": doc.get("notices") or {}, "items": item_rows(doc["items"])}
    if module._diff:
        result["diff"] = ansible_diff(doc, home)

    waiting = undecided_items(doc["items"], decided)
    if waiting:
        reasons = "; ".join("%s in %s (%s): %s" % (
            it.get("label") or it["id"], shown(it["path"], home), it["class"],
            it.get("reason") or "") for it in waiting)
        raise ModuleError("%d %s on this host need%s a decision in `decisions` (keep or take): "
                          "%s" % (len(waiting), "item" if len(waiting) == 1 else "items",
                                  "s" if len(waiting) == 1 else "", reasons),
                          undecided=[dict((k, it.get(k)) for k in
                                          ("id", "label", "path", "class", "reason", "choices"))
                                     for it in waiting],
                          summary=result["summary"])
    if module.check_mode:
        return result

    verb = "uninstall" if absent else "apply"
    # exit 2 after an apply: applied, but hooks are inert (the reason and fix in the result)
    applied = run_agentdeck(module, exe, scope + [verb, "--json", "--yes", "--plan", "-"]
                            + common + flags + flags_org, data=text, ok=(0, 2))[1]
    res = applied.get("result")
    if res:
        result.update(written=res.get("written") or [], removed=res.get("removed") or [],
                      backup_dir=res.get("backup_dir"), kept=res.get("kept") or [],
                      hooks_inert=res.get("hooks_inert") or {})
        for target, lines in (res.get("hooks_inert") or {}).items():
            for line in lines:
                module.warn("%s: hooks inert: %s" % (target, line))
    result["items"] = item_rows((applied.get("plan") or doc)["items"])
    return result


def main():
    module = AnsibleModule(
        argument_spec=dict(
            home=dict(type="path"),
            profile=dict(type="str", default="default"),
            targets=dict(type="list", elements="str"),
            state=dict(type="str", choices=["present", "absent"], default="present"),
            trust_hooks=dict(type="bool", default=None),
            decisions=dict(type="dict", default={}),
            scope=dict(type="str", choices=["home", "org"], default="home"),
            root=dict(type="path", default="/"),
            managed_hooks_only=dict(type="bool", default=False),
            no_bypass=dict(type="bool", default=False),
            executable=dict(type="path"),
        ),
        supports_check_mode=True,
    )
    try:
        result = run(module)
    except ModuleError as e:
        module.fail_json(msg=e.msg, **e.extra)
    except Exception as e:  # never a traceback in the play output
        module.fail_json(msg="agentdeck.fleet.install: internal error: %s: %s"
                         % (type(e).__name__, e))
    module.exit_json(**result)


if __name__ == "__main__":
    main()
