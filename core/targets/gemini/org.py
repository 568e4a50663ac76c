"""Gemini CLI's organisation layer (docs/org.md): its system settings file,
/etc/gemini-cli/settings.json, as a whole file of agentdeck's own (the org hook with
`hooksConfig.enabled: true` pinned), and a policy file of agentdeck's own in the admin policies
folder, /etc/gemini-cli/policies/agentdeck.toml (the profile's deny rules Gemini's policy
engine can express, at the admin tier).

Observed with the CLI version in FACTS.verified (docs/facts/gemini.md section 9, reproduced by
tests/clients/test_org_real.py), in a real offline turn (scripted model server speaking the
Gemini API) run as an unprivileged user (uid 65534, setpriv) inside a private mount namespace
whose /etc was an overlay of the test's own (tests/clients/private_etc.py): the machine's /etc
was never touched. "holds" below means the tool call was refused (the marker file the call would
create stayed absent).

Gemini's system file is the highest settings layer for a scalar (its `hooksConfig.enabled: true`
beats the user's and a project's false) but not for `hooksConfig.disabled`, which is the union of
every layer's list: the org hook's name there, in the user's own settings, switches the hook off.
`GEMINI_CLI_SYSTEM_SETTINGS_PATH` moves the system file to one of the user's. Neither reaches the
admin policies folder (its path is fixed in the CLI), whose deny rules outrank every user rule
and hold under --yolo -- for the spellings they match: they match the text of a call's
arguments, not the file it reaches (section 8). FACTS.undone_by says so, the doctor's
`gemini.org.undo` row checks the user's side of each, and the drill tries only what holds.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ...desired import Desired
from ...facts.versions import frozen_map
from ..parts.org import LayerRequest, OrgAttempts, OrgFacts, OrgProblem, OrgRow
from . import SPEC
from .facts import GEMINI, VERIFIED
from ...wording import count_of

#: the org hook's `name` (what `hooksConfig.disabled` would have to list to stop it; not the
#: user layer's "agentdeck", so switching the user's own hooks off leaves the org hook running)
HOOK_NAME = "agentdeck-org"
#: agentdeck's file in the admin policies folder (the folder is fixed in the CLI: not movable)
POLICIES = GEMINI.admin_policies_dir + "/agentdeck.toml"
#: the admin-tier priority of agentdeck's rules (0-999; admin tier 5 + priority/1000 outranks
#: every user, workspace and extension rule whatever their priority)
PRIORITY = 999
POLICIES_MARK = "# agentdeck org layer: admin-tier policy rules"

FACTS = OrgFacts(
    target=SPEC.name, verified=VERIFIED,
    path=GEMINI.system_settings_file, kind="file", shared_name=True,
    pre_tool_event="BeforeTool",
    # Gemini skips a system settings file (and the system policies folder) that is not root's
    # or is group/other-writable, or has such a folder above it ("Security Warning: Skipping
    # system settings file"): it does check -- by dropping the layer, so agentdeck's own check
    # still decides whether the layer is in effect
    cli_checks_ownership=True,
    # observed with agentdeck in the user's home too: Gemini ran both BeforeTool hooks (the user
    # layer's line said allow, the org's deny; the call did not run)
    user_pre_hook_runs_after_org_deny=True,
    attempts=frozen_map({
        "hooks_enabled": "user settings.json \"hooksConfig\": {\"enabled\": false}: holds ONLY "
                         "with hooksConfig.enabled: true in the system file (without it the "
                         "system hook did not run and the call went through)",
        "project_hooks_enabled": "a trusted folder's .gemini/settings.json hooksConfig.enabled: "
                                 "false: holds with the system file's true",
        "yolo": "--yolo: holds (hooks and policy rules run under it)",
        "user_allow_hook": "a user BeforeTool hook answering allow: holds (a deny from any hook "
                           "wins)",
        "user_policy_allow": "a user policy ~/.gemini/policies/*.toml allowing every tool at "
                             "priority 999: holds (admin tier outranks it)",
        "disabled_name": "the org hook's name (\"agentdeck-org\") in the user's "
                         "hooksConfig.disabled: does NOT hold for the hook (the lists of every "
                         "layer are merged; the system file cannot take a name back); the admin "
                         "policy rules still deny what they match",
        "system_path_env": "GEMINI_CLI_SYSTEM_SETTINGS_PATH at a file of the user's: does NOT "
                           "hold for the hook (that file is read instead of "
                           "/etc/gemini-cli/settings.json); the admin policy rules still deny "
                           "what they match",
    }),
    keys=frozen_map({
        # pinned in the highest layer: the user's and a project's false then leave it running
        "hooks_on": GEMINI.hooks_enabled_key,
        # [org] mcp_denied / mcp_allowed: the system file's mcp.excluded (merged with every
        # layer's) and mcp.allowed (intersected with every layer's)
        "mcp_denied": ("mcp", "excluded"),
        "mcp_allowed": ("mcp", "allowed"),
    }),
    limits=(
        "the org hook's name (\"agentdeck-org\") in hooksConfig.disabled of the user's "
        "settings.json or a trusted folder's .gemini/settings.json switches the org hook off: "
        "Gemini merges that list from every layer, so the system file cannot pin it",
        "GEMINI_CLI_SYSTEM_SETTINGS_PATH, set by the user, makes another file the system "
        "settings file: the org hook and its hooksConfig.enabled pin are then gone",
        "Gemini skips /etc/gemini-cli/settings.json, and the policies folder, when it or a "
        "folder above it is not root's or is writable by group or others (a Security Warning, "
        "and the turn runs without the layer)",
        "the admin policy rules hold against both of the above, but match the text of a call's "
        "arguments, not the file it reaches: a path rule holds for `~/` and `$HOME/` spellings "
        "of its paths (a shell glob there too), not for an absolute path or a relative one from "
        "the home; a shell rule for a command's first word",
        "one system settings file: an administrator's own /etc/gemini-cli/settings.json is "
        "foreign to the plan and kept unless taken (--take: agentdeck writes the whole file; "
        "uninstall gives theirs back); kept, no org hook runs and org status says the layer is "
        "not in effect",
        "a hook that times out or cannot be started lets the call run (the entry's `|| exit 2` "
        "covers a handler that cannot start)",
        "no managed-hooks-only switch: the user's own hooks still run beside the org hook (a "
        "deny from either wins)",
        "the MCP lists (mcp.excluded, mcp.allowed) hold against the user's and a project's own "
        "lists, but --allowed-mcp-server-names on a run replaces both (a server named there "
        "starts), and GEMINI_CLI_SYSTEM_SETTINGS_PATH undoes them with the whole file",
    ),
    undone_by=frozen_map({
        "hooksConfig.disabled": "the org hook's name in the user's or a trusted folder's "
                                "hooksConfig.disabled (merged from every layer)",
        GEMINI.system_settings_env: "set by the user, another file is the system settings "
                                    "file",
        "--allowed-mcp-server-names": "on a run: the org MCP lists are replaced by the names "
                                      "given",
        "insecure /etc/gemini-cli": "a file or folder on the path not root's, or writable by "
                                    "group or others: Gemini skips the layer",
    }),
)

#: a user hook that answers "allow" in Gemini's channel
ALLOW = """echo '{"decision":"allow"}'"""


# ---- the system settings file -----------------------------------------------------------------

def layer_doc(req: LayerRequest) -> dict:
    """The system file: hooksConfig.enabled pinned true (the user's and a project's false lose
    to it), the org BeforeTool hook, named, with its timeout in milliseconds, and the [org]
    MCP lists as mcp.excluded / mcp.allowed."""
    doc: dict = {"hooksConfig": {"enabled": True},
                 "hooks": {FACTS.pre_tool_event: [
                     {"hooks": [{"name": HOOK_NAME, "type": "command", "command": req.command,
                                 "timeout": int(req.timeout) * 1000}]}]}}
    mcp: dict = {}
    if req.mcp_denied:
        mcp["excluded"] = sorted(req.mcp_denied)
    if req.mcp_allowed_kept is not None:
        mcp["allowed"] = list(req.mcp_allowed_kept)
    if mcp:
        doc["mcp"] = mcp
    return doc


def layer_item(req: LayerRequest, view) -> Desired:
    return Desired(SPEC.name, req.path, "file", json.dumps(layer_doc(req), indent=2) + "\n",
                   mode=req.mode, label="system settings", group="hooks",
                   reason="Gemini CLI's system settings, the highest layer: the org hook, with "
                          "hooksConfig.enabled pinned so the user's and a project's false "
                          "cannot stop it")


# ---- the admin policies file: the profile's rules as Gemini's policy engine spells them -------

#: a glob's `*` inside a path, over the JSON text of a call's arguments: a file name's
#: characters up to a separator, a quote, a blank or a shell operator
_NAME = r"[^/\"'\\\s;|&<>]"
#: where a path starts: a blank, a quote, `=` or a shell operator before it (or the start)
_START = r"(?:^|[\s\"'=;|&<>:])"
#: where it ends: the same, or the end of the text
_END = r"(?=[\s\"'\\;|&<>]|$)"
#: the home spellings the admin rule can know for every user (an absolute home it cannot)
_HOME = r"(?:~|\$HOME|\$\{HOME\})"
#: the tools of each access: a read-only or write-only rule must not deny the other access
_TOOLS = {("read",): ["read_file", "grep_search", "glob", "list_directory"],
          ("write",): ["write_file", "replace"]}
_REGEX_CHARS = set("\\.^$*+?()[]{}|")


def _lit(s: str) -> str:
    return "".join("\\" + c if c in _REGEX_CHARS else c for c in s)


def _glob(p: str) -> str | None:
    """A path glob as a regex over the argument text, or None when it cannot be spelled as
    exactly (a character class, `**`, a relative path)."""
    if p.startswith("~/"):
        head, rest = _HOME + "/", p[2:]
    elif p.startswith("/"):
        head, rest = "", p
    else:
        return None
    if "[" in rest or "**" in rest or "{" in rest:
        return None
    return head + "".join(_NAME + "*" if c == "*" else _NAME if c == "?" else _lit(c)
                          for c in rest)


def _minus(path: str, excepts: list[str]) -> tuple[str | None, bool]:
    """(the except as a lookbehind, or "" when none applies; False when an except applies that
    cannot be spelled): an except `<dir>/*<S>` for a path `<dir>/...*` with S literal."""
    d = path.rpartition("/")[0]
    out = ""
    for ex in excepts:
        if ex.rpartition("/")[0] != d:
            continue              # another folder: never the same file
        tail = ex.rpartition("/")[2]
        if not path.endswith("*") or not tail.startswith("*") or any(c in tail[1:] for c in "*?["):
            return None, False
        out += f"(?<!{_lit(tail[1:])})"
    return out, True


def admin_rules(policy: dict[str, Any] | None) -> tuple[list[dict], list[str]]:
    """The profile's deny rules Gemini's policy engine can hold at the admin tier (each one a
    subset of what agentdeck's rule denies), and one line for each left to the org hook alone."""
    rules: list[dict] = []
    left: list[str] = []
    for r in (policy or {}).get("rules") or []:
        if r.get("decision") != "deny":
            continue
        cmd = r.get("command")
        if r.get("tool", "any") in ("shell", "any") and cmd and not r.get("args"):
            names = [cmd] if isinstance(cmd, str) else list(cmd)
            rules.append({"id": r["id"], "toolName": "run_shell_command",
                          "commandPrefix": names, "reason": r.get("reason") or ""})
        else:
            left.append(f"rule {r['id']}: a pattern or an argument rule (Gemini's regular "
                        "expressions are not Python's): the org hook alone")
    for r in (policy or {}).get("paths") or []:
        if r.get("decision", "deny") != "deny":
            continue
        pats, skipped = [], []
        for p in r.get("paths") or []:
            rx = _glob(p)
            minus, ok = _minus(p, list(r.get("except") or []))
            if rx is None or not ok:
                skipped.append(p)
                continue
            pats.append(rx + (minus or ""))
        if skipped:
            left.append(f"path rule {r['id']}: {', '.join(skipped)} not spelled for Gemini's "
                        "policy engine: the org hook alone")
        if pats:
            access = tuple(sorted(set(r.get("access") or ["read", "write"])))
            tool: Any = _TOOLS.get(access, "*")
            rules.append({"id": r["id"], "toolName": tool,
                          "argsPattern": _START + "(?:" + "|".join(pats) + ")" + _END,
                          "reason": r.get("reason") or ""})
    return rules, left


def policies_text(rules: list[dict]) -> str:
    """The TOML of agentdeck's admin policy file (JSON strings are TOML basic strings)."""
    q = lambda v: json.dumps(v, ensure_ascii=True)   # noqa: E731
    out = [POLICIES_MARK, "# written by `agentdeck org apply` (root-owned; do not edit: `agentdeck "
           "org plan` reports a hand-edit)", ""]
    for r in rules:
        out.append("[[rule]]")
        out.append(f"toolName = {q(r['toolName'])}")
        for k in ("commandPrefix", "argsPattern"):
            if k in r:
                out.append(f"{k} = {q(r[k])}")
        out.append('decision = "deny"')
        out.append(f"priority = {PRIORITY}")
        out.append(f"denyMessage = {q('agentdeck org policy (' + r['id'] + '): ' + r['reason'])}")
        out.append("")
    return "\n".join(out)


def _prefix(req: LayerRequest) -> Path:
    return Path(str(req.path)[: -len(FACTS.path)] or "/")


def extra_items(req: LayerRequest, view) -> list[Desired]:
    """agentdeck's admin policy file, when the profile has a rule it can express."""
    rules, _ = admin_rules(req.policy)
    if not rules:
        return []
    return [Desired(SPEC.name, _prefix(req) / POLICIES.lstrip("/"), "file",
                    policies_text(rules), mode=req.mode, label="admin policy rules",
                    group="hooks",
                    reason="Gemini CLI's admin-tier policy: deny rules a user rule, --yolo, "
                           "hooksConfig and GEMINI_CLI_SYSTEM_SETTINGS_PATH cannot undo")]


def layer_notes(req: LayerRequest) -> list[str]:
    rules, left = admin_rules(req.policy)
    notes = [f"a user can still switch the org hook off: {FACTS.limits[0]}; {FACTS.limits[1]}",
             FACTS.limits[2]]
    notes.append(f"{count_of(len(rules), 'rule')} also written as admin-tier policy rules ({POLICIES}); "
                 "they match the text of a call's arguments, not the file it reaches"
                 if rules else "no rule of the profile can be written as an admin-tier "
                 "policy rule: the org hook alone enforces it")
    notes += left
    if req.managed_hooks_only:
        notes.append("managed_hooks_only: Gemini CLI has no such switch; the user's own hooks "
                     "still run")
    if req.no_bypass:
        notes.append("no_bypass: not written for Gemini CLI (its secure mode is a remote admin "
                     "control, not a local file); the org hook and the admin rules run under "
                     "--yolo")
    if req.mcp_denied or req.mcp_allowed is not None:
        notes.append("the MCP lists are the system file's mcp.excluded / mcp.allowed, matched "
                     "by the name the user gives a server: " + FACTS.limits[-1])
    return notes


def layer_problems(text: str) -> list[OrgProblem]:
    from ...formats.errors import FormatError   # local: the doctor's row only, not the plan
    from ...formats.jsonc import JsonDoc        # local: as above

    try:
        doc = JsonDoc.parse(text, path=FACTS.path, jsonc=True).data
    except FormatError as e:
        return [OrgProblem(f"the system settings file does not parse ({e}): Gemini CLI stops on "
                           "it", "as root: agentdeck org apply")]
    if not isinstance(doc, dict):
        return [OrgProblem("the system settings file is not a JSON object",
                           "as root: agentdeck org apply")]
    out: list[OrgProblem] = []
    conf = doc.get("hooksConfig")
    conf = conf if isinstance(conf, dict) else {}
    if conf.get("enabled") is not True:
        out.append(OrgProblem("the system settings file does not pin hooksConfig.enabled: true: "
                              "the user's or a project's false switches the org hook off",
                              "as root: agentdeck org apply"))
    disabled = conf.get("disabled")
    if isinstance(disabled, list) and HOOK_NAME in disabled:
        out.append(OrgProblem(f"the system settings file lists \"{HOOK_NAME}\" in "
                              "hooksConfig.disabled: the org hook does not run",
                              "as root: agentdeck org apply"))
    return out


def undone(host, root: Path) -> list[OrgRow]:
    """What, for the user running the doctor, switches the org layer's hook off now: the org
    hook's name in hooksConfig.disabled of their settings or the working folder's, and
    GEMINI_CLI_SYSTEM_SETTINGS_PATH in their environment (an error each; the standing facts,
    FACTS.undone_by, are in the doctor's ok line)."""
    from ...formats.errors import FormatError   # local: the doctor's row only, not the plan
    from ...formats.jsonc import JsonDoc        # local: as above
    from .health import project_file            # local: as above

    out: list[OrgRow] = []
    var = GEMINI.system_settings_env
    if host.env.get(var):
        out.append(OrgRow("error", f"{var} is set ({host.env[var]}): Gemini CLI {VERIFIED} "
                                   f"reads that file instead of {FACTS.path}, so the org hook "
                                   "does not run (the admin policy rules still do)",
                          f"unset {var}"))
    for path in (SPEC.home(host) / GEMINI.settings_file, project_file(host)):
        if path is None or not host.is_file(path):
            continue
        try:
            doc = JsonDoc.parse(host.read_text(path) or "{}", path=str(path), jsonc=True).data
        except FormatError:
            continue
        conf = doc.get("hooksConfig") if isinstance(doc, dict) else None
        disabled = conf.get("disabled") if isinstance(conf, dict) else None
        if isinstance(disabled, list) and HOOK_NAME in disabled:
            out.append(OrgRow("error", f"{host.display(path)} lists \"{HOOK_NAME}\" in "
                                       f"hooksConfig.disabled: Gemini CLI {VERIFIED} then runs "
                                       "no org hook (the list is merged from every layer; the "
                                       "admin policy rules still run)",
                              f"remove \"{HOOK_NAME}\" from it"))
    return out


def drill_attempts() -> OrgAttempts:
    """Only what holds (FACTS.attempts); hooksConfig.disabled and
    GEMINI_CLI_SYSTEM_SETTINGS_PATH do not, and are limits instead. The settings also choose
    the API-key sign-in the offline turn needs (no attempt)."""
    group = [{"hooks": [{"name": "mine", "type": "command", "command": ALLOW}]}]
    off = {"hooksConfig": {"enabled": False}}
    return OrgAttempts(
        files={"settings.json": json.dumps({
                   "security": {"auth": {"selectedType": "gemini-api-key"}},
                   "general": {"enableAutoUpdate": False,
                               "enableAutoUpdateNotification": False},
                   "telemetry": {"enabled": False}, **off,
                   "hooks": {FACTS.pre_tool_event: group}}),
               "policies/allow.toml": '[[rule]]\ntoolName = "*"\ndecision = "allow"\n'
                                      'priority = 999\n'},
        work_files={".gemini/settings.json": json.dumps(off)},
        flags=(), env={},
        words=("settings.json hooksConfig.enabled: false", "a user BeforeTool hook answering "
               "allow", "a user policy allowing every tool at priority 999",
               "a project .gemini/settings.json hooksConfig.enabled: false", "--yolo"))

# No LIVE_PROBE: `gemini -l` loads the settings but reports no hook list.


TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover  (mypy checks this module against its part's interface)
    from ..parts.org import OrgPart
    from . import org as _this
    _conforms: OrgPart = _this
