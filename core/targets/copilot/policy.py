"""What `agentdeck policy show` / `policy test` say and try for GitHub Copilot CLI and for the
repository scope its dialect speaks for (core/targets/parts/policy.py)."""
from __future__ import annotations

CAVEATS = {
    "copilot": ["preMcpToolCall cannot deny (the MCP tool still runs): rules on MCP tools are "
                "enforced at preToolUse",
                "a hook that times out lets the tool run (every CLI fails open on a timeout)"],
    "repo": ["VS Code ignores matchers: every hook sees every tool, the handler filters itself",
             "the Copilot cloud agent treats ask as deny",
             "Copilot CLI loads repository hooks only in a trusted folder"],
}
