"""The `policy` part: what `agentdeck policy show` and `policy test` say and try per target.

core/targets/<name>/policy.py provides (module attributes):

    CAVEATS    {caller: [str]}: what the Policy tab says about enforcement in the hooks of the
               target (and of every scope its dialect module speaks for, core/targets/parts/
               dialect.py SPEAKERS), plain text
    GUARDED    (optional) the CLI's files the built-in rule agentdeck-self keeps an agent from
               writing, beside agentdeck's own (core/policy/compiled.py self_protection): a
               path relative to the target's home (the settings its hooks are in, agentdeck's
               wrapper there), or a glob starting with `**/` for a file the CLI reads from any
               working folder (a project settings file that can switch the hooks off)

The hook handler never imports a policy part: its own facts are the dialect part's.
"""
from __future__ import annotations
