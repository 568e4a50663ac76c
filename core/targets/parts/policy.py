"""The `policy` part: what `agentdeck policy show` and `policy test` say and try per target.

core/targets/<name>/policy.py provides (module attributes):

    CAVEATS    {caller: [str]}: what the Policy tab says about enforcement in the hooks of the
               target (and of every scope its dialect module speaks for, core/targets/parts/
               dialect.py SPEAKERS), plain text

The hook handler never imports a policy part: its own facts are the dialect part's.
"""
from __future__ import annotations
