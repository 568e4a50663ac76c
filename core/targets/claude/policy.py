"""What `agentdeck policy show` / `policy test` say and try for Claude Code
(core/targets/parts/policy.py)."""
from __future__ import annotations

CAVEATS = {
    "claude": ["exit 1 lets the tool run: agentdeck denies with exit 2 only"],
}
