"""The compiled policy: the profile's [policy] as the JSON document the hook handler reads.

The handler must stay near bare Python start-up, so it never parses profile.toml or imports
pydantic: the install writes this document (a desired `file` item of each target's plan) and
the handler reads it with `json` alone.

Where it lives (one rule, in `policy_path`):
  copilot, codex, claude   <state dir>/policy/<target>.json (0600); the wrapper exports
                           AGENTDECK_STATE_DIR and AGENTDECK_TARGET, so the handler finds it
  repo (--repo DIR)        <repo>/.github/agentdeck/policy.json (0644, committed; NOT in
                           .github/hooks/, where Copilot loads every *.json as a hook file and
                           rejects this one); the repo hooks run with cwd = the repo root
  AGENTDECK_POLICY=<file>  overrides both (tests, and any other caller)

The handler reads it in core.hookhandler.load_policy (the one module allowed its own file access:
it runs on every tool call with no Host object).

Document (format 1):
  {"format": 1, "target": "copilot", "on_error": "allow" | "deny",
   "rules": [{"id", "tool", "match", "decision", "reason"}, ...]}
"""
from __future__ import annotations

import json
import os


FORMAT = 1
FILE_NAME = "policy.json"
REPO_PATH = os.path.join(".github", "agentdeck", FILE_NAME)
ON_ERROR_DEFAULT = "deny"           # the profile schema's default (core/schema.py Policy)


# ---- the profile side (install time) -----------------------------------------------------------
def policy_of(profile) -> dict | None:
    """The profile's [policy] as plain data ({"on_error", "rules": [...]}) or None when it has
    none. Accepts the schema's model (profile.policy) or a plain dict."""
    pol = getattr(profile, "policy", None) if not isinstance(profile, dict) else profile.get("policy")
    if pol is None:
        return None
    if hasattr(pol, "model_dump"):
        pol = pol.model_dump(exclude_none=True)
    if not isinstance(pol, dict):
        return None
    rules = []
    for r in pol.get("rules") or []:
        if hasattr(r, "model_dump"):
            r = r.model_dump(exclude_none=True)
        rules.append(dict(r))
    return {"on_error": pol.get("on_error") or ON_ERROR_DEFAULT, "rules": rules}


def compile_policy(policy: dict, target: str) -> str:
    """The compiled document's text for one target (byte-stable for equal input)."""
    from .rules import check_rule

    rules = []
    seen: set[str] = set()
    for r in policy.get("rules") or []:
        why = check_rule(r)
        if why:
            raise ValueError(f"policy rule {r.get('id') if isinstance(r, dict) else r!r}: {why}")
        if r["id"] in seen:
            raise ValueError(f"policy rule {r['id']!r}: the id is used twice")
        seen.add(r["id"])
        rules.append({"id": r["id"], "tool": r.get("tool", "any"), "match": r["match"],
                      "decision": r["decision"], "reason": r.get("reason") or ""})
    on_error = policy.get("on_error") or ON_ERROR_DEFAULT
    if on_error not in ("allow", "deny"):
        raise ValueError(f"policy on_error {on_error!r} is not allow or deny")
    doc = {"format": FORMAT, "target": target, "on_error": on_error, "rules": rules}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def desired_item(profile, host, target: str, root=None):
    """The compiled policy as a desired `file` item for `target`'s plan, or None when the
    profile has no rule (then no file: the handler allows every call and records it, whatever
    on_error says). `root`: the repository (target "repo")."""
    pol = policy_of(profile)
    if pol is None or not pol["rules"]:
        return None          # nothing to enforce: no file, the handler allows and records
    from pathlib import Path

    from ..desired import Desired
    from ..errors import UserError

    try:
        text = compile_policy(pol, target)
    except ValueError as e:
        raise UserError(str(e)) from None
    n = len(pol["rules"])
    if target == "repo":
        path, mode = Path(root) / REPO_PATH, 0o644
        why = ("the profile's [policy] for the repository's hooks (committed beside the wrapper: "
               f"Copilot CLI, VS Code and the cloud agent enforce it); {n} rule(s)")
    else:
        path, mode = Path(host.state_dir) / "policy" / f"{target}.json", 0o600
        why = f"the profile's [policy] as agentdeck's hook handler reads it; {n} rule(s)"
    return Desired(target, path, "file", text, mode=mode, label="compiled policy",
                   group="hooks", reason=why)


# ---- the handler side (every decision) ---------------------------------------------------------
def policy_path(env, state_dir: str) -> str:
    explicit = env.get("AGENTDECK_POLICY")
    if explicit:
        return explicit
    target = env.get("AGENTDECK_TARGET") or ""
    if target == "repo":
        return REPO_PATH
    return os.path.join(state_dir, "policy", f"{target or 'unknown'}.json")


def add_to(state, profile, host, target: str, root=None) -> None:
    """The one call each adapter makes where it adds its hook wrapper: the compiled policy joins
    the target's plan when the profile has a [policy]."""
    item = desired_item(profile, host, target, root)
    if item is not None:
        state.add(item)
        from .enforcement import ask_notices
        for message in ask_notices(policy_of(profile), target):
            state.note(message, str(item.path))
