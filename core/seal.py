"""The guard's seal: what the hook wrapper records so that a damaged guard fails closed.

Every target's wrapper (core/targets/wrapper.py render_wrapper) is written with three lines this
module fills in from the compiled policy the same plan writes (core/policy/compiled.py):

    AGENTDECK_POLICY=<the compiled policy's path>
    AGENTDECK_POLICY_SHA256=<its sha256>     (empty: the profile has no rule, so no policy)
    AGENTDECK_ON_ERROR=deny|allow            (the policy's on_error: the fail mode)

The wrapper sets them itself, so an environment the CLI passes (its `.env` files, a project
settings file's `env`) cannot point the handler elsewhere. The handler (core/hookhandler.py)
reads only the sealed path, refuses a policy whose bytes do not match the digest (missing,
emptied, corrupted, rewritten), and then answers the wrapper's fail mode, never the damaged
file's own on_error; the wrapper answers the same fail mode when the handler cannot run. Both
items are agentdeck's own (Desired.own): a plan puts a damaged one back.

What the digest proves: the policy the handler enforces is byte for byte the one the last apply
wrote (or that a write went through `agentdeck apply`). What it does not: the wrapper itself is
as protected as the files a hook can guard (the `agentdeck-self` rule and the CLI's own layers);
a process that can rewrite both the wrapper and the policy consistently is not stopped by it
(docs/policy.md "on_error: the guard fails closed").
"""
from __future__ import annotations

import hashlib
import json

from .desired import DesiredState
from .targets import wrapper

POLICY_LABEL = "compiled policy"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seal(state: DesiredState) -> DesiredState:
    """Fill in the seal of every wrapper of `state` from its compiled policy, and mark both as
    agentdeck's own. Changes `state` in place and returns it."""
    policy = next((i for i in state.items if i.kind == "file" and i.label == POLICY_LABEL
                   and isinstance(i.value, str)), None)
    path = digest_ = ""
    on_error = "allow"
    if policy is not None:
        path, digest_ = str(policy.path), digest(policy.value)
        try:
            on_error = str(json.loads(policy.value).get("on_error") or "allow")
        except ValueError:
            on_error = "deny"
        policy.own = True
    for item in state.items:
        if item.kind == "file" and isinstance(item.value, str) and wrapper.is_wrapper(item.value):
            item.value = wrapper.sealed(item.value, path, digest_, on_error)
            item.own = True
    return state
