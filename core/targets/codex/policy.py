"""What `agentdeck policy show` / `policy test` say and try for OpenAI Codex CLI
(core/targets/parts/policy.py)."""
from __future__ import annotations

CAVEATS = {
    "codex": ["Codex runs only trusted hooks, silently skipping untrusted ones: without "
              "`apply --trust-hooks` (or the operator's approval) no rule is enforced",
              "exit 1 lets the tool run: agentdeck denies with exit 2 only"],
}
