"""What `agentdeck policy show` / `policy test` say and try for Qwen Code
(core/targets/parts/policy.py; docs/facts/qwen.md section 2, "What a PreToolUse answer does")."""
from __future__ import annotations

CAVEATS = {
    "qwen": ["Qwen Code lets the tool run on a crash, a timeout, any exit but 2, and an exit 2 "
             "with nothing on stderr: agentdeck denies with exit 2 and always gives the reason",
             "a folder's .qwen/settings.json can set disableAllHooks (folder trust is off by "
             "default): `agentdeck doctor` run there shows it"],
}
